//! World transforms: the matrix stack as ordered state.

use crate::PerNode;
use crate::per_node::Spares;
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

/// The distinct world matrices of a run, one per transform node reached (and one for
/// the root's parent). The ordered state of the matrix-stack actors is an index into
/// it: 4 bytes to copy and to record per node, where the matrix is 64.
#[derive(Clone, Debug)]
pub(crate) struct WorldMatrices {
    transforms: TypeSet,
    matrices: Vec<Affine3A>,
    /// Transform nodes whose world matrix came out NaN or infinite.
    non_finite: Vec<NodeIndex>,
    /// The run's root, when the matrix above it is already bad (listed once).
    bad_root: Option<NodeIndex>,
    /// Whether `owners` is kept (by incremental updates only, so other runs do not
    /// pay for it).
    track_owners: bool,
    /// The slot of the transform node that pushed each matrix (`u32::MAX` for the
    /// matrix above the root): a patch may overwrite a matrix in place only for the
    /// node that owns it, as only that node's subtree refers to it.
    owners: Vec<u32>,
    /// Parallel runs, in a worker: the parent's state its matrix 0 stands for, and
    /// how long the parent's `non_finite` was at the fork (where this worker's go).
    /// In the parent: how many entries merges have put in `non_finite` since.
    fork: ForkMarks,
    /// Merged workers' matrix lists, emptied, for the next parallel run's workers.
    spare: Spares<Vec<Affine3A>>,
}

/// Where a parallel worker's matrices and list entries belong in its parent's.
#[derive(Clone, Copy, Debug, Default)]
struct ForkMarks {
    base: u32,
    mark: usize,
    merged: usize,
}

impl WorldMatrices {
    pub(crate) fn new() -> Self {
        Self {
            transforms: TypeSet::of::<Transform>(),
            matrices: Vec::new(),
            non_finite: Vec::new(),
            bad_root: None,
            track_owners: false,
            owners: Vec::new(),
            fork: ForkMarks::default(),
            spare: Spares::default(),
        }
    }

    /// Keeps the owner of each matrix from now on, for in-place patches.
    pub(crate) fn track_owners(&mut self) {
        self.track_owners = true;
    }

    /// Starts a run; returns the state above the root.
    pub(crate) fn begin(&mut self, run: &RunContext<'_>) -> u32 {
        self.transforms.resolve(run.graph.types());
        self.matrices.clear();
        self.non_finite.clear();
        let above = world_above(run.graph, run.root);
        self.bad_root = (!above.is_finite()).then_some(run.root);
        self.non_finite.extend(self.bad_root);
        self.matrices.push(above);
        self.owners.clear();
        if self.track_owners {
            self.owners.push(u32::MAX);
        }
        self.fork = ForkMarks::default();
        0
    }

    /// Starts a patch of one subtree whose parent's world is `above`, as a new matrix
    /// (for users that keep no matrix index across runs). Returns the state above
    /// the subtree's root.
    pub(crate) fn resume(&mut self, run: &RunContext<'_>, above: Affine3A) -> u32 {
        self.transforms.resolve(run.graph.types());
        self.bad_root = (!above.is_finite()).then_some(run.root);
        self.non_finite.extend(self.bad_root);
        self.matrices.push(above);
        if self.track_owners {
            self.owners.push(u32::MAX);
        }
        (self.matrices.len() - 1) as u32
    }

    /// Starts a patch of one subtree whose parent's state is `above`, an index of an
    /// earlier run: earlier matrices stay, as recorded states point at them.
    pub(crate) fn resume_at(&mut self, run: &RunContext<'_>, above: u32) -> u32 {
        self.transforms.resolve(run.graph.types());
        self.bad_root = None;
        above
    }

    /// Forgets every matrix (for users that record no matrix index).
    pub(crate) fn clear(&mut self) {
        self.matrices.clear();
        self.non_finite.clear();
    }

    /// How many matrices the runs since the last full one recorded.
    pub(crate) fn len(&self) -> usize {
        self.matrices.len()
    }

