//! The flattened passes on all cores: the pre-order array cut into subtree ranges.

#![allow(
    clippy::indexing_slicing,
    reason = "positions index the arrays of one flattening, which all have its node count as length; slices a caller passes are length-checked on entry (`LengthMismatch`)"
)]

use crate::{Flattened, LengthMismatch};
use rayon::prelude::*;
use std::ops::Range;

/// Below this many positions a pass runs sequentially: splitting would cost more than
/// it saves.
const PARALLEL_MIN: usize = 4096;
/// Subtree ranges per thread: more than one, so a thread that finishes early takes
/// another range (lopsided trees give ranges of unequal cost).
const RANGES_PER_THREAD: usize = 8;
/// The smallest range worth a task of its own.
const MIN_RANGE: usize = 512;

/// The flattening cut for one parallel pass.
///
/// A position whose subtree holds at most `target` nodes, and whose parent's subtree
/// holds more, is a *chunk root*: its subtree is a contiguous range that needs nothing
/// from outside but its parent's value. The other positions are *tops*: each has more
/// than `target` nodes below it, so there are fewer than `len / target` of them per
/// level, and they are done sequentially. Chunks are grouped, in order, into tasks of
/// about `target` nodes, so a run of tiny subtrees (the leaves along a long chain)
/// is one task, not thousands.
#[derive(Debug)]
struct Cut {
    /// Top positions, ascending (pre-order).
    tops: Vec<usize>,
    /// Chunk roots, ascending.
    chunks: Vec<usize>,
    /// Per task, its range of `chunks`.
    tasks: Vec<Range<usize>>,
}

