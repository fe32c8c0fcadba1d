//! The subtree pass of an incremental update: the update action's work in one tight
//! loop, and the box of one ancestor from its children's.

use crate::skinned::find;
use crate::{PerNode, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, NodeCore, NodeIndex, NodeType, Payloads, Typed};
use scenewalk_nodes::{Geometry, SkinnedMesh, Transform};

/// One node of a subtree pass: its state, its next child to enter and its box so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    node: NodeIndex,
    state: u32,
    next: Option<NodeIndex>,
    acc: Aabb,
}

/// The node types an incremental update reads (with the types extending them).
#[derive(Clone, Debug)]
pub(super) struct Types {
    transforms: Typed<Transform>,
    geometries: Typed<Geometry>,
    skinned: Typed<SkinnedMesh>,
}

impl Default for Types {
    fn default() -> Self {
        Self {
            transforms: Typed::new(),
            geometries: Typed::new(),
            skinned: Typed::new(),
        }
    }
}

impl Types {
    /// Resolves the sets for `graph`'s types.
    pub(super) fn resolve(&mut self, graph: &Graph) {
        self.transforms.resolve(graph.types());
        self.geometries.resolve(graph.types());
        self.skinned.resolve(graph.types());
    }

    /// Whether `ty` is a skinned mesh type.
    pub(super) fn skinned(&self, ty: NodeType) -> bool {
        self.skinned.contains(ty)
    }
}

/// The node types the subtree pass reads, resolved once per update, and the skinned
/// meshes' own boxes as the patch has them.
pub(super) struct Kinds<'g> {
    transforms: &'g Typed<Transform>,
    geometries: &'g Typed<Geometry>,
    skinned: &'g Typed<SkinnedMesh>,
    skins: &'g [(NodeIndex, Aabb)],
    /// Exact-type columns: two loads where `get_at` also looks the column up.
    transform: Option<Payloads<'g, Transform>>,
    geometry: Option<Payloads<'g, Geometry>>,
}

impl<'g> Kinds<'g> {
    /// The kinds of `graph`'s nodes by `types` (resolved), with the skinned meshes'
    /// own boxes `skins` (sorted by slot).
    pub(super) fn new(graph: &'g Graph, types: &'g Types, skins: &'g [(NodeIndex, Aabb)]) -> Self {
        Self {
            transforms: &types.transforms,
            geometries: &types.geometries,
            skinned: &types.skinned,
            skins,
            transform: graph.payloads(),
            geometry: graph.payloads(),
        }
    }

    #[inline(always)]
    pub(super) fn local(
        &self,
        graph: &'g Graph,
        node: NodeIndex,
        ty: NodeType,
    ) -> Option<&'g Affine3A> {
        if !self.transforms.contains(ty) {
            return None;
        }
        match self.transform.and_then(|p| p.get(node)) {
            Some(t) => Some(t.local()),
            None => extended::<Transform>(graph, node).map(Transform::local),
        }
    }

    /// The node's geometry, placed by its world matrix; `None` for a skinned mesh,
    /// which its joints place (see [`IncrementalUpdate`](crate::IncrementalUpdate)).
    #[inline(always)]
    pub(super) fn geometry(
        &self,
        graph: &'g Graph,
        node: NodeIndex,
        ty: NodeType,
    ) -> Option<&'g Geometry> {
        if !self.geometries.contains(ty) {
            return None;
        }
        match self.geometry.and_then(|p| p.get(node)) {
            Some(g) => Some(g),
            None if self.skinned.contains(ty) => None,
            None => extended::<Geometry>(graph, node),
        }
    }
}

/// A payload of a type extending `T` (rare): kept out of line so the exact-type
/// lookups inline into the subtree pass.
#[cold]
#[inline(never)]
fn extended<T: NodeCore>(graph: &Graph, node: NodeIndex) -> Option<&T> {
    graph.get_at::<T>(node)
}

/// Recomputes the world matrices and boxes of `top`'s subtree below a parent whose
/// state is `above`: the update action's work (`WorldTransforms` and `Bounds` under
/// `DepthFirst`) in one tight loop, without an action run's setup per subtree.
/// Lists the skinned meshes met in `skins` (boxed after the walks). Returns the nodes
/// entered and `top`'s new box; `None` for a non-finite matrix.
#[allow(clippy::too_many_arguments, reason = "the pass's tables, side by side")]
pub(super) fn rewalk(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    frames: &mut Vec<Frame>,
    skins: &mut Vec<NodeIndex>,
    top: NodeIndex,
    above: u32,
) -> Option<(u64, Aabb)> {
    walk(
        graph,
        frames,
        top,
        above,
        |node, parent| enter(graph, kinds, world, skins, node, parent),
        |node, acc| boxes.set(node, acc),
    )
}

