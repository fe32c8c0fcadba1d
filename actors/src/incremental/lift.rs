//! Ancestor boxes of a patch, from the changed children's old and new boxes where exact.

use super::subtree::{Kinds, rebox};
use crate::{PerNode, WorldTransforms};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Graph, NodeIndex};

/// A child's box went from `old` to `new`: its parent's box is due.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lift {
    parent: NodeIndex,
    old: Aabb,
    new: Aabb,
}

/// Ancestors warmed up together.
const BATCH: usize = 16;

/// `parent`'s box after one child's went from `old` to `new`, when the other
/// contributors need not be read: on every face the child lay strictly inside
/// (another defines it) or defined it and did not retreat. Then it is `parent ∪ new`,
/// as a full union gives. `None` otherwise and for any NaN (comparisons are false).
#[inline]
pub(super) fn lift(parent: &Aabb, old: &Aabb, new: &Aabb) -> Option<Aabb> {
    let min = old.min.cmpgt(parent.min) | (old.min.cmpeq(parent.min) & new.min.cmple(old.min));
    let max = old.max.cmplt(parent.max) | (old.max.cmpeq(parent.max) & new.max.cmpge(old.max));
    let nan = new.min.is_nan_mask() | new.max.is_nan_mask();
    ((min & max).all() && !nan.any()).then(|| parent.union(new))
}

/// A patch's lifts by level (the parents' depth below the root); the lists stay
/// allocated for the next patch.
#[derive(Clone, Debug, Default)]
pub(super) struct Lifts {
    levels: Vec<Vec<Lift>>,
    /// One more than the deepest level holding lifts.
    deepest: usize,
}

impl Lifts {
    /// Lists a lift of `node`'s parent (at `level`, one above the node's depth).
    pub(super) fn push(
        &mut self,
        graph: &Graph,
        level: usize,
        node: NodeIndex,
        old: Aabb,
        new: Aabb,
    ) {
        if let Some(parent) = graph.parent_at(node) {
            self.add(level, parent, old, new);
        }
    }

    /// Lists `node` at its `level`, to be boxed from all contributors ([`lift`] refuses NaN).
    pub(super) fn rebox(&mut self, level: usize, node: NodeIndex) {
        let nan = Aabb::new(Vec3::NAN, Vec3::NAN);
        self.add(level, node, nan, Aabb::EMPTY);
    }

    fn add(&mut self, level: usize, parent: NodeIndex, old: Aabb, new: Aabb) {
        if self.levels.len() <= level {
            self.levels.resize_with(level + 1, Vec::new);
        }
        if let Some(lifts) = self.levels.get_mut(level) {
            lifts.push(Lift { parent, old, new });
            self.deepest = self.deepest.max(level + 1);
        }
    }

    /// Empties the lists (left over only if an earlier patch gave up half way).
    pub(super) fn clear(&mut self) {
        let used = self.levels.get_mut(..self.deepest).unwrap_or_default();
        used.iter_mut().for_each(Vec::clear);
        self.deepest = 0;
    }

    /// Brings the listed boxes up to date, level by level from the deepest, each level
    /// in slot order, only while they change. Returns the boxes recomputed.
    pub(super) fn run(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        kinds: &Kinds<'_>,
        world: &WorldTransforms,
        boxes: &mut PerNode<Aabb>,
    ) -> Option<usize> {
        let mut ancestors = 0;
        while self.deepest > 0 {
            self.deepest -= 1;
            let level = self.deepest;
            // Taken out while its parents are listed one level up; put back emptied.
            let mut lifts = std::mem::take(self.levels.get_mut(level)?);
            // Pushed in pre-order, a level's lifts are often sorted already.
            if !lifts.is_sorted_by_key(|l| l.parent) {
                lifts.sort_unstable_by_key(|l| l.parent);
            }
            let mut at = 0;
            let mut warmed = 0;
            while let Some(first) = lifts.get(at) {
                let node = first.parent;
                let group = lifts.get(at..)?;
                let group = group.get(..group.iter().take_while(|l| l.parent == node).count())?;
                if at >= warmed {
                    warmed = (at + BATCH).min(lifts.len());
                    warm(graph, boxes, lifts.get(at..warmed)?);
                }
                at += group.len();
                ancestors += 1;
                let before = boxes.value_at(node)?;
                let lifted = group
                    .iter()
                    .try_fold(before, |acc, l| lift(&acc, &l.old, &l.new));
                let after = match lifted {
                    Some(after) => {
                        boxes.overwrite(node, after);
                        after
                    }
                    None => {
                        rebox(graph, kinds, world, boxes, node);
                        boxes.value_at(node)?
                    }
                };
                if before != after && node != root && level > 0 {
                    self.push(graph, level - 1, node, before, after);
                }
            }
            lifts.clear();
            *self.levels.get_mut(level)? = lifts;
        }
        Some(ancestors)
    }
}

/// Loads the next ancestors' boxes and links first, so their cache misses overlap.
fn warm(graph: &Graph, boxes: &PerNode<Aabb>, lifts: &[Lift]) {
    let mut sum = 0u32;
    for l in lifts {
        sum = sum
            .wrapping_add(graph.parent_at(l.parent).map_or(0, NodeIndex::raw))
            .wrapping_add(boxes.value_at(l.parent).map_or(0, |b| b.min.x.to_bits()));
    }
    std::hint::black_box(sum);
}

#[cfg(test)]
mod tests {
    use super::lift;
    use scenewalk_core::Aabb;
    use scenewalk_core::glam::Vec3;

    // That the lifted box equals the union of all contributors is checked through the
    // update in `tests/incremental.rs`; here, where `lift` gives up.
    #[test]
    fn lift_refuses_a_retreat_from_a_defined_face_and_nan() {
        let parent = Aabb::new(Vec3::ZERO, Vec3::splat(4.0));
        let child = Aabb::new(Vec3::ZERO, Vec3::ONE);
        let inside = Aabb::new(Vec3::ONE, Vec3::splat(2.0));
        // The child defined min: moving inwards needs the siblings.
        assert_eq!(lift(&parent, &child, &inside), None);
        // Moving outwards does not.
        let out = Aabb::new(Vec3::splat(-1.0), Vec3::ONE);
        let grown = Aabb::new(Vec3::splat(-1.0), Vec3::splat(4.0));
        assert_eq!(lift(&parent, &child, &out), Some(grown));
        // A child strictly inside may go anywhere.
        assert_eq!(lift(&parent, &inside, &out), Some(grown));
        let nan = Aabb {
            min: Vec3::splat(f32::NAN),
            max: Vec3::ONE,
        };
        assert_eq!(lift(&parent, &inside, &nan), None);
        assert_eq!(lift(&parent, &nan, &inside), None);
    }
}
