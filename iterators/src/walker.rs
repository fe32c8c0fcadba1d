//! Walkers: traversal state that does not borrow the graph.

use scenewalk_core::{Graph, GraphError, NodeId, NodeIndex};

/// One event of a depth-first walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The walk reaches the node; its descendants follow (unless skipped).
    Enter(NodeIndex),
    /// All of the node's descendants are done.
    Leave(NodeIndex),
}

impl Event {
    /// The node of the event.
    pub fn node(self) -> NodeIndex {
        match self {
            Event::Enter(node) | Event::Leave(node) => node,
        }
    }

    /// Whether it is an [`Event::Enter`].
    pub fn is_enter(self) -> bool {
        matches!(self, Event::Enter(_))
    }

    /// Whether it is an [`Event::Leave`].
    pub fn is_leave(self) -> bool {
        matches!(self, Event::Leave(_))
    }
}

/// A traversal whose state does not borrow the graph (after petgraph's `Walker`): each
/// step takes the graph, so the graph may be edited between steps.
pub trait Walker {
    /// What each step yields.
    type Item;

    /// The next item, or `None` when the walk is done.
    fn walk_next(&mut self, graph: &Graph) -> Option<Self::Item>;

    /// A std iterator over the walk, borrowing `graph` for as long as it lives.
    fn iter(self, graph: &Graph) -> WalkerIter<'_, Self>
    where
        Self: Sized,
    {
        WalkerIter {
            walker: self,
            graph,
        }
    }
}

/// A [`Walker`] bound to a graph, as a std [`Iterator`]; see [`Walker::iter`].
#[derive(Clone, Debug)]
pub struct WalkerIter<'g, W> {
    walker: W,
    graph: &'g Graph,
}

impl<W> WalkerIter<'_, W> {
    /// The walker.
    pub fn walker(&self) -> &W {
        &self.walker
    }

    /// The walker, mutable (e.g. to [`skip_subtree`](DfsWalker::skip_subtree)).
    pub fn walker_mut(&mut self) -> &mut W {
        &mut self.walker
    }

    /// Unbinds the walker from the graph, to edit the graph and walk on.
    pub fn into_walker(self) -> W {
        self.walker
    }
}

impl<W: Walker> Iterator for WalkerIter<'_, W> {
    type Item = W::Item;

    fn next(&mut self) -> Option<W::Item> {
        self.walker.walk_next(self.graph)
    }
}

/// Where a depth-first walk stands in its phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The next event enters `current`.
    Before,
    /// `current` was entered: next come its children (or its leave).
    Entered,
    /// `current` was left: next comes its next sibling (or its parent's leave).
    Left,
    /// As `Entered`, but `current` was since moved to another parent: its leave
    /// comes next (its subtree went with it).
    MovedEntered,
    /// As `Left`, but `current` was since moved to another parent: next comes the
    /// sibling that followed it where the walk reached it (see [`Resume`]).
    MovedLeft,
    /// The walk is over.
    Done,
}

/// Where a walk goes on after its current node if that node is moved away: the
/// sibling that followed it when the walk reached it, found from what the walk had at
/// hand then (no extra read when it entered the node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resume {
    /// The node was its parent's first child: the parent's first child now.
    First,
    /// The node followed this sibling: that sibling's next one now.
    After(NodeIndex),
    /// This node (or none).
    At(Option<NodeIndex>),
}

/// How a depth-first walk holds a node: a bare slot while it borrows the graph (no
/// node can be moved then), an id when the graph may change between steps.
pub(crate) trait Slot: Copy + Eq {
    /// The node's slot.
    fn slot(self) -> NodeIndex;
    /// The walk's handle of the live node in slot `node`.
    fn at(graph: &Graph, node: NodeIndex) -> Option<Self>;
}

impl Slot for NodeIndex {
    #[inline(always)]
    fn slot(self) -> NodeIndex {
        self
    }
    #[inline(always)]
    fn at(_graph: &Graph, node: NodeIndex) -> Option<Self> {
        Some(node)
    }
}

impl Slot for NodeId {
    #[inline(always)]
    fn slot(self) -> NodeIndex {
        self.index()
    }
    #[inline(always)]
    fn at(graph: &Graph, node: NodeIndex) -> Option<Self> {
        graph.id_at(node)
    }
}

