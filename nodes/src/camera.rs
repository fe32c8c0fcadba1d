//! The camera node: a projection, placed by its node's world transform.

use crate::Frustum;
use scenewalk_core::NodeCore;
use scenewalk_core::glam::{Affine3A, DVec2, DVec3, Mat4, Vec3, Vec4};

/// How a [`Camera`] projects the scene. Angles in radians, distances in scene units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Projection {
    /// A perspective projection (glTF's `perspective` camera).
    Perspective {
        /// Vertical field of view, in (0, π).
        yfov: f32,
        /// Width over height; `None` (left to the viewport, as glTF allows) is taken as 1.
        aspect: Option<f32>,
        /// Distance to the near plane, > 0.
        near: f32,
        /// Distance to the far plane, > near; `None` for an infinite far plane.
        far: Option<f32>,
    },
    /// An orthographic projection (glTF's `orthographic` camera).
    Orthographic {
        /// Half the view's width.
        xmag: f32,
        /// Half the view's height.
        ymag: f32,
        /// Distance to the near plane, >= 0.
        near: f32,
        /// Distance to the far plane, > near.
        far: f32,
    },
}

/// A camera. It looks down −z of its node's frame with +y up (the glTF and OpenGL
/// convention), so its node's world transform places and aims it.
///
/// ```
/// use scenewalk_core::glam::Vec3;
/// use scenewalk_nodes::Camera;
/// let camera = Camera::perspective(1.0, 16.0 / 9.0, 0.1, 500.0)?;
/// let placed = Camera::look_at(Vec3::new(0.0, 10.0, 20.0), Vec3::ZERO, Vec3::Y).unwrap();
/// assert!(camera.frustum(&placed).contains_point(Vec3::ZERO));
/// assert!(!camera.frustum(&placed).contains_point(Vec3::new(0.0, 10.0, 40.0)));
/// # Ok::<(), scenewalk_nodes::BadCamera>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    projection: Projection,
}

impl Camera {
    /// A camera with a checked projection: the first value out of its range is refused.
    pub fn try_new(projection: Projection) -> Result<Camera, BadCamera> {
        let positive = |v: f32| v.is_finite() && v > 0.0;
        // The checks in the order of the fields; the first that fails is the error.
        let faults = match projection {
            Projection::Perspective {
                yfov,
                aspect,
                near,
                far,
            } => [
                (!(positive(yfov) && yfov < std::f32::consts::PI))
                    .then_some(BadCamera::FieldOfView(yfov)),
                aspect.filter(|&a| !positive(a)).map(BadCamera::Aspect),
                (!positive(near)).then_some(BadCamera::Near(near)),
                far.filter(|&f| !(f.is_finite() && f > near))
                    .map(BadCamera::Far),
            ],
            Projection::Orthographic {
                xmag,
                ymag,
                near,
                far,
            } => [
                (!xmag.is_finite() || xmag == 0.0).then_some(BadCamera::Magnification(xmag)),
                (!ymag.is_finite() || ymag == 0.0).then_some(BadCamera::Magnification(ymag)),
                (!(near.is_finite() && near >= 0.0)).then_some(BadCamera::Near(near)),
                (!(far.is_finite() && far > near)).then_some(BadCamera::Far(far)),
            ],
        };
        let fault = faults.into_iter().flatten().next();
        fault.map_or(Ok(Camera { projection }), Err)
    }

    /// A perspective camera with a finite far plane, checked as by [`Camera::try_new`].
    pub fn perspective(yfov: f32, aspect: f32, near: f32, far: f32) -> Result<Camera, BadCamera> {
        Camera::try_new(Projection::Perspective {
            yfov,
            aspect: Some(aspect),
            near,
            far: Some(far),
        })
    }

    /// The projection.
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// The projection matrix: right-handed, clip depth 0 at the near plane and 1 at
    /// the far one (Vulkan, wgpu). A perspective with no aspect uses 1.
    pub fn projection_matrix(&self) -> Mat4 {
        let (half, slope, near, far) = self.shape();
        // x and y are divided by the half-extents at depth 1 (at every depth for an
        // orthographic view, where the slope is zero).
        let scale = (half + slope).recip().as_vec2();
        let perspective = matches!(self.projection, Projection::Perspective { .. });
        let (z, w, last) = match far {
            Some(far) if perspective => (far / (near - far), near * far / (near - far), 0.0),
            None => (-1.0, -near, 0.0),
            Some(far) => (1.0 / (near - far), near / (near - far), 1.0),
        };
        Mat4::from_cols(
            Vec4::new(scale.x, 0.0, 0.0, 0.0),
            Vec4::new(0.0, scale.y, 0.0, 0.0),
            Vec4::new(0.0, 0.0, z, last - 1.0),
            Vec4::new(0.0, 0.0, w, last),
        )
    }

