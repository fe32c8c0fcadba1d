//! The matrix list of the matrix-stack actors: the distinct world matrices of a run,
//! who pushed each, and how a parallel worker's list joins its parent's.

use crate::per_node::Spares;
use scenewalk_core::glam::{Affine3A, Mat3A};
use scenewalk_core::{KeptColumn, NodeIndex, RunContext, StateCell, TypeSet, Visit};
use scenewalk_nodes::Transform;

use super::world_above;

/// `parent × local`, bit for bit glam's `Affine3A * Affine3A` (the same column
/// products in the same order), but always inlined: in the fused run loop the
/// compiler kept glam's operator out of line, a call per transform node.
#[inline(always)]
pub(super) fn product(parent: &Affine3A, local: &Affine3A) -> Affine3A {
    let m = &parent.matrix3;
    Affine3A {
        matrix3: Mat3A::from_cols(
            m.mul_vec3a(local.matrix3.x_axis),
            m.mul_vec3a(local.matrix3.y_axis),
            m.mul_vec3a(local.matrix3.z_axis),
        ),
        translation: m.mul_vec3a(local.translation) + parent.translation,
    }
}

/// Whether every number of `world` is finite, as `Affine3A::is_finite`, with the four
/// columns' masks combined before the one test (inlined, one branch).
#[inline(always)]
pub(super) fn is_finite(world: &Affine3A) -> bool {
    let m = &world.matrix3;
    (m.x_axis.is_finite_mask()
        & m.y_axis.is_finite_mask()
        & m.z_axis.is_finite_mask()
        & world.translation.is_finite_mask())
    .all()
}

/// The distinct world matrices of a run, one per transform node reached (and one for
/// the root's parent). The ordered state of the matrix-stack actors is an index into
/// it: 4 bytes to copy and to record per node, where the matrix is 64.
#[derive(Clone, Debug)]
pub(crate) struct WorldMatrices {
    transforms: TypeSet,
    /// The graph's `Transform` column, kept for a run (released by [`end`](Self::end))
    /// so a transform node's local costs no downcast.
    locals: KeptColumn<Transform>,
    matrices: Vec<Affine3A>,
    /// Transform nodes whose world matrix came out NaN or infinite.
    non_finite: Vec<NodeIndex>,
    /// The run's root, when the matrix above it is already bad (listed once).
    bad_root: Option<NodeIndex>,
    /// Whether `owners` is kept (by incremental updates only, so other runs do not
    /// pay for it).
    track_owners: bool,
    /// The transform node that pushed each matrix, with the state it was pushed
    /// below: a patch may overwrite a matrix in place only for the node that owns
    /// it, as only that node's subtree refers to it; and a patch that starts at that
    /// node finds its parent's state here, in the record it reads anyway.
    owners: Vec<Owner>,
    /// Parallel runs, in a worker: the parent's state its matrix 0 stands for, and
    /// how long the parent's `non_finite` was at the fork (where this worker's go).
    /// In the parent: how many entries merges have put in `non_finite` since.
    pub(super) fork: ForkMarks,
    /// Merged workers' matrix lists, emptied, for the next parallel run's workers.
    spare: Spares<Vec<Affine3A>>,
}

/// Who pushed a matrix, and below which state (`u32::MAX` for both for the matrix
/// above the root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Owner {
    pub(crate) node: u32,
    pub(crate) above: u32,
}

impl Owner {
    const ROOT: Self = Self {
        node: u32::MAX,
        above: u32::MAX,
    };
}

/// Where a parallel worker's matrices and list entries belong in its parent's.
#[derive(Clone, Debug, Default)]
pub(super) struct ForkMarks {
    base: u32,
    mark: usize,
    merged: usize,
    /// In the parent: per merged worker, in merge order, how its indices map to
    /// the parent's ([`renumber_index`]).
    pub(super) renumber: Vec<(u32, u32)>,
    /// In the parent: the merged workers' matrix lists, appended at the run's end
    /// ([`WorldMatrices::append_merged`]), and how many matrices they add.
    merged_lists: Vec<Vec<Affine3A>>,
    appending: usize,
}

/// A merged worker's matrix index `i` in its parent's list: its matrix 0 stands for
/// the parent's `base`, the others were appended after `offset`.
#[inline(always)]
pub(super) fn renumber_index(i: u32, base: u32, offset: u32) -> u32 {
    if i == 0 { base } else { offset.wrapping_add(i) }
}

impl WorldMatrices {
    pub(crate) fn new() -> Self {
        Self {
            transforms: TypeSet::of::<Transform>(),
            locals: KeptColumn::new(),
            matrices: Vec::new(),
            non_finite: Vec::new(),
            bad_root: None,
            track_owners: false,
            owners: Vec::new(),
            fork: ForkMarks::default(),
            spare: Spares::default(),
        }
    }

