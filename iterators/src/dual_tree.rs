use scenewalk_core::{Aabb, Graph, GraphError, NodeId, NodeIndex};
use std::fmt;
use std::iter::FusedIterator;

/// A pair of nodes: the first from tree `a`, the second from tree `b`.
pub type NodePair = (NodeIndex, NodeIndex);

/// Decides whether a candidate pair is descended into (a pair of leaves: reported).
/// Every closure `FnMut(NodeIndex, NodeIndex) -> bool` is one.
pub trait PairFilter {
    /// Whether `(a, b)` (`a` from tree A) may hold overlapping leaves; `false` prunes.
    fn test(&mut self, a: NodeIndex, b: NodeIndex) -> bool;
}

impl<F: FnMut(NodeIndex, NodeIndex) -> bool> PairFilter for F {
    #[inline]
    fn test(&mut self, a: NodeIndex, b: NodeIndex) -> bool {
        self(a, b)
    }
}

/// The bounding-box filter: a pair passes when the nodes' boxes overlap (touching
/// counts), from per-node tables indexed by [`NodeIndex::get`] (a node outside fails).
#[derive(Clone, Copy, Debug)]
pub struct AabbOverlap<'t> {
    a: &'t [Aabb],
    b: &'t [Aabb],
}

impl<'t> AabbOverlap<'t> {
    /// A filter with box table `a` for the first tree's graph and `b` for the second's
    /// (the same table twice for one graph).
    pub fn new(a: &'t [Aabb], b: &'t [Aabb]) -> Self {
        Self { a, b }
    }
}

impl PairFilter for AabbOverlap<'_> {
    #[inline]
    fn test(&mut self, a: NodeIndex, b: NodeIndex) -> bool {
        let boxes = self.a.get(a.get()).zip(self.b.get(b.get()));
        boxes.is_some_and(|(x, y)| x.overlaps(y))
    }
}

/// What a [`DualTree`] has done since its last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DualTreeStats {
    /// Filter calls (pair tests), internal pairs included.
    pub pair_tests: u64,
    /// Leaf pairs yielded.
    pub pairs_found: u64,
    /// The most entries the pending stack held at once.
    pub max_stack: usize,
}

/// Pending work: a pair, or a run of sibling pairs handed out one at a time. In self
/// mode `(n, n)` stands for the pairs within `n`'s subtree.
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// The pair of roots (the root twice in self mode).
    Pair(NodeIndex, NodeIndex),
    /// `(a, b)`, then `a`'s later siblings with `b` (A descends, B is a leaf).
    DownA(NodeIndex, NodeIndex),
    /// `(a, b)`, then `a` with `b`'s later siblings (B descends, A is a leaf).
    DownB(NodeIndex, NodeIndex),
    /// `(a, b, first_b)`: every child × child pair from `(a, b)` on; `b` runs over its
    /// siblings, then the next `a` starts again from `first_b`.
    Cross(NodeIndex, NodeIndex, NodeIndex),
    /// Self mode, from `c` on: the pairs within `c` when `d == c`, else `(c, d)`; `d`
    /// runs over `c`'s later siblings, then the next `c` starts with itself.
    Children { c: NodeIndex, d: NodeIndex },
}

impl Pending {
    /// The next pair (`None` for a leaf within itself), and whether it was the last.
    #[inline]
    fn take(&mut self, graph_a: &Graph, graph_b: &Graph) -> (Option<NodePair>, bool) {
        let next_a = |n: NodeIndex| graph_a.next_sibling_at(n);
        let next_b = |n: NodeIndex| graph_b.next_sibling_at(n);
        match self {
            Pending::Pair(a, b) => (Some((*a, *b)), true),
            Pending::DownA(a, b) => (Some((*a, *b)), next_a(*a).map(|n| *a = n).is_none()),
            Pending::DownB(a, b) => (Some((*a, *b)), next_b(*b).map(|n| *b = n).is_none()),
            Pending::Cross(a, b, first_b) => {
                let pair = (*a, *b);
                // Only once `b`'s run is done does `a` move on.
                let done = next_b(*b).map(|n| *b = n).is_none()
                    && next_a(*a).map(|n| (*a, *b) = (n, *first_b)).is_none();
                (Some(pair), done)
            }
            Pending::Children { c, d } => {
                // A leaf child has no pairs within it.
                let (c0, d0) = (*c, *d);
                let pair = (c0 != d0 || graph_a.first_child_at(c0).is_some()).then_some((c0, d0));
                let done = next_a(d0).map(|n| *d = n).is_none()
                    && next_a(c0).map(|n| (*c, *d) = (n, n)).is_none();
                (pair, done)
            }
        }
    }
}