/// The whole state of a depth-first walk's step, shared by [`DfsWalker`] (ids) and
/// [`DepthFirstIter`](crate::DepthFirstIter) (slots).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Place<N> {
    pub(crate) current: N,
    /// The node `current` was entered from (`current` itself at depth 0).
    pub(crate) parent: N,
    /// Where the walk goes on if `current` is moved away.
    pub(crate) resume: Resume,
    pub(crate) phase: Phase,
    pub(crate) depth: u32,
    pub(crate) skip: bool,
}

impl<N: Slot> Place<N> {
    /// Before entering `root`.
    pub(crate) fn new(root: N) -> Self {
        Self {
            current: root,
            parent: root,
            resume: Resume::At(None),
            phase: Phase::Before,
            depth: 0,
            skip: false,
        }
    }

    /// After an enter: the node's leave comes next.
    pub(crate) fn skip_subtree(&mut self) {
        if self.phase == Phase::Entered {
            self.skip = true;
        }
    }

    /// One event from the current node, which is live.
    #[inline(always)]
    pub(crate) fn step(&mut self, graph: &Graph) -> Option<Event> {
        let node = self.current.slot();
        match self.phase {
            Phase::Before => {
                self.phase = Phase::Entered;
                Some(Event::Enter(node))
            }
            Phase::Entered => {
                let skip = std::mem::take(&mut self.skip);
                if let Some(child) = graph.first_child_at(node).filter(|_| !skip) {
                    self.parent = self.current;
                    self.depth += 1;
                    return self.enter(graph, child, Resume::First);
                }
                self.phase = Phase::Left;
                Some(Event::Leave(node))
            }
            Phase::Left => {
                if self.depth == 0 {
                    return self.finish();
                }
                match graph.next_sibling_at(node) {
                    Some(sibling) => self.enter(graph, sibling, Resume::After(node)),
                    None => self.climb(graph),
                }
            }
            Phase::MovedEntered => {
                self.skip = false;
                self.phase = Phase::MovedLeft;
                Some(Event::Leave(node))
            }
            Phase::MovedLeft => {
                let parent = self.parent.slot();
                let kept = |n: &NodeIndex| graph.parent_at(*n) == Some(parent);
                let sibling = match self.resume {
                    Resume::First => graph.first_child_at(parent),
                    Resume::After(before) => Some(before)
                        .filter(kept)
                        .and_then(|n| graph.next_sibling_at(n)),
                    Resume::At(next) => next.filter(kept),
                };
                match sibling {
                    Some(s) => self.enter(graph, s, Resume::At(graph.next_sibling_at(s))),
                    None => self.climb(graph),
                }
            }
            Phase::Done => None,
        }
    }

    /// Back from a node whose siblings are done to the node it was entered from (at
    /// depth 1 or more), which is left.
    #[inline(always)]
    fn climb(&mut self, graph: &Graph) -> Option<Event> {
        let up = self.parent;
        // Above the walk's root (depth 0) the node is not used.
        let above = graph.parent_at(up.slot()).and_then(|p| N::at(graph, p));
        (self.current, self.parent) = (up, above.unwrap_or(up));
        self.resume = Resume::At(graph.next_sibling_at(up.slot()));
        self.depth -= 1;
        self.phase = Phase::Left;
        Some(Event::Leave(up.slot()))
    }

    #[inline(always)]
    fn enter(&mut self, graph: &Graph, node: NodeIndex, resume: Resume) -> Option<Event> {
        match N::at(graph, node) {
            Some(id) => {
                self.current = id;
                self.resume = resume;
                self.phase = Phase::Entered;
                Some(Event::Enter(node))
            }
            None => self.finish(),
        }
    }

    pub(crate) fn finish(&mut self) -> Option<Event> {
        self.phase = Phase::Done;
        self.skip = false;
        None
    }
}

