//! Self-collision of Panda and UR5 (the shared real-data set, with their SRDFs and STL
//! collision meshes) against a brute-force check of every triangle pair, at many
//! random configurations. Needs `../shared/scenes` (or `SCENEWALK_SCENES`).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod self_collision_common;

use scenewalk_actors::SelfCollision;
use scenewalk_nodes::urdf::{ImportOptions, Srdf, Tessellation, import};
use self_collision_common::{Rng, brute_force, checked_pairs, link_poses, random_configuration};

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "../../nodes/tests/common/data.rs"]
mod data;
use data::scenes;

fn check_robot(urdf: &str, srdf: &str, configurations: usize, seed: u64) {
    let root = scenes().join("urdf");
    let robots = root.join("example-robot-data/robots");
    let options = ImportOptions {
        package_roots: vec![root.clone()],
    };
    let robot = import(robots.join(urdf), &options).unwrap();
    let srdf = Srdf::import(&robots.join(srdf)).unwrap();
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    let model = SelfCollision::new(&robot, meshes.clone(), Some(&srdf)).unwrap();
    let pairs = checked_pairs(&robot, &meshes, Some(&srdf));
    assert_eq!(model.pairs(), pairs);
    assert!(!pairs.is_empty());
    let mut workspace = model.workspace();
    let mut rng = Rng(seed);
    let mut colliding = 0;
    for _ in 0..configurations {
        let q = random_configuration(&robot, &mut rng);
        let poses = link_poses(&robot, &q);
        let expected = brute_force(&meshes, &poses, &pairs);
        let found = model.check(&poses, &mut workspace).unwrap();
        assert_eq!(found, expected, "{urdf} at q = {q:?}");
        colliding += usize::from(!expected.is_empty());
    }
    println!("{urdf}: {colliding} of {configurations} configurations self-collide");
}

#[test]
fn panda_agrees_with_brute_force() {
    check_robot(
        "panda_description/urdf/panda.urdf",
        "panda_description/srdf/panda.srdf",
        200,
        1,
    );
}

#[test]
fn ur5_agrees_with_brute_force() {
    check_robot(
        "ur_description/urdf/ur5_robot.urdf",
        "ur_description/srdf/ur5.srdf",
        100,
        2,
    );
}

#[test]
fn every_shared_robot_has_its_collision_meshes() {
    let root = scenes().join("urdf");
    let robots = root.join("example-robot-data/robots");
    let options = ImportOptions {
        package_roots: vec![root.clone()],
    };
    let files = [
        ("panda_description/urdf/panda.urdf", 17),
        ("ur_description/urdf/ur5_robot.urdf", 8),
        ("pr2_description/urdf/pr2.urdf", 32),
        ("g1_description/urdf/g1_29dof_rev_1_0.urdf", 36),
        (
            "double_pendulum_description/urdf/double_pendulum_continuous.urdf",
            3,
        ),
        ("xarm_description/urdf/xarm7.urdf", 8),
        ("allegro_hand_description/urdf/allegro_right_hand.urdf", 21),
        ("human_description/robots/human.urdf", 0),
    ];
    for (file, elements) in files {
        let robot = import(robots.join(file), &options).unwrap();
        let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
        assert_eq!(meshes.len(), elements, "{file}");
        assert!(
            meshes.iter().all(|m| !m.mesh.triangles().is_empty()),
            "{file}"
        );
        // Some robots' links have no geometry; the model must still build, with the
        // robot's SRDF where it has one (every link it names exists).
        let srdf = file.replace("/urdf/", "/srdf/").replace(".urdf", ".srdf");
        let srdf = srdf.replace("ur5_robot.srdf", "ur5.srdf");
        let srdf = Srdf::import(&robots.join(srdf)).ok();
        SelfCollision::new(&robot, meshes, srdf.as_ref()).unwrap();
    }
}
