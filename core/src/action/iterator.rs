//! The Iterator of the paper (section 3.3): what chooses the next node.

use crate::actor::{ActiveList, Flow, Frame};
use crate::error::TraversalError;
use crate::graph::{Graph, NodeIndex};
use crate::run::Capabilities;

/// One step of a traversal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A node starts to be traversed; its active list is in
    /// [`TraversalIterator::active`].
    Enter {
        /// The node.
        node: NodeIndex,
        /// Its depth below the traversal root.
        depth: u32,
        /// The parent's saved states ([`Frame::ROOT`] but under [`OrderedState::Copies`](crate::OrderedState::Copies)).
        frame: Frame,
    },
    /// All of a node's descendants are done.
    Leave {
        /// The node.
        node: NodeIndex,
        /// Its depth below the traversal root.
        depth: u32,
        /// The node's own saved states (as for `Enter`).
        frame: Frame,
    },
    /// A batch of nodes, all at `depth`, is in [`TraversalIterator::active`]
    /// (breadth-first iterators).
    Batch {
        /// The depth of every node in the batch.
        depth: u32,
    },
}

/// The paper's Iterator: keeps the nodes still to be traversed and picks the next one.
/// The graph is passed in at each call, so an iterator (and its
/// [`Action`](crate::Action)) is reused across runs and graphs. Implementations must
/// not recurse: a million-deep chain has to work.
///
/// A run is [`start`](Self::start), then [`next`](Self::next) until `None`; after each
/// [`Step::Enter`] or [`Step::Batch`] the actors get [`active`](Self::active), then
/// [`commit`](Self::commit) takes their combined [`Flow`]. An
/// [`OrderedState::Copies`](crate::OrderedState::Copies) iterator stores the `frame` given to `commit` with every
/// child kept (and the node's pending leave), each step using one up; `commit` returns
/// how many it stored. A new order implements this trait, in any crate; this one keeps
/// a stack of pending nodes (pre-order, no leave events):
///
/// ```
/// use scenewalk_core::{
///     Action, ActiveEntry, ActiveList, Arms, Capabilities, Flow, Frame, Graph, NodeIndex,
///     OrderedState, Step, TraversalError, TraversalIterator, Unordered,
/// };
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// #[derive(Default)]
/// struct Stack {
///     pending: Vec<(NodeIndex, u32)>,
///     children: Vec<ActiveEntry>,
/// }
/// impl TraversalIterator for Stack {
///     fn capabilities(&self) -> Capabilities {
///         Capabilities {
///             name: "Stack",
///             leave_events: false,
///             current_node: true,
///             ordered_state: OrderedState::Unsupported,
///         }
///     }
///     fn start(&mut self, _: &Graph, root: NodeIndex, _leave_events: bool) {
///         self.pending = vec![(root, 0)];
///     }
///     fn next(&mut self, graph: &Graph) -> Option<Step> {
///         let (node, depth) = self.pending.pop()?;
///         let kids = graph.children_at(node);
///         self.children.clear();
///         self.children.extend(kids.map(|c| ActiveEntry::new(c, depth + 1)));
///         Some(Step::Enter { node, depth, frame: Frame::ROOT })
///     }
///     fn active<'a>(&'a mut self, _: &'a Graph) -> ActiveList<'a> {
///         ActiveList::new(&mut self.children)
///     }
///     fn commit(&mut self, _: &Graph, flow: Flow, _: Frame) -> Result<u32, TraversalError> {
///         if flow == Flow::Continue {
///             // Pushed last to first, so the first child comes out first.
///             let kept = self.children.iter().rev().filter(|e| e.is_active());
///             self.pending.extend(kept.map(|e| (e.node(), e.depth())));
///         }
///         Ok(0)
///     }
///     fn clear(&mut self) {
///         self.pending.clear(); // `next` refills the children
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// let a1 = graph.append_child(a, Group)?;
/// let b = graph.append_child(root, Group)?;
/// let order = Arms::new(Vec::new()).otherwise(|v, cx: &mut Vec<NodeIndex>| { cx.push(v.node()); Flow::Continue });
/// let mut action = Action::new(Stack::default(), (Unordered::new(order),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.context::<Vec<NodeIndex>>().unwrap(), &[root, a, a1, b].map(|id| id.index()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TraversalIterator {
    /// What this iterator gives actors.
    fn capabilities(&self) -> Capabilities;

    /// Prepares a run from `root`, clearing an earlier run's leftovers; `leave_events`:
    /// whether any actor wants them.
    fn start(&mut self, graph: &Graph, root: NodeIndex, leave_events: bool);

    /// The next step, or `None` when the traversal is done.
    fn next(&mut self, graph: &Graph) -> Option<Step>;

    /// The active list of the node of the last [`Step::Enter`] (or the last batch).
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a>;

    /// Takes the actors' verdict on the last entered node (or batch) and its active
    /// list; returns how many times `frame` was stored.
    fn commit(&mut self, graph: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError>;

    /// Drops all pending work (after [`Flow::Stop`] or an error), keeping buffers.
    fn clear(&mut self);

    /// Runs the traversal [`start`](Self::start)ed, handing every step to `sink`: the
    /// loop an [`Action`](crate::Action) runs, by `next`, `active` and `commit`. An
    /// override (a loop fused with the sink, as [`DepthFirst`](crate::DepthFirst)'s) must
    /// give the same steps.
    fn drive<S: StepSink>(&mut self, graph: &Graph, sink: &mut S) -> Result<(), TraversalError>
    where
        Self: Sized,
    {
        while let Some(step) = self.next(graph) {
            match step {
                Step::Enter { node, depth, frame } => {
                    let flow = sink.enter(node, depth, frame, &mut self.active(graph));
                    if flow == Flow::Stop {
                        return Ok(());
                    }
                    let saved = sink.save_frame();
                    let refs = self.commit(graph, flow, saved)?;
                    sink.hold_frame(saved, refs);
                }
                Step::Leave { node, depth, frame } => sink.leave(node, depth, frame),
                Step::Batch { depth } => {
                    let flow = sink.batch(depth, &mut self.active(graph));
                    if flow == Flow::Stop {
                        return Ok(());
                    }
                    self.commit(graph, flow, Frame::ROOT)?;
                }
            }
        }
        Ok(())
    }
}

