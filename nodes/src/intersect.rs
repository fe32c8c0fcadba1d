//! Rays and the exact ray–box and ray–triangle tests mesh queries use.

use crate::mesh::TriangleHit;
use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Vec3};

pub use crate::tri_tri::triangles_intersect;

/// A half-line: an origin and a unit direction, distances in the units of its frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    origin: Vec3,
    direction: Vec3,
}

/// Why a ray was refused.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BadRay {
    /// The origin or direction holds a NaN or an infinity.
    #[error("the ray's origin or direction holds a NaN or an infinity")]
    NotFinite,
    /// The direction has zero length (or is too short to normalize).
    #[error("the ray's direction has zero length")]
    ZeroDirection,
}

impl Ray {
    /// A ray from `origin` along `direction`, which is normalized. Errors: [`BadRay`].
    pub fn new(origin: Vec3, direction: Vec3) -> Result<Ray, BadRay> {
        if !(origin.is_finite() && direction.is_finite()) {
            return Err(BadRay::NotFinite);
        }
        let direction = direction.try_normalize().ok_or(BadRay::ZeroDirection)?;
        Ok(Ray { origin, direction })
    }

    /// Where the ray starts.
    pub fn origin(&self) -> Vec3 {
        self.origin
    }

    /// The unit direction.
    pub fn direction(&self) -> Vec3 {
        self.direction
    }

    /// The point at distance `t` along the ray.
    pub fn at(&self, t: f32) -> Vec3 {
        self.origin + self.direction * t
    }

    /// The ray mapped by `m` (say, into a node's local frame), with the distance scale:
    /// a distance `t` along this ray is `t * scale` along the returned one. `None` when
    /// `m` is singular or not finite.
    pub fn transformed(&self, m: &Affine3A) -> Option<(Ray, f32)> {
        let origin = m.transform_point3(self.origin);
        let moved = m.transform_vector3(self.direction);
        let scale = moved.length();
        let ray = Ray::new(origin, moved).ok()?;
        (scale.is_finite() && scale > 0.0).then_some((ray, scale))
    }
}

/// The distance at which `ray` enters box `b` (touching counts), if within
/// `max_distance`: `0.0` from inside. An empty box is never hit, nor anything with a
/// negative or NaN `max_distance`; a box with a NaN corner is hit at `0.0`, so bad
/// bounds never hide geometry.
pub fn ray_aabb(ray: &Ray, b: &Aabb, max_distance: f32) -> Option<f32> {
    if max_distance.is_nan() || max_distance < 0.0 {
        return None;
    }
    if b.min.is_nan() || b.max.is_nan() {
        return Some(0.0);
    }
    let (mut enter, mut exit) = (0.0f32, max_distance);
    for axis in 0..3 {
        let (o, d) = (ray.origin[axis], ray.direction[axis]);
        let (lo, hi) = (b.min[axis], b.max[axis]);
        if lo > hi {
            return None;
        }
        if d == 0.0 {
            // Parallel to the slab: inside it or never.
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let inv = 1.0 / d;
        let (mut near, mut far) = ((lo - o) * inv, (hi - o) * inv);
        if near > far {
            std::mem::swap(&mut near, &mut far);
        }
        enter = enter.max(near);
        exit = exit.min(far);
        if enter > exit {
            return None;
        }
    }
    Some(enter)
}

/// Where `ray` meets triangle `tri` (Möller–Trumbore): `(t, u, v)` with the distance
/// `t ≥ 0` and the point `(1 − u − v)·tri[0] + u·tri[1] + v·tri[2]`. Edges, vertices
/// and both faces count; a triangle seen edge-on or degenerate (edges less than about
/// 1e-6 rad apart) is never hit.
pub fn ray_triangle(ray: &Ray, tri: &[Vec3; 3]) -> Option<(f32, f32, f32)> {
    let e1 = tri[1] - tri[0];
    let e2 = tri[2] - tri[0];
    // A near-degenerate triangle leaves `det` as rounding noise, with hits far off the
    // triangle. Tested on edges scaled to at most 1, so size neither under- nor
    // overflows the test.
    let scale = e1.abs().max_element().max(e2.abs().max_element());
    if !(scale > 0.0 && scale.is_finite()) {
        return None;
    }
    let (s1, s2) = (e1 / scale, e2 / scale);
    if s1.cross(s2).length_squared() <= 1e-12 * s1.length_squared() * s2.length_squared() {
        return None;
    }
    let p = ray.direction.cross(e2);
    let det = e1.dot(p);
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let inv = 1.0 / det;
    let s = ray.origin - tri[0];
    let u = s.dot(p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = ray.direction.dot(q) * inv;
    if !(v >= 0.0 && u + v <= 1.0) {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t >= 0.0).then_some((t, u, v))
}

/// The nearest triangle of an indexed list that `ray` hits within `max_distance`, by
/// testing every triangle with [`ray_triangle`] (ties go to the lowest index, as in
/// [`Mesh::ray_hit`](crate::Mesh::ray_hit)); a triangle naming a vertex past
/// `positions` is skipped. O(triangles), no hierarchy: for geometry that moves every
/// frame, such as a [`SkinnedMesh`](crate::SkinnedMesh)'s
/// [posed vertices](crate::SkinnedMesh::posed_positions), where building a BVH would
/// cost more than the one ray.
pub fn ray_triangles(
    ray: &Ray,
    positions: &[Vec3],
    triangles: &[[u32; 3]],
    max_distance: f32,
) -> Option<TriangleHit> {
    let corner = |v: u32| positions.get(v as usize).copied();
    let corners = (0u32..)
        .zip(triangles)
        .filter_map(|(triangle, &[a, b, c])| {
            Some((triangle, [corner(a)?, corner(b)?, corner(c)?]))
        });
    let (mut limit, mut best) = (max_distance, None);
    nearest_hit(ray, corners, &mut limit, &mut best);
    best
}

/// The nearest of `triangles` (index, corners) that `ray` hits ([`ray_triangle`]) into
/// `best`, and its distance into `limit`, if it is nearer than `limit` (or as near, with
/// no `best` or a lower index than its).
pub(crate) fn nearest_hit(
    ray: &Ray,
    triangles: impl Iterator<Item = (u32, [Vec3; 3])>,
    limit: &mut f32,
    best: &mut Option<TriangleHit>,
) {
    for (triangle, corners) in triangles {
        let Some((t, u, v)) = ray_triangle(ray, &corners) else {
            continue;
        };
        let tie = || best.is_none_or(|b| triangle < b.triangle);
        if t < *limit || (t == *limit && tie()) {
            *limit = t;
            *best = Some(TriangleHit {
                triangle,
                distance: t,
                point: ray.at(t),
                barycentric: (u, v),
            });
        }
    }
}
