//! The exact tests against independent formulations: triangle–triangle against the
//! separating-axis theorem in exact integer arithmetic, ray–triangle against a plane
//! hit plus barycentric weights, ray–box against stepping along the ray; plus hand
//! cases for the touching, coplanar, parallel and degenerate configurations.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_nodes::{BadRay, Ray, ray_aabb, ray_triangle, triangles_intersect};

type Tri = [Vec3; 3];
type I3 = [i128; 3];

/// Test coordinates are multiples of `2^-GRID` in [-1, 1], so `x · 2^GRID` is an exact
/// integer and the products below stay under 2^124.
const GRID: i32 = 29;

fn sub(a: I3, b: I3) -> I3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: I3, b: I3) -> I3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: I3, b: I3) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn exact(p: Vec3) -> I3 {
    p.to_array().map(|x| {
        let scaled = f64::from(x) * 2f64.powi(GRID);
        assert!(
            scaled.fract() == 0.0 && x.abs() <= 1.0,
            "{x} is off the test grid"
        );
        scaled as i128
    })
}

/// How far apart two triangles (proper or not) are along the axis that separates them
/// best, by the separating-axis theorem in exact integer arithmetic (sharing no code
/// with the function under test); `None` when they share a point. They are disjoint
/// iff some axis separates their projections; the candidates are the normals of the
/// facets of their Minkowski difference: both triangles' normals and the 9 edge × edge
/// products; with one non-zero product `m`, also `m` × each of the 6 edges, which
/// decide when everything lies in parallel planes (an extra axis never makes a
/// touching pair apart); when all products are zero (segments or points on parallel
/// lines), the lines' direction and the offset between them, or, for two points, the
/// vector between them.
fn exact_gap(a: &Tri, b: &Tri) -> Option<f64> {
    let (a, b) = (a.map(exact), b.map(exact));
    let edges = |t: [I3; 3]| [sub(t[1], t[0]), sub(t[2], t[1]), sub(t[0], t[2])];
    let all_edges: Vec<I3> = edges(a).into_iter().chain(edges(b)).collect();
    let mut axes = vec![
        cross(all_edges[0], all_edges[1]),
        cross(all_edges[3], all_edges[4]),
    ];
    for x in &all_edges[..3] {
        for y in &all_edges[3..] {
            axes.push(cross(*x, *y));
        }
    }
    let r = sub(b[0], a[0]);
    if let Some(&m) = axes.iter().find(|s| **s != [0; 3]) {
        axes.extend(all_edges.iter().map(|e| cross(m, *e)));
    } else if let Some(&u) = all_edges.iter().find(|e| **e != [0; 3]) {
        axes.extend([u, cross(cross(u, r), u)]);
    } else {
        axes.push(r);
    }
    let range = |t: [I3; 3], s: I3| {
        let d = t.map(|p| dot(s, p));
        (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
    };
    let gaps = axes.into_iter().filter_map(|s| {
        let ((a0, a1), (b0, b1)) = (range(a, s), range(b, s));
        let gap = (b0 - a1).max(a0 - b1);
        let length = s.map(|x| (x as f64).powi(2)).iter().sum::<f64>().sqrt();
        (gap > 0).then(|| gap as f64 / length / 2f64.powi(GRID))
    });
    gaps.max_by(f64::total_cmp)
}

fn exact_overlap(a: &Tri, b: &Tri) -> bool {
    exact_gap(a, b).is_none()
}

/// `triangles_intersect` (in every order, see `both`) against exact arithmetic: the
/// same answer, except that a pair apart by less than the documented tolerance,
/// 2^-47 of the largest coordinate, may be reported touching.
fn agrees(a: &Tri, b: &Tri) -> Result<(), TestCaseError> {
    let reach = a
        .iter()
        .chain(b)
        .map(|p| p.abs().max_element())
        .fold(0.0, f32::max);
    match (both(a, b), exact_gap(a, b)) {
        (false, None) => Err(TestCaseError::fail(format!("missed {a:?} {b:?}"))),
        (true, Some(gap)) if gap > f64::from(reach) * 2f64.powi(-47) => {
            Err(TestCaseError::fail(format!("{a:?} {b:?} are {gap} apart")))
        }
        _ => Ok(()),
    }
}

/// The answer must not depend on the argument order nor on the order of either
/// triangle's corners (rotated or reflected).
fn both(a: &Tri, b: &Tri) -> bool {
    let ab = triangles_intersect(a, b);
    let orders = |t: &Tri| [[t[1], t[2], t[0]], [t[2], t[0], t[1]], [t[0], t[2], t[1]]];
    assert_eq!(ab, triangles_intersect(b, a), "swapped: {a:?} {b:?}");
    for o in orders(a) {
        assert_eq!(ab, triangles_intersect(&o, b), "reordered a: {o:?} {b:?}");
    }
    for o in orders(b) {
        assert_eq!(ab, triangles_intersect(a, &o), "reordered b: {a:?} {o:?}");
    }
    ab
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// `x` moved to the nearest multiple of `2^-GRID` (still an f32: a value under 2^-6
/// in size has fewer than 24 significant bits there, a larger one is unchanged).
fn snap(x: f32) -> f32 {
    let k = 2f64.powi(GRID);
    ((f64::from(x) * k).round() / k) as f32
}

fn point() -> impl Strategy<Value = Vec3> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| v(snap(x), snap(y), snap(z)))
}

