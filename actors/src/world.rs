//! World transforms: the matrix stack as ordered state.

use crate::PerNode;
use crate::per_node::Pages;
use crate::shared::Published;
use scenewalk_core::Invariant;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{
    ActiveList, Flow, Graph, NodeId, NodeIndex, OrderedActor, ResultsError, RunContext, Stamp,
    Stamped, StateCell, TraversalError, Visit,
};
use scenewalk_nodes::Transform;
use std::sync::Arc;

mod matrices;

pub(crate) use matrices::WorldMatrices;

/// The product of the local transforms strictly above `node` (naive walk to the root).
pub(crate) fn world_above(graph: &Graph, node: NodeIndex) -> Affine3A {
    let locals = graph.path_up(node).skip(1);
    let locals = locals.filter_map(|p| graph.get_at::<Transform>(p));
    locals.fold(Affine3A::IDENTITY, |world, t| *t.local() * world)
}

/// The world transforms of a run, stamped with what they describe: published by
/// [`WorldTransforms`] (or [`IncrementalUpdate`](crate::IncrementalUpdate)) for later
/// passes ([`Results`](scenewalk_core::Results), [`RunContext::read`]).
#[derive(Clone, Debug, Default)]
pub struct WorldTable {
    pub(crate) index: PerNode<u32>,
    pub(crate) matrices: Pages<Affine3A>,
}

impl Stamped for WorldTable {
    fn stamp(&self) -> Option<Stamp> {
        self.index.stamp()
    }
}

impl WorldTable {
    /// The world transform of the node in slot `node`, unchecked (for a reader that
    /// checked the table: [`RunContext::read`]); `None` if the run did not reach it.
    #[inline]
    pub fn at(&self, node: NodeIndex) -> Option<Affine3A> {
        let i = self.index.get_at(node)?;
        self.matrices.get(i as usize).copied()
    }

    /// The world transform of `node`, checked: refused once the graph changed since
    /// the run, for another graph, a stale id or a node the run did not reach.
    pub fn world(&self, graph: &Graph, node: NodeId) -> Result<Affine3A, ResultsError> {
        let (index, matrices) = (&self.index, &self.matrices);
        let i = index.read("WorldTable::world", "WorldTable", graph, node)?;
        Ok(matrices.get(i as usize).copied().invariant("world matrix"))
    }
}

/// Computes every reached node's world transform: the product of the local transforms
/// on its path from the root (an ordered-state actor: the matrix stack); a run's root
/// below the graph's root starts from its ancestors' product. A [`Transform`] gets
/// `parent world × local` as its own state; every other node shares its parent's. The
/// results: [`table`](Self::table).
#[derive(Clone, Debug, Default)]
pub struct WorldTransforms {
    pub(crate) matrices: WorldMatrices,
    pub(crate) world: PerNode<u32>,
    shared: Arc<WorldTable>,
}

impl WorldTransforms {
    /// An actor with no results yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The results of the latest run, shared: a handle, nothing copied. Let go of it
    /// before the next run, which then writes in place (else it writes fresh tables).
    pub fn table(&self) -> Arc<WorldTable> {
        Arc::clone(&self.shared)
    }

    /// The transform nodes of the latest run whose world matrix came out NaN or
    /// infinite, in traversal order (not their subtrees, which inherit it); the run's
    /// root comes first, whatever its type, when its ancestors' matrix is already bad.
    pub fn non_finite(&self) -> &[NodeIndex] {
        &self.matrices.non_finite
    }

    /// The world matrix of the node in slot `node` during or after a run (merged
    /// workers' once [`finish_merges`](Self::finish_merges) ran); `None` where no run
    /// wrote it.
    pub(crate) fn world_at(&self, node: NodeIndex) -> Option<Affine3A> {
        self.world
            .get_at(node)
            .map(|place| self.matrices.get(place))
    }

    /// The actor's work at a node; returns the node's state (the place of its world
    /// matrix), for a carrier that reads it.
    #[inline(always)]
    pub(crate) fn enter_node(&mut self, state: &mut StateCell<'_, u32>, visit: &Visit<'_>) -> u32 {
        let own = self.matrices.enter(state, visit);
        self.world.set(visit.node(), own);
        own
    }

