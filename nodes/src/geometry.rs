//! The geometry leaf.

use scenewalk_core::{Aabb, NodeCore};

/// Renderable geometry as traversals see it: a local bounding box and a primitive count.
///
/// ```
/// use scenewalk_core::{Aabb, glam::Vec3};
/// use scenewalk_nodes::Geometry;
/// let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
/// assert_eq!(Geometry::new(unit).local_bounds(), &unit);
/// assert!(Geometry::try_new(Aabb::new(Vec3::ZERO, Vec3::NAN), 0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    bounds: Aabb,
    primitives: u32,
}

impl Geometry {
    /// Geometry with this local box and no primitives, for boxes the program made: an
    /// inverted box is taken as given ([`try_new`](Geometry::try_new) checks).
    ///
    /// # Panics
    /// If a corner holds a NaN or an infinity ([`Aabb::EMPTY`] excepted), which would
    /// make every ancestor's box NaN.
    pub fn new(bounds: Aabb) -> Self {
        Self::with_primitives(bounds, 0)
    }

    /// As [`new`](Geometry::new), with a primitive (triangle) count; panics alike.
    pub fn with_primitives(bounds: Aabb, primitives: u32) -> Self {
        assert!(
            bounds.is_finite() || bounds == Aabb::EMPTY,
            "{}",
            BadBounds(bounds)
        );
        Self { bounds, primitives }
    }

    /// Geometry with a checked box, the form for untrusted input. Errors: [`BadBounds`]
    /// ([`Aabb::EMPTY`] is accepted).
    pub fn try_new(bounds: Aabb, primitives: u32) -> Result<Self, BadBounds> {
        let ok = (bounds.is_finite() && !bounds.is_empty()) || bounds == Aabb::EMPTY;
        ok.then_some(Self { bounds, primitives })
            .ok_or(BadBounds(bounds))
    }

    /// The box in the node's own coordinates.
    pub fn local_bounds(&self) -> &Aabb {
        &self.bounds
    }

    /// The primitive count.
    pub fn primitives(&self) -> u32 {
        self.primitives
    }
}

impl NodeCore for Geometry {}

/// A bounding box with a NaN or infinite corner, or with `min` above `max`.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("the bounding box {0:?} is not a box: a corner is NaN or infinite, or min lies above max")]
pub struct BadBounds(pub Aabb);
