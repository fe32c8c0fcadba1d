//! The check of skinned meshes' boxes: the update pass boxes a [`SkinnedMesh`] from
//! its joints (the conservative union of its per-joint boxes, see
//! [`Bounds`](scenewalk_actors::Bounds)); the tour checks that box against the exact
//! box of every skinned vertex.

use scenewalk_actors::{BoundsTable, WorldTable};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::SkinnedMesh;

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

/// The update's box of the skinned mesh `node` and its exact box (every vertex
/// skinned with the joints' world matrices of the same update).
///
/// Errors: `node` is no skinned mesh the update reached, or a joint has no world
/// transform.
pub fn update_and_exact_box(
    graph: &Graph,
    node: NodeId,
    world: &WorldTable,
    bounds: &BoundsTable,
) -> Result<(Aabb, Aabb), String> {
    let mesh = graph
        .get::<SkinnedMesh>(node)
        .map_err(|e| format!("{node}: {e}"))?;
    let posed = bounds
        .skinned_at(node.index())
        .ok_or_else(|| format!("the update did not box the skinned mesh {node}"))?;
    let mut matrices = Vec::new();
    mesh.skin()
        .joint_matrices(|j| world.world(graph, j).ok(), &mut matrices)
        .map_err(|joint| {
            format!("joint {joint} of the skinned mesh {node} has no world transform")
        })?;
    let exact = mesh
        .exact_bounds(&matrices)
        .ok_or_else(|| format!("the skinned mesh {node} uses joints its skin does not have"))?;
    Ok((posed, exact))
}
