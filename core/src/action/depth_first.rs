//! The depth-first iterator: document order, nested enter/leave, no recursion.

use crate::action::{Step, StepSink, TraversalIterator};
use crate::actor::{ActiveEntry, ActiveList, Flow, Frame, ListState};
use crate::error::TraversalError;
use crate::graph::{Graph, NodeIndex};
use crate::invariant::Invariant;
use crate::run::{Capabilities, OrderedState};

/// A node whose children come from its built active list rather than its links.
#[derive(Clone, Copy, Debug)]
struct OpenList {
    owner: NodeIndex,
    /// Where the owner's list starts in `lists`.
    start: u32,
    /// The entry of the child being traversed.
    cursor: u32,
}

/// What the loop does next at the current node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Todo {
    /// Enter the current node.
    Enter,
    /// Go into the current node's children, or finish it if it has none.
    Descend,
    /// The current node is done (and left): go on to its next sibling or climb.
    Climb,
    /// Nothing left.
    Done,
}

/// Where the loop stands: at `node`, `todo` next.
#[derive(Clone, Copy, Debug)]
struct Place {
    node: NodeIndex,
    depth: u32,
    todo: Todo,
    /// What the actors did with the node's active list (once entered).
    list_state: ListState,
    /// Where the node's list would start in `lists`.
    list_start: usize,
}

impl Place {
    /// At `node`, with no active list yet.
    fn new(node: NodeIndex, depth: u32, todo: Todo) -> Self {
        let (list_state, list_start) = (ListState::Untouched, 0);
        Self {
            node,
            depth,
            todo,
            list_state,
            list_start,
        }
    }
}

/// Where the walk goes after a node's subtree is done.
enum After {
    /// To this next sibling (`true`: from its parent's built active list).
    Sibling(NodeIndex, bool),
    /// Up to this parent, whose subtree is then done too.
    Parent(NodeIndex),
    /// Nowhere: the traversal root is done.
    End,
}

/// Depth-first, pre-order, in document order (paper 3.3.1), with nested leave events
/// when an actor wants them. It moves along the links like a hand-written walk: only a
/// node whose active list an actor looked at keeps an open list on a small stack. Nothing
/// recurses (a million-deep chain is fine); steady-state runs do not allocate.
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
    root: NodeIndex,
    /// Where the pulled walk stands.
    at: Place,
    leave_events: bool,
    /// Active lists that actors looked at, one region per open list.
    lists: Vec<ActiveEntry>,
    open: Vec<OpenList>,
}

impl Default for DepthFirst {
    fn default() -> Self {
        Self::new()
    }
}

impl DepthFirst {
    /// A depth-first iterator with empty buffers.
    pub fn new() -> Self {
        Self {
            root: NodeIndex::new(0),
            at: Place::new(NodeIndex::new(0), 0, Todo::Done),
            leave_events: false,
            lists: Vec::new(),
            open: Vec::new(),
        }
    }

    /// The current node's first child to traverse, from its links or its built list
    /// (`list_state`: what the actors did with the node's active list).
    #[inline(always)]
    fn first_child(
        &mut self,
        graph: &Graph,
        node: NodeIndex,
        list_start: usize,
        list_state: ListState,
    ) -> Option<NodeIndex> {
        match list_state {
            ListState::Untouched => graph.first_child_at(node),
            ListState::Cleared => {
                self.lists.truncate(list_start);
                None
            }
            ListState::Filled => {
                let start = list_start.min(self.lists.len());
                let region = self.lists.get_mut(start..).invariant("a clamped range");
                // Swapping the active entries forward keeps their order.
                let mut kept = 0;
                for i in 0..region.len() {
                    if region.get(i).is_some_and(ActiveEntry::is_active) {
                        region.swap(kept, i);
                        kept += 1;
                    }
                }
                self.lists.truncate(start + kept);
                let first = self.lists.get(start)?.node();
                self.open.push(OpenList {
                    owner: node,
                    start: start as u32,
                    cursor: start as u32,
                });
                Some(first)
            }
        }
    }

