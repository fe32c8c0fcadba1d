//! Node handles: the persistent [`NodeId`] and the traversal-time [`NodeIndex`].

use std::fmt;

/// Sentinel for "no node" in the link arrays.
pub(crate) const NIL: u32 = u32::MAX;

/// A persistent handle to a node of a [`Graph`](crate::Graph): its slot and the slot's
/// generation, which moves on when the node is removed, so an old id reports
/// [`GraphError::StaleNode`](crate::GraphError::StaleNode) instead of naming whatever
/// node reuses the slot.
///
/// ```
/// use scenewalk_core::{Graph, GraphError};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// graph.remove(root)?;
/// let reused = graph.add_root(Group);
/// assert_eq!(root.index(), reused.index()); // same slot …
/// assert!(matches!(graph.parent(root), Err(GraphError::StaleNode(_)))); // … old id is stale
/// let other = Graph::new().add_root(Group); // the same slot in another graph
/// assert!(!graph.contains(other) && graph.clone().contains(reused));
/// # Ok::<(), GraphError>(())
/// ```
///
/// # Ids of another graph
///
/// Every graph mixes a 32-bit key of its own into its ids' generations, so it reports an
/// id of another graph as [`GraphError::StaleNode`](crate::GraphError::StaleNode), except
/// by chance (about one foreign id in four billion matches a live node). A clone keeps
/// the key: the original and its clones take each other's ids, also for nodes added
/// after the clone. Every method that takes an id (or a root) follows this rule.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
}

impl NodeId {
    /// The arena slot this id names, as a [`NodeIndex`].
    pub fn index(self) -> NodeIndex {
        NodeIndex(self.index)
    }

    /// The generation of the slot at the time this id was made, mixed with its
    /// graph's key ([above](NodeId#ids-of-another-graph)): it changes each time the
    /// slot is reused, but it is not a count.
    pub fn generation(self) -> u32 {
        self.generation
    }
}

impl fmt::Debug for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NodeId({}v{})", self.index, self.generation)
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {} (generation {})", self.index, self.generation)
    }
}

/// A node's arena slot, without its generation: what traversals hand actors. While an
/// action runs the graph is borrowed immutably, so every index names a live node and
/// may index dense per-node arrays (`world[index.get()]`). Keep a [`NodeId`]
/// ([`Graph::id_at`](crate::Graph::id_at)) to refer to a node across edits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeIndex(pub(crate) u32);

impl NodeIndex {
    /// The index of slot `slot`. Any value is safe to use: queries on a slot that is
    /// free or out of range answer `None`.
    #[inline]
    pub fn new(slot: u32) -> Self {
        NodeIndex(slot)
    }

    /// The slot number, for indexing per-node arrays sized by
    /// [`Graph::capacity`](crate::Graph::capacity).
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }

    /// The slot number as stored in the link arrays.
    #[inline]
    pub fn raw(self) -> u32 {
        self.0
    }
}

impl fmt::Display for NodeIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "slot {}", self.0)
    }
}
