//! URDF collision geometry as triangle meshes: primitives tessellated, mesh files in
//! STL (binary and ASCII), COLLADA and OBJ (written here) read with scale and origin,
//! each file once; unreadable files named with their link.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "urdf")]

use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_nodes::urdf::{CollisionMeshError, ImportOptions, Tessellation, import, parse};
use std::path::PathBuf;

/// A fresh folder for one test's files.
fn folder(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "scenewalk-collision-mesh-{tag}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The unit right-angled tetrahedron: corners 0, x, y, z.
const CORNERS: [[f32; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];
const FACES: [[usize; 3]; 4] = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];

fn binary_stl() -> Vec<u8> {
    let mut bytes = vec![0u8; 80];
    bytes.extend(4u32.to_le_bytes());
    for f in FACES {
        bytes.extend([0u8; 12]);
        for v in f {
            bytes.extend(CORNERS[v].iter().flat_map(|c| c.to_le_bytes()));
        }
        bytes.extend([0u8; 2]);
    }
    bytes
}

fn ascii_stl() -> String {
    let mut text = String::from("solid tetra\n");
    for f in FACES {
        text.push_str("  facet normal 0 0 0\n    outer loop\n");
        for v in f {
            let [x, y, z] = CORNERS[v];
            text.push_str(&format!("      vertex {x} {y} {z}\n"));
        }
        text.push_str("    endloop\n  endfacet\n");
    }
    text.push_str("endsolid tetra\n");
    text
}

fn obj() -> String {
    let mut text = String::from("o tetra\nmtllib missing.mtl\n");
    for [x, y, z] in CORNERS {
        text.push_str(&format!("v {x} {y} {z}\n"));
    }
    for [a, b, c] in FACES {
        text.push_str(&format!("f {} {} {}\n", a + 1, b + 1, c + 1));
    }
    text
}

fn collada() -> String {
    let positions: Vec<String> = CORNERS.iter().flatten().map(|c| c.to_string()).collect();
    let indices: Vec<String> = FACES.iter().flatten().map(|i| i.to_string()).collect();
    format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tetra" name="tetra">
      <mesh>
        <source id="tetra-positions">
          <float_array id="tetra-positions-array" count="12">{}</float_array>
          <technique_common>
            <accessor source="#tetra-positions-array" count="4" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="tetra-vertices"><input semantic="POSITION" source="#tetra-positions"/></vertices>
        <triangles count="4">
          <input semantic="VERTEX" source="#tetra-vertices" offset="0"/>
          <p>{}</p>
        </triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene" name="scene">
      <node id="node" name="node"><instance_geometry url="#tetra"/></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
"##,
        positions.join(" "),
        indices.join(" ")
    )
}

/// A robot whose four links each hold the tetrahedron from one file format, the first
/// two links the same STL file, scaled and placed differently.
fn robot_of_files(dir: &std::path::Path) -> String {
    std::fs::write(dir.join("tetra.stl"), binary_stl()).unwrap();
    std::fs::write(dir.join("tetra_ascii.stl"), ascii_stl()).unwrap();
    std::fs::write(dir.join("tetra.obj"), obj()).unwrap();
    std::fs::write(dir.join("tetra.dae"), collada()).unwrap();
    let link = |name: &str, file: &str, scale: &str, xyz: &str| {
        format!(
            r#"<link name="{name}"><collision><origin xyz="{xyz}" rpy="0 0 1.5707963267948966"/>
            <geometry><mesh filename="{file}" scale="{scale}"/></geometry></collision></link>"#
        )
    };
    let joint = |name: &str, child: &str| {
        format!(
            r#"<joint name="{name}" type="fixed"><parent link="a"/><child link="{child}"/></joint>"#
        )
    };
    format!(
        r#"<robot name="files">{}{}{}{}{}{}{}{}</robot>"#,
        link("a", "tetra.stl", "1 1 1", "0 0 0"),
        link("b", "tetra.stl", "2 3 4", "1 0 0"),
        link("c", "tetra_ascii.stl", "1 1 1", "0 0 0"),
        link("d", "tetra.obj", "1 1 1", "0 0 0"),
        link("e", "tetra.dae", "1 1 1", "0 0 0"),
        joint("ab", "b"),
        joint("ac", "c"),
        joint("ad", "d") + &joint("ae", "e"),
    )
}

/// The link-frame box of a placed mesh, from its placed corners.
fn placed_bounds(m: &scenewalk_nodes::urdf::CollisionMesh) -> Aabb {
    Aabb::from_points(
        m.mesh
            .positions()
            .iter()
            .map(|&p| m.placement.transform_point3(p)),
    )
}

fn close(a: Aabb, b: Aabb) -> bool {
    (a.min - b.min).abs().max_element() < 1e-5 && (a.max - b.max).abs().max_element() < 1e-5
}

#[test]
fn reads_stl_binary_and_ascii_collada_and_obj_with_scale_and_origin() {
    let dir = folder("files");
    let path = dir.join("files.urdf");
    std::fs::write(&path, robot_of_files(&dir)).unwrap();
    let robot = import(&path, &ImportOptions::default()).unwrap();
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    assert_eq!(meshes.len(), 5);
    // Each file gives the tetrahedron's four triangles over its four corners.
    for m in &meshes {
        assert_eq!(m.mesh.triangles().len(), 4, "link {}", m.link);
        let corners = Aabb::from_points(m.mesh.positions().iter().copied());
        assert_eq!(corners, Aabb::new(Vec3::ZERO, Vec3::ONE), "link {}", m.link);
    }
    // The same file twice is read once: one mesh shared.
    assert!(meshes[0].mesh.shares_data(&meshes[1].mesh));
    assert!(!meshes[0].mesh.shares_data(&meshes[2].mesh));
    // Scale first, then the origin (a quarter turn about z, then the offset).
    let quarter = Affine3A::from_rotation_z(std::f32::consts::FRAC_PI_2);
    assert!(close(
        placed_bounds(&meshes[0]),
        Aabb::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 1.0))
    ));
    let b = Affine3A::from_translation(Vec3::X)
        * quarter
        * Affine3A::from_scale(Vec3::new(2.0, 3.0, 4.0));
    assert!(meshes[1].placement.abs_diff_eq(b, 1e-6));
    assert!(close(
        placed_bounds(&meshes[1]),
        Aabb::new(Vec3::new(-2.0, 0.0, 0.0), Vec3::new(1.0, 2.0, 4.0))
    ));
}

