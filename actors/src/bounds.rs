//! World bounding boxes, accumulated on leave.

use crate::PerNode;
use crate::per_node::{FORKS, Spares};
use crate::shared::Published;
use crate::skinned::{find, skinned_box};
use crate::world::WorldTransforms;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{
    Aabb, ActiveList, Events, Flow, Graph, NodeId, NodeIndex, OrderedActor, OrderedState,
    ResultsError, RunContext, Stamp, Stamped, StateCell, TraversalError, Typed, Visit,
};
use scenewalk_nodes::{Geometry, SkinnedMesh};
use std::any::Any;
use std::sync::Arc;

/// The world boxes of a run's subtrees and each skinned mesh's own box posed by its
/// joints, published by [`Bounds`] as [`WorldTable`](crate::WorldTable) is.
#[derive(Clone, Debug, Default)]
pub struct BoundsTable {
    pub(crate) boxes: PerNode<Aabb>,
    /// The skinned meshes reached, sorted by slot, with their own world boxes.
    pub(crate) skins: Vec<(NodeIndex, Aabb)>,
}

impl Stamped for BoundsTable {
    fn stamp(&self) -> Option<Stamp> {
        self.boxes.stamp()
    }
}

impl BoundsTable {
    /// The world box of the subtree of the node in slot `node`, unchecked.
    #[inline]
    pub fn at(&self, node: NodeIndex) -> Option<Aabb> {
        self.boxes.get_at(node)
    }

    /// The world box of `node`'s subtree, checked ([`WorldTable::world`](crate::WorldTable::world)).
    pub fn world_bounds(&self, graph: &Graph, node: NodeId) -> Result<Aabb, ResultsError> {
        self.boxes
            .read("BoundsTable::world_bounds", "BoundsTable", graph, node)
    }

    /// The own world box (without its children) of the skinned mesh in slot `node`,
    /// unchecked; `None` for a node that is no skinned mesh the run reached.
    #[inline]
    pub fn skinned_at(&self, node: NodeIndex) -> Option<Aabb> {
        find(&self.skins, node)
    }

    /// Every skinned mesh the run reached, by slot, with its own world box.
    pub fn skinned(&self) -> &[(NodeIndex, Aabb)] {
        &self.skins
    }
}

/// Computes each reached node's world bounding box: its own [`Geometry`]'s box united
/// with its children's, in world coordinates; [`Aabb::EMPTY`] for a subtree without
/// geometry. A visit actor (enter + leave) with ordered state (the world matrix); the
/// boxes cover what the run entered (a pruned node: only its own geometry).
///
/// It carries the [`WorldTransforms`] its boxes start from and runs it at each node
/// before its own work, so a chain with `Bounds` needs no `WorldTransforms` of its own:
/// [`Action::actor`](scenewalk_core::Action::actor) finds the carried one, with the
/// run's world table. (A chain holding both works, and computes every world matrix
/// twice.)
///
/// A [`SkinnedMesh`] is placed by its joints (glTF's rule): when the run's root is left,
/// each gets [`SkinnedMesh::conservative_bounds`] posed by the joints' world matrices
/// (a joint outside the run's subtree by the locals on its path), united into its
/// ancestors' boxes; a skin naming a removed node gives an empty box; a run stopped
/// early ([`Flow::Stop`]) leaves them unposed. The results: [`table`](Self::table).
#[derive(Clone, Debug, Default)]
pub struct Bounds {
    /// The world transforms this actor's boxes are placed by, run inside it.
    pub(crate) world: WorldTransforms,
    pub(crate) geometry: Typed<Geometry>,
    skinned: Typed<SkinnedMesh>,
    pub(crate) boxes: PerNode<Aabb>,
    /// The skinned meshes met, sorted by slot at the end.
    pub(crate) skins: Vec<(NodeIndex, Aabb)>,
    scratch: Vec<Affine3A>,
    shared: Arc<BoundsTable>,
    root: Option<NodeIndex>,
    /// Whether each node is left right after its subtree, before any node is entered
    /// again: pre-order, but not the walk above a parallel run's split points, whose
    /// leaves come after it.
    nested: bool,
    /// Pre-order: the nodes entered and not yet left, with their boxes so far (the
    /// table gets a box when its node is left, or at the end of a run that stopped).
    open: Vec<(NodeIndex, Aabb)>,
    /// In a parallel worker: its finished subtree roots' boxes, with the parent each
    /// goes into.
    roots: Option<Vec<(Option<NodeIndex>, Aabb)>>,
    /// Root lists kept for the next run's workers.
    spare_roots: Spares<Vec<(Option<NodeIndex>, Aabb)>>,
}