fn triangle() -> impl Strategy<Value = Tri> {
    [point(), point(), point()].prop_filter("proper triangle", |t| {
        (t[1] - t[0]).cross(t[2] - t[0]).length() > 1e-3
    })
}

/// A move of up to 3 grid steps per coordinate.
fn steps(k: [i32; 3]) -> Vec3 {
    Vec3::from(k.map(|k| k as f32)) * 2f32.powi(-GRID)
}

fn on_grid(p: Vec3) -> Vec3 {
    p.map(|x| snap(x.clamp(-1.0, 1.0)))
}

/// `t` as it is, or made hard: a sliver (the third corner on the line through the
/// first two, moved by at most 3 grid steps per coordinate, so collinear up to
/// rounding), a segment (a repeated corner) or a point.
fn shaped(t: Tri, shape: u8, along: f32, moved: [i32; 3]) -> Tri {
    match shape % 8 {
        0..4 => t,
        4 | 5 => [
            t[0],
            t[1],
            on_grid(t[0] + (t[1] - t[0]) * along + steps(moved)),
        ],
        6 => [t[0], t[1], t[0]],
        _ => [t[0]; 3],
    }
}

/// Pairs that are hard to decide: the second triangle's corners near the first one
/// (on its plane, inside or beyond its edges, then off the plane on either side or
/// not, and moved by a few grid steps or not), or random; either may be a sliver, a
/// segment or a point.
fn hard_pair() -> impl Strategy<Value = (Tri, Tri)> {
    let off = || prop_oneof![Just(0.0f32), -0.3f32..0.3];
    let moved = || prop_oneof![Just([0; 3]), prop::array::uniform3(-3i32..=3)];
    let corner = || (-0.2f32..1.0, -0.2f32..1.0, off(), moved());
    let shape = || (any::<u8>(), -0.5f32..1.5, prop::array::uniform3(-3i32..=3));
    (
        [point(), point(), point()],
        [corner(), corner(), corner()],
        [point(), point(), point()],
        0u8..4,
        shape(),
        shape(),
    )
        .prop_map(|(a, near, far, derived, sa, sb)| {
            let a = shaped(a, sa.0, sa.1, sa.2);
            let n = (a[1] - a[0]).cross(a[2] - a[0]).normalize_or_zero();
            let b = if derived > 0 {
                near.map(|(u, w, h, k)| {
                    on_grid(a[0] + (a[1] - a[0]) * u + (a[2] - a[0]) * w + n * h + steps(k))
                })
            } else {
                far
            };
            (a, shaped(b, sb.0, sb.1, sb.2))
        })
}

