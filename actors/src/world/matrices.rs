//! The world matrices of the matrix-stack actors.

use crate::per_node::Pages;
use scenewalk_core::Invariant;
use scenewalk_core::glam::{Affine3A, Mat3A};
use scenewalk_core::{Graph, NodeIndex, NodeType, RunContext, StateCell, Typed, Visit};
use scenewalk_nodes::Transform;

use super::world_above;

/// `parent × local`, bit for bit glam's `Affine3A * Affine3A`, but always inlined
/// (the compiler kept glam's operator out of line in the run loop).
#[inline(always)]
fn product(parent: &Affine3A, local: &Affine3A) -> Affine3A {
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

/// `Affine3A::is_finite`, with the columns' masks combined before one test.
#[inline(always)]
fn is_finite(world: &Affine3A) -> bool {
    let m = &world.matrix3;
    (m.x_axis.is_finite_mask()
        & m.y_axis.is_finite_mask()
        & m.z_axis.is_finite_mask()
        & world.translation.is_finite_mask())
    .all()
}

/// The world matrices of a run, by place (the actors' ordered state; layout in
/// `docs/architecture.md`), so a parallel worker writes at its own places and an
/// incremental patch overwrites a changed transform's matrix where it is.
#[derive(Clone, Debug, Default)]
pub(crate) struct WorldMatrices {
    /// The types that are a transform, with the `Transform` column during a run.
    transforms: Typed<Transform>,
    /// Per type index: 1 + the type's number among the transform types, or 0.
    kind: Vec<u32>,
    /// How many types are a transform.
    kinds: u32,
    pub(crate) matrices: Pages<Affine3A>,
    /// Transform nodes whose world matrix came out NaN or infinite.
    pub(super) non_finite: Vec<NodeIndex>,
    /// The run's root, when the matrix above it is already bad (listed once).
    bad_root: Option<NodeIndex>,
    /// In a parallel worker: its parent's `non_finite` length at the fork. In the
    /// parent: the entries merges have put in `non_finite` since.
    mark: usize,
    merged: usize,
    /// World matrices computed at enter (transform nodes), for the tests that a pass
    /// computes each once.
    #[cfg(test)]
    pub(crate) products: u64,
}

impl WorldMatrices {
    /// Numbers the transform types of `graph` (`Transform` first, present or not, so
    /// adding the first moves no place) and sizes the table for their payloads; false
    /// when a new type extending `Transform` moved every place (a patch cannot go on).
    pub(crate) fn layout(&mut self, graph: &Graph) -> bool {
        let (types, before) = (graph.types(), self.kinds);
        self.transforms.resolve(types);
        self.kind.clear();
        self.kinds = 1;
        let mut longest = 0;
        for (ty, info) in types.iter() {
            let kind = if info.type_id == std::any::TypeId::of::<Transform>() {
                1
            } else if self.transforms.contains(ty) {
                self.kinds += 1;
                self.kinds
            } else {
                0
            };
            if kind > 0 {
                longest = longest.max(graph.payload_count(ty));
            }
            self.kind.push(kind);
        }
        self.matrices.grow(1 + longest * self.kinds as usize);
        self.kinds == before
    }

    /// The place of the matrix of the transform node in slot `node` (of type `ty`).
    #[inline(always)]
    pub(crate) fn place(&self, graph: &Graph, node: NodeIndex, ty: NodeType) -> Option<u32> {
        // The type first: most nodes are no transform and need not load their slot.
        let kind = self.kind.get(ty.get()).filter(|&&kind| kind > 0)?;
        let slot = graph.payload_slot_at(node)?;
        Some(1 + slot * self.kinds + kind - 1)
    }

    /// Starts a run; returns the state above the root.
    pub(crate) fn begin(&mut self, run: &RunContext<'_>) -> u32 {
        self.layout(run.graph);
        self.matrices.drop_pending();
        self.non_finite.clear();
        let above = world_above(run.graph, run.root);
        self.bad_root = (!above.is_finite()).then_some(run.root);
        self.non_finite.extend(self.bad_root);
        self.matrices.set(0, above);
        self.merged = 0;
        0
    }

    /// Ends a run: the merged workers' matrices go in, the `Transform` column goes.
    pub(crate) fn end(&mut self) {
        self.matrices.finish();
        self.transforms.release();
    }

    /// At a transform node, makes `parent world × local` its own state; returns it.
    #[inline(always)]
    pub(crate) fn enter(&mut self, state: &mut StateCell<'_, u32>, visit: &Visit<'_>) -> u32 {
        let above = *state.get();
        let Some(own) = self.place(visit.graph(), visit.node(), visit.node_type()) else {
            return above;
        };
        let Some(&local) = self.transforms.get(visit).map(Transform::local) else {
            return above;
        };
        let world = product(&self.get(above), &local);
        #[cfg(test)]
        {
            self.products += 1;
        }
        if !is_finite(&world) && self.bad_root != Some(visit.node()) {
            self.non_finite.push(visit.node());
        }
        self.matrices.set(own as usize, world);
        state.set(own);
        own
    }

    /// The world matrix at `place`, which a run or patch wrote (a missing one is a
    /// broken invariant: see [`Invariant`]).
    #[inline(always)]
    pub(crate) fn get(&self, place: u32) -> Affine3A {
        (self.matrices.get(place as usize).copied()).invariant("a world matrix")
    }

    /// Overwrites the matrix at `place` with `above × local` (a patch; the table grows
    /// as needed); `None` when it is not finite.
    #[inline]
    pub(crate) fn write(&mut self, place: u32, above: u32, local: &Affine3A) -> Option<u32> {
        let world = product(&self.get(above), local);
        if !is_finite(&world) {
            return None;
        }
        self.matrices.grow(place as usize + 1);
        self.matrices.set(place as usize, world);
        Some(place)
    }

    /// A parallel worker's matrices, starting from `state` (written at their places;
    /// the one at `state` too, as the table holds it, so the worker reads it as its own).
    pub(crate) fn fork_at(&self, state: u32) -> Self {
        let mut matrices = self.matrices.fork();
        matrices.set(state as usize, self.get(state));
        Self {
            transforms: self.transforms.clone(),
            kind: self.kind.clone(),
            kinds: self.kinds,
            matrices,
            mark: self.non_finite.len(),
            ..Self::default()
        }
    }

    /// Takes a worker's matrices, its non-finite nodes where they come in order.
    pub(crate) fn merge(&mut self, mut worker: Self) {
        let list = &mut self.non_finite;
        crate::shared::put(list, worker.mark, &mut self.merged, &mut worker.non_finite);
        self.matrices.merge(worker.matrices);
    }
}
