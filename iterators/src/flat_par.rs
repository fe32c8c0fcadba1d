#![allow(clippy::indexing_slicing, reason = "len()-long arrays; checked slices")]

use crate::flat::accumulate_range;
use crate::{Flattened, LengthMismatch};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

/// Below this many positions a pass runs sequentially.
const PARALLEL_MIN: usize = 4096;
/// Subtree ranges per thread: a thread that finishes early takes another.
const RANGES_PER_THREAD: usize = 8;
/// The smallest range worth a task of its own.
const MIN_RANGE: usize = 512;
/// A cut whose tasks average fewer nodes (tiny subtrees between tops, as a chain with
/// a leaf at every link has) runs sequentially: handing its tasks out would cost more
/// than doing them.
const MIN_TASK_AVERAGE: usize = 8;

/// The flattening cut for one parallel pass, by subtree size (not at a fixed depth, so
/// a long chain with a bushy end or one giant subtree still splits). A position whose
/// subtree holds more than `target` nodes is a *top* (fewer than `len / target` per
/// level, done sequentially). Every other position lies in the subtree of a *chunk
/// root*: no top, but its parent is (or it has none). A task is a run of consecutive
/// chunk subtrees of about `target` nodes: a range with no top inside, so every parent
/// in it lies before its child in the same range, or is a top.
#[derive(Debug, Default)]
pub(crate) struct Cut {
    /// The flattening's build count, its length and the target the cut was made for.
    key: (u64, usize, usize),
    /// The tops, ascending (pre-order).
    tops: Vec<usize>,
    /// Tops and chunk roots, ascending: the bottom-up pass folds them into their
    /// parents last to first.
    roots: Vec<usize>,
    /// The tasks' ranges of positions, ascending.
    tasks: Vec<Range<usize>>,
}

/// The last cut, kept for the next pass over the same flattening with as many threads
/// (the scan costs a fifth of a two-thread pass). A clone starts empty.
#[derive(Debug, Default)]
pub(crate) struct CutCache(Mutex<Option<Arc<Cut>>>);

impl Clone for CutCache {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl Flattened {
    /// The cut for a pass over `values`, `out` sized to them (filled with `fill` only if
    /// it had another length); `None` where the pass runs sequentially.
    fn parallel_cut<T: Copy, U>(
        &self,
        values: &[U],
        out: &mut Vec<T>,
        fill: T,
    ) -> Result<Option<Arc<Cut>>, LengthMismatch> {
        let threads = rayon::current_num_threads();
        if threads < 2 || self.len() < PARALLEL_MIN {
            return Ok(None);
        }
        self.fits(values, out)?;
        if out.len() != values.len() {
            out.clear();
            out.resize(values.len(), fill);
        }
        let target = (self.len() / (threads * RANGES_PER_THREAD)).max(MIN_RANGE);
        let key = (self.rebuilds(), self.len(), target);
        // A cache: a panic elsewhere leaves it as valid as ever.
        let mut kept = self.cuts.0.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.as_ref().is_none_or(|cut| cut.key != key) {
            *kept = Some(Arc::new(self.cut(key)));
        }
        Ok(kept
            .clone()
            .filter(|cut| cut.tasks.len() * MIN_TASK_AVERAGE <= self.len()))
    }

    /// The cut into tasks of about `key.2` nodes, stepping over each chunk subtree whole.
    fn cut(&self, key: (u64, usize, usize)) -> Cut {
        let target = key.2;
        let mut cut = Cut {
            key,
            ..Cut::default()
        };
        let (mut pos, mut task_start) = (0, None);
        while let Some(&size) = self.sizes.get(pos) {
            let size = (size as usize).max(1);
            cut.roots.push(pos);
            if size > target {
                cut.tasks.extend(task_start.take().map(|start| start..pos));
                cut.tops.push(pos);
                pos += 1;
            } else {
                let from = *task_start.get_or_insert(pos);
                pos += size;
                if pos - from >= target {
                    cut.tasks.push(from..pos);
                    task_start = None;
                }
            }
        }
        cut.tasks.extend(task_start.map(|start| start..pos));
        cut
    }

