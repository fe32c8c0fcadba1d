//! Skinning by brute force, in f64, to check the library's skinned boxes against.

use scenewalk_core::glam::{DAffine3, DVec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::{SkinnedMesh, Transform};

/// The world matrix of `id`: the product of the Transform locals from its root down,
/// in f64.
pub fn world(graph: &Graph, id: NodeId) -> DAffine3 {
    let mut m = DAffine3::IDENTITY;
    let mut at = Some(id);
    while let Some(node) = at {
        if let Ok(t) = graph.get::<Transform>(node) {
            m = t.local().as_daffine3() * m;
        }
        at = graph.parent(node).unwrap();
    }
    m
}

/// Brute force in f64: every vertex skinned, Σ wᵢ · world(jointᵢ) · inverse_bindᵢ · v.
pub fn brute_force(graph: &Graph, skinned: &SkinnedMesh) -> (DVec3, DVec3) {
    let skin = skinned.skin();
    let matrices: Vec<DAffine3> = (skin.joints().iter().zip(skin.inverse_binds()))
        .map(|(&j, ib)| world(graph, j) * ib.as_daffine3())
        .collect();
    let (mut min, mut max) = (DVec3::INFINITY, DVec3::NEG_INFINITY);
    let vertices = skinned.mesh().positions().iter().zip(skinned.joints());
    for ((p, js), ws) in vertices.zip(skinned.weights()) {
        let sum: f64 = ws.iter().map(|&w| f64::from(w)).sum();
        let v: DVec3 = (js.iter().zip(ws))
            .map(|(&j, &w)| {
                f64::from(w) / sum * matrices[j as usize].transform_point3(p.as_dvec3())
            })
            .sum();
        (min, max) = (min.min(v), max.max(v));
    }
    (min, max)
}

/// The exact box equals brute force (to f32 rounding of the magnitudes), and the
/// conservative box contains both, with no tolerance.
pub fn check_bounds(graph: &Graph, skinned: &SkinnedMesh) {
    let mut matrices = Vec::new();
    (skinned.skin())
        .joint_matrices(|j| Some(world(graph, j).as_affine3a()), &mut matrices)
        .unwrap();
    let exact = skinned.exact_bounds(&matrices).unwrap();
    let conservative = skinned.conservative_bounds(&matrices).unwrap();
    let (min, max) = brute_force(graph, skinned);
    let scale = 1.0 + min.abs().max(max.abs()).max_element();
    let tolerance = 1e-5 * scale;
    assert!(
        exact.min.as_dvec3().abs_diff_eq(min, tolerance)
            && exact.max.as_dvec3().abs_diff_eq(max, tolerance),
        "exact {exact:?} vs brute force {min} {max}"
    );
    let holds = |b: &Aabb, lo: DVec3, hi: DVec3| {
        b.min.as_dvec3().cmple(lo).all() && b.max.as_dvec3().cmpge(hi).all()
    };
    assert!(
        holds(&conservative, exact.min.as_dvec3(), exact.max.as_dvec3()),
        "{conservative:?} does not hold {exact:?}"
    );
    assert!(
        holds(&conservative, min, max),
        "{conservative:?} does not hold brute force {min} {max}"
    );
}