/// A depth-first walk with enter and leave events in document order that needs no
/// stack and allocates nothing: its whole state is the current node, the node it was
/// entered from, where to go on should the current node be moved away, a phase and a
/// depth (reference note 000's first-child / next-sibling step, with parent links for
/// the leave events).
///
/// It does not borrow the graph: each [`next`](Self::next) takes it, so the graph may
/// be edited between steps. The walk then continues from the current node's links *as
/// they are at that step*: children added under a node not yet left are entered,
/// siblings inserted after the current node are entered, nodes added before it are
/// not. A current node moved to another parent is left where the walk found it, so
/// enters and leaves stay nested: it is not descended into there (its subtree went
/// with it), and the walk goes on with the sibling that followed it when the walk
/// reached it and climbs back through the node it was entered from. The
/// moved node and its subtree are entered again if their new place lies ahead of the
/// walk. The climb above that node follows the parent links as they are, so moving an
/// ancestor of the current node is not undone: the leaves then follow its new
/// parents. Leaving never goes above the depth the walk went down, so the walk ends at
/// most back at the level of its root. If the current node, the node it was entered
/// from or the root is removed, `next` returns `None` (nodes are kept as
/// [`NodeId`]s, so a removed node is noticed even when its slot is reused), and keeps
/// returning `None` until [`reset`](Self::reset) or [`move_to`](Self::move_to).
///
/// ```
/// use scenewalk_core::Graph;
/// use scenewalk_iterators::{DfsWalker, Event};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// let b = graph.append_child(root, Group)?;
///
/// let mut walker = DfsWalker::new(root);
/// let mut events = Vec::new();
/// while let Some(event) = walker.next(&graph) {
///     events.push(event);
///     if event == Event::Enter(a.index()) {
///         // The graph is not borrowed between steps: edit it as the walk goes.
///         graph.append_child(a, Group)?;
///         graph.append_child(b, Group)?;
///     }
///     if event == Event::Enter(b.index()) {
///         walker.skip_subtree(); // b's new child is not entered
///     }
/// }
/// let a1 = graph.first_child(a)?.unwrap().index();
/// use Event::{Enter, Leave};
/// assert_eq!(events, [
///     Enter(root.index()), Enter(a.index()), Enter(a1), Leave(a1), Leave(a.index()),
///     Enter(b.index()), Leave(b.index()), Leave(root.index()),
/// ]);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DfsWalker {
    root: NodeId,
    place: Place<NodeId>,
    /// The graph state of the last step (see [`Stamp`]).
    stamp: Stamp,
}

/// Two walkers are equal when they stand at the same place of the same walk; the
/// cached graph state is not part of that.
impl PartialEq for DfsWalker {
    fn eq(&self, other: &Self) -> bool {
        (self.root, self.place) == (other.root, other.place)
    }
}

impl Eq for DfsWalker {}

impl DfsWalker {
    /// A walk of `root`'s subtree; the first event enters `root` (if it is live then).
    pub fn new(root: NodeId) -> Self {
        Self {
            root,
            place: Place::new(root),
            stamp: Stamp::NONE,
        }
    }

    /// Starts over: a new walk of `root`'s subtree.
    pub fn reset(&mut self, root: NodeId) {
        *self = Self::new(root);
    }

    /// The walker at the place a walk on slot indices reached in `graph` (which it
    /// borrowed until now); its next step checks the graph.
    pub(crate) fn from_slots(graph: &Graph, root: NodeId, place: Place<NodeIndex>) -> Self {
        let mut walker = Self::new(root);
        match (graph.id_at(place.current), graph.id_at(place.parent)) {
            (Some(current), Some(parent)) => {
                walker.place = Place {
                    current,
                    parent,
                    resume: place.resume,
                    phase: place.phase,
                    depth: place.depth,
                    skip: place.skip,
                };
            }
            // Unreachable: the graph was borrowed since the root was checked.
            _ => {
                walker.place.finish();
            }
        }
        walker
    }

