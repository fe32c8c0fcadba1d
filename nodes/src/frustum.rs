//! The view frustum: six planes and the box test culling uses.

use scenewalk_core::Aabb;
use scenewalk_core::glam::{DVec3, Vec3, Vec3A, Vec4};

/// The planes of a [`Frustum`] a subtree still has to be tested against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlaneMask(u8);

impl PlaneMask {
    /// Every plane still to be tested.
    pub const ALL: PlaneMask = PlaneMask(0b11_1111);
    /// No plane left: the box and everything below it is inside.
    pub const NONE: PlaneMask = PlaneMask(0);

    /// The raw bits: plane `i` (left, right, bottom, top, near, far) at bit `i`.
    #[inline]
    pub fn bits(self) -> u8 {
        self.0
    }
}

/// Where a box lies against a [`Frustum`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Containment {
    /// Entirely outside one plane: nothing in the box can be seen.
    Outside,
    /// Possibly visible; the planes the box is not wholly inside, for its subtree.
    Visible(PlaneMask),
}

/// A view volume as six world-space planes (left, right, bottom, top, near, far), each
/// `(n, d)` with `n` pointing inwards: `p` is inside when `n · p + d >= 0` for all.
///
/// The box test is **conservative**: a box is outside only when it lies wholly beyond
/// one plane, so no visible box is dropped (a box near a corner may pass). A box or
/// plane holding NaN, and the empty box, count as visible.
///
/// ```
/// use scenewalk_core::{Aabb, glam::{Affine3A, Vec3}};
/// use scenewalk_nodes::{Camera, Containment, Frustum, PlaneMask};
/// // A camera at the origin looking down -z.
/// let camera = Camera::perspective(1.0, 1.0, 0.1, 100.0)?;
/// let frustum = camera.frustum(&Affine3A::IDENTITY);
/// let ahead = Aabb::new(Vec3::new(-1.0, -1.0, -11.0), Vec3::new(1.0, 1.0, -9.0));
/// let behind = Aabb::new(Vec3::new(-1.0, -1.0, 9.0), Vec3::new(1.0, 1.0, 11.0));
/// assert_eq!(frustum.classify(&ahead, PlaneMask::ALL), Containment::Visible(PlaneMask::NONE));
/// assert_eq!(frustum.classify(&behind, PlaneMask::ALL), Containment::Outside);
/// # Ok::<(), scenewalk_nodes::BadCamera>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frustum {
    planes: [Vec4; 6],
}

impl Frustum {
    /// The planes with (about) these inward normals holding the hull of `points` stretched
    /// along `rays`, offsets rounded outwards; with rays, each normal is first tilted
    /// towards `forward` (dot 1 with every ray) by more than rounding can turn it back.
    /// A zero normal holds everything; a non-finite input gives NaN planes.
    pub(crate) fn enclosing(
        normals: [DVec3; 6],
        points: &[DVec3],
        rays: &[DVec3],
        forward: DVec3,
    ) -> Frustum {
        let finite = |v: &DVec3| v.is_finite();
        if !(points.iter().all(finite) && rays.iter().all(finite) && forward.is_finite()) {
            return Frustum {
                planes: [Vec4::NAN; 6],
            };
        }
        // Far above the f64 rounding of the dot products below, far below an f32 ulp.
        let slack = points
            .iter()
            .fold(0.0f64, |m, p| m.max(p.abs().max_element()))
            * 2f64.powi(-40);
        Frustum {
            planes: normals.map(|n| {
                let Some(mut n) = n.try_normalize() else {
                    return if n.is_finite() { Vec4::W } else { Vec4::NAN };
                };
                if !rays.is_empty() {
                    // Rounding to f32 moves n · w by at most 2^-24 Σ|n_k w_k|.
                    let most = rays.iter().fold(0.0f64, |m, w| m.max(n.abs().dot(w.abs())));
                    n = (n + forward * (most * 2f64.powi(-22))).normalize();
                }
                let rounded = n.as_vec3();
                let n = rounded.as_dvec3();
                if rays.iter().any(|w| n.dot(*w) < 0.0) {
                    // Only for a placement too far from a rotation for the tilt.
                    return Vec4::W;
                }
                let lowest = points.iter().fold(f64::INFINITY, |m, p| m.min(n.dot(*p)));
                // The offset rounded up to an f32.
                let (d, r) = (slack - lowest, (slack - lowest) as f32);
                rounded.extend(if f64::from(r) < d { r.next_up() } else { r })
            }),
        }
    }

    /// A frustum from six planes `(n, d)`, `n` pointing inwards (normalized here); a zero
    /// normal holds every point when `d >= 0` and none otherwise.
    pub fn from_planes(planes: [Vec4; 6]) -> Frustum {
        Frustum {
            planes: planes.map(|p| {
                let length = p.truncate().length();
                if length > 0.0 { p / length } else { p }
            }),
        }
    }

    /// The six planes `(n, d)`, unit normals pointing inwards.
    pub fn planes(&self) -> &[Vec4; 6] {
        &self.planes
    }

    /// Whether the point lies inside or on every plane (NaN counts as inside).
    pub fn contains_point(&self, p: Vec3) -> bool {
        self.planes
            .iter()
            .map(|plane| plane.truncate().dot(p) + plane.w)
            .all(|d| d.is_nan() || d >= 0.0)
    }

    /// Tests a world box against the planes left in `mask`.
    #[inline]
    pub fn classify(&self, b: &Aabb, mask: PlaneMask) -> Containment {
        if mask == PlaneMask::NONE {
            return Containment::Visible(mask);
        }
        let min = Vec3A::from(b.min);
        let max = Vec3A::from(b.max);
        let center = (min + max) * 0.5;
        let extent = (max - min) * 0.5;
        let mut left = mask.0;
        for (i, plane) in self.planes.iter().enumerate() {
            if left & (1 << i) == 0 {
                continue;
            }
            let normal = Vec3A::from(plane.truncate());
            let s = normal.dot(center) + plane.w;
            let r = normal.abs().dot(extent);
            // Written so NaN falls through to "visible, still test this plane".
            if s + r < 0.0 {
                return Containment::Outside;
            }
            if s - r >= 0.0 {
                left &= !(1 << i);
            }
        }
        Containment::Visible(PlaneMask(left))
    }
}
