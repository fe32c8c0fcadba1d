//! One traversal on all cores ([`Action::run_parallel`]): the tree split into subtrees
//! by size (`subtree_sizes.rs`), each task walking its subtrees with `DepthFirst`'s loop
//! and its own worker chain (`fork.rs`, `fork_ordered.rs`).

use crate::action::{Action, DepthFirst, StepSink};
use crate::actor::{ActiveList, Flow, Frame, Visit};
use crate::error::TraversalError;
use crate::graph::{Graph, NodeId, NodeIndex};
use crate::invariant::Invariant;
use crate::run::{RunContext, RunStats};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

mod fork;
mod fork_ordered;
mod subtree_sizes;
#[cfg(test)]
mod tests;

pub(crate) use fork::PARALLEL;
pub use fork::ParallelChain;
pub(crate) use subtree_sizes::SubtreeSizes;

use fork::Share;
use subtree_sizes::Handoff;

/// How many nodes a task enters between two reads of the stop flag.
const STOP_EVERY: u32 = 64;

/// What the walk above the split points leaves for after the merges, in post-order:
/// the leave of a node above, or subtree number `found` done (where a sequential run
/// leaves its root).
#[derive(Clone, Copy, Debug)]
enum Deferred {
    Leave(NodeIndex, u32),
    Done(usize),
}

fn add(total: &mut RunStats, part: &RunStats) {
    total.entered += part.entered;
    total.left += part.left;
    total.pruned += part.pruned;
    total.stopped |= part.stopped;
}

impl<C: ParallelChain> Action<DepthFirst, C> {
    /// Checks that every actor can take part in a parallel run (static actors always,
    /// unordered and ordered ones with a fork/merge hook), naming the first that cannot.
    pub fn check_parallel(&self) -> Result<(), crate::error::ActionError> {
        self.actors.check_parallel()
    }

    /// Traverses the tree under `root` on all threads of the current rayon pool (choose
    /// them with [`rayon::ThreadPool::install`]), with the results of a sequential
    /// depth-first run for actors whose merge is exact, whatever the thread count.
    ///
    /// The tree is cut by subtree size (kept while [`Graph::revision`] is unchanged)
    /// into subtrees of at most `max(nodes / 64, 512)` nodes. The nodes above them are
    /// walked first, on the calling thread, so their [`Flow`] decides which subtrees
    /// exist. Tasks of consecutive subtrees are walked by worker chains: static actors
    /// shared, unordered actors [forked](crate::UnorderedActor::fork) per task (and per
    /// stretch of nodes above), ordered actors per subtree
    /// ([`OrderedActor::fork`](crate::OrderedActor::fork)). Unordered workers merge back
    /// in document order; then the leaves of the nodes above are replayed in
    /// post-order, each ordered fork merged where a sequential run would have left its
    /// subtree's root. A tree under 4096 nodes, one without a few independent subtrees
    /// (a chain), one whose records are far from depth-first order (more than one
    /// pre-order step in eight to a slot other than the next; [`Graph::compact`]
    /// restores the order), and every tree in a one-thread pool run as
    /// [`run_with`](Action::run_with) runs them.
    ///
    /// [`Flow::Stop`] sets a flag every worker checks every 64 nodes and before each
    /// subtree: the run reports `stopped` (which nodes were entered depends on timing),
    /// merges what the workers did and replays no leaves above. `chain_calls` equals
    /// `entered`; `state_copies` is the sequential run's.
    ///
    /// Errors: a stale `root`; an actor refused for parallel runs
    /// ([`TraversalError::Incompatible`], naming it: an unordered or ordered actor
    /// without a fork/merge hook, or whose fork declined this run).
    pub fn run_parallel(
        &mut self,
        graph: &Graph,
        root: NodeId,
    ) -> Result<RunStats, TraversalError> {
        self.run_parallel_with(graph, root, &crate::run::NO_RESULTS)
    }

    /// [`run_parallel`](Action::run_parallel), handing `results` of earlier passes to
    /// the actors that read them, as [`run_with`](Action::run_with) does.
    pub fn run_parallel_with(
        &mut self,
        graph: &Graph,
        root: NodeId,
        results: &crate::run::Results,
    ) -> Result<RunStats, TraversalError> {
        let index = NodeIndex(graph.check(root)?);
        self.actors.check_parallel()?;
        if rayon::current_num_threads() < 2 || !self.subtrees.refresh(graph, index) {
            return self.run_with(graph, root, results);
        }
        let run = RunContext {
            graph,
            root: index,
            capabilities: PARALLEL,
            results,
        };
        let stop = AtomicBool::new(false);
        let mut stats = RunStats::default();
        let outcome = self
            .actors
            .begin(&run)
            .and_then(|()| self.walk_parallel(graph, index, &stop, &mut stats));
        stats.chain_calls = stats.entered;
        self.actors.end(&mut stats);
        self.stats = stats;
        outcome.map(|()| stats)
    }

