//! A mesh's bounding-volume hierarchy, a [`Graph`] the framework's iterators walk.

use scenewalk_core::Invariant;
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Graph, GraphError, NodeCore, NodeId, NodeIndex};

/// The most triangles a leaf of a [`MeshBvh`] holds.
pub const MAX_LEAF_TRIANGLES: usize = 4;

/// Bins per axis of the SAH split search (within a few percent of a full sweep).
const BINS: usize = 16;

/// The payload of a BVH node: a marker, its triangles are
/// [`MeshBvh::subtree_triangles`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BvhNode;

impl NodeCore for BvhNode {}

/// A binary bounding-volume hierarchy over a mesh's triangles: a [`Graph`] of
/// [`BvhNode`]s in depth-first order, with a box table indexed by [`NodeIndex::get`]
/// ([`boxes`](MeshBvh::boxes)) for `scenewalk_iterators::AabbOverlap`. A leaf holds at
/// most [`MAX_LEAF_TRIANGLES`] triangles; each box holds its subtree's triangles.
///
/// Built top-down, without recursion, by the binned surface-area heuristic; a range
/// whose centroids coincide is halved by position. An empty mesh gives one empty leaf.
#[derive(Clone, Debug)]
pub struct MeshBvh {
    graph: Graph,
    root: NodeId,
    boxes: Vec<Aabb>,
    /// Per slot: the subtree's range of `order`, and whether the node is a leaf.
    ranges: Vec<(u32, u32, bool)>,
    order: Vec<u32>,
}

impl MeshBvh {
    /// Builds the hierarchy; indices in range and fewer than `u32::MAX` triangles (the
    /// mesh checks both).
    pub(crate) fn build(positions: &[Vec3], triangles: &[[u32; 3]]) -> Result<Self, GraphError> {
        let corner = |i: u32| positions.get(i as usize).copied().invariant("vertex");
        // Each triangle's box and centroid.
        let tris: Vec<(Aabb, Vec3)> = (triangles.iter())
            .map(|t| Aabb::from_points(t.map(corner)))
            .map(|b| (b, b.center()))
            .collect();
        let mut order: Vec<u32> = (0..triangles.len() as u32).collect();
        let mut graph = Graph::with_capacity(triangles.len() / 2 + 1);
        let mut boxes = Vec::with_capacity(triangles.len() / 2 + 1);
        let mut ranges = Vec::with_capacity(triangles.len() / 2 + 1);
        let mut root = None;
        // Reused by every split: zeroing a fresh table per node cost more than binning.
        let mut bins: Bins = [[(Aabb::EMPTY, 0); BINS]; 3];
        // The pending ranges of the triangle order, each with its parent.
        let mut stack = vec![(None, 0, triangles.len())];
        while let Some((parent, start, end)) = stack.pop() {
            let span = order.get_mut(start..end).invariant("a pending range");
            // One pass for the node's box and its centroids' box.
            let (bounds, centroid_bounds) = (span.iter().filter_map(|&t| tris.get(t as usize)))
                .fold((Aabb::EMPTY, Aabb::EMPTY), |(b, c), (tb, tc)| {
                    (b.union(tb), c.including(*tc))
                });
            let split = split(span, &tris, &bounds, &centroid_bounds, &mut bins);
            let id = match parent {
                None => graph.try_add_root(BvhNode)?,
                Some(parent) => graph.append_child(parent, BvhNode)?,
            };
            root.get_or_insert(id);
            let slot = id.index().get();
            if boxes.len() <= slot {
                boxes.resize(slot + 1, Aabb::EMPTY);
                ranges.resize(slot + 1, (0, 0, true));
            }
            if let (Some(b), Some(r)) = (boxes.get_mut(slot), ranges.get_mut(slot)) {
                *b = bounds;
                *r = (start as u32, (end - start) as u32, split.is_none());
            }
            if let Some(mid) = split {
                // Right pushed first, so the left subtree is built (and numbered) first.
                stack.push((Some(id), start + mid, end));
                stack.push((Some(id), start, start + mid));
            }
        }
        let root = root.map_or_else(|| graph.try_add_root(BvhNode), Ok)?;
        Ok(Self {
            graph,
            root,
            boxes,
            ranges,
            order,
        })
    }

    /// The hierarchy as a graph of [`BvhNode`] payloads.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The root node.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// Each node's box (in the mesh's local frame), indexed by [`NodeIndex::get`].
    pub fn boxes(&self) -> &[Aabb] {
        &self.boxes
    }

    /// The box of `node` (empty for a slot outside the hierarchy).
    pub fn node_box(&self, node: NodeIndex) -> Aabb {
        self.boxes.get(node.get()).copied().unwrap_or(Aabb::EMPTY)
    }

    /// Every triangle index once, in leaf order: each node's triangles are a range of it.
    pub fn triangle_order(&self) -> &[u32] {
        &self.order
    }

