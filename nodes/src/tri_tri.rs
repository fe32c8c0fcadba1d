//! The triangle–triangle overlap test: Möller's interval test (1997) for triangles in
//! general position, a 2D test for coplanar ones, and segment / point tests for
//! degenerate triangles (zero area), so every input gets an answer.

use scenewalk_core::glam::{Vec2, Vec3};

/// Whether two triangles share at least one point (touching counts), in any relative
/// position: crossing, coplanar, and degenerate (a triangle with zero area is treated
/// as the segment or point it is).
///
/// Exact up to float rounding: the decisions are sign tests of plane distances and 2D
/// orientations, and a contact that rounding moves off by an ulp may be missed (or
/// found). Triangles in general position get Möller's interval test (1997);
/// coplanar ones (every vertex of one at distance exactly zero from the other's
/// plane) get edge crossings and containment in the plane. A NaN coordinate gives
/// `false`.
///
/// ```
/// use scenewalk_core::glam::Vec3;
/// use scenewalk_nodes::triangles_intersect;
/// let floor = [Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0)];
/// let post = [Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.1, 1.0, 0.0), Vec3::new(-0.1, 1.0, 0.0)];
/// assert!(triangles_intersect(&floor, &post));
/// let above = post.map(|p| p + Vec3::Y * 1.5);
/// assert!(!triangles_intersect(&floor, &above));
/// ```
pub fn triangles_intersect(a: &[Vec3; 3], b: &[Vec3; 3]) -> bool {
    // Relative to one corner, so the products below grow with the triangles' size,
    // not with how far from the origin they lie.
    let origin = a[0];
    let (a, b) = (&a.map(|p| p - origin), &b.map(|p| p - origin));
    match (Simplex::of(a), Simplex::of(b)) {
        (Simplex::Triangle(na), Simplex::Triangle(nb)) => general(a, na, b, nb),
        (Simplex::Triangle(n), Simplex::Segment(p, q)) => segment_triangle(p, q, a, n),
        (Simplex::Segment(p, q), Simplex::Triangle(n)) => segment_triangle(p, q, b, n),
        (Simplex::Triangle(n), Simplex::Point(p)) => point_triangle(p, a, n),
        (Simplex::Point(p), Simplex::Triangle(n)) => point_triangle(p, b, n),
        (Simplex::Segment(p1, q1), Simplex::Segment(p2, q2)) => segment_segment(p1, q1, p2, q2),
        (Simplex::Segment(s, e), Simplex::Point(p))
        | (Simplex::Point(p), Simplex::Segment(s, e)) => point_segment(p, s, e),
        (Simplex::Point(p), Simplex::Point(q)) => p == q,
        (Simplex::Invalid, _) | (_, Simplex::Invalid) => false,
    }
}

/// What a triangle's point set is.
#[derive(Clone, Copy, Debug)]
enum Simplex {
    /// A proper triangle with this unit normal.
    Triangle(Vec3),
    /// Collinear corners: the segment between the two farthest.
    Segment(Vec3, Vec3),
    /// All three corners equal.
    Point(Vec3),
    /// A NaN or infinite corner.
    Invalid,
}

impl Simplex {
    fn of(t: &[Vec3; 3]) -> Simplex {
        if !(t[0].is_finite() && t[1].is_finite() && t[2].is_finite()) {
            return Simplex::Invalid;
        }
        let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
        // Edges scaled to at most 1 first: the cross product of huge edges would
        // overflow, of tiny ones underflow, and only its direction is kept.
        let scale = e1.abs().max_element().max(e2.abs().max_element());
        if scale > 0.0 && scale.is_finite() {
            let n = (e1 / scale).cross(e2 / scale).normalize_or_zero();
            if n != Vec3::ZERO {
                return Simplex::Triangle(n);
            }
        }
        let edges = [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
        let (p, q) = edges
            .into_iter()
            .max_by(|x, y| {
                x.0.distance_squared(x.1)
                    .total_cmp(&y.0.distance_squared(y.1))
            })
            .unwrap_or((t[0], t[1]));
        if p == q {
            Simplex::Point(p)
        } else {
            Simplex::Segment(p, q)
        }
    }
}

/// Both triangles proper.
fn general(a: &[Vec3; 3], na: Vec3, b: &[Vec3; 3], nb: Vec3) -> bool {
    let da = a.map(|p| nb.dot(p - b[0]));
    if same_side(da) {
        return false;
    }
    let db = b.map(|p| na.dot(p - a[0]));
    if same_side(db) {
        return false;
    }
    if da == [0.0; 3] {
        return coplanar(a, b, nb);
    }
    if db == [0.0; 3] {
        return coplanar(a, b, na);
    }
    // Unit normals make this unit-free too (its length is the sine of the angle).
    let line = na.cross(nb);
    if line == Vec3::ZERO {
        // Parallel normals yet straddling planes: only rounding gets here.
        return coplanar(a, b, nb);
    }
    let (a0, a1) = interval(a, da, line);
    let (b0, b1) = interval(b, db, line);
    a0 <= b1 && b0 <= a1
}

/// All three strictly on one side.
fn same_side(d: [f32; 3]) -> bool {
    (d[0] > 0.0 && d[1] > 0.0 && d[2] > 0.0) || (d[0] < 0.0 && d[1] < 0.0 && d[2] < 0.0)
}

/// The extent along `line` of the piece of triangle `t` lying in the other plane,
/// given the corners' distances `d` to it (not all of one sign, not all zero).
fn interval(t: &[Vec3; 3], d: [f32; 3], line: Vec3) -> (f32, f32) {
    let mut lo = f32::INFINITY;
    let mut hi = f32::NEG_INFINITY;
    let mut add = |p: Vec3| {
        let s = line.dot(p);
        lo = lo.min(s);
        hi = hi.max(s);
    };
    for ((ti, tj), (di, dj)) in edges(t).into_iter().zip(edges(&d)) {
        if di == 0.0 {
            add(ti);
        }
        if (di > 0.0 && dj < 0.0) || (di < 0.0 && dj > 0.0) {
            add(ti + (tj - ti) * (di / (di - dj)));
        }
    }
    (lo, hi)
}

/// The three edges of a triangle, as (corner, next corner).
fn edges<T: Copy>(t: &[T; 3]) -> [(T, T); 3] {
    [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]
}

/// The axis to drop when projecting onto a plane with normal `n`: its largest
/// component, so the projection keeps the most area.
fn drop_axis(n: Vec3) -> usize {
    let a = n.abs();
    if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    }
}

