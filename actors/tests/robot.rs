//! Robot kinematics on a small robot written here, with every joint type, a mimic of a
//! mimic, a branch and a transmission's look-alike joint: link poses (graph pass and
//! model/data walk) against the test's own f64 forward kinematics, Jacobians against
//! finite differences, batches against single evaluations, and the errors.

#![cfg(feature = "urdf")]

mod robot_reference;

use robot_reference::{RefRobot, Rng, finite_jacobians, pose_error};
use scenewalk_actors::robot::{Jacobian, Kinematics, RobotError, RobotScene};
use scenewalk_core::glam::Affine3A;
use scenewalk_nodes::urdf::{ImportOptions, Robot, parse};
use std::sync::Arc;

const ROBOT: &str = r#"<?xml version="1.0"?>
<robot name="everything">
  <link name="world"/>
  <link name="base"><collision><geometry><box size="0.4 0.4 0.1"/></geometry></collision></link>
  <link name="slide"/>
  <link name="upper">
    <collision><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision>
    <collision><origin xyz="0 0 0.4"/><geometry><sphere radius="0.06"/></geometry></collision>
  </link>
  <link name="lower"/>
  <link name="wrist"/>
  <link name="tool"/>
  <link name="finger_a"/>
  <link name="finger_b"/>
  <link name="finger_c"/>
  <link name="sled"/>
  <link name="camera"/>
  <joint name="float" type="floating">
    <parent link="world"/><child link="base"/>
    <origin xyz="0.1 -0.2 0.3" rpy="0.1 0.2 0.3"/>
  </joint>
  <joint name="rail" type="prismatic">
    <parent link="base"/><child link="slide"/>
    <origin xyz="0 0 0.05" rpy="0 0.3 0"/>
    <axis xyz="1 1 0"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/>
  </joint>
  <joint name="shoulder" type="revolute">
    <parent link="slide"/><child link="upper"/>
    <origin xyz="0 0 0.1" rpy="1.5707963 0 0.4"/>
    <axis xyz="0 2 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/>
  </joint>
  <joint name="elbow" type="continuous">
    <parent link="upper"/><child link="lower"/>
    <origin xyz="0 0 0.4" rpy="-0.3 0.2 0.1"/>
    <axis xyz="0.3 -0.5 0.8"/>
  </joint>
  <joint name="wrist_joint" type="revolute">
    <parent link="lower"/><child link="wrist"/>
  </joint>
  <joint name="tool_mount" type="fixed">
    <parent link="wrist"/><child link="tool"/>
    <origin xyz="0 0.1 0.05" rpy="0 0 0.7"/>
    <axis xyz="0 0 0"/>
  </joint>
  <joint name="finger_a_joint" type="revolute">
    <parent link="tool"/><child link="finger_a"/>
    <origin xyz="0.02 0 0.05"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="finger_c_joint" type="prismatic">
    <parent link="tool"/><child link="finger_c"/>
    <origin xyz="-0.02 0 0.05"/>
    <axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="1"/>
    <mimic joint="finger_b_joint" multiplier="0.02" offset="0.01"/>
  </joint>
  <joint name="finger_b_joint" type="revolute">
    <parent link="tool"/><child link="finger_b"/>
    <origin xyz="-0.02 0 0.05" rpy="0 0 3.14159"/>
    <axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="finger_a_joint" multiplier="-1.5" offset="0.2"/>
  </joint>
  <joint name="plane" type="planar">
    <parent link="base"/><child link="sled"/>
    <origin xyz="0.2 0 0" rpy="0.5 0 0"/>
    <axis xyz="0.2 0.1 1"/>
  </joint>
  <joint name="camera_mount" type="fixed">
    <parent link="sled"/><child link="camera"/>
    <origin xyz="0 0 0.3"/>
  </joint>
  <transmission name="t">
    <joint name="shoulder"><hardwareInterface>x</hardwareInterface></joint>
  </transmission>
  <gazebo><joint name="ghost" type="revolute"><parent link="base"/><child link="world"/></joint></gazebo>
</robot>
"#;

#[allow(
    clippy::unwrap_used,
    reason = "a test helper: the test fails on a refused robot"
)]
fn robot() -> (Arc<Robot>, RefRobot) {
    let robot = parse(ROBOT, &ImportOptions::default()).unwrap();
    (Arc::new(robot), RefRobot::parse(ROBOT))
}

fn as_f32(q: &[f64]) -> Vec<f32> {
    q.iter().map(|&v| v as f32).collect()
}