/// A triangle in the plane where coordinate `axis` is `c`, exactly.
fn planar(axis: usize, c: f32) -> impl Strategy<Value = Tri> {
    triangle()
        .prop_map(move |t| {
            t.map(|mut p| {
                p[axis] = c;
                p
            })
        })
        .prop_filter("proper", |t| {
            (t[1] - t[0]).cross(t[2] - t[0]).length() > 1e-3
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// Slivers, segments, points and near contacts against exact arithmetic, in
    /// every argument and corner order (`both`).
    #[test]
    fn hard_pairs_agree_with_exact_arithmetic((a, b) in hard_pair()) {
        agrees(&a, &b)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn triangles_intersect_equals_separating_axes(a in triangle(), b in triangle()) {
        agrees(&a, &b)?;
    }

    #[test]
    fn coplanar_triangles_equal_separating_axes(
        axis in 0usize..3, c in -1.0f32..1.0, a in triangle(), b in triangle()
    ) {
        let c = snap(c);
        let flat = |t: Tri| t.map(|mut p| { p[axis] = c; p });
        let (a, b) = (flat(a), flat(b));
        let proper = |t: &Tri| (t[1] - t[0]).cross(t[2] - t[0]).length() > 1e-3;
        prop_assume!(proper(&a) && proper(&b));
        agrees(&a, &b)?;
    }

    #[test]
    fn parallel_planes_never_meet(a in planar(2, 0.0), b in planar(2, 0.25)) {
        prop_assert!(!both(&a, &b));
    }

    #[test]
    fn rays_at_inner_points_hit_there(
        t in triangle(), w in (0.05f32..0.45, 0.05f32..0.45), from in point(), back in 0.5f32..3.0
    ) {
        let target = t[0] * (1.0 - w.0 - w.1) + t[1] * w.0 + t[2] * w.1;
        let origin = target + (from - target).normalize_or(Vec3::Z) * back;
        let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize();
        // Skip grazing rays, where the answer rightly depends on rounding.
        prop_assume!(n.dot((target - origin).normalize()).abs() > 0.05);
        let ray = Ray::new(origin, target - origin).unwrap();
        let (d, u, vv) = ray_triangle(&ray, &t).expect("aimed inside");
        prop_assert!((d - back).abs() < 1e-3, "{} vs {}", d, back);
        prop_assert!((u - w.0).abs() < 1e-2 && (vv - w.1).abs() < 1e-2);
    }

    #[test]
    fn rays_at_outer_points_miss(
        t in triangle(), w in (-2.0f32..2.0, -2.0f32..2.0), from in point()
    ) {
        // Outside by a margin: a weight below -0.05 or a sum above 1.05.
        prop_assume!(w.0 < -0.05 || w.1 < -0.05 || w.0 + w.1 > 1.05);
        let target = t[0] * (1.0 - w.0 - w.1) + t[1] * w.0 + t[2] * w.1;
        let origin = target + (from - target).normalize_or(Vec3::Z) * 2.0;
        let n = (t[1] - t[0]).cross(t[2] - t[0]).normalize();
        prop_assume!(n.dot((target - origin).normalize()).abs() > 0.05);
        let ray = Ray::new(origin, target - origin).unwrap();
        prop_assert_eq!(ray_triangle(&ray, &t), None);
    }

    #[test]
    fn ray_aabb_matches_stepping(o in point(), d in point(), lo in point(), hi in point()) {
        prop_assume!(d.length() > 1e-2);
        let ray = Ray::new(o * 3.0, d).unwrap();
        let b = Aabb::new(lo, hi);
        let contains = |p: Vec3| p.cmpge(b.min - 1e-4).all() && p.cmple(b.max + 1e-4).all();
        match ray_aabb(&ray, &b, f32::INFINITY) {
            Some(t) => {
                prop_assert!(t >= 0.0);
                prop_assert!(contains(ray.at(t)), "entry point {:?} not on {:?}", ray.at(t), b);
                // Nothing of the box before the entry. The 1e-4 slack of `contains` is
                // a longer stretch of the ray along an axis it crosses slowly.
                let slowest = ray
                    .direction()
                    .abs()
                    .to_array()
                    .into_iter()
                    .filter(|&c| c > 0.0)
                    .fold(f32::INFINITY, f32::min);
                let before = t - 1e-3 - 1e-4 / slowest;
                for i in 0..100 {
                    let s = t * i as f32 / 100.0;
                    prop_assert!(t == 0.0 || !contains(ray.at(s * 0.999)) || s * 0.999 > before);
                }
            }
            None => {
                for i in 0..2000 {
                    let p = ray.at(i as f32 * 0.005);
                    let strict = p.cmpgt(b.min + 1e-3).all() && p.cmplt(b.max - 1e-3).all();
                    prop_assert!(!strict, "missed box holds {:?}", p);
                }
            }
        }
    }
}

/// Two slivers an axis separates by 0.0169 were reported touching in one argument
/// order only (confirmed apart with exact rationals).
#[test]
fn a_sliver_pair_apart_is_apart_in_every_order() {
    let a = [
        v(0.5935924, 0.74099976, 0.29535842),
        v(-0.77154326, -0.7887406, -0.33537126),
        v(0.4364132, -0.58494914, 0.25021756),
    ];
    let b = [
        v(-0.1181032, -0.5243619, 0.82158434),
        v(0.60532063, 0.26254562, 0.23628356),
        v(0.3120641, -0.05644545, 0.4735487),
    ];
    assert!(!exact_overlap(&a, &b));
    assert!(!both(&a, &b));
}

/// Two edges of `b` pass through `a`, yet one argument order said apart.
#[test]
fn a_sliver_crossing_a_triangle_touches_in_every_order() {
    let a = [
        v(0.7272427, -0.26475662, 0.46545872),
        v(-0.8806656, 0.50152993, -0.5563893),
        v(-0.13772666, -0.08748027, -0.21699975),
    ];
    let b = [
        v(0.06722363, 0.14298232, -0.6638131),
        v(-0.97175163, -0.22911008, 0.8598489),
        v(-0.5044913, -0.061768264, 0.17460954),
    ];
    assert!(exact_overlap(&a, &b));
    assert!(both(&a, &b));
}

#[test]
fn touching_at_a_shared_vertex() {
    let a = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    let b = [v(0.0, 0.0, 0.0), v(-1.0, 0.0, 1.0), v(0.0, -1.0, 1.0)];
    assert!(both(&a, &b));
    // Lifted off by a little: apart.
    assert!(!both(&a, &b.map(|p| p + v(0.0, 0.0, 1e-3))));
}

#[test]
fn vertex_on_the_face_and_edge_on_the_face() {
    let a = [v(0.0, 0.0, 0.0), v(4.0, 0.0, 0.0), v(0.0, 4.0, 0.0)];
    let apex = [v(1.0, 1.0, 0.0), v(1.0, 2.0, 3.0), v(2.0, 1.0, 3.0)];
    assert!(both(&a, &apex));
    let edge = [v(1.0, 1.0, 0.0), v(2.0, 1.0, 0.0), v(1.5, 1.0, 2.0)];
    assert!(both(&a, &edge));
    // Crossing through the middle.
    let through = [v(1.0, 1.0, -1.0), v(1.0, 1.0, 1.0), v(2.0, 1.0, 0.0)];
    assert!(both(&a, &through));
}

#[test]
fn ray_box_triangle_and_transform_basics() {
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let ray = Ray::new(Vec3::new(-2.0, 0.5, 0.5), Vec3::X).unwrap();
    assert_eq!(ray_aabb(&ray, &unit, f32::INFINITY), Some(2.0));
    assert_eq!(ray_aabb(&ray, &unit, 1.0), None);
    let down = Ray::new(Vec3::new(0.25, 0.25, 1.0), -Vec3::Z).unwrap();
    let tri = [Vec3::ZERO, Vec3::X, Vec3::Y];
    assert_eq!(ray_triangle(&down, &tri), Some((1.0, 0.25, 0.25)));
    let along = Ray::new(Vec3::ZERO, Vec3::X).unwrap();
    let (local, scale) = along
        .transformed(&Affine3A::from_scale(Vec3::splat(2.0)))
        .unwrap();
    assert_eq!(scale, 2.0);
    assert_eq!(local.at(1.0 * scale), Vec3::new(2.0, 0.0, 0.0));
    assert_eq!(along.transformed(&Affine3A::from_scale(Vec3::ZERO)), None);
}

#[test]
fn coplanar_cases() {
    let a = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0)];
    let overlapping = [v(1.0, 1.0, 0.0), v(-1.0, 0.5, 0.0), v(0.5, -1.0, 0.0)];
    let disjoint = [v(3.0, 3.0, 0.0), v(4.0, 3.0, 0.0), v(3.0, 4.0, 0.0)];
    let inside = [v(0.2, 0.2, 0.0), v(0.5, 0.2, 0.0), v(0.2, 0.5, 0.0)];
    let shared_edge = [v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0), v(2.0, 2.0, 0.0)];
    let touching_vertex = [v(2.0, 0.0, 0.0), v(3.0, 0.0, 0.0), v(3.0, 1.0, 0.0)];
    assert!(both(&a, &overlapping));
    assert!(!both(&a, &disjoint));
    assert!(both(&a, &inside));
    assert!(both(&a, &shared_edge));
    assert!(both(&a, &touching_vertex));
    // Just past the hypotenuse: apart.
    let past = [v(1.1, 1.1, 0.0), v(2.0, 2.0, 0.0), v(1.1, 2.0, 0.0)];
    assert!(!both(&a, &past));
}

