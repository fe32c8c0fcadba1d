//! Malformed animations: each is refused, never a panic: bad keys or values with
//! `GltfError::BadAnimation` naming the animation, the channel and the index at fault;
//! anything else the importer cannot use as `Invalid` (or `IndexOutOfRange` for a
//! sampler or node that does not exist) at its JSON path.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{Accessors, doc, import};
use scenewalk_nodes::AnimationError;
use scenewalk_nodes::gltf::GltfError;
use serde_json::{Value, json};

/// The channel under test: animation 1, channel 1 (animation 0 and channel 0 are
/// good), sampler 1 reading `times` and `values` (an output of `ty`).
struct Case {
    node: Value,
    path: &'static str,
    interpolation: &'static str,
    times: Vec<f32>,
    values: Vec<f32>,
    ty: &'static str,
    width: usize,
}

fn translation(times: &[f32], values: &[f32]) -> Case {
    Case {
        node: json!(0),
        path: "translation",
        interpolation: "LINEAR",
        times: times.to_vec(),
        values: values.to_vec(),
        ty: "VEC3",
        width: 3,
    }
}

/// Node 0 (TRS), node 1 (a matrix), node 2 (TRS); the two animations.
fn document(case: &Case) -> Value {
    let nodes = json!([{"children": [1, 2]}, {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1]}, {}]);
    let mut doc = doc(nodes, json!([{"nodes": [0]}]));
    let mut accessors = Accessors::default();
    let good_times = accessors.times(&[0.0, 1.0]);
    let good = accessors.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "VEC4", 4);
    let times = accessors.floats(&case.times, "SCALAR", 1);
    let values = accessors.floats(&case.values, case.ty, case.width);
    accessors.finish(&mut doc);
    let good_sampler = json!({"input": good_times, "output": good});
    let good_channel = json!({"sampler": 0, "target": {"node": 2, "path": "rotation"}});
    doc["animations"] = json!([
        {"samplers": [good_sampler], "channels": [good_channel]},
        {
            "samplers": [good_sampler, {"input": times, "output": values, "interpolation": case.interpolation}],
            "channels": [good_channel, {"sampler": 1, "target": {"node": case.node, "path": case.path}}]
        }
    ]);
    doc
}

/// Why the keys of animation 1, channel 1 were refused.
fn fault(doc: &Value) -> AnimationError {
    match import(doc) {
        Err(GltfError::BadAnimation {
            animation: 1,
            channel: 1,
            source,
        }) => source,
        other => panic!("expected bad keys in animation 1 channel 1, got {other:?}"),
    }
}

/// Where (a JSON path) and why the file is invalid.
fn invalid(doc: &Value) -> (String, String) {
    match import(doc) {
        Err(GltfError::Invalid { at, reason }) => (at, reason),
        other => panic!("expected an invalid value, got {other:?}"),
    }
}

#[test]
fn the_good_document_imports() {
    let imported = import(&document(&translation(&[0.0, 1.0], &[0.0; 6]))).unwrap();
    assert_eq!(imported.animations.len(), 2);
    assert_eq!(imported.animations[1].channels().len(), 2);
}

#[test]
fn a_channel_that_targets_a_node_with_a_matrix() {
    let case = Case {
        node: json!(1),
        ..translation(&[0.0, 1.0], &[0.0; 6])
    };
    let (at, reason) = invalid(&document(&case));
    assert_eq!(at, "animations[1].channels[1].target.node");
    assert!(reason.starts_with("node 1 has a matrix"), "{reason}");
}

#[test]
fn mismatched_input_and_output_counts() {
    let f = fault(&document(&translation(&[0.0, 1.0, 2.0], &[0.0; 6])));
    assert!(
        matches!(
            f,
            AnimationError::CountMismatch {
                keys: 3,
                values: 6,
                expected: 9
            }
        ),
        "{f:?}"
    );
}

#[test]
fn times_that_do_not_increase() {
    let f = fault(&document(&translation(&[0.0, 1.0, 1.0], &[0.0; 9])));
    assert!(
        matches!(f, AnimationError::TimesNotIncreasing { key: 2 }),
        "{f:?}"
    );
    let f = fault(&document(&translation(&[2.0, 1.0], &[0.0; 6])));
    assert!(
        matches!(f, AnimationError::TimesNotIncreasing { key: 1 }),
        "{f:?}"
    );
}

#[test]
fn a_sampler_out_of_range() {
    let mut doc = document(&translation(&[0.0, 1.0], &[0.0; 6]));
    doc["animations"][1]["channels"][1]["sampler"] = json!(7);
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "sampler", index: 7, count: 2 } if at == "animations[1].channels[1].sampler"),
        "{e:?}"
    );
}