/// The dual-tree traversal: yields every pair of leaves `(a, b)` such that the filter
/// passes for `(a, b)` and for every pair of their ancestors visited on the way down.
///
/// - **Two trees** ([`reset`](DualTree::reset)), in two graphs or one: a passing pair of
///   leaves is yielded, else the internal side descends (both: every child × child pair).
/// - **Self** ([`reset_self`](DualTree::reset_self)): the unordered pairs of distinct
///   leaves of one tree, each once: within a node, each pair of distinct children as a
///   two-tree pair, and each child within itself (never the filter on a node and itself).
///
/// Pending work is a stack of sibling-pair runs, at most one per level descended in each
/// tree: memory grows with the depths, not the fan-out. Each call takes the graphs (the
/// same throughout); a structural edit of either between calls ends the traversal.
///
/// ```
/// use scenewalk_core::{Aabb, Graph, glam::Vec3};
/// use scenewalk_iterators::{AabbOverlap, DualTree};
/// use scenewalk_nodes::Group;
/// let unit = |x: f32| Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0));
/// let mut graph = Graph::new();
/// let [a, b] = [graph.add_root(Group), graph.add_root(Group)];
/// // Boxes by slot: A's leaves at x = 0 and 5, B's at 0.5 and 9; a root's holds all.
/// let (mut boxes, mut leaves) = (vec![unit(0.0).union(&unit(9.0)); 6], Vec::new());
/// for (root, x) in [(a, 0.0), (a, 5.0), (b, 0.5), (b, 9.0)] {
///     let leaf = graph.append_child(root, Group)?.index();
///     boxes[leaf.get()] = unit(x);
///     leaves.push(leaf);
/// }
///
/// let mut dual = DualTree::new();
/// dual.reset(&graph, a, &graph, b)?;
/// let hits: Vec<_> = dual.iter(&graph, &graph, &mut AabbOverlap::new(&boxes, &boxes)).collect();
/// assert_eq!(hits, [(leaves[0], leaves[2])]);
/// // (a, b), then the four leaf pairs.
/// assert_eq!(dual.stats().pair_tests, 5);
///
/// // One tree against itself: a's two leaves are apart, so nothing.
/// dual.reset_self(&graph, a)?;
/// assert_eq!(dual.first_hit(&graph, &graph, &mut AabbOverlap::new(&boxes, &boxes)), None);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct DualTree {
    /// Pending work, the next on top.
    stack: Vec<Pending>,
    within: bool,
    /// Graphs A and B's revisions at the last check.
    seen: Option<(u64, u64)>,
    stats: DualTreeStats,
}

impl DualTree {
    /// A finished traversal: [`next`](DualTree::next) gives `None` until a reset.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// As [`new`](DualTree::new), with room for `entries` (at most 65,536) pending entries.
    pub fn with_capacity(entries: usize) -> Self {
        Self {
            stack: Vec::with_capacity(entries.min(1 << 16)),
            ..Self::default()
        }
    }

    /// Starts a two-tree traversal of `root_a` (in `graph_a`) against `root_b` (in
    /// `graph_b`); the same root twice yields ordered pairs, `(x, x)` included. Errors:
    /// [`GraphError::StaleNode`] when a root is not live (the traversal is then empty).
    pub fn reset(
        &mut self,
        graph_a: &Graph,
        root_a: NodeId,
        graph_b: &Graph,
        root_b: NodeId,
    ) -> Result<(), GraphError> {
        self.clear();
        graph_a.node_type(root_a)?;
        graph_b.node_type(root_b)?;
        self.stack
            .push(Pending::Pair(root_a.index(), root_b.index()));
        self.stats.max_stack = 1;
        self.within = false;
        self.seen = Some((graph_a.revision(), graph_b.revision()));
        Ok(())
    }

