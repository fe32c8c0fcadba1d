use crate::DepthFirstIter;
use crate::priority::{Rank, Ranked};
use scenewalk_core::{Graph, GraphError, NodeId, NodeIndex, TraversalError};
use std::collections::{BinaryHeap, VecDeque};
use std::iter::FusedIterator;

mod sealed {
    /// Only [`Graph`](super::Graph) walks; the provided methods borrow it.
    pub trait Sealed: std::borrow::Borrow<super::Graph> {}
    impl Sealed for super::Graph {}
}

/// Lazy std iterators over a root's subtree, as methods of [`Graph`]. Each borrows the
/// graph (a [`DfsWalker`](crate::DfsWalker) leaves it free to edit), refuses a stale root
/// ([`GraphError::StaleNode`]); its `skip_subtree` drops the last node's descendants.
///
/// ```
/// use scenewalk_core::Graph;
/// use scenewalk_iterators::{Event, Walk};
/// use scenewalk_nodes::Group;
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// let a1 = graph.append_child(a, Group)?;
/// let b = graph.append_child(root, Group)?;
/// let [r, a, a1, b] = [root, a, a1, b].map(|id| id.index());
///
/// let entered: Vec<_> = graph.depth_first(root)?.filter(|e| e.is_enter()).map(Event::node).collect();
/// assert_eq!(entered, [r, a, a1, b]);
/// assert!(graph.preorder(root)?.eq(entered));
///
/// assert!(graph.breadth_first(root)?.eq([(r, 0), (a, 1), (b, 1), (a1, 2)]));
///
/// // Highest key first: b (2.0) before a (1.0), and a1 only once a is out.
/// let by_key = graph.by_priority(root, |n| if n == b { 2.0 } else { 1.0 })?;
/// assert_eq!(by_key.collect::<Result<Vec<_>, _>>()?, [r, b, a, a1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Walk: sealed::Sealed {
    /// The [`DfsWalker`](crate::DfsWalker)'s enter and leave [`Event`](crate::Event)s.
    fn depth_first(&self, root: NodeId) -> Result<DepthFirstIter<'_>, GraphError> {
        DepthFirstIter::new(self.borrow(), root)
    }

    /// The nodes in depth-first pre-order: the same walk's enter events.
    fn preorder(&self, root: NodeId) -> Result<DepthFirstIter<'_, NodeIndex>, GraphError> {
        DepthFirstIter::new(self.borrow(), root)
    }

    /// `(node, depth)` in level order, each level in document order.
    fn breadth_first(&self, root: NodeId) -> Result<BreadthFirstIter<'_>, GraphError> {
        let graph = self.borrow();
        graph.node_type(root)?;
        Ok(BreadthFirstIter {
            graph,
            runs: VecDeque::new(),
            run: root.index().raw(),
            depth: 0,
            children: NONE,
        })
    }

    /// The nodes best-first, as [`PriorityQueue`](crate::PriorityQueue) takes them; `key`
    /// is called once per node but the root, as the iterator moves on from its parent
    /// ([`skip_subtree`](PriorityIter::skip_subtree) spares the children's). A NaN key
    /// yields `Err(TraversalError::NanKey)` for that node and ends the iterator.
    fn by_priority<F>(&self, root: NodeId, key: F) -> Result<PriorityIter<'_, F>, GraphError>
    where
        F: FnMut(NodeIndex) -> f32,
    {
        let graph = self.borrow();
        graph.node_type(root)?;
        Ok(PriorityIter {
            graph,
            key,
            heap: BinaryHeap::from([Ranked(Rank::new(0.0, 0), root.index())]),
            sequence: 1,
            last: None,
        })
    }
}

impl Walk for Graph {}

/// "No node" in [`BreadthFirstIter`]'s slot fields.
const NONE: u32 = u32::MAX;

/// Level order; see [`Walk::breadth_first`].
#[derive(Clone, Debug)]
pub struct BreadthFirstIter<'g> {
    graph: &'g Graph,
    /// The first child and depth of each run of siblings still to come.
    runs: VecDeque<(u32, u32)>,
    /// The run's next node, or [`NONE`] (plain `u32`s stay in the caller's registers).
    run: u32,
    /// The depth of the run being yielded (and of the node yielded last).
    depth: u32,
    /// The first child of the node yielded last, queued at the next step, or [`NONE`].
    children: u32,
}

impl BreadthFirstIter<'_> {
    /// Do not yield the descendants of the node yielded last.
    pub fn skip_subtree(&mut self) {
        self.children = NONE;
    }
}

impl Iterator for BreadthFirstIter<'_> {
    type Item = (NodeIndex, u32);

    #[inline]
    fn next(&mut self) -> Option<(NodeIndex, u32)> {
        if self.children != NONE {
            self.runs.push_back((self.children, self.depth + 1));
        }
        if self.run == NONE {
            (self.run, self.depth) = self.runs.pop_front()?;
        }
        let node = NodeIndex::new(self.run);
        // The root's siblings are not part of its subtree.
        let sibling = self.graph.next_sibling_at(node).filter(|_| self.depth > 0);
        self.run = sibling.map_or(NONE, NodeIndex::raw);
        self.children = self.graph.first_child_at(node).map_or(NONE, NodeIndex::raw);
        Some((node, self.depth))
    }
}

impl FusedIterator for BreadthFirstIter<'_> {}

/// Best-first order; see [`Walk::by_priority`].
pub struct PriorityIter<'g, F> {
    graph: &'g Graph,
    key: F,
    heap: BinaryHeap<Ranked<NodeIndex>>,
    sequence: u64,
    /// The node yielded last, whose children are keyed and queued at the next step.
    last: Option<NodeIndex>,
}

impl<F> PriorityIter<'_, F> {
    /// Do not yield (or key) the descendants of the node yielded last.
    pub fn skip_subtree(&mut self) {
        self.last = None;
    }

    /// How many nodes wait in the queue (the last node's children join at the next step).
    pub fn pending(&self) -> usize {
        self.heap.len()
    }
}

impl<F> std::fmt::Debug for PriorityIter<'_, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PriorityIter")
            .field("pending", &self.heap.len())
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}

impl<F: FnMut(NodeIndex) -> f32> Iterator for PriorityIter<'_, F> {
    type Item = Result<NodeIndex, TraversalError>;

    fn next(&mut self) -> Option<Self::Item> {
        let graph = self.graph;
        let children = self.last.take().and_then(|n| graph.first_child_at(n));
        for c in std::iter::successors(children, |&c| graph.next_sibling_at(c)) {
            let key = (self.key)(c);
            if key.is_nan() {
                self.heap.clear();
                let node = graph.id_at(c)?;
                return Some(Err(TraversalError::NanKey { node }));
            }
            self.heap.push(Ranked(Rank::new(key, self.sequence), c));
            self.sequence += 1;
        }
        let Ranked(_, node) = self.heap.pop()?;
        self.last = Some(node);
        Some(Ok(node))
    }
}

impl<F: FnMut(NodeIndex) -> f32> FusedIterator for PriorityIter<'_, F> {}