    /// The world transform for a camera node at `eye` looking at `target`, `up` giving
    /// the roll. `None` when the view direction is zero, parallel to `up`, or not
    /// finite.
    pub fn look_at(eye: Vec3, target: Vec3, up: Vec3) -> Option<Affine3A> {
        let back = (eye - target).try_normalize()?;
        let right = up.cross(back).try_normalize()?;
        let up = back.cross(right);
        eye.is_finite()
            .then(|| Affine3A::from_cols(right.into(), up.into(), back.into(), eye.into()))
    }

    /// The world-space frustum of this camera placed by `world`, built in f64 from the
    /// exact view volume and rounded outwards to f32: every point of the volume lies
    /// inside or on every plane, and each plane passes within 2⁻²⁰ of the largest corner
    /// coordinate of the corners on it (rotated, translated, scaled up to 4:1). An
    /// infinite far plane tilts the side planes outwards by about 2⁻²² radians (at 90°)
    /// so no edge leaves them. A non-finite or singular placement gives NaN planes,
    /// which hide nothing.
    pub fn frustum(&self, world: &Affine3A) -> Frustum {
        let (normals, corners, finite) = self.local_volume();
        let world = world.as_daffine3();
        let inverse = world.matrix3.inverse().transpose();
        let normals = normals.map(|n| inverse * n);
        let placed = corners.map(|c| world.transform_point3(c));
        let turned = corners.map(|w| world.transform_vector3(w));
        let (points, rays) = if finite {
            (&placed[..], &[][..])
        } else {
            (&placed[..4], &turned[4..])
        };
        Frustum::enclosing(normals, points, rays, inverse * DVec3::NEG_Z)
    }

    /// The eight world-space corners of the view volume (near plane first, each
    /// plane as bottom-left, bottom-right, top-right, top-left, in the projection's
    /// x and y); `None` for an infinite far plane.
    pub fn corners(&self, world: &Affine3A) -> Option<[Vec3; 8]> {
        let (_, corners, finite) = self.local_volume();
        let world = world.as_daffine3();
        finite.then(|| corners.map(|c| world.transform_point3(c).as_vec3()))
    }

    /// The view volume's shape in the camera's frame: its half-extents at depth `s` are
    /// `half + slope · s` (in f64), from `near` to `far` (`None`: infinite).
    fn shape(&self) -> (DVec2, DVec2, f32, Option<f32>) {
        match self.projection {
            Projection::Perspective {
                yfov,
                aspect,
                near,
                far,
            } => {
                let y = (0.5 * f64::from(yfov)).tan();
                let x = y * f64::from(aspect.unwrap_or(1.0));
                (DVec2::ZERO, DVec2::new(x, y), near, far)
            }
            Projection::Orthographic {
                xmag,
                ymag,
                near,
                far,
            } => (
                DVec2::new(xmag.into(), ymag.into()),
                DVec2::ZERO,
                near,
                Some(far),
            ),
        }
    }

    /// The view volume in the camera's frame, in f64: inward plane normals (as in
    /// [`Frustum`]), [`corners`](Camera::corners), and whether the far plane is finite (if
    /// not, its normal is zero and the far "corners" are the side edges' directions).
    fn local_volume(&self) -> ([DVec3; 6], [DVec3; 8], bool) {
        let (half, slope, near, far) = self.shape();
        let at = |s: f64| {
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(x, y)| (DVec2::new(x, y) * (half + slope * s)).extend(-s))
        };
        let ([a, b, c, d], [e, f, g, h]) = (at(near.into()), at(far.map_or(1.0, f64::from)));
        let normals = [
            DVec3::new(1.0, 0.0, -slope.x),
            DVec3::new(-1.0, 0.0, -slope.x),
            DVec3::new(0.0, 1.0, -slope.y),
            DVec3::new(0.0, -1.0, -slope.y),
            DVec3::NEG_Z,
            if far.is_some() { DVec3::Z } else { DVec3::ZERO },
        ];
        (normals, [a, b, c, d, e, f, g, h], far.is_some())
    }
}

impl NodeCore for Camera {}

/// A camera value that is NaN, infinite or out of range.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BadCamera {
    /// The vertical field of view is not in (0, π).
    #[error("the field of view {0} is not an angle in (0, π) radians")]
    FieldOfView(f32),
    /// The aspect ratio is not a positive number.
    #[error("the aspect ratio {0} is not a positive number")]
    Aspect(f32),
    /// The near distance is out of range.
    #[error("the near distance {0} is not a positive number (>= 0 for orthographic)")]
    Near(f32),
    /// The far distance is not beyond the near one.
    #[error("the far distance {0} is not a finite number beyond the near distance")]
    Far(f32),
    /// An orthographic magnification is zero, NaN or infinite.
    #[error("the orthographic magnification {0} is zero, NaN or infinite")]
    Magnification(f32),
}