    /// Starts a self traversal of `root`'s subtree. Errors: as [`reset`](DualTree::reset).
    pub fn reset_self(&mut self, graph: &Graph, root: NodeId) -> Result<(), GraphError> {
        self.reset(graph, root, graph, root)
            .map(|()| self.within = true)
    }

    /// Ends the traversal (keeping the buffer) and zeroes the statistics.
    pub fn clear(&mut self) {
        self.stack.clear();
        self.stats = DualTreeStats::default();
    }

    /// Whether the traversal is over: no pending pair is left.
    pub fn is_done(&self) -> bool {
        self.stack.is_empty()
    }

    /// How many entries the stack can hold without growing.
    pub fn stack_capacity(&self) -> usize {
        self.stack.capacity()
    }

    /// The statistics since the last reset.
    pub fn stats(&self) -> DualTreeStats {
        self.stats
    }

    /// The next leaf pair, or `None` when over. `graph_a` holds the first tree, `graph_b`
    /// the second (not read in self mode); `filter` is called once per candidate pair.
    pub fn next<F: PairFilter + ?Sized>(
        &mut self,
        graph_a: &Graph,
        graph_b: &Graph,
        filter: &mut F,
    ) -> Option<NodePair> {
        let graph_b = if self.within { graph_a } else { graph_b };
        // A structural edit of either graph since the last call ends the traversal.
        let revisions = (graph_a.revision(), graph_b.revision());
        if self.seen.replace(revisions) != Some(revisions) {
            self.stack.clear();
        }
        while let Some(top) = self.stack.last_mut() {
            let (candidate, last) = top.take(graph_a, graph_b);
            if last {
                self.stack.pop();
            }
            let Some((a, b)) = candidate else { continue };
            let below = if self.within && a == b {
                let first = graph_a.first_child_at(a);
                first.map(|c| Pending::Children { c, d: c })
            } else {
                self.stats.pair_tests += 1;
                if !filter.test(a, b) {
                    continue;
                }
                match (graph_a.first_child_at(a), graph_b.first_child_at(b)) {
                    (None, None) => {
                        self.stats.pairs_found += 1;
                        return Some((a, b));
                    }
                    (Some(a), None) => Some(Pending::DownA(a, b)),
                    (None, Some(b)) => Some(Pending::DownB(a, b)),
                    (Some(a), Some(b)) => Some(Pending::Cross(a, b, b)),
                }
            };
            self.stack.extend(below);
            self.stats.max_stack = self.stats.max_stack.max(self.stack.len());
        }
        None
    }

    /// First-hit mode: the next leaf pair, after which the traversal is over.
    pub fn first_hit<F: PairFilter + ?Sized>(
        &mut self,
        graph_a: &Graph,
        graph_b: &Graph,
        filter: &mut F,
    ) -> Option<NodePair> {
        let hit = self.next(graph_a, graph_b, filter);
        self.stack.clear();
        hit
    }

    /// The remaining leaf pairs in traversal order, lazily (`.collect()` for all of them);
    /// dropping the iterator pauses the traversal.
    pub fn iter<'a, F: PairFilter + ?Sized>(
        &'a mut self,
        graph_a: &'a Graph,
        graph_b: &'a Graph,
        filter: &'a mut F,
    ) -> DualTreeIter<'a, F> {
        DualTreeIter {
            dual: self,
            graph_a,
            graph_b,
            filter,
        }
    }
}

/// The remaining leaf pairs of a [`DualTree`]; see [`DualTree::iter`].
pub struct DualTreeIter<'a, F: PairFilter + ?Sized> {
    dual: &'a mut DualTree,
    graph_a: &'a Graph,
    graph_b: &'a Graph,
    filter: &'a mut F,
}

impl<F: PairFilter + ?Sized> fmt::Debug for DualTreeIter<'_, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DualTreeIter")
            .field("dual", &self.dual)
            .finish_non_exhaustive()
    }
}

impl<F: PairFilter + ?Sized> Iterator for DualTreeIter<'_, F> {
    type Item = NodePair;

    #[inline]
    fn next(&mut self) -> Option<NodePair> {
        self.dual.next(self.graph_a, self.graph_b, self.filter)
    }
}

impl<F: PairFilter + ?Sized> FusedIterator for DualTreeIter<'_, F> {}