#[test]
fn tessellates_boxes_cylinders_and_spheres() {
    let robot = parse(
        r#"<robot name="shapes"><link name="a">
          <collision><geometry><box size="1 2 3"/></geometry></collision>
          <collision><geometry><cylinder radius="0.5" length="2"/></geometry></collision>
          <collision><origin xyz="0 0 5"/><geometry><sphere radius="0.25"/></geometry></collision>
        </link></robot>"#,
        &ImportOptions::default(),
    )
    .unwrap();
    let coarse = Tessellation {
        segments: 8,
        rings: 4,
    };
    let meshes = robot.collision_meshes(&coarse).unwrap();
    let counts: Vec<usize> = meshes.iter().map(|m| m.mesh.triangles().len()).collect();
    assert_eq!(counts, [12, 4 * 8, 2 * 8 * 3]);
    let bounds: Vec<Aabb> = meshes.iter().map(placed_bounds).collect();
    assert!(close(
        bounds[0],
        Aabb::new(Vec3::new(-0.5, -1.0, -1.5), Vec3::new(0.5, 1.0, 1.5))
    ));
    // The cylinder: along z, centred, its corners on the radius.
    assert!(close(
        bounds[1],
        Aabb::new(Vec3::new(-0.5, -0.5, -1.0), Vec3::new(0.5, 0.5, 1.0))
    ));
    for p in meshes[1].mesh.positions() {
        let r = p.truncate().length();
        assert!(r < 1e-6 || (r - 0.5).abs() < 1e-6, "{p}");
    }
    // The sphere: every vertex on the radius, around z = 5.
    for p in meshes[2].mesh.positions() {
        let world = meshes[2].placement.transform_point3(*p);
        assert!(((world - Vec3::Z * 5.0).length() - 0.25).abs() < 1e-6);
    }
    // The default tessellation.
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    let counts: Vec<usize> = meshes.iter().map(|m| m.mesh.triangles().len()).collect();
    assert_eq!(counts, [12, 128, 2 * 32 * 15]);
}

#[test]
fn an_unreadable_mesh_names_the_file_and_the_link() {
    let dir = folder("bad");
    std::fs::write(dir.join("junk.stl"), b"not an stl at all").unwrap();
    std::fs::write(dir.join("empty.obj"), b"# nothing\n").unwrap();
    let robot_with = |file: &str| {
        let path = dir.join("bad.urdf");
        std::fs::write(
            &path,
            format!(
                r#"<robot name="bad"><link name="base"/><link name="gripper">
                <collision><geometry><mesh filename="{file}"/></geometry></collision></link>
                <joint name="j" type="fixed"><parent link="base"/><child link="gripper"/></joint></robot>"#
            ),
        )
        .unwrap();
        import(&path, &ImportOptions::default()).unwrap()
    };
    let e = (robot_with("junk.stl").collision_meshes(&Tessellation::default())).unwrap_err();
    assert!(
        matches!(&e, CollisionMeshError::Read { link, file, .. }
        if link == "gripper" && file.ends_with("junk.stl")),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.contains("gripper") && message.contains("junk.stl"),
        "{message}"
    );

    let e = (robot_with("empty.obj").collision_meshes(&Tessellation::default())).unwrap_err();
    assert!(
        matches!(&e, CollisionMeshError::Empty { link, .. } if link == "gripper"),
        "{e:?}"
    );
    // OBJ is read by the crate's OBJ reader, whose reasons the error passes on.
    std::fs::write(dir.join("binary.obj"), b"v 0 0 0\n\xff\xfe\n").unwrap();
    let e = (robot_with("binary.obj").collision_meshes(&Tessellation::default())).unwrap_err();
    assert!(
        matches!(&e, CollisionMeshError::Read { link, file, reason }
        if link == "gripper" && file.ends_with("binary.obj") && reason.starts_with("not OBJ text")),
        "{e:?}"
    );

    // A file removed after the import.
    std::fs::write(dir.join("gone.stl"), binary_stl()).unwrap();
    let robot = robot_with("gone.stl");
    std::fs::remove_file(dir.join("gone.stl")).unwrap();
    let e = robot
        .collision_meshes(&Tessellation::default())
        .unwrap_err();
    assert!(
        matches!(&e, CollisionMeshError::Read { link, file, .. }
        if link == "gripper" && file.ends_with("gone.stl")),
        "{e:?}"
    );
}

#[test]
fn a_negative_size_is_refused() {
    let robot = parse(
        r#"<robot name="neg"><link name="a"><collision><geometry><sphere radius="-1"/></geometry></collision></link></robot>"#,
        &ImportOptions::default(),
    );
    // The importer may refuse it first; if it does not, the tessellation must.
    if let Ok(robot) = robot {
        let e = robot
            .collision_meshes(&Tessellation::default())
            .unwrap_err();
        assert!(e.to_string().contains("sphere"), "{e}");
    }
}
