//! One traversal on all cores: the tree split into subtrees by size, each subtree a
//! task running a depth-first walk with its own worker chain.
//!
//! - this file: [`Action::run_parallel`], the split, the tasks and the merges; every
//!   part of the run walks with `DepthFirst`'s one loop, into the sinks here;
//! - `subtree_sizes.rs`: the sizes that decide where the tree is cut;
//! - `fork.rs`, `fork_ordered.rs`: how a chain is forked into workers and merged back;
//! - `chain.rs`: [`ParallelChain`], the sealed public name of a chain that forks.

use crate::actor::{ActiveList, Flow, Frame, RunContext, Visit};
use crate::error::TraversalError;
use crate::graph::{Graph, NodeId, NodeIndex};
use crate::run::depth_first::Handoffs;
use crate::run::{Action, DepthFirst, RunStats, StepSink};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

mod chain;
mod fork;
mod fork_ordered;
mod subtree_sizes;
#[cfg(test)]
mod tests;

pub use chain::ParallelChain;
pub use fork::{PARALLEL, check_parallel};
pub(crate) use subtree_sizes::SubtreeSizes;

use fork::{AboveChain, WorkerChain};
use subtree_sizes::Handoff;

/// How many nodes a task enters between two reads of the stop flag: another walk's
/// `Stop` halts this one within that many nodes.
const STOP_EVERY: u32 = 64;

/// What the walk above the split points leaves for after the merges, in post-order.
#[derive(Clone, Copy)]
enum Deferred {
    /// The leave event of a node above.
    Leave(NodeIndex, u32),
    /// Subtree number `found` is complete (where a sequential run leaves its root).
    Done(usize),
}

fn add(total: &mut RunStats, part: &RunStats) {
    total.entered += part.entered;
    total.left += part.left;
    total.pruned += part.pruned;
    total.stopped |= part.stopped;
}

impl<C: ParallelChain> Action<DepthFirst, C> {
    /// Checks that every actor can take part in a parallel run
    /// ([`check_parallel`](crate::check_parallel)), naming the first that cannot.
    pub fn check_parallel(&self) -> Result<(), crate::error::ActionError> {
        self.actors.check_parallel()
    }

