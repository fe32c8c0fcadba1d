//! The `robot` example on Panda from the shared real-data set (`../shared/scenes`, or
//! `SCENEWALK_SCENES`): the report, a sweep with its SRDF, and the JSON's colliding
//! pairs against the self-collision model run here.

use scenewalk_actors::SelfCollision;
use scenewalk_actors::robot::Kinematics;
use scenewalk_examples::robot::{Command, parse_args, run};
use scenewalk_nodes::urdf::{ImportOptions, Srdf, Tessellation, import};
use serde_json::Value;
use std::sync::Arc;

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "../../nodes/tests/common/data.rs"]
mod data;
use data::scenes;

fn run_line(line: &str) -> String {
    let args: Vec<String> = line.split_whitespace().map(String::from).collect();
    let Command::Run(options) = parse_args(args).unwrap() else {
        panic!("not a run")
    };
    run(&options).unwrap().text
}

#[test]
fn panda_reads_well_and_its_json_agrees_with_the_model() {
    let robots = scenes().join("urdf/example-robot-data/robots/panda_description");
    let urdf = robots.join("urdf/panda.urdf");
    let srdf = robots.join("srdf/panda.srdf");
    let text = run_line(&format!(
        "{} --random 100 --srdf {}",
        urdf.display(),
        srdf.display()
    ));
    for expected in [
        "robot panda: 13 links, 12 joints (3 fixed, 2 prismatic, 7 revolute; 1 mimic), 8 degrees of freedom",
        "panda_finger_joint2: prismatic, mimics panda_finger_joint1 × 1 + 0 → panda_rightfinger",
        "collision geometry: 17 elements on 11 links (8 box, 9 mesh)",
        "and the SRDF's 35 disabled pairs",
        "sweep of 100 random configurations",
        "self-colliding:",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }

    // Without --srdf, the one beside the URDF is pointed out.
    let text = run_line(&urdf.display().to_string());
    assert!(
        text.contains("no SRDF given, --srdf ") && text.contains("panda.srdf would add one"),
        "{text}"
    );

    let json = run_line(&format!(
        "{} --random 40 --seed 9 --srdf {} --json",
        urdf.display(),
        srdf.display()
    ));
    let json: Value = serde_json::from_str(&json).unwrap();
    // The model, built here from the same files.
    let root = scenes().join("urdf");
    let options = ImportOptions {
        package_roots: vec![root],
    };
    let robot = Arc::new(import(&urdf, &options).unwrap());
    let meshes = robot.collision_meshes(&Tessellation::default()).unwrap();
    let model = SelfCollision::new(&robot, meshes, Some(&Srdf::import(&srdf).unwrap())).unwrap();
    let kinematics = Kinematics::new(Arc::clone(&robot)).unwrap();
    let (mut data, mut workspace) = (kinematics.data(), model.workspace());
    assert_eq!(json["joints"].as_array().unwrap().len(), 8);
    let configurations = json["configurations"].as_array().unwrap();
    assert_eq!(configurations.len(), 40);
    for c in configurations {
        let q: Vec<f32> = (c["values"].as_array().unwrap().iter())
            .map(|v| v.as_f64().unwrap() as f32)
            .collect();
        kinematics.forward(&q, &mut data).unwrap();
        let pairs: Vec<Value> = (model.check(data.poses(), &mut workspace).unwrap().iter())
            .map(|p| serde_json::json!([robot.links()[p.a].name, robot.links()[p.b].name]))
            .collect();
        assert_eq!(c["colliding"], Value::Array(pairs));
        let hand = &c["link_poses"]["panda_hand"];
        let t = data.poses()[robot.link("panda_hand").unwrap()].translation;
        for (row, want) in [t.x, t.y, t.z].iter().enumerate() {
            assert!((hand[row][3].as_f64().unwrap() - f64::from(*want)).abs() < 1e-6);
        }
        assert_eq!(hand[3], serde_json::json!([0.0, 0.0, 0.0, 1.0]));
    }
}
