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

/// What `next` does when called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Todo {
    /// Enter the current node (the root).
    Enter,
    /// Go into the current node's children, or finish it if it has none.
    Descend,
    /// The current node is done (and left): go on to its next sibling or climb.
    Climb,
    /// Nothing left.
    Done,
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
    current: NodeIndex,
    depth: u32,
    todo: Todo,
    leave_events: bool,
    /// Active lists that actors looked at, one region per open list.
    lists: Vec<ActiveEntry>,
    open: Vec<OpenList>,
    list_state: ListState,
    /// Where the current node's list would start in `lists`.
    list_start: usize,
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
            current: NodeIndex::new(0),
            depth: 0,
            todo: Todo::Done,
            leave_events: false,
            lists: Vec::new(),
            open: Vec::new(),
            list_state: ListState::Untouched,
            list_start: 0,
        }
    }

    #[inline(always)]
    fn enter(&mut self, node: NodeIndex) -> Option<Step> {
        self.current = node;
        self.todo = Todo::Descend;
        Some(Step::Enter {
            node,
            depth: self.depth,
            frame: Frame::ROOT,
        })
    }

    #[inline(always)]
    fn leave(&self) -> Option<Step> {
        Some(Step::Leave {
            node: self.current,
            depth: self.depth,
            frame: Frame::ROOT,
        })
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
        siblings: (NodeIndex, NodeIndex),
        depth: u32,
        leave_events: bool,
    ) -> bool {
        // The walk runs on a local iterator holding this one's buffers: an actor's
        // out-of-line call gets a pointer into the action, which the compiler assumes
        // may write the iterator, so a field would be reloaded after every such call.
        let mut walk = Self {
            lists: std::mem::take(&mut self.lists),
            open: std::mem::take(&mut self.open),
            ..Self::new()
        };
        let going = walk.walk_subtree(graph, sink, handoff, siblings, depth, leave_events);
        (self.lists, self.open) = (walk.lists, walk.open);
        going
    }

    /// [`drive_subtree`](Self::drive_subtree)'s loop.
    #[inline(always)]
    fn walk_subtree<S: StepSink>(
        &mut self,
        graph: &Graph,
        sink: &mut S,
        mut handoff: impl FnMut(&mut S, NodeIndex, u32, bool) -> Option<NodeIndex>,
        (first, last): (NodeIndex, NodeIndex),
        depth: u32,
        leave_events: bool,
    ) -> bool {
        self.lists.clear();
        self.open.clear();
        self.root = first;
        // A local, not a field: the actors' out-of-line calls then cannot reach it, so
        // the compiler keeps it out of memory and drops the list paths no actor takes.
        let mut list_state = ListState::Untouched;
        let (top, mut node, mut depth) = (depth, first, depth);
        let mut by_links = true;
        'enter: loop {
            // Whether `node` was entered, so is left when done.
            let mut entered = true;
            let handed = if depth == top {
                None
            } else {
                handoff(sink, node, depth, by_links)
            };
            match handed {
                Some(run_end) => {
                    node = run_end;
                    entered = false;
                }
                None => {
                    let list_start = self.lists.len();
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
                        Flow::Stop => return false,
                    }
                    by_links = list_state == ListState::Untouched;
                    if let Some(child) = self.first_child(graph, node, list_start, list_state) {
                        node = child;
                        depth += 1;
                        continue 'enter;
                    }
                }
            }
            loop {
                if entered && leave_events {
                    sink.leave(node, depth, Frame::ROOT);
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
                        None => return true,
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
                    After::End => return true,
                }
            }
        }
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
        self.current = root;
        self.todo = Todo::Enter;
    }

    #[inline(always)]
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        match self.todo {
            Todo::Descend => {
                let (current, start, state) = (self.current, self.list_start, self.list_state);
                if let Some(child) = self.first_child(graph, current, start, state) {
                    self.depth += 1;
                    return self.enter(child);
                }
                self.todo = Todo::Climb;
                if self.leave_events {
                    return self.leave();
                }
            }
            Todo::Climb => {}
            Todo::Enter => return self.enter(self.current),
            Todo::Done => return None,
        }
        // The current node is done: its next sibling, or climb and finish its parent.
        loop {
            match self.after(graph, self.current) {
                After::Sibling(sibling, _) => return self.enter(sibling),
                After::Parent(parent) => {
                    self.current = parent;
                    self.depth = self.depth.saturating_sub(1);
                    if self.leave_events {
                        return self.leave();
                    }
                }
                After::End => {
                    self.todo = Todo::Done;
                    return None;
                }
            }
        }
    }

    /// The walk of `next`, as one loop the compiler fuses with the action.
    #[inline(always)]
    fn drive<S: StepSink>(&mut self, graph: &Graph, sink: &mut S) -> Result<(), TraversalError> {
        if self.todo == Todo::Enter {
            let (root, leave_events) = (self.root, self.leave_events);
            let none = |_: &mut S, _, _, _| None;
            self.drive_subtree(graph, sink, none, (root, root), 0, leave_events);
            self.todo = Todo::Done;
        }
        Ok(())
    }

    #[inline(always)]
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        self.list_start = self.lists.len();
        ActiveList::lazy(
            graph,
            self.current,
            self.depth + 1,
            &mut self.lists,
            &mut self.list_state,
        )
    }

    #[inline(always)]
    fn commit(&mut self, _graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        if flow != Flow::Continue {
            self.list_state = ListState::Cleared;
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.lists.clear();
        self.open.clear();
        self.list_state = ListState::Untouched;
        self.list_start = 0;
        self.depth = 0;
        self.todo = Todo::Done;
    }
}