    /// Puts the merged workers' matrices and places in the tables now (else at `end`).
    pub(crate) fn finish_merges(&mut self) {
        self.matrices.end();
        self.world.finish_merges();
    }
}

impl Published for WorldTransforms {
    type Table = WorldTable;
    fn parts(&mut self) -> (&mut Arc<WorldTable>, impl FnOnce(&mut WorldTable)) {
        let (world, matrices) = (&mut self.world, &mut self.matrices.matrices);
        (&mut self.shared, move |t: &mut WorldTable| {
            std::mem::swap(&mut t.index, world);
            std::mem::swap(&mut t.matrices, matrices);
        })
    }
}

impl OrderedActor for WorldTransforms {
    type State = u32;

    fn root_state(&mut self, run: &RunContext<'_>) -> Result<u32, TraversalError> {
        self.checkout(false);
        self.world.begin(run.graph, run.root);
        Ok(self.matrices.begin(run))
    }

    #[inline(always)]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        _active: &mut ActiveList<'_>,
    ) -> Flow {
        self.enter_node(state, visit);
        Flow::Continue
    }

    fn end(&mut self) {
        self.finish_merges();
        self.publish();
    }

    const FORKS: bool = true;
    /// Places are the same in every worker: the state goes as it is.
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        let worker = Self {
            matrices: self.matrices.fork_at(*state),
            world: self.world.fork(),
            shared: Arc::default(),
        };
        Some((worker, *state))
    }

    /// The worker's pages reach the tables at the end, all workers' at once.
    fn merge(&mut self, worker: Self) {
        self.matrices.merge(worker.matrices);
        self.world.merge(worker.world);
    }
}

// That each world matrix is glam's product bit for bit: `tests/world.rs`.
#[cfg(test)]
#[cfg(feature = "parallel")]
mod tests {
    use super::WorldTransforms;
    use crate::shared::Published;
    use scenewalk_core::glam::Vec3;
    use scenewalk_core::{Action, DepthFirst, Graph, NodeId, Ordered};
    use scenewalk_nodes::{Group, Transform};

    /// A complete 4-ary tree of `n` nodes, every third a transform, built in
    /// depth-first slot order (a split run wants it): node i's children are 4i+1..=4i+4.
    fn tree(n: usize) -> (Graph, NodeId) {
        fn add(graph: &mut Graph, parent: NodeId, i: usize, n: usize) {
            for c in (4 * i + 1..=4 * i + 4).filter(|&c| c < n) {
                let t = Vec3::new(c as f32, 1.0, -(c as f32) * 0.5);
                let node = match c % 3 {
                    0 => graph.append_child(parent, Transform::from_translation(t)),
                    _ => graph.append_child(parent, Group),
                };
                add(graph, node.unwrap(), c, n);
            }
        }
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        add(&mut graph, root, 0, n);
        (graph, root)
    }

    /// A split run writes every transform's matrix at the place its payload fixes, and
    /// every node's state names its nearest transform's place, as a sequential run.
    #[test]
    fn a_split_run_puts_every_matrix_at_its_place() {
        let (graph, root) = tree(30_000);
        let action = || Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),));
        let (mut seq, mut par) = (action().unwrap(), action().unwrap());
        seq.run(&graph, root).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let stats = pool.install(|| par.run_parallel(&graph, root)).unwrap();
        assert!(stats.tasks > 1, "the run was not split: {stats:?}");

        let seq = seq.actor::<WorldTransforms>().unwrap();
        let par = par.actor_mut::<WorldTransforms>().unwrap();
        par.checkout(true);
        let mut transforms = 0;
        let mut next = Some(root.index());
        while let Some(node) = next {
            next = graph.next_preorder_at(node, root.index());
            let state = par.world.get_at(node).unwrap();
            assert_eq!(Some(par.matrices.get(state)), seq.table().at(node));
            let ty = graph.type_at(node).unwrap();
            match par.matrices.place(&graph, node, ty) {
                Some(place) => {
                    transforms += 1;
                    assert_eq!(state, place);
                }
                None => {
                    let parent = graph
                        .parent_at(node)
                        .map_or(Some(0), |p| par.world.get_at(p));
                    assert_eq!(Some(state), parent);
                }
            }
        }
        assert!(transforms > 9_000);
    }
}
