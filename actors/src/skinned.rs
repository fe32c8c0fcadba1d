//! Skinned meshes posed by their joints: their world boxes, computed after a walk (a
//! joint may come after its mesh), and the joint matrices that pose their vertices.

use crate::world::world_above;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, Invariant, NodeIndex};
use scenewalk_nodes::{SkinnedMesh, Transform};

/// The world box of the skinned mesh in slot `node` ([`SkinnedMesh::conservative_bounds`]
/// posed by its joints): `world_at` gives a joint's world matrix where the run computed
/// it, else the locals on its path are multiplied. Empty when the node is no skinned
/// mesh or a joint is gone. `matrices` is scratch.
pub(crate) fn skinned_box(
    graph: &Graph,
    node: NodeIndex,
    world_at: impl FnMut(NodeIndex) -> Option<Affine3A>,
    matrices: &mut Vec<Affine3A>,
) -> Aabb {
    let Some(mesh) = graph.get_at::<SkinnedMesh>(node) else {
        return Aabb::EMPTY;
    };
    match joint_matrices(graph, mesh, world_at, matrices) {
        true => mesh
            .conservative_bounds(matrices)
            .invariant("a matrix per joint"),
        false => Aabb::EMPTY,
    }
}

/// `mesh`'s joint matrices ([`Skin::joint_matrices`](scenewalk_nodes::Skin::joint_matrices))
/// into `matrices`: `world_at` gives a joint's world matrix where the run computed it,
/// else the locals on its path are multiplied. False when a joint is gone.
pub(crate) fn joint_matrices(
    graph: &Graph,
    mesh: &SkinnedMesh,
    mut world_at: impl FnMut(NodeIndex) -> Option<Affine3A>,
    matrices: &mut Vec<Affine3A>,
) -> bool {
    let world_of = |joint| {
        if !graph.contains(joint) {
            return None;
        }
        let at = joint.index();
        world_at(at).or_else(|| {
            let local = graph.get_at::<Transform>(at).map(Transform::local);
            Some(world_above(graph, at) * local.copied().unwrap_or(Affine3A::IDENTITY))
        })
    };
    mesh.skin().joint_matrices(world_of, matrices).is_ok()
}

/// The box of `node` in `skins` (sorted by node), if it is listed.
#[inline]
pub(crate) fn find(skins: &[(NodeIndex, Aabb)], node: NodeIndex) -> Option<Aabb> {
    let i = skins.binary_search_by_key(&node, |s| s.0).ok()?;
    skins.get(i).map(|s| s.1)
}
