//! OBJ loading: small files written by the tests. The real meshes of the shared
//! data set are checked in `scenes.rs` (feature `scenes`).

#![cfg(feature = "obj")]

use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_nodes::{ObjError, Ray, load_obj, load_obj_from};

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