#[test]
fn parallel_planes() {
    let a = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    assert!(!both(&a, &a.map(|p| p + Vec3::Z)));
    assert!(both(&a, &a));
}

#[test]
fn degenerate_triangles() {
    let a = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0)];
    // A segment (collinear corners) piercing the face, passing beside it, lying on it.
    let pierce = [v(0.5, 0.5, -1.0), v(0.5, 0.5, 1.0), v(0.5, 0.5, 0.0)];
    let beside = [v(3.0, 3.0, -1.0), v(3.0, 3.0, 1.0), v(3.0, 3.0, 0.0)];
    let lying = [v(-1.0, 0.5, 0.0), v(3.0, 0.5, 0.0), v(1.0, 0.5, 0.0)];
    assert!(both(&a, &pierce));
    assert!(!both(&a, &beside));
    assert!(both(&a, &lying));
    // A point (all corners equal) on the face and off it.
    let on = [v(0.5, 0.5, 0.0); 3];
    let off = [v(0.5, 0.5, 0.1); 3];
    assert!(both(&a, &on));
    assert!(!both(&a, &off));
    // Segments against segments: crossing, skew, collinear overlapping and apart.
    let s = |p: Vec3, q: Vec3| [p, q, p];
    let x = s(v(-1.0, 0.0, 0.0), v(1.0, 0.0, 0.0));
    assert!(both(&x, &s(v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0))));
    assert!(!both(&x, &s(v(0.0, -1.0, 0.5), v(0.0, 1.0, 0.5))));
    assert!(both(&x, &s(v(0.5, 0.0, 0.0), v(2.0, 0.0, 0.0))));
    assert!(!both(&x, &s(v(1.5, 0.0, 0.0), v(2.0, 0.0, 0.0))));
    // Points against segments and points.
    assert!(both(&x, &[v(0.25, 0.0, 0.0); 3]));
    assert!(!both(&x, &[v(0.25, 0.1, 0.0); 3]));
    assert!(both(&on, &on));
    assert!(!both(&on, &off));
    // NaN never intersects.
    assert!(!both(
        &a,
        &[v(f32::NAN, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)]
    ));
}

