//! Parallel runs: a worker's table records its writes to a window of slots (its
//! subtrees' range, in a graph built or compacted depth-first) instead of keeping a
//! table the size of the arena; the merge copies the windows into the run's table,
//! one by one or, deferred, all at once on every thread of the pool.

use super::PerNode;
use scenewalk_core::NodeIndex;
use std::sync::{Arc, Mutex};

/// Buffers kept from one parallel run's workers for the next run's: taken by a fork
/// (which sees its parent only by `&`, hence the lock, held only to pop; a fork of a
/// table keeps a handle, to take its window at its first write), given back by the
/// merge. A clone starts with none.
#[derive(Debug)]
pub(crate) struct Spares<V>(Arc<Mutex<Vec<V>>>);

impl<V> Default for Spares<V> {
    fn default() -> Self {
        Self(Arc::new(Mutex::new(Vec::new())))
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
        if let Ok(mut spares) = self.0.lock() {
            spares.push(buffer);
        }
    }

    /// The first spare buffer `fits`, if any.
    fn take_if(&self, fits: impl Fn(&V) -> bool) -> Option<V> {
        let mut spares = self.0.lock().ok()?;
        let i = spares.iter().position(fits)?;
        Some(spares.swap_remove(i))
    }

    /// The same store (for a fork).
    fn share(&self) -> Self {
        Self(Arc::clone(&self.0))
    }

    /// Keeps `buffers` instead of what is kept.
    fn replace(&mut self, buffers: Vec<V>) {
        if let Ok(mut spares) = self.0.lock() {
            *spares = buffers;
        }
    }
}

/// The stamp of a fork's writes: its table is a window of slots, and the merge
/// copies the entries so stamped (0 marks the window's gaps). A run's table never
/// uses it, so a fork reads back nothing.
pub(super) const FORK_STAMP: u32 = u32::MAX;

/// A merged fork's writes to a contiguous range of slots: a subtree of a graph built
/// or compacted depth-first is one such range, so the merge copies it in one pass
/// instead of replaying a write per node.
#[derive(Clone, Debug)]
pub(super) struct Window<T> {
    /// The slot of `values[0]`.
    first: usize,
    values: Vec<T>,
    /// [`FORK_STAMP`] where the fork wrote, 0 in gaps.
    written: Vec<u32>,
}

/// A fork merged by [`PerNode::merge_deferred`]: its writes (values already mapped),
/// waiting for [`PerNode::finish_merges`].
#[derive(Clone, Debug)]
pub(super) struct Pending<T> {
    log: Vec<(NodeIndex, T)>,
    window: Window<T>,
    /// Its place in merge order.
    order: usize,
}

impl<T: Copy> Window<T> {
    /// The slots the window covers.
    fn slots(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.values.len()
    }

    /// Copies the written entries into `values` and `written` (this window's slots
    /// of a table), stamping them with `run`.
    fn copy_into(&self, values: &mut [T], written: &mut [u32], run: u32, map: impl Fn(T) -> T) {
        let writes = self.values.iter().zip(&self.written);
        for ((v, w), (&value, &stamp)) in values.iter_mut().zip(written).zip(writes) {
            if stamp == FORK_STAMP {
                *v = map(value);
                *w = run;
            }
        }
    }
}

impl<T: Copy> PerNode<T> {
    /// How far past its end a write may grow a fork's window (in slots, beyond its
    /// length): farther writes go to the log, so a fork of a scattered arena keeps
    /// memory in proportion to what it wrote.
    const SLACK: usize = 4096;

    /// [`set`](Self::set) in a fork, past its window's end (or before its start):
    /// grows the window (by a quarter, so the writes that follow in pre-order land
    /// in it, on `set`'s fast path), else writes to the log. Out of line, so that
    /// `set` stays small enough to inline.
    #[inline(never)]
    pub(super) fn set_forked(&mut self, node: NodeIndex, value: T) {
        let slot = node.get();
        if self.values.is_empty() {
            // The first write starts the window: the window the previous run's fork
            // started at the same slot, if kept (a run over the same tree writes as
            // far again, so its writes neither grow the window nor fault in fresh
            // pages), its old writes unstamped.
            self.offset = 0usize.wrapping_sub(slot);
            if let Some(window) = self.spare.take_if(|w| w.first == slot) {
                (self.values, self.written) = (window.values, window.written);
                self.written.iter_mut().for_each(|w| *w = 0);
            } else if let Some(mut window) = self.spare.take() {
                // Another kept window's buffers, emptied (so a table whose forks
                // start elsewhere every run keeps no more windows than forks).
                window.values.clear();
                window.written.clear();
                (self.values, self.written) = (window.values, window.written);
            }
        }
        let at = slot.wrapping_add(self.offset);
        let len = self.values.len();
        if let (Some(v), Some(w)) = (self.values.get_mut(at), self.written.get_mut(at)) {
            *v = value;
            *w = FORK_STAMP;
        } else if (len..=2 * len + Self::SLACK).contains(&at) {
            // The fill is never read: the stamp says the slot was not written.
            let grown = (at + 1).max(len + len / 4 + 64);
            self.values.resize(grown, value);
            self.written.resize(grown, 0);
            if let (Some(v), Some(w)) = (self.values.get_mut(at), self.written.get_mut(at)) {
                *v = value;
                *w = FORK_STAMP;
            }
        } else {
            self.log.push((node, value));
        }
    }