    fn walk_parallel(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        stop: &AtomicBool,
        stats: &mut RunStats,
    ) -> Result<(), TraversalError> {
        let leave_events = self.leave_events;
        // Above the split points: the walk hands subtrees off and defers the leaves.
        let plan = std::mem::take(&mut self.subtrees.spare).emptied();
        let (going, mut plan, top_part) = {
            let mut above = Above::<C> {
                graph,
                chain: self.actors.above(),
                sizes: &self.subtrees,
                stop,
                plan,
            };
            let going = DepthFirst::new().drive_subtree(
                graph,
                &mut above,
                Above::handoff,
                (root, root),
                0,
                leave_events,
            );
            (going, above.plan, C::finish_above(above.chain))
        };
        add(stats, &plan.stats);
        let mut top_part = top_part?;
        let mut parts: Vec<Option<(C::Part, RunStats)>> = Vec::new();
        if going {
            stats.tasks = plan.tasks.len() as u64;
            let workers = plan
                .tasks
                .iter()
                .map(|task| self.actors.fork(&mut top_part, task.clone()))
                .collect::<Result<Vec<_>, _>>()?;
            parts = plan
                .tasks
                .par_iter()
                .cloned()
                .zip(workers)
                .map(|(task, worker)| {
                    let mut sink = Task {
                        graph,
                        chain: worker,
                        stop,
                        stats: RunStats::default(),
                        until_check: 0,
                    };
                    let mut depth_first = DepthFirst::new();
                    let none = |_: &mut Task<'_, _>, _, _, _| None;
                    for &(run, depth) in plan.found.get(task).invariant("subtrees") {
                        sink.chain.start_subtree();
                        sink.until_check = 0;
                        let siblings = (run.first, run.last);
                        if !depth_first.drive_subtree(
                            graph,
                            &mut sink,
                            none,
                            siblings,
                            depth,
                            leave_events,
                        ) {
                            break;
                        }
                    }
                    Some((C::finish(sink.chain), sink.stats))
                })
                .collect();
        }
        for piece in plan.order.drain(..) {
            match piece {
                None => self.actors.merge_above(&mut top_part),
                Some(task) => {
                    if let Some((part, part_stats)) = parts.get_mut(task).and_then(Option::take) {
                        self.actors.merge(&mut top_part, part);
                        add(stats, &part_stats);
                    }
                }
            }
        }
        // Ordered actors take their subtrees back where a sequential run would have
        // left the subtree roots, between the leaves of the nodes above; a stopped
        // run still merges what its workers did, but replays no leaves.
        let stopped = stop.load(Ordering::Relaxed);
        for event in plan.deferred.drain(..) {
            match event {
                Deferred::Done(found) => self.actors.subtree_done(&mut top_part, found),
                Deferred::Leave(..) if stopped => {}
                Deferred::Leave(node, depth) => {
                    if let Some(visit) = Visit::new(graph, node, depth) {
                        stats.left += 1;
                        self.actors.leave_above(&mut top_part, &visit);
                    }
                }
            }
        }
        self.actors.recycle(top_part);
        self.subtrees.spare = plan;
        Ok(())
    }
}

/// The walk above the split points, as the depth-first loop's sink: it defers the
/// leaves, hands subtrees off and groups them into tasks of about `target` nodes.
struct Above<'a, C: ParallelChain + 'a> {
    graph: &'a Graph,
    chain: C::Above<'a>,
    sizes: &'a SubtreeSizes,
    stop: &'a AtomicBool,
    plan: Plan,
}

/// What the walk above the split points found, in document order; its buffers are
/// kept between runs ([`SubtreeSizes`]), so a chain above the split points costs no
/// allocation per node.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    stats: RunStats,
    /// The hand-offs with their depth.
    found: Vec<(Handoff, u32)>,
    deferred: Vec<Deferred>,
    /// Whether a node above was entered since the last hand-off (the walk starts at
    /// the root, above every split point): the next hand-off starts a task.
    stretch_open: bool,
    /// Nodes in the open task.
    nodes: u32,
    /// The depth of the last subtree handed off, while no node above was entered.
    last_depth: Option<u32>,
    tasks: Vec<std::ops::Range<usize>>,
    /// The pieces of the run in document order: a stretch of nodes above the split
    /// points (`None`), or a task (its number in `tasks`).
    order: Vec<Option<usize>>,
}

