//! World bounding boxes, accumulated on leave.

use crate::PerNode;
use crate::shared::{checkout, publish};
use crate::world::WorldMatrices;
use scenewalk_core::{
    Aabb, ActiveList, Events, Flow, Graph, NodeId, NodeIndex, OrderedActor, ResultsError,
    RunContext, Stamp, Stamped, StateCell, TraversalError, TypeSet, Visit,
};
use scenewalk_nodes::Geometry;
use std::sync::Arc;

/// The world bounding boxes of a run's subtrees, as later passes read them, stamped
/// with what they describe.
///
/// [`Bounds`] (and [`IncrementalUpdate`](crate::IncrementalUpdate)) publish one behind
/// an `Arc` after each run: hand it to later passes with
/// [`Results`](scenewalk_core::Results), and read it in an actor's `begin` with
/// [`RunContext::read`], which refuses it once the graph changed.
#[derive(Clone, Debug)]
pub struct BoundsTable {
    pub(crate) boxes: PerNode<Aabb>,
}

impl Default for BoundsTable {
    fn default() -> Self {
        Self {
            boxes: PerNode::new(Aabb::EMPTY),
        }
    }
}

impl Stamped for BoundsTable {
    fn stamp(&self) -> Option<Stamp> {
        self.boxes.stamp()
    }
}

impl BoundsTable {
    /// The world box of the subtree of the node in slot `node`, unchecked: for a reader
    /// that checked the table once for its run ([`RunContext::read`]). `None` if the
    /// run did not reach the node.
    #[inline]
    pub fn at(&self, node: NodeIndex) -> Option<Aabb> {
        self.boxes.get_at(node)
    }

    /// The world box of `node`'s subtree, checked: refused once the graph changed since
    /// the run (structure or payloads), for another graph, a stale id or a node the run
    /// did not reach.
    pub fn world_bounds(&self, graph: &Graph, node: NodeId) -> Result<Aabb, ResultsError> {
        self.boxes
            .read("BoundsTable::world_bounds", "BoundsTable", graph, node)
    }
}

/// Computes each reached node's world bounding box: the union of its own geometry's box
/// (if it is a [`Geometry`]) and its children's boxes, in world coordinates.
///
/// A visit actor (enter + leave) with ordered state (the world matrix): a node's box
/// is complete at its leave, after all its descendants, and is then merged into its
/// parent's. The boxes cover what the run entered, under every order: a child another
/// actor deactivates is never entered and contributes nothing (it has no box), and a
/// node an actor prunes was entered, so its own geometry counts and only its
/// children's subtrees are left out. So with a culling actor in the chain the result
/// is the box of what was traversed.
/// A subtree with no geometry has an empty box ([`Aabb::EMPTY`]).
///
/// The results are a [`BoundsTable`], published after each run: [`table`](Self::table)
/// hands it out without copying.
#[derive(Clone, Debug)]
pub struct Bounds {
    matrices: WorldMatrices,
    pub(crate) geometry: TypeSet,
    pub(crate) boxes: PerNode<Aabb>,
    shared: Arc<BoundsTable>,
    root: Option<NodeIndex>,
    /// In a parallel worker: the boxes of its subtree, kept on a stack by depth.
    fork: Option<Box<BoundsFork>>,
}

/// A parallel worker's boxes: it keeps no per-slot table (see `PerNode::fork`), so
/// the boxes still open (the path from the subtree root) sit on a stack.
#[derive(Clone, Debug, Default)]
struct BoundsFork {
    /// The nodes entered and not yet left, with their boxes so far.
    open: Vec<(NodeIndex, Aabb)>,
    /// The finished subtree roots' boxes, with the parent they go into.
    roots: Vec<(Option<NodeIndex>, Aabb)>,
}

impl Default for Bounds {
    fn default() -> Self {
        Self::new()
    }
}

impl Bounds {
    /// An actor with no results yet.
    pub fn new() -> Self {
        Self {
            matrices: WorldMatrices::new(),
            geometry: TypeSet::of::<Geometry>(),
            boxes: PerNode::new(Aabb::EMPTY),
            shared: Arc::default(),
            root: None,
            fork: None,
        }
    }

    /// The results of the latest run, shared: a handle, nothing copied (see
    /// [`WorldTransforms::table`](crate::WorldTransforms::table)).
    pub fn table(&self) -> Arc<BoundsTable> {
        Arc::clone(&self.shared)
    }

    /// The world box of `node`'s subtree from the latest run, checked as
    /// [`BoundsTable::world_bounds`] does.
    pub fn world_bounds(&self, graph: &Graph, node: NodeId) -> Result<Aabb, ResultsError> {
        self.shared.world_bounds(graph, node)
    }

