//! Self-collision against a brute-force check of every triangle pair, on a small robot
//! written here (boxes, cylinders, spheres and an STL mesh the test writes), at many
//! random configurations; adjacency and SRDF exclusions recomputed here.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "urdf")]

mod self_collision_common;

use scenewalk_actors::{LinkPair, SelfCollision, SelfCollisionError};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_nodes::urdf::{ImportOptions, Srdf, Tessellation, import, parse};
use self_collision_common::{Rng, brute_force, checked_pairs, link_poses, random_configuration};

/// A binary STL of a tetrahedron (4 triangles), its corners in `0..1`.
fn tetrahedron_stl() -> Vec<u8> {
    let p = [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mut bytes = vec![0u8; 80];
    bytes.extend(4u32.to_le_bytes());
    for f in faces {
        bytes.extend([0u8; 12]); // the normal, unused
        for v in f {
            for c in p[v] {
                bytes.extend(c.to_le_bytes());
            }
        }
        bytes.extend([0u8; 2]);
    }
    bytes
}

/// A planar arm of five links folding about z, so that its far links reach back
/// onto its near ones; `l2` has no geometry (so `l3`'s nearest geometric ancestor
/// is `l1`), `l1` has two elements, `l4` is a scaled STL mesh.
const ARM: &str = r#"<robot name="folding_arm">
  <link name="base"><collision><geometry><box size="0.4 0.4 0.1"/></geometry></collision></link>
  <link name="l1">
    <collision><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.08 0.08"/></geometry></collision>
    <collision><origin xyz="0.5 0 0"/><geometry><sphere radius="0.06"/></geometry></collision>
  </link>
  <link name="l2"/>
  <link name="l3">
    <collision><origin xyz="0.2 0 0" rpy="0 1.5707963 0"/><geometry><cylinder radius="0.04" length="0.4"/></geometry></collision>
  </link>
  <link name="l4">
    <collision><origin xyz="0 -0.05 -0.05"/><geometry><mesh filename="tetra.stl" scale="0.3 0.1 0.1"/></geometry></collision>
  </link>
  <link name="l5">
    <collision><origin xyz="0.15 0 0"/><geometry><box size="0.3 0.05 0.05"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 0 1"/><limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <joint name="j3" type="fixed"><parent link="l2"/><child link="l3"/><origin xyz="0 0 0.01"/></joint>
  <joint name="j4" type="revolute"><parent link="l3"/><child link="l4"/>
    <origin xyz="0.4 0 0"/><axis xyz="0 0 1"/><limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <joint name="j5" type="continuous"><parent link="l4"/><child link="l5"/>
    <origin xyz="0.3 0 0"/><axis xyz="0 0.3 1"/></joint>
</robot>"#;

/// The arm written to a fresh folder with its mesh; returns the URDF's path.
fn write_arm(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "scenewalk-self-collision-{tag}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tetra.stl"), tetrahedron_stl()).unwrap();
    let urdf = dir.join("arm.urdf");
    std::fs::write(&urdf, ARM).unwrap();
    urdf
}

#[test]
fn agrees_with_brute_force_on_a_folding_arm() {
    let robot = import(write_arm("brute"), &ImportOptions::default()).unwrap();
    let srdf = Srdf::parse(
        r#"<robot name="folding_arm"><disable_collisions link1="l5" link2="base" reason="Never"/></robot>"#,
    )
    .unwrap();
    for srdf in [None, Some(&srdf)] {
        let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
        let model = SelfCollision::new(&robot, meshes.clone(), srdf).unwrap();
        let pairs = checked_pairs(&robot, &meshes, srdf);
        assert_eq!(model.pairs(), pairs, "the pairs checked");
        // base-l1, l1-l3 (l2 has none), l3-l4, l4-l5 are adjacent: 10 - 4 pairs left.
        assert_eq!(pairs.len(), if srdf.is_some() { 5 } else { 6 });
        let mut workspace = model.workspace();
        let mut rng = Rng(7);
        let (mut colliding, mut free) = (0, 0);
        for _ in 0..300 {
            let q = random_configuration(&robot, &mut rng);
            let poses = link_poses(&robot, &q);
            let expected = brute_force(&meshes, &poses, &pairs);
            let found = model.check(&poses, &mut workspace).unwrap().to_vec();
            assert_eq!(found, expected, "at q = {q:?}");
            assert_eq!(
                model.collides(&poses, &mut workspace).unwrap(),
                !expected.is_empty()
            );
            if expected.is_empty() {
                free += 1;
            } else {
                colliding += 1;
            }
        }
        // The sample exercises both answers.
        assert!(
            colliding > 20 && free > 20,
            "{colliding} colliding, {free} free"
        );
    }
}