    /// The triangles of a leaf; empty for an internal node or a slot outside.
    pub fn leaf_triangles(&self, node: NodeIndex) -> &[u32] {
        match self.ranges.get(node.get()) {
            Some(&(first, count, true)) => self.span(first, count),
            _ => &[],
        }
    }

    /// The triangles of `node`'s whole subtree; empty for a slot outside the hierarchy.
    pub fn subtree_triangles(&self, node: NodeIndex) -> &[u32] {
        match self.ranges.get(node.get()) {
            Some(&(first, count, _)) => self.span(first, count),
            None => &[],
        }
    }

    /// Whether `node` is a leaf of the hierarchy.
    pub fn is_leaf(&self, node: NodeIndex) -> bool {
        matches!(self.ranges.get(node.get()), Some(&(_, _, true)))
    }

    fn span(&self, first: u32, count: u32) -> &[u32] {
        let start = first as usize;
        (self.order.get(start..start + count as usize)).invariant("a leaf's triangles")
    }
}

/// Per axis, per bin: the box and count of the triangles whose centroids fall in it.
type Bins = [[(Aabb, u32); BINS]; 3];

/// Half the surface area of a box (the SAH only compares ratios).
fn half_area(b: &Aabb) -> f32 {
    let s = b.size();
    s.x * s.y + s.y * s.z + s.z * s.x
}

/// Entry `i`: the half area of the first `i + 1` bins' box times their triangles
/// (infinite while they hold none).
fn sweep<'a>(bins: impl Iterator<Item = &'a (Aabb, u32)>) -> [f32; BINS] {
    let mut costs = [f32::INFINITY; BINS];
    let (mut bounds, mut count) = (Aabb::EMPTY, 0u32);
    for (cost, bin) in costs.iter_mut().zip(bins) {
        bounds = bounds.union(&bin.0);
        count += bin.1;
        if count > 0 {
            *cost = half_area(&bounds) * count as f32;
        }
    }
    costs
}

fn bin_of(c: f32, min: f32, scale: f32, bins: usize) -> usize {
    (((c - min) * scale) as usize).min(bins - 1)
}

/// How to split `span` (centroids in `cb`): `None` for a leaf, else where the right
/// half starts once `span` is partitioned in place.
fn split(
    span: &mut [u32],
    tris: &[(Aabb, Vec3)],
    bounds: &Aabb,
    cb: &Aabb,
    bins: &mut Bins,
) -> Option<usize> {
    let n = span.len();
    if n <= 1 {
        return None;
    }
    let centroid = |t: u32| tris.get(t as usize).map(|t| t.1).invariant("a triangle");
    let extent = cb.size();
    // No more bins than triangles: small nodes, the most numerous, sweep less.
    let used = n.min(BINS);
    let scale = Vec3::select(extent.cmpgt(Vec3::ZERO), used as f32 / extent, Vec3::ZERO);
    // All three axes binned in one pass over the triangles.
    for bin in bins.iter_mut().flat_map(|axis| axis.iter_mut().take(used)) {
        *bin = (Aabb::EMPTY, 0);
    }
    for &t in span.iter() {
        let (b, c) = tris.get(t as usize).copied().invariant("a triangle");
        for (axis, axis_bins) in bins.iter_mut().enumerate() {
            if let Some(bin) = axis_bins.get_mut(bin_of(c[axis], cb.min[axis], scale[axis], used)) {
                bin.0 = bin.0.union(&b);
                bin.1 += 1;
            }
        }
    }
    // (cost, axis, first bin of the right side)
    let mut best: Option<(f32, usize, usize)> = None;
    for (axis, bins) in bins
        .iter()
        .enumerate()
        .filter(|&(axis, _)| scale[axis] > 0.0)
    {
        let bins = bins.get(..used).invariant("the used bins");
        // Splitting after bin `last` costs the first `last + 1` bins' cost and the
        // other `used - last - 1` bins'.
        let (left, right) = (sweep(bins.iter()), sweep(bins.iter().rev()));
        let costs = left.iter().zip(right.iter().take(used - 1).rev());
        for (last, (left, right)) in costs.enumerate() {
            let cost = left + right;
            if cost.is_finite() && best.is_none_or(|(b, _, _)| cost < b) {
                best = Some((cost, axis, last + 1));
            }
        }
    }
    let Some((cost, axis, bin)) = best else {
        // Every centroid in one point: halve by position, or stop when small enough.
        return (n > MAX_LEAF_TRIANGLES).then_some(n / 2);
    };
    // Leaf cost n (one intersection per triangle) against one traversal step plus the
    // expected intersections of the children.
    let area = half_area(bounds);
    let split_cost = 1.0 + if area > 0.0 { cost / area } else { 0.0 };
    if n <= MAX_LEAF_TRIANGLES && split_cost >= n as f32 {
        return None;
    }
    let mut mid = 0;
    for j in 0..n {
        let Some(&t) = span.get(j) else { break };
        if bin_of(centroid(t)[axis], cb.min[axis], scale[axis], used) < bin {
            span.swap(mid, j);
            mid += 1;
        }
    }
    Some(mid)
}