fn project(p: Vec3, axis: usize) -> Vec2 {
    match axis {
        0 => Vec2::new(p.y, p.z),
        1 => Vec2::new(p.z, p.x),
        _ => Vec2::new(p.x, p.y),
    }
}

/// Two triangles in one plane with normal `n`.
fn coplanar(a: &[Vec3; 3], b: &[Vec3; 3], n: Vec3) -> bool {
    let axis = drop_axis(n);
    let a = a.map(|p| project(p, axis));
    let b = b.map(|p| project(p, axis));
    for (a0, a1) in edges(&a) {
        for (b0, b1) in edges(&b) {
            if segments_2d(a0, a1, b0, b1) {
                return true;
            }
        }
    }
    // No edges cross: overlapping only if one holds the other.
    inside_2d(a[0], &b) || inside_2d(b[0], &a)
}

/// Twice the signed area of (a, b, c).
fn orient(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// Whether `p`, collinear with segment `a b`, lies on it.
fn on_segment_2d(a: Vec2, b: Vec2, p: Vec2) -> bool {
    p.cmpge(a.min(b)).all() && p.cmple(a.max(b)).all()
}

/// Whether segments `p1 q1` and `p2 q2` share a point.
fn segments_2d(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> bool {
    let o1 = orient(p1, q1, p2);
    let o2 = orient(p1, q1, q2);
    let o3 = orient(p2, q2, p1);
    let o4 = orient(p2, q2, q1);
    let opposite = |x: f32, y: f32| (x > 0.0 && y < 0.0) || (x < 0.0 && y > 0.0);
    if opposite(o1, o2) && opposite(o3, o4) {
        return true;
    }
    (o1 == 0.0 && on_segment_2d(p1, q1, p2))
        || (o2 == 0.0 && on_segment_2d(p1, q1, q2))
        || (o3 == 0.0 && on_segment_2d(p2, q2, p1))
        || (o4 == 0.0 && on_segment_2d(p2, q2, q1))
}

/// Whether `p` lies in the (projected, non-degenerate) triangle `t`, boundary included.
fn inside_2d(p: Vec2, t: &[Vec2; 3]) -> bool {
    let o = [
        orient(t[0], t[1], p),
        orient(t[1], t[2], p),
        orient(t[2], t[0], p),
    ];
    let negative = o.iter().any(|&x| x < 0.0);
    let positive = o.iter().any(|&x| x > 0.0);
    !(negative && positive)
}

/// Segment `p q` against the proper triangle `t` with normal `n`.
fn segment_triangle(p: Vec3, q: Vec3, t: &[Vec3; 3], n: Vec3) -> bool {
    let dp = n.dot(p - t[0]);
    let dq = n.dot(q - t[0]);
    if (dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) {
        return false;
    }
    let axis = drop_axis(n);
    let t2 = t.map(|c| project(c, axis));
    if dp == 0.0 && dq == 0.0 {
        let (p, q) = (project(p, axis), project(q, axis));
        return edges(&t2).into_iter().any(|(a, b)| segments_2d(p, q, a, b)) || inside_2d(p, &t2);
    }
    let x = if dp == 0.0 {
        p
    } else if dq == 0.0 {
        q
    } else {
        p + (q - p) * (dp / (dp - dq))
    };
    inside_2d(project(x, axis), &t2)
}

/// Point `p` against the proper triangle `t` with normal `n`.
fn point_triangle(p: Vec3, t: &[Vec3; 3], n: Vec3) -> bool {
    let axis = drop_axis(n);
    n.dot(p - t[0]) == 0.0 && inside_2d(project(p, axis), &t.map(|c| project(c, axis)))
}

/// Two segments of positive length.
fn segment_segment(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> bool {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p2 - p1);
    let n = d1.cross(d2);
    if n != Vec3::ZERO {
        if n.dot(r) != 0.0 {
            return false;
        }
        let axis = drop_axis(n);
        return segments_2d(
            project(p1, axis),
            project(q1, axis),
            project(p2, axis),
            project(q2, axis),
        );
    }
    // Parallel: they meet only on one line, where they are intervals.
    if d1.cross(r) != Vec3::ZERO {
        return false;
    }
    let k = drop_axis(d1);
    let (lo1, hi1) = (p1[k].min(q1[k]), p1[k].max(q1[k]));
    let (lo2, hi2) = (p2[k].min(q2[k]), p2[k].max(q2[k]));
    lo1 <= hi2 && lo2 <= hi1
}

/// Point `p` against the segment `s e` of positive length.
fn point_segment(p: Vec3, s: Vec3, e: Vec3) -> bool {
    let d = e - s;
    let r = p - s;
    d.cross(r) == Vec3::ZERO && (0.0..=d.length_squared()).contains(&d.dot(r))
}