#[test]
fn the_configuration_is_the_moving_non_mimic_joints_in_file_order() {
    let (robot, reference) = robot();
    assert_eq!(robot.dof(), 6 + 1 + 1 + 1 + 1 + 1 + 3);
    assert_eq!(robot.dof(), reference.dof);
    let names = robot.variable_names();
    assert_eq!(
        names[..7],
        [
            "float/x",
            "float/y",
            "float/z",
            "float/roll",
            "float/pitch",
            "float/yaw",
            "rail"
        ]
    );
    assert_eq!(
        names[7..],
        [
            "shoulder",
            "elbow",
            "wrist_joint",
            "finger_a_joint",
            "plane/u",
            "plane/v",
            "plane/angle"
        ]
    );
    assert_eq!(robot.variable("elbow"), Some(8));
    assert_eq!(robot.variable("finger_b_joint"), None); // a mimic
    assert_eq!(
        robot.joints().len(),
        11,
        "the transmission's and gazebo's joints are not joints"
    );
}

#[test]
fn link_poses_match_the_reference_at_random_configurations() {
    let (robot, reference) = robot();
    let model = Kinematics::new(Arc::clone(&robot)).unwrap();
    let mut data = model.data();
    let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
    let mut from_scene = vec![Affine3A::IDENTITY; robot.links().len()];
    let mut rng = Rng(7);
    for _ in 0..300 {
        let q = reference.random(&mut rng);
        let expected = reference.poses(&q);
        let q32 = as_f32(&q);
        // The reference sees the configuration the library sees.
        let expected_32 = reference.poses(&q32.iter().map(|&v| f64::from(v)).collect::<Vec<_>>());
        model.forward(&q32, &mut data).unwrap();
        scene.set_values(&q32).unwrap();
        scene.update().unwrap();
        scene.link_poses(&mut from_scene).unwrap();
        for (link, name) in robot.links().iter().enumerate() {
            let e = pose_error(&data.poses()[link], &expected_32[link]);
            assert!(e < 1e-5, "link {} differs by {e} at {q:?}", name.name);
            let e = pose_error(&from_scene[link], &expected_32[link]);
            assert!(e < 1e-5, "link {} (graph pass) differs by {e}", name.name);
            assert!(pose_error(&data.poses()[link], &expected[link]) < 1e-4);
            assert_eq!(scene.link_pose(link).unwrap(), from_scene[link]);
        }
    }
}

#[test]
fn a_changed_joint_rewalks_only_its_subtree() {
    let (robot, _) = robot();
    let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
    assert!(scene.update().unwrap().full);
    let mut q = vec![0.0; robot.dof()];
    // finger_a_joint moves finger_a, and through the mimics finger_b and finger_c:
    // three joint nodes with one link node each.
    q[robot.variable("finger_a_joint").unwrap()] = 0.5;
    assert_eq!(scene.set_values(&q).unwrap(), 3);
    let stats = scene.update().unwrap();
    assert!(!stats.full);
    assert_eq!((stats.subtrees, stats.entered), (3, 6));
    // Setting the same values again moves nothing.
    assert_eq!(scene.set_values(&q).unwrap(), 0);
    assert_eq!(scene.update().unwrap().entered, 0);
    // By name.
    scene.set_value("elbow", 1.0).unwrap();
    assert_eq!(scene.values()[robot.variable("elbow").unwrap()], 1.0);
    assert!(matches!(
        scene.set_value("nope", 1.0),
        Err(RobotError::UnknownVariable(_))
    ));
    assert!(matches!(
        scene.set_value("finger_b_joint", 1.0),
        Err(RobotError::UnknownVariable(_))
    ));
}

#[test]
fn jacobians_match_finite_differences() {
    let (robot, reference) = robot();
    let model = Kinematics::new(Arc::clone(&robot)).unwrap();
    let mut data = model.data();
    let mut jacobian = Jacobian::new(robot.dof());
    let mut rng = Rng(11);
    for _ in 0..50 {
        let q32 = as_f32(&reference.random(&mut rng));
        let q: Vec<f64> = q32.iter().map(|&v| f64::from(v)).collect();
        model.forward(&q32, &mut data).unwrap();
        let all = finite_jacobians(&reference, &q);
        for (link, expected) in all.iter().enumerate() {
            model.jacobian(&data, link, &mut jacobian).unwrap();
            for (col, (got, want)) in jacobian.columns().iter().zip(expected).enumerate() {
                for row in 0..6 {
                    let e = (f64::from(got[row]) - want[row]).abs();
                    assert!(
                        e < 1e-4,
                        "link {link} column {col} row {row}: {} vs {}",
                        got[row],
                        want[row]
                    );
                }
            }
        }
    }
}