#[test]
fn ray_hand_cases() {
    assert_eq!(Ray::new(Vec3::ZERO, Vec3::ZERO), Err(BadRay::ZeroDirection));
    assert_eq!(Ray::new(Vec3::NAN, Vec3::X), Err(BadRay::NotFinite));
    assert_eq!(
        Ray::new(Vec3::ZERO, v(f32::INFINITY, 0.0, 0.0)),
        Err(BadRay::NotFinite)
    );
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let inside = Ray::new(Vec3::splat(0.5), Vec3::X).unwrap();
    assert_eq!(ray_aabb(&inside, &unit, 10.0), Some(0.0));
    assert_eq!(ray_aabb(&inside, &unit, -1.0), None);
    assert_eq!(ray_aabb(&inside, &unit, f32::NAN), None);
    assert_eq!(ray_aabb(&inside, &Aabb::EMPTY, 10.0), None);
    let nan_box = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    assert_eq!(ray_aabb(&inside, &nan_box, 10.0), Some(0.0));
    // Parallel to a face, on it: touching counts; just off it: a miss.
    let grazing = Ray::new(v(-1.0, 1.0, 0.5), Vec3::X).unwrap();
    assert_eq!(ray_aabb(&grazing, &unit, 10.0), Some(1.0));
    let off = Ray::new(v(-1.0, 1.001, 0.5), Vec3::X).unwrap();
    assert_eq!(ray_aabb(&off, &unit, 10.0), None);
    // Behind the origin: a miss.
    let away = Ray::new(v(-1.0, 0.5, 0.5), -Vec3::X).unwrap();
    assert_eq!(ray_aabb(&away, &unit, 10.0), None);
    // Triangles: degenerate never hit, behind never hit, edges hit.
    let tri = [Vec3::ZERO, Vec3::X, Vec3::Y];
    let down = |x: f32, y: f32| Ray::new(v(x, y, 1.0), -Vec3::Z).unwrap();
    assert_eq!(ray_triangle(&down(0.5, 0.0), &tri), Some((1.0, 0.5, 0.0)));
    assert_eq!(ray_triangle(&down(0.6, 0.6), &tri), None);
    assert_eq!(
        ray_triangle(&down(0.0, 0.0), &[Vec3::ZERO, Vec3::X, Vec3::X * 2.0]),
        None
    );
    let up = Ray::new(v(0.2, 0.2, 1.0), Vec3::Z).unwrap();
    assert_eq!(ray_triangle(&up, &tri), None);
}