    /// Makes the next event enter `node`, continuing the walk of the same root from
    /// there (after `node`'s subtree come the nodes after it in document order).
    ///
    /// Returns `Ok(false)`, leaving the walker as it was, if `node` is not in the root's
    /// subtree. Errors: [`GraphError::StaleNode`] if `node` or the root was removed.
    /// Costs O(depth of `node`).
    pub fn move_to(&mut self, graph: &Graph, node: NodeId) -> Result<bool, GraphError> {
        if !graph.contains(self.root) {
            return Err(GraphError::StaleNode(self.root));
        }
        if !graph.contains(node) {
            return Err(GraphError::StaleNode(node));
        }
        let mut depth = 0;
        let mut up = node.index();
        while up != self.root.index() {
            match graph.parent_at(up) {
                Some(parent) => {
                    up = parent;
                    depth += 1;
                }
                None => return Ok(false),
            }
        }
        let parent = graph.parent_at(node.index()).and_then(|p| graph.id_at(p));
        self.place = Place {
            parent: parent.filter(|_| depth > 0).unwrap_or(node),
            resume: Resume::At(graph.next_sibling_at(node.index())),
            depth,
            ..Place::new(node)
        };
        // Checked in `graph`: the next step checks again in whatever graph it gets.
        self.stamp = Stamp::NONE;
        Ok(true)
    }

    /// After an [`Event::Enter`]: do not descend into that node; its
    /// [`Event::Leave`] comes next. No effect at any other time.
    pub fn skip_subtree(&mut self) {
        self.place.skip_subtree();
    }

    /// The root of the walk.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// The node of the last event (`None` before the first and after the last).
    pub fn current(&self) -> Option<NodeId> {
        (!matches!(self.place.phase, Phase::Before | Phase::Done)).then_some(self.place.current)
    }

    /// The depth below the root of the last event's node.
    pub fn depth(&self) -> u32 {
        self.place.depth
    }

    /// Whether the walk is over.
    pub fn is_done(&self) -> bool {
        self.place.phase == Phase::Done
    }

    /// The next event, or `None` when the walk is done (or its current node, the node
    /// it was entered from or the root was removed).
    #[inline(always)]
    pub fn next(&mut self, graph: &Graph) -> Option<Event> {
        // While no structural edit happened since the last step, the nodes the walker
        // holds are as live as they were then.
        if !self.stamp.matches(graph) && !self.check(graph) {
            return None;
        }
        self.place.step(graph)
    }

    /// Whether the walk goes on in `graph`: not done, and the nodes it holds live.
    #[cold]
    #[inline(never)]
    fn check(&mut self, graph: &Graph) -> bool {
        let place = &mut self.place;
        if place.phase == Phase::Done {
            return false;
        }
        let live = |node| graph.contains(node);
        if !(live(place.current) && live(self.root) && (place.depth == 0 || live(place.parent))) {
            place.finish();
            return false;
        }
        // Moved to another parent (or back) since the last step.
        let moved =
            place.depth > 0 && graph.parent_at(place.current.index()) != Some(place.parent.index());
        place.phase = match place.phase {
            Phase::Entered | Phase::MovedEntered if moved => Phase::MovedEntered,
            Phase::Entered | Phase::MovedEntered => Phase::Entered,
            Phase::Left | Phase::MovedLeft if moved => Phase::MovedLeft,
            Phase::Left | Phase::MovedLeft => Phase::Left,
            phase => phase,
        };
        self.stamp = Stamp::of(graph);
        true
    }
}

impl Walker for DfsWalker {
    type Item = Event;

    #[inline]
    fn walk_next(&mut self, graph: &Graph) -> Option<Event> {
        self.next(graph)
    }
}

/// The plain pre-order step of reference note 000 as a walker: each node of the
/// subtree once, in document order, no leave events, no stack, no allocation; each
/// step is [`Graph::next_preorder_at`] (or [`Graph::next_preorder_skipping_at`] after
/// [`skip_subtree`](Self::skip_subtree)).
///
/// Like [`DfsWalker`] it does not borrow the graph and continues from the current
/// node's links after edits; it ends when the current node or the root was removed,
/// and when its climb reaches the root or a node without parent.
///
/// ```
/// use scenewalk_core::Graph;
/// use scenewalk_iterators::StacklessDfs;
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// graph.append_child(a, Group)?;
/// let b = graph.append_child(root, Group)?;
/// let mut walk = StacklessDfs::new(root);
/// let mut order = Vec::new();
/// while let Some(node) = walk.next(&graph) {
///     order.push(node);
///     if node == a.index() {
///         walk.skip_subtree();
///     }
/// }
/// assert_eq!(order, [root.index(), a.index(), b.index()]);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StacklessDfs {
    root: NodeId,
    /// The last yielded node (the root before the first): not an `Option`, so the
    /// fast step has no variant to test.
    current: NodeId,
    started: bool,
    done: bool,
    skip: bool,
    /// The graph state of the last step (see [`Stamp`]); it matches only between
    /// the first step and the end.
    stamp: Stamp,
}