impl Flattened {
    /// The cut into subtree ranges of at most `target` nodes.
    fn cut(&self, target: usize) -> Cut {
        let mut cut = Cut {
            tops: Vec::new(),
            chunks: Vec::new(),
            tasks: Vec::new(),
        };
        let mut pos = 0;
        while let Some(&size) = self.sizes.get(pos) {
            let size = (size as usize).max(1);
            if size <= target {
                cut.chunks.push(pos);
                pos += size;
            } else {
                cut.tops.push(pos);
                pos += 1;
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

    /// How many nodes a subtree range should hold for the current rayon pool; `None`
    /// when the pass should run sequentially.
    fn parallel_target(&self) -> Option<usize> {
        let threads = rayon::current_num_threads();
        if threads < 2 || self.len() < PARALLEL_MIN {
            return None;
        }
        Some((self.len() / (threads * RANGES_PER_THREAD)).max(MIN_RANGE))
    }

    /// The positions task `task` of `cut` writes: from its first chunk root to the end
    /// of its last chunk (tops in between are inside but left alone).
    fn task_span(&self, cut: &Cut, task: &Range<usize>) -> Range<usize> {
        let first = cut.chunks.get(task.start).copied().unwrap_or(0);
        let last = cut
            .chunks
            .get(task.end.wrapping_sub(1))
            .map_or(first, |&c| c + self.sizes[c] as usize);
        first..last
    }

    /// Splits `out` into one mutable slice per task, each with its span's start.
    fn task_slices<'o, T>(&self, cut: &Cut, out: &'o mut [T]) -> Vec<(usize, &'o mut [T])> {
        let mut slices = Vec::with_capacity(cut.tasks.len());
        let mut rest = out;
        let mut offset = 0;
        for task in &cut.tasks {
            let span = self.task_span(cut, task);
            let (_, tail) = rest.split_at_mut(span.start - offset);
            let (mine, tail) = tail.split_at_mut(span.len());
            slices.push((span.start, mine));
            rest = tail;
            offset = span.end;
        }
        slices
    }

    /// [`propagate`](Self::propagate) on all threads of the current rayon pool; the
    /// result is bit for bit the same, whatever the number of threads.
    ///
    /// The flattened order is cut into subtree ranges by **size** (see the module
    /// notes in `docs/architecture.md`): positions whose subtree is larger than about
    /// `len / (threads × 8)` are computed first, in order, on the calling thread; each
    /// smaller subtree is then a contiguous range that needs only its parent's value,
    /// and ranges run as rayon tasks. A long chain with a bushy end, or one giant
    /// subtree beside small ones, is cut where the sizes say, not at a fixed depth.
    /// Each value is `combine(parent, local)` exactly as in the sequential pass, so the
    /// result does not depend on the cut. Small trees and one-thread pools run the
    /// sequential loop.
    ///
    /// Run it inside [`rayon::ThreadPool::install`] to choose the threads. Keep `out`
    /// between passes: a buffer that already holds one value per position is
    /// overwritten in place, a new one is first filled once.
    ///
    /// Errors: [`LengthMismatch`] as for `propagate`.
    ///
    /// ```
    /// use scenewalk_core::Graph;
    /// use scenewalk_iterators::Flattened;
    /// # #[derive(Clone, Debug)] struct Group;
    /// # impl scenewalk_core::NodeCore for Group {}
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Group);
    /// let mut parent = root;
    /// for i in 0..10_000 {
    ///     let child = graph.append_child(parent, Group)?;
    ///     if i % 3 == 0 { parent = child; }
    /// }
    /// let flat = Flattened::build(&graph, root)?;
    /// let ones = vec![1u32; flat.len()];
    /// let (mut seq, mut par) = (Vec::new(), Vec::new());
    /// flat.propagate(0, &ones, &mut seq, |p, l| p + l)?;
    /// flat.propagate_parallel(0, &ones, &mut par, |p, l| p + l)?;
    /// assert_eq!(seq, par); // depth + 1 of every position
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn propagate_parallel<T: Copy + Send + Sync>(
        &self,
        root_value: T,
        locals: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T + Sync,
    ) -> Result<(), LengthMismatch> {
        let Some(target) = self.parallel_target() else {
            return self.propagate(root_value, locals, out, combine);
        };
        self.fits(locals, out)?;
        let cut = self.cut(target);
        // Every position is written below, so `out` only needs its length; a buffer
        // kept from the last pass already has it (no fill, which would cost as much
        // memory traffic as the pass itself).
        if out.len() != locals.len() {
            out.clear();
            out.resize(locals.len(), root_value);
        }
        let above = |out: &[T], pos: usize| match self.parents[pos] {
            Flattened::NIL => root_value,
            parent => out[parent as usize],
        };
        // Tops in pre-order: each one's parent is a top computed before it.
        for &top in &cut.tops {
            out[top] = combine(&above(out, top), &locals[top]);
        }
        let roots: Vec<T> = cut.chunks.iter().map(|&c| above(out, c)).collect();
        let slices = self.task_slices(&cut, out);
        slices
            .into_par_iter()
            .zip(cut.tasks.par_iter())
            .for_each(|((offset, slice), task)| {
                for (&chunk, root) in cut.chunks[task.clone()].iter().zip(&roots[task.clone()]) {
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

    /// The child-before-parent pass: `out[i]` is `own[i]` combined with the `out` of
    /// each child, `out[i] = combine(&out[i], &out[child])`, children taken last to
    /// first. Subtree bounds are `accumulate(&own_boxes, &mut out, |a, b|
    /// a.union(b))`; subtree sizes, counts and "any descendant is selected" flags
    /// work the same way. `out` is cleared first and ends with one value per
    /// position.
    ///
    /// Errors: [`LengthMismatch`] if `own` does not hold one value per position (`out`
    /// is then left empty).
    ///
    /// ```
    /// # use scenewalk_core::Graph;
    /// # use scenewalk_iterators::Flattened;
    /// # #[derive(Clone, Debug)] struct Group;
    /// # impl scenewalk_core::NodeCore for Group {}
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Group);
    /// let a = graph.append_child(root, Group)?;
    /// graph.append_child(a, Group)?;
    /// graph.append_child(root, Group)?;
    /// let flat = Flattened::build(&graph, root)?;
    /// let mut sizes = Vec::new();
    /// flat.accumulate(&vec![1u32; flat.len()], &mut sizes, |a, b| a + b)?;
    /// assert_eq!(sizes, flat.sizes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn accumulate<T: Copy>(
        &self,
        own: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T,
    ) -> Result<(), LengthMismatch> {
        self.fits(own, out)?;
        out.clear();
        out.extend_from_slice(own);
        for pos in (1..out.len()).rev() {
            let parent = self.parents[pos] as usize;
            out[parent] = combine(&out[parent], &out[pos]);
        }
        Ok(())
    }

    /// [`accumulate`](Self::accumulate) on all threads of the current rayon pool, cut
    /// into subtree ranges as [`propagate_parallel`](Self::propagate_parallel) is:
    /// the ranges first, in parallel, then the tops on the calling thread. Every
    /// value is combined with its children in the same order as in the sequential
    /// pass, so the result is bit for bit the same.
    ///
    /// `T: Default` fills a new `out` once; a buffer kept from the last pass is
    /// overwritten in place.
    ///
    /// Errors: [`LengthMismatch`] as for `accumulate`.
    ///
    /// ```
    /// # use scenewalk_core::Graph;
    /// # use scenewalk_iterators::Flattened;
    /// # #[derive(Clone, Debug)] struct Group;
    /// # impl scenewalk_core::NodeCore for Group {}
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Group);
    /// for _ in 0..5000 { graph.append_child(root, Group)?; }
    /// let flat = Flattened::build(&graph, root)?;
    /// let mut sizes = Vec::new();
    /// flat.accumulate_parallel(&vec![1u32; flat.len()], &mut sizes, |a, b| a + b)?;
    /// assert_eq!(sizes, flat.sizes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn accumulate_parallel<T: Copy + Default + Send + Sync>(
        &self,
        own: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T + Sync,
    ) -> Result<(), LengthMismatch> {
        let Some(target) = self.parallel_target() else {
            return self.accumulate(own, out, combine);
        };
        self.fits(own, out)?;
        let cut = self.cut(target);
        if out.len() != own.len() {
            out.clear();
            out.resize(own.len(), Default::default());
        }
        let slices = self.task_slices(&cut, out);
        slices
            .into_par_iter()
            .zip(cut.tasks.par_iter())
            .for_each(|((offset, slice), task)| {
                // Each task starts its own span from `own`, while it is in cache.
                slice.copy_from_slice(&own[offset..offset + slice.len()]);
                for &chunk in &cut.chunks[task.clone()] {
                    let end = chunk + self.sizes[chunk] as usize;
                    let out = &mut slice[chunk - offset..end - offset];
                    let parents = &self.parents[chunk..end];
                    for (i, &parent) in parents.iter().enumerate().skip(1).rev() {
                        let parent = parent as usize - chunk;
                        out[parent] = combine(&out[parent], &out[i]);
                    }
                }
            });
        // The tops start from `own` too (those inside a task's span already do).
        for &top in &cut.tops {
            out[top] = own[top];
        }
        // Tops and chunk roots, last to first: each parent receives its children in
        // the sequential pass's order (descending position).
        let (mut tops, mut chunks) = (cut.tops.iter().rev().peekable(), cut.chunks.iter().rev());
        let mut next_chunk = chunks.next();
        loop {
            let pos = match (tops.peek(), next_chunk) {
                (Some(&&t), Some(&c)) if t > c => {
                    tops.next();
                    t
                }
                (_, Some(&c)) => {
                    next_chunk = chunks.next();
                    c
                }
                (Some(&&t), None) => {
                    tops.next();
                    t
                }
                (None, None) => break,
            };
            if let Some(parent) = self.parent(pos) {
                out[parent] = combine(&out[parent], &out[pos]);
            }
        }
        Ok(())
    }
}