#[test]
fn triangle_tests_hold_at_any_scale_and_distance_from_the_origin() {
    use scenewalk_nodes::triangles_intersect;
    let a = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0, 0.0),
    ];
    let crossing = [
        Vec3::new(0.5, 0.5, -1.0),
        Vec3::new(0.5, 0.5, 1.0),
        Vec3::new(1.0, 0.25, 1.0),
    ];
    let apart = crossing.map(|p| p + Vec3::new(0.0, 0.0, 5.0));
    for scale in [1e-6f32, 1e-3, 1.0, 1e4, 1e8, 1e13, 1e18] {
        // Offsets in units of the triangles' size, up to where f32 still resolves
        // the shapes (an ulp of the offset stays well below the 0.25 features).
        for offset in [0.0f32, 1e3, 1e5] {
            let place = |t: [Vec3; 3]| t.map(|p| (p + Vec3::splat(offset)) * scale);
            assert!(
                triangles_intersect(&place(a), &place(crossing)),
                "crossing at scale {scale}, offset {offset}"
            );
            assert!(
                !triangles_intersect(&place(a), &place(apart)),
                "apart at scale {scale}, offset {offset}"
            );
        }
    }
}

#[test]
fn tiny_and_huge_triangles_are_hit() {
    use scenewalk_nodes::{Ray, ray_triangle};
    for size in [1e-15f32, 1e-12, 1e-6, 1.0, 1e6, 1e15] {
        let tri = [
            Vec3::ZERO,
            Vec3::new(size, 0.0, 0.0),
            Vec3::new(0.0, size, 0.0),
        ];
        let ray = Ray::new(Vec3::new(0.25 * size, 0.25 * size, 1.0), -Vec3::Z).unwrap();
        let hit = ray_triangle(&ray, &tri);
        assert!(
            hit.is_some_and(|(t, _, _)| (t - 1.0).abs() < 1e-5),
            "size {size}: {hit:?}"
        );
    }
}

proptest! {
    /// The brute-force nearest hit over an indexed list (what picks posed skinned
    /// meshes) is the mesh's BVH walk: same triangle, same distance, bit for bit.
    #[test]
    fn ray_triangles_is_the_bvh_walk_over_the_same_triangles(
        positions in prop::collection::vec(prop::array::uniform3(-2.0f32..2.0), 3..40),
        picks in prop::collection::vec(prop::array::uniform3(0usize..1000), 1..60),
        origin in prop::array::uniform3(-4.0f32..4.0),
        toward in prop::array::uniform3(-1.0f32..1.0),
    ) {
        let positions: Vec<Vec3> = positions.into_iter().map(Vec3::from).collect();
        let n = positions.len();
        let triangles: Vec<[u32; 3]> =
            picks.iter().map(|t| t.map(|i| (i % n) as u32)).collect();
        let mesh = scenewalk_nodes::Mesh::new(positions.clone(), triangles.clone()).unwrap();
        let Ok(ray) = Ray::new(Vec3::from(origin), Vec3::from(toward) - Vec3::from(origin))
        else {
            return Ok(());
        };
        let brute = scenewalk_nodes::ray_triangles(&ray, &positions, &triangles, f32::INFINITY);
        let walked = mesh.ray_hit(&ray, f32::INFINITY);
        prop_assert_eq!(brute, walked);
    }
}

/// `Ray`'s example: the direction is normalized, and `at` steps along it.
#[test]
fn a_ray_normalizes_its_direction() {
    let ray = Ray::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 2.0)).unwrap();
    assert_eq!(ray.direction(), Vec3::Z);
    assert_eq!(ray.at(3.0), Vec3::new(0.0, 0.0, 3.0));
}

/// `ray_triangles`' example: of two triangles on the ray, the nearer is hit.
#[test]
fn ray_triangles_hits_the_nearer_of_two_triangles() {
    let positions = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(0.0, 0.0, -1.0)];
    let triangles = [[0, 1, 2], [3, 1, 2]];
    let ray = Ray::new(Vec3::new(0.2, 0.2, 5.0), -Vec3::Z).unwrap();
    let hit = scenewalk_nodes::ray_triangles(&ray, &positions, &triangles, f32::INFINITY);
    let hit = hit.unwrap();
    assert_eq!((hit.triangle, hit.distance), (0, 5.0));
}