    /// The world box of the subtree of the node in slot `node` from the latest run,
    /// unchecked (see [`BoundsTable::at`]).
    pub fn world_bounds_at(&self, node: NodeIndex) -> Option<Aabb> {
        self.shared.at(node)
    }

    /// Takes the published table back into the working one; `keep` copies it when a
    /// reader still holds the handle.
    pub(crate) fn checkout(&mut self, keep: bool) {
        checkout(&mut self.shared, keep, |t| {
            std::mem::swap(&mut t.boxes, &mut self.boxes);
        });
    }

    /// Publishes the working table.
    pub(crate) fn publish(&mut self) {
        publish(&mut self.shared, |t| {
            std::mem::swap(&mut t.boxes, &mut self.boxes)
        });
    }
}

impl OrderedActor for Bounds {
    type State = u32;
    const EVENTS: Events = Events::EnterLeave;

    fn root_state(&mut self, run: &RunContext<'_>) -> Result<u32, TraversalError> {
        self.checkout(false);
        self.geometry.resolve(run.graph.types());
        self.root = Some(run.root);
        self.boxes.begin(run.graph, run.root);
        Ok(self.matrices.begin(run))
    }

    #[inline]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        _active: &mut ActiveList<'_>,
    ) -> Flow {
        self.matrices.enter(state, visit);
        let own = if self.geometry.contains(visit.node_type()) {
            let world = self.matrices.get(*state.get());
            visit
                .get::<Geometry>()
                .map_or(Aabb::EMPTY, |g| g.local_bounds().transformed(&world))
        } else {
            Aabb::EMPTY
        };
        match &mut self.fork {
            None => self.boxes.set(visit.node(), own),
            Some(fork) => fork.open.push((visit.node(), own)),
        }
        Flow::Continue
    }

    #[inline(always)]
    fn leave(&mut self, _state: &u32, visit: &Visit<'_>) {
        if let Some(fork) = &mut self.fork {
            if let Some((node, own)) = fork.leave(visit) {
                // The worker's table (a fork) keeps the finished box for the merge.
                self.boxes.set(node, own);
            }
            return;
        }
        if Some(visit.node()) == self.root {
            return;
        }
        let Some(own) = self.boxes.get_at(visit.node()) else {
            return;
        };
        if let Some(parent) = visit.parent()
            && let Some(parent_box) = self.boxes.get_mut_at(parent)
        {
            *parent_box = parent_box.union(&own);
        }
    }

    fn end(&mut self) {
        self.matrices.end();
        self.boxes.finish_merges();
        self.publish();
    }

    const FORKS: bool = true;
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        self.fork_worker(*state)
    }
    fn merge(&mut self, worker: Self) {
        self.merge_worker(worker);
    }
}

impl BoundsFork {
    /// A node's box is complete: it goes into its parent's, which is open here unless
    /// the node is the subtree's root. Returns the finished node and box.
    #[inline(always)]
    fn leave(&mut self, visit: &Visit<'_>) -> Option<(NodeIndex, Aabb)> {
        let (node, own) = self.open.pop()?;
        match self.open.last_mut() {
            Some((_, parent_box)) => *parent_box = parent_box.union(&own),
            None => self.roots.push((visit.parent(), own)),
        }
        Some((node, own))
    }
}

/// Parallel runs: a worker per subtree below the split points computes its boxes on a
/// stack; the merge writes them into the run's table and unions the subtree root's
/// box into its parent's, where a sequential run's leave of that root would, so the
/// boxes of the nodes above are complete when their own (replayed) leaves come.
impl Bounds {
    fn fork_worker(&self, state: u32) -> Option<(Self, u32)> {
        let worker = Self {
            matrices: self.matrices.fork_at(state),
            geometry: self.geometry.clone(),
            boxes: self.boxes.fork(),
            shared: Arc::default(),
            root: None,
            fork: Some(Box::default()),
        };
        Some((worker, state))
    }

    fn merge_worker(&mut self, worker: Self) {
        self.matrices.recycle(worker.matrices);
        let Some(fork) = worker.fork else {
            return;
        };
        // Boxes below the split points are not read back during the run (a subtree
        // root's box reaches its parent through `roots`): all forks' copies happen at
        // once, on every thread, at the end.
        self.boxes.merge(worker.boxes);
        for (parent, own) in fork.roots {
            if let Some(parent) = parent
                && let Some(parent_box) = self.boxes.get_mut_at(parent)
            {
                *parent_box = parent_box.union(&own);
            }
        }
    }
}
