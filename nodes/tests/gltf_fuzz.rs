//! Random damage to valid files: the importer answers Ok or an error, never panics or
//! hangs, and a successful import always has every scene node in the graph.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::skinning::world;
use common::{Accessors, data_uri, glb, import};
use proptest::prelude::*;
use scenewalk_nodes::gltf::{ImportOptions, import_slice};
use scenewalk_nodes::{AnimationPlayer, SkinnedMesh};
use serde_json::{Value, json};

/// A small file using every part the importer reads: TRS and matrix nodes, indexed and
/// plain triangles, a strip, a camera of each kind, two scenes and a default.
fn rich() -> Value {
    let points: Vec<f32> = vec![0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1., 1.];
    let mut bytes: Vec<u8> = points.iter().flat_map(|v| v.to_le_bytes()).collect();
    bytes.extend([0u16, 1, 2, 0, 2, 3].iter().flat_map(|i| i.to_le_bytes()));
    json!({
        "asset": {"version": "2.0"},
        "scene": 1,
        "scenes": [{"nodes": [0]}, {"nodes": [0, 4]}],
        "nodes": [
            {"name": "a", "children": [1, 2], "translation": [1, 2, 3]},
            {"mesh": 0, "rotation": [0, 0.6, 0, 0.8], "scale": [1, -1, 2]},
            {"matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1], "children": [3], "camera": 0},
            {"mesh": 1, "camera": 1},
            {"mesh": 0}
        ],
        "meshes": [
            {"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]},
            {"primitives": [{"attributes": {"POSITION": 0}, "mode": 5}, {"attributes": {"POSITION": 0}, "mode": 0}]}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
            {"bufferView": 1, "componentType": 5123, "count": 6, "type": "SCALAR"}
        ],
        "bufferViews": [
            {"buffer": 0, "byteLength": 48, "byteStride": 12},
            {"buffer": 0, "byteOffset": 48, "byteLength": 12}
        ],
        "buffers": [{"byteLength": bytes.len(), "uri": data_uri(&bytes)}],
        "cameras": [
            {"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1, "zfar": 100}},
            {"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0, "zfar": 10}}
        ]
    })
}

/// A skinned triangle (normalized byte weights, byte joints, inverse binds) under
/// joints 1 and 2, animated by every interpolation and path, one quantized.
fn animated() -> Value {
    let nodes = json!([
        {"mesh": 0, "skin": 0},
        {"translation": [0, 1, 0], "children": [2]},
        {"rotation": [0, 0, 0, 1], "scale": [1, 1, 1], "children": [3]},
        {"mesh": 0}
    ]);
    let mut doc =
        json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0, 1]}], "nodes": nodes});
    let mut a = Accessors::default();
    let positions = a.floats(&[0., 0., 0., 1., 0., 0., 0., 1., 0.], "VEC3", 3);
    let joints = a.raw(
        &[0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0],
        5121,
        false,
        "VEC4",
        3,
    );
    let weights = a.raw(
        &[255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0],
        5121,
        true,
        "VEC4",
        3,
    );
    let mut binds = [0.0f32; 32];
    for k in [0, 5, 10, 15, 16, 21, 26, 31] {
        binds[k] = 1.0;
    }
    let binds = a.floats(&binds, "MAT4", 16);
    let times = a.times(&[0.0, 0.5, 2.0]);
    let moves = a.floats(&[0., 0., 0., 1., 2., 3., -1., 0., 4.], "VEC3", 3);
    let turns = a.raw(
        &[0, 0, 0, 127, 0, 90, 0, 90, 0, 0, 127, 0],
        5120,
        true,
        "VEC4",
        3,
    );
    let cubic: Vec<f32> = (0..27).map(|i| 1.0 + (i % 5) as f32 * 0.25).collect();
    let scales = a.floats(&cubic, "VEC3", 3);
    let weights_out = a.floats(&[0.0, 0.5, 1.0], "SCALAR", 1);
    a.finish(&mut doc);
    doc["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": joints, "WEIGHTS_0": weights}}]}]);
    doc["skins"] = json!([{"joints": [1, 2], "inverseBindMatrices": binds}]);
    doc["animations"] = json!([{
        "samplers": [
            {"input": times, "output": moves},
            {"input": times, "output": turns, "interpolation": "STEP"},
            {"input": times, "output": scales, "interpolation": "CUBICSPLINE"},
            {"input": times, "output": weights_out}
        ],
        "channels": [
            {"sampler": 0, "target": {"node": 1, "path": "translation"}},
            {"sampler": 1, "target": {"node": 2, "path": "rotation"}},
            {"sampler": 2, "target": {"node": 2, "path": "scale"}},
            {"sampler": 3, "target": {"node": 3, "path": "weights"}}
        ]
    }]);
    doc
}