#[test]
fn names_the_colliding_links_of_a_folded_pose() {
    let robot = import(write_arm("folded"), &ImportOptions::default()).unwrap();
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    let model = SelfCollision::new(&robot, meshes, None).unwrap();
    let mut workspace = model.workspace();
    // Straight out: nothing touches.
    let poses = link_poses(&robot, &[0.0; 4]);
    assert!(model.check(&poses, &mut workspace).unwrap().is_empty());
    // l3 folded back over l1 (j2 = π): the cylinder lies along l1's box.
    let poses = link_poses(&robot, &[0.0, 3.1, 0.0, 0.0]);
    let found = model.check(&poses, &mut workspace).unwrap().to_vec();
    let names: Vec<(&str, &str)> = (found.iter())
        .map(|p| (model.link_name(p.a), model.link_name(p.b)))
        .collect();
    assert!(
        names.contains(&("base", "l3")) || names.contains(&("l1", "l4")),
        "{names:?}"
    );
}

#[test]
fn a_query_allocates_nothing_once_warm() {
    let robot = import(write_arm("alloc"), &ImportOptions::default()).unwrap();
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    let model = SelfCollision::new(&robot, meshes, None).unwrap();
    let mut workspace = model.workspace();
    let mut rng = Rng(11);
    let configurations: Vec<Vec<Affine3A>> = (0..50)
        .map(|_| link_poses(&robot, &random_configuration(&robot, &mut rng)))
        .collect();
    for poses in &configurations {
        model.check(poses, &mut workspace).unwrap();
    }
    let counted = allocation_counter::measure(|| {
        for poses in &configurations {
            model.check(poses, &mut workspace).unwrap();
        }
    });
    assert_eq!(counted.count_total, 0);
}

#[test]
fn refuses_bad_input() {
    let robot = import(write_arm("bad"), &ImportOptions::default()).unwrap();
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    let unknown =
        Srdf::parse(r#"<robot name="x"><disable_collisions link1="l1" link2="gripper"/></robot>"#)
            .unwrap();
    let e = SelfCollision::new(&robot, meshes.clone(), Some(&unknown)).unwrap_err();
    assert!(matches!(&e, SelfCollisionError::UnknownSrdfLink { name, .. } if name == "gripper"));
    assert!(e.to_string().contains("gripper"), "{e}");

    let mut stray = meshes.clone();
    stray[0].link = 99;
    let e = SelfCollision::new(&robot, stray, None).unwrap_err();
    assert!(matches!(e, SelfCollisionError::NoSuchLink { link: 99, .. }));

    let model = SelfCollision::new(&robot, meshes, None).unwrap();
    let mut workspace = model.workspace();
    let e = model
        .check(&[Affine3A::IDENTITY; 3], &mut workspace)
        .unwrap_err();
    assert_eq!(
        e,
        SelfCollisionError::WrongPoseCount {
            expected: 6,
            got: 3
        }
    );
    let mut poses = link_poses(&robot, &[0.0; 4]);
    poses[3] = Affine3A::from_translation(Vec3::NAN);
    let e = model.check(&poses, &mut workspace).unwrap_err();
    assert_eq!(e.to_string(), "the pose of link \"l3\" is not finite");
    // A NaN pose of a link without geometry is harmless.
    let mut poses = link_poses(&robot, &[0.0; 4]);
    poses[2] = Affine3A::from_translation(Vec3::NAN);
    assert!(model.check(&poses, &mut workspace).is_ok());
}

#[test]
fn a_robot_without_geometry_checks_nothing() {
    let robot = parse(
        r#"<robot name="bare"><link name="a"/><link name="b"/>
        <joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint></robot>"#,
        &ImportOptions::default(),
    )
    .unwrap();
    let model = SelfCollision::new(&robot, Vec::new(), None).unwrap();
    assert!(model.pairs().is_empty());
    let poses = link_poses(&robot, &[0.5]);
    assert!(
        model
            .check(&poses, &mut model.workspace())
            .unwrap()
            .is_empty()
    );
    assert_eq!(LinkPair::new(3, 1), LinkPair { a: 1, b: 3 });
}
