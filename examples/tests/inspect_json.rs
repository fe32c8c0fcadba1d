//! `inspect --json` against an independent reading of the same glTF JSON
//! (`reference`): naive products of ancestors' matrices, boxes of 8 transformed corners.

mod reference;

use base64::Engine;
use proptest::prelude::*;
use scenewalk_examples::inspect::inspect;
use scenewalk_nodes::gltf::{ImportOptions, import_slice};
use serde_json::{Value, json};

/// Adds meshes (each a list of primitives, each a list of points) with one embedded
/// buffer, a view and an accessor (min/max declared) per primitive.
fn with_meshes(mut doc: Value, meshes: &[Vec<Vec<[f32; 3]>>]) -> Value {
    let (mut bytes, mut views, mut accessors, mut out) = (Vec::new(), vec![], vec![], vec![]);
    for mesh in meshes {
        let mut primitives = vec![];
        for points in mesh {
            let start = bytes.len();
            bytes.extend(points.iter().flatten().flat_map(|v| v.to_le_bytes()));
            views
                .push(json!({"buffer": 0, "byteOffset": start, "byteLength": bytes.len() - start}));
            let bound = |pick: fn(f32, f32) -> f32| -> Vec<f32> {
                (0..3)
                    .map(|k| points.iter().map(|p| p[k]).reduce(pick).unwrap())
                    .collect()
            };
            accessors.push(json!({
                "bufferView": views.len() - 1, "componentType": 5126, "count": points.len(),
                "type": "VEC3", "min": bound(f32::min), "max": bound(f32::max)
            }));
            primitives.push(json!({"attributes": {"POSITION": accessors.len() - 1}}));
        }
        out.push(json!({"primitives": primitives}));
    }
    let uri = base64::engine::general_purpose::STANDARD.encode(&bytes);
    doc["buffers"] = json!([{"byteLength": bytes.len(), "uri": format!("data:application/octet-stream;base64,{uri}")}]);
    doc["bufferViews"] = json!(views);
    doc["accessors"] = json!(accessors);
    doc["meshes"] = json!(out);
    doc
}

fn run(doc: &Value, scene: Option<usize>) -> Value {
    let bytes = serde_json::to_vec(doc).unwrap();
    let imported = import_slice(&bytes, None, &ImportOptions::default().with_scene(scene)).unwrap();
    let report = inspect(&imported).unwrap();
    // Through text, as a user of `inspect --json` reads it.
    serde_json::from_str(&report.to_json().to_string()).unwrap()
}

fn tetra() -> Vec<[f32; 3]> {
    vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.5, 0.0],
        [0.0, 2.0, -1.0],
        [-0.5, 0.0, 3.0],
    ]
}

fn quad() -> Vec<[f32; 3]> {
    vec![
        [-2.0, -1.0, 0.5],
        [2.0, -1.0, 0.5],
        [2.0, 1.0, 0.5],
        [-2.0, 1.0, 0.5],
    ]
}

#[test]
fn matrix_and_trs_hierarchy_with_odd_scales() {
    let matrix = [
        0.0, 2.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 4.0, -5.0, 6.0, 1.0,
    ];
    let doc = with_meshes(
        json!({
            "asset": {"version": "2.0"},
            "scenes": [{"nodes": [0, 5]}],
            "nodes": [
                {"name": "root", "translation": [1, 2, 3], "rotation": [0.3, -0.2, 0.5, 0.8], "children": [1, 3]},
                {"matrix": matrix, "mesh": 0, "children": [2]},
                {"scale": [1, 4, 0.25], "rotation": [0, 0.6, 0, 0.8], "mesh": 1},
                {"scale": [-1, 1, 1], "translation": [0, 0, -2], "mesh": 0, "children": [4]},
                {"rotation": [0, 0, 3, 3], "scale": [2, 2, -0.5], "mesh": 1},
                {"scale": [0, 0, 0], "mesh": 0, "children": [6]},
                {"translation": [7, 8, 9], "mesh": 1}
            ]
        }),
        &[vec![tetra()], vec![quad(), tetra()]],
    );
    let json = run(&doc, None);
    reference::check(&json, &doc, 0);
    assert_eq!(json["node_count"], 7);
    // Keys in the documented order.
    let keys: Vec<_> = json.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        [
            "scene",
            "nodes",
            "node_count",
            "mesh_node_count",
            "world_aabb"
        ]
    );
}

#[test]
fn multiple_scenes_default_and_chosen() {
    let mut doc = with_meshes(
        json!({
            "asset": {"version": "2.0"},
            "scenes": [{"nodes": [0]}, {"nodes": [2, 1]}],
            "nodes": [
                {"translation": [1, 0, 0], "mesh": 0},
                {"scale": [2, 2, 2], "mesh": 0, "children": [3]},
                {"rotation": [1, 0, 0, 1]},
                {"translation": [0, 1, 0], "mesh": 0}
            ]
        }),
        &[vec![tetra()]],
    );
    reference::check(&run(&doc, None), &doc, 0);
    doc["scene"] = json!(1);
    reference::check(&run(&doc, None), &doc, 1);
    reference::check(&run(&doc, Some(0)), &doc, 0);
}

#[test]
fn empty_scene_has_no_world_box() {
    let doc = json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": []}], "nodes": [{}]});
    let json = run(&doc, None);
    assert_eq!(
        json,
        json!({"scene": 0, "nodes": [], "node_count": 0, "mesh_node_count": 0, "world_aabb": null})
    );
    let json = run(&json!({"asset": {"version": "2.0"}}), None);
    assert_eq!(json["scene"], Value::Null);
}

