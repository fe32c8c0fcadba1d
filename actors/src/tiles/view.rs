//! The camera a selection runs from.

use scenewalk_core::glam::{DVec3, Vec3};
use scenewalk_nodes::{Camera, Frustum, Projection};

/// A perspective camera in world (Earth-centred) coordinates, in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileView {
    /// The eye.
    pub position: DVec3,
    /// Where it looks (need not be unit length).
    pub direction: DVec3,
    /// Which way is up on the screen.
    pub up: DVec3,
    /// Vertical field of view, radians.
    pub fovy: f64,
    /// Width over height of the viewport.
    pub aspect: f64,
    /// Viewport height in pixels (the screen-space error is in pixels of it).
    pub viewport_height: f64,
}

impl TileView {
    /// A camera at `position` looking at `target`, 60° high, for a 1920 × 1080 viewport.
    pub fn look_at(position: DVec3, target: DVec3, up: DVec3) -> Self {
        Self {
            position,
            direction: target - position,
            up,
            fovy: std::f64::consts::FRAC_PI_3,
            aspect: 16.0 / 9.0,
            viewport_height: 1080.0,
        }
    }

    /// The view frustum with the eye at the origin (rotation only, infinite far plane):
    /// volumes are tested relative to [`position`](Self::position), in f64, so the
    /// metres of Earth-centred coordinates survive. `None` for a degenerate camera.
    pub fn frustum(&self) -> Option<Frustum> {
        let camera = Camera::try_new(Projection::Perspective {
            yfov: self.fovy as f32,
            aspect: Some(self.aspect as f32),
            near: 1e-3,
            far: None,
        })
        .ok()?;
        let direction = self.direction.normalize_or_zero().as_vec3();
        let placement = Camera::look_at(Vec3::ZERO, direction, self.up.as_vec3())?;
        Some(camera.frustum(&placement))
    }

    /// Pixels per metre of error at distance 1: `viewport_height / (2 tan(fovy / 2))`.
    pub fn sse_factor(&self) -> f64 {
        self.viewport_height / (2.0 * (0.5 * self.fovy).tan())
    }

    /// The screen-space error, in pixels, of `geometric_error` metres at `distance`.
    pub fn screen_space_error(&self, geometric_error: f64, distance: f64) -> f64 {
        screen_space_error(self.sse_factor(), geometric_error, distance)
    }
}

/// `geometric_error · factor / distance`; infinite at distance 0 (inside the volume).
pub(crate) fn screen_space_error(factor: f64, geometric_error: f64, distance: f64) -> f64 {
    if distance <= 0.0 {
        if geometric_error > 0.0 {
            f64::INFINITY
        } else {
            0.0
        }
    } else {
        geometric_error * factor / distance
    }
}