    /// Keeps the owner of each matrix from now on, for in-place patches.
    pub(crate) fn track_owners(&mut self) {
        self.track_owners = true;
    }

    /// Starts a run; returns the state above the root.
    pub(crate) fn begin(&mut self, run: &RunContext<'_>) -> u32 {
        self.transforms.resolve(run.graph.types());
        self.matrices.clear();
        self.non_finite.clear();
        let above = world_above(run.graph, run.root);
        self.bad_root = (!above.is_finite()).then_some(run.root);
        self.non_finite.extend(self.bad_root);
        self.matrices.push(above);
        self.owners.clear();
        if self.track_owners {
            self.owners.push(Owner::ROOT);
        }
        self.fork.base = 0;
        self.fork.mark = 0;
        self.fork.merged = 0;
        self.fork.renumber.clear();
        // Lists an unfinished run merged are that run's.
        self.fork.appending = 0;
        for mut list in std::mem::take(&mut self.fork.merged_lists) {
            list.clear();
            self.spare.give(list);
        }
        0
    }

    /// Ends a run: appends the merged workers' matrices, lets go of the graph's
    /// `Transform` column, so an edit between runs does not copy it.
    pub(crate) fn end(&mut self) {
        self.append_merged();
        self.locals.release();
    }

    /// Exchanges the matrix list with `list` (publishing and taking back results).
    pub(crate) fn swap_list(&mut self, list: &mut Vec<Affine3A>) {
        std::mem::swap(&mut self.matrices, list);
    }

    /// How many matrices the runs since the last full one recorded.
    pub(crate) fn len(&self) -> usize {
        self.matrices.len()
    }

    /// At a transform node, makes `parent world × local` the node's own state.
    /// Returns the node's state, so the caller need not read the cell again.
    #[inline(always)]
    pub(crate) fn enter(&mut self, state: &mut StateCell<'_, u32>, visit: &Visit<'_>) -> u32 {
        let above = *state.get();
        if !self.transforms.contains(visit.node_type()) {
            return above;
        }
        let Some(&local) = self.locals.get(visit).map(Transform::local) else {
            return above;
        };
        let world = product(&self.get(above), &local);
        if !is_finite(&world) && self.bad_root != Some(visit.node()) {
            self.non_finite.push(visit.node());
        }
        self.matrices.push(world);
        if self.track_owners {
            self.owners.push(Owner {
                node: visit.node().raw(),
                above,
            });
        }
        let own = (self.matrices.len() - 1) as u32;
        state.set(own);
        own
    }

    pub(crate) fn non_finite(&self) -> &[NodeIndex] {
        &self.non_finite
    }

    #[inline(always)]
    pub(crate) fn get(&self, index: u32) -> Affine3A {
        self.matrices
            .get(index as usize)
            .copied()
            .unwrap_or(Affine3A::IDENTITY)
    }
}

/// Parallel runs: a worker per subtree below the split points starts its own matrix
/// list from the world matrix at the subtree's root; the merge appends the worker's
/// matrices and renumbers its per-node indices, so every node reads the matrix a
/// sequential run computes (the same products in the same order, bit for bit).
impl WorldMatrices {
    /// A worker's matrices: one, the world matrix of `state`, as state 0.
    pub(crate) fn fork_at(&self, state: u32) -> Self {
        let mut matrices = self.spare.take().unwrap_or_default();
        matrices.push(self.get(state));
        Self {
            transforms: self.transforms.clone(),
            locals: KeptColumn::new(),
            matrices,
            non_finite: Vec::new(),
            bad_root: None,
            track_owners: self.track_owners,
            owners: if self.track_owners {
                vec![Owner::ROOT]
            } else {
                Vec::new()
            },
            fork: ForkMarks {
                base: state,
                mark: self.non_finite.len(),
                merged: 0,
                renumber: Vec::new(),
                merged_lists: Vec::new(),
                appending: 0,
            },
            spare: Spares::default(),
        }
    }

    /// Appends the matrix lists of the workers merged since the last call (but
    /// each one's matrix 0), in merge order: each list copied by a thread of the
    /// current pool into its own part of the grown list.
    fn append_merged(&mut self) {
        let lists = std::mem::take(&mut self.fork.merged_lists);
        self.fork.appending = 0;
        let old = self.matrices.len();
        let total = lists
            .iter()
            .map(|l| l.len().saturating_sub(1))
            .sum::<usize>();
        self.matrices.resize(old + total, Affine3A::IDENTITY);
        let mut rest = self.matrices.get_mut(old..).unwrap_or_default();
        let mut jobs = Vec::with_capacity(lists.len());
        for list in &lists {
            let from = list.get(1..).unwrap_or_default();
            let Some((to, next)) = rest.split_at_mut_checked(from.len()) else {
                break;
            };
            jobs.push((to, from));
            rest = next;
        }
        crate::shared::for_each(jobs, |(to, from)| to.copy_from_slice(from));
        for mut list in lists {
            list.clear();
            self.spare.give(list);
        }
    }

