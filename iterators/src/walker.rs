use scenewalk_core::{Graph, GraphError, NodeId, NodeIndex};
use std::iter::FusedIterator;
use std::marker::PhantomData;

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
        let (Event::Enter(node) | Event::Leave(node)) = self;
        node
    }

    /// Whether it is an [`Event::Enter`].
    pub fn is_enter(self) -> bool {
        matches!(self, Event::Enter(_))
    }
}

/// Where a walk stands in its phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The next event enters `current`.
    Before,
    /// `current` was entered: next come its children (or its leave).
    Entered,
    /// `current` was left: next comes its next sibling (or its parent's leave).
    Left,
    /// As `Entered`, but `current` was since moved to another parent: its leave next.
    MovedEntered,
    /// As `Left`, but `current` was since moved: next comes [`Resume`]'s sibling.
    MovedLeft,
    /// The walk is over.
    Done,
}

/// Where a walk goes on if its current node is moved away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resume {
    /// The node was its parent's first child: the parent's first child now.
    First,
    /// The node followed this sibling: that sibling's next one now.
    After(NodeIndex),
    /// This node (or none).
    At(Option<NodeIndex>),
}

/// How a walk holds a node: an id (the graph may change between steps) or a slot.
trait Slot: Copy + Eq {
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

/// The walk's whole state, on ids ([`DfsWalker`]) or slots ([`DepthFirstIter`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place<N> {
    current: N,
    /// The node `current` was entered from (`current` itself at depth 0).
    parent: N,
    resume: Resume,
    phase: Phase,
    depth: u32,
    skip: bool,
}

impl<N: Slot> Place<N> {
    /// Before entering `root`.
    fn new(root: N) -> Self {
        Self {
            current: root,
            parent: root,
            resume: Resume::At(None),
            phase: Phase::Before,
            depth: 0,
            skip: false,
        }
    }

    fn skip_subtree(&mut self) {
        self.skip |= self.phase == Phase::Entered;
    }

