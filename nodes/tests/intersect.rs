//! The exact tests against independent formulations: triangle–triangle against the
//! separating-axis theorem, ray–triangle against a plane hit plus barycentric weights,
//! ray–box against stepping along the ray; plus hand cases for the touching,
//! coplanar, parallel and degenerate configurations.

use proptest::prelude::*;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_nodes::{BadRay, Ray, ray_aabb, ray_triangle, triangles_intersect};

type Tri = [Vec3; 3];

/// Separating-axis theorem for two proper triangles: disjoint iff their projections
/// on one of the candidate axes are disjoint. The candidates (both normals, edge ×
/// edge, and each normal × each edge for coplanar pairs) are complete for two
/// triangles, so this decides overlap without any of the code under test.
fn sat_overlap(a: &Tri, b: &Tri) -> bool {
    let edges = |t: &Tri| [t[1] - t[0], t[2] - t[1], t[0] - t[2]];
    let (ea, eb) = (edges(a), edges(b));
    let (na, nb) = (ea[0].cross(ea[1]), eb[0].cross(eb[1]));
    let mut axes = vec![na, nb];
    for x in ea {
        for y in eb {
            axes.push(x.cross(y));
        }
    }
    for e in ea.iter().chain(&eb) {
        axes.push(na.cross(*e));
        axes.push(nb.cross(*e));
    }
    let range = |t: &Tri, axis: Vec3| {
        let d = t.map(|p| axis.dot(p));
        (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
    };
    axes.into_iter()
        .filter(|axis| axis.length_squared() > 1e-12)
        .all(|axis| {
            let ((a0, a1), (b0, b1)) = (range(a, axis), range(b, axis));
            a0 <= b1 && b0 <= a1
        })
}

/// Both argument orders must agree: the test is symmetric.
fn both(a: &Tri, b: &Tri) -> bool {
    let ab = triangles_intersect(a, b);
    assert_eq!(ab, triangles_intersect(b, a), "asymmetric for {a:?} {b:?}");
    ab
}

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn point() -> impl Strategy<Value = Vec3> {
    (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0).prop_map(|(x, y, z)| v(x, y, z))
}

fn triangle() -> impl Strategy<Value = Tri> {
    [point(), point(), point()].prop_filter("proper triangle", |t| {
        (t[1] - t[0]).cross(t[2] - t[0]).length() > 1e-3
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
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn triangles_intersect_equals_separating_axes(a in triangle(), b in triangle()) {
        prop_assert_eq!(both(&a, &b), sat_overlap(&a, &b), "{:?} {:?}", a, b);
    }

    #[test]
    fn coplanar_triangles_equal_separating_axes(
        axis in 0usize..3, c in -1.0f32..1.0, a in triangle(), b in triangle()
    ) {
        let flat = |t: Tri| t.map(|mut p| { p[axis] = c; p });
        let (a, b) = (flat(a), flat(b));
        let proper = |t: &Tri| (t[1] - t[0]).cross(t[2] - t[0]).length() > 1e-3;
        prop_assume!(proper(&a) && proper(&b));
        prop_assert_eq!(both(&a, &b), sat_overlap(&a, &b), "{:?} {:?}", a, b);
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
                // Nothing of the box before the entry.
                for i in 0..100 {
                    let s = t * i as f32 / 100.0;
                    prop_assert!(t == 0.0 || !contains(ray.at(s * 0.999)) || s * 0.999 > t - 1e-3);
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
