//! The transform node.

use scenewalk_core::NodeCore;
use scenewalk_core::glam::{Affine3A, Mat4, Quat, Vec3};

/// A local affine transform applied to the node's subtree: world = parent world × local.
/// The default is the identity.
///
/// ```
/// use scenewalk_core::glam::{Quat, Vec3};
/// use scenewalk_nodes::Transform;
/// let t = Transform::from_trs(Vec3::new(1.0, 2.0, 3.0), Quat::IDENTITY, Vec3::splat(2.0));
/// assert_eq!(t.local().transform_point3(Vec3::ONE), Vec3::new(3.0, 4.0, 5.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Transform {
    local: Affine3A,
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

    /// From a 4×4 matrix whose last row is (0, 0, 0, 1). Errors: [`BadTransform`].
    pub fn from_mat4(m: Mat4) -> Result<Self, BadTransform> {
        if !m.is_finite() {
            return Err(BadTransform::NotFinite);
        }
        if m.row(3) != scenewalk_core::glam::Vec4::W {
            return Err(BadTransform::Projective);
        }
        Ok(Self::from_affine(Affine3A::from_mat4(m)))
    }

    /// From translation, rotation (normalized first) and scale, checked (NaN, infinity).
    pub fn try_from_trs(
        translation: Vec3,
        rotation: Quat,
        scale: Vec3,
    ) -> Result<Self, BadTransform> {
        let rotation = normalized(rotation).ok_or(BadTransform::NotFinite)?;
        let transform = Self::from_trs(translation, rotation, scale);
        (translation.is_finite() && scale.is_finite() && transform.local.is_finite())
            .then_some(transform)
            .ok_or(BadTransform::NotFinite)
    }

    /// From translation, rotation and scale (applied scale first), taken as given.
    pub fn from_trs(translation: Vec3, rotation: Quat, scale: Vec3) -> Self {
        Self {
            local: Affine3A::from_scale_rotation_translation(scale, rotation, translation),
        }
    }

    /// A translation.
    pub fn from_translation(translation: Vec3) -> Self {
        Self::from_affine(Affine3A::from_translation(translation))
    }

    /// The local transform.
    pub fn local(&self) -> &Affine3A {
        &self.local
    }

    /// Replaces the local transform.
    pub fn set_local(&mut self, local: Affine3A) {
        self.local = local;
    }
}

impl NodeCore for Transform {}

/// Why a transform was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadTransform {
    /// A value is NaN or infinite (or a rotation has zero length).
    #[error("the transform holds a NaN or an infinity")]
    NotFinite,
    /// The matrix's last row is not (0, 0, 0, 1), so it is not affine.
    #[error("the matrix is projective (its last row is not 0 0 0 1)")]
    Projective,
}

/// `q` scaled to unit length in f64 (huge or tiny finite components neither overflow
/// nor underflow); `None` for a zero or non-finite length.
pub(crate) fn normalized(q: Quat) -> Option<Quat> {
    let q = q.to_array().map(f64::from);
    let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    (length.is_finite() && length > 0.0).then(|| Quat::from_array(q.map(|c| (c / length) as f32)))
}
