//! Meshes and their BVH: structural invariants on random meshes, nearest hits equal to
//! a loop over every triangle, the procedural shapes, and bad input.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::glam::{Affine3A, Quat, Vec2, Vec3};
use scenewalk_core::{Aabb, NodeIndex};
use scenewalk_iterators::Walk;
use scenewalk_nodes::{MAX_LEAF_TRIANGLES, Mesh, MeshError, Ray, TriangleHit, ray_triangle};
use std::collections::HashMap;

/// The nearest hit by testing every triangle; ties go to the lowest index.
fn brute_hit(mesh: &Mesh, ray: &Ray, max: f32) -> Option<(u32, f32)> {
    let mut best: Option<(u32, f32)> = None;
    for i in 0..mesh.geometry().primitives() {
        if let Some((t, _, _)) = ray_triangle(ray, &mesh.triangle(i).unwrap())
            && t <= max
            && best.is_none_or(|(_, b)| t < b)
        {
            best = Some((i, t));
        }
    }
    best
}

fn contains(outer: &Aabb, inner: &Aabb) -> bool {
    inner.is_empty() || (outer.min.cmple(inner.min).all() && inner.max.cmple(outer.max).all())
}

/// Checks every BVH invariant the crate promises.
fn check_bvh(mesh: &Mesh) {
    let bvh = mesh.bvh();
    let graph = bvh.graph();
    let root = bvh.root();
    let mut seen = vec![0u32; mesh.geometry().primitives() as usize];
    let mut expected_slot = 0;
    for i in graph.preorder(root).unwrap() {
        // Added in depth-first order: pre-order visits slots 0, 1, 2, ...
        assert_eq!(i.get(), expected_slot);
        expected_slot += 1;
        let own = bvh.boxes()[i.get()];
        for &t in bvh.subtree_triangles(i) {
            let corners = mesh.triangle(t).unwrap();
            assert!(
                contains(&own, &Aabb::from_points(corners)),
                "triangle {t} outside node box"
            );
        }
        let children: Vec<NodeIndex> =
            std::iter::successors(graph.first_child_at(i), |&c| graph.next_sibling_at(c)).collect();
        if children.is_empty() {
            assert!(bvh.is_leaf(i));
            let tris = bvh.leaf_triangles(i);
            assert!(tris.len() <= MAX_LEAF_TRIANGLES);
            for &t in tris {
                seen[t as usize] += 1;
            }
        } else {
            assert_eq!(children.len(), 2);
            assert!(bvh.leaf_triangles(i).is_empty());
            let mut below = 0;
            for c in children {
                assert!(contains(&own, &bvh.boxes()[c.get()]));
                below += bvh.subtree_triangles(c).len();
            }
            assert_eq!(below, bvh.subtree_triangles(i).len());
        }
    }
    assert_eq!(expected_slot, bvh.graph().len());
    assert!(
        seen.iter().all(|&n| n == 1),
        "a triangle is in {seen:?} leaves"
    );
    let all = Aabb::from_points(
        mesh.triangles()
            .iter()
            .flatten()
            .map(|&i| mesh.positions()[i as usize]),
    );
    assert_eq!(bvh.boxes()[root.index().get()], all);
    assert_eq!(*mesh.geometry().local_bounds(), all);
}

/// A triangle soup of `n` triangles, some of them degenerate, some duplicated.
fn soup() -> impl Strategy<Value = Mesh> {
    (
        prop::collection::vec((-4.0f32..4.0, -4.0f32..4.0, -4.0f32..4.0), 3..40),
        prop::collection::vec((any::<u32>(), any::<u32>(), any::<u32>()), 0..120),
    )
        .prop_map(|(points, tris)| {
            let n = points.len() as u32;
            let positions = points
                .into_iter()
                .map(|(x, y, z)| Vec3::new(x, y, z))
                .collect();
            let triangles = tris
                .into_iter()
                .map(|(a, b, c)| [a % n, b % n, c % n])
                .collect();
            Mesh::new(positions, triangles).unwrap()
        })
}

