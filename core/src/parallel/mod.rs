//! One traversal on all cores: the tree split into subtrees by size, each subtree a
//! task running a depth-first walk with its own worker chain.
//!
//! - this file: [`Action::run_parallel`], the split, the tasks and the merges;
//! - `walker.rs`: the one depth-first loop every part of the run walks with;
//! - `subtree_sizes.rs`: the sizes that decide where the tree is cut;
//! - `fork.rs`, `fork_ordered.rs`: how a chain is forked into workers and merged back;
//! - `chain.rs`: [`ParallelChain`], the sealed public name of a chain that forks.

use crate::actor::{ActiveList, Flow, RunContext, Visit};
use crate::error::TraversalError;
use crate::graph::{Graph, NodeId, NodeIndex};
use crate::run::{Action, RunStats, TraversalIterator};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

mod chain;
mod fork;
mod fork_ordered;
mod subtree_sizes;
#[cfg(test)]
mod tests;
mod walker;

pub use chain::ParallelChain;
pub use fork::{PARALLEL, check_parallel};
pub(crate) use subtree_sizes::SubtreeSizes;

use fork::AboveChain;
use subtree_sizes::Handoff;
use walker::{Calls, Control, Deferred, Main, Walker, Worker};

fn add(total: &mut RunStats, part: &RunStats) {
    total.entered += part.entered;
    total.left += part.left;
    total.pruned += part.pruned;
    total.stopped |= part.stopped;
}

impl<I: TraversalIterator, C: ParallelChain> Action<I, C> {
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
    /// are walked on the calling thread in one piece, and so is every tree when the
    /// pool has a single thread (no fork is made then, so an ordered actor whose
    /// `fork` would decline this run is not refused).
    ///
    /// The action's iterator takes no part: the run is depth-first, whatever it is.
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
        let root = NodeIndex(graph.check(root)?);
        self.actors.check_parallel()?;
        let run = RunContext {
            graph,
            root,
            capabilities: PARALLEL,
            results,
        };
        let control = Control {
            stop: AtomicBool::new(false),
        };
        let mut stats = RunStats::default();
        let outcome = self
            .actors
            .begin(&run)
            .and_then(|()| self.walk_parallel(graph, root, &control, &mut stats));
        stats.chain_calls = stats.entered;
        self.actors.end(&mut stats);
        self.stats = stats;
        outcome.map(|()| stats)
    }

    fn walk_parallel(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        control: &Control,
        stats: &mut RunStats,
    ) -> Result<(), TraversalError> {
        let leave_events = self.leave_events;
        let mut top = Walker::default();
        let mut subtrees = Vec::new();
        // One thread gains nothing from the split and pays its forks and merges (the
        // ordered update pass ran at 0.52-0.74x): walk the tree in one piece. The
        // results are the same, as a split run's equal the sequential run's.
        let one_thread = rayon::current_num_threads() < 2;
        if !one_thread {
            self.subtrees.refresh(graph, root);
        }
        if one_thread || !self.subtrees.splittable {
            top.walk(
                graph,
                &mut Main(&mut self.actors),
                &[(
                    Handoff {
                        first: root,
                        last: root,
                        nodes: 0,
                    },
                    0,
                )],
                leave_events,
                control,
                |_, _| None,
                &mut subtrees,
                None,
            );
            add(stats, &top.stats);
            return Ok(());
        }
        let sizes = &self.subtrees;
        // Above the split points: static and unordered actors take one worker per
        // stretch of nodes between two subtrees, so that merging stretches and
        // subtrees alternately gives them their nodes in document order; ordered
        // actors walk these nodes themselves and fork at each split point. Leaves
        // wait until all is merged.
        let mut deferred = Vec::new();
        let (going, tasks, order, top_part) = {
            let mut above = Segments::<C> {
                above: self.actors.above(),
                sizes,
                stretch_open: false,
                task_open: false,
                nodes: 0,
                last_depth: None,
                tasks: Vec::new(),
                order: Vec::new(),
            };
            let going = top.walk(
                graph,
                &mut above,
                &[(
                    Handoff {
                        first: root,
                        last: root,
                        nodes: 0,
                    },
                    0,
                )],
                leave_events,
                control,
                |n, by_links| sizes.handoff(n, by_links),
                &mut subtrees,
                Some(&mut deferred),
            );
            (
                going,
                above.tasks,
                above.order,
                C::finish_above(above.above),
            )
        };
        add(stats, &top.stats);
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
                    let mut walker = Walker::default();
                    let mut worker = Worker(worker);
                    let mut none = Vec::new();
                    let roots = subtrees.get(task).unwrap_or_default();
                    walker.walk(
                        graph,
                        &mut worker,
                        roots,
                        leave_events,
                        control,
                        |_, _| None,
                        &mut none,
                        None,
                    );
                    Some((C::finish(worker.0), walker.stats))
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
        let stopped = control.stop.load(Ordering::Relaxed);
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

/// The walk above the split points: marks where stretches and subtrees alternate,
/// and groups consecutive subtrees with no node above entered between them, about
/// `target` nodes together, into tasks.
struct Segments<'a, C: ParallelChain + 'a> {
    above: C::Above<'a>,
    sizes: &'a crate::parallel::SubtreeSizes,
    stretch_open: bool,
    task_open: bool,
    /// Nodes in the open task.
    nodes: u32,
    /// The depth of the last subtree handed off, while no node above was entered.
    last_depth: Option<u32>,
    tasks: Vec<std::ops::Range<usize>>,
    order: Vec<Piece>,
}

impl<C: ParallelChain> Calls for Segments<'_, C> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if !self.stretch_open {
            self.stretch_open = true;
            self.task_open = false;
            self.order.push(Piece::Above);
        }
        self.last_depth = None;
        self.above.enter(visit, active)
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        // The event is deferred; actors note what its replay needs.
        self.above.leave(visit);
    }
    fn split(&mut self, found: usize, _node: NodeIndex, depth: u32, nodes: u32) {
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
        self.nodes = self.nodes.saturating_add(nodes);
        // Two subtrees handed off at one depth with no node entered between them are
        // siblings (the walk cannot climb and come down again without entering a
        // node), so no node above is left between them either: in one task, they
        // start from the same state and an ordered actor may give them one fork.
        let fresh = new_task || self.last_depth != Some(depth);
        self.last_depth = Some(depth);
        self.above.split(found, depth, fresh);
    }
}
