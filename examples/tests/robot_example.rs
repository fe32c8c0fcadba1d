//! The `robot` example (`scenewalk_examples::robot`, which its `main` runs) on a small
//! two-link arm written here: its command line and refusals, the report, the JSON
//! object checked against poses computed here, the sweep and the SVG.

use scenewalk_examples::robot::{Command, Options, RobotCliError, parse_args, run};
use serde_json::Value;
use std::path::PathBuf;

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// An arm: a base box, a shoulder turning about z 0.1 above it, a 1 m upper arm (box
/// along x), an elbow turning about z at its end, a 1 m forearm; plus a gripper on a
/// fixed joint. Folding the elbow back (q2 near π) lays the forearm over the base.
const ARM: &str = r#"<robot name="arm">
  <link name="base"><collision><geometry><box size="0.3 0.3 0.2"/></geometry></collision></link>
  <link name="upper"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.1 0.1"/></geometry></collision></link>
  <link name="fore"><collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.1 0.1"/></geometry></collision></link>
  <link name="gripper"/>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-3.1" upper="3.1" effort="1" velocity="1"/></joint>
  <joint name="wrist" type="fixed"><parent link="fore"/><child link="gripper"/><origin xyz="1 0 0"/></joint>
</robot>"#;

fn arm_file(tag: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "scenewalk-robot-example-{tag}-{}.urdf",
        std::process::id()
    ));
    std::fs::write(&path, ARM).unwrap();
    path
}

fn options(line: &str) -> Options {
    match parse_args(args(line)).unwrap() {
        Command::Run(options) => options,
        Command::Help => panic!("not a run"),
    }
}

#[test]
fn the_command_line_and_its_refusals() {
    assert_eq!(parse_args(args("--help")), Ok(Command::Help));
    assert_eq!(parse_args(args("arm.urdf --json -h")), Ok(Command::Help));
    let o = options("arm.urdf --q 0.5,-1 --random 7 --seed 3 --srdf a.srdf --svg b.svg --json");
    assert_eq!(o.file, PathBuf::from("arm.urdf"));
    assert_eq!(o.q, Some(vec![0.5, -1.0]));
    assert_eq!((o.random, o.seed, o.json), (7, 3, true));
    assert_eq!(o.srdf, Some(PathBuf::from("a.srdf")));
    assert_eq!(o.svg, Some(PathBuf::from("b.svg")));

    let e = parse_args(args("arm.urdf --turbo")).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("--turbo"), "{e}");
    assert_eq!(parse_args(args("--json")).unwrap_err().exit_code(), 2);
    assert_eq!(
        parse_args(args("a.urdf b.urdf")).unwrap_err().exit_code(),
        2
    );
    assert_eq!(
        parse_args(args("a.urdf --random")).unwrap_err().exit_code(),
        2
    );
    for bad in ["--random -3", "--random many", "--q 1,x", "--seed 1.5"] {
        let e = parse_args(args(&format!("arm.urdf {bad}"))).unwrap_err();
        assert!(matches!(e, RobotCliError::Failed(_)), "{bad}: {e:?}");
        assert_eq!(e.exit_code(), 1);
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
}

#[test]
fn bad_files_and_values_fail_with_one_line() {
    let path = arm_file("bad");
    let missing = options("/no/such/robot.urdf");
    for o in [
        missing,
        options(&format!("{} --q 1,2,3", path.display())),
        options(&format!("{} --srdf /no/such.srdf", path.display())),
        options(&format!("{} --q 1,nan", path.display())),
    ] {
        let e = run(&o).err().unwrap();
        assert_eq!(e.exit_code(), 1, "{e}");
        assert!(!e.to_string().contains('\n'), "one line: {e}");
    }
    let e = run(&options(&format!("{} --q 1,2,3", path.display())))
        .err()
        .unwrap();
    assert!(e.to_string().contains("shoulder, elbow"), "{e}");
}