fn ray_strategy() -> impl Strategy<Value = Ray> {
    (
        (-8.0f32..8.0, -8.0f32..8.0, -8.0f32..8.0),
        (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
    )
        .prop_filter_map("direction", |(o, d)| {
            Ray::new(Vec3::new(o.0, o.1, o.2), Vec3::new(d.0, d.1, d.2)).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn bvh_invariants_hold(mesh in soup()) {
        check_bvh(&mesh);
    }

    #[test]
    fn ray_hit_equals_brute_force(
        mesh in soup(), rays in prop::collection::vec(ray_strategy(), 20), aim in any::<u32>(),
        max in prop_oneof![Just(f32::INFINITY), 0.0f32..12.0],
    ) {
        for (k, ray) in rays.iter().enumerate() {
            // Every other ray is aimed at a triangle's centroid, so hits are common.
            let ray = if k % 2 == 1 && mesh.geometry().primitives() > 0 {
                let t = mesh.triangle((aim.wrapping_add(k as u32)) % mesh.geometry().primitives()).unwrap();
                let c = (t[0] + t[1] + t[2]) / 3.0;
                Ray::new(ray.origin(), c - ray.origin()).unwrap_or(*ray)
            } else {
                *ray
            };
            let fast = mesh.ray_hit(&ray, max).map(|h: TriangleHit| (h.triangle, h.distance));
            prop_assert_eq!(fast, brute_hit(&mesh, &ray, max));
            if let Some(hit) = mesh.ray_hit(&ray, max) {
                prop_assert!((hit.point - ray.at(hit.distance)).length() < 1e-4);
            }
        }
    }

    #[test]
    fn world_hits_report_world_distances(
        mesh in soup(), ray in ray_strategy(), scale in 0.2f32..5.0, angle in 0.0f32..6.0,
        shift in (-3.0f32..3.0, -3.0f32..3.0, -3.0f32..3.0),
    ) {
        let world = Affine3A::from_scale_rotation_translation(
            Vec3::new(scale, scale * 0.5, 1.0),
            Quat::from_rotation_y(angle),
            Vec3::new(shift.0, shift.1, shift.2),
        );
        // Brute force in the world frame: every triangle mapped by `world`.
        let mut best: Option<f32> = None;
        for i in 0..mesh.geometry().primitives() {
            let t = mesh.triangle(i).unwrap().map(|p| world.transform_point3(p));
            if let Some((d, _, _)) = ray_triangle(&ray, &t) && best.is_none_or(|b| d < b) {
                best = Some(d);
            }
        }
        let hit = mesh.ray_hit_world(&ray, &world, f32::INFINITY);
        match (hit, best) {
            (Some(h), Some(b)) => prop_assert!((h.distance - b).abs() < 1e-3 * (1.0 + b), "{} vs {}", h.distance, b),
            // Rounding may flip a hit that grazes an edge; allow that only near edges.
            (h, b) => prop_assert!(h.is_none() && b.is_none(), "{:?} vs {:?}", h, b),
        }
    }
}

#[test]
fn empty_mesh_has_one_empty_leaf() {
    let mesh = Mesh::new(vec![], vec![]).unwrap();
    assert_eq!(mesh.geometry().primitives(), 0);
    assert_eq!(*mesh.geometry().local_bounds(), Aabb::EMPTY);
    assert_eq!(mesh.bvh().graph().len(), 1);
    assert!(mesh.bvh().is_leaf(mesh.bvh().root().index()));
    let ray = Ray::new(Vec3::ZERO, Vec3::X).unwrap();
    assert_eq!(mesh.ray_hit(&ray, f32::INFINITY), None);
}

#[test]
fn bad_input_is_an_error() {
    assert_eq!(
        Mesh::new(vec![Vec3::ZERO, Vec3::X], vec![[0, 1, 2]]).unwrap_err(),
        MeshError::IndexOutOfRange {
            triangle: 0,
            index: 2,
            positions: 2
        }
    );
    assert!(matches!(
        Mesh::new(vec![Vec3::ZERO, Vec3::NAN, Vec3::X], vec![[0, 1, 2]]),
        Err(MeshError::NotFinite { index: 1, .. })
    ));
    assert!(matches!(
        Mesh::uv_sphere(f32::INFINITY, 8, 4),
        Err(MeshError::NotFinite { .. })
    ));
    assert!(matches!(
        Mesh::grid(Vec2::ONE, (u32::MAX, u32::MAX)),
        Err(MeshError::TooManyTriangles(_))
    ));
}

#[test]
fn identical_centroids_still_split_into_small_leaves() {
    // 1000 copies of one triangle: no SAH split exists, halving by position must.
    let mesh = Mesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]; 1000]).unwrap();
    check_bvh(&mesh);
    let ray = Ray::new(Vec3::new(0.2, 0.2, 1.0), -Vec3::Z).unwrap();
    assert_eq!(mesh.ray_hit(&ray, f32::INFINITY).unwrap().triangle, 0);
}

