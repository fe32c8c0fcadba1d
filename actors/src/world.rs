//! World transforms: the matrix stack as ordered state.

use crate::PerNode;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{
    ActiveList, Flow, Graph, NodeId, NodeIndex, OrderedActor, RunContext, StateCell, TypeSet, Visit,
};
use scenewalk_nodes::Transform;

/// The local transform of a node if it is a [`Transform`] (or extends one).
#[inline]
pub fn local_transform<'g>(visit: &Visit<'g>, transforms: &TypeSet) -> Option<&'g Affine3A> {
    if transforms.contains(visit.node_type()) {
        visit.get::<Transform>().map(Transform::local)
    } else {
        None
    }
}

/// Composes the node's local transform onto the state, copying it only at transforms.
#[inline(always)]
pub(crate) fn apply_local(
    state: &mut StateCell<'_, Affine3A>,
    visit: &Visit<'_>,
    transforms: &TypeSet,
) {
    if let Some(local) = local_transform(visit, transforms) {
        let world = *state.get() * *local;
        state.set(world);
    }
}

/// The product of the local transforms strictly above `node` (naive walk to the root):
/// the state above a traversal root that is not a root of the graph.
pub(crate) fn world_above(graph: &Graph, node: NodeIndex) -> Affine3A {
    let mut world = Affine3A::IDENTITY;
    let mut up = graph.parent_at(node);
    while let Some(p) = up {
        if let Some(t) = graph.get_at::<Transform>(p) {
            world = *t.local() * world;
        }
        up = graph.parent_at(p);
    }
    world
}

/// Computes every reached node's world transform: the product of the local transforms
/// on its path from the root (an ordered-state actor: the matrix stack).
///
/// The state is the world matrix; a node that is a [`Transform`] replaces it with
/// `parent world × local` (one state copy), every other node shares its parent's.
/// Each reached node's world matrix is kept for reading after the run. A traversal
/// root below the graph's root starts from the product of its ancestors.
#[derive(Clone, Debug)]
pub struct WorldTransforms {
    transforms: TypeSet,
    world: PerNode<Affine3A>,
}

impl Default for WorldTransforms {
    fn default() -> Self {
        Self::new()
    }
}

impl WorldTransforms {
    /// An actor with no results yet.
    pub fn new() -> Self {
        Self {
            transforms: TypeSet::of::<Transform>(),
            world: PerNode::new(Affine3A::IDENTITY),
        }
    }

    /// The world transform of `node` from the latest run (`None` if the node is stale
    /// or was not reached).
    pub fn world(&self, graph: &Graph, node: NodeId) -> Option<Affine3A> {
        self.world.get(graph, node)
    }

    /// The world transform of the node in slot `node` from the latest run.
    pub fn world_at(&self, node: NodeIndex) -> Option<Affine3A> {
        self.world.get_at(node)
    }
}

impl OrderedActor for WorldTransforms {
    type State = Affine3A;

    fn root_state(&mut self, run: &RunContext<'_>) -> Affine3A {
        self.transforms.resolve(run.graph.types());
        self.world.begin(run.graph);
        world_above(run.graph, run.root)
    }

    #[inline]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, Affine3A>,
        visit: &Visit<'_>,
        _active: &mut ActiveList<'_>,
    ) -> Flow {
        apply_local(state, visit, &self.transforms);
        self.world.set(visit.node(), *state.get());
        Flow::Continue
    }
}