/// As [`rewalk`] in a patch where only payloads changed since the last full run,
/// which reached every node of the subtree: no node's state (matrix index) changes,
/// only the matrices of transform nodes and the boxes, so nothing but those is
/// written and no stamp is read. The state above `top` is its own (or, if it is a
/// transform, the one its matrix was pushed below). Returns the nodes entered,
/// and `top`'s box before and after; `None` when a full run is needed.
pub(super) fn rewalk_payloads(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    frames: &mut Vec<Frame>,
    top: NodeIndex,
) -> Option<(u64, Aabb, Aabb)> {
    let own = world.world.value_at(top)?;
    let ty = graph.type_at(top)?;
    let above = if kinds.local(graph, top, ty).is_some() {
        world.world.value_at(graph.parent_at(top)?)?
    } else {
        own
    };
    let before = boxes.value_at(top)?;
    let (entered, after) = walk(
        graph,
        frames,
        top,
        above,
        |node, parent| enter_payloads(graph, kinds, world, node, parent),
        |node, acc| boxes.overwrite(node, acc),
    )?;
    Some((entered, before, after))
}

/// The walk of a subtree pass: `enter` gives a node's frame below its parent's
/// state, `store` takes a node's finished box. Returns the nodes entered and
/// `top`'s box.
#[inline(always)]
fn walk(
    graph: &Graph,
    frames: &mut Vec<Frame>,
    top: NodeIndex,
    above: u32,
    mut enter: impl FnMut(NodeIndex, u32) -> Option<Frame>,
    mut store: impl FnMut(NodeIndex, Aabb),
) -> Option<(u64, Aabb)> {
    frames.clear();
    frames.push(enter(top, above)?);
    let mut entered = 1;
    while let Some(frame) = frames.last_mut() {
        if let Some(child) = frame.next {
            frame.next = graph.next_sibling_at(child);
            let state = frame.state;
            frames.push(enter(child, state)?);
            entered += 1;
            continue;
        }
        let done = *frame;
        frames.pop();
        store(done.node, done.acc);
        match frames.last_mut() {
            // In child order, as `Bounds` merges on leave.
            Some(parent) => parent.acc = parent.acc.union(&done.acc),
            None => return Some((entered, done.acc)),
        }
    }
    None
}

/// Enters one node of a payload-only subtree pass: a transform node overwrites the
/// matrix it owns; every node keeps its state.
#[inline]
fn enter_payloads(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    node: NodeIndex,
    parent: u32,
) -> Option<Frame> {
    let hot = graph.type_at(node)?;
    let mut state = parent;
    if let Some(local) = kinds.local(graph, node, hot) {
        state = world.world.value_at(node)?;
        world.matrices.write(state, parent, local)?;
    }
    let acc = match kinds.geometry(graph, node, hot) {
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

/// Enters one node of a subtree pass: its world state and its own box (a skinned
/// mesh is listed in `skins` instead).
#[inline]
fn enter(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &mut WorldTransforms,
    skins: &mut Vec<NodeIndex>,
    node: NodeIndex,
    parent: u32,
) -> Option<Frame> {
    let ty = graph.type_at(node)?;
    let mut state = parent;
    if let Some(local) = kinds.local(graph, node, ty) {
        let place = world.matrices.place(graph, node, ty)?;
        state = world.matrices.write(place, parent, local)?;
    }
    world.world.set(node, state);
    let acc = match kinds.geometry(graph, node, ty) {
        Some(g) => g.local_bounds().transformed(&world.matrices.get(state)),
        None => {
            if kinds.skinned.contains(ty) {
                skins.push(node);
            }
            Aabb::EMPTY
        }
    };
    Some(Frame {
        node,
        state,
        next: graph.first_child_at(node),
        acc,
    })
}

/// Recomputes one box from the node's geometry (a skinned mesh's own box from
/// `kinds.skins`) and its children's boxes; returns whether it changed. With `PAYLOADS` (a payload-only patch) values are read
/// without their stamps and the box is overwritten in place: every node inside the
/// last full run's spans has values from it.
pub(super) fn rebox<const PAYLOADS: bool>(
    graph: &Graph,
    kinds: &Kinds<'_>,
    world: &WorldTransforms,
    boxes: &mut PerNode<Aabb>,
    node: NodeIndex,
) -> bool {
    fn read<T: Copy, const PAYLOADS: bool>(table: &PerNode<T>, node: NodeIndex) -> Option<T> {
        if PAYLOADS {
            table.value_at(node)
        } else {
            table.get_at(node)
        }
    }
    let mut own = Aabb::EMPTY;
    // The world matrix is three loads from scattered memory: only for geometry.
    if let Some(ty) = graph.type_at(node) {
        if let Some(geometry) = kinds.geometry(graph, node, ty)
            && let Some(state) = read::<_, PAYLOADS>(&world.world, node)
        {
            own = geometry
                .local_bounds()
                .transformed(&world.matrices.get(state));
        } else if kinds.skinned.contains(ty) {
            own = find(kinds.skins, node).unwrap_or(Aabb::EMPTY);
        }
    }
    let mut child = graph.first_child_at(node);
    while let Some(c) = child {
        if let Some(b) = read::<_, PAYLOADS>(boxes, c) {
            own = own.union(&b);
        }
        child = graph.next_sibling_at(c);
    }
    let before = read::<_, PAYLOADS>(boxes, node);
    if PAYLOADS {
        boxes.overwrite(node, own);
    } else {
        boxes.set(node, own);
    }
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