    /// Splits `out` into one slice per task, with the position it starts at, and the
    /// stretches of tops before, between and after them, to read.
    #[allow(
        clippy::type_complexity,
        reason = "two lists of slices with their starts"
    )]
    fn split_at_tasks<'o, T>(
        cut: &Cut,
        out: &'o mut [T],
    ) -> (Vec<(usize, &'o mut [T])>, Vec<(usize, &'o [T])>) {
        let mut tasks = Vec::with_capacity(cut.tasks.len());
        let mut tops = Vec::with_capacity(cut.tasks.len() + 1);
        let (mut rest, mut offset) = (out, 0);
        for task in &cut.tasks {
            let (before, tail) = std::mem::take(&mut rest).split_at_mut(task.start - offset);
            let (mine, tail) = tail.split_at_mut(task.len());
            tops.push((offset, &*before));
            tasks.push((task.start, mine));
            (rest, offset) = (tail, task.end);
        }
        tops.push((offset, &*rest));
        (tasks, tops)
    }

    /// [`propagate`](Self::propagate) on all threads of the current rayon pool (run it
    /// inside [`rayon::ThreadPool::install`] to choose them), bit for bit the same whatever
    /// their number. Positions whose subtree holds more than about `len / (threads × 8)`
    /// nodes are computed first on the calling thread, then each smaller subtree as a rayon
    /// task; a kept `out` is overwritten in place, a new one filled first. A tree whose tasks
    /// would average fewer than 8 nodes (a long chain with a leaf at every link) runs
    /// sequentially. A pass allocates per task, not per node.
    pub fn propagate_parallel<T: Copy + Send + Sync>(
        &self,
        root_value: T,
        locals: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T + Sync,
    ) -> Result<(), LengthMismatch> {
        let Some(cut) = self.parallel_cut(locals, out, root_value)? else {
            return self.propagate(root_value, locals, out, combine);
        };
        // Tops in pre-order: each one's parent is a top computed before it.
        for &top in &cut.tops {
            let above = self.parent(top).map_or(root_value, |parent| out[parent]);
            out[top] = combine(&above, &locals[top]);
        }
        let (tasks, tops) = Self::split_at_tasks(&cut, out);
        // A parent outside a task's range is a top (or the root has none), read where
        // the loop above wrote it.
        let outside = |parent: u32| {
            let parent = parent as usize;
            let stretch = tops.partition_point(|&(start, _)| start <= parent);
            stretch
                .checked_sub(1)
                .and_then(|k| tops.get(k))
                .and_then(|&(start, values)| values.get(parent - start))
                .map_or(root_value, |&value| value)
        };
        tasks.into_par_iter().for_each(|(start, slice)| {
            let range = start..start + slice.len();
            let (parents, locals) = (&self.parents[range.clone()], &locals[range]);
            for (i, (&parent, local)) in parents.iter().zip(locals).enumerate() {
                let above = match (parent as usize).checked_sub(start) {
                    Some(at) if parent != Flattened::NIL => slice[at],
                    _ => outside(parent),
                };
                slice[i] = combine(&above, local);
            }
        });
        Ok(())
    }

    /// [`accumulate`](Self::accumulate) on all threads, cut as [`Self::propagate_parallel`]
    /// (large subtrees last), bit for bit the same; `T: Default` fills a new `out`.
    pub fn accumulate_parallel<T: Copy + Default + Send + Sync>(
        &self,
        own: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T + Sync,
    ) -> Result<(), LengthMismatch> {
        let Some(cut) = self.parallel_cut(own, out, T::default())? else {
            return self.accumulate(own, out, combine);
        };
        Self::split_at_tasks(&cut, out)
            .0
            .into_par_iter()
            .for_each(|(start, slice)| {
                // Each task starts its own range from `own`, while it is in cache.
                slice.copy_from_slice(&own[start..start + slice.len()]);
                // A chunk root's parent is a top, outside the range.
                let parents = &self.parents[start..start + slice.len()];
                accumulate_range(parents, start, slice, &combine);
            });
        for &top in &cut.tops {
            out[top] = own[top];
        }
        // Last to first, as the sequential pass.
        for &pos in cut.roots.iter().rev() {
            if let Some(parent) = self.parent(pos) {
                out[parent] = combine(&out[parent], &out[pos]);
            }
        }
        Ok(())
    }
}
