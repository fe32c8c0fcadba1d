//! Parallel runs: a worker's table records its writes to a window of slots (its
//! subtrees' range, in a graph built or compacted depth-first) instead of keeping a
//! table the size of the arena; the merge copies the windows into the run's table,
//! one by one or, deferred, all at once on every thread of the pool.

use super::PerNode;
use rayon::prelude::*;
use scenewalk_core::NodeIndex;
use std::sync::Mutex;

/// Buffers kept from one parallel run's workers for the next run's: taken by a fork
/// (which sees its parent only by `&`, hence the lock, held only to pop), given back
/// by the merge. A clone starts with none.
#[derive(Debug)]
pub(crate) struct Spares<V>(Mutex<Vec<V>>);

impl<V> Default for Spares<V> {
    fn default() -> Self {
        Self(Mutex::new(Vec::new()))
    }
}

impl<V> Clone for Spares<V> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<V> Spares<V> {
    /// A spare buffer, if one is left (and the lock is not poisoned).
    pub(crate) fn take(&self) -> Option<V> {
        self.0.lock().ok()?.pop()
    }

    /// Keeps `buffer` for a later fork.
    pub(crate) fn give(&mut self, buffer: V) {
        if let Ok(spares) = self.0.get_mut() {
            spares.push(buffer);
        }
    }
}

/// A fork's writes to a contiguous range of slots: a subtree of a graph built or
/// compacted depth-first is one such range, so the merge copies it in one pass
/// instead of replaying a write per node.
#[derive(Clone, Debug)]
pub(super) struct Window<T> {
    /// The slot of `values[0]` (the fork's first write).
    first: usize,
    values: Vec<T>,
    written: Vec<bool>,
}

/// A fork merged by [`PerNode::merge_deferred`]: its writes (values already mapped),
/// waiting for [`PerNode::finish_merges`].
#[derive(Clone, Debug)]
pub(super) struct Pending<T> {
    log: Vec<(NodeIndex, T)>,
    window: Window<T>,
}

impl<T: Copy> Window<T> {
    pub(super) fn new() -> Self {
        Self {
            first: 0,
            values: Vec::new(),
            written: Vec::new(),
        }
    }

    /// How far past its end a write may grow the window (in slots, beyond its
    /// length): farther writes go to the log, so a fork of a scattered arena keeps
    /// memory in proportion to what it wrote.
    const SLACK: usize = 4096;

    /// Writes slot `slot` if it falls in (or just past) the window; `false` if the
    /// write belongs in the log.
    #[inline]
    fn set(&mut self, slot: usize, value: T) -> bool {
        if self.values.is_empty() {
            self.first = slot;
        }
        let Some(at) = slot.checked_sub(self.first) else {
            return false;
        };
        if let (Some(v), Some(w)) = (self.values.get_mut(at), self.written.get_mut(at)) {
            *v = value;
            *w = true;
            return true;
        }
        let len = self.values.len();
        if at == len {
            self.values.push(value);
            self.written.push(true);
            return true;
        }
        if at > 2 * len + Self::SLACK {
            return false;
        }
        // A gap (nodes the fork did not reach): the fill is never read, as
        // `written` says the slot was not written.
        self.values.resize(at + 1, value);
        self.written.resize(at, false);
        self.written.push(true);
        true
    }

    /// The slots the window covers.
    fn slots(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.values.len()
    }

    /// Copies the written entries into `values` and `written` (this window's slots
    /// of a table), stamping them with `run`.
    fn copy_into(&self, values: &mut [T], written: &mut [u32], run: u32) {
        let writes = self.values.iter().zip(&self.written);
        for ((v, w), (&value, &wrote)) in values.iter_mut().zip(written).zip(writes) {
            if wrote {
                *v = value;
                *w = run;
            }
        }
    }

    fn clear(&mut self) {
        self.values.clear();
        self.written.clear();
    }
}