    /// At a transform node, makes `parent world × local` the node's own state.
    /// Returns the node's state, so the caller need not read the cell again.
    #[inline(always)]
    pub(crate) fn enter(&mut self, state: &mut StateCell<'_, u32>, visit: &Visit<'_>) -> u32 {
        let above = *state.get();
        let Some(local) = local_transform(visit, &self.transforms) else {
            return above;
        };
        let world = self.get(above) * *local;
        if !world.is_finite() && self.bad_root != Some(visit.node()) {
            self.non_finite.push(visit.node());
        }
        self.matrices.push(world);
        if self.track_owners {
            self.owners.push(visit.node().raw());
        }
        let own = (self.matrices.len() - 1) as u32;
        state.set(own);
        own
    }

    /// As [`enter`](Self::enter) in a patch: a transform node that owns its earlier
    /// matrix `previous` overwrites it, so repeated patches leave nothing behind.
    #[inline]
    pub(crate) fn enter_in_place(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        previous: Option<u32>,
    ) {
        let Some(local) = local_transform(visit, &self.transforms) else {
            return;
        };
        let world = self.get(*state.get()) * *local;
        if !world.is_finite() {
            self.non_finite.push(visit.node());
        }
        let node = visit.node().raw();
        if let Some(i) = previous
            && self.owners.get(i as usize) == Some(&node)
            && let Some(slot) = self.matrices.get_mut(i as usize)
        {
            *slot = world;
            state.set(i);
            return;
        }
        self.matrices.push(world);
        if self.track_owners {
            self.owners.push(node);
        }
        state.set((self.matrices.len() - 1) as u32);
    }

    pub(crate) fn non_finite(&self) -> &[NodeIndex] {
        &self.non_finite
    }

    #[inline(always)]
    pub(crate) fn get(&self, index: u32) -> Affine3A {
        self.matrices
            .get(index as usize)
            .copied()
            .unwrap_or(Affine3A::IDENTITY)
    }
}

/// Computes every reached node's world transform: the product of the local transforms
/// on its path from the root (an ordered-state actor: the matrix stack).
///
/// A node that is a [`Transform`] gets `parent world × local` as its own state (one
/// copy); every other node shares its parent's. The state is an index into the run's
/// distinct world matrices, so each node records 4 bytes, not a 64-byte matrix. A
/// traversal root below the graph's root starts from the product of its ancestors.
#[derive(Clone, Debug)]
pub struct WorldTransforms {
    pub(crate) matrices: WorldMatrices,
    pub(crate) world: PerNode<u32>,
    /// Set by an incremental update for one run: the state (matrix index) above the
    /// run's root, and that the run patches the latest results instead of replacing
    /// them.
    pub(crate) patch: Option<u32>,
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
            matrices: WorldMatrices::new(),
            world: PerNode::new(0),
            patch: None,
        }
    }

    /// The world transform of `node` from the latest run (`None` if the node is stale,
    /// was not reached, or the graph's structure changed since the run).
    pub fn world(&self, graph: &Graph, node: NodeId) -> Option<Affine3A> {
        self.world.get(graph, node).map(|i| self.matrices.get(i))
    }

    /// The world transform of the node in slot `node` from the latest run.
    pub fn world_at(&self, node: NodeIndex) -> Option<Affine3A> {
        self.world.get_at(node).map(|i| self.matrices.get(i))
    }

    /// The transform nodes of the latest run whose world matrix came out NaN or
    /// infinite (a bad local transform, or an overflowing product), in traversal
    /// order: the place to look when results are not numbers. Their subtrees inherit
    /// the bad matrix. The run's root comes first, whatever its type, when the matrix
    /// of its ancestors is already bad. Empty when every matrix is finite.
    ///
    /// ```
    /// use scenewalk_actors::WorldTransforms;
    /// use scenewalk_core::{Action, Graph, Ordered, glam::{Affine3A, Vec3}};
    /// use scenewalk_iterators::DepthFirst;
    /// use scenewalk_nodes::{Group, Transform};
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Group);
    /// let bad = graph.append_child(root, Transform::from_translation(Vec3::NAN))?;
    /// let mut action = Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),))?;
    /// action.run(&graph, root)?;
    /// assert_eq!(action.actor::<WorldTransforms>().unwrap().non_finite(), [bad.index()]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn non_finite(&self) -> &[NodeIndex] {
        self.matrices.non_finite()
    }
}

impl OrderedActor for WorldTransforms {
    type State = u32;

    fn root_state(&mut self, run: &RunContext<'_>) -> u32 {
        if let Some(above) = self.patch {
            self.world.resume(run.graph);
            return self.matrices.resume_at(run, above);
        }
        self.world.begin(run.graph);
        self.matrices.begin(run)
    }