    /// Traverses the tree under `root` on all threads of the current rayon pool (run
    /// it inside [`rayon::ThreadPool::install`] to choose them), with the results of
    /// a sequential depth-first run.
    ///
    /// The tree is split by **subtree size**: the subtree sizes (counted once per
    /// structure, kept while [`Graph::revision`] is unchanged) say which subtrees hold
    /// at most `max(nodes / 64, 512)` nodes (a fixed number of pieces, so the split
    /// does not depend on the thread count). The nodes above them are walked first,
    /// on the calling thread, so their [`Flow`] decides which subtrees exist (a
    /// `Prune` or a deactivated child above removes every subtree below it).
    /// Consecutive small siblings whose parent's children are taken by the links are
    /// handed off together (one run of at most that many nodes, so a node with
    /// thousands of small children costs the walk above a few hand-offs). The
    /// subtrees left are grouped, in document order, into tasks of about that many
    /// nodes; each task walks its subtrees depth-first with its own worker chain:
    /// static actors are shared, unordered actors are
    /// [forked](crate::UnorderedActor::fork) per task, ordered actors per subtree
    /// ([`OrderedActor::fork`](crate::OrderedActor::fork)), each fork starting from
    /// the state at its subtree's root, which the walk above computed on its way
    /// down (ordered actors walk the nodes above themselves, keeping their states).
    /// Unordered workers (one per task, and one per stretch of nodes above the split
    /// points) are then [merged](crate::UnorderedActor::merge) back one by one in
    /// document order, so an actor that appends to a list gets the sequential enter
    /// order. Last, the leave events of the nodes above are replayed in post-order
    /// (an ordered actor gets the state the node had), and each ordered fork is
    /// [merged](crate::OrderedActor::merge) where a sequential run would have left its
    /// subtree's root, so a result that flows up (a subtree's box) reaches the nodes
    /// above before their leaves. The results do not depend on the number of threads,
    /// and equal the sequential run's for actors whose merge is exact. Trees under
    /// 4096 nodes, or that do not split into a few independent subtrees (a chain),
    /// run as [`run_with`](Action::run_with) runs them, on the calling thread, and so
    /// is every tree when the pool has a single thread: no fork is made then.
    ///
    /// Only a depth-first action runs in parallel: the split is depth-first's.
    /// [`Flow::Prune`] and deactivated children act as in a sequential run (above the
    /// split points they remove the subtrees below). [`Flow::Stop`] sets a flag every
    /// worker checks every 64 nodes (and before each subtree), so all of them stop
    /// promptly; the run reports
    /// `stopped` (which nodes were entered before it then depends on timing), what
    /// the workers did is merged, and no leaves of the nodes above are replayed.
    /// `chain_calls` equals `entered`; `state_copies` is the sequential run's.
    ///
    /// Errors: a stale `root`; an actor refused for parallel runs
    /// ([`TraversalError::Incompatible`], naming it: an unordered or ordered actor
    /// without a fork/merge hook, or whose fork declined this run).
    ///
    /// ```
    /// use scenewalk_core::{Action, ActiveList, DepthFirst, Flow, Graph, Unordered, UnorderedActor, Visit};
    /// # #[derive(Clone, Debug)] struct Group;
    /// # impl scenewalk_core::NodeCore for Group {}
    /// #[derive(Default)]
    /// struct Count(u64);
    /// impl UnorderedActor for Count {
    ///     fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
    ///         self.0 += 1;
    ///         Flow::Continue
    ///     }
    ///     fn fork(&self) -> Option<Self> { Some(Count(0)) }
    ///     fn merge(&mut self, worker: Self) { self.0 += worker.0; }
    /// }
    ///
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Group);
    /// for _ in 0..100 {
    ///     let child = graph.append_child(root, Group)?;
    ///     for _ in 0..99 { graph.append_child(child, Group)?; }
    /// }
    /// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Count::default()),))?;
    /// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build()?;
    /// let stats = pool.install(|| action.run_parallel(&graph, root))?;
    /// assert_eq!((stats.entered, action.actor::<Count>().unwrap().0), (10_001, 10_001));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
        // One thread gains nothing from a split and would pay its forks and merges;
        // a tree too small or without independent subtrees would not split: both run
        // as the sequential run does, the same code.
        if rayon::current_num_threads() < 2 {
            return self.run_with(graph, root, results);
        }
        self.subtrees.refresh(graph, index);
        if !self.subtrees.splittable {
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
        let sizes = &self.subtrees;
        // Above the split points: static and unordered actors take one worker per
        // stretch of nodes between two subtrees, so that merging stretches and
        // subtrees alternately gives them their nodes in document order; ordered
        // actors walk these nodes themselves and fork at each split point. Leaves
        // wait until all is merged.
        let (going, subtrees, tasks, order, deferred, top_part) = {
            let mut above = Above::<C> {
                graph,
                chain: self.actors.above(),
                sizes,
                stop,
                stats: RunStats::default(),
                found: Vec::new(),
                deferred: Vec::new(),
                stretch_open: false,
                task_open: false,
                nodes: 0,
                last_depth: None,
                tasks: Vec::new(),
                order: Vec::new(),
            };
            let going = DepthFirst::new().walk(graph, &mut above, root, root, 0, leave_events);
            add(stats, &above.stats);
            (
                going,
                above.found,
                above.tasks,
                above.order,
                above.deferred,
                C::finish_above(above.chain),
            )
        };
        let mut top_part = top_part?;
        let mut parts: Vec<Option<(C::Part, RunStats)>> = Vec::new();
        if going {
            let workers = tasks
                .iter()
                .map(|task| self.actors.fork(&mut top_part, task.clone()))
                .collect::<Result<Vec<_>, _>>()?;
            parts = tasks
                .into_par_iter()
                .zip(workers)
                .map(|(task, worker)| {
                    let mut sink = Task {
                        graph,
                        chain: worker,
                        stop,
                        stats: RunStats::default(),
                        until_check: 0,
                    };
                    let mut walk = DepthFirst::new();
                    for &(run, depth) in subtrees.get(task).unwrap_or_default() {
                        sink.chain.start_subtree();
                        sink.until_check = 0;
                        if !walk.walk(graph, &mut sink, run.first, run.last, depth, leave_events) {
                            break;
                        }
                    }
                    Some((C::finish(sink.chain), sink.stats))
                })
                .collect();
        }
        for piece in order {
            match piece {
                Piece::Above => self.actors.merge_above(&mut top_part),
                Piece::Subtree(task) => {
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
        for event in deferred {
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
        Ok(())
    }
}

/// One piece of a split run, in document order.
enum Piece {
    /// A stretch of nodes above the split points.
    Above,
    /// A task: consecutive subtrees (by their numbers in the walk's `found`).
    Subtree(usize),
}

/// The walk above the split points, as the depth-first loop's sink: the action's own
/// chain (through the fork glue), the leaves deferred until the subtrees are merged;
/// and where to hand subtrees off: it marks where stretches and subtrees alternate,
/// and groups consecutive subtrees with no node above entered between them, about
/// `target` nodes together, into tasks.
struct Above<'a, C: ParallelChain + 'a> {
    graph: &'a Graph,
    chain: C::Above<'a>,
    sizes: &'a crate::parallel::SubtreeSizes,
    stop: &'a AtomicBool,
    stats: RunStats,
    /// The hand-offs, in document order, with their depth.
    found: Vec<(Handoff, u32)>,
    deferred: Vec<Deferred>,
    stretch_open: bool,
    task_open: bool,
    /// Nodes in the open task.
    nodes: u32,
    /// The depth of the last subtree handed off, while no node above was entered.
    last_depth: Option<u32>,
    tasks: Vec<std::ops::Range<usize>>,
    order: Vec<Piece>,
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
        let Some(visit) = Visit::new(self.graph, node, depth) else {
            return Flow::Prune;
        };
        if !self.stretch_open {
            self.stretch_open = true;
            self.task_open = false;
            self.order.push(Piece::Above);
        }
        self.last_depth = None;
        self.stats.entered += 1;
        let flow = self.chain.enter(&visit, active);
        count(&mut self.stats, flow, self.stop);
        flow
    }

    fn leave(&mut self, node: NodeIndex, depth: u32, _: Frame) {
        if let Some(visit) = Visit::new(self.graph, node, depth) {
            // The event is deferred; actors note what its replay needs.
            self.deferred.push(Deferred::Leave(node, depth));
            self.chain.leave(&visit);
        }
    }

    fn save_frame(&mut self) -> Frame {
        Frame::ROOT
    }
    fn hold_frame(&mut self, _: Frame, _: u32) {}
    fn batch(&mut self, _: u32, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

impl<C: ParallelChain> Handoffs for Above<'_, C> {
    fn handoff(&mut self, node: NodeIndex, depth: u32, by_links: bool) -> Option<NodeIndex> {
        let handoff = self.sizes.handoff(node, by_links)?;
        self.found.push((handoff, depth));
        let found = self.found.len() - 1;
        self.deferred.push(Deferred::Done(found));
        self.stretch_open = false;
        let target = self.sizes.target;
        let new_task = match self.tasks.last_mut() {
            Some(task) if self.task_open && self.nodes < target => {
                task.end = found + 1;
                false
            }
            _ => {
                self.tasks.push(found..found + 1);
                self.order.push(Piece::Subtree(self.tasks.len() - 1));
                self.nodes = 0;
                self.task_open = true;
                true
            }
        };
        self.nodes = self.nodes.saturating_add(handoff.nodes);
        // Two subtrees handed off at one depth with no node entered between them are
        // siblings (the walk cannot climb and come down again without entering a
        // node), so no node above is left between them either: in one task, they
        // start from the same state and an ordered actor may give them one fork.
        let fresh = new_task || self.last_depth != Some(depth);
        self.last_depth = Some(depth);
        self.chain.split(found, depth, fresh);
        Some(handoff.last)
    }
}

/// A task's walk of its subtrees, as the depth-first loop's sink: its worker chain,
/// the stop flag read every [`STOP_EVERY`] nodes (and at each subtree's first).
struct Task<'a, W> {
    graph: &'a Graph,
    chain: W,
    stop: &'a AtomicBool,
    stats: RunStats,
    until_check: u32,
}

impl<W: WorkerChain> StepSink for Task<'_, W> {
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
        let Some(visit) = Visit::new(self.graph, node, depth) else {
            return Flow::Prune;
        };
        self.stats.entered += 1;
        let flow = self.chain.enter(&visit, active);
        count(&mut self.stats, flow, self.stop);
        flow
    }

    #[inline(always)]
    fn leave(&mut self, node: NodeIndex, depth: u32, _: Frame) {
        if let Some(visit) = Visit::new(self.graph, node, depth) {
            self.stats.left += 1;
            self.chain.leave(&visit);
        }
    }

    fn save_frame(&mut self) -> Frame {
        Frame::ROOT
    }
    fn hold_frame(&mut self, _: Frame, _: u32) {}
    fn batch(&mut self, _: u32, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

impl<W> Handoffs for Task<'_, W> {
    #[inline(always)]
    fn handoff(&mut self, _node: NodeIndex, _depth: u32, _by_links: bool) -> Option<NodeIndex> {
        None
    }
}

/// Counts an entered node's flow; a `Stop` halts every walk of the run.
#[inline(always)]
fn count(stats: &mut RunStats, flow: Flow, stop: &AtomicBool) {
    match flow {
        Flow::Continue => {}
        Flow::Prune => stats.pruned += 1,
        Flow::Stop => {
            stats.stopped = true;
            stop.store(true, Ordering::Relaxed);
        }
    }
}
