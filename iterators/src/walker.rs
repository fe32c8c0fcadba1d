pub use scenewalk_core::Event;
use scenewalk_core::{ChildOrder, Dfs, Graph, GraphError, NodeId, NodeIndex};
use std::iter::FusedIterator;
use std::marker::PhantomData;

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

/// The way a walk came to its node, as ids ([`DfsWalker`]) or slots ([`DepthFirstIter`]):
/// the [`Dfs`] step's child order, recording each move so the walk can go on after edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Way<N> {
    /// The handle of the step's node.
    current: N,
    /// The node `current` was entered from (`current` itself at depth 0).
    parent: N,
    resume: Resume,
}

impl<N: Slot> ChildOrder for Way<N> {
    #[inline(always)]
    fn first(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        let child = graph.first_child_at(node)?;
        (self.parent, self.current) = (self.current, N::at(graph, child)?);
        self.resume = Resume::First;
        Some(child)
    }

    #[inline(always)]
    fn next(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        let sibling = graph.next_sibling_at(node)?;
        (self.current, self.resume) = (N::at(graph, sibling)?, Resume::After(node));
        Some(sibling)
    }

    /// The node the walk came from, whatever the links say now.
    #[inline(always)]
    fn parent(&mut self, graph: &Graph, _node: NodeIndex) -> Option<NodeIndex> {
        let up = self.parent.slot();
        // Above the walk's root (depth 0) the node is not used.
        let above = graph.parent_at(up).and_then(|p| N::at(graph, p));
        (self.current, self.parent) = (self.parent, above.unwrap_or(self.parent));
        self.resume = Resume::At(graph.next_sibling_at(up));
        Some(up)
    }
}

/// The walk's whole state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Place<N> {
    dfs: Dfs,
    way: Way<N>,
    /// `way.current` was moved to another parent since the walk reached it.
    moved: bool,
}

impl<N: Slot> Place<N> {
    /// Before entering `root`.
    fn new(root: N) -> Self {
        Self {
            dfs: Dfs::new(root.slot()),
            way: Way {
                current: root,
                parent: root,
                resume: Resume::At(None),
            },
            moved: false,
        }
    }

    /// The next event; with `leaves` false, the next enter.
    #[inline(always)]
    fn step(&mut self, graph: &Graph, leaves: bool) -> Option<Event> {
        loop {
            if !self.moved {
                return self.dfs.step(graph, &mut self.way, leaves);
            }
            match self.step_moved(graph) {
                Some(Event::Leave(_)) if !leaves => {}
                event => return event,
            }
        }
    }

    /// The step from a node that was moved away.
    fn step_moved(&mut self, graph: &Graph) -> Option<Event> {
        let (node, depth) = (self.dfs.node(), self.dfs.depth());
        if self.dfs.is_entered() {
            // Left where the walk found it, without descending.
            self.dfs.done_with(node);
            return Some(Event::Leave(node));
        }
        self.moved = false;
        let parent = self.way.parent.slot();
        let kept = |n: &NodeIndex| graph.parent_at(*n) == Some(parent);
        let sibling = match self.way.resume {
            Resume::First => graph.first_child_at(parent),
            Resume::After(before) => Some(before)
                .filter(kept)
                .and_then(|n| graph.next_sibling_at(n)),
            Resume::At(next) => next.filter(kept),
        };
        match sibling {
            Some(s) => {
                let Some(id) = N::at(graph, s) else {
                    return self.finish();
                };
                self.dfs.go_to(s, depth);
                let next = graph.next_sibling_at(s);
                (self.way.current, self.way.resume) = (id, Resume::At(next));
                self.dfs.next(graph)
            }
            None => self.climb(graph),
        }
    }

    /// Up from the step's node, whose siblings are done, to the node it was entered from
    /// (left).
    fn climb(&mut self, graph: &Graph) -> Option<Event> {
        let depth = self.dfs.depth();
        if depth == 0 {
            return self.finish();
        }
        let up = self.way.parent(graph, self.dfs.node())?;
        self.dfs.go_to(up, depth - 1);
        self.dfs.done_with(up);
        Some(Event::Leave(up))
    }