#[test]
fn the_report_reads_well() {
    let path = arm_file("report");
    let text = run(&options(&format!("{} --q 0.5,0.25", path.display())))
        .unwrap()
        .text;
    for expected in [
        "robot arm: 4 links, 3 joints (1 fixed, 2 revolute), 2 degrees of freedom",
        "  base\n    shoulder: revolute, axis 0 0 1, -3 .. 3 → upper\n      elbow: revolute",
        "        wrist: fixed → gripper",
        "joint vector (2 values): shoulder, elbow",
        "collision geometry: 3 elements on 3 links (3 box), 36 triangles",
        "self-collision checks 1 link pairs",
        "configuration (--q): [0.5000, 0.2500]",
        "self-collision: none",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    // The gripper at 2 m along the arm: (cos .5 + cos .75, sin .5 + sin .75, 0.1).
    let (x, y) = (0.5f32.cos() + 0.75f32.cos(), 0.5f32.sin() + 0.75f32.sin());
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("gripper"))
        .unwrap();
    assert!(
        line.contains(&format!("{x:8.4} {y:8.4}   0.1000")),
        "{line}"
    );
    assert!(
        line.contains("rpy  0.0000  0.0000  0.7500")
            || line.contains("rpy  0.0000 -0.0000  0.7500"),
        "{line}"
    );

    // Folded: the forearm lies over the base.
    let text = run(&options(&format!("{} --q 0,3.1", path.display())))
        .unwrap()
        .text;
    assert!(text.contains("self-collision: base–fore"), "{text}");
}

/// The JSON's pose of `link` in configuration `c`, as rows.
fn pose(json: &Value, c: usize, link: &str) -> Vec<Vec<f64>> {
    let rows = json["configurations"][c]["link_poses"][link]
        .as_array()
        .unwrap();
    rows.iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn the_json_object_holds_poses_as_row_major_matrices() {
    let path = arm_file("json");
    let text = run(&options(&format!("{} --q 0.5,3.1 --json", path.display())))
        .unwrap()
        .text;
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["robot"], "arm");
    assert_eq!(json["joints"], serde_json::json!(["shoulder", "elbow"]));
    let configurations = json["configurations"].as_array().unwrap();
    assert_eq!(configurations.len(), 1);
    assert_eq!(
        configurations[0]["values"],
        serde_json::json!([0.5, 3.1f32])
    );
    let poses = configurations[0]["link_poses"].as_object().unwrap();
    assert_eq!(poses.len(), 4);
    // The forearm: turned by 0.5 + 3.1 about z, at the upper arm's end.
    let m = pose(&json, 0, "fore");
    let (s, c) = (0.5f64 + 3.1).sin_cos();
    let expected = [
        [c, -s, 0.0, 0.5f64.cos()],
        [s, c, 0.0, 0.5f64.sin()],
        [0.0, 0.0, 1.0, 0.1],
        [0.0, 0.0, 0.0, 1.0],
    ];
    for (row, want) in m.iter().zip(expected) {
        for (x, w) in row.iter().zip(want) {
            assert!((x - w).abs() < 1e-5, "{m:?}");
        }
    }
    assert_eq!(
        configurations[0]["colliding"],
        serde_json::json!([["base", "fore"]])
    );

    // A sweep lists every configuration, each within the limits.
    let text = run(&options(&format!("{} --random 25 --json", path.display())))
        .unwrap()
        .text;
    let json: Value = serde_json::from_str(&text).unwrap();
    let configurations = json["configurations"].as_array().unwrap();
    assert_eq!(configurations.len(), 25);
    for c in configurations {
        let v = c["values"].as_array().unwrap();
        assert!(v[0].as_f64().unwrap().abs() <= 3.0 && v[1].as_f64().unwrap().abs() <= 3.1);
    }
}

#[test]
fn the_sweep_times_and_lists_self_collisions() {
    let path = arm_file("sweep");
    let text = run(&options(&format!(
        "{} --random 200 --seed 5",
        path.display()
    )))
    .unwrap()
    .text;
    assert!(
        text.contains("sweep of 200 random configurations within the limits (seed 5)"),
        "{text}"
    );
    for part in [
        "forward kinematics (all 4 link poses)",
        "Jacobian of gripper (6 × 2)",
        "self-collision (1 pairs)",
    ] {
        assert!(text.contains(part), "missing {part:?} in\n{text}");
    }
    let line = text
        .lines()
        .find(|l| l.contains("self-colliding:"))
        .unwrap();
    let count: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    // The elbow folds back far enough in a few percent of the range only.
    assert!(count > 0 && count < 100, "{line}");
}

#[test]
fn the_svg_side_view() {
    let path = arm_file("svg");
    let svg = std::env::temp_dir().join(format!(
        "scenewalk-robot-example-{}.svg",
        std::process::id()
    ));
    let o = options(&format!(
        "{} --q 0,3.1 --svg {}",
        path.display(),
        svg.display()
    ));
    let text = run(&o).unwrap().text;
    assert!(text.contains("wrote the side view to"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert_eq!(picture.matches("<polygon").count(), 36);
    // The colliding links are red.
    assert!(picture.contains("colliding links in red"));
}