    /// Keeps a worker's matrix list for a later worker, when its matrices are not
    /// needed after the run (the bounds' copy of the matrix stack).
    pub(crate) fn recycle(&mut self, mut worker: Self) {
        worker.matrices.clear();
        self.spare.give(worker.matrices);
    }

    /// Appends a worker's matrices (but its matrix 0, which is `base`'s) and puts its
    /// non-finite nodes where they come in traversal order. Notes how the worker's
    /// indices map to this list's, in merge order, for the copies at the end.
    pub(super) fn merge(&mut self, mut worker: Self) {
        let base = worker.fork.base;
        let offset = ((self.matrices.len() + self.fork.appending) as u32).wrapping_sub(1);
        self.fork.renumber.push((base, offset));
        let map = move |i: u32| renumber_index(i, base, offset);
        // Nothing reads the merged matrices before the run ends: they are appended
        // then, on every thread (appended here, one list after the other, they took
        // a visible share of the calling thread's merges on the city).
        self.fork.appending += worker.matrices.len().saturating_sub(1);
        self.fork
            .merged_lists
            .push(std::mem::take(&mut worker.matrices));
        if self.track_owners {
            self.owners
                .extend(worker.owners.iter().skip(1).map(|o| Owner {
                    node: o.node,
                    above: map(o.above),
                }));
        }
        let at = (worker.fork.mark + self.fork.merged).min(self.non_finite.len());
        self.fork.merged += worker.non_finite.len();
        self.non_finite.splice(at..at, worker.non_finite);
    }
}

/// For the incremental update's own subtree pass, which walks without a `Visit`.
impl WorldMatrices {
    /// As [`enter_in_place`](Self::enter_in_place) for the transform node in slot
    /// `node` with local matrix `local`, below a parent whose state is `parent`:
    /// the node's state, or `None` if its world matrix is not finite (the caller
    /// then recomputes everything, which lists it).
    #[inline]
    pub(crate) fn patch_transform(
        &mut self,
        node: NodeIndex,
        parent: u32,
        local: &Affine3A,
        previous: Option<u32>,
    ) -> Option<u32> {
        let world = product(&self.get(parent), local);
        if !is_finite(&world) {
            return None;
        }
        let node = node.raw();
        if let Some(i) = previous
            && let Some(owner) = self.owners.get_mut(i as usize)
            && owner.node == node
            && let Some(slot) = self.matrices.get_mut(i as usize)
        {
            *slot = world;
            owner.above = parent;
            return Some(i);
        }
        self.matrices.push(world);
        if self.track_owners {
            self.owners.push(Owner {
                node,
                above: parent,
            });
        }
        Some((self.matrices.len() - 1) as u32)
    }

    /// Overwrites matrix `index` with `above × local`, for a payload-only patch that
    /// follows the plan of the last full run (which numbered the matrices):
    /// `None` when the product is not finite (the caller then recomputes
    /// everything).
    #[inline(always)]
    pub(crate) fn overwrite_at(&mut self, index: u32, above: u32, local: &Affine3A) -> Option<()> {
        let world = product(&self.get(above), local);
        if !is_finite(&world) {
            return None;
        }
        *self.matrices.get_mut(index as usize)? = world;
        Some(())
    }

    /// The record of matrix `index` (kept by incremental updates only).
    #[inline]
    pub(crate) fn owner(&self, index: u32) -> Option<Owner> {
        self.owners.get(index as usize).copied()
    }

    /// Overwrites matrix `index`, which `node`'s subtree alone refers to, with
    /// `above × local`, for a payload-only patch (no state changes): `None` when
    /// `node` does not own it or the product is not finite (the caller then
    /// recomputes everything).
    #[inline]
    pub(crate) fn overwrite(
        &mut self,
        node: NodeIndex,
        index: u32,
        above: u32,
        local: &Affine3A,
    ) -> Option<()> {
        let world = product(&self.get(above), local);
        let owner = self.owners.get(index as usize)?;
        if owner.node != node.raw() || owner.above != above || !is_finite(&world) {
            return None;
        }
        *self.matrices.get_mut(index as usize)? = world;
        Some(())
    }
}
