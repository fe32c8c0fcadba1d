//! Synthetic trees: regular ones for measuring, random ones for testing.

use crate::rng::SplitMix64;
use crate::shape::TreeShape;
use scenewalk_core::glam::{EulerRot, Quat, Vec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::{Geometry, Group, Transform};

/// A complete quad tree of [`Group`] nodes with every leaf at `depth` (depth 0 is a
/// lone root): (4ᵈᵉᵖᵗʰ⁺¹ − 1) / 3 nodes, built in depth-first order so the records lie
/// in depth-first order in the arena (the fast layout for a walk).
///
/// ```
/// let (graph, root) = scenewalk_examples::quad_tree(3);
/// assert_eq!(graph.len(), 85);
/// assert_eq!(graph.children(root)?.count(), 4);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
///
/// # Panics
/// If the tree would not fit the arena (depth above 15).
pub fn quad_tree(depth: u32) -> (Graph, NodeId) {
    TreeShape::full(depth, 4).to_graph()
}

/// A tree of exactly `n` [`Group`] nodes (at least 1): the first `n` nodes of a
/// complete `fanout`-ary tree, built in depth-first order. The benchmark uses
/// `tree_with_nodes(1_000_000, 4)`; use [`TreeShape::complete`] to get the same tree
/// in the baselines' layouts.
///
/// ```
/// let (graph, _root) = scenewalk_examples::tree_with_nodes(1_000, 4);
/// assert_eq!(graph.len(), 1_000);
/// ```
pub fn tree_with_nodes(n: usize, fanout: usize) -> (Graph, NodeId) {
    TreeShape::complete(n, fanout).to_graph()
}

/// A random tree of exactly `n` nodes (at least 1) mixing [`Group`], [`Transform`]
/// (random translation, rotation and scale, all finite) and [`Geometry`] (a random
/// local box), about a third each; the root is a `Group`.
///
/// Each node hangs under a uniformly chosen earlier `Group` or `Transform` (geometry
/// stays a leaf), which gives expected depth O(log n) and records that are *not* in
/// depth-first order. The same `(n, seed)` always gives the same graph.
///
/// ```
/// use scenewalk_nodes::Transform;
/// let (graph, root) = scenewalk_examples::random_tree(500, 7);
/// assert_eq!(graph.len(), 500);
/// assert!(graph.get::<scenewalk_nodes::Group>(root).is_ok());
/// ```
pub fn random_tree(n: usize, seed: u64) -> (Graph, NodeId) {
    let n = n.max(1);
    let mut rng = SplitMix64::new(seed);
    let mut graph = Graph::with_capacity(n);
    let root = graph.add_root(Group);
    let mut parents = vec![root];
    for _ in 1..n {
        let parent = parents[rng.below(parents.len())];
        let added = match rng.below(3) {
            0 => graph.append_child(parent, Group),
            1 => graph.append_child(parent, random_transform(&mut rng)),
            _ => graph.append_child(parent, random_geometry(&mut rng)),
        };
        let id = added.expect("parents are live nodes of this graph");
        if graph.get::<Geometry>(id).is_err() {
            parents.push(id);
        }
    }
    (graph, root)
}

/// The tree of `shape` with a mix of payloads, node `i` in slot `i`: a
/// [`Transform`] made by `transform` (such as [`random_transform`] or
/// [`random_mild_transform`]) when `i % 3 == 1`, otherwise [`Geometry`]
/// ([`random_geometry`]) on a leaf and a [`Group`] on an inner node (so the root is a
/// `Group`). Returns the graph, its root and the transform nodes in slot order: the
/// scenes `bench_report` measures the incremental and the parallel update on.
///
/// ```
/// use scenewalk_examples::{TreeShape, rng::SplitMix64};
/// use scenewalk_examples::scenes::{mixed_graph, random_transform};
/// use scenewalk_nodes::{Geometry, Group, Transform};
/// let shape = TreeShape::complete(100, 4);
/// let (graph, root, transforms) = mixed_graph(&shape, &mut SplitMix64::new(9), random_transform);
/// assert_eq!((graph.len(), transforms.len()), (100, 33));
/// assert!(graph.get::<Group>(root).is_ok());
/// assert!(transforms.iter().all(|&t| graph.get::<Transform>(t).is_ok()));
/// let (mut geometry, mut next) = (0, Some(root));
/// while let Some(node) = next {
///     if graph.get::<Geometry>(node).is_ok() {
///         assert_eq!(graph.children(node)?.count(), 0, "geometry is a leaf");
///         geometry += 1;
///     }
///     next = graph.next_preorder(node, root)?;
/// }
/// assert_eq!(geometry, 51); // the leaves that are not transforms
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
pub fn mixed_graph(
    shape: &TreeShape,
    rng: &mut SplitMix64,
    transform: fn(&mut SplitMix64) -> Transform,
) -> (Graph, NodeId, Vec<NodeId>) {
    let children = shape.child_counts();
    let mut graph = Graph::with_capacity(shape.len());
    let mut ids: Vec<NodeId> = Vec::with_capacity(shape.len());
    let mut transforms = Vec::with_capacity(shape.len() / 3);
    for (i, &p) in shape.parents().iter().enumerate() {
        let id = if i == 0 {
            graph.add_root(Group)
        } else {
            let parent = ids[p as usize];
            let added = if i % 3 == 1 {
                graph.append_child(parent, transform(rng))
            } else if children[i] == 0 {
                graph.append_child(parent, random_geometry(rng))
            } else {
                graph.append_child(parent, Group)
            };
            added.expect("a shape's parents precede their children")
        };
        if i % 3 == 1 {
            transforms.push(id);
        }
        ids.push(id);
    }
    (graph, ids[0], transforms)
}

/// A transform with translation in [-10, 10)³, any rotation and scale in [0.5, 2)³.
pub fn random_transform(rng: &mut SplitMix64) -> Transform {
    let translation = random_vec3(rng, -10.0, 10.0);
    let tau = std::f32::consts::TAU;
    let rotation = Quat::from_euler(
        EulerRot::YXZ,
        rng.range_f32(0.0, tau),
        rng.range_f32(0.0, tau),
        rng.range_f32(0.0, tau),
    );
    let scale = random_vec3(rng, 0.5, 2.0);
    Transform::from_trs(translation, rotation, scale)
}

/// A transform whose scale stays within 0.9–1.1 (translation in [-10, 10)³, any
/// rotation), so products stay well inside `f32` over deep chains: the transforms of
/// the world-transform benchmarks.
pub fn random_mild_transform(rng: &mut SplitMix64) -> Transform {
    let translation = random_vec3(rng, -10.0, 10.0);
    let turn = random_vec3(rng, 0.0, std::f32::consts::TAU);
    let scale = random_vec3(rng, 0.9, 1.1);
    let rotation = Quat::from_euler(EulerRot::YXZ, turn.x, turn.y, turn.z);
    Transform::from_trs(translation, rotation, scale)
}

/// Geometry with a box centred in [-5, 5)³, half extents in [0.1, 2)³, and 12
/// triangles (a box's worth).
pub fn random_geometry(rng: &mut SplitMix64) -> Geometry {
    let center = random_vec3(rng, -5.0, 5.0);
    let half = random_vec3(rng, 0.1, 2.0);
    Geometry::with_primitives(Aabb::new(center - half, center + half), 12)
}

fn random_vec3(rng: &mut SplitMix64, lo: f32, hi: f32) -> Vec3 {
    Vec3::new(
        rng.range_f32(lo, hi),
        rng.range_f32(lo, hi),
        rng.range_f32(lo, hi),
    )
}

/// Appends `n` nodes to a pre-order parent list, in the subtree of node `under`: each
/// new node hangs under the previous one or one of its ancestors (down to `under`),
/// the depth doing a random walk at most `max_depth` levels below `under`. Numbering
/// stays pre-order, so a graph built in list order has its records in depth-first
/// order.
///
/// ```
/// use scenewalk_examples::{NO_PARENT, rng::SplitMix64, scenes::random_walk_parents};
/// let mut parents = vec![NO_PARENT];
/// random_walk_parents(&mut parents, 0, 99, 8, &mut SplitMix64::new(1));
/// assert_eq!(parents.len(), 100);
/// assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| (p as usize) < i));
/// ```
pub fn random_walk_parents(
    parents: &mut Vec<u32>,
    under: u32,
    n: usize,
    max_depth: usize,
    rng: &mut SplitMix64,
) {
    let mut path = vec![under];
    for _ in 0..n {
        while path.len() > 1 && (path.len() > max_depth || rng.next_u64() & 1 == 0) {
            path.pop();
        }
        let i = parents.len() as u32;
        parents.push(path.last().copied().unwrap_or(under));
        path.push(i);
    }
}

/// A random tree of `n` nodes (at least the root) as a pre-order parent list, root
/// first with [`NO_PARENT`](crate::NO_PARENT): see [`random_walk_parents`].
pub fn random_dfs_parents(n: usize, max_depth: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let mut parents = Vec::with_capacity(n.max(1));
    parents.push(crate::NO_PARENT);
    random_walk_parents(&mut parents, 0, n.saturating_sub(1), max_depth, rng);
    parents
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every node id of `root`'s subtree, in pre-order.
    fn preorder(graph: &Graph, root: NodeId) -> Vec<NodeId> {
        let mut out = vec![root];
        while let Some(next) = graph.next_preorder(*out.last().unwrap(), root).unwrap() {
            out.push(next);
        }
        out
    }

    #[test]
    fn quad_tree_is_full_and_in_dfs_order() {
        let (graph, root) = quad_tree(4);
        assert_eq!(graph.len(), 341);
        let order = preorder(&graph, root);
        assert_eq!(order.len(), 341);
        for (k, &id) in order.iter().enumerate() {
            assert_eq!(id.index().get(), k, "records lie in depth-first order");
            let children = graph.children(id).unwrap().count();
            let depth = graph.depth(id).unwrap();
            assert_eq!(children, if depth < 4 { 4 } else { 0 });
            assert!(graph.get::<Group>(id).is_ok());
        }
        assert_eq!(quad_tree(0).0.len(), 1);
    }

    #[test]
    fn tree_with_nodes_is_exact() {
        for n in [1, 2, 4, 5, 6, 1_000, 4_097] {
            let (graph, root) = tree_with_nodes(n, 4);
            assert_eq!(graph.len(), n);
            let order = preorder(&graph, root);
            assert!(
                order
                    .iter()
                    .enumerate()
                    .all(|(k, id)| id.index().get() == k)
            );
        }
    }

    #[test]
    fn random_tree_mixes_types_and_is_deterministic() {
        let (graph, root) = random_tree(3_000, 11);
        assert_eq!(graph.len(), 3_000);
        let order = preorder(&graph, root);
        assert_eq!(order.len(), 3_000, "one tree, every node reachable");
        let (mut groups, mut transforms, mut geometries) = (0, 0, 0);
        for &id in &order {
            if graph.get::<Group>(id).is_ok() {
                groups += 1;
            } else if let Ok(t) = graph.get::<Transform>(id) {
                assert!(t.local().is_finite());
                transforms += 1;
            } else {
                let g = graph.get::<Geometry>(id).unwrap();
                assert!(g.local_bounds().is_finite() && !g.local_bounds().is_empty());
                assert_eq!(graph.children(id).unwrap().count(), 0, "geometry is a leaf");
                geometries += 1;
            }
        }
        for count in [groups, transforms, geometries] {
            assert!(
                (800..1_200).contains(&count),
                "{groups} {transforms} {geometries}"
            );
        }
        let depth = order
            .iter()
            .map(|&id| graph.depth(id).unwrap())
            .max()
            .unwrap();
        assert!((5..60).contains(&depth), "depth {depth}");

        let (again, again_root) = random_tree(3_000, 11);
        let parents = |g: &Graph, r| -> Vec<_> {
            preorder(g, r)
                .into_iter()
                .map(|id| g.parent(id).unwrap().map(|p| p.index()))
                .collect()
        };
        assert_eq!(parents(&graph, root), parents(&again, again_root));
        let (other, other_root) = random_tree(3_000, 12);
        assert_ne!(parents(&graph, root), parents(&other, other_root));
    }
}
