//! The depth-first iterator: document order, nested enter/leave, no recursion.

use crate::action::{Step, StepSink, TraversalIterator};
use crate::actor::{ActiveEntry, ActiveList, Flow, Frame, ListState};
use crate::error::TraversalError;
use crate::graph::{ChildOrder, Dfs, Event, Graph, NodeIndex};
use crate::invariant::Invariant;
use crate::run::{Capabilities, OrderedState};

/// A node whose children come from its built active list rather than its links.
#[derive(Clone, Copy, Debug)]
struct OpenList {
    owner: NodeIndex,
    /// Where the owner's list starts in `entries`.
    start: u32,
    /// The entry of the child being traversed.
    cursor: u32,
}

/// The buffers of the active lists actors looked at.
#[derive(Clone, Debug, Default)]
struct Buffers {
    /// One region per open list, then the current node's list while an actor builds it.
    entries: Vec<ActiveEntry>,
    open: Vec<OpenList>,
}

/// The [`Dfs`] step's child order in [`DepthFirst`]: the links, or the active lists that
/// actors built. The scalars are copied in, so a loop keeps them in registers.
struct Lists<'a> {
    buf: &'a mut Buffers,
    /// What the actors did to the current node's list.
    state: ListState,
    /// Where the current node's list starts in `entries`.
    start: usize,
}

impl Lists<'_> {
    /// The active list of `node` (at `depth`), built only if an actor looks at it.
    #[inline(always)]
    fn active<'b>(&'b mut self, graph: &'b Graph, node: NodeIndex, depth: u32) -> ActiveList<'b> {
        self.start = self.buf.entries.len();
        ActiveList::lazy(
            graph,
            node,
            depth + 1,
            &mut self.buf.entries,
            &mut self.state,
        )
    }

    /// Whether `node` was reached through its parent's built list.
    #[inline(always)]
    fn listed(&self, graph: &Graph, node: NodeIndex) -> bool {
        self.buf
            .open
            .last()
            .is_some_and(|list| Some(list.owner) == graph.parent_at(node))
    }
}

impl ChildOrder for Lists<'_> {
    #[inline(always)]
    fn first(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        match self.state {
            ListState::Untouched => graph.first_child_at(node),
            ListState::Cleared => {
                self.buf.entries.truncate(self.start);
                None
            }
            ListState::Filled => {
                let start = self.start.min(self.buf.entries.len());
                let region = self
                    .buf
                    .entries
                    .get_mut(start..)
                    .invariant("a clamped range");
                // Swapping the active entries forward keeps their order.
                let mut kept = 0;
                for i in 0..region.len() {
                    if region.get(i).is_some_and(ActiveEntry::is_active) {
                        region.swap(kept, i);
                        kept += 1;
                    }
                }
                self.buf.entries.truncate(start + kept);
                let first = self.buf.entries.get(start)?.node();
                self.buf.open.push(OpenList {
                    owner: node,
                    start: start as u32,
                    cursor: start as u32,
                });
                Some(first)
            }
        }
    }

    #[inline(always)]
    fn next(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        if !self.listed(graph, node) {
            return graph.next_sibling_at(node);
        }
        let list = self.buf.open.last_mut()?;
        let next = list.cursor as usize + 1;
        if let Some(entry) = self.buf.entries.get(next) {
            list.cursor = next as u32;
            return Some(entry.node());
        }
        // The owner's list is done: the walk climbs to the owner.
        let start = list.start as usize;
        self.buf.open.pop();
        self.buf.entries.truncate(start);
        None
    }

    #[inline(always)]
    fn parent(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        graph.parent_at(node)
    }
}

