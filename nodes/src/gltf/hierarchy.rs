//! The node hierarchy (disjoint strict trees), checked in linear time without recursion.

use super::GltfError;
use super::error::get;
use crate::forest;
use gltf::json;

/// Each node's parent, after checking every child index, that no node has two parents
/// and that no node is its own ancestor.
pub(crate) fn parents(nodes: &[json::Node]) -> Result<Vec<Option<usize>>, GltfError> {
    let count = nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; count];
    for (p, node) in nodes.iter().enumerate() {
        for (k, child) in node.children.iter().flatten().enumerate() {
            let c = child.value();
            if let Some(first) = *get(&parent, c, "node", || format!("nodes[{p}].children[{k}]"))? {
                return Err(GltfError::TwoParents {
                    node: c,
                    first,
                    second: p,
                });
            }
            if let Some(slot) = parent.get_mut(c) {
                *slot = Some(p);
            }
        }
    }
    // With one parent per node, the nodes no root reaches lie on a cycle or below one,
    // and `count` steps up from such a node end on the cycle.
    let roots: Vec<usize> = (0..count)
        .filter(|&n| parent.get(n) == Some(&None))
        .collect();
    let up = |n: usize| parent.get(n).copied().flatten();
    match forest::on_cycle(count, &preorder(nodes, &roots), up) {
        Some(node) => Err(GltfError::Cycle { node }),
        None => Ok(parent),
    }
}

/// The roots of scene `s` (index `scene`), checked: in range, parentless, listed once.
pub(crate) fn scene_roots(
    s: &json::Scene,
    scene: usize,
    parent: &[Option<usize>],
) -> Result<Vec<usize>, GltfError> {
    let mut listed = vec![false; parent.len()];
    let mut roots = Vec::with_capacity(s.nodes.len());
    for (k, index) in s.nodes.iter().enumerate() {
        let n = index.value();
        if let Some(p) = *get(parent, n, "node", || format!("scenes[{scene}].nodes[{k}]"))? {
            return Err(GltfError::SceneRootHasParent {
                scene,
                node: n,
                parent: p,
            });
        }
        if listed
            .get_mut(n)
            .is_some_and(|seen| std::mem::replace(seen, true))
        {
            return Err(GltfError::DuplicateRoot { scene, node: n });
        }
        roots.push(n);
    }
    Ok(roots)
}

/// The nodes under `roots` (checked by [`parents`]) in depth-first pre-order, each with
/// its depth (0 for a root).
pub(crate) fn preorder(nodes: &[json::Node], roots: &[usize]) -> Vec<(usize, u32)> {
    let children = |n: usize| nodes.get(n).and_then(|node| node.children.as_ref());
    forest::preorder(roots, |n| {
        children(n).into_iter().flatten().map(|c| c.value())
    })
}
