//! The view frustum: six planes and the box test culling uses.

use scenewalk_core::Aabb;
use scenewalk_core::glam::{Mat4, Vec3, Vec3A, Vec4};

/// `x >= 0`, with NaN counting as true (the conservative side).
#[inline]
fn nan_or_non_negative(x: f32) -> bool {
    x.is_nan() || x >= 0.0
}

/// Which planes of a [`Frustum`] a box still has to be tested against: a box fully on
/// the inner side of a plane passes that plane's bit down to its subtree cleared, so
/// the subtree skips it (the inherited plane mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlaneMask(u8);

impl PlaneMask {
    /// Every plane still to be tested.
    pub const ALL: PlaneMask = PlaneMask(0b11_1111);
    /// No plane left: the box and everything below it is inside.
    pub const NONE: PlaneMask = PlaneMask(0);

    /// Whether plane `i` (0..6: left, right, bottom, top, near, far) is still tested.
    #[inline]
    pub fn has(self, i: usize) -> bool {
        i < 6 && self.0 & (1 << i) != 0
    }

    /// Whether no plane is left to test.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw bits, plane `i` at bit `i`.
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
    /// Possibly visible; the planes the box is not entirely inside of, for its subtree.
    Visible(PlaneMask),
}

/// A view volume as six planes (left, right, bottom, top, near, far) in world space,
/// each `(n, d)` with `n` pointing inwards: a point `p` is inside when
/// `n · p + d >= 0` for every plane.
///
/// The box test is **conservative**: it calls a box outside only when the whole box
/// lies beyond one plane, so a visible box is never dropped (a box crossing a frustum
/// corner outside every plane but none alone may pass: a few false positives, no false
/// negatives). A box or plane holding NaN, and the empty box, count as visible.
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
    /// The frustum of a view-projection matrix (`projection × view`) whose clip depth
    /// runs from 0 to 1 (as [`Camera::projection_matrix`](crate::Camera::projection_matrix),
    /// Vulkan, wgpu); an infinite far plane yields a far plane that holds every point.
    pub fn from_matrix(view_projection: Mat4) -> Frustum {
        let m = view_projection;
        let (r0, r1, r2, r3) = (m.row(0), m.row(1), m.row(2), m.row(3));
        Frustum::from_planes([r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2])
    }

    /// A frustum from six planes `(n, d)`, `n` pointing inwards (need not be unit
    /// length; they are normalized). A plane with a zero normal holds every point when
    /// `d >= 0` and none otherwise.
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
            .all(|plane| nan_or_non_negative(plane.truncate().dot(p) + plane.w))
    }

    /// Tests a world box against the planes left in `mask`: outside one of them, or
    /// visible with the planes it is not entirely inside of.
    #[inline]
    pub fn classify(&self, b: &Aabb, mask: PlaneMask) -> Containment {
        if mask.is_empty() {
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

    /// Whether a box may be visible (conservative, see the type's doc).
    #[inline]
    pub fn intersects(&self, b: &Aabb) -> bool {
        self.classify(b, PlaneMask::ALL) != Containment::Outside
    }
}
