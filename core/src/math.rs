//! Bounding boxes; the rest of the math is [`glam`], re-exported at the crate root.

use glam::{Affine3A, Vec3, Vec3A};

/// An axis-aligned bounding box. The empty box ([`Aabb::EMPTY`]) is the identity of
/// [`union`](Aabb::union).
///
/// ```
/// use scenewalk_core::{Aabb, glam::{Affine3A, Vec3}};
/// let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// let moved = unit.transformed(&Affine3A::from_translation(Vec3::X * 2.0));
/// assert_eq!(unit.union(&moved), Aabb::new(Vec3::ZERO, Vec3::new(3.0, 1.0, 1.0)));
/// assert_eq!(Aabb::EMPTY.union(&unit), unit);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Default for Aabb {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl Aabb {
    /// The box that contains nothing.
    pub const EMPTY: Aabb = Aabb {
        min: Vec3::splat(f32::INFINITY),
        max: Vec3::splat(f32::NEG_INFINITY),
    };

    /// The box between two corners (they are sorted per axis).
    pub fn new(a: Vec3, b: Vec3) -> Self {
        Self {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The smallest box that holds every point (empty for no points).
    pub fn from_points(points: impl IntoIterator<Item = Vec3>) -> Self {
        points.into_iter().fold(Self::EMPTY, |b, p| b.including(p))
    }

    /// Whether the box holds no point.
    pub fn is_empty(&self) -> bool {
        !(self.min.cmple(self.max).all())
    }

    /// Whether both corners are finite numbers (no NaN, no infinity).
    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.max.is_finite()
    }

    /// The smallest box holding both.
    ///
    /// A NaN in a corner coordinate of either box stays in that coordinate of the
    /// union, whatever the order of the merges: a subtree box that saw a NaN is NaN,
    /// so a culler, which counts NaN as visible, never drops what lies below it.
    #[must_use]
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        // glam's min and max keep a NaN of one operand only.
        let nan_min = self.min.is_nan_mask() | other.min.is_nan_mask();
        let nan_max = self.max.is_nan_mask() | other.max.is_nan_mask();
        Aabb {
            min: Vec3::select(nan_min, Vec3::NAN, self.min.min(other.min)),
            max: Vec3::select(nan_max, Vec3::NAN, self.max.max(other.max)),
        }
    }

    /// The smallest box holding this one and `p`.
    #[must_use]
    pub fn including(&self, p: Vec3) -> Aabb {
        Aabb {
            min: self.min.min(p),
            max: self.max.max(p),
        }
    }

    /// The box grown by `margin` on every side (room for rounding); the empty box stays
    /// empty, and a negative margin that shrinks the box past a side's width empties it.
    #[must_use]
    pub fn padded(&self, margin: f32) -> Aabb {
        if self.is_empty() {
            return *self;
        }
        let margin = Vec3::splat(margin);
        let (min, max) = (self.min - margin, self.max + margin);
        if min.cmpgt(max).any() {
            return Aabb::EMPTY;
        }
        Aabb { min, max }
    }

    /// Whether the boxes share at least one point (touching counts).
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmple(other.max).all() && other.min.cmple(self.max).all()
    }

    /// The centre; `Vec3::ZERO` for a box that holds no point (a NaN corner included).
    pub fn center(&self) -> Vec3 {
        if self.is_empty() {
            Vec3::ZERO
        } else {
            (self.min + self.max) * 0.5
        }
    }

    /// The size along each axis (zero for an empty box).
    pub fn size(&self) -> Vec3 {
        if self.is_empty() {
            Vec3::ZERO
        } else {
            self.max - self.min
        }
    }

    /// The box around this box after an affine transform (Arvo's method); the empty box
    /// stays empty.
    #[must_use]
    #[inline]
    pub fn transformed(&self, m: &Affine3A) -> Aabb {
        if self.is_empty() {
            return *self;
        }
        let min = Vec3A::from(self.min);
        let max = Vec3A::from(self.max);
        let center = m.transform_point3a((min + max) * 0.5);
        let extent = m.matrix3.abs() * ((max - min) * 0.5);
        Aabb {
            min: (center - extent).into(),
            max: (center + extent).into(),
        }
    }
}
