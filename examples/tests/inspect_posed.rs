//! `inspect --time T [--animation N]`: world matrices and boxes of the scene posed by
//! an animation, against the independent reference reading of the same file with the
//! sampled values written into its nodes; skinned boxes against skinning by hand; the
//! command line and the readable report.

mod reference;

use base64::Engine;
use scenewalk_examples::inspect::{Command, InspectError, inspect, inspect_at, parse_args};
use scenewalk_nodes::gltf::{ImportOptions, Imported, import_slice};
use serde_json::{Value, json};

/// Little-endian bytes of floats.
fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// One accessor's data: bytes, component type, count, type, min / max.
type Block<'a> = (Vec<u8>, u32, usize, &'a str, Option<(Value, Value)>);

/// Puts `blocks` into one embedded buffer with a view and an accessor each.
fn with_data(mut doc: Value, blocks: &[Block<'_>]) -> Value {
    let (mut all, mut views, mut accessors) = (Vec::new(), vec![], vec![]);
    for (data, component, count, ty, bounds) in blocks {
        let start = all.len();
        all.extend_from_slice(data);
        views.push(json!({"buffer": 0, "byteOffset": start, "byteLength": data.len()}));
        let mut accessor = json!({"bufferView": views.len() - 1, "componentType": component, "count": count, "type": ty});
        if let Some((min, max)) = bounds {
            (accessor["min"], accessor["max"]) = (min.clone(), max.clone());
        }
        accessors.push(accessor);
    }
    let uri = base64::engine::general_purpose::STANDARD.encode(&all);
    doc["buffers"] = json!([{"byteLength": all.len(), "uri": format!("data:application/octet-stream;base64,{uri}")}]);
    doc["bufferViews"] = json!(views);
    doc["accessors"] = json!(accessors);
    doc
}

fn import(doc: &Value) -> Imported {
    import_slice(
        &serde_json::to_vec(doc).unwrap(),
        None,
        &ImportOptions::default(),
    )
    .unwrap()
}

/// Through text, as a user of `inspect --json` reads it.
fn json_of(report: &scenewalk_examples::inspect::Report) -> Value {
    serde_json::from_str(&report.to_json().to_string()).unwrap()
}

/// Root 0 (a mesh, child 1 with a mesh) and root 2 (a mesh). Animation 0 moves node
/// 0 (translation LINEAR over 0..2 s, rotation STEP at 0 and 1 s); animation 1 scales
/// node 2 (LINEAR over 1..3 s).
fn scene() -> Value {
    let q = [0.0, 0.6, 0.0, 0.8];
    let doc = json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 2]}],
        "nodes": [
            {"name": "mover", "translation": [1, 0, 0], "rotation": [0.6, 0, 0, 0.8], "scale": [1, 2, 1], "mesh": 0, "children": [1]},
            {"translation": [0, 1, 0], "mesh": 0},
            {"name": "grower", "translation": [0, 0, 5], "mesh": 0}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "animations": [
            {"name": "move", "samplers": [{"input": 1, "output": 2}, {"input": 3, "output": 4, "interpolation": "STEP"}],
             "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
                          {"sampler": 1, "target": {"node": 0, "path": "rotation"}}]},
            {"samplers": [{"input": 5, "output": 6}], "channels": [{"sampler": 0, "target": {"node": 2, "path": "scale"}}]}
        ]
    });
    let tetra = [0.0, 0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 2.0, -1.0, -0.5, 0.0, 3.0];
    with_data(
        doc,
        &[
            (
                bytes(&tetra),
                5126,
                4,
                "VEC3",
                Some((json!([-0.5, 0, -1]), json!([1, 2, 3]))),
            ),
            (
                bytes(&[0.0, 2.0]),
                5126,
                2,
                "SCALAR",
                Some((json!([0]), json!([2]))),
            ),
            (
                bytes(&[0.0, 0.0, 0.0, 4.0, 2.0, 0.0]),
                5126,
                2,
                "VEC3",
                None,
            ),
            (
                bytes(&[0.0, 1.0]),
                5126,
                2,
                "SCALAR",
                Some((json!([0]), json!([1]))),
            ),
            (
                bytes(&[[0.0, 0.0, 0.0, 1.0], q].concat()),
                5126,
                2,
                "VEC4",
                None,
            ),
            (
                bytes(&[1.0, 3.0]),
                5126,
                2,
                "SCALAR",
                Some((json!([1]), json!([3]))),
            ),
            (
                bytes(&[1.0, 1.0, 1.0, 3.0, 3.0, 3.0]),
                5126,
                2,
                "VEC3",
                None,
            ),
        ],
    )
}

