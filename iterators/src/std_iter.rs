//! Std iterators over a graph: depth-first events, level order, priority order, and
//! the flattened order.

use crate::priority::Rank;
use crate::walker::Place;
use crate::{DfsWalker, Event, Flattened};
use scenewalk_core::{Graph, GraphError, NodeId, NodeIndex, TraversalError};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::iter::FusedIterator;

mod sealed {
    pub trait Sealed {}
    impl Sealed for scenewalk_core::Graph {}
}

/// Lazy std iterators over the subtree of a root, as methods of [`Graph`].
///
/// Each borrows the graph for as long as it lives (use a [`DfsWalker`] to edit the
/// graph between steps) and checks the root when it is made: a stale root is a
/// [`GraphError::StaleNode`]. Each has a `skip_subtree` that drops the descendants of
/// the node it yielded last.
///
/// ```
/// use scenewalk_core::Graph;
/// use scenewalk_iterators::{Event, Walk};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Group)?;
/// let a1 = graph.append_child(a, Group)?;
/// let b = graph.append_child(root, Group)?;
/// let [r, a, a1, b] = [root, a, a1, b].map(|id| id.index());
///
/// let entered: Vec<_> = graph.depth_first(root)?.filter(|e| e.is_enter()).map(Event::node).collect();
/// assert_eq!(entered, [r, a, a1, b]);
///
/// let levels: Vec<_> = graph.breadth_first(root)?.collect();
/// assert_eq!(levels, [(r, 0), (a, 1), (b, 1), (a1, 2)]);
///
/// // Highest key first: b (2.0) before a (1.0), and a1 only once a is out.
/// let by_key = graph.by_priority(root, |n| if n == b { 2.0 } else { 1.0 })?;
/// assert_eq!(by_key.collect::<Result<Vec<_>, _>>()?, [r, b, a, a1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Walk: sealed::Sealed {
    /// Enter and leave [`Event`]s of a depth-first walk in document order, properly
    /// nested; stackless and allocation-free (the steps of a [`DfsWalker`], on slot
    /// indices while the graph is borrowed).
    fn depth_first(&self, root: NodeId) -> Result<DepthFirstIter<'_>, GraphError>;

    /// The nodes in depth-first pre-order, no leave events; stackless and
    /// allocation-free (the steps of a [`StacklessDfs`](crate::StacklessDfs), on slot
    /// indices while the graph is borrowed).
    fn preorder(&self, root: NodeId) -> Result<PreorderIter<'_>, GraphError>;

    /// `(node, depth)` in level order: the root, then its children, then its
    /// grandchildren, each level in document order.
    fn breadth_first(&self, root: NodeId) -> Result<BreadthFirstIter<'_>, GraphError>;

    /// The nodes by priority: among the nodes whose parent was already yielded, the
    /// one with the highest key comes next (best-first, as for level-of-detail or
    /// front-to-back). `key` is called once for each node but the root, when the
    /// iterator moves on from the node's parent (so a parent's
    /// [`skip_subtree`](PriorityIter::skip_subtree) spares its children's keys).
    ///
    /// Equal keys come out in the order they were pushed (a sequence number breaks
    /// ties), so equal keys among siblings keep document order; `-0.0` equals `0.0`.
    /// This is the order of [`PriorityQueue`](crate::PriorityQueue), and as there a
    /// NaN key is an error: the iterator yields `Err(TraversalError::NanKey)` for that
    /// node and then ends, since a NaN has no place in an order.
    fn by_priority<F>(&self, root: NodeId, key: F) -> Result<PriorityIter<'_, F>, GraphError>
    where
        F: FnMut(NodeIndex) -> f32;
}

