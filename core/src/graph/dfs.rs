//! The depth-first step: the one loop behind every depth-first walk of the library.

use crate::error::GraphError;
use crate::graph::{Graph, NodeId, NodeIndex};

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

/// Where a [`Dfs`] stands at its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stage {
    /// The next event enters the node.
    Start,
    /// The node was entered: its children come next (or its leave).
    Entered,
    /// As `Entered`, but its descendants are skipped.
    Pruned,
    /// The node's subtree is done: its next sibling comes next (or its parent's leave).
    Left,
    /// The walk is over.
    Done,
}

/// Where a [`Dfs`] step takes a node's children, next siblings and parent from:
/// [`Links`], or the active lists an action's actors built; a walker may keep its own
/// record of the way it came and climb by it.
pub trait ChildOrder {
    /// The first child of `node` to walk.
    fn first(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex>;
    /// The sibling walked after `node`, if any (else the walk climbs to the parent).
    fn next(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex>;
    /// The node the step climbs to from `node`, whose siblings are done.
    fn parent(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex>;
}

/// The graph's first-child / next-sibling links: the plain child order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Links;

impl ChildOrder for Links {
    #[inline(always)]
    fn first(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        graph.first_child_at(node)
    }
    #[inline(always)]
    fn next(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        graph.next_sibling_at(node)
    }
    #[inline(always)]
    fn parent(&mut self, graph: &Graph, node: NodeIndex) -> Option<NodeIndex> {
        graph.parent_at(node)
    }
}

/// The depth-first walk's whole state (petgraph's visit style: a plain value that
/// borrows nothing; each step takes the graph). Enter and leave events come in document
/// order, properly nested, with no stack and no allocation: the first-child /
/// next-sibling step, climbing by parent links. A walk covers the subtrees of a run of
/// siblings (one root, usually) and ends after the last one's subtree.
///
/// The library's depth-first walks over the graph are this step:
/// [`DepthFirst`](crate::DepthFirst) (pulled, or driving an action's chain, sequential or
/// in `run_parallel`'s tasks), [`Graph::next_preorder`] and compaction's pre-order.
///
/// ```
/// use scenewalk_core::{Dfs, Event, Graph};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// let b = graph.append_child(root, Group)?;
/// let [r, a, b] = [root, a, b].map(|id| id.index());
///
/// let mut dfs = Dfs::new(r);
/// let mut events = Vec::new();
/// while let Some(event) = dfs.next(&graph) {
///     events.push(event);
/// }
/// use Event::{Enter, Leave};
/// assert_eq!(events, [Enter(r), Enter(a), Leave(a), Enter(b), Leave(b), Leave(r)]);
///
/// // The same walk's enters, from `a` (at depth 1) on: the rest of the root's subtree.
/// let mut dfs = Dfs::new(r);
/// dfs.go_to(a, 1);
/// assert_eq!([dfs.next_enter(&graph), dfs.next_enter(&graph)], [Some(a), Some(b)]);
/// assert_eq!(dfs.next_enter(&graph), None);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dfs {
    node: NodeIndex,
    /// The node's depth: the starting node's, plus one per level down.
    depth: u32,
    /// The walk ends after this node's subtree, at this depth.
    last: NodeIndex,
    top: u32,
    /// The walk ends after any node at depth `top`: it never climbs above its root.
    bounded: bool,
    stage: Stage,
}

impl Dfs {
    /// A walk of `root`'s subtree, `root` at depth 0; the first event enters it. The walk
    /// never climbs above depth 0, whatever node is there after edits.
    pub fn new(root: NodeIndex) -> Self {
        Self {
            bounded: true,
            ..Self::run(root, root, 0)
        }
    }

    /// A walk of the siblings `first` to `last` at `depth` and their subtrees.
    pub fn run(first: NodeIndex, last: NodeIndex, depth: u32) -> Self {
        Self {
            node: first,
            depth,
            last,
            top: depth,
            bounded: false,
            stage: Stage::Start,
        }
    }

    /// The node of the last event (before the first: the node it enters).
    pub fn node(&self) -> NodeIndex {
        self.node
    }

    /// The depth of [`node`](Self::node).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The node of the last event; `None` before the first and after the last.
    pub fn current(&self) -> Option<NodeIndex> {
        (!matches!(self.stage, Stage::Start | Stage::Done)).then_some(self.node)
    }

    /// Whether the last event entered the node (its descendants are yet to come).
    pub fn is_entered(&self) -> bool {
        matches!(self.stage, Stage::Entered | Stage::Pruned)
    }

    /// Whether the node's subtree is done (its next sibling or its parent's leave next).
    pub fn is_left(&self) -> bool {
        self.stage == Stage::Left
    }

    /// Whether the walk is over.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// After an enter: skip the node's descendants, its leave comes next (else no-op).
    pub fn skip_subtree(&mut self) {
        if self.stage == Stage::Entered {
            self.stage = Stage::Pruned;
        }
    }

    /// The next event enters `node` at `depth`; the walk still ends after the same node,
    /// at the same depth.
    pub fn go_to(&mut self, node: NodeIndex, depth: u32) {
        (self.node, self.depth, self.stage) = (node, depth, Stage::Start);
    }

    /// Goes on after `node`'s subtree, at the same depth, with no events for it (as when
    /// `node` and its subtree were walked elsewhere).
    pub fn done_with(&mut self, node: NodeIndex) {
        (self.node, self.stage) = (node, Stage::Left);
    }

    /// Ends the walk.
    pub fn stop(&mut self) {
        self.stage = Stage::Done;
    }

    /// The next event, or `None` when the walk is done.
    #[inline]
    pub fn next(&mut self, graph: &Graph) -> Option<Event> {
        self.step(graph, &mut Links, true)
    }

    /// The node of the next [`Event::Enter`] (leaves dropped): the pre-order walk.
    #[inline]
    pub fn next_enter(&mut self, graph: &Graph) -> Option<NodeIndex> {
        self.step(graph, &mut Links, false).map(Event::node)
    }

    /// The step: the next event, children and siblings from `order`; leaves only with
    /// `leaves` (without, the step climbs on to the next enter).
    #[inline(always)]
    pub fn step<O: ChildOrder>(
        &mut self,
        graph: &Graph,
        order: &mut O,
        leaves: bool,
    ) -> Option<Event> {
        // The common stages first, as `if`s: cheaper per node than a `match`.
        if self.stage == Stage::Entered {
            if let Some(child) = order.first(graph, self.node) {
                (self.node, self.depth) = (child, self.depth + 1);
                return Some(Event::Enter(child));
            }
            self.stage = Stage::Left;
            if leaves {
                return Some(Event::Leave(self.node));
            }
        } else if self.stage != Stage::Left {
            if self.stage == Stage::Start {
                self.stage = Stage::Entered;
                return Some(Event::Enter(self.node));
            }
            if self.stage == Stage::Done {
                return None;
            }
            // Pruned: its leave, then on after it.
            self.stage = Stage::Left;
            if leaves {
                return Some(Event::Leave(self.node));
            }
        }
        // The node's subtree is done: its next sibling, or climb and finish the parent.
        loop {
            // With no depth known, as for `next_preorder`, every depth reads 0 and the
            // node alone decides.
            if self.depth == self.top && (self.bounded || self.node == self.last) {
                self.stage = Stage::Done;
                return None;
            }
            if let Some(sibling) = order.next(graph, self.node) {
                (self.node, self.stage) = (sibling, Stage::Entered);
                return Some(Event::Enter(sibling));
            }
            let Some(parent) = order.parent(graph, self.node) else {
                self.stage = Stage::Done;
                return None;
            };
            (self.node, self.depth) = (parent, self.depth.saturating_sub(1));
            if leaves {
                return Some(Event::Leave(parent));
            }
        }
    }
}

impl Graph {
    /// The node after `node` in a depth-first, document-order walk of the subtree of
    /// `root`; `None` once the subtree is done. Stackless: it reads only links, and a
    /// walk can stop and resume anywhere.
    ///
    /// Errors: a stale id, or [`GraphError::NotInSubtree`] when `node` is not in
    /// `root`'s subtree (checked in O(depth); the `_at` form skips the check).
    pub fn next_preorder(&self, node: NodeId, root: NodeId) -> Result<Option<NodeId>, GraphError> {
        let (n, r) = (self.check(node)?, self.check(root)?);
        if !self.path_up(NodeIndex(n)).any(|up| up.0 == r) {
            return Err(GraphError::NotInSubtree { node, root });
        }
        Ok(self
            .next_preorder_at(node.index(), root.index())
            .map(|i| self.id_of(i.0)))
    }

    /// [`next_preorder`](Graph::next_preorder) on slot indices, for traversal code:
    /// `node` must lie in `root`'s subtree (not checked: a node outside it walks on
    /// through its own tree); an index outside the arena gives `None`.
    #[inline]
    pub fn next_preorder_at(&self, node: NodeIndex, root: NodeIndex) -> Option<NodeIndex> {
        // The depth is not known, nor needed: the walk ends at `root` itself.
        let mut dfs = Dfs::run(node, root, 0);
        dfs.stage = Stage::Entered;
        dfs.next_enter(self)
    }

    /// The step after `node`'s subtree (never into its children).
    #[inline]
    pub(crate) fn next_after_subtree(&self, node: u32, root: u32) -> Option<u32> {
        let mut dfs = Dfs::run(NodeIndex(node), NodeIndex(root), 0);
        dfs.done_with(NodeIndex(node));
        dfs.next_enter(self).map(|n| n.0)
    }
}
