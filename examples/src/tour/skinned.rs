//! Skinned meshes' world boxes from their joints.
//!
//! The update pass boxes a [`SkinnedMesh`] as its bind-pose mesh placed by its own
//! node, but glTF places a skinned mesh by its joints (the node's transform plays no
//! part), so that box can be far from where the mesh is drawn. Until the update pass
//! boxes skinned meshes itself, the tour boxes them here, from the joints' world
//! transforms the update computed: this module is the one place to replace by that
//! library path.

use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::SkinnedMesh;

/// How a skinned mesh is boxed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boxing {
    /// Every vertex skinned ([`SkinnedMesh::exact_bounds`]).
    Exact,
    /// One box per joint ([`SkinnedMesh::conservative_bounds`]): what a frame can
    /// afford, never smaller than the exact box.
    Conservative,
}

/// The skinned meshes of `root`'s subtree, in pre-order.
pub fn skinned_meshes(graph: &Graph, root: NodeId) -> Vec<NodeId> {
    let mut found = Vec::new();
    let mut next = Some(root);
    while let Some(node) = next {
        if graph.get::<SkinnedMesh>(node).is_ok() {
            found.push(node);
        }
        next = graph.next_preorder(node, root).ok().flatten();
    }
    found
}

/// The world box of the skinned mesh `node`, posed by its joints' world matrices
/// (`world_of`); `matrices` is scratch space.
///
/// Errors: `node` is no skinned mesh, or a joint has no world transform.
pub fn skinned_box(
    graph: &Graph,
    node: NodeId,
    world_of: impl FnMut(NodeId) -> Option<Affine3A>,
    boxing: Boxing,
    matrices: &mut Vec<Affine3A>,
) -> Result<Aabb, String> {
    let mesh = graph
        .get::<SkinnedMesh>(node)
        .map_err(|e| format!("{node}: {e}"))?;
    mesh.skin()
        .joint_matrices(world_of, matrices)
        .map_err(|joint| {
            format!("joint {joint} of the skinned mesh {node} has no world transform")
        })?;
    let boxed = match boxing {
        Boxing::Exact => mesh.exact_bounds(matrices),
        Boxing::Conservative => mesh.conservative_bounds(matrices),
    };
    boxed.ok_or_else(|| format!("the skinned mesh {node} uses joints its skin does not have"))
}