/// Two walkers are equal when they stand at the same place of the same walk; the
/// cached graph state is not part of that.
impl PartialEq for StacklessDfs {
    fn eq(&self, other: &Self) -> bool {
        (self.root, self.current, self.started, self.done, self.skip)
            == (
                other.root,
                other.current,
                other.started,
                other.done,
                other.skip,
            )
    }
}

impl Eq for StacklessDfs {}

impl StacklessDfs {
    /// A pre-order walk of `root`'s subtree.
    pub fn new(root: NodeId) -> Self {
        Self {
            root,
            current: root,
            started: false,
            done: false,
            skip: false,
            stamp: Stamp::NONE,
        }
    }

    /// Starts over: a new walk of `root`'s subtree.
    pub fn reset(&mut self, root: NodeId) {
        *self = Self::new(root);
    }

    /// Do not descend into the node last yielded.
    pub fn skip_subtree(&mut self) {
        if self.started && !self.done {
            self.skip = true;
        }
    }

    /// The root of the walk.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// The node last yielded.
    pub fn current(&self) -> Option<NodeId> {
        (self.started && !self.done).then_some(self.current)
    }

    /// Whether the walk is over.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The next node in pre-order, or `None` when the walk is done.
    #[inline(always)]
    pub fn next(&mut self, graph: &Graph) -> Option<NodeIndex> {
        // No structural edit since the last step: the current node and the root are
        // as live as they were then, so only the link step and the next id remain.
        if self.stamp.matches(graph) {
            return self.step(graph);
        }
        // By value, so the walker's address does not escape the caller's loop and
        // its fields can live in registers there.
        let (walker, next) = self.next_checked(graph);
        *self = walker;
        next
    }

    /// The first step, or a step after an edit: checks the root and the current node.
    #[cold]
    #[inline(never)]
    fn next_checked(mut self, graph: &Graph) -> (Self, Option<NodeIndex>) {
        if self.done {
            return (self, None);
        }
        if !graph.contains(self.root) {
            let next = self.finish();
            return (self, next);
        }
        self.stamp = Stamp::of(graph);
        let next = if !self.started {
            self.started = true;
            Some(self.root.index())
        } else if graph.contains(self.current) {
            self.step(graph)
        } else {
            self.finish()
        };
        (self, next)
    }

    /// One link step from the current node, which is live.
    #[inline(always)]
    fn step(&mut self, graph: &Graph) -> Option<NodeIndex> {
        let skip = std::mem::take(&mut self.skip);
        match graph.next_preorder_id_at(self.current.index(), self.root.index(), skip) {
            Some(id) => {
                self.current = id;
                Some(id.index())
            }
            None => self.finish(),
        }
    }

    fn finish(&mut self) -> Option<NodeIndex> {
        self.done = true;
        self.stamp = Stamp::NONE;
        None
    }
}

/// Which graph state a walker last stepped in: the graph's
/// [`uid`](Graph::uid) and [`revision`](Graph::revision). Every edit that removes a
/// node moves the revision on, and every other graph (clones included) has another
/// uid, so while the stamp matches, the nodes the walker checked at its last full
/// check are still live and the step can skip the generation checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    uid: u64,
    /// [`Stamp::NONE`]'s `u64::MAX` before a first checked step and after the walk
    /// ends: a revision no graph reaches (one edit a nanosecond would take 584
    /// years), so no `Option` to test on the fast step.
    revision: u64,
}

impl Stamp {
    const NONE: Stamp = Stamp {
        uid: 0,
        revision: u64::MAX,
    };

    #[inline]
    fn of(graph: &Graph) -> Self {
        Stamp {
            uid: graph.uid(),
            revision: graph.revision(),
        }
    }

    #[inline(always)]
    fn matches(self, graph: &Graph) -> bool {
        self.revision == graph.revision() && self.uid == graph.uid()
    }
}

impl Walker for StacklessDfs {
    type Item = NodeIndex;

    #[inline]
    fn walk_next(&mut self, graph: &Graph) -> Option<NodeIndex> {
        self.next(graph)
    }
}
