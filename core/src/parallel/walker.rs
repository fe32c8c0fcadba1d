//! The depth-first walk of a parallel run: the one loop that walks the nodes above the
//! split points with the action's chain and each task's subtrees with a worker chain.

use crate::actor::{ActiveEntry, ActiveList, ActorChain, Flow, ListState, Visit};
use crate::graph::{Graph, NodeIndex};
use crate::parallel::fork::WorkerChain;
use crate::parallel::subtree_sizes::Handoff;
use crate::run::RunStats;
use std::sync::atomic::{AtomicBool, Ordering};

/// How many nodes a walk enters between two reads of the stop flag: another walk's
/// `Stop` halts this one within that many nodes.
const STOP_EVERY: u32 = 64;

/// What every walk of one run shares: the stop flag.
pub(super) struct Control {
    pub(super) stop: AtomicBool,
}

/// What the walk above the split points leaves for after the merges, in post-order.
#[derive(Clone, Copy)]
pub(super) enum Deferred {
    /// The leave event of a node above.
    Leave(NodeIndex, u32),
    /// Subtree number `found` is complete (where a sequential run leaves its root).
    Done(usize),
}

/// A walk's buffers and counts.
#[derive(Default)]
pub(super) struct Walker {
    /// Nodes whose children come from their built active list, innermost last.
    frames: Vec<ListFrame>,
    /// The built active lists of `frames`, one region each.
    lists: Vec<ActiveEntry>,
    pub(super) stats: RunStats,
}

/// A node whose children are taken from its active list rather than its links.
#[derive(Clone, Copy)]
pub(super) struct ListFrame {
    owner: NodeIndex,
    /// Where the owner's list starts in `lists`.
    start: usize,
    /// The entry of the child being walked.
    cursor: usize,
}

impl Walker {
    /// Depth-first from each of `roots` (runs of sibling subtrees, with their depth)
    /// in turn, in document order, with `chain`. Returns false if the run was stopped
    /// (here or by another walk).
    #[allow(clippy::too_many_arguments)] // one private loop, called twice
    pub(super) fn walk<C: Calls>(
        &mut self,
        graph: &Graph,
        chain: &mut C,
        roots: &[(Handoff, u32)],
        leave_events: bool,
        control: &Control,
        split: impl Fn(NodeIndex, bool) -> Option<Handoff>,
        found: &mut Vec<(Handoff, u32)>,
        mut defer: Option<&mut Vec<Deferred>>,
    ) -> bool {
        roots.iter().all(|&(run, depth)| {
            chain.start_subtree();
            self.subtree(
                graph,
                chain,
                run,
                depth,
                leave_events,
                control,
                &split,
                found,
                defer.as_deref_mut(),
            )
        })
    }