impl Plan {
    /// An empty plan in this one's buffers.
    fn emptied(mut self) -> Self {
        self.found.clear();
        self.deferred.clear();
        self.tasks.clear();
        self.order.clear();
        let (found, deferred, tasks, order) = (self.found, self.deferred, self.tasks, self.order);
        Self {
            found,
            deferred,
            tasks,
            order,
            ..Self::default()
        }
    }
}

impl<C: ParallelChain> StepSink for Above<'_, C> {
    #[inline(always)]
    fn enter(
        &mut self,
        node: NodeIndex,
        depth: u32,
        _: Frame,
        active: &mut ActiveList<'_>,
    ) -> Flow {
        if !self.plan.stretch_open {
            self.plan.stretch_open = true;
            self.plan.order.push(None);
        }
        self.plan.last_depth = None;
        let (chain, stats) = (&mut self.chain, &mut self.plan.stats);
        enter(self.graph, chain, (node, depth), active, stats, self.stop)
    }

    fn leave(&mut self, node: NodeIndex, depth: u32, _: Frame) {
        if let Some(visit) = Visit::new(self.graph, node, depth) {
            self.plan.deferred.push(Deferred::Leave(node, depth));
            self.chain.note_leave(&visit);
        }
    }
}

impl<C: ParallelChain> Above<'_, C> {
    /// Hands off `node`'s subtree (and a run of its next siblings, `by_links`) if it is
    /// small enough; returns the run's last node.
    fn handoff(&mut self, node: NodeIndex, depth: u32, by_links: bool) -> Option<NodeIndex> {
        let handoff = self.sizes.handoff(node, by_links)?;
        self.plan.found.push((handoff, depth));
        let found = self.plan.found.len() - 1;
        self.plan.deferred.push(Deferred::Done(found));
        let target = self.sizes.target;
        let new_task = match self.plan.tasks.last_mut() {
            Some(task) if !self.plan.stretch_open && self.plan.nodes < target => {
                task.end = found + 1;
                false
            }
            _ => {
                self.plan.tasks.push(found..found + 1);
                self.plan.order.push(Some(self.plan.tasks.len() - 1));
                self.plan.nodes = 0;
                true
            }
        };
        self.plan.stretch_open = false;
        self.plan.nodes = self.plan.nodes.saturating_add(handoff.nodes);
        // Two subtrees handed off at one depth with no node entered between them are
        // siblings with no node above left between them: they start from one state.
        let fresh = new_task || self.plan.last_depth != Some(depth);
        self.plan.last_depth = Some(depth);
        self.chain.split(found, depth, fresh);
        Some(handoff.last)
    }
}

/// A task's walk of its subtrees, as the depth-first loop's sink.
struct Task<'a, W> {
    graph: &'a Graph,
    chain: W,
    stop: &'a AtomicBool,
    stats: RunStats,
    until_check: u32,
}

impl<W: Share> StepSink for Task<'_, W> {
    #[inline(always)]
    fn enter(
        &mut self,
        node: NodeIndex,
        depth: u32,
        _: Frame,
        active: &mut ActiveList<'_>,
    ) -> Flow {
        if self.until_check == 0 {
            if self.stop.load(Ordering::Relaxed) {
                return Flow::Stop;
            }
            self.until_check = STOP_EVERY;
        }
        self.until_check -= 1;
        let (chain, stats) = (&mut self.chain, &mut self.stats);
        enter(self.graph, chain, (node, depth), active, stats, self.stop)
    }

    #[inline(always)]
    fn leave(&mut self, node: NodeIndex, depth: u32, _: Frame) {
        if let Some(visit) = Visit::new(self.graph, node, depth) {
            self.stats.left += 1;
            self.chain.leave(&visit);
        }
    }
}

/// Enters a node with `chain` and counts it; a `Stop` halts every walk of the run.
#[inline(always)]
fn enter<W: Share>(
    graph: &Graph,
    chain: &mut W,
    (node, depth): (NodeIndex, u32),
    active: &mut ActiveList<'_>,
    stats: &mut RunStats,
    stop: &AtomicBool,
) -> Flow {
    let Some(visit) = Visit::new(graph, node, depth) else {
        return Flow::Prune; // not a live node
    };
    let flow = chain.enter(&visit, active);
    stats.count(1, flow);
    if flow == Flow::Stop {
        stop.store(true, Ordering::Relaxed);
    }
    flow
}
