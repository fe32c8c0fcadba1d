//! The depth-first iterator: an explicit stack, document order, no recursion.

use scenewalk_core::{
    ActiveEntry, ActiveList, Capabilities, Flow, Frame, Graph, NodeIndex, OrderedState, Step,
    TraversalError, TraversalIterator,
};

/// Depth-first, pre-order, in document order (paper 3.3.1), with properly nested leave
/// events when an actor wants them.
///
/// The pending nodes live on an explicit stack that is also the active list: a node's
/// children are pushed once, shown to the actors in place, then reversed so they pop
/// in document order. Nothing recurses, so a million-deep chain is fine, and the stack
/// is kept between runs, so steady-state runs do not allocate.
///
/// ```
/// use scenewalk_core::{Action, ActiveList, Flow, Graph, Unordered, UnorderedActor, Visit, Events};
/// use scenewalk_iterators::DepthFirst;
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// #[derive(Default)]
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
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Trace::default()),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actor::<Trace>().unwrap().0, ["+0", "+1", "+2", "-2", "-1", "+3", "-3", "-0"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct DepthFirst {
    stack: Vec<ActiveEntry>,
    /// Where the last entered node's children start on the stack.
    mark: usize,
    leave_events: bool,
}

impl DepthFirst {
    /// A depth-first iterator with an empty stack.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many entries the stack can hold without growing.
    pub fn stack_capacity(&self) -> usize {
        self.stack.capacity()
    }
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
        self.stack.clear();
        self.stack.push(ActiveEntry::new(root, 0));
        self.mark = self.stack.len();
        self.leave_events = leave_events;
    }

    #[inline]
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        let entry = self.stack.pop()?;
        let (node, depth) = (entry.node(), entry.depth());
        if entry.is_marker() {
            self.mark = self.stack.len();
            return Some(Step::Leave {
                node,
                depth,
                frame: Frame::ROOT,
            });
        }
        if self.leave_events {
            self.stack.push(ActiveEntry::marker(node, depth));
        }
        self.mark = self.stack.len();
        let mut child = graph.first_child_at(node);
        while let Some(c) = child {
            self.stack.push(ActiveEntry::new(c, depth + 1));
            child = graph.next_sibling_at(c);
        }
        Some(Step::Enter {
            node,
            depth,
            frame: Frame::ROOT,
        })
    }

    #[inline]
    fn active(&mut self) -> ActiveList<'_> {
        let mark = self.mark.min(self.stack.len());
        ActiveList::new(&mut self.stack[mark..])
    }

    #[inline]
    fn commit(&mut self, _graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        let mark = self.mark.min(self.stack.len());
        if flow != Flow::Continue {
            self.stack.truncate(mark);
            return Ok(0);
        }
        let children = &mut self.stack[mark..];
        if !children.iter().all(ActiveEntry::is_active) {
            let mut kept = 0;
            for i in 0..children.len() {
                if children[i].is_active() {
                    children[kept] = children[i];
                    kept += 1;
                }
            }
            self.stack.truncate(mark + kept);
        }
        self.stack[mark..].reverse();
        Ok(0)
    }

    fn clear(&mut self) {
        self.stack.clear();
        self.mark = 0;
    }
}