    /// One step after `node`'s subtree is done: its next sibling (from its parent's
    /// built list, if any), else its parent.
    #[inline(always)]
    fn after(&mut self, graph: &Graph, node: NodeIndex) -> After {
        if node == self.root {
            return After::End;
        }
        let mut parent = None;
        let listed = match self.open.last() {
            Some(list) => {
                parent = graph.parent_at(node);
                Some(list.owner) == parent
            }
            None => false,
        };
        if listed {
            if let Some(list) = self.open.last_mut() {
                let next = list.cursor as usize + 1;
                if let Some(entry) = self.lists.get(next) {
                    list.cursor = next as u32;
                    return After::Sibling(entry.node(), true);
                }
            }
            if let Some(list) = self.open.pop() {
                self.lists.truncate(list.start as usize);
            }
        } else if let Some(sibling) = graph.next_sibling_at(node) {
            return After::Sibling(sibling, false);
        }
        match parent.or_else(|| graph.parent_at(node)) {
            Some(parent) => After::Parent(parent),
            None => After::End,
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
        // The walk runs on a local iterator holding this one's buffers: an actor's
        // out-of-line call gets a pointer into the action, which the compiler assumes
        // may write the iterator, so a field would be reloaded after every such call.
        let mut walk = Self {
            root: first,
            lists: std::mem::take(&mut self.lists),
            open: std::mem::take(&mut self.open),
            ..Self::new()
        };
        walk.lists.clear();
        walk.open.clear();
        let from = Place::new(first, depth, Todo::Enter);
        let stop = walk.walk::<S, false>(graph, sink, handoff, (last, depth), leave_events, from);
        (self.lists, self.open) = (walk.lists, walk.open);
        stop.todo == Todo::Done
    }

    /// The one depth-first loop, from `from` to the end of the run of siblings from
    /// `root` to `last` at depth `top`, or until the sink stops it; returns where it
    /// stopped, for a later call to go on from: `Todo::Done` at the end; a sink's
    /// [`Flow::Stop`] stops it at the entered node, about to descend (what became of
    /// the node's active list then goes into the place); `STEP` stops it after every
    /// leave too. The pushed runs start at a constant `Todo::Enter` with `STEP` off,
    /// which the compiler folds out of the loop; the pulled `next` goes a step a call.
    #[inline(always)]
    fn walk<S: StepSink, const STEP: bool>(
        &mut self,
        graph: &Graph,
        sink: &mut S,
        mut handoff: impl FnMut(&mut S, NodeIndex, u32, bool) -> Option<NodeIndex>,
        (last, top): (NodeIndex, u32),
        leave_events: bool,
        from: Place,
    ) -> Place {
        // Locals, not fields: the actors' out-of-line calls then cannot reach them, so
        // the compiler keeps them out of memory and drops the list paths no actor takes.
        let (mut node, mut depth, mut todo) = (from.node, from.depth, from.todo);
        let mut list_state = from.list_state;
        let mut by_links = true;
        'enter: loop {
            // Whether `node` was entered here, so is left when done.
            let mut entered = true;
            let handed = match todo {
                Todo::Enter if depth != top => handoff(sink, node, depth, by_links),
                Todo::Enter | Todo::Descend => None,
                // Its subtree is done and left: go on from it as from a handed-off run.
                Todo::Climb => Some(node),
                Todo::Done => return from,
            };
            match handed {
                Some(run_end) => {
                    node = run_end;
                    entered = false;
                }
                None => {
                    let mut list_start = from.list_start;
                    if todo == Todo::Enter {
                        list_start = self.lists.len();
                        let flow = sink.enter(
                            node,
                            depth,
                            Frame::ROOT,
                            &mut ActiveList::lazy(
                                graph,
                                node,
                                depth + 1,
                                &mut self.lists,
                                &mut list_state,
                            ),
                        );
                        match flow {
                            Flow::Continue => {}
                            Flow::Prune => list_state = ListState::Cleared,
                            Flow::Stop => {
                                let mut at = Place::new(node, depth, Todo::Descend);
                                (at.list_state, at.list_start) = (list_state, list_start);
                                return at;
                            }
                        }
                    }
                    todo = Todo::Enter;
                    by_links = list_state == ListState::Untouched;
                    if let Some(child) = self.first_child(graph, node, list_start, list_state) {
                        node = child;
                        depth += 1;
                        continue 'enter;
                    }
                }
            }
            todo = Todo::Enter;
            loop {
                if entered && leave_events {
                    sink.leave(node, depth, Frame::ROOT);
                    if STEP {
                        return Place::new(node, depth, Todo::Climb);
                    }
                }
                entered = true;
                if depth == top {
                    // The starting level: the run's next sibling, up to its last.
                    match graph.next_sibling_at(node).filter(|_| node != last) {
                        Some(sibling) => {
                            node = sibling;
                            by_links = true;
                            continue 'enter;
                        }
                        None => break 'enter,
                    }
                }
                match self.after(graph, node) {
                    After::Sibling(sibling, listed) => {
                        node = sibling;
                        by_links = !listed;
                        continue 'enter;
                    }
                    After::Parent(parent) => {
                        node = parent;
                        depth = depth.saturating_sub(1);
                    }
                    After::End => break 'enter,
                }
            }
        }
        Place::new(node, depth, Todo::Done)
    }
}

/// The pulled `next`'s sink: takes one step and stops the walk.
struct OneStep(Option<Step>);

impl StepSink for OneStep {
    fn enter(&mut self, node: NodeIndex, depth: u32, frame: Frame, _: &mut ActiveList<'_>) -> Flow {
        self.0 = Some(Step::Enter { node, depth, frame });
        Flow::Stop
    }

    fn leave(&mut self, node: NodeIndex, depth: u32, frame: Frame) {
        self.0 = Some(Step::Leave { node, depth, frame });
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
        self.clear();
        self.leave_events = leave_events;
        self.root = root;
        self.at = Place::new(root, 0, Todo::Enter);
    }

    /// One step of the depth-first loop: the loop runs with a sink that takes the step
    /// and stops it, the iterator keeping where it stopped.
    #[inline(always)]
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        let (root, leave_events) = (self.root, self.leave_events);
        let mut step = OneStep(None);
        let none = |_: &mut OneStep, _, _, _| None;
        self.at = self.walk::<_, true>(graph, &mut step, none, (root, 0), leave_events, self.at);
        step.0
    }

    /// The walk of `next`, as one loop the compiler fuses with the action.
    #[inline(always)]
    fn drive<S: StepSink>(&mut self, graph: &Graph, sink: &mut S) -> Result<(), TraversalError> {
        if self.at.todo == Todo::Enter {
            let (root, leave_events) = (self.root, self.leave_events);
            let none = |_: &mut S, _, _, _| None;
            self.drive_subtree(graph, sink, none, (root, root), 0, leave_events);
            self.at.todo = Todo::Done;
        }
        Ok(())
    }

    #[inline(always)]
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        self.at.list_start = self.lists.len();
        ActiveList::lazy(
            graph,
            self.at.node,
            self.at.depth + 1,
            &mut self.lists,
            &mut self.at.list_state,
        )
    }

    #[inline(always)]
    fn commit(&mut self, _graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        if flow != Flow::Continue {
            self.at.list_state = ListState::Cleared;
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.lists.clear();
        self.open.clear();
        self.at.todo = Todo::Done;
    }
}
