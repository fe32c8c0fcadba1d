//! How the update actors hand their per-node tables to later passes without copying:
//! a run writes its tables in place, then publishes them behind an `Arc`; the next run
//! takes them back, a swap while no reader still holds the handle.

use std::sync::Arc;

/// An update actor whose working tables are published behind an `Arc` after a run.
pub(crate) trait Published {
    /// What is published.
    type Table: Clone + Default;

    /// The handle, and what exchanges the actor's working tables with a table's.
    fn parts(&mut self) -> (&mut Arc<Self::Table>, impl FnOnce(&mut Self::Table));

    /// Takes the published tables back for a run. No reader holds the handle: a swap.
    /// A reader still does: with `keep` (an incremental patch, which reads the old
    /// values) the working tables get a copy, else they keep their own buffers (a run
    /// that rewrites what it reads needs none).
    fn checkout(&mut self, keep: bool) {
        let (shared, swap) = self.parts();
        match Arc::get_mut(shared) {
            Some(published) => swap(published),
            None if keep => swap(&mut Self::Table::clone(shared)),
            None => {}
        }
    }

    /// Publishes the working tables after a run: a swap back, or a new handle when a
    /// reader kept the old one.
    fn publish(&mut self) {
        let (shared, swap) = self.parts();
        match Arc::get_mut(shared) {
            Some(published) => swap(published),
            None => {
                let mut fresh = Self::Table::default();
                swap(&mut fresh);
                *shared = Arc::new(fresh);
            }
        }
    }
}

/// Runs `job` on every item: on the threads of the current rayon pool with the
/// `parallel` feature (the merges of a parallel run's tables), one after the other
/// without it.
pub(crate) fn for_each<T: Send>(items: Vec<T>, job: impl Fn(T) + Send + Sync) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.into_par_iter().for_each(job);
    }
    #[cfg(not(feature = "parallel"))]
    items.into_iter().for_each(job);
}

/// Inserts a worker's list `from` into `list` where the worker forked (`mark`, the
/// list's length then), after the `inserted` entries earlier merges put before it.
pub(crate) fn put<T>(list: &mut Vec<T>, mark: usize, inserted: &mut usize, from: Vec<T>) {
    let at = (mark + *inserted).min(list.len());
    *inserted += from.len();
    list.splice(at..at, from);
}