    /// A fork's window, without the unwritten entries its last growth added.
    fn take_window(&mut self) -> Window<T> {
        let used = self
            .written
            .iter()
            .rposition(|&w| w == FORK_STAMP)
            .map_or(0, |last| last + 1);
        let mut values = std::mem::take(&mut self.values);
        let mut written = std::mem::take(&mut self.written);
        values.truncate(used);
        written.truncate(used);
        Window {
            first: 0usize.wrapping_sub(self.offset),
            values,
            written,
        }
    }

    /// Forgets the deferred merges (a new run starts), keeping their buffers.
    pub(super) fn drop_pending(&mut self) {
        for pending in std::mem::take(&mut self.pending) {
            self.spare.give(pending.window);
        }
    }

    /// Writes `window` into this table, per slot if it does not fit (a fork of
    /// another graph).
    fn apply(&mut self, window: &Window<T>) {
        let slots = window.slots();
        let run = self.run;
        if let (Some(values), Some(written)) = (
            self.values.get_mut(slots.start + 1..slots.end + 1),
            self.written.get_mut(slots.start + 1..slots.end + 1),
        ) {
            window.copy_into(values, written, run, |v| v);
        } else {
            let writes = window.values.iter().zip(&window.written);
            for (slot, (&value, &stamp)) in slots.zip(writes) {
                if stamp == FORK_STAMP {
                    self.set(NodeIndex::new(slot as u32), value);
                }
            }
        }
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
    /// table.begin(&graph, root.index());
    /// table.set(root.index(), 1);
    /// let mut worker = table.fork();
    /// worker.set(child.index(), 2);
    /// assert_eq!(worker.get_at(child.index()), None);
    /// table.merge(worker, |v| v * 10);
    /// assert_eq!(table.get_at(child.index()), Some(20));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fork(&self) -> Self {
        // The window's buffers come at the first write, from the kept ones.
        Self {
            values: Vec::new(),
            written: Vec::new(),
            run: FORK_STAMP,
            stamp: self.stamp,
            offset: 0,
            log: Vec::new(),
            forked: true,
            spare: self.spare.share(),
            pending: Vec::new(),
        }
    }

    /// Writes a [`fork`](Self::fork)'s values into this table, each through `map`
    /// (to turn a worker's indices into this table's); a slot the fork wrote twice
    /// gets its last value.
    pub fn merge(&mut self, worker: Self, map: impl Fn(T) -> T) {
        // A slot goes to the log only while it lies outside the window, which never
        // shrinks: its log entries are older than its window entry.
        let mut worker = worker;
        for (node, value) in std::mem::take(&mut worker.log) {
            self.set(node, map(value));
        }
        let mut window = worker.take_window();
        window.values.iter_mut().for_each(|v| *v = map(*v));
        self.apply(&window);
        self.spare.give(window);
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
    /// table.begin(&graph, root.index());
    /// let (mut left, mut right) = (table.fork(), table.fork());
    /// left.set(a.index(), 1);
    /// right.set(b.index(), 2);
    /// table.merge_deferred(left, |v| v + 10);
    /// table.merge_deferred(right, |v| v + 20);
    /// assert_eq!(table.get_at(a.index()), None);
    /// table.finish_merges();
    /// assert_eq!((table.get_at(a.index()), table.get_at(b.index())), (Some(11), Some(22)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn merge_deferred(&mut self, worker: Self, map: impl Fn(T) -> T) {
        let mut worker = worker;
        let mut log = std::mem::take(&mut worker.log);
        log.iter_mut().for_each(|(_, v)| *v = map(*v));
        let mut window = worker.take_window();
        window.values.iter_mut().for_each(|v| *v = map(*v));
        let order = self.pending.len();
        self.pending.push(Pending { log, window, order });
    }

    /// Writes the forks merged by [`merge_deferred`](Self::merge_deferred) into the
    /// table (see there).
    pub fn finish_merges(&mut self) {
        self.finish_merges_mapped(|_, v| v);
    }

    /// [`finish_merges`](Self::finish_merges), each value of the fork merged
    /// `k`-th going through `map(k, value)` as it is copied: a map that depends on
    /// what was merged before (an offset) runs on every thread, not in the merge.
    pub(crate) fn finish_merges_mapped(&mut self, map: impl Fn(usize, T) -> T + Sync) {
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
            && order
                .iter()
                .zip(order.iter().skip(1))
                .all(|(a, b)| a.end <= b.start)
            && self.written.len() == self.values.len()
            && order.last().is_none_or(|r| r.end < self.values.len());
        if !disjoint {
            let mut windows = Vec::with_capacity(pending.len());
            for mut p in pending {
                for (node, value) in p.log {
                    self.set(node, map(p.order, value));
                }
                p.window
                    .values
                    .iter_mut()
                    .for_each(|v| *v = map(p.order, *v));
                self.apply(&p.window);
                windows.push(p.window);
            }
            self.spare.replace(windows);
            return;
        }
        pending.sort_unstable_by_key(|p| p.window.first);
        let run = self.run;
        // Slot s is entry s + 1 (entry 0 holds the fill); the checks above make
        // every split below succeed.
        let mut values = self.values.get_mut(1..).unwrap_or_default();
        let mut written = self.written.get_mut(1..).unwrap_or_default();
        let mut at = 0;
        let mut jobs = Vec::with_capacity(pending.len());
        for p in pending.iter().filter(|p| !p.window.values.is_empty()) {
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
            jobs.push((mine, mine_w, p));
            (values, written, at) = (next, next_w, slots.end);
        }
        crate::shared::for_each(jobs, |(values, written, p)| {
            p.window
                .copy_into(values, written, run, |v| map(p.order, v));
        });
        // The next run's forks start from these windows (the same size, so no
        // growth); the ones no fork took this run are dropped.
        self.spare
            .replace(pending.into_iter().map(|p| p.window).collect());
    }
}
