//! Every robot of the shared real-data set (`../shared/scenes/urdf`, or
//! `$SCENEWALK_SCENES/urdf`) imports, and at many random configurations its link
//! poses (model/data walk and the graph's incremental update pass) agree with the
//! test's own f64 forward kinematics to 1e-5, mimic joints included, and every link's
//! Jacobian agrees with central differences of those poses. Runs with the `scenes`
//! feature; fails, naming the path, when the set is missing.

mod robot_reference;

use robot_reference::{RefRobot, Rng, finite_jacobians, pose_error};
use scenewalk_actors::robot::{Jacobian, Kinematics, RobotScene};
use scenewalk_core::glam::Affine3A;
use scenewalk_nodes::urdf::{ImportOptions, Shape, import};
use std::sync::Arc;

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "../../nodes/tests/common/data.rs"]
mod data;
use data::scenes;

/// (file under `urdf/example-robot-data/robots/`, links, dof, mimic joints, collisions)
const ROBOTS: [(&str, usize, usize, usize, usize); 8] = [
    ("panda_description/urdf/panda.urdf", 13, 8, 1, 17),
    ("ur_description/urdf/ur5_robot.urdf", 11, 6, 0, 8),
    ("pr2_description/urdf/pr2.urdf", 82, 20, 10, 32),
    ("g1_description/urdf/g1_29dof_rev_1_0.urdf", 39, 29, 0, 36),
    (
        "double_pendulum_description/urdf/double_pendulum_continuous.urdf",
        3,
        2,
        0,
        3,
    ),
    ("xarm_description/urdf/xarm7.urdf", 10, 7, 0, 8),
    (
        "allegro_hand_description/urdf/allegro_right_hand.urdf",
        21,
        16,
        0,
        21,
    ),
    ("human_description/robots/human.urdf", 37, 36, 0, 0),
];

#[test]
fn every_robot_poses_like_the_reference_and_its_jacobians_like_finite_differences() {
    let root = scenes().join("urdf");
    let options = ImportOptions {
        package_roots: vec![root.clone()],
    };
    for (file, links, dof, mimics, collisions) in ROBOTS {
        let path = root.join("example-robot-data/robots").join(file);
        let robot = Arc::new(import(&path, &options).unwrap_or_else(|e| panic!("{file}: {e}")));
        let reference = RefRobot::parse(&std::fs::read_to_string(&path).unwrap());
        assert_eq!(robot.links().len(), links, "{file}");
        assert_eq!((robot.dof(), reference.dof), (dof, dof), "{file}");
        let mimic_count = robot.joints().iter().filter(|j| j.mimic.is_some()).count();
        assert_eq!(mimic_count, mimics, "{file}");
        assert_eq!(robot.collisions().len(), collisions, "{file}");
        for c in robot.collisions() {
            if let Shape::Mesh { path, .. } = &c.geometry {
                assert!(path.is_file(), "{file}: {}", path.display());
            }
        }
        let names: Vec<&str> = robot.links().iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, reference.links, "{file}");

        let model = Kinematics::new(Arc::clone(&robot)).unwrap();
        let mut data = model.data();
        let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
        let mut from_scene = vec![Affine3A::IDENTITY; links];
        let mut jacobian = Jacobian::new(dof);
        let mut rng = Rng(file.len() as u64);
        for round in 0..200 {
            let q32: Vec<f32> = reference
                .random(&mut rng)
                .iter()
                .map(|&v| v as f32)
                .collect();
            let q: Vec<f64> = q32.iter().map(|&v| f64::from(v)).collect();
            let expected = reference.poses(&q);
            model.forward(&q32, &mut data).unwrap();
            scene.set_values(&q32).unwrap();
            scene.update().unwrap();
            scene.link_poses(&mut from_scene).unwrap();
            for link in 0..links {
                let e = pose_error(&data.poses()[link], &expected[link]);
                assert!(e < 1e-5, "{file}: link {} off by {e}", names[link]);
                let e = pose_error(&from_scene[link], &expected[link]);
                assert!(
                    e < 1e-5,
                    "{file}: link {} (graph pass) off by {e}",
                    names[link]
                );
            }
            if round % 10 == 0 {
                for (link, want) in finite_jacobians(&reference, &q).iter().enumerate() {
                    model.jacobian(&data, link, &mut jacobian).unwrap();
                    for (col, (got, want)) in jacobian.columns().iter().zip(want).enumerate() {
                        for row in 0..6 {
                            let e = (f64::from(got[row]) - want[row]).abs();
                            assert!(
                                e < 1e-4,
                                "{file}: link {} column {col} row {row}: {} vs {}",
                                names[link],
                                got[row],
                                want[row]
                            );
                        }
                    }
                }
            }
        }
    }
}