/// JSON pointers to every value in the document.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                pointers(v, format!("{at}/{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-3i64..12).prop_map(Value::from),
        Just(json!(1e40)),
        Just(json!(-0.5)),
        Just(json!(0)),
        Just(json!("x")),
        Just(Value::Null),
        Just(json!([])),
        Just(json!([0, 0])),
        Just(json!({})),
        Just(json!(4_000_000_000u64)),
    ]
}

fn check(doc: &Value) {
    if let Ok(imported) = import(doc) {
        for &n in &imported.order {
            let node = imported.node(n).expect("every listed node is imported");
            assert!(imported.graph.contains(node.id));
        }
        // Every animation plays, and every skinned mesh is boxed at each pose.
        let mut graph = imported.graph.clone();
        let skinned = imported.nodes.iter().flatten().flat_map(|n| &n.primitives);
        let skinned: Vec<_> = skinned
            .filter_map(|&p| graph.get::<SkinnedMesh>(p).ok().cloned())
            .collect();
        for animation in &imported.animations {
            let mut player = AnimationPlayer::new(animation.clone());
            for t in [-1.0, 0.3, 0.5, 1.9, 7.0] {
                player
                    .apply(&mut graph, t)
                    .expect("an imported animation targets transforms");
                for mesh in &skinned {
                    let mut matrices = Vec::new();
                    mesh.skin()
                        .joint_matrices(|j| Some(world(&graph, j).as_affine3a()), &mut matrices)
                        .unwrap();
                    assert!(
                        mesh.exact_bounds(&matrices).is_some()
                            && mesh.conservative_bounds(&matrices).is_some()
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn damaged_json_never_panics(
        picks in prop::collection::vec((any::<prop::sample::Index>(), replacement()), 1..4),
        animated_file in any::<bool>(),
    ) {
        let mut doc = if animated_file { animated() } else { rich() };
        for (pick, value) in picks {
            let mut all = Vec::new();
            pointers(&doc, String::new(), &mut all);
            let at = pick.get(&all).clone();
            match doc.pointer_mut(&at) {
                Some(slot) => *slot = value,
                None => continue,
            }
        }
        check(&doc);
    }

    #[test]
    fn damaged_glb_never_panics(cut in 0usize..400, flips in prop::collection::vec((0usize..400, any::<u8>()), 0..4)) {
        let mut doc = rich();
        let bytes = base64_payload(&doc);
        doc["buffers"][0].as_object_mut().unwrap().remove("uri");
        let mut file = glb(&doc, &bytes);
        for (at, byte) in flips {
            let len = file.len();
            file[at % len] = byte;
        }
        file.truncate(cut.max(file.len() / 2).min(file.len()));
        let _ = import_slice(&file, None, &ImportOptions::default());
    }
}

fn base64_payload(doc: &Value) -> Vec<u8> {
    use base64::Engine;
    let uri = doc["buffers"][0]["uri"].as_str().unwrap();
    let (_, data) = uri.split_once(',').unwrap();
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap()
}

#[test]
fn the_undamaged_files_import() {
    let animated = import(&animated()).unwrap();
    assert_eq!(animated.animations[0].channels().len(), 4);
    check(&self::animated());
    let imported = import(&rich()).unwrap();
    assert_eq!(imported.order, [0, 1, 2, 3, 4]);
    let mut doc = rich();
    let bytes = base64_payload(&doc);
    doc["buffers"][0].as_object_mut().unwrap().remove("uri");
    let from_glb = import_slice(&glb(&doc, &bytes), None, &ImportOptions::default()).unwrap();
    assert_eq!(from_glb.order, imported.order);
}

#[test]
fn odd_attribute_names_and_extensions_do_not_panic() {
    for name in [
        "TEXCOORD_",
        "JOINTS_99999999999999999999",
        "_X",
        "",
        "COLOR_-1",
        "WEIGHTS_0x",
    ] {
        let mut doc = rich();
        doc["meshes"][0]["primitives"][0]["attributes"][name] = json!(0);
        let imported = import(&doc);
        assert!(imported.is_ok(), "{name}: {imported:?}");
    }
    let mut doc = rich();
    doc["extensionsRequired"] = json!(["KHR_draco_mesh_compression"]);
    doc["extensionsUsed"] = json!(["KHR_draco_mesh_compression"]);
    // Positions without a buffer view (as with Draco): the declared box is kept.
    doc["accessors"][0]
        .as_object_mut()
        .unwrap()
        .remove("bufferView");
    check(&doc);
    assert!(import(&doc).is_ok());
}