impl Bounds {
    /// An actor with no results yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The latest run's results, shared ([`WorldTransforms::table`](crate::WorldTransforms::table)).
    pub fn table(&self) -> Arc<BoundsTable> {
        Arc::clone(&self.shared)
    }

    /// The world transforms it carries, with the latest run's table.
    pub fn transforms(&self) -> &WorldTransforms {
        &self.world
    }

    /// Continues the latest run over `graph` as it is now, keeping every value, for an
    /// incremental patch to run it again over changed subtrees; false when a new type
    /// extending `Transform` moved every matrix (`WorldMatrices::layout`). The patch's
    /// runs gather boxes in the table, not on the stack: each leaves its top's box
    /// there for the patch to lift.
    pub(crate) fn resume(&mut self, graph: &Graph) -> bool {
        self.open.clear();
        self.nested = false;
        let types = graph.types();
        self.geometry.resolve(types);
        self.skinned.resolve(types);
        self.boxes.resume(graph);
        self.world.world.resume(graph);
        self.world.matrices.layout(graph)
    }

    /// Puts the open boxes in the table, where the rest of the run gathers them.
    #[cold]
    fn unnest(&mut self) {
        for (node, own) in self.open.drain(..) {
            self.boxes.set(node, own);
        }
        self.nested = false;
    }

    /// A node is left when its box gathers in the table: into its parent's there.
    #[inline]
    fn leave_in_table(&mut self, visit: &Visit<'_>) {
        let node = visit.node();
        if Some(node) == self.root {
            return self.root_left(visit.graph());
        }
        if let Some(own) = self.boxes.get_at(node)
            && let Some(parent) = visit.graph().parent_at(node)
            && let Some(parent_box) = self.boxes.get_mut_at(parent)
        {
            *parent_box = parent_box.union(&own);
        }
    }

    /// The run's root is left: the skinned meshes met get their own boxes, united into
    /// their ancestors'.
    fn root_left(&mut self, graph: &Graph) {
        if self.skins.is_empty() {
            return;
        }
        // The workers' matrices and boxes are needed now, not at the end.
        self.world.finish_merges();
        self.boxes.finish_merges();
        let mut skins = std::mem::take(&mut self.skins);
        let mut scratch = std::mem::take(&mut self.scratch);
        for (node, own) in &mut skins {
            let world_at = |j| self.boxes.get_at(j).and(self.world.world_at(j));
            *own = skinned_box(graph, *node, world_at, &mut scratch);
            let mut at = Some(*node);
            while let Some(n) = at {
                if let Some(b) = self.boxes.get_mut_at(n) {
                    *b = b.union(own);
                }
                at = graph.parent_at(n).filter(|_| Some(n) != self.root);
            }
        }
        self.skins = skins;
        self.scratch = scratch;
    }
}

impl Published for Bounds {
    type Table = BoundsTable;
    fn parts(&mut self) -> (&mut Arc<BoundsTable>, impl FnOnce(&mut BoundsTable)) {
        let (boxes, skins) = (&mut self.boxes, &mut self.skins);
        (&mut self.shared, move |t: &mut BoundsTable| {
            std::mem::swap(&mut t.boxes, boxes);
            std::mem::swap(&mut t.skins, skins);
        })
    }
}

impl OrderedActor for Bounds {
    type State = u32;
    const EVENTS: Events = Events::EnterLeave;

    fn root_state(&mut self, run: &RunContext<'_>) -> Result<u32, TraversalError> {
        self.checkout(false);
        let types = run.graph.types();
        self.geometry.resolve(types);
        self.skinned.resolve(types);
        self.skins.clear();
        self.open.clear();
        self.nested = run.capabilities.ordered_state == OrderedState::DepthStack;
        self.root = Some(run.root);
        self.boxes.begin(run.graph, run.root);
        self.world.root_state(run)
    }