#[test]
fn batches_equal_single_evaluations() {
    let (robot, reference) = robot();
    let model = Kinematics::new(Arc::clone(&robot)).unwrap();
    let (dof, links, n) = (robot.dof(), robot.links().len(), 1500);
    let mut rng = Rng(3);
    let values: Vec<f32> = (0..n)
        .flat_map(|_| as_f32(&reference.random(&mut rng)))
        .collect();
    let mut poses = vec![Affine3A::IDENTITY; n * links];
    model.forward_batch(&values, &mut poses).unwrap();
    let mut data = model.data();
    for i in 0..n {
        model
            .forward(&values[i * dof..(i + 1) * dof], &mut data)
            .unwrap();
        assert_eq!(&poses[i * links..(i + 1) * links], data.poses());
    }
    #[cfg(feature = "parallel")]
    {
        let mut parallel = vec![Affine3A::IDENTITY; n * links];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| model.forward_batch_parallel(&values, &mut parallel))
            .unwrap();
        assert_eq!(parallel, poses);
    }
}

#[test]
fn bad_configurations_are_refused() {
    let (robot, _) = robot();
    let model = Kinematics::new(Arc::clone(&robot)).unwrap();
    let mut data = model.data();
    let dof = robot.dof();
    let short = vec![0.0; dof - 1];
    let err = model.forward(&short, &mut data).unwrap_err();
    assert!(
        matches!(err, RobotError::WrongLength(w) if w.expected == dof && w.got == dof - 1),
        "{err}"
    );
    assert!(
        err.to_string().contains(&format!("{dof} variables")),
        "{err}"
    );
    let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
    assert!(matches!(
        scene.set_values(&short),
        Err(RobotError::WrongLength(_))
    ));
    assert!(matches!(
        scene.set_values(&vec![0.0; dof + 1]),
        Err(RobotError::WrongLength(_))
    ));

    let mut nan = vec![0.0; dof];
    nan[8] = f32::NAN;
    let err = model.forward(&nan, &mut data).unwrap_err();
    assert!(err.to_string().contains("`elbow`"), "{err}");
    assert!(matches!(
        scene.set_values(&nan),
        Err(RobotError::NotFinite { index: 8, .. })
    ));
    assert!(
        scene.values().iter().all(|v| *v == 0.0),
        "a refused configuration changes nothing"
    );

    let links = robot.links().len();
    let mut poses = vec![Affine3A::IDENTITY; 2 * links];
    let mut batch = vec![0.0; 2 * dof];
    assert!(model.forward_batch(&batch[1..], &mut poses).is_err());
    assert!(model.forward_batch(&batch, &mut poses[1..]).is_err());
    batch[dof + 3] = f32::INFINITY;
    assert!(
        matches!(model.forward_batch(&batch, &mut poses), Err(RobotError::NotFinite { index, .. }) if index == dof + 3)
    );

    let mut jacobian = Jacobian::new(dof + 1);
    assert!(model.jacobian(&data, 0, &mut jacobian).is_err());
    let mut jacobian = Jacobian::new(dof);
    assert!(matches!(
        model.jacobian(&data, links, &mut jacobian),
        Err(RobotError::NoLink(_))
    ));
    assert!(scene.link_pose(links).is_err());
    // Before any update, the scene has no results to read.
    assert!(scene.link_pose(0).is_err());
}

/// Single and batch evaluations and Jacobians allocate nothing; a scene's edits and
/// updates and reads allocate nothing once warm (the graph's change log has grown to
/// its window of 4096 entries).
#[test]
fn evaluations_do_not_allocate() {
    let (robot, reference) = robot();
    let model = Kinematics::new(Arc::clone(&robot)).unwrap();
    let mut data = model.data();
    let mut jacobian = Jacobian::new(robot.dof());
    let mut rng = Rng(5);
    let n = 100;
    let values: Vec<f32> = (0..n)
        .flat_map(|_| as_f32(&reference.random(&mut rng)))
        .collect();
    let mut poses = vec![Affine3A::IDENTITY; n * robot.links().len()];
    let dof = robot.dof();
    let info = allocation_counter::measure(|| {
        for q in values.chunks_exact(dof) {
            model.forward(q, &mut data).unwrap();
            model
                .jacobian(&data, robot.links().len() - 1, &mut jacobian)
                .unwrap();
        }
        model.forward_batch(&values, &mut poses).unwrap();
    });
    assert_eq!(info.count_total, 0);

    let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
    let mut out = vec![Affine3A::IDENTITY; robot.links().len()];
    for q in values.chunks_exact(dof).cycle().take(1000) {
        scene.set_values(q).unwrap();
        scene.update().unwrap();
        scene.link_poses(&mut out).unwrap();
    }
    for q in values.chunks_exact(dof).rev() {
        let edit = allocation_counter::measure(|| {
            scene.set_values(q).unwrap();
        });
        let update = allocation_counter::measure(|| {
            scene.update().unwrap();
        });
        let read = allocation_counter::measure(|| {
            scene.link_poses(&mut out).unwrap();
        });
        let counts = (edit.count_total, update.count_total, read.count_total);
        assert_eq!(counts, (0, 0, 0));
    }
}