impl Walk for Graph {
    fn depth_first(&self, root: NodeId) -> Result<DepthFirstIter<'_>, GraphError> {
        check(self, root)?;
        Ok(DepthFirstIter {
            graph: self,
            root,
            place: Place::new(root.index()),
        })
    }

    fn preorder(&self, root: NodeId) -> Result<PreorderIter<'_>, GraphError> {
        check(self, root)?;
        Ok(PreorderIter {
            graph: self,
            root: root.index(),
            current: None,
            skip: false,
            done: false,
        })
    }

    fn breadth_first(&self, root: NodeId) -> Result<BreadthFirstIter<'_>, GraphError> {
        check(self, root)?;
        Ok(BreadthFirstIter {
            graph: self,
            runs: VecDeque::new(),
            run: root.index().raw(),
            depth: 0,
            children: NONE,
        })
    }

    fn by_priority<F>(&self, root: NodeId, key: F) -> Result<PriorityIter<'_, F>, GraphError>
    where
        F: FnMut(NodeIndex) -> f32,
    {
        check(self, root)?;
        let mut heap = BinaryHeap::new();
        heap.push(Pending {
            rank: Rank::new(0.0, 0),
            node: root.index(),
        });
        Ok(PriorityIter {
            graph: self,
            key,
            heap,
            sequence: 1,
            last: None,
        })
    }
}

fn check(graph: &Graph, root: NodeId) -> Result<(), GraphError> {
    if graph.contains(root) {
        Ok(())
    } else {
        Err(GraphError::StaleNode(root))
    }
}

/// Depth-first enter / leave events; see [`Walk::depth_first`].
///
/// The steps of a [`DfsWalker`], but on slot indices: while the iterator borrows the
/// graph no node can be removed, so it needs neither the walker's liveness checks
/// nor the generations that make them; [`into_walker`](Self::into_walker) reads the
/// generations once.
#[derive(Clone, Debug)]
pub struct DepthFirstIter<'g> {
    graph: &'g Graph,
    root: NodeId,
    place: Place<NodeIndex>,
}

impl DepthFirstIter<'_> {
    /// After an [`Event::Enter`]: do not descend into that node (its leave comes next).
    pub fn skip_subtree(&mut self) {
        self.place.skip_subtree();
    }

    /// The depth below the root of the last event's node.
    pub fn depth(&self) -> u32 {
        self.place.depth
    }

    /// The walker, to keep walking after editing the graph.
    pub fn into_walker(self) -> DfsWalker {
        DfsWalker::from_slots(self.graph, self.root, self.place)
    }
}

impl Iterator for DepthFirstIter<'_> {
    type Item = Event;

    #[inline]
    fn next(&mut self) -> Option<Event> {
        self.place.step(self.graph)
    }
}

impl FusedIterator for DepthFirstIter<'_> {}

/// Depth-first pre-order nodes; see [`Walk::preorder`].
///
/// The steps of a [`StacklessDfs`](crate::StacklessDfs) on slot indices: while the
/// iterator borrows the graph no node can be removed, so it reads only the hot links,
/// as a hand-written loop does.
#[derive(Clone, Debug)]
pub struct PreorderIter<'g> {
    graph: &'g Graph,
    root: NodeIndex,
    /// The node yielded last; `None` before the first.
    current: Option<NodeIndex>,
    skip: bool,
    done: bool,
}

impl PreorderIter<'_> {
    /// Do not descend into the node yielded last.
    pub fn skip_subtree(&mut self) {
        if self.current.is_some() && !self.done {
            self.skip = true;
        }
    }
}

impl Iterator for PreorderIter<'_> {
    type Item = NodeIndex;

    #[inline]
    fn next(&mut self) -> Option<NodeIndex> {
        if self.done {
            return None;
        }
        let next = match self.current {
            None => Some(self.root),
            Some(current) if std::mem::take(&mut self.skip) => {
                self.graph.next_preorder_skipping_at(current, self.root)
            }
            Some(current) => self.graph.next_preorder_at(current, self.root),
        };
        self.current = next;
        self.done = next.is_none();
        next
    }
}

impl FusedIterator for PreorderIter<'_> {}

/// "No node" in [`BreadthFirstIter`]'s slot fields (the arena's own sentinel, never
/// a slot).
const NONE: u32 = u32::MAX;

