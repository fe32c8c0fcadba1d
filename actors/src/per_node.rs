//! Per-node results of a run, indexed by slot and stamped by run.

use scenewalk_core::{Graph, NodeId, NodeIndex};

/// A value per node written during a run and read after it.
///
/// Sized to the graph's arena at the start of each run; a value counts only if it was
/// written in the latest run, so nodes the run did not reach (culled, outside the
/// root's subtree) read as `None` without clearing the whole array each run.
#[derive(Clone, Debug)]
pub struct PerNode<T> {
    values: Vec<T>,
    written: Vec<u32>,
    run: u32,
}

impl<T: Copy> PerNode<T> {
    /// An empty table; `fill` is the value unreached nodes hold internally.
    pub fn new(fill: T) -> Self {
        Self {
            values: Vec::new(),
            written: Vec::new(),
            run: 0,
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
        let fill = self.values[0];
        let len = graph.capacity() + 1;
        if self.values.len() < len {
            self.values.resize(len, fill);
            self.written.resize(len, 0);
        }
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            // After 2^32 runs the stamps wrap: clear them once so none looks current.
            self.written.iter_mut().for_each(|w| *w = 0);
            self.run = 1;
        }
    }

    /// Writes the value of the node in slot `node`.
    #[inline]
    pub fn set(&mut self, node: NodeIndex, value: T) {
        let i = node.get() + 1;
        if let (Some(v), Some(w)) = (self.values.get_mut(i), self.written.get_mut(i)) {
            *v = value;
            *w = self.run;
        }
    }

    /// The value written for slot `node` in the latest run.
    #[inline]
    pub fn get_at(&self, node: NodeIndex) -> Option<T> {
        let i = node.get() + 1;
        (self.written.get(i) == Some(&self.run) && self.run != 0).then(|| self.values[i])
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

    /// The value for `id` if the node is live in `graph` and was reached by the latest run.
    pub fn get(&self, graph: &Graph, id: NodeId) -> Option<T> {
        graph
            .contains(id)
            .then(|| self.get_at(id.index()))
            .flatten()
    }
}