#[test]
fn a_target_node_out_of_range() {
    let case = Case {
        node: json!(9),
        ..translation(&[0.0, 1.0], &[0.0; 6])
    };
    let e = import(&document(&case)).unwrap_err();
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "node", index: 9, count: 3 } if at == "animations[1].channels[1].target.node"),
        "{e:?}"
    );
}

#[test]
fn non_finite_times_and_values() {
    let f = fault(&document(&translation(&[0.0, f32::NAN], &[0.0; 6])));
    assert!(
        matches!(f, AnimationError::TimeNotFinite { key: 1 }),
        "{f:?}"
    );
    let f = fault(&document(&translation(&[0.0, f32::INFINITY], &[0.0; 6])));
    assert!(
        matches!(f, AnimationError::TimeNotFinite { key: 1 }),
        "{f:?}"
    );
    let f = fault(&document(&translation(
        &[0.0, 1.0],
        &[0.0, 0.0, 0.0, 0.0, f32::NEG_INFINITY, 0.0],
    )));
    assert!(
        matches!(f, AnimationError::ValueNotFinite { index: 4 }),
        "{f:?}"
    );
}

#[test]
fn an_unknown_path() {
    let case = Case {
        path: "color",
        ..translation(&[0.0, 1.0], &[0.0; 6])
    };
    let (at, reason) = invalid(&document(&case));
    assert_eq!(at, "animations[1].channels[1].target.path");
    assert!(reason.contains("not translation, rotation"), "{reason}");
}

#[test]
fn an_unknown_interpolation() {
    let case = Case {
        interpolation: "BEZIER",
        ..translation(&[0.0, 1.0], &[0.0; 6])
    };
    let (at, reason) = invalid(&document(&case));
    assert_eq!(at, "animations[1].samplers[1].interpolation");
    assert!(
        reason.contains("not LINEAR, STEP or CUBICSPLINE"),
        "{reason}"
    );
}

#[test]
fn cubic_spline_output_count_is_not_three_per_key() {
    let case = Case {
        interpolation: "CUBICSPLINE",
        ..translation(&[0.0, 1.0], &[0.0; 6])
    };
    let f = fault(&document(&case));
    assert!(
        matches!(
            f,
            AnimationError::CountMismatch {
                keys: 2,
                values: 6,
                expected: 18
            }
        ),
        "{f:?}"
    );
}

#[test]
fn cubic_spline_with_one_key_and_a_channel_without_keys() {
    let case = Case {
        interpolation: "CUBICSPLINE",
        ..translation(&[0.0], &[0.0; 9])
    };
    let f = fault(&document(&case));
    assert!(
        matches!(f, AnimationError::TooFewKeys { keys: 1, needed: 2 }),
        "{f:?}"
    );
    let f = fault(&document(&translation(&[], &[])));
    assert!(
        matches!(f, AnimationError::TooFewKeys { keys: 0, needed: 1 }),
        "{f:?}"
    );
}

#[test]
fn two_channels_on_one_target() {
    let case = Case {
        node: json!(2),
        path: "rotation",
        ty: "VEC4",
        width: 4,
        ..translation(&[0.0], &[0.0, 0.0, 0.0, 1.0])
    };
    let (at, reason) = invalid(&document(&case));
    assert_eq!(at, "animations[1].channels[1].target");
    assert!(reason.starts_with("channel 0 already animates"), "{reason}");
}

#[test]
fn an_output_of_the_wrong_type() {
    let case = Case {
        ty: "VEC4",
        width: 4,
        ..translation(&[0.0, 1.0], &[0.0; 8])
    };
    let (at, reason) = invalid(&document(&case));
    assert_eq!(at, "accessors[3]");
    let wanted = "animations[1].samplers[1].output needs a Vec3 accessor, not Vec4";
    assert_eq!(reason, wanted);
}

#[test]
fn a_zero_rotation_key() {
    let case = Case {
        path: "rotation",
        ty: "VEC4",
        width: 4,
        ..translation(&[0.0, 1.0], &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    };
    let f = fault(&document(&case));
    assert!(
        matches!(f, AnimationError::ZeroRotation { key: 1 }),
        "{f:?}"
    );
}

#[test]
fn a_channel_whose_node_is_not_in_the_scene_is_dropped() {
    // Node 3 is in no scene: its channel is not imported, and its bad keys are not read.
    let mut doc = document(&translation(&[0.0, 1.0, 1.0], &[0.0; 9]));
    doc["nodes"].as_array_mut().unwrap().push(json!({}));
    doc["animations"][1]["channels"][1]["target"]["node"] = json!(3);
    let imported = import(&doc).unwrap();
    assert_eq!(imported.animations[1].channels().len(), 1);
}