/// Level order; see [`Walk::breadth_first`].
///
/// The queue holds one entry per node whose children are still to come (the first
/// child of each such run of siblings), not one per pending node.
#[derive(Clone, Debug)]
pub struct BreadthFirstIter<'g> {
    graph: &'g Graph,
    /// First children of yielded nodes with their depth, each a run of siblings still
    /// to come.
    runs: VecDeque<(u32, u32)>,
    /// The next node of the run being yielded, or [`NONE`]. Slots are kept as plain
    /// `u32`s with a sentinel, not `Option`s of tuples: the iterator's state then
    /// stays in registers of the caller's loop.
    run: u32,
    /// The depth of the run being yielded (and of the node yielded last).
    depth: u32,
    /// The first child of the node yielded last, queued at the next step (unless its
    /// subtree is skipped), or [`NONE`].
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
        self.run = match self.depth {
            0 => NONE,
            _ => self
                .graph
                .next_sibling_at(node)
                .map_or(NONE, NodeIndex::raw),
        };
        self.children = self.graph.first_child_at(node).map_or(NONE, NodeIndex::raw);
        Some((node, self.depth))
    }
}

impl FusedIterator for BreadthFirstIter<'_> {}

/// Best-first order; see [`Walk::by_priority`].
pub struct PriorityIter<'g, F> {
    graph: &'g Graph,
    key: F,
    heap: BinaryHeap<Pending>,
    sequence: u64,
    /// The node yielded last, whose children are keyed and queued at the next step.
    last: Option<NodeIndex>,
}

impl<F> PriorityIter<'_, F> {
    /// Do not yield the descendants of the node yielded last (its children are never
    /// keyed).
    pub fn skip_subtree(&mut self) {
        self.last = None;
    }

    /// How many nodes wait in the queue (the children of the node yielded last are
    /// queued at the next step).
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
        if let Some(node) = self.last.take() {
            let mut child = self.graph.first_child_at(node);
            while let Some(c) = child {
                let key = (self.key)(c);
                if key.is_nan() {
                    self.heap.clear();
                    return self
                        .graph
                        .id_at(c)
                        .map(|node| Err(TraversalError::NanKey { node }));
                }
                self.heap.push(Pending {
                    rank: Rank::new(key, self.sequence),
                    node: c,
                });
                self.sequence += 1;
                child = self.graph.next_sibling_at(c);
            }
        }
        let node = self.heap.pop()?.node;
        self.last = Some(node);
        Some(Ok(node))
    }
}

impl<F: FnMut(NodeIndex) -> f32> FusedIterator for PriorityIter<'_, F> {}

/// A queued node of [`PriorityIter`], in the order of [`Rank`].
#[derive(Clone, Copy, Debug)]
struct Pending {
    rank: Rank,
    node: NodeIndex,
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank.cmp(&other.rank)
    }
}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.rank == other.rank
    }
}

impl Eq for Pending {}

/// The nodes of a [`Flattened`] in its (depth-first) order; see [`Flattened::iter`].
#[derive(Clone, Debug)]
pub struct FlatIter<'f> {
    flat: &'f Flattened,
    pos: usize,
    last: Option<usize>,
}

impl<'f> FlatIter<'f> {
    pub(crate) fn new(flat: &'f Flattened) -> Self {
        Self {
            flat,
            pos: 0,
            last: None,
        }
    }

    /// Do not yield the descendants of the node yielded last: the jump past its
    /// subtree.
    pub fn skip_subtree(&mut self) {
        if let Some(last) = self.last.take() {
            self.pos = self.pos.max(self.flat.subtree(last).end);
        }
    }

    /// The position of the node yielded last.
    pub fn position(&self) -> Option<usize> {
        self.last
    }
}

impl Iterator for FlatIter<'_> {
    type Item = NodeIndex;

    #[inline]
    fn next(&mut self) -> Option<NodeIndex> {
        let node = *self.flat.nodes.get(self.pos)?;
        self.last = Some(self.pos);
        self.pos += 1;
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.flat.len().saturating_sub(self.pos);
        (left, Some(left))
    }
}

impl ExactSizeIterator for FlatIter<'_> {}

impl FusedIterator for FlatIter<'_> {}