    /// One event from the current node, which is live. The common phases are tested
    /// first as `if`s, which costs less per node than one `match` (`bench_report`'s
    /// case a).
    #[inline(always)]
    fn step(&mut self, graph: &Graph) -> Option<Event> {
        let node = self.current.slot();
        if self.phase == Phase::Entered && !self.skip {
            if let Some(child) = graph.first_child_at(node) {
                return self.enter(graph, child, Resume::First);
            }
            self.phase = Phase::Left;
            return Some(Event::Leave(node));
        }
        if self.phase == Phase::Left && self.depth > 0 {
            return self.onward(graph, node);
        }
        match self.phase {
            Phase::Before => {
                self.phase = Phase::Entered;
                Some(Event::Enter(node))
            }
            // Its subtree skipped.
            Phase::Entered => {
                self.skip = false;
                self.phase = Phase::Left;
                Some(Event::Leave(node))
            }
            // At the root's depth.
            Phase::Left => self.finish(),
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

    /// The next enter's node: the common phases inline, else `step`.
    #[inline(always)]
    fn step_enter(&mut self, graph: &Graph) -> Option<NodeIndex> {
        if self.phase == Phase::Entered && !self.skip {
            let node = self.current.slot();
            if let Some(child) = graph.first_child_at(node) {
                return self.enter(graph, child, Resume::First).map(Event::node);
            }
            self.phase = Phase::Left;
        }
        while self.phase == Phase::Left {
            if self.depth == 0 {
                return self.finish();
            }
            if let Event::Enter(node) = self.onward(graph, self.current.slot())? {
                return Some(node);
            }
        }
        loop {
            if let Event::Enter(node) = self.step(graph)? {
                return Some(node);
            }
        }
    }

    /// After `node` was left (below the root's depth): its next sibling's enter, or the climb.
    #[inline(always)]
    fn onward(&mut self, graph: &Graph, node: NodeIndex) -> Option<Event> {
        match graph.next_sibling_at(node) {
            Some(sibling) => self.enter(graph, sibling, Resume::After(node)),
            None => self.climb(graph),
        }
    }

    /// Up from a node whose siblings are done to the node it was entered from (left).
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
        let Some(id) = N::at(graph, node) else {
            return self.finish();
        };
        if resume == Resume::First {
            // A first child: one level down.
            (self.parent, self.depth) = (self.current, self.depth + 1);
        }
        (self.current, self.resume, self.phase) = (id, resume, Phase::Entered);
        Some(Event::Enter(node))
    }

    fn finish<T>(&mut self) -> Option<T> {
        self.phase = Phase::Done;
        self.skip = false;
        None
    }
}

/// The depth-first walk: enter and leave events in document order, properly nested,
/// with no stack and no allocation (reference note 000's first-child / next-sibling
/// step, parent links for the leaves); [`next_enter`](Self::next_enter) gives pre-order.
///
/// Each step takes the graph, which may be edited between steps; the walk goes on from the
/// links as they are then: children added under a node not yet left are entered, as are
/// siblings inserted after the current node, not nodes added before it. A current node
/// moved to another parent is left where the walk found it, without descending; the walk
/// goes on at the sibling that followed it there, and enters the moved subtree again if its
/// new place lies ahead. Climbing never goes above the root's depth. If the current node,
/// the node it was entered from or the root is removed (a reused slot is noticed), the walk
/// ends until [`move_to`](Self::move_to) (or a new walker). Steps check nothing while
/// [`Graph::uid`] and [`Graph::revision`] are those of the last step.
///
/// ```
/// use scenewalk_core::Graph;
/// use scenewalk_iterators::{DfsWalker, Event};
/// use scenewalk_nodes::Group;
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
///
/// let mut walker = DfsWalker::new(root);
/// let mut events = Vec::new();
/// while let Some(event) = walker.next(&graph) {
///     events.push(event);
///     if event == Event::Enter(a.index()) {
///         // The graph is not borrowed between steps: edit it as the walk goes.
///         graph.append_child(a, Group)?;
///     }
/// }
/// let [r, a, a1] = [root, a, graph.first_child(a)?.unwrap()].map(|id| id.index());
/// use Event::{Enter, Leave};
/// assert_eq!(events, [Enter(r), Enter(a), Enter(a1), Leave(a1), Leave(a), Leave(r)]);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DfsWalker {
    root: NodeId,
    place: Place<NodeId>,
    /// The graph's uid and revision at the last step: while they match, no node was
    /// removed or moved (each such edit moves the revision on).
    stamp: (u64, u64),
}

/// Equal when at the same place of the same walk.
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
            stamp: NO_STAMP,
        }
    }

    /// Makes the next event enter `node`, walking on from there; `Ok(false)`, leaving the
    /// walker as it was, if `node` is not in the root's subtree. Costs O(depth of
    /// `node`). Errors: [`GraphError::StaleNode`] if `node` or the root was removed.
    pub fn move_to(&mut self, graph: &Graph, node: NodeId) -> Result<bool, GraphError> {
        if !graph.is_ancestor_or_self(self.root, node)? {
            return Ok(false);
        }
        let depth = (graph.depth(node)? - graph.depth(self.root)?) as u32;
        let parent = graph.parent_at(node.index()).and_then(|p| graph.id_at(p));
        self.place = Place {
            parent: parent.filter(|_| depth > 0).unwrap_or(node),
            resume: Resume::At(graph.next_sibling_at(node.index())),
            depth,
            ..Place::new(node)
        };
        // Checked in `graph`: the next step checks again in whatever graph it gets.
        self.stamp = NO_STAMP;
        Ok(true)
    }

    /// After an enter or [`next_enter`](Self::next_enter): skip its subtree (else no-op).
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

    /// The next event, or `None` when the walk is done.
    #[inline(always)]
    pub fn next(&mut self, graph: &Graph) -> Option<Event> {
        if !self.go_on(graph) {
            return None;
        }
        self.place.step(graph)
    }

    /// The node of the next [`Event::Enter`] (leaves dropped): the pre-order walk.
    #[inline(always)]
    pub fn next_enter(&mut self, graph: &Graph) -> Option<NodeIndex> {
        if !self.go_on(graph) {
            return None;
        }
        self.place.step_enter(graph)
    }

    /// Whether the walk goes on in `graph`: checked only after a structural edit.
    #[inline(always)]
    fn go_on(&mut self, graph: &Graph) -> bool {
        if self.stamp == stamp(graph) {
            return true;
        }
        // Plain values cross the call, so the fields stay in the caller's registers.
        let p = &mut self.place;
        p.phase = check(graph, self.root, p.current, p.parent, p.depth, p.phase);
        if p.phase == Phase::Done {
            p.skip = false;
            return false;
        }
        self.stamp = stamp(graph);
        true
    }
}

