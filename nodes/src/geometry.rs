//! The geometry leaf.

use scenewalk_core::{Aabb, NodeCore};

/// Renderable geometry, reduced to what traversals need: its local bounding box and
/// how many primitives it holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    bounds: Aabb,
    primitives: u32,
}

impl Geometry {
    /// Geometry with this local bounding box and no primitive count. The box is taken
    /// as given; use [`try_new`](Geometry::try_new) for untrusted input.
    pub fn new(bounds: Aabb) -> Self {
        Self {
            bounds,
            primitives: 0,
        }
    }

    /// Geometry with a bounding box and a primitive (triangle) count.
    pub fn with_primitives(bounds: Aabb, primitives: u32) -> Self {
        Self { bounds, primitives }
    }

    /// Geometry with a checked box: the form for untrusted input.
    ///
    /// Errors: [`BadBounds`] if a corner holds a NaN or infinity, or `min` lies above
    /// `max` on some axis. The empty box ([`Aabb::EMPTY`], geometry with no extent) is
    /// accepted.
    pub fn try_new(bounds: Aabb, primitives: u32) -> Result<Self, BadBounds> {
        if (bounds.is_finite() && !bounds.is_empty()) || bounds == Aabb::EMPTY {
            Ok(Self { bounds, primitives })
        } else {
            Err(BadBounds(bounds))
        }
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
