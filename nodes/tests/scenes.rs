//! The checks on the shared real-data set (`../shared/scenes` beside the workspace
//! root, or `$SCENEWALK_SCENES`), run with the feature `scenes`:
//! `cargo test -p scenewalk-nodes --features scenes --test scenes`. Each fails, naming
//! the folder, when the set is missing. The same glTF checks run on the samples kept
//! in the repository in `gltf_animated_samples.rs`.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod common;

use common::animated::{self, Animated};
use common::data::scenes;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_iterators::Walk;
use scenewalk_nodes::{MAX_LEAF_TRIANGLES, Ray, load_obj, ray_triangle};
use std::time::Instant;

/// The shared animated samples: (sample, animations, skinned primitives).
const ANIMATED: Animated = &[
    ("BoxAnimated", 1, 0),
    ("CesiumMilkTruck", 1, 0),
    ("Fox", 3, 1),
    ("CesiumMan", 1, 1),
    ("RiggedSimple", 1, 1),
    ("RiggedFigure", 1, 1),
    ("SimpleSkin", 1, 1),
];

#[test]
fn every_animated_sample_plays_with_finite_poses_and_logs_its_targets() {
    let folder = scenes().join("gltf");
    animated::every_animated_sample_plays_with_finite_poses_and_logs_its_targets(&folder, ANIMATED);
}

#[test]
fn skinned_sample_boxes_match_brute_force_at_random_times() {
    let folder = scenes().join("gltf");
    animated::skinned_sample_boxes_match_brute_force_at_random_times(&folder, ANIMATED);
}

/// These samples are bound in their rest pose: unanimated, each skinned box equals
/// the bind-pose mesh box placed by the mesh's node.
#[test]
fn skinned_samples_at_rest_sit_where_their_bind_pose_does() {
    let folder = scenes().join("gltf");
    animated::skinned_samples_at_rest_sit_where_their_bind_pose_does(&folder, ANIMATED);
}

/// Loads the shared meshes, checks the BVH invariants and prints counts and times
/// (for timings: `cargo test -p scenewalk-nodes --release --features scenes --test scenes -- --nocapture`).
/// Fails, naming the folder, when the meshes are missing.
#[test]
fn shared_meshes_load_with_valid_bvhs() {
    let dir = scenes().join("mesh");
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the shared meshes are missing: {} ({e})", dir.display()));
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .obj file in {}", dir.display());
    for path in paths {
        let start = Instant::now();
        let meshes = load_obj(&path).unwrap();
        let loaded = start.elapsed();
        for (name, mesh) in &meshes {
            // The best of three builds and of five passes over the rays: the machine
            // is shared, and the minimum is the least disturbed figure.
            let mut build = std::time::Duration::MAX;
            let mut rebuilt = mesh.clone();
            for _ in 0..3 {
                let start = Instant::now();
                rebuilt = scenewalk_nodes::Mesh::new(
                    mesh.positions().to_vec(),
                    mesh.triangles().to_vec(),
                )
                .unwrap();
                build = build.min(start.elapsed());
            }
            let bvh = rebuilt.bvh();
            let mut seen = vec![0u8; rebuilt.geometry().primitives() as usize];
            let mut depth_max = 0;
            for i in bvh.graph().preorder(bvh.root()).unwrap() {
                let own = bvh.boxes()[i.get()];
                for &t in bvh.subtree_triangles(i) {
                    let b = Aabb::from_points(rebuilt.triangle(t).unwrap());
                    assert!(own.min.cmple(b.min).all() && b.max.cmple(own.max).all());
                }
                if bvh.is_leaf(i) {
                    assert!(bvh.leaf_triangles(i).len() <= MAX_LEAF_TRIANGLES);
                    bvh.leaf_triangles(i)
                        .iter()
                        .for_each(|&t| seen[t as usize] += 1);
                    let mut d = 0;
                    let mut up = bvh.graph().parent_at(i);
                    while let Some(p) = up {
                        d += 1;
                        up = bvh.graph().parent_at(p);
                    }
                    depth_max = depth_max.max(d);
                }
            }
            assert!(seen.iter().all(|&n| n == 1));
            // Rays from around the mesh at its centre, against brute force.
            let b = rebuilt.geometry().local_bounds();
            let centre = b.center();
            let reach = b.size().length();
            let rays: Vec<Ray> = (0..1000)
                .map(|k| {
                    let a = k as f32 * 2.399_963;
                    let z = 1.0 - 2.0 * (k as f32 + 0.5) / 1000.0;
                    let r = (1.0 - z * z).sqrt();
                    let from = centre + Vec3::new(r * a.cos(), z, r * a.sin()) * reach;
                    Ray::new(from, centre - from).unwrap()
                })
                .collect();
            let mut per_ray = std::time::Duration::MAX;
            let mut hits = Vec::new();
            for _ in 0..5 {
                let start = Instant::now();
                hits = rays
                    .iter()
                    .map(|r| rebuilt.ray_hit(r, f32::INFINITY))
                    .collect();
                per_ray = per_ray.min(start.elapsed() / rays.len() as u32);
            }
            for (ray, hit) in rays.iter().zip(&hits).take(50) {
                let brute = (0..rebuilt.geometry().primitives())
                    .filter_map(|t| {
                        ray_triangle(ray, &rebuilt.triangle(t).unwrap()).map(|h| (h.0, t))
                    })
                    .min_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
                assert_eq!(hit.map(|h| (h.distance, h.triangle)), brute);
            }
            eprintln!(
                "{} {name}: {} triangles, {} BVH nodes, depth {depth_max}; load {loaded:?}, build {build:?}, ray_hit {per_ray:?} per ray ({} of {} hit)",
                path.file_name().unwrap().to_string_lossy(),
                rebuilt.geometry().primitives(),
                bvh.graph().len(),
                hits.iter().flatten().count(),
                rays.len(),
            );
        }
    }
}