impl<T: Copy> PerNode<T> {
    /// [`set`](Self::set) in a fork: into the window, else (far from it) the log.
    /// Kept out of line so that `set` stays small enough to inline in sequential
    /// runs.
    #[inline(never)]
    pub(super) fn set_forked(&mut self, node: NodeIndex, value: T) {
        if !self.window.set(node.get(), value) {
            self.log.push((node, value));
        }
    }

    /// Forgets the deferred merges (a new run starts), keeping their buffers.
    pub(super) fn drop_pending(&mut self) {
        for mut pending in std::mem::take(&mut self.pending) {
            pending.window.clear();
            self.spare.give(pending.window);
        }
    }

    /// Writes `window` into this table, per slot if it does not fit (a fork of
    /// another graph), and keeps its buffer.
    fn apply(&mut self, mut window: Window<T>) {
        let slots = window.slots();
        let run = self.run;
        if let (Some(values), Some(written)) = (
            self.values.get_mut(slots.start + 1..slots.end + 1),
            self.written.get_mut(slots.start + 1..slots.end + 1),
        ) {
            window.copy_into(values, written, run);
        } else {
            let writes = window.values.iter().zip(&window.written);
            for (slot, (&value, &wrote)) in slots.zip(writes) {
                if wrote {
                    self.set(NodeIndex::new(slot as u32), value);
                }
            }
        }
        window.clear();
        self.spare.give(window);
    }
}

/// Parallel runs: a worker's table keeps the slot range it writes instead of a
/// table the size of the arena, and the merge copies it into the run's table.
impl<T: Copy> PerNode<T> {
    /// A table for a parallel worker of the current run: it keeps no per-slot array
    /// (a worker sees one subtree, so a table the size of the arena per worker would
    /// cost more than its walk), only the values of the slot range its
    /// [`set`](Self::set) calls cover (and a list of writes far outside it), which
    /// [`merge`](Self::merge) writes into this run's table. A fork reads back nothing
    /// ([`get_at`](Self::get_at) is `None`).
    ///
    /// ```
    /// use scenewalk_actors::PerNode;
    /// use scenewalk_core::{Graph, NodeIndex};
    /// # #[derive(Clone, Debug)] struct Group;
    /// # impl scenewalk_core::NodeCore for Group {}
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Group);
    /// let child = graph.append_child(root, Group)?;
    /// let mut table = PerNode::new(0u32);
    /// table.begin(&graph);
    /// table.set(root.index(), 1);
    /// let mut worker = table.fork();
    /// worker.set(child.index(), 2);
    /// assert_eq!(worker.get_at(child.index()), None);
    /// table.merge(worker, |v| v * 10);
    /// assert_eq!(table.get(&graph, child), Some(20));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fork(&self) -> Self {
        Self {
            values: self.values.first().copied().into_iter().collect(),
            written: Vec::new(),
            run: self.run,
            graph: self.graph,
            log: Vec::new(),
            window: self.spare.take().unwrap_or_else(Window::new),
            forked: true,
            spare: Spares::default(),
            pending: Vec::new(),
        }
    }

    /// Writes a [`fork`](Self::fork)'s values into this table, each through `map`
    /// (to turn a worker's indices into this table's); a slot the fork wrote twice
    /// gets its last value.
    pub fn merge(&mut self, worker: Self, map: impl Fn(T) -> T) {
        // A slot goes to the log only while it lies outside the window, which never
        // shrinks: its log entries are older than its window entry.
        for (node, value) in worker.log {
            self.set(node, map(value));
        }
        let mut window = worker.window;
        window.values.iter_mut().for_each(|v| *v = map(*v));
        self.apply(window);
    }
}