/// Depth-first, pre-order, in document order (paper 3.3.1), with nested leave events
/// when an actor wants them: the [`Dfs`] step, with children from the links or, where an
/// actor looked at a node's active list, from that list (kept on a small stack while its
/// nodes are walked). Nothing recurses (a million-deep chain is fine); steady-state runs
/// do not allocate.
///
/// ```
/// use scenewalk_core::{Action, ActiveList, DepthFirst, Events, Flow, Graph, Unordered, UnorderedActor, Visit};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// struct Trace(Vec<String>);
/// impl UnorderedActor for Trace {
///     const EVENTS: Events = Events::EnterLeave;
///     fn enter(&mut self, v: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         self.0.push(format!("+{}", v.node().get()));
///         Flow::Continue
///     }
///     fn leave(&mut self, v: &Visit<'_>) {
///         self.0.push(format!("-{}", v.node().get()));
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// graph.append_child(a, Group)?;
/// graph.append_child(root, Group)?;
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Trace(Vec::new())),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actor::<Trace>().unwrap().0, ["+0", "+1", "+2", "-2", "-1", "+3", "-3", "-0"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct DepthFirst {
    dfs: Dfs,
    leave_events: bool,
    buf: Buffers,
    /// [`Lists::state`] and [`Lists::start`] between pulled steps.
    state: ListState,
    start: usize,
}

impl Default for DepthFirst {
    fn default() -> Self {
        Self::new()
    }
}

/// A step that no walk takes: the state before a start and after a clear.
fn finished() -> Dfs {
    let mut dfs = Dfs::new(NodeIndex::new(0));
    dfs.stop();
    dfs
}

impl DepthFirst {
    /// A depth-first iterator with empty buffers.
    pub fn new() -> Self {
        Self {
            dfs: finished(),
            leave_events: false,
            buf: Buffers::default(),
            state: ListState::Untouched,
            start: 0,
        }
    }

    /// The loop of every depth-first run: the siblings `first` to `last` at `depth` and
    /// their subtrees, in document order, into `sink`. Below the starting level,
    /// `handoff(sink, node, depth, by_links)` may hand `node` and a run of its next
    /// siblings off, returning the run's last node (`by_links`: reached by links, not a
    /// built list). Returns false when the sink stopped the walk.
    #[inline(always)]
    pub(crate) fn drive_subtree<S: StepSink>(
        &mut self,
        graph: &Graph,
        sink: &mut S,
        handoff: impl FnMut(&mut S, NodeIndex, u32, bool) -> Option<NodeIndex>,
        (first, last): (NodeIndex, NodeIndex),
        depth: u32,
        leave_events: bool,
    ) -> bool {
        self.clear();
        self.dfs = Dfs::run(first, last, depth);
        self.drive_on(graph, sink, handoff, depth, leave_events)
    }

    /// The walk from where the step stands to its end, into `sink`; below depth `top`,
    /// `handoff` as in [`drive_subtree`](Self::drive_subtree).
    #[inline(always)]
    pub(crate) fn drive_on<S: StepSink>(
        &mut self,
        graph: &Graph,
        sink: &mut S,
        handoff: impl FnMut(&mut S, NodeIndex, u32, bool) -> Option<NodeIndex>,
        top: u32,
        leave_events: bool,
    ) -> bool {
        // A local copy stays in registers across the sink's calls.
        let mut dfs = self.dfs;
        let mut lists = Lists {
            buf: &mut self.buf,
            state: self.state,
            start: self.start,
        };
        let going = drive_steps(
            &mut dfs,
            &mut lists,
            graph,
            sink,
            handoff,
            top,
            leave_events,
        );
        (self.dfs, self.state, self.start) = (dfs, lists.state, lists.start);
        going
    }
}

/// [`DepthFirst::drive_on`]'s loop, on local copies of the step and the lists: they stay
/// in registers across the sink's calls.
#[inline(always)]
fn drive_steps<S: StepSink>(
    dfs: &mut Dfs,
    lists: &mut Lists<'_>,
    graph: &Graph,
    sink: &mut S,
    mut handoff: impl FnMut(&mut S, NodeIndex, u32, bool) -> Option<NodeIndex>,
    top: u32,
    leave_events: bool,
) -> bool {
    while let Some(event) = dfs.step(graph, lists, leave_events) {
        let depth = dfs.depth();
        let node = match event {
            Event::Enter(node) => node,
            Event::Leave(node) => {
                sink.leave(node, depth, Frame::ROOT);
                continue;
            }
        };
        if depth != top {
            let by_links = !lists.listed(graph, node);
            if let Some(run_end) = handoff(sink, node, depth, by_links) {
                dfs.done_with(run_end);
                continue;
            }
        }
        let active = &mut lists.active(graph, node, depth);
        match sink.enter(node, depth, Frame::ROOT, active) {
            Flow::Continue => {}
            Flow::Prune => lists.state = ListState::Cleared,
            Flow::Stop => return false,
        }
    }
    true
}

impl TraversalIterator for DepthFirst {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "DepthFirst",
            leave_events: true,
            current_node: true,
            ordered_state: OrderedState::DepthStack,
        }
    }

    fn start(&mut self, _graph: &Graph, root: NodeIndex, leave_events: bool) {
        self.clear();
        self.leave_events = leave_events;
        self.dfs = Dfs::new(root);
    }

    #[inline(always)]
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        let lists = &mut Lists {
            buf: &mut self.buf,
            state: self.state,
            start: self.start,
        };
        let event = self.dfs.step(graph, lists, self.leave_events)?;
        let (depth, frame) = (self.dfs.depth(), Frame::ROOT);
        Some(match event {
            Event::Enter(node) => Step::Enter { node, depth, frame },
            Event::Leave(node) => Step::Leave { node, depth, frame },
        })
    }

    /// The walk of `next` from where it stands, as one loop the compiler fuses with the
    /// action.
    #[inline(always)]
    fn drive<S: StepSink>(&mut self, graph: &Graph, sink: &mut S) -> Result<(), TraversalError> {
        let none = |_: &mut S, _, _, _| None;
        if !self.drive_on(graph, sink, none, 0, self.leave_events) {
            self.dfs.stop();
        }
        Ok(())
    }

    #[inline(always)]
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        self.start = self.buf.entries.len();
        let (node, depth) = (self.dfs.node(), self.dfs.depth());
        ActiveList::lazy(
            graph,
            node,
            depth + 1,
            &mut self.buf.entries,
            &mut self.state,
        )
    }

    #[inline(always)]
    fn commit(&mut self, _graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        if flow != Flow::Continue {
            self.state = ListState::Cleared;
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.buf.entries.clear();
        self.buf.open.clear();
        (self.state, self.start) = (ListState::Untouched, 0);
        self.dfs = finished();
    }
}