#[test]
fn declared_bounds_widen_the_geometry_only() {
    let mesh = Mesh::cuboid(Vec3::ONE).unwrap();
    let wide = mesh
        .clone()
        .with_declared_bounds(Aabb::new(Vec3::ZERO, Vec3::splat(3.0)));
    assert_eq!(
        *wide.geometry().local_bounds(),
        Aabb::new(-Vec3::ONE, Vec3::splat(3.0))
    );
    assert_eq!(
        wide.bvh().boxes()[wide.bvh().root().index().get()],
        *mesh.geometry().local_bounds()
    );
    assert!(wide.shares_data(&mesh));
    // Unusable declarations change nothing.
    let nan = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    let inverted = Aabb {
        min: Vec3::ONE,
        max: -Vec3::ONE,
    };
    let infinite = Aabb::new(Vec3::ZERO, Vec3::INFINITY);
    for bad in [nan, inverted, infinite] {
        assert_eq!(
            mesh.clone()
                .with_declared_bounds(bad)
                .geometry()
                .local_bounds(),
            mesh.geometry().local_bounds()
        );
    }
    fn shareable<T: Send + Sync + Clone>() {}
    shareable::<Mesh>();
}

/// Every edge of a closed surface is used by exactly two triangles, once each way.
fn assert_closed(mesh: &Mesh) {
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for t in mesh.triangles() {
        for k in 0..3 {
            *edges.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "edge {a}-{b} used {n} times one way");
        assert_eq!(edges.get(&(b, a)), Some(&1), "edge {a}-{b} has no twin");
    }
}

#[test]
fn shapes_are_closed_and_sized() {
    let sphere = Mesh::uv_sphere(2.0, 12, 6).unwrap();
    assert_closed(&sphere);
    assert_eq!(sphere.geometry().primitives(), 2 * 12 * 5);
    assert!((sphere.geometry().local_bounds().max.y - 2.0).abs() < 1e-6);
    assert!(
        sphere
            .positions()
            .iter()
            .all(|p| (p.length() - 2.0).abs() < 1e-5)
    );
    check_bvh(&sphere);
    let torus = Mesh::torus(3.0, 1.0, 16, 8).unwrap();
    assert_closed(&torus);
    assert_eq!(torus.geometry().primitives(), 2 * 16 * 8);
    let cube = Mesh::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    assert_closed(&cube);
    assert_eq!(cube.geometry().primitives(), 12);
    let half = Vec3::new(1.0, 2.0, 3.0);
    assert_eq!(*cube.geometry().local_bounds(), Aabb::new(-half, half));
    // Outward-facing: a ray from outside hits the face nearest it first.
    let ray = Ray::new(Vec3::new(0.0, 0.0, 10.0), -Vec3::Z).unwrap();
    assert_eq!(cube.ray_hit(&ray, f32::INFINITY).unwrap().distance, 7.0);
    let grid = Mesh::grid(Vec2::new(2.0, 2.0), (4, 4)).unwrap();
    assert_eq!(grid.geometry().primitives(), 32);
    assert_eq!(grid.geometry().local_bounds().max.x, 1.0);
    let down = Ray::new(Vec3::new(0.3, 5.0, -0.2), -Vec3::Y).unwrap();
    assert_eq!(grid.ray_hit(&down, f32::INFINITY).unwrap().distance, 5.0);
    // Walks of the BVH graph see every node once.
    assert_eq!(
        grid.bvh()
            .graph()
            .preorder(grid.bvh().root())
            .unwrap()
            .count(),
        grid.bvh().graph().len()
    );
}