    #[inline]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        _active: &mut ActiveList<'_>,
    ) -> Flow {
        let place = self.world.enter_node(state, visit);
        let ty = visit.node_type();
        let own = if !self.geometry.contains(ty) {
            Aabb::EMPTY
        } else if self.skinned.contains(ty) {
            // Boxed when the root is left, from its joints.
            self.skins.push((visit.node(), Aabb::EMPTY));
            Aabb::EMPTY
        } else {
            let world = self.world.matrices.get(place);
            visit
                .get::<Geometry>()
                .map_or(Aabb::EMPTY, |g| g.local_bounds().transformed(&world))
        };
        if self.nested {
            self.open.push((visit.node(), own));
        } else {
            self.boxes.set(visit.node(), own);
        }
        Flow::Continue
    }

    #[inline(always)]
    fn leave(&mut self, _state: &u32, visit: &Visit<'_>) {
        if !self.nested {
            return self.leave_in_table(visit);
        }
        // The box is complete: into its parent's, open below it, unless the node is the
        // run's root or a worker's subtree root.
        let Some((node, own)) = self.open.pop() else {
            return;
        };
        if node != visit.node() {
            // A leave replayed after the walk above a parallel run's split points.
            self.open.push((node, own));
            self.unnest();
            return self.leave_in_table(visit);
        }
        self.boxes.set(node, own);
        if let Some((_, parent_box)) = self.open.last_mut() {
            *parent_box = parent_box.union(&own);
        } else if let Some(roots) = &mut self.roots {
            roots.push((visit.graph().parent_at(node), own));
        } else {
            self.root_left(visit.graph());
        }
    }

    fn end(&mut self) {
        // A run that stopped left some open: each keeps what it gathered.
        self.unnest();
        self.world.end();
        self.boxes.finish_merges();
        // By slot, for `BoundsTable::skinned_at` (in a run that stopped, unposed).
        self.skins.sort_unstable_by_key(|s| s.0);
        self.publish();
    }

    fn carried(&self) -> Option<&dyn Any> {
        Some(&self.world)
    }

    fn carried_mut(&mut self) -> Option<&mut dyn Any> {
        Some(&mut self.world)
    }

    /// Parallel runs: a worker's boxes, on a stack, are merged into the table and its
    /// root's into its parent's; it hands its skinned meshes and its world transforms
    /// back: the run's root, left last, boxes the meshes.
    const FORKS: bool = true;
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        let (world, state) = self.world.fork(state)?;
        let worker = Self {
            world,
            geometry: self.geometry.clone(),
            skinned: self.skinned.clone(),
            boxes: self.boxes.fork(),
            nested: self.nested,
            roots: Some(self.spare_roots.take().unwrap_or_default()),
            spare_roots: self.spare_roots.share(),
            ..Self::new()
        };
        Some((worker, state))
    }

    fn merge(&mut self, worker: Self) {
        self.world.merge(worker.world);
        self.skins.extend(worker.skins);
        // Boxes below the split points are not read during the run: copied at the end.
        self.boxes.merge(worker.boxes);
        self.unnest();
        let Some(mut roots) = worker.roots else {
            return;
        };
        for (parent, own) in roots.drain(..) {
            if let Some(parent) = parent
                && let Some(parent_box) = self.boxes.get_mut_at(parent)
            {
                *parent_box = parent_box.union(&own);
            }
        }
        self.spare_roots.give(roots, FORKS);
    }
}

#[cfg(test)]
mod tests {
    use super::Bounds;
    use crate::{Statistics, WorldTransforms};
    use scenewalk_core::glam::Vec3;
    use scenewalk_core::{Action, ActorChain, DepthFirst, Graph, Ordered, Unordered};
    use scenewalk_nodes::{Group, Transform};

    /// `chain` after two runs over 40 transforms.
    fn run_twice<C: ActorChain>(chain: C) -> Action<DepthFirst, C> {
        let mut graph = Graph::new();
        let (root, mut parent) = (graph.add_root(Group), None);
        for i in 0..40 {
            let t = Transform::from_translation(Vec3::new(i as f32, 1.0, 0.5));
            let node = graph.append_child(parent.unwrap_or(root), t).unwrap();
            parent = (i % 4 != 3).then_some(node);
        }
        let mut action = Action::new(DepthFirst::new(), chain).unwrap();
        action.run(&graph, root).unwrap();
        action.run(&graph, root).unwrap();
        action
    }

    /// The update pass (`Bounds` with statistics) computes each node's world matrix once,
    /// in the `WorldTransforms` it carries; a chain with one beside it, twice (documented).
    #[test]
    fn the_update_pass_computes_each_world_matrix_once() {
        let update = run_twice((
            Ordered::new(Bounds::new()),
            Unordered::new(Statistics::new()),
        ));
        assert_eq!(update.actors().0.get().world.matrices.products, 2 * 40);
        let both = run_twice((
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ));
        let (own, bounds) = (both.actors().0.get(), both.actors().1.get());
        assert_eq!(own.matrices.products, 2 * 40);
        assert_eq!(bounds.world.matrices.products, 2 * 40);
    }
}