    #[inline(always)]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        _active: &mut ActiveList<'_>,
    ) -> Flow {
        let own = if self.patch.is_some() {
            let previous = self.world.get_at(visit.node());
            self.matrices.enter_in_place(state, visit, previous);
            *state.get()
        } else {
            self.matrices.enter(state, visit)
        };
        self.world.set(visit.node(), own);
        Flow::Continue
    }

    fn end(&mut self) {
        self.world.finish_merges();
    }

    const FORKS: bool = true;
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        self.fork_worker(*state)
    }
    fn merge(&mut self, worker: Self) {
        self.merge_worker(worker);
    }
}

/// Parallel runs: a worker per subtree below the split points starts its own matrix
/// list from the world matrix at the subtree's root; the merge appends the worker's
/// matrices and renumbers its per-node indices, so every node reads the matrix a
/// sequential run computes (the same products in the same order, bit for bit).
impl WorldMatrices {
    /// A worker's matrices: one, the world matrix of `state`, as state 0.
    pub(crate) fn fork_at(&self, state: u32) -> Self {
        let mut matrices = self.spare.take().unwrap_or_default();
        matrices.push(self.get(state));
        Self {
            transforms: self.transforms.clone(),
            matrices,
            non_finite: Vec::new(),
            bad_root: None,
            track_owners: self.track_owners,
            owners: if self.track_owners {
                vec![u32::MAX]
            } else {
                Vec::new()
            },
            fork: ForkMarks {
                base: state,
                mark: self.non_finite.len(),
                merged: 0,
            },
            spare: Spares::default(),
        }
    }

    /// Appends a worker's matrices (but its matrix 0, which is `base`'s) and puts its
    /// non-finite nodes where they come in traversal order. Returns how a worker's
    /// index maps to this list's.
    fn merge(&mut self, mut worker: Self) -> impl Fn(u32) -> u32 + use<> {
        let base = worker.fork.base;
        let offset = (self.matrices.len() as u32).wrapping_sub(1);
        self.matrices.extend(worker.matrices.iter().skip(1));
        worker.matrices.clear();
        self.spare.give(worker.matrices);
        if self.track_owners {
            self.owners.extend(worker.owners.iter().skip(1));
        }
        let at = (worker.fork.mark + self.fork.merged).min(self.non_finite.len());
        self.fork.merged += worker.non_finite.len();
        self.non_finite.splice(at..at, worker.non_finite);
        move |i| if i == 0 { base } else { offset.wrapping_add(i) }
    }
}

impl WorldTransforms {
    /// [`OrderedActor::fork`]: patch runs (incremental updates) stay sequential.
    fn fork_worker(&self, state: u32) -> Option<(Self, u32)> {
        if self.patch.is_some() {
            return None;
        }
        let worker = Self {
            matrices: self.matrices.fork_at(state),
            world: self.world.fork(),
            patch: None,
        };
        Some((worker, 0))
    }

    /// [`OrderedActor::merge`].
    fn merge_worker(&mut self, worker: Self) {
        let map = self.matrices.merge(worker.matrices);
        // The indices are not read back during the run: all forks' copies happen at
        // once, on every thread, at the end.
        self.world.merge_deferred(worker.world, map);
    }
}

/// For the incremental update's own subtree pass, which walks without a `Visit`.
impl WorldMatrices {
    /// As [`enter_in_place`](Self::enter_in_place) for the transform node in slot
    /// `node` with local matrix `local`, below a parent whose state is `parent`:
    /// the node's state, or `None` if its world matrix is not finite (the caller
    /// then recomputes everything, which lists it).
    #[inline]
    pub(crate) fn patch_transform(
        &mut self,
        node: NodeIndex,
        parent: u32,
        local: &Affine3A,
        previous: Option<u32>,
    ) -> Option<u32> {
        let world = self.get(parent) * *local;
        if !world.is_finite() {
            return None;
        }
        let node = node.raw();
        if let Some(i) = previous
            && self.owners.get(i as usize) == Some(&node)
            && let Some(slot) = self.matrices.get_mut(i as usize)
        {
            *slot = world;
            return Some(i);
        }
        self.matrices.push(world);
        if self.track_owners {
            self.owners.push(node);
        }
        Some((self.matrices.len() - 1) as u32)
    }
}