#[test]
fn extreme_coordinates_build_and_answer() {
    // Extents overflow to infinity: the SAH sees infinite areas and must still split.
    let big = 3.0e38f32;
    let positions = vec![
        Vec3::new(-big, -big, -big),
        Vec3::new(big, -big, 0.0),
        Vec3::new(0.0, big, big),
        Vec3::new(1.0, 2.0, 3.0),
        Vec3::new(-1.0, 0.5, 2.0),
        Vec3::new(0.0, 0.0, -1.0),
    ];
    let triangles: Vec<[u32; 3]> = (0..60).map(|i| [i % 6, (i + 1) % 6, (i + 3) % 6]).collect();
    let mesh = Mesh::new(positions, triangles).unwrap();
    check_bvh(&mesh);
    let ray = Ray::new(Vec3::new(0.1, 0.2, 10.0), -Vec3::Z).unwrap();
    assert_eq!(
        mesh.ray_hit(&ray, f32::INFINITY)
            .map(|h| (h.triangle, h.distance)),
        brute_hit(&mesh, &ray, f32::INFINITY)
    );
}

#[test]
fn exponentially_spaced_triangles_make_a_deeper_tree() {
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    for i in 0..2000u32 {
        let s = 1.04f32.powi(i as i32);
        positions.extend([
            Vec3::new(s, 0.0, 0.0),
            Vec3::new(s, s, 0.0),
            Vec3::new(s, 0.0, s),
        ]);
        triangles.push([3 * i, 3 * i + 1, 3 * i + 2]);
    }
    let mesh = Mesh::new(positions, triangles).unwrap();
    check_bvh(&mesh);
    // Binned SAH peels the largest triangles off level by level.
    let graph = mesh.bvh().graph();
    let depth = graph
        .preorder(mesh.bvh().root())
        .unwrap()
        .map(|i| std::iter::successors(graph.parent_at(i), |&p| graph.parent_at(p)).count())
        .max()
        .unwrap();
    assert!(depth > 20, "depth {depth}");
    for x in [1.0f32, 50.0, 1.0e20] {
        let ray = Ray::new(Vec3::new(-1.0, 0.01 * x, 0.01 * x), Vec3::X).unwrap();
        assert_eq!(
            mesh.ray_hit(&ray, f32::INFINITY)
                .map(|h| (h.triangle, h.distance)),
            brute_hit(&mesh, &ray, f32::INFINITY)
        );
    }
}

#[test]
fn huge_shape_counts_are_errors_not_overflows_or_aborts() {
    use scenewalk_nodes::{Mesh, MeshError};
    assert!(matches!(
        Mesh::uv_sphere(1.0, u32::MAX, u32::MAX),
        Err(MeshError::TooManyTriangles(_))
    ));
    assert!(matches!(
        Mesh::torus(1.0, 0.5, u32::MAX, u32::MAX),
        Err(MeshError::TooManyTriangles(_))
    ));
    assert!(matches!(
        Mesh::uv_sphere(1.0, 65_535, 32_768),
        Err(MeshError::TooManyTriangles(_))
    ));
    assert!(Mesh::uv_sphere(1.0, 64, 32).is_ok());
}

/// A mesh reads as the geometry it extends, but is written only as a mesh: a write
/// through `Geometry` could set a box that no longer holds its triangles.
#[test]
fn a_mesh_reads_as_geometry_but_is_written_only_as_a_mesh() {
    use scenewalk_core::{Graph, GraphError};
    use scenewalk_nodes::Geometry;
    let quad = Mesh::new(
        vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    let mut graph = Graph::new();
    let node = graph.add_root(quad);
    assert_eq!(graph.get::<Geometry>(node).unwrap().primitives(), 2);
    assert!(matches!(
        graph.get_mut::<Geometry>(node),
        Err(GraphError::WrongType { .. })
    ));
    assert_eq!(
        graph.get_mut::<Mesh>(node).unwrap().geometry().primitives(),
        2
    );
}

/// `MeshBvh`'s example: the root's box and triangles are the whole mesh's.
#[test]
fn the_bvh_root_holds_the_whole_mesh() {
    let mesh = Mesh::uv_sphere(1.0, 16, 8).unwrap();
    let bvh = mesh.bvh();
    let root = bvh.root().index();
    assert_eq!(bvh.boxes()[root.get()], *mesh.geometry().local_bounds());
    let count = mesh.geometry().primitives() as usize;
    assert_eq!(bvh.subtree_triangles(root).len(), count);
}