    fn finish<T>(&mut self) -> Option<T> {
        self.dfs.stop();
        self.moved = false;
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
        let mut place = Place::new(self.root);
        place.dfs.go_to(node.index(), depth);
        place.way = Way {
            current: node,
            parent: parent.filter(|_| depth > 0).unwrap_or(node),
            resume: Resume::At(graph.next_sibling_at(node.index())),
        };
        self.place = place;
        // Checked in `graph`: the next step checks again in whatever graph it gets.
        self.stamp = NO_STAMP;
        Ok(true)
    }

    /// After an enter or [`next_enter`](Self::next_enter): skip its subtree (else no-op).
    pub fn skip_subtree(&mut self) {
        self.place.dfs.skip_subtree();
    }

    /// The root of the walk.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// The node of the last event (`None` before the first and after the last).
    pub fn current(&self) -> Option<NodeId> {
        self.place.dfs.current().map(|_| self.place.way.current)
    }

    /// The depth below the root of the last event's node.
    pub fn depth(&self) -> u32 {
        self.place.dfs.depth()
    }

    /// Whether the walk is over.
    pub fn is_done(&self) -> bool {
        self.place.dfs.is_done()
    }

    /// The next event, or `None` when the walk is done.
    #[inline(always)]
    pub fn next(&mut self, graph: &Graph) -> Option<Event> {
        if !self.go_on(graph) {
            return None;
        }
        self.place.step(graph, true)
    }

    /// The node of the next [`Event::Enter`] (leaves dropped): the pre-order walk.
    #[inline(always)]
    pub fn next_enter(&mut self, graph: &Graph) -> Option<NodeIndex> {
        if !self.go_on(graph) {
            return None;
        }
        self.place.step(graph, false).map(Event::node)
    }

    /// Whether the walk goes on in `graph`: checked only after a structural edit.
    #[inline(always)]
    fn go_on(&mut self, graph: &Graph) -> bool {
        if self.stamp == stamp(graph) {
            return true;
        }
        // Plain values cross the call, so the fields stay in the caller's registers.
        let p = &mut self.place;
        let Some(moved) = check(graph, self.root, p.way.current, p.way.parent, p.dfs.depth())
        else {
            p.finish::<()>();
            return false;
        };
        if p.dfs.is_entered() || p.dfs.is_left() {
            p.moved = moved;
        }
        if p.dfs.is_done() {
            return false;
        }
        self.stamp = stamp(graph);
        true
    }
}

/// Whether a walk at `node` (entered from `up`) finds `node` moved away in `graph`;
/// `None` if a node it holds was removed.
#[cold]
#[inline(never)]
fn check(graph: &Graph, root: NodeId, node: NodeId, up: NodeId, depth: u32) -> Option<bool> {
    let live = |id| graph.contains(id);
    if !(live(node) && live(root) && (depth == 0 || live(up))) {
        return None;
    }
    Some(depth > 0 && graph.parent_at(node.index()) != Some(up.index()))
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
        self.place.dfs.skip_subtree();
    }

    /// The depth below the root of the last event's node.
    pub fn depth(&self) -> u32 {
        self.place.dfs.depth()
    }

    /// The walker at the same place, to edit the graph and walk on.
    pub fn into_walker(self) -> DfsWalker {
        let mut walker = DfsWalker::new(self.root);
        let (p, graph) = (self.place, self.graph);
        // Both live: the graph was borrowed since the root was checked.
        let (current, parent) = (graph.id_at(p.way.current), graph.id_at(p.way.parent));
        if let (Some(current), Some(parent)) = (current, parent) {
            walker.place = Place {
                dfs: p.dfs,
                way: Way {
                    current,
                    parent,
                    resume: p.way.resume,
                },
                moved: p.moved,
            };
        }
        walker
    }
}

impl Iterator for DepthFirstIter<'_, Event> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        self.place.step(self.graph, true)
    }
}

impl Iterator for DepthFirstIter<'_, NodeIndex> {
    type Item = NodeIndex;

    #[inline]
    fn next(&mut self) -> Option<NodeIndex> {
        self.place.step(self.graph, false).map(Event::node)
    }
}

impl<T> FusedIterator for DepthFirstIter<'_, T> where Self: Iterator {}