/// The phase a walk at `node` (entered from `up`) goes on with in `graph`: `Done` if a
/// node it holds was removed; a moved phase if `node` was moved.
#[cold]
#[inline(never)]
fn check(graph: &Graph, root: NodeId, node: NodeId, up: NodeId, depth: u32, phase: Phase) -> Phase {
    let live = |id| graph.contains(id);
    if !(live(node) && live(root) && (depth == 0 || live(up))) {
        return Phase::Done;
    }
    let moved = depth > 0 && graph.parent_at(node.index()) != Some(up.index());
    match phase {
        Phase::Entered | Phase::MovedEntered if moved => Phase::MovedEntered,
        Phase::Entered | Phase::MovedEntered => Phase::Entered,
        Phase::Left | Phase::MovedLeft if moved => Phase::MovedLeft,
        Phase::Left | Phase::MovedLeft => Phase::Left,
        phase => phase,
    }
}

#[inline(always)]
fn stamp(graph: &Graph) -> (u64, u64) {
    (graph.uid(), graph.revision())
}

/// No graph's stamp, before a first check (no graph reaches revision `u64::MAX`).
const NO_STAMP: (u64, u64) = (0, u64::MAX);

/// The [`DfsWalker`]'s walk borrowing the graph, on slots without its checks: see
/// [`depth_first`](crate::Walk::depth_first) and [`preorder`](crate::Walk::preorder).
#[derive(Clone, Debug)]
pub struct DepthFirstIter<'g, T = Event> {
    graph: &'g Graph,
    root: NodeId,
    place: Place<NodeIndex>,
    item: PhantomData<fn() -> T>,
}

impl<'g, T> DepthFirstIter<'g, T> {
    pub(crate) fn new(graph: &'g Graph, root: NodeId) -> Result<Self, GraphError> {
        graph.node_type(root)?;
        Ok(Self {
            graph,
            root,
            place: Place::new(root.index()),
            item: PhantomData,
        })
    }

    /// As [`DfsWalker::skip_subtree`].
    pub fn skip_subtree(&mut self) {
        self.place.skip_subtree();
    }

    /// The depth below the root of the last event's node.
    pub fn depth(&self) -> u32 {
        self.place.depth
    }

    /// The walker at the same place, to edit the graph and walk on.
    pub fn into_walker(self) -> DfsWalker {
        let mut walker = DfsWalker::new(self.root);
        let (p, graph) = (self.place, self.graph);
        // Both live: the graph was borrowed since the root was checked.
        if let (Some(current), Some(parent)) = (graph.id_at(p.current), graph.id_at(p.parent)) {
            walker.place = Place {
                current,
                parent,
                resume: p.resume,
                phase: p.phase,
                depth: p.depth,
                skip: p.skip,
            };
        }
        walker
    }
}

impl Iterator for DepthFirstIter<'_, Event> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        self.place.step(self.graph)
    }
}

impl Iterator for DepthFirstIter<'_, NodeIndex> {
    type Item = NodeIndex;

    #[inline]
    fn next(&mut self) -> Option<NodeIndex> {
        self.place.step_enter(self.graph)
    }
}

impl<T> FusedIterator for DepthFirstIter<'_, T> where Self: Iterator {}