#[test]
fn posed_worlds_and_boxes_match_the_reference_with_the_sampled_pose() {
    let doc = scene();
    // (animation, time, node, its sampled pose as glTF values): clamped before the
    // first key and after the last, between keys, on a key.
    let cases = [
        (
            0,
            -1.0,
            0,
            json!({"translation": [0, 0, 0], "rotation": [0, 0, 0, 1]}),
        ),
        (
            0,
            0.5,
            0,
            json!({"translation": [1, 0.5, 0], "rotation": [0, 0, 0, 1]}),
        ),
        (
            0,
            1.0,
            0,
            json!({"translation": [2, 1, 0], "rotation": [0, 0.6, 0, 0.8]}),
        ),
        (
            0,
            7.0,
            0,
            json!({"translation": [4, 2, 0], "rotation": [0, 0.6, 0, 0.8]}),
        ),
        (1, 0.0, 2, json!({"scale": [1, 1, 1]})),
        (1, 2.5, 2, json!({"scale": [2.5, 2.5, 2.5]})),
    ];
    for (animation, time, node, pose) in cases {
        let mut imported = import(&doc);
        let json = json_of(&inspect_at(&mut imported, animation, time).unwrap());
        assert_eq!(
            (json["time"].as_f64(), json["animation"].as_u64()),
            (Some(time.into()), Some(animation as u64))
        );
        let mut expected = doc.clone();
        for (key, value) in pose.as_object().unwrap() {
            expected["nodes"][node][key] = value.clone();
        }
        reference::check(&json, &expected, 0);
    }
}

#[test]
fn posed_json_adds_time_and_animation_after_the_scene() {
    let mut imported = import(&scene());
    let rest = json_of(&inspect(&imported).unwrap());
    let posed = json_of(&inspect_at(&mut imported, 1, 2.0).unwrap());
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        keys(&rest),
        [
            "scene",
            "nodes",
            "node_count",
            "mesh_node_count",
            "world_aabb"
        ]
    );
    assert_eq!(
        keys(&posed),
        [
            "scene",
            "time",
            "animation",
            "nodes",
            "node_count",
            "mesh_node_count",
            "world_aabb"
        ]
    );
    assert!(matches!(
        inspect_at(&mut imported, 2, 0.0),
        Err(InspectError::NoSuchAnimation {
            animation: 2,
            count: 2
        })
    ));
}

/// A triangle skinned by joints 1 and 2 (node 1 at y = 1, node 2 its child at y = 2
/// more, rotated by the animation a quarter turn about z at t = 1); the mesh node 0 is
/// moved 50 along x, which skinning ignores.
fn skinned_scene() -> Value {
    let doc = json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "skinned", "mesh": 0, "skin": 0, "translation": [50, 0, 0]},
            {"translation": [0, 1, 0], "children": [2]},
            {"translation": [0, 2, 0]}
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}}]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": 3}],
        "animations": [{"samplers": [{"input": 4, "output": 5}],
                        "channels": [{"sampler": 0, "target": {"node": 2, "path": "rotation"}}]}]
    });
    let h = std::f32::consts::FRAC_1_SQRT_2;
    #[rustfmt::skip]
    let inverse_binds = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0,
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -3.0, 0.0, 1.0,
    ];
    let joints: Vec<u8> = vec![0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0];
    with_data(
        doc,
        &[
            (
                bytes(&[0.0, 1.0, 0.0, 0.0, 4.0, 0.0, 1.0, 3.0, 0.0]),
                5126,
                3,
                "VEC3",
                Some((json!([0, 1, 0]), json!([1, 4, 0]))),
            ),
            (joints, 5121, 3, "VEC4", None),
            (
                bytes(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0]),
                5126,
                3,
                "VEC4",
                None,
            ),
            (bytes(&inverse_binds), 5126, 2, "MAT4", None),
            (
                bytes(&[0.0, 1.0]),
                5126,
                2,
                "SCALAR",
                Some((json!([0]), json!([1]))),
            ),
            (
                bytes(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, h, h]),
                5126,
                2,
                "VEC4",
                None,
            ),
        ],
    )
}

