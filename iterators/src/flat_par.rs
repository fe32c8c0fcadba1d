//! The flattened passes on all cores: the pre-order arrays cut into subtree ranges by
//! size, so a long chain with a bushy end or one giant subtree is cut where the sizes
//! say, not at a fixed depth.

#![allow(
    clippy::indexing_slicing,
    reason = "positions index the arrays of one flattening, which all have its node count as length; slices a caller passes are length-checked on entry (`LengthMismatch`)"
)]

use crate::flat::accumulate_range;
use crate::{Flattened, LengthMismatch};
use rayon::prelude::*;
use std::ops::Range;

/// Below this many positions a pass runs sequentially.
const PARALLEL_MIN: usize = 4096;
/// Subtree ranges per thread: a thread that finishes early takes another.
const RANGES_PER_THREAD: usize = 8;
/// The smallest range worth a task of its own.
const MIN_RANGE: usize = 512;

/// The flattening cut for one parallel pass.
///
/// A position whose subtree holds at most `target` nodes, and whose parent's subtree
/// holds more, is a *chunk root*: its subtree is a contiguous range that needs nothing
/// from outside but its parent's value. The other positions are *tops*: fewer than
/// `len / target` per level, done sequentially. Chunks are grouped, in order, into
/// tasks of about `target` nodes, so a run of tiny subtrees is one task.
#[derive(Debug)]
struct Cut {
    /// Tops and chunk roots, ascending (pre-order), with whether each is a top.
    roots: Vec<(usize, bool)>,
    /// Chunk roots, ascending.
    chunks: Vec<usize>,
    /// Per task, its range of `chunks`.
    tasks: Vec<Range<usize>>,
}

impl Cut {
    /// The tops, ascending.
    fn tops(&self) -> impl Iterator<Item = usize> + '_ {
        self.roots
            .iter()
            .filter(|(_, top)| *top)
            .map(|&(pos, _)| pos)
    }
}

impl Flattened {
    /// The cut for a parallel pass over `values`, with `out` sized to them (filled with
    /// `fill` only if it had another length); `None` where the pass runs sequentially.
    fn parallel_cut<T: Copy, U>(
        &self,
        values: &[U],
        out: &mut Vec<T>,
        fill: T,
    ) -> Result<Option<Cut>, LengthMismatch> {
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
        Ok(Some(self.cut(target)))
    }

    /// The cut into subtree ranges of at most `target` nodes.
    fn cut(&self, target: usize) -> Cut {
        let mut cut = Cut {
            roots: Vec::new(),
            chunks: Vec::new(),
            tasks: Vec::new(),
        };
        let mut pos = 0;
        while let Some(&size) = self.sizes.get(pos) {
            let size = (size as usize).max(1);
            let top = size > target;
            cut.roots.push((pos, top));
            if top {
                pos += 1;
            } else {
                cut.chunks.push(pos);
                pos += size;
            }
        }
        let mut start = 0;
        let mut nodes = 0;
        for (i, &chunk) in cut.chunks.iter().enumerate() {
            nodes += self.sizes[chunk] as usize;
            if nodes >= target {
                cut.tasks.push(start..i + 1);
                start = i + 1;
                nodes = 0;
            }
        }
        if start < cut.chunks.len() {
            cut.tasks.push(start..cut.chunks.len());
        }
        cut
    }

    /// Splits `out` into one slice per task, from its first chunk root to the end of its
    /// last chunk, with the slice's start and the task's range of chunks.
    fn task_slices<'o, T>(
        &self,
        cut: &Cut,
        out: &'o mut [T],
    ) -> Vec<(usize, &'o mut [T], Range<usize>)> {
        let mut slices = Vec::with_capacity(cut.tasks.len());
        let mut rest = out;
        let mut offset = 0;
        for task in &cut.tasks {
            let first = cut.chunks[task.start];
            let last = cut.chunks[task.end - 1];
            let end = last + self.sizes[last] as usize;
            let (_, tail) = rest.split_at_mut(first - offset);
            let (mine, tail) = tail.split_at_mut(end - first);
            slices.push((first, mine, task.clone()));
            rest = tail;
            offset = end;
        }
        slices
    }

    /// [`propagate`](Self::propagate) on all threads of the current rayon pool (run it
    /// inside [`rayon::ThreadPool::install`] to choose them); the result is bit for bit
    /// the same, whatever the number of threads.
    ///
    /// Positions whose subtree holds more than about `len / (threads × 8)` nodes are
    /// computed first, in order, on the calling thread; each smaller subtree is then a
    /// range that needs only its parent's value, run as a rayon task. A buffer `out`
    /// kept between passes is overwritten in place; a new one is first filled once.
    ///
    /// Errors: [`LengthMismatch`] as for `propagate`.
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
        let above = |out: &[T], pos: usize| match self.parents[pos] {
            Flattened::NIL => root_value,
            parent => out[parent as usize],
        };
        // Tops in pre-order: each one's parent is a top computed before it.
        for top in cut.tops() {
            out[top] = combine(&above(out, top), &locals[top]);
        }
        let roots: Vec<T> = cut.chunks.iter().map(|&c| above(out, c)).collect();
        let slices = self.task_slices(&cut, out);
        slices.into_par_iter().for_each(|(offset, slice, task)| {
            for (&chunk, root) in cut.chunks[task.clone()].iter().zip(&roots[task]) {
                let end = chunk + self.sizes[chunk] as usize;
                let out = &mut slice[chunk - offset..end - offset];
                let (parents, locals) = (&self.parents[chunk..end], &locals[chunk..end]);
                out[0] = combine(root, &locals[0]);
                for (i, (&parent, local)) in parents.iter().zip(locals).enumerate().skip(1) {
                    // Inside a chunk every parent is in the same chunk, before it.
                    let above = out[parent as usize - chunk];
                    out[i] = combine(&above, local);
                }
            }
        });
        Ok(())
    }

    /// [`accumulate`](Self::accumulate) on all threads of the current rayon pool, cut
    /// as [`propagate_parallel`](Self::propagate_parallel) is: the ranges first, in
    /// parallel, then the tops on the calling thread. Each value receives its children
    /// in the sequential pass's order, so the result is bit for bit the same.
    /// `T: Default` fills a new `out` once; a kept one is overwritten in place.
    ///
    /// Errors: [`LengthMismatch`] as for `accumulate`.
    pub fn accumulate_parallel<T: Copy + Default + Send + Sync>(
        &self,
        own: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T + Sync,
    ) -> Result<(), LengthMismatch> {
        let Some(cut) = self.parallel_cut(own, out, T::default())? else {
            return self.accumulate(own, out, combine);
        };
        let slices = self.task_slices(&cut, out);
        slices.into_par_iter().for_each(|(offset, slice, task)| {
            // Each task starts its own span from `own`, while it is in cache.
            slice.copy_from_slice(&own[offset..offset + slice.len()]);
            for &chunk in &cut.chunks[task] {
                let end = chunk + self.sizes[chunk] as usize;
                let out = &mut slice[chunk - offset..end - offset];
                accumulate_range(&self.parents[chunk..end], chunk, out, &combine);
            }
        });
        // The tops start from `own` too (those inside a task's span already do).
        for top in cut.tops() {
            out[top] = own[top];
        }
        // Last to first: each parent receives its children in the sequential pass's
        // order (descending position).
        for &(pos, _) in cut.roots.iter().rev() {
            if let Some(parent) = self.parent(pos) {
                out[parent] = combine(&out[parent], &out[pos]);
            }
        }
        Ok(())
    }
}
