//! Helpers of the actors: publishing tables behind an `Arc`, parallel merges.

use std::sync::Arc;

/// An update actor whose working tables are published behind an `Arc` after a run.
pub(crate) trait Published {
    /// What is published.
    type Table: Clone + Default;

    /// The handle, and what exchanges the actor's working tables with a table's.
    fn parts(&mut self) -> (&mut Arc<Self::Table>, impl FnOnce(&mut Self::Table));

    /// Takes the published tables back for a run: a swap if no reader holds them, else
    /// a copy with `keep` (a patch reads the old values), else nothing.
    fn checkout(&mut self, keep: bool) {
        let (shared, swap) = self.parts();
        match Arc::get_mut(shared) {
            Some(published) => swap(published),
            None if keep => swap(&mut Self::Table::clone(shared)),
            None => {}
        }
    }

    /// Publishes the working tables: a swap back, or a new handle if a reader kept one.
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

/// Runs `job` on every item, on the current rayon pool with the `parallel` feature.
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
/// list's length then), after the `inserted` entries earlier merges put before it;
/// `from` is left empty, its buffer kept.
pub(crate) fn put<T>(list: &mut Vec<T>, mark: usize, inserted: &mut usize, from: &mut Vec<T>) {
    let at = (mark + *inserted).min(list.len());
    *inserted += from.len();
    list.splice(at..at, from.drain(..));
}
