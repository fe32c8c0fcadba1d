//! The triangle–triangle overlap test.

use scenewalk_core::glam::{DVec3, Vec3};
use std::cmp::Ordering;

/// Whether two triangles share at least one point (touching counts): crossing,
/// coplanar or degenerate (a zero-area triangle is the segment or point it is). The
/// answer depends on neither argument nor corner order; a NaN or infinite coordinate
/// gives `false`.
///
/// The separating-axis theorem in f64, on both normals, the 9 edge × edge products
/// (each component rounded once), the in-plane edge normals of coplanar pairs and the
/// direction and offset of collinear ones. A gap counts only beyond the projections'
/// rounding bound `2⁻⁵⁰ · |axis|₁ · L`, `L` the largest corner coordinate in absolute
/// value. So `false` is exact, a pair that touches always gives `true`, and a pair
/// apart by less than `2⁻⁴⁷ · L` may give `true`; an edge whose corners differ by more
/// than a factor 2²⁹ on one axis, at angle `θ` to another edge, widens that margin to
/// about `2⁻⁴⁹ · L / sin θ`.
///
/// ```
/// use scenewalk_core::glam::Vec3;
/// use scenewalk_nodes::triangles_intersect;
/// let floor = [Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0)];
/// let post = [Vec3::new(0.0, -1.0, 0.0), Vec3::new(0.1, 1.0, 0.0), Vec3::new(-0.1, 1.0, 0.0)];
/// assert!(triangles_intersect(&floor, &post));
/// assert!(triangles_intersect(&post, &floor));
/// let above = post.map(|p| p + Vec3::Y * 1.5);
/// assert!(!triangles_intersect(&floor, &above));
/// ```
pub fn triangles_intersect(a: &[Vec3; 3], b: &[Vec3; 3]) -> bool {
    if !a.iter().chain(b).all(|p| p.is_finite()) {
        return false;
    }
    // One canonical order of the six corners, so every order of the arguments and
    // corners computes (and rounds) the same thing.
    let sorted = |t: &[Vec3; 3]| {
        let mut t = *t;
        t.sort_by(corner_order);
        t
    };
    let (a, b) = (sorted(a), sorted(b));
    let first = a
        .iter()
        .zip(&b)
        .map(|(p, q)| corner_order(p, q))
        .find(|o| o.is_ne());
    let (a, b) = if first == Some(Ordering::Greater) {
        (b, a)
    } else {
        (a, b)
    };
    let (a, b) = (a.map(Vec3::as_dvec3), b.map(Vec3::as_dvec3));

    let edges = |t: &[DVec3; 3]| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (ea, eb) = (edges(&a), edges(&b));
    let reach = a
        .iter()
        .chain(&b)
        .fold(0.0f64, |m, p| m.max(p.abs().max_element()));
    let separates = |s: DVec3| {
        // Each projection is off by at most 3·2⁻⁵³·|s|₁·reach (and a little more).
        let bound = 2f64.powi(-50) * s.abs().element_sum() * reach;
        let (a0, a1) = span(&a, s);
        let (b0, b1) = span(&b, s);
        b0 - a1 > bound || a0 - b1 > bound
    };
    // Any axis is a sound test: the plain normals first, which tell most pairs apart.
    if separates(ea[0].cross(ea[1])) || separates(eb[0].cross(eb[1])) {
        return false;
    }
    // Both normals and the 9 edge × edge products, accurate in direction.
    let [[c0, c1, c2], [c3, c4, c5], [c6, c7, c8]] = ea.map(|x| eb.map(|y| cross(x, y)));
    let (na, nb) = (cross(ea[0], ea[1]), cross(eb[0], eb[1]));
    let crosses = [na, nb, c0, c1, c2, c3, c4, c5, c6, c7, c8];
    let longest = |v: &[DVec3]| {
        v.iter()
            .copied()
            .max_by(|x, y| x.length_squared().total_cmp(&y.length_squared()))
            .unwrap_or(DVec3::ZERO)
    };
    // When everything lies in parallel planes, every non-zero product is their normal;
    // when everything lies on parallel lines, every non-zero edge is their direction.
    let all_edges = [ea[0], ea[1], ea[2], eb[0], eb[1], eb[2]];
    let plane = longest(&crosses);
    let (line, offset) = (longest(&all_edges), b[0] - a[0]);
    let mut axes = crosses
        .into_iter()
        .chain(all_edges.iter().map(|e| cross(plane, *e)))
        .chain([line, offset])
        .chain(std::iter::once_with(|| cross(cross(line, offset), line)));
    !axes.any(separates)
}

/// `x × y`, each component rounded once (Kahan's difference of products on fused
/// multiply-adds): nearly parallel edges keep the direction the plain formula loses.
fn cross(x: DVec3, y: DVec3) -> DVec3 {
    let ab_cd = |a: f64, b: f64, c: f64, d: f64| {
        let cd = c * d;
        a.mul_add(b, -cd) + (-c).mul_add(d, cd)
    };
    DVec3::new(
        ab_cd(x.y, y.z, x.z, y.y),
        ab_cd(x.z, y.x, x.x, y.z),
        ab_cd(x.x, y.y, x.y, y.x),
    )
}

/// Lexicographic order of corners (`total_cmp` per coordinate).
fn corner_order(p: &Vec3, q: &Vec3) -> Ordering {
    p.x.total_cmp(&q.x)
        .then(p.y.total_cmp(&q.y))
        .then(p.z.total_cmp(&q.z))
}

/// The lowest and highest projection of a triangle's corners on `s`.
fn span(t: &[DVec3; 3], s: DVec3) -> (f64, f64) {
    let d = t.map(|p| s.dot(p));
    (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
}