    /// The subtrees of the siblings `run.first` to `run.last`, by their links like
    /// the depth-first iterator (no stack unless an actor built an active list):
    /// enter, go down to the first active child, else leave and go on to the next
    /// sibling or climb. Below the run's level, a node for which `split` gives a
    /// hand-off (told whether the walk reached it by the links) is not entered: the
    /// hand-off is pushed to `found` (with its depth) and the walk goes on after its
    /// last sibling; with `defer`, leave events (and the places of the subtrees
    /// handed off) also go there, to be replayed after the merges.
    #[allow(clippy::too_many_arguments)]
    fn subtree<C: Calls>(
        &mut self,
        graph: &Graph,
        chain: &mut C,
        run: Handoff,
        mut depth: u32,
        leave_events: bool,
        control: &Control,
        split: &impl Fn(NodeIndex, bool) -> Option<Handoff>,
        found: &mut Vec<(Handoff, u32)>,
        mut defer: Option<&mut Vec<Deferred>>,
    ) -> bool {
        self.frames.clear();
        self.lists.clear();
        let base = depth;
        let mut node = run.first;
        // Whether `node` was reached by the links (not from a built active list): only
        // then may a run of its siblings be handed off with it.
        let mut by_links = true;
        // The stop flag is read every `STOP_EVERY` nodes (and at each subtree's
        // first): once per node, its load was a visible part of the walk's cost.
        let mut until_check = 0u32;
        'enter: loop {
            if until_check == 0 {
                if control.stop.load(Ordering::Relaxed) {
                    return false;
                }
                until_check = STOP_EVERY;
            }
            until_check -= 1;
            let mut down = None;
            // Whether `node` was entered, so is left when done.
            let mut entered = false;
            let handoff = if depth != base {
                split(node, by_links)
            } else {
                None
            };
            if let Some(handoff) = handoff {
                found.push((handoff, depth));
                chain.split(found.len() - 1, handoff.first, depth, handoff.nodes);
                if let Some(deferred) = defer.as_deref_mut() {
                    deferred.push(Deferred::Done(found.len() - 1));
                }
                // Go on after the run's last sibling.
                node = handoff.last;
            } else if let Some(visit) = Visit::new(graph, node, depth) {
                entered = true;
                self.stats.entered += 1;
                let start = self.lists.len();
                let mut state = ListState::Untouched;
                let flow = chain.enter(
                    &visit,
                    &mut ActiveList::lazy(graph, node, depth + 1, &mut self.lists, &mut state),
                );
                match flow {
                    Flow::Stop => {
                        self.stats.stopped = true;
                        control.stop.store(true, Ordering::Relaxed);
                        return false;
                    }
                    Flow::Prune => self.stats.pruned += 1,
                    Flow::Continue => {}
                }
                match (flow, state) {
                    (Flow::Continue, ListState::Untouched) => {
                        down = graph.first_child_at(node);
                        by_links = true;
                    }
                    (Flow::Continue, ListState::Filled) => {
                        down = self.first_listed(node, start);
                        by_links = false;
                    }
                    _ => self.lists.truncate(start),
                }
            }
            if let Some(child) = down {
                node = child;
                depth += 1;
                continue;
            }
            // `node` is done: leave it, then its next active sibling, else climb. The
            // one call site of `leave` keeps it inlined, as in the depth-first
            // iterator's loop.
            loop {
                if entered && leave_events {
                    self.leave(graph, chain, defer.as_deref_mut(), node, depth);
                }
                entered = true;
                if depth == base {
                    // The run's level: its next sibling, up to its last.
                    if node == run.last {
                        return true;
                    }
                    match graph.next_sibling_at(node) {
                        Some(sibling) => {
                            node = sibling;
                            by_links = true;
                            continue 'enter;
                        }
                        None => return true,
                    }
                }
                // The parent is read only where it is needed: for a built list, or
                // to climb.
                let mut parent = None;
                let listed = match self.frames.last() {
                    Some(frame) => {
                        parent = graph.parent_at(node);
                        Some(frame.owner) == parent
                    }
                    None => false,
                };
                let next = if listed {
                    self.next_listed()
                } else {
                    graph.next_sibling_at(node)
                };
                if let Some(sibling) = next {
                    node = sibling;
                    by_links = !listed;
                    continue 'enter;
                }
                let Some(parent) = parent.or_else(|| graph.parent_at(node)) else {
                    return true;
                };
                node = parent;
                depth = depth.saturating_sub(1);
            }
        }
    }

    /// The leave event of `node`, a live node unless the graph changed under the run.
    #[inline(always)]
    fn leave<C: Calls>(
        &mut self,
        graph: &Graph,
        chain: &mut C,
        defer: Option<&mut Vec<Deferred>>,
        node: NodeIndex,
        depth: u32,
    ) {
        let Some(visit) = Visit::new(graph, node, depth) else {
            return;
        };
        match defer {
            Some(deferred) => deferred.push(Deferred::Leave(node, depth)),
            None => self.stats.left += 1,
        }
        chain.leave(&visit);
    }

    /// The first active entry of `node`'s list (built from `start`), pushing its
    /// frame; none (and the list dropped) if all were deactivated.
    fn first_listed(&mut self, node: NodeIndex, start: usize) -> Option<NodeIndex> {
        let first = self
            .lists
            .iter()
            .enumerate()
            .skip(start)
            .find(|(_, e)| e.is_active());
        match first {
            Some((i, entry)) => {
                let down = entry.node();
                self.frames.push(ListFrame {
                    owner: node,
                    start,
                    cursor: i,
                });
                Some(down)
            }
            None => {
                self.lists.truncate(start);
                None
            }
        }
    }

    /// The next active entry of the innermost frame's list; none (and the frame
    /// popped) at its end.
    fn next_listed(&mut self) -> Option<NodeIndex> {
        let frame = self.frames.last_mut()?;
        let next = self
            .lists
            .iter()
            .enumerate()
            .skip(frame.cursor + 1)
            .find(|(_, e)| e.is_active());
        match next {
            Some((i, entry)) => {
                frame.cursor = i;
                Some(entry.node())
            }
            None => {
                let start = frame.start;
                self.frames.pop();
                self.lists.truncate(start);
                None
            }
        }
    }
}

/// The action's own chain, for the walk above the split points.
pub(super) struct Main<'c, C>(pub(super) &'c mut C);

impl<C: ActorChain> Main<'_, C> {
    fn chain(&mut self) -> &mut C {
        self.0
    }
}

/// What a walk calls: a worker chain, or the action's own chain.
pub(super) trait Calls {
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    fn leave(&mut self, visit: &Visit<'_>);
    /// The walk handed hand-off number `found` (first root `node` at `depth`,
    /// `nodes` nodes) off instead of entering it.
    fn split(&mut self, _found: usize, _node: NodeIndex, _depth: u32, _nodes: u32) {}
    /// The walk starts its next root.
    fn start_subtree(&mut self) {}
}

impl<C: ActorChain> Calls for Main<'_, C> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.chain().enter(visit, active)
    }
    #[inline(always)]
    fn leave(&mut self, visit: &Visit<'_>) {
        self.chain().leave(visit);
    }
}

/// A worker chain, as a walk calls it.
pub(super) struct Worker<W>(pub(super) W);

impl<W: WorkerChain> Calls for Worker<W> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.0.enter(visit, active)
    }
    #[inline(always)]
    fn leave(&mut self, visit: &Visit<'_>) {
        self.0.leave(visit);
    }
    fn start_subtree(&mut self) {
        self.0.start_subtree();
    }
}