#[test]
fn deep_chain_world_matrices() {
    const DEPTH: usize = 100_000;
    let nodes: Vec<_> = (0..DEPTH)
        .map(|i| match i + 1 < DEPTH {
            true => json!({"translation": [1, 0, 0], "children": [i + 1]}),
            false => json!({"translation": [1, 0, 0], "mesh": 0}),
        })
        .collect();
    let doc = with_meshes(
        json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": nodes}),
        &[vec![tetra()]],
    );
    let json = run(&doc, None);
    let last = &json["nodes"][DEPTH - 1];
    assert_eq!(last["depth"], DEPTH - 1);
    // Sums of 1.0 are exact in f32 up to 2^24.
    assert_eq!(last["world"][12], DEPTH as f64);
    assert_eq!(
        json["world_aabb"]["min"],
        json!([DEPTH as f64 - 0.5, 0.0, -1.0])
    );
}

/// A random forest: each node's parent is an earlier node or none; random TRS or
/// matrix locals; some nodes carry a mesh.
fn forest() -> impl Strategy<Value = Value> {
    let trs = (
        prop::array::uniform3(-10.0f32..10.0),
        prop::array::uniform4(-1.0f32..1.0),
        prop::array::uniform3(prop_oneof![-3.0f32..3.0, Just(0.0), Just(-1.0)]),
    );
    let node = (
        prop::option::of(0usize..1000),
        prop_oneof![
            trs.prop_map(|(t, q, s)| {
                let q = if q.iter().all(|c| c.abs() < 1e-3) {
                    [0.0, 0.0, 0.0, 1.0]
                } else {
                    q
                };
                json!({"translation": t, "rotation": q, "scale": s})
            }),
            prop::array::uniform12(-4.0f32..4.0).prop_map(|m| {
                let mut full = [0.0f32; 16];
                for c in 0..4 {
                    full[c * 4..c * 4 + 3].copy_from_slice(&m[c * 3..c * 3 + 3]);
                }
                full[15] = 1.0;
                json!({"matrix": full})
            }),
        ],
        prop::option::of(0usize..2),
    );
    prop::collection::vec(node, 1..40).prop_map(|spec| {
        let mut nodes: Vec<Value> = spec.iter().map(|(_, local, _)| local.clone()).collect();
        let mut roots = vec![];
        for (i, (parent, _, mesh)) in spec.iter().enumerate() {
            if let Some(m) = mesh {
                nodes[i]["mesh"] = json!(m);
            }
            match parent {
                Some(p) if i > 0 => {
                    let p = p % i;
                    let children = nodes[p]
                        .as_object_mut()
                        .unwrap()
                        .entry("children")
                        .or_insert(json!([]));
                    children.as_array_mut().unwrap().push(json!(i));
                }
                _ => roots.push(i),
            }
        }
        with_meshes(
            json!({"asset": {"version": "2.0"}, "scenes": [{"nodes": roots}], "nodes": nodes}),
            &[vec![tetra()], vec![quad(), tetra()]],
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_hierarchies_match_the_reference(doc in forest()) {
        reference::check(&run(&doc, None), &doc, 0);
    }
}

#[test]
fn summary_reports_counts_levels_fan_out_and_bounds() {
    let doc = with_meshes(
        json!({
            "asset": {"version": "2.0"},
            "scenes": [{"nodes": [0]}],
            "nodes": [
                {"children": [1, 2, 3]},
                {"translation": [10, 0, 0], "mesh": 0},
                {"children": [4]},
                {},
                {"translation": [0, -3, 0], "mesh": 0}
            ]
        }),
        &[vec![tetra()]],
    );
    let bytes = serde_json::to_vec(&doc).unwrap();
    let imported = import_slice(&bytes, None, &ImportOptions::default()).unwrap();
    let report = inspect(&imported).unwrap();
    assert_eq!(
        (
            report.levels(),
            report.max_fan_out(),
            report.mesh_node_count()
        ),
        (3, 3, 2)
    );
    let text = report.summary(std::time::Duration::ZERO);
    assert!(
        text.starts_with("scene 0: 5 glTF nodes, imported as ")
            && text.contains(" types, 3 levels, fan-out at most 3, 2 mesh nodes"),
        "{text}"
    );
    assert!(text.contains("min [-0.5, -3, -1] max [11, 2, 3]"), "{text}");
}

#[test]
fn summary_counts_agree_in_number_and_unnamed_nodes_are_not_quoted() {
    let doc = with_meshes(
        json!({
            "asset": {"version": "2.0"},
            "scenes": [{"nodes": [0]}],
            "nodes": [{"mesh": 0}]
        }),
        &[vec![tetra()]],
    );
    let bytes = serde_json::to_vec(&doc).unwrap();
    let imported = import_slice(&bytes, None, &ImportOptions::default()).unwrap();
    let text = inspect(&imported)
        .unwrap()
        .summary(std::time::Duration::ZERO);
    assert!(
        text.starts_with(
            "scene 0: 1 glTF node, imported as 2 graph nodes of 2 types, 1 level, \
             no children, 1 mesh node, at rest"
        ),
        "{text}"
    );
    assert!(text.contains("     0 (unnamed) depth 0 at"), "{text}");
}
