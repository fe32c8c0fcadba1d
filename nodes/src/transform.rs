//! The transform node.

use scenewalk_core::NodeCore;
use scenewalk_core::glam::{Affine3A, Mat4, Quat, Vec3};

/// A local affine transform applied to the node's subtree: world = parent world × local.
///
/// ```
/// use scenewalk_core::glam::{Quat, Vec3};
/// use scenewalk_nodes::Transform;
/// let t = Transform::from_trs(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY, Vec3::splat(2.0));
/// assert_eq!(t.local().transform_point3(Vec3::ONE), Vec3::new(3.0, 4.0, 5.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    local: Affine3A,
}

impl Default for Transform {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Transform {
    /// The identity.
    pub const IDENTITY: Transform = Transform {
        local: Affine3A::IDENTITY,
    };

    /// From an affine matrix.
    pub fn from_affine(local: Affine3A) -> Self {
        Self { local }
    }

    /// From a 4×4 matrix whose last row is (0, 0, 0, 1); `None` if it is projective or
    /// holds a NaN or infinity.
    pub fn from_mat4(m: Mat4) -> Option<Self> {
        let row3 = m.row(3);
        if !m.is_finite() || row3 != scenewalk_core::glam::Vec4::W {
            return None;
        }
        Some(Self {
            local: Affine3A::from_mat4(m),
        })
    }

    /// From translation, rotation and scale (applied scale first).
    pub fn from_trs(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            local: Affine3A::from_scale_rotation_translation(scale, rotation, translation),
        }
    }

    /// A translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self {
            local: Affine3A::from_translation(translation),
        }
    }

    /// The local transform.
    pub fn local(&self) -> &Affine3A {
        &self.local
    }

    /// Replaces the local transform.
    pub fn set_local(&mut self, local: Affine3A) {
        self.local = local;
    }

    /// Whether every entry is a finite number.
    pub fn is_finite(&self) -> bool {
        self.local.is_finite()
    }
}

impl NodeCore for Transform {}
