//! Per-node results of a run, indexed by slot and stamped by run.

use scenewalk_core::{Graph, NodeId, NodeIndex};
use std::sync::Mutex;

/// A value per node written during a run and read after it.
///
/// Sized to the graph's arena at the start of each run; a value counts only if it was
/// written in the latest run, so nodes the run did not reach (culled, outside the
/// root's subtree) read as `None` without clearing the whole array each run. Read by
/// id, values describe the graph as it was at the run: after a structural edit (or
/// for another graph) they read as `None`, so a removed node's slot reused by a new
/// node never shows the old node's value.
#[derive(Clone, Debug)]
pub struct PerNode<T> {
    values: Vec<T>,
    written: Vec<u32>,
    run: u32,
    /// The graph's uid and revision at the latest run.
    graph: Option<(u64, u64)>,
    /// A fork's writes to slots outside its window, in order (a fork has no table:
    /// see [`fork`](Self::fork)).
    log: Vec<(NodeIndex, T)>,
    /// A fork's writes to the slot range it covers densely.
    window: Window<T>,
    forked: bool,
    /// Merged forks' windows, emptied, for the next run's forks: a parallel run
    /// then neither grows nor faults in fresh buffers.
    spare: Spares<Window<T>>,
}

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
struct Window<T> {
    /// The slot of `values[0]` (the fork's first write).
    first: usize,
    values: Vec<T>,
    written: Vec<bool>,
}

impl<T: Copy> Window<T> {
    fn new() -> Self {
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
}

impl<T: Copy> PerNode<T> {
    /// An empty table; `fill` is the value unreached nodes hold internally.
    pub fn new(fill: T) -> Self {
        Self {
            values: Vec::new(),
            written: Vec::new(),
            run: 0,
            graph: None,
            log: Vec::new(),
            window: Window::new(),
            forked: false,
            spare: Spares::default(),
        }
        .with_fill(fill)
    }

    fn with_fill(mut self, fill: T) -> Self {
        self.values.clear();
        self.values.push(fill);
        self
    }

    /// Starts a run over `graph`: grows the table and forgets earlier runs' values.
    pub fn begin(&mut self, graph: &Graph) {
        self.graph = Some((graph.uid(), graph.revision()));
        self.grow(graph.capacity() + 1);
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            // After 2^32 runs the stamps wrap: clear them once so none looks current.
            self.written.iter_mut().for_each(|w| *w = 0);
            self.run = 1;
        }
    }

    /// Continues the latest run over `graph` as it is now: grows the table and takes
    /// the graph's current revision, keeping every value. For incremental updates,
    /// which patch the values an edit changed (with [`set`](Self::set) and
    /// [`unset`](Self::unset)) and then vouch for the rest.
    ///
    /// This lifts the table's own guarantee: values written before a structural edit
    /// are taken as current again, so the caller must have patched or
    /// [`unset`](Self::unset) every slot the edits touched (a removed node's slot may
    /// now hold another node). Plain actors never call it.
    pub fn resume(&mut self, graph: &Graph) {
        if self.run == 0 {
            // No run yet: nothing to keep.
            self.begin(graph);
            return;
        }
        self.graph = Some((graph.uid(), graph.revision()));
        self.grow(graph.capacity() + 1);
    }

    /// Grows the table to `len` entries, filled with the fill value (entry 0).
    fn grow(&mut self, len: usize) {
        if let Some(&fill) = self.values.first()
            && self.values.len() < len
        {
            self.values.resize(len, fill);
            self.written.resize(len, 0);
        }
    }

    /// Forgets the value of slot `node`, so it reads as `None` (as if the latest run
    /// had not reached it).
    #[inline]
    pub fn unset(&mut self, node: NodeIndex) {
        if let Some(w) = self.written.get_mut(node.get() + 1) {
            *w = 0;
        }
    }

    /// Writes the value of the node in slot `node`.
    #[inline]
    pub fn set(&mut self, node: NodeIndex, value: T) {
        let i = node.get() + 1;
        if let (Some(v), Some(w)) = (self.values.get_mut(i), self.written.get_mut(i)) {
            *v = value;
            *w = self.run;
        } else if self.forked && !self.window.set(node.get(), value) {
            // A fork (no table of its own), writing far from its window: keep the
            // write for the merge.
            self.log.push((node, value));
        }
    }

    /// The value written for slot `node` in the latest run.
    #[inline]
    pub fn get_at(&self, node: NodeIndex) -> Option<T> {
        let i = node.get() + 1;
        match (self.written.get(i), self.values.get(i)) {
            (Some(&w), Some(&v)) if w == self.run && self.run != 0 => Some(v),
            _ => None,
        }
    }

    /// A mutable reference to the value of slot `node` in this run, if written.
    #[inline]
    pub fn get_mut_at(&mut self, node: NodeIndex) -> Option<&mut T> {
        let i = node.get() + 1;
        if self.written.get(i) == Some(&self.run) && self.run != 0 {
            self.values.get_mut(i)
        } else {
            None
        }
    }

    /// The value for `id` if the latest run was over `graph` as it is now (no
    /// structural edit since) and reached the node.
    pub fn get(&self, graph: &Graph, id: NodeId) -> Option<T> {
        let current = self.graph == Some((graph.uid(), graph.revision()));
        (current && graph.contains(id))
            .then(|| self.get_at(id.index()))
            .flatten()
    }
}

/// Parallel runs: a worker's table records its writes to a window of slots (its
/// subtrees' range, in a graph built or compacted depth-first) instead of keeping a
/// table the size of the arena, and the merge copies them into the run's table.
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
        let start = window.first + 1;
        let end = start + window.values.len();
        let run = self.run;
        if let (Some(values), Some(written)) = (
            self.values.get_mut(start..end),
            self.written.get_mut(start..end),
        ) {
            let writes = window.values.iter().zip(&window.written);
            for ((v, w), (&value, &wrote)) in values.iter_mut().zip(written).zip(writes) {
                if wrote {
                    *v = map(value);
                    *w = run;
                }
            }
        } else {
            // Not this run's table (a fork of another graph): per slot, as `set`.
            let writes = window.values.iter().zip(&window.written);
            for (slot, (&value, &wrote)) in (window.first..).zip(writes) {
                if wrote {
                    self.set(NodeIndex::new(slot as u32), map(value));
                }
            }
        }
        window.values.clear();
        window.written.clear();
        self.spare.give(window);
    }
}