/// What receives the steps of [`TraversalIterator::drive`]: the action's side of the
/// loop; a sink of one's own drives an iterator without an action.
///
/// ```
/// use scenewalk_core::{ActiveList, DepthFirst, Flow, Frame, Graph, NodeIndex, StepSink, TraversalIterator};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// struct Trace(Vec<i64>); // +slot at enter, -slot at leave
/// impl StepSink for Trace {
///     fn enter(&mut self, node: NodeIndex, _: u32, _: Frame, _: &mut ActiveList<'_>) -> Flow {
///         self.0.push(node.get() as i64);
///         Flow::Continue
///     }
///     fn leave(&mut self, node: NodeIndex, _: u32, _: Frame) {
///         self.0.push(-(node.get() as i64));
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// graph.append_child(root, Group)?;
/// let (mut iterator, mut trace) = (DepthFirst::new(), Trace(Vec::new()));
/// iterator.start(&graph, root.index(), true);
/// iterator.drive(&graph, &mut trace)?;
/// assert_eq!(trace.0, [0, 1, -1, -0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait StepSink {
    /// `node` is entered with the states of `frame`; returns the actors' verdict
    /// ([`Flow::Stop`] ends the drive).
    fn enter(
        &mut self,
        node: NodeIndex,
        depth: u32,
        frame: Frame,
        active: &mut ActiveList<'_>,
    ) -> Flow;
    /// After an enter: the frame the states were saved as, for
    /// [`TraversalIterator::commit`] (by default [`Frame::ROOT`]: no frames).
    fn save_frame(&mut self) -> Frame {
        Frame::ROOT
    }
    /// The iterator stored `frame` `refs` times.
    fn hold_frame(&mut self, _frame: Frame, _refs: u32) {}
    /// `node` is left; `frame` is its own saved states.
    fn leave(&mut self, node: NodeIndex, depth: u32, frame: Frame);
    /// A batch of nodes at `depth`; returns the actors' verdict.
    fn batch(&mut self, _depth: u32, _batch: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}
