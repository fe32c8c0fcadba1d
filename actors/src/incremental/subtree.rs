//! The subtree pass of an incremental update, and one node's box from its children's.

use crate::skinned::find;
use crate::{PerNode, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, NodeCore, NodeIndex, NodeType, Payloads, Typed};
use scenewalk_nodes::{Geometry, SkinnedMesh, Transform};

/// One node of a subtree pass: its state, its next child to enter and its box so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entered {
    node: NodeIndex,
    state: u32,
    next: Option<NodeIndex>,
    acc: Aabb,
}

/// The node types an incremental update reads (with the types extending them).
#[derive(Clone, Debug, Default)]
pub(super) struct Types {
    pub(super) transforms: Typed<Transform>,
    pub(super) geometries: Typed<Geometry>,
    pub(super) skinned: Typed<SkinnedMesh>,
}

/// The node types the subtree pass reads, and the skinned meshes' own boxes.
pub(super) struct Kinds<'g> {
    types: &'g Types,
    skins: &'g [(NodeIndex, Aabb)],
    /// Exact-type columns: two loads where `get_at` also looks the column up.
    pub(super) transform: Option<Payloads<'g, Transform>>,
    pub(super) geometry: Option<Payloads<'g, Geometry>>,
}

impl<'g> Kinds<'g> {
    /// `types` resolved for `graph`; `skins` sorted by slot.
    pub(super) fn new(graph: &'g Graph, types: &'g Types, skins: &'g [(NodeIndex, Aabb)]) -> Self {
        Self {
            types,
            skins,
            transform: graph.payloads(),
            geometry: graph.payloads(),
        }
    }

    /// The node's local transform, if it is a transform.
    #[inline(always)]
    pub(super) fn local(
        &self,
        graph: &'g Graph,
        node: NodeIndex,
        ty: NodeType,
    ) -> Option<&'g Affine3A> {
        if !self.types.transforms.contains(ty) {
            return None;
        }
        let exact = self.transform.and_then(|p| p.get(node));
        exact
            .or_else(|| extended(graph, node))
            .map(Transform::local)
    }

    /// The node's geometry; `None` for a skinned mesh, which its joints place.
    #[inline(always)]
    pub(super) fn geometry(
        &self,
        graph: &'g Graph,
        node: NodeIndex,
        ty: NodeType,
    ) -> Option<&'g Geometry> {
        if !self.types.geometries.contains(ty) {
            return None;
        }
        match self.geometry.and_then(|p| p.get(node)) {
            Some(g) => Some(g),
            None if self.types.skinned.contains(ty) => None,
            None => extended(graph, node),
        }
    }
}

/// A payload of a type extending `T` (rare), out of line so the exact-type lookups
/// inline.
#[cold]
#[inline(never)]
fn extended<T: NodeCore>(graph: &Graph, node: NodeIndex) -> Option<&T> {
    graph.get_at::<T>(node)
}

/// Recomputes the world matrices and boxes of `top`'s subtree below state `above`: the
/// update action's work in one tight loop. Returns the nodes entered and `top`'s new
/// box; `None` for a non-finite matrix. Structural patches (`PAYLOADS` false) write
/// every node's state and list the skinned meshes met in `skins`; payload-only ones
/// (states unchanged since the full run) write only matrices and boxes.
#[allow(clippy::too_many_arguments, reason = "the pass's tables, side by side")]
#[inline(never)] // one call per subtree; kept apart for profiles
pub(super) fn rewalk<const PAYLOADS: bool>(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    stack: &mut Vec<Entered>,
    skins: &mut Vec<NodeIndex>,
    top: NodeIndex,
    above: u32,
) -> Option<(u64, Aabb)> {
    stack.clear();
    stack.push(enter::<PAYLOADS>(graph, kinds, world, skins, top, above)?);
    let mut entered = 1;
    while let Some(open) = stack.last_mut() {
        if let Some(child) = open.next {
            open.next = graph.next_sibling_at(child);
            let state = open.state;
            stack.push(enter::<PAYLOADS>(graph, kinds, world, skins, child, state)?);
            entered += 1;
            continue;
        }
        let done = *open;
        stack.pop();
        if PAYLOADS {
            boxes.overwrite(done.node, done.acc);
        } else {
            boxes.set(done.node, done.acc);
        }
        match stack.last_mut() {
            // In child order, as `Bounds` merges on leave.
            Some(parent) => parent.acc = parent.acc.union(&done.acc),
            None => return Some((entered, done.acc)),
        }
    }
    None
}

/// Enters one node of [`rewalk`]: its world state and its own box.
#[inline]
fn enter<const PAYLOADS: bool>(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    skins: &mut Vec<NodeIndex>,
    node: NodeIndex,
    parent: u32,
) -> Option<Entered> {
    let ty = graph.type_at(node)?;
    let mut state = parent;
    if let Some(local) = kinds.local(graph, node, ty) {
        let place = if PAYLOADS {
            world.world.value_at(node)?
        } else {
            world.matrices.place(graph, node, ty)?
        };
        state = world.matrices.write(place, parent, local)?;
    }
    if !PAYLOADS {
        world.world.set(node, state);
    }
    let acc = match kinds.geometry(graph, node, ty) {
        Some(g) => g.local_bounds().transformed(&world.matrices.get(state)),
        None => {
            if !PAYLOADS && kinds.types.skinned.contains(ty) {
                skins.push(node);
            }
            Aabb::EMPTY
        }
    };
    Some(Entered {
        node,
        state,
        next: graph.first_child_at(node),
        acc,
    })
}

/// Recomputes one box in place from the node's own box (a skinned mesh's from
/// `kinds.skins`) and its children's, read without stamps (inside the root's subtree
/// every node has values from the last full run or a patch).
pub(super) fn rebox(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    node: NodeIndex,
) {
    let mut own = Aabb::EMPTY;
    // The world matrix is three loads from scattered memory: only for geometry.
    if let Some(ty) = graph.type_at(node) {
        if let Some(geometry) = kinds.geometry(graph, node, ty)
            && let Some(state) = world.world.value_at(node)
        {
            own = geometry
                .local_bounds()
                .transformed(&world.matrices.get(state));
        } else if kinds.types.skinned.contains(ty) {
            own = find(kinds.skins, node).unwrap_or(Aabb::EMPTY);
        }
    }
    let mut child = graph.first_child_at(node);
    while let Some(c) = child {
        if let Some(b) = boxes.value_at(c) {
            own = own.union(&b);
        }
        child = graph.next_sibling_at(c);
    }
    boxes.overwrite(node, own);
}

/// Forgets the results of a subtree that left the root's subtree.
pub(super) fn forget_subtree(
    graph: &Graph,
    world: &mut WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    top: NodeIndex,
) {
    let mut next = Some(top);
    while let Some(node) = next {
        world.world.unset(node);
        boxes.unset(node);
        next = graph.next_preorder_at(node, top);
    }
}