/// A chain of 20 000 links: imported, built and posed without recursion.
#[test]
fn a_deep_chain_needs_no_recursion() {
    let n = 20_000;
    let mut text = String::from("<robot name=\"snake\">");
    for i in 0..=n {
        text.push_str(&format!("<link name=\"l{i}\"/>"));
    }
    for i in 0..n {
        text.push_str(&format!(
            "<joint name=\"j{i}\" type=\"revolute\"><parent link=\"l{i}\"/><child link=\"l{}\"/><origin xyz=\"1 0 0\"/><axis xyz=\"0 0 1\"/></joint>",
            i + 1
        ));
    }
    text.push_str("</robot>");
    let robot = Arc::new(parse(&text, &ImportOptions::default()).unwrap());
    assert_eq!(robot.dof(), n);
    let model = Kinematics::new(Arc::clone(&robot)).unwrap();
    let mut data = model.data();
    // A quarter turn at the first joint only: the chain points along y.
    let mut q = vec![0.0; n];
    q[0] = std::f32::consts::FRAC_PI_2;
    model.forward(&q, &mut data).unwrap();
    let tip = data.poses()[n].translation;
    // cos(π/2) in f32 is -4.4e-8, times 20 000 steps.
    assert!(
        (tip.x - 1.0).abs() < 1e-2 && (tip.y - (n - 1) as f32).abs() < 1e-1,
        "{tip}"
    );
    let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
    scene.update().unwrap();
    scene.set_values(&q).unwrap();
    let stats = scene.update().unwrap();
    assert_eq!(stats.entered as usize, 2 * n);
    assert_eq!(scene.link_pose(n).unwrap(), data.poses()[n]);
}

mod random_trees {
    use super::*;
    use proptest::prelude::*;

    /// One joint of a generated robot: parent link (an earlier one), type, origin,
    /// axis, and whether it mimics an earlier one-value joint.
    #[derive(Clone, Debug)]
    struct Gen {
        parent: usize,
        kind: usize,
        xyz: [f32; 3],
        rpy: [f32; 3],
        axis: [f32; 3],
        mimic: Option<(usize, f32, f32)>,
    }

    const KINDS: [&str; 6] = [
        "revolute",
        "continuous",
        "prismatic",
        "fixed",
        "floating",
        "planar",
    ];

    fn joint() -> impl Strategy<Value = Gen> {
        let coordinate = -1.0f32..1.0;
        (
            any::<prop::sample::Index>(),
            0..KINDS.len(),
            [coordinate.clone(), coordinate.clone(), coordinate.clone()],
            [-3.0f32..3.0, -1.5f32..1.5, -3.0f32..3.0],
            [coordinate.clone(), coordinate.clone(), coordinate],
            prop::option::weighted(
                0.3,
                (any::<prop::sample::Index>(), -2.0f32..2.0, -0.5f32..0.5),
            ),
        )
            .prop_map(|(parent, kind, xyz, rpy, axis, mimic)| Gen {
                parent: parent.index(usize::MAX),
                kind,
                xyz,
                rpy,
                // Never a zero axis on a moving joint.
                axis: [axis[0] + 1.5, axis[1], axis[2]],
                mimic: mimic.map(|(m, k, o)| (m.index(usize::MAX), k, o)),
            })
    }