/// Deferred merges: the copies of all forks at once, on every thread of the pool.
impl<T: Copy + Send + Sync> PerNode<T> {
    /// As [`merge`](Self::merge), but the fork's values reach the table only at
    /// [`finish_merges`](Self::finish_merges), which copies the windows of all forks
    /// merged this way at once, on every thread of the current rayon pool when
    /// their slot ranges are disjoint (the forks' subtrees in a graph built or
    /// compacted depth-first), else one by one in merge order. Until then the
    /// table reads the slots the forks wrote as before the merge, so use it for
    /// results not read back during the run (`map` runs now).
    ///
    /// ```
    /// use scenewalk_actors::PerNode;
    /// # #[derive(Clone, Debug)] struct Group;
    /// # impl scenewalk_core::NodeCore for Group {}
    /// let mut graph = scenewalk_core::Graph::new();
    /// let root = graph.add_root(Group);
    /// let a = graph.append_child(root, Group)?;
    /// let b = graph.append_child(root, Group)?;
    /// let mut table = PerNode::new(0u32);
    /// table.begin(&graph);
    /// let (mut left, mut right) = (table.fork(), table.fork());
    /// left.set(a.index(), 1);
    /// right.set(b.index(), 2);
    /// table.merge_deferred(left, |v| v + 10);
    /// table.merge_deferred(right, |v| v + 20);
    /// assert_eq!(table.get(&graph, a), None);
    /// table.finish_merges();
    /// assert_eq!((table.get(&graph, a), table.get(&graph, b)), (Some(11), Some(22)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn merge_deferred(&mut self, worker: Self, map: impl Fn(T) -> T) {
        let mut log = worker.log;
        log.iter_mut().for_each(|(_, v)| *v = map(*v));
        let mut window = worker.window;
        window.values.iter_mut().for_each(|v| *v = map(*v));
        self.pending.push(Pending { log, window });
    }

    /// Writes the forks merged by [`merge_deferred`](Self::merge_deferred) into the
    /// table (see there).
    pub fn finish_merges(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        let mut order: Vec<_> = pending
            .iter()
            .map(|p| p.window.slots())
            .filter(|r| !r.is_empty())
            .collect();
        order.sort_unstable_by_key(|r| r.start);
        // Forks write disjoint node sets, but one that wrote outside its window, or
        // windows that overlap (a scattered arena), keep the merge order.
        let disjoint = pending.iter().all(|p| p.log.is_empty())
            && order.windows(2).all(|w| w[0].end <= w[1].start)
            && self.written.len() == self.values.len()
            && order.last().is_none_or(|r| r.end < self.values.len());
        if !disjoint {
            for p in pending {
                for (node, value) in p.log {
                    self.set(node, value);
                }
                self.apply(p.window);
            }
            return;
        }
        pending.retain_mut(|p| {
            if p.window.values.is_empty() {
                self.spare
                    .give(std::mem::replace(&mut p.window, Window::new()));
            }
            !p.window.values.is_empty()
        });
        pending.sort_unstable_by_key(|p| p.window.first);
        let run = self.run;
        // Slot s is entry s + 1 (entry 0 holds the fill); the checks above make
        // every split below succeed.
        let mut values = self.values.get_mut(1..).unwrap_or_default();
        let mut written = self.written.get_mut(1..).unwrap_or_default();
        let mut at = 0;
        let mut jobs = Vec::with_capacity(pending.len());
        for p in &pending {
            let slots = p.window.slots();
            let skip = slots.start.saturating_sub(at);
            let (Some((_, rest)), Some((_, rest_w))) = (
                values.split_at_mut_checked(skip),
                written.split_at_mut_checked(skip),
            ) else {
                break;
            };
            let (Some((mine, next)), Some((mine_w, next_w))) = (
                rest.split_at_mut_checked(slots.len()),
                rest_w.split_at_mut_checked(slots.len()),
            ) else {
                break;
            };
            jobs.push((mine, mine_w, &p.window));
            (values, written, at) = (next, next_w, slots.end);
        }
        jobs.into_par_iter()
            .for_each(|(values, written, window)| window.copy_into(values, written, run));
        for mut p in pending {
            p.window.clear();
            self.spare.give(p.window);
        }
    }
}
