//! The subtree pass of an incremental update: the update action's work in one tight
//! loop, and the box of one ancestor from its children's.

use crate::{PerNode, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, NodeIndex, NodeType, Payloads, TypeSet};
use scenewalk_nodes::{Geometry, Transform};

/// One node of a subtree pass: its state, its next child to enter and its box so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    node: NodeIndex,
    state: u32,
    next: Option<NodeIndex>,
    acc: Aabb,
}

/// The node types the subtree pass reads, resolved once per update.
pub(super) struct Kinds<'g> {
    pub(super) transforms: &'g TypeSet,
    pub(super) geometries: &'g TypeSet,
    /// Exact-type columns: two loads where `get_at` also looks the column up.
    pub(super) transform: Option<Payloads<'g, Transform>>,
    pub(super) geometry: Option<Payloads<'g, Geometry>>,
}

impl<'g> Kinds<'g> {
    #[inline]
    fn local(&self, graph: &'g Graph, node: NodeIndex, ty: NodeType) -> Option<&'g Affine3A> {
        if !self.transforms.contains(ty) {
            return None;
        }
        self.transform
            .and_then(|p| p.get(node))
            .or_else(|| graph.get_at::<Transform>(node))
            .map(Transform::local)
    }

    #[inline]
    fn geometry(&self, graph: &'g Graph, node: NodeIndex, ty: NodeType) -> Option<&'g Geometry> {
        if !self.geometries.contains(ty) {
            return None;
        }
        self.geometry
            .and_then(|p| p.get(node))
            .or_else(|| graph.get_at::<Geometry>(node))
    }
}

/// Recomputes the world matrices and boxes of `top`'s subtree below a parent whose
/// state is `above`: the update action's work (`WorldTransforms` and `Bounds` under
/// `DepthFirst`) in one tight loop, without an action run's setup per subtree.
/// Returns the nodes entered and `top`'s new box; `None` for a non-finite matrix.
pub(super) fn rewalk(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    frames: &mut Vec<Frame>,
    top: NodeIndex,
    above: u32,
) -> Option<(u64, Aabb)> {
    frames.clear();
    frames.push(enter(graph, kinds, world, top, above)?);
    let mut entered = 1;
    while let Some(frame) = frames.last_mut() {
        if let Some(child) = frame.next {
            frame.next = graph.next_sibling_at(child);
            let state = frame.state;
            frames.push(enter(graph, kinds, world, child, state)?);
            entered += 1;
            continue;
        }
        let done = *frame;
        frames.pop();
        boxes.set(done.node, done.acc);
        match frames.last_mut() {
            // In child order, as `Bounds` merges on leave.
            Some(parent) => parent.acc = parent.acc.union(&done.acc),
            None => return Some((entered, done.acc)),
        }
    }
    None
}

/// Enters one node of a subtree pass: its world state and its own box.
#[inline]
fn enter(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    node: NodeIndex,
    parent: u32,
) -> Option<Frame> {
    let ty = graph.type_at(node)?;
    let mut state = parent;
    if let Some(local) = kinds.local(graph, node, ty) {
        let previous = world.world.get_at(node);
        state = world
            .matrices
            .patch_transform(node, parent, local, previous)?;
    }
    world.world.set(node, state);
    let acc = match kinds.geometry(graph, node, ty) {
        Some(g) => g.local_bounds().transformed(&world.matrices.get(state)),
        None => Aabb::EMPTY,
    };
    Some(Frame {
        node,
        state,
        next: graph.first_child_at(node),
        acc,
    })
}

/// Recomputes one box from the node's geometry and its children's boxes; returns
/// whether it changed.
pub(super) fn rebox(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    node: NodeIndex,
) -> bool {
    let mut own = Aabb::EMPTY;
    // The world matrix is three loads from scattered memory: only for geometry.
    if let Some(ty) = graph.type_at(node)
        && let Some(geometry) = kinds.geometry(graph, node, ty)
        && let Some(world) = world.world_at(node)
    {
        own = geometry.local_bounds().transformed(&world);
    }
    let mut child = graph.first_child_at(node);
    while let Some(c) = child {
        if let Some(b) = boxes.get_at(c) {
            own = own.union(&b);
        }
        child = graph.next_sibling_at(c);
    }
    let before = boxes.get_at(node);
    boxes.set(node, own);
    before != Some(own)
}

/// Forgets the results of a subtree that left the root's subtree, so they read as
/// `None`, as after a full run.
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
