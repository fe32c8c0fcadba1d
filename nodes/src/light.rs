//! The light node.

use scenewalk_core::NodeCore;
use scenewalk_core::glam::Vec3;

/// What kind of light a [`Light`] is (glTF's `KHR_lights_punctual`); it sits at its
/// node's origin and points down the node's −z.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LightKind {
    /// Parallel rays along the node's −z (the sun).
    Directional,
    /// Light from a point in every direction; `range` cuts it off (`None`: no cut).
    Point {
        /// Distance beyond which the light has no effect.
        range: Option<f32>,
    },
    /// A cone along −z.
    Spot {
        /// Distance beyond which the light has no effect.
        range: Option<f32>,
        /// Angle from the axis where the falloff starts, radians.
        inner_cone: f32,
        /// Angle from the axis where the light ends, radians (at most π/2).
        outer_cone: f32,
    },
}

/// A light source.
///
/// ```
/// use scenewalk_core::glam::Vec3;
/// use scenewalk_nodes::{Light, LightKind};
/// let lamp = Light::new(LightKind::Point { range: Some(20.0) }, Vec3::ONE, 800.0);
/// assert_eq!(lamp.intensity(), 800.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    kind: LightKind,
    color: Vec3,
    intensity: f32,
}

impl Light {
    /// A light of this kind, linear RGB colour and intensity (candela for point and
    /// spot lights, lux for directional ones, as in glTF).
    pub fn new(kind: LightKind, color: Vec3, intensity: f32) -> Light {
        Light {
            kind,
            color,
            intensity,
        }
    }

    /// The kind.
    pub fn kind(&self) -> &LightKind {
        &self.kind
    }

    /// The linear RGB colour.
    pub fn color(&self) -> Vec3 {
        self.color
    }

    /// The intensity.
    pub fn intensity(&self) -> f32 {
        self.intensity
    }
}

impl NodeCore for Light {}
