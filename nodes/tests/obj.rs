//! OBJ loading: small files written by the tests, and the real meshes in
//! `shared/scenes/mesh/` beside the workspace root.

#![cfg(feature = "obj")]

use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_iterators::Walk;
use scenewalk_nodes::{MAX_LEAF_TRIANGLES, ObjError, Ray, load_obj, load_obj_from, ray_triangle};
use std::path::Path;
use std::time::Instant;

const TWO_OBJECTS: &str = "\
# a quad and a triangle
o quad
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
f 1 2 3 4
o tri
v 0 0 1
v 1 0 1
v 0 1 1
f 5 6 7
";

#[test]
fn quads_are_triangulated_and_objects_kept_apart() {
    let meshes = load_obj_from(&mut TWO_OBJECTS.as_bytes()).unwrap();
    let names: Vec<&str> = meshes.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["quad", "tri"]);
    let (quad, tri) = (&meshes[0].1, &meshes[1].1);
    assert_eq!(quad.geometry().primitives(), 2);
    assert_eq!(tri.geometry().primitives(), 1);
    assert_eq!(
        *quad.geometry().local_bounds(),
        Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0))
    );
    assert_eq!(
        *tri.geometry().local_bounds(),
        Aabb::new(Vec3::Z, Vec3::new(1.0, 1.0, 1.0))
    );
    // The two triangles cover the quad: both diagonal halves are hit.
    for (x, y) in [(0.8, 0.2), (0.2, 0.8)] {
        let ray = Ray::new(Vec3::new(x, y, -1.0), Vec3::Z).unwrap();
        assert_eq!(quad.ray_hit(&ray, f32::INFINITY).unwrap().distance, 1.0);
    }
}

#[test]
fn a_file_on_disk_loads_and_a_missing_one_is_named() {
    let dir = std::env::temp_dir().join(format!("scenewalk-obj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("two.obj");
    std::fs::write(&path, TWO_OBJECTS).unwrap();
    assert_eq!(load_obj(&path).unwrap().len(), 2);
    let missing = dir.join("missing.obj");
    let err = load_obj(&missing).unwrap_err();
    assert!(matches!(err, ObjError::Open { .. }), "{err:?}");
    assert!(err.to_string().contains("missing.obj"), "{err}");
    // A folder, a device: refused by type, never read.
    assert!(matches!(load_obj(&dir), Err(ObjError::Open { .. })));
    #[cfg(unix)]
    assert!(matches!(
        load_obj(std::path::Path::new("/dev/zero")),
        Err(ObjError::Open { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_index_and_bad_numbers_are_errors() {
    let bad_index = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n";
    let err = load_obj_from(&mut bad_index.as_bytes()).unwrap_err();
    assert!(
        matches!(err, ObjError::Parse { .. } | ObjError::Mesh { .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("<memory>"));
    let bad_number = "v 0 zero 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    assert!(load_obj_from(&mut bad_number.as_bytes()).is_err());
    let infinite = "v 0 1e99 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    assert!(matches!(
        load_obj_from(&mut infinite.as_bytes()),
        Err(ObjError::Mesh { .. } | ObjError::Parse { .. })
    ));
}

/// Loads the shared meshes, checks the BVH invariants and prints counts and times
/// (for timings: `cargo test -p scenewalk-nodes --release --test obj -- --nocapture`).
/// Fails, naming the folder, when the meshes are missing.
#[test]
fn shared_meshes_load_with_valid_bvhs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes/mesh");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "the shared meshes are missing: cannot read {} ({e}); they belong in \
             shared/scenes/mesh beside the workspace root",
            dir.display()
        )
    });
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
