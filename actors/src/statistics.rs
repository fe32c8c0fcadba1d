//! Statistics: counts per type, depth histogram, leaves.

use crate::per_node::{FORKS, Spares};
use scenewalk_core::{
    ActiveList, Flow, Graph, NodeType, RunContext, TraversalError, UnorderedActor, Visit,
};
use std::any::TypeId;

/// Counts what a traversal reached, per run: nodes per type, nodes per depth, leaves (an
/// unordered-state actor). It also counts breadth-first batches (every entry still
/// active when its batch runs counts as reached); parallel runs give the same counts.
#[derive(Clone, Debug, Default)]
pub struct Statistics {
    nodes: u64,
    leaves: u64,
    per_type: Vec<u64>,
    /// The registry's name and id of each type index.
    types: Vec<(&'static str, TypeId)>,
    per_depth: Vec<u64>,
    /// The depth `per_depth[0]` counts: 0, but in a parallel fork (which must not keep
    /// empty levels above its deep subtrees) `usize::MAX` until it counts a node.
    depth_base: usize,
    /// Parallel workers' tables, kept for the next run's workers.
    spare: Spares<Tables>,
}

/// The tables a worker counts in: per type, per depth, the types.
type Tables = (Vec<u64>, Vec<u64>, Vec<(&'static str, TypeId)>);

impl Statistics {
    /// An actor with zero counts.
    pub fn new() -> Self {
        Self::default()
    }

    /// Nodes reached.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Reached nodes with no children in the graph.
    pub fn leaves(&self) -> u64 {
        self.leaves
    }

    /// Nodes reached per depth below the root (index 0 is the root).
    pub fn depth_histogram(&self) -> &[u64] {
        &self.per_depth
    }

    /// Nodes reached of exactly type `T` (not counting types that extend it).
    pub fn count_of<T: 'static>(&self) -> u64 {
        let id = TypeId::of::<T>();
        let i = self.types.iter().position(|t| t.1 == id);
        i.and_then(|i| self.per_type.get(i).copied()).unwrap_or(0)
    }

    /// `(type name, count)` for every type reached at least once, in type index order;
    /// the names are the registry's ([`short_type_name`](scenewalk_core::short_type_name)).
    pub fn counts_by_type(&self) -> Vec<(&'static str, u64)> {
        let counts = self.types.iter().zip(&self.per_type);
        counts
            .filter(|(_, n)| **n > 0)
            .map(|(t, n)| (t.0, *n))
            .collect()
    }

    /// Count of the type with this index.
    pub fn count_of_type(&self, ty: NodeType) -> u64 {
        self.per_type.get(ty.get()).copied().unwrap_or(0)
    }

    #[inline]
    fn count(&mut self, graph: &Graph, node: scenewalk_core::NodeIndex, depth: u32) {
        self.nodes += 1;
        if let Some(count) = graph
            .type_at(node)
            .and_then(|ty| self.per_type.get_mut(ty.get()))
        {
            *count += 1;
        }
        self.add_at_depth(depth as usize, 1);
        if graph.first_child_at(node).is_none() {
            self.leaves += 1;
        }
    }

    /// Adds `count` nodes at `depth` to the histogram.
    #[inline]
    fn add_at_depth(&mut self, depth: usize, count: u64) {
        if depth < self.depth_base {
            self.rebase(depth);
        }
        let i = depth - self.depth_base;
        if self.per_depth.len() <= i {
            self.per_depth.resize(i + 1, 0);
        }
        if let Some(at) = self.per_depth.get_mut(i) {
            *at += count;
        }
    }

    /// Lets the histogram start at `depth` (smaller than its base).
    #[cold]
    fn rebase(&mut self, depth: usize) {
        if self.depth_base != usize::MAX {
            let shift = self.depth_base - depth;
            self.per_depth.splice(0..0, std::iter::repeat_n(0, shift));
        }
        self.depth_base = depth;
    }
}

impl UnorderedActor for Statistics {
    const BATCHES: bool = true;

    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        let types = run.graph.types();
        self.nodes = 0;
        self.leaves = 0;
        self.per_depth.clear();
        self.depth_base = 0;
        self.per_type.clear();
        self.per_type.resize(types.len(), 0);
        self.types.clear();
        self.types
            .extend(types.iter().map(|(_, info)| (info.name, info.type_id)));
        Ok(())
    }

    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        self.count(visit.graph(), visit.node(), visit.depth());
        Flow::Continue
    }

    /// Counts the batch's active entries (a deactivated one was dropped, not entered).
    fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        for node in batch.active_nodes() {
            self.count(graph, node, depth);
        }
        Flow::Continue
    }

    /// Zero counts over the same type table.
    fn fork(&self) -> Option<Self> {
        let (mut per_type, mut per_depth, mut types) = self.spare.take().unwrap_or_default();
        per_type.clear();
        per_type.resize(self.per_type.len(), 0);
        per_depth.clear();
        types.clone_from(&self.types);
        Some(Self {
            nodes: 0,
            leaves: 0,
            per_type,
            types,
            per_depth,
            depth_base: usize::MAX,
            spare: self.spare.share(),
        })
    }

    /// Counts add up, so merged counts equal a sequential run's exactly.
    fn merge(&mut self, worker: Self) {
        self.nodes += worker.nodes;
        self.leaves += worker.leaves;
        for (total, part) in self.per_type.iter_mut().zip(&worker.per_type) {
            *total += part;
        }
        if let Some(last) = worker.per_depth.len().checked_sub(1) {
            // Grow once, to the worker's deepest level.
            self.add_at_depth(worker.depth_base + last, 0);
        }
        for (i, &part) in worker.per_depth.iter().enumerate() {
            self.add_at_depth(worker.depth_base + i, part);
        }
        // Its tables serve the next run's workers.
        let tables = (worker.per_type, worker.per_depth, worker.types);
        self.spare.give(tables, FORKS);
    }
}
