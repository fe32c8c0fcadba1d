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
    /// Geometry with this local bounding box and no primitive count.
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
