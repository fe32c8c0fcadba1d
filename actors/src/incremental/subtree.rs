//! The subtree pass of an incremental update (the update's chain from a changed node),
//! and one node's box from its children's.

use crate::skinned::find;
use crate::{Bounds, PerNode, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{
    Aabb, Action, ActiveList, Events, Flow, Graph, NodeIndex, NodeType, Ordered, OrderedActor,
    ResultsError, RunContext, StateCell, TraversalError, Typed, Visit,
};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Geometry, SkinnedMesh, Transform};

/// The node types an incremental update reads (with the types extending them), and
/// the graph's columns of exactly `Transform` and `Geometry` during an update.
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
    /// The kept columns, read by payload position.
    pub(super) transform: &'g [Transform],
    pub(super) geometry: &'g [Geometry],
}

impl<'g> Kinds<'g> {
    /// `types` kept for `graph`; `skins` sorted by slot.
    pub(super) fn new(graph: &'g Graph, types: &'g Types, skins: &'g [(NodeIndex, Aabb)]) -> Self {
        Self {
            types,
            skins,
            transform: types.transforms.kept(graph),
            geometry: types.geometries.kept(graph),
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
        self.types
            .transforms
            .get_at(graph, node)
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
        if !self.types.geometries.contains(ty) || self.types.skinned.contains(ty) {
            return None;
        }
        self.types.geometries.get_at(graph, node)
    }
}

/// The update's own chain over one changed subtree: [`Bounds`], carrying its
/// [`WorldTransforms`], continuing the latest run from the parent's world state, so the
/// tables keep every other value (a patch resumed them). The top's box is left to the
/// patch, which lifts it to the ancestors.
#[derive(Debug, Default)]
pub(super) struct Patch {
    bounds: Bounds,
    /// The subtree's top (none before the first).
    top: Option<NodeIndex>,
}

impl OrderedActor for Patch {
    type State = u32;
    const EVENTS: Events = Events::EnterLeave;

    /// The parent's world state; refused when the latest run did not reach the parent
    /// (the patch then takes a full run).
    fn root_state(&mut self, run: &RunContext<'_>) -> Result<u32, TraversalError> {
        self.top = Some(run.root);
        let parent = run.graph.parent_at(run.root);
        let missing = ResultsError::Missing {
            reader: "IncrementalUpdate",
            results: "the world state above a changed subtree",
        };
        (parent.and_then(|p| self.bounds.world.world.get_at(p))).ok_or(missing.into())
    }

    #[inline]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        active: &mut ActiveList<'_>,
    ) -> Flow {
        self.bounds.enter(state, visit, active)
    }

    #[inline]
    fn leave(&mut self, state: &u32, visit: &Visit<'_>) {
        if Some(visit.node()) != self.top {
            self.bounds.leave(state, visit);
        }
    }
}

/// `Action<DepthFirst>` running [`Patch`] from the top of each changed subtree; it holds
/// the update's `Bounds` during a patch.
#[derive(Debug)]
pub(super) struct Patcher(Action<DepthFirst, (Ordered<Patch>,)>);

impl Default for Patcher {
    #[allow(
        clippy::unreachable,
        reason = "an ordered visit actor runs under DepthFirst (tested)"
    )]
    fn default() -> Self {
        let chain = (Ordered::new(Patch::default()),);
        Self(Action::new(DepthFirst::new(), chain).unwrap_or_else(|err| unreachable!("{err}")))
    }
}

impl Patcher {
    /// The `Bounds` it patches.
    pub(super) fn bounds(&self) -> &Bounds {
        &self.0.actors().0.get().bounds
    }

    /// The `Bounds` it patches, writable (between runs; the next run checks the chain
    /// again, so not between every two).
    pub(super) fn bounds_mut(&mut self) -> Option<&mut Bounds> {
        Some(&mut self.0.actor_mut::<Patch>()?.bounds)
    }

    /// Recomputes the world matrices, states and boxes of `top`'s subtree from its
    /// parent's world state; lists the skinned meshes met in the bounds' `skins`. Returns
    /// the nodes entered and `top`'s new box; `None` for a non-finite matrix or a parent
    /// the latest run did not reach.
    pub(super) fn run(&mut self, graph: &Graph, top: NodeIndex) -> Option<(u64, Aabb)> {
        let entered = self.0.run(graph, graph.id_at(top)?).ok()?.entered;
        let bounds = self.bounds();
        if !bounds.transforms().non_finite().is_empty() {
            return None;
        }
        Some((entered, bounds.boxes.get_at(top)?))
    }
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
