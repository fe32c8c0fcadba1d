//! Per-node results of a run, indexed by slot and stamped by run.

use scenewalk_core::{Graph, NodeId, NodeIndex, ResultsError, Stamp};

mod fork;

pub(crate) use fork::Spares;
use fork::{FORK_STAMP, Pending, Window};

/// Whether values stamped `run` read back: not before the first run (0), nor in a
/// fork (whose stamp only marks its writes for the merge).
#[inline(always)]
fn readable(run: u32) -> bool {
    run.wrapping_sub(1) < FORK_STAMP - 1
}

/// A value per node written during a run and read after it.
///
/// Sized to the graph's arena at the start of each run; a value counts only if it was
/// written in the latest run, so nodes the run did not reach (culled, outside the
/// root's subtree) read as `None` without clearing the whole array each run. The table
/// carries the run's [`Stamp`]: read by id ([`read`](Self::read)), values are
/// refused once the graph changed (structure or payloads) or for another graph, so a
/// removed node's slot reused by a new node never shows the old node's value. Read by
/// slot ([`get_at`](Self::get_at)), they are not checked: that is for readers that
/// checked the stamp once per run.
#[derive(Clone, Debug)]
pub struct PerNode<T> {
    values: Vec<T>,
    written: Vec<u32>,
    run: u32,
    /// What the latest run's values describe.
    stamp: Option<Stamp>,
    /// Slot `s` is entry `s + offset` (wrapping): 1 in a run's table (entry 0 holds
    /// the fill), minus the window's first slot in a fork's.
    offset: usize,
    /// A fork's writes to slots outside its window, in order (see
    /// [`fork`](Self::fork)).
    log: Vec<(NodeIndex, T)>,
    forked: bool,
    /// Merged forks' windows, emptied, for the next run's forks: a parallel run
    /// then neither grows nor faults in fresh buffers.
    spare: Spares<Window<T>>,
    /// Forks merged by [`merge_deferred`](Self::merge_deferred), waiting for
    /// [`finish_merges`](Self::finish_merges), in merge order.
    pending: Vec<Pending<T>>,
}

impl<T: Copy> PerNode<T> {
    /// An empty table; `fill` is the value unreached nodes hold internally.
    pub fn new(fill: T) -> Self {
        Self {
            values: Vec::new(),
            written: Vec::new(),
            run: 0,
            stamp: None,
            offset: 1,
            log: Vec::new(),
            forked: false,
            spare: Spares::default(),
            pending: Vec::new(),
        }
        .with_fill(fill)
    }

    fn with_fill(mut self, fill: T) -> Self {
        self.values.clear();
        self.values.push(fill);
        self
    }

    /// Starts a run over `graph` from `root`: grows the table and forgets earlier
    /// runs' values.
    pub fn begin(&mut self, graph: &Graph, root: NodeIndex) {
        // Merges an earlier run left unfinished are that run's: forget them.
        self.drop_pending();
        self.stamp = Some(Stamp::new(graph, root));
        self.grow(graph.capacity() + 1);
        self.run = self.run.wrapping_add(1);
        if self.run == 0 || self.run == FORK_STAMP {
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
        let Some(stamp) = self.stamp else {
            // No run yet: nothing to keep.
            return;
        };
        self.stamp = Some(Stamp::new(graph, stamp.root()));
        self.grow(graph.capacity() + 1);
    }

    /// What the latest run's values describe (`None` before the first run).
    pub fn stamp(&self) -> Option<Stamp> {
        self.stamp
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
        if let Some(w) = self.written.get_mut(node.get().wrapping_add(self.offset)) {
            *w = 0;
        }
    }

    /// Writes the value of the node in slot `node`.
    #[inline]
    pub fn set(&mut self, node: NodeIndex, value: T) {
        let i = node.get().wrapping_add(self.offset);
        if let (Some(v), Some(w)) = (self.values.get_mut(i), self.written.get_mut(i)) {
            *v = value;
            *w = self.run;
        } else if self.forked {
            self.set_forked(node, value);
        }
    }

    /// The value written for slot `node` in the latest run.
    #[inline]
    pub fn get_at(&self, node: NodeIndex) -> Option<T> {
        let i = node.get().wrapping_add(self.offset);
        match (self.written.get(i), self.values.get(i)) {
            (Some(&w), Some(&v)) if w == self.run && readable(self.run) => Some(v),
            _ => None,
        }
    }

    /// The value held for slot `node`, whichever run wrote it: for a caller that
    /// knows the latest run wrote it (an incremental update inside the span of its
    /// last full run), which then reads one array instead of two.
    #[inline]
    pub(crate) fn value_at(&self, node: NodeIndex) -> Option<T> {
        self.values.get(node.get() + 1).copied()
    }

    /// Replaces the value of slot `node`, keeping its stamp: as
    /// [`value_at`](Self::value_at), for a slot the latest run wrote.
    #[inline]
    pub(crate) fn overwrite(&mut self, node: NodeIndex, value: T) {
        if let Some(v) = self.values.get_mut(node.get() + 1) {
            *v = value;
        }
    }

    /// A mutable reference to the value of slot `node` in this run, if written.
    #[inline]
    pub fn get_mut_at(&mut self, node: NodeIndex) -> Option<&mut T> {
        let i = node.get().wrapping_add(self.offset);
        if self.written.get(i) == Some(&self.run) && readable(self.run) {
            self.values.get_mut(i)
        } else {
            None
        }
    }

    /// The value for `id`, checked: the latest run was over `graph` as it is now (no
    /// edit since, of structure or payloads) and reached the node. `reader` and
    /// `results` name the accessor and its results in the error.
    pub fn read(
        &self,
        reader: &'static str,
        results: &'static str,
        graph: &Graph,
        id: NodeId,
    ) -> Result<T, ResultsError> {
        let stamp = self
            .stamp
            .ok_or(ResultsError::Missing { reader, results })?;
        stamp
            .check_graph(graph)
            .map_err(|why| ResultsError::Stale {
                reader,
                results,
                why,
            })?;
        if !graph.contains(id) {
            return Err(scenewalk_core::GraphError::StaleNode(id).into());
        }
        self.get_at(id.index()).ok_or(ResultsError::NotReached(id))
    }
}
