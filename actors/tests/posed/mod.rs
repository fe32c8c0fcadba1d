//! Picking by brute force over posed triangles: every skinned mesh's vertices skinned
//! by hand (the joints' world matrices multiplied down from the root, each vertex
//! Σ wᵢ · world(jointᵢ) · inverse_bindᵢ · v), every plain mesh's triangles placed by
//! its node's world matrix, and every triangle tested with `ray_triangle`.

use scenewalk_actors::PickHit;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Graph, NodeId, NodeIndex};
use scenewalk_nodes::{Mesh, Ray, SkinnedMesh, Transform, ray_triangle};

/// The world matrix of `node`: the Transform locals from the root down, multiplied in
/// the order the update multiplies them (parent × local).
pub fn world(graph: &Graph, node: NodeId) -> Affine3A {
    let mut path = vec![node];
    while let Some(parent) = graph.parent(*path.last().unwrap()).unwrap() {
        path.push(parent);
    }
    path.iter().rev().fold(Affine3A::IDENTITY, |m, &n| {
        match graph.get::<Transform>(n) {
            Ok(t) => m * *t.local(),
            Err(_) => m,
        }
    })
}

/// A skinned mesh's vertices in world space, skinned by hand.
pub fn posed(graph: &Graph, mesh: &SkinnedMesh) -> Vec<Vec3> {
    let skin = mesh.skin();
    let matrices: Vec<Affine3A> = (skin.joints().iter().zip(skin.inverse_binds()))
        .map(|(&j, ib)| world(graph, j) * *ib)
        .collect();
    let vertices = mesh.mesh().positions().iter().zip(mesh.joints());
    vertices
        .zip(mesh.weights())
        .map(|((&p, js), ws)| {
            js.iter()
                .zip(ws)
                .filter(|(_, w)| **w > 0.0)
                .map(|(&j, &w)| w * matrices[usize::from(j)].transform_point3(p))
                .sum()
        })
        .collect()
}

/// Every mesh triangle of `root`'s subtree, in world space: (node, triangle, corners).
pub fn triangles(graph: &Graph, root: NodeId) -> Vec<(NodeIndex, u32, [Vec3; 3])> {
    let mut all = Vec::new();
    let mut next = Some(root);
    while let Some(node) = next {
        if let Ok(skinned) = graph.get::<SkinnedMesh>(node) {
            let posed = posed(graph, skinned);
            for (k, t) in skinned.mesh().triangles().iter().enumerate() {
                let corners = t.map(|v| posed[v as usize]);
                all.push((node.index(), k as u32, corners));
            }
        } else if let Ok(mesh) = graph.get::<Mesh>(node) {
            let placed = world(graph, node);
            for k in 0..mesh.geometry().primitives() {
                let corners = mesh
                    .triangle(k)
                    .unwrap()
                    .map(|p| placed.transform_point3(p));
                all.push((node.index(), k, corners));
            }
        }
        next = graph.next_preorder(node, root).unwrap();
    }
    all
}

/// The nearest hit over `triangles`: (distance, node, triangle), ties to the lowest
/// node, then triangle.
pub fn brute_force(
    triangles: &[(NodeIndex, u32, [Vec3; 3])],
    ray: &Ray,
) -> Option<(f32, NodeIndex, u32)> {
    triangles
        .iter()
        .filter_map(|(node, k, corners)| Some((ray_triangle(ray, corners)?.0, *node, *k)))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)))
}

/// Pick's hit agrees with brute force: the same distance (exactly, when both are on
/// skinned meshes, whose triangles both pose with the same arithmetic; to 1e-5
/// relative on plain meshes, which Pick tests in their local frames) and the same
/// triangle, or one brute force hits at the same distance (a ray through a shared
/// edge). Returns whether it hit.
pub fn agrees(
    graph: &Graph,
    triangles: &[(NodeIndex, u32, [Vec3; 3])],
    ray: &Ray,
    hit: Option<PickHit>,
) -> bool {
    let want = brute_force(triangles, ray);
    let (hit, (t, node, triangle)) = match (hit, want) {
        (None, None) => return false,
        (Some(hit), Some(want)) => (hit, want),
        (hit, want) => panic!("{ray:?}: Pick {hit:?}, brute force {want:?}"),
    };
    let skinned = |n: NodeIndex| graph.get_at::<SkinnedMesh>(n).is_some();
    let tolerance = if skinned(node) && skinned(hit.node) {
        0.0
    } else {
        1e-5 * (1.0 + t.abs())
    };
    assert!(
        (hit.distance - t).abs() <= tolerance,
        "{ray:?}: Pick at {} on {:?} triangle {:?}, brute force at {t} on {node:?} triangle {triangle}",
        hit.distance,
        hit.node,
        hit.triangle
    );
    let picked = hit.triangle.expect("a mesh hit names its triangle");
    let same = (hit.node, picked) == (node, triangle)
        || triangles.iter().any(|(n, k, corners)| {
            (*n, *k) == (hit.node, picked)
                && ray_triangle(ray, corners).is_some_and(|(s, _, _)| (s - t).abs() <= tolerance)
        });
    assert!(
        same,
        "{ray:?}: Pick hit triangle {picked} of {:?}, brute force triangle {triangle} of {node:?}, both at {t}",
        hit.node
    );
    let on = triangles
        .iter()
        .find(|(n, k, _)| (*n, *k) == (hit.node, picked));
    assert!(on.is_some(), "Pick names a triangle that does not exist");
    true
}
