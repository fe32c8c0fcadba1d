//! Mesh-versus-mesh collision: `Collide::meshes` (the `DualTree` iterator over the two
//! BVH graphs, exact triangle tests at leaf pairs) against a recursive dual descent
//! written here with the same descent rule, the same relative transform and the same
//! triangle test, on the same two meshes.
//!
//! Two UV spheres of 4,992 triangles each (64 segments, 40 rings, radius 1), the
//! second turned and moved 1.0 along x so they cut each other along a circle.
//!
//! - `meshes/collide_all`: every contact through `Collide` (buffers reused);
//! - `meshes/recursive_all`: the recursive descent, pushing into a reused `Vec`;
//! - `meshes/collide_first`: `ContactMode::First`.
//!
//! The recursive version does not pad boxes against rounding as `Collide` does (a few
//! flops per pair test); both find the same contacts here (checked before measuring).

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, criterion_group, criterion_main};
use scenewalk_actors::{Collide, ContactMode, TriangleContact};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{Graph, NodeIndex};
use scenewalk_nodes::{Mesh, triangles_intersect};
use std::hint::black_box;
use std::time::Duration;

fn children(g: &Graph, n: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
    std::iter::successors(g.first_child_at(n), move |&c| g.next_sibling_at(c))
}

/// The same descent as `DualTree` (both internal: every child pair), recursively.
fn recursive(
    a: &Mesh,
    b: &Mesh,
    rel: &Affine3A,
    x: NodeIndex,
    y: NodeIndex,
    out: &mut Vec<TriangleContact>,
) {
    let (ba, bb) = (a.bvh(), b.bvh());
    if !ba.node_box(x).transformed(rel).overlaps(&bb.node_box(y)) {
        return;
    }
    let (ga, gb) = (ba.graph(), bb.graph());
    match (ga.first_child_at(x), gb.first_child_at(y)) {
        (None, None) => {
            for &ta in ba.leaf_triangles(x) {
                let corners = a.triangle(ta).unwrap().map(|p| rel.transform_point3(p));
                for &tb in bb.leaf_triangles(y) {
                    if triangles_intersect(&corners, &b.triangle(tb).unwrap()) {
                        out.push(TriangleContact { a: ta, b: tb });
                    }
                }
            }
        }
        (Some(_), None) => {
            for c in children(ga, x) {
                recursive(a, b, rel, c, y, out);
            }
        }
        (None, Some(_)) => {
            for d in children(gb, y) {
                recursive(a, b, rel, x, d, out);
            }
        }
        (Some(_), Some(_)) => {
            for c in children(ga, x) {
                for d in children(gb, y) {
                    recursive(a, b, rel, c, d, out);
                }
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let sphere = Mesh::uv_sphere(1.0, 64, 40).unwrap();
    let here = Affine3A::IDENTITY;
    let there = Affine3A::from_rotation_translation(Quat::from_rotation_z(0.4), Vec3::X);
    let rel = there.inverse() * here;
    let (root_a, root_b) = (sphere.bvh().root().index(), sphere.bvh().root().index());

    let mut collide = Collide::new();
    let mut by_collide = collide
        .meshes(&sphere, &here, &sphere, &there, ContactMode::All)
        .to_vec();
    let mut by_hand = Vec::new();
    recursive(&sphere, &sphere, &rel, root_a, root_b, &mut by_hand);
    by_collide.sort();
    by_hand.sort();
    assert_eq!(by_collide, by_hand, "the two descents disagree");
    eprintln!(
        "{} triangles each, {} contacts",
        sphere.geometry().primitives(),
        by_hand.len()
    );

    let mut group = c.benchmark_group("meshes");
    group.bench_function("collide_all", |bench| {
        bench.iter(|| {
            black_box(
                collide
                    .meshes(&sphere, &here, black_box(&sphere), &there, ContactMode::All)
                    .len(),
            )
        })
    });
    group.bench_function("recursive_all", |bench| {
        bench.iter(|| {
            by_hand.clear();
            recursive(
                &sphere,
                black_box(&sphere),
                &rel,
                root_a,
                root_b,
                &mut by_hand,
            );
            black_box(by_hand.len())
        })
    });
    group.bench_function("collide_first", |bench| {
        bench.iter(|| {
            black_box(
                collide
                    .meshes(
                        &sphere,
                        &here,
                        black_box(&sphere),
                        &there,
                        ContactMode::First,
                    )
                    .len(),
            )
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