#[test]
fn a_skinned_mesh_box_is_its_exact_skinned_box_when_posed() {
    let doc = skinned_scene();
    let mut imported = import(&doc);
    // At rest: the bind-pose box placed by the node (as before skins were read).
    let rest = json_of(&inspect(&imported).unwrap());
    assert_eq!(
        rest["nodes"][0]["mesh_aabb"],
        json!({"min": [50.0, 1.0, 0.0], "max": [51.0, 4.0, 0.0]})
    );
    // At t = 1, by hand: joint 0's matrix is the identity (world y + 1, inverse bind
    // y − 1); joint 1 turns a quarter about z around (0, 3): vertex 0 (joint 0)
    // stays at (0, 1); vertex 1 (joint 1) at (0, 4) goes to (−1, 3); vertex 2, half
    // each, at (1, 3) stays for joint 0 and goes to (0, 4) for joint 1: (0.5, 3.5).
    let posed = json_of(&inspect_at(&mut imported, 0, 1.0).unwrap());
    let aabb = &posed["nodes"][0]["mesh_aabb"];
    let expected = [
        (&aabb["min"], [-1.0, 1.0, 0.0]),
        (&aabb["max"], [0.5, 3.5, 0.0]),
    ];
    for (got, want) in expected {
        for k in 0..3 {
            assert!((got[k].as_f64().unwrap() - want[k]).abs() < 1e-6, "{aabb}");
        }
    }
    // Halfway, an eighth of a turn: vertex 1 at (−sin 45°, 3 + cos 45°).
    let posed = json_of(&inspect_at(&mut imported, 0, 0.5).unwrap());
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let min_x = posed["nodes"][0]["mesh_aabb"]["min"][0].as_f64().unwrap();
    assert!((min_x + s).abs() < 1e-6, "{}", posed["nodes"][0]);
}

#[test]
fn the_command_line() {
    let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
    assert_eq!(args(&["--help"]), Ok(Command::Help));
    assert_eq!(args(&["x.gltf", "-h"]), Ok(Command::Help));
    let Ok(Command::Run {
        file,
        options,
        json,
        posed,
    }) = args(&[
        "x.gltf",
        "--scene",
        "2",
        "--time",
        "1.5",
        "--animation",
        "3",
        "--json",
    ])
    else {
        panic!("not parsed");
    };
    assert_eq!(
        (file.to_str(), options.scene, json, posed),
        (Some("x.gltf"), Some(2), true, Some((3, 1.5)))
    );
    assert!(matches!(
        args(&["x.gltf", "--time", "0.25"]),
        Ok(Command::Run {
            posed: Some((0, 0.25)),
            json: false,
            ..
        })
    ));
    assert!(matches!(
        args(&["x.gltf"]),
        Ok(Command::Run { posed: None, .. })
    ));
    for bad in [
        &["x.gltf", "--time"][..],
        &["x.gltf", "--time", "NaN"],
        &["x.gltf", "--time", "-1.5"],
        &["x.gltf", "--time", "1e30"],
        &["x.gltf", "--time", "soon"],
        &["x.gltf", "--animation", "1"],
        &["x.gltf", "--time", "1", "--animation", "-1"],
        &["x.gltf", "y.gltf"],
        &["x.gltf", "--fast"],
        &[],
    ] {
        assert!(args(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn the_readable_report_lists_every_node() {
    let mut imported = import(&scene());
    let text = inspect_at(&mut imported, 0, 0.5)
        .unwrap()
        .summary(std::time::Duration::ZERO);
    assert!(
        text.starts_with(
            "scene 0: 3 glTF nodes, imported as 6 graph nodes of 2 types, 2 levels, \
             fan-out at most 1, 3 mesh nodes, animation 0 at 0.5 s"
        ),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().skip(4).collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].contains("0 \"mover\" depth 0 at [1, 0.5, 0] mesh min"),
        "{text}"
    );
    assert!(
        lines[1].contains("1 (unnamed) depth 1 at [1, 2.5, 0] mesh min"),
        "{text}"
    );
    assert!(
        lines[2].contains("2 \"grower\" depth 0 at [0, 0, 5] mesh min [-0.5, 0, 4] max [1, 2, 8]"),
        "{text}"
    );
    let rest = inspect(&imported)
        .unwrap()
        .summary(std::time::Duration::ZERO);
    assert!(rest.lines().next().unwrap().ends_with("at rest"), "{rest}");
}