    /// The URDF of a tree whose link i + 1 hangs from joint i.
    #[allow(
        clippy::indexing_slicing,
        reason = "a test helper; indices reduced modulo the lengths"
    )]
    fn urdf(joints: &[Gen]) -> String {
        let mut text = String::from("<robot name=\"random\"><link name=\"l0\"/>");
        let mut singles: Vec<usize> = Vec::new();
        for (i, g) in joints.iter().enumerate() {
            text.push_str(&format!("<link name=\"l{}\"/>", i + 1));
            let kind = KINDS[g.kind];
            let mimic = match g.mimic {
                Some((m, k, o))
                    if !singles.is_empty()
                        && matches!(kind, "revolute" | "continuous" | "prismatic") =>
                {
                    format!(
                        "<mimic joint=\"j{}\" multiplier=\"{k}\" offset=\"{o}\"/>",
                        singles[m % singles.len()]
                    )
                }
                _ => String::new(),
            };
            if matches!(kind, "revolute" | "continuous" | "prismatic") {
                singles.push(i);
            }
            let [x, y, z] = g.xyz;
            let [r, p, w] = g.rpy;
            let [a, b, c] = g.axis;
            text.push_str(&format!(
                "<joint name=\"j{i}\" type=\"{kind}\"><parent link=\"l{}\"/><child link=\"l{}\"/><origin xyz=\"{x} {y} {z}\" rpy=\"{r} {p} {w}\"/><axis xyz=\"{a} {b} {c}\"/>{mimic}</joint>",
                g.parent % (i + 1),
                i + 1
            ));
        }
        text.push_str("</robot>");
        text
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random trees of every joint type with mimics (of mimics): the model/data walk
        /// and the graph pass after random partial edits both pose every link as the
        /// reference does, and the Jacobians match finite differences.
        #[test]
        fn random_robots_pose_like_the_reference(
            joints in prop::collection::vec(joint(), 1..12),
            seed in any::<u64>(),
        ) {
            let text = urdf(&joints);
            let robot = Arc::new(parse(&text, &ImportOptions::default()).unwrap());
            let reference = RefRobot::parse(&text);
            prop_assert_eq!(robot.dof(), reference.dof);
            let model = Kinematics::new(Arc::clone(&robot)).unwrap();
            let mut data = model.data();
            let mut scene = RobotScene::new(Arc::clone(&robot)).unwrap();
            let mut from_scene = vec![Affine3A::IDENTITY; robot.links().len()];
            let mut jacobian = Jacobian::new(robot.dof());
            let mut rng = Rng(seed);
            let mut q32 = vec![0.0f32; robot.dof()];
            for round in 0..6 {
                // Change a random subset of the variables.
                let fresh = reference.random(&mut rng);
                for (v, f) in q32.iter_mut().zip(&fresh) {
                    if rng.unit() < 0.4 {
                        *v = *f as f32;
                    }
                }
                let q: Vec<f64> = q32.iter().map(|&v| f64::from(v)).collect();
                let expected = reference.poses(&q);
                model.forward(&q32, &mut data).unwrap();
                scene.set_values(&q32).unwrap();
                let stats = scene.update().unwrap();
                prop_assert!(round == 0 || !stats.full);
                scene.link_poses(&mut from_scene).unwrap();
                for (link, want) in expected.iter().enumerate() {
                    let e = pose_error(&data.poses()[link], want);
                    prop_assert!(e < 1e-5, "link {} off by {}\n{}", link, e, text);
                    prop_assert!(pose_error(&from_scene[link], want) < 1e-5);
                }
                for (link, want) in finite_jacobians(&reference, &q).iter().enumerate() {
                    model.jacobian(&data, link, &mut jacobian).unwrap();
                    for (got, want) in jacobian.columns().iter().zip(want) {
                        for row in 0..6 {
                            prop_assert!((f64::from(got[row]) - want[row]).abs() < 1e-4,
                                "link {} row {}: {} vs {}\n{}", link, row, got[row], want[row], text);
                        }
                    }
                }
            }
        }
    }
}

/// The model is shared between threads; each thread keeps its own workspace.
#[test]
fn the_model_is_shared_and_the_workspace_is_per_thread() {
    fn shared<T: Send + Sync>() {}
    fn sent<T: Send>() {}
    shared::<Kinematics>();
    shared::<Robot>();
    sent::<scenewalk_actors::robot::KinematicsData>();
    sent::<RobotScene>();
    let (robot, reference) = robot();
    let model = Kinematics::new(robot).unwrap();
    let mut rng = Rng(9);
    let q = as_f32(&reference.random(&mut rng));
    let poses: Vec<Vec<Affine3A>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut data = model.data();
                    model.forward(&q, &mut data).unwrap();
                    data.poses().to_vec()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert_eq!(poses[0], poses[1]);
}
