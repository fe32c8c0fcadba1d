//! Skinned glTF primitives read whole: sparse POSITION (and weight) accessors with
//! their values put in, every `JOINTS_n` / `WEIGHTS_n` set used, each skinned vertex
//! at several poses against brute-force skinning in f64 computed here from the file's
//! own numbers; and the primitives that cannot be skinned refused, never left unposed.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::skinning::{check_bounds, world};
use common::{Accessors, doc, f32_bytes, import};
use scenewalk_core::glam::{Affine3A, DAffine3, DVec3, Mat4, Quat, Vec3};
use scenewalk_nodes::gltf::{GltfError, Imported};
use scenewalk_nodes::{SkinnedMesh, Transform};
use serde_json::{Value, json};

/// Six vertices (two triangles), as stored before any sparse values.
const STORED: [[f32; 3]; 6] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 1.0, 0.0],
    [0.0, 1.0, 1.0],
];

/// The sparse POSITION values: vertices 1 and 4 moved.
const MOVED: [(u32, [f32; 3]); 2] = [(1, [2.0, -1.0, 0.5]), (4, [-1.5, 2.0, 3.0])];

/// Per vertex, set 0's joints and weights (each vertex's weights sum to 1 only with
/// set 1's).
const SET_0: [([u16; 4], [f32; 4]); 6] = [
    ([0, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
    ([0, 1, 0, 0], [0.3, 0.2, 0.0, 0.0]),
    ([1, 0, 0, 0], [0.5, 0.0, 0.0, 0.0]),
    ([2, 1, 0, 0], [0.25, 0.25, 0.0, 0.0]),
    ([0, 0, 0, 0], [0.2, 0.0, 0.0, 0.0]),
    ([2, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]),
];

/// Set 1: the rest of each vertex's weight, on other joints.
const SET_1: [([u16; 4], [f32; 4]); 6] = [
    ([0, 0, 0, 0], [0.0, 0.0, 0.0, 0.0]),
    ([2, 0, 0, 0], [0.5, 0.0, 0.0, 0.0]),
    ([2, 0, 0, 0], [0.5, 0.0, 0.0, 0.0]),
    ([0, 0, 0, 0], [0.5, 0.0, 0.0, 0.0]),
    ([1, 2, 0, 0], [0.4, 0.4, 0.0, 0.0]),
    ([0, 0, 0, 0], [0.0, 0.0, 0.0, 0.0]),
];

/// Each joint's inverse bind matrix: a translation.
const INVERSE_BIND: [[f32; 3]; 3] = [[0.0, -1.0, 0.0], [-1.0, -1.0, 0.0], [-1.0, -1.0, -2.0]];

/// How the file stores its data.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// POSITION as a view of [`STORED`] with [`MOVED`] as sparse values.
    sparse_positions: bool,
    /// `JOINTS_1` / `WEIGHTS_1` present (else set 0 alone, then renormalised).
    second_set: bool,
    /// `WEIGHTS_1` as sparse values over no buffer view (zeros elsewhere).
    sparse_weights: bool,
}

/// Node 0 the skinned mesh (placed far away: skinning ignores it), nodes 1-3 a chain
/// of joints.
fn skinned_file(layout: Layout) -> Value {
    let nodes = json!([
        {"mesh": 0, "skin": 0, "translation": [50, 0, 0]},
        {"translation": [0, 1, 0], "children": [2]},
        {"translation": [1, 0, 0], "rotation": [0, 0, 0.6, 0.8], "children": [3]},
        {"translation": [0, 0, 2]}
    ]);
    let mut doc = doc(nodes, json!([{"nodes": [0, 1]}]));
    let mut a = Accessors::default();
    let positions = if layout.sparse_positions {
        let p = a.floats(STORED.as_flattened(), "VEC3", 3);
        let indices: Vec<u32> = MOVED.iter().map(|m| m.0).collect();
        let values = f32_bytes(MOVED.iter().flat_map(|m| m.1));
        a.sparse(p, &indices, &values, true);
        p
    } else {
        a.floats(expected_positions().as_flattened(), "VEC3", 3)
    };
    let joint_bytes = |set: &[([u16; 4], [f32; 4])]| -> Vec<u8> {
        set.iter()
            .flat_map(|(j, _)| j.iter().flat_map(|x| x.to_le_bytes()))
            .collect()
    };
    let weights = |set: &[([u16; 4], [f32; 4])]| -> Vec<f32> {
        set.iter().flat_map(|(_, w)| *w).collect::<Vec<f32>>()
    };
    let mut attributes = json!({"POSITION": positions});
    attributes["JOINTS_0"] = json!(a.raw(&joint_bytes(&SET_0), 5123, false, "VEC4", 6));
    attributes["WEIGHTS_0"] = json!(a.floats(&weights(&SET_0), "VEC4", 4));
    if layout.second_set {
        attributes["JOINTS_1"] = json!(a.raw(&joint_bytes(&SET_1), 5123, false, "VEC4", 6));
        let w = if layout.sparse_weights {
            let w = a.floats(&weights(&SET_1), "VEC4", 4);
            let used: Vec<u32> = (0..6u32)
                .filter(|&v| SET_1[v as usize].1.iter().any(|&x| x > 0.0))
                .collect();
            let values = used.iter().flat_map(|&v| SET_1[v as usize].1);
            a.sparse(w, &used, &f32_bytes(values), false);
            w
        } else {
            a.floats(&weights(&SET_1), "VEC4", 4)
        };
        attributes["WEIGHTS_1"] = json!(w);
    }
    let binds: Vec<f32> = INVERSE_BIND
        .iter()
        .flat_map(|&t| Mat4::from_translation(Vec3::from(t)).to_cols_array())
        .collect();
    let binds = a.floats(&binds, "MAT4", 16);
    a.finish(&mut doc);
    doc["meshes"] = json!([{"primitives": [{"attributes": attributes}]}]);
    doc["skins"] = json!([{"joints": [1, 2, 3], "inverseBindMatrices": binds}]);
    doc
}

/// [`STORED`] with [`MOVED`] put in.
fn expected_positions() -> [[f32; 3]; 6] {
    let mut p = STORED;
    for (i, v) in MOVED {
        p[i as usize] = v;
    }
    p
}

/// Vertex `v` skinned by brute force in f64 from the file's numbers: every influence
/// of every set, weights divided by their sum.
fn brute_force(imported: &Imported, v: usize, second_set: bool) -> DVec3 {
    let graph = &imported.graph;
    let joints = [1, 2, 3].map(|n| imported.node(n).unwrap().id);
    let p = DVec3::from(expected_positions()[v].map(f64::from));
    let sets: &[[([u16; 4], [f32; 4]); 6]] = if second_set {
        &[SET_0, SET_1]
    } else {
        &[SET_0]
    };
    let influences: Vec<(usize, f64)> = sets
        .iter()
        .flat_map(|set| {
            let (js, ws) = set[v];
            (0..4).map(move |k| (usize::from(js[k]), f64::from(ws[k])))
        })
        .collect();
    let sum: f64 = influences.iter().map(|x| x.1).sum();
    influences
        .iter()
        .map(|&(j, w)| {
            let ib = DAffine3::from_translation(DVec3::from(INVERSE_BIND[j].map(f64::from)));
            w / sum * (world(graph, joints[j]) * ib).transform_point3(p)
        })
        .sum()
}

/// Imports the file, then at several poses of the joints checks every skinned vertex
/// and the boxes against brute force.
fn check(layout: Layout) {
    let mut imported = import(&skinned_file(layout)).unwrap();
    let mesh_node = imported.node(0).unwrap().primitives[0];
    let skinned: SkinnedMesh = imported
        .graph
        .get::<SkinnedMesh>(mesh_node)
        .unwrap_or_else(|e| panic!("{layout:?}: the primitive is not skinned: {e}"))
        .clone();
    let stored: Vec<[f32; 3]> = skinned
        .mesh()
        .positions()
        .iter()
        .map(|p| p.to_array())
        .collect();
    assert_eq!(stored, expected_positions(), "{layout:?}");
    let sets = if layout.second_set { 2 } else { 1 };
    assert_eq!(skinned.influences_per_vertex(), 4 * sets, "{layout:?}");
    let joints = [1, 2, 3].map(|n| imported.node(n).unwrap().id);
    for pose in 0..4 {
        let angle = pose as f32 * 0.7;
        for (k, &joint) in joints.iter().enumerate() {
            let local = Affine3A::from_rotation_translation(
                Quat::from_rotation_z(angle * (k as f32 + 1.0))
                    * Quat::from_rotation_x(0.3 * pose as f32),
                Vec3::new(k as f32, 1.0 - angle, 0.5 * pose as f32),
            );
            let t = imported.graph.get_mut::<Transform>(joint).unwrap();
            t.set_local(local);
        }
        let graph = &imported.graph;
        let mut matrices = Vec::new();
        (skinned.skin())
            .joint_matrices(|j| Some(world(graph, j).as_affine3a()), &mut matrices)
            .unwrap();
        let posed: Vec<Vec3> = skinned.posed_positions(&matrices).unwrap().collect();
        assert_eq!(posed.len(), 6);
        for (v, got) in posed.iter().enumerate() {
            let want = brute_force(&imported, v, layout.second_set);
            assert!(
                got.as_dvec3().abs_diff_eq(want, 1e-4),
                "{layout:?}, pose {pose}, vertex {v}: {got} against brute force {want}"
            );
        }
        check_bounds(graph, &skinned);
        let (min, max) = (0..6)
            .map(|v| brute_force(&imported, v, layout.second_set))
            .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p), hi.max(p))
            });
        let exact = skinned.exact_bounds(&matrices).unwrap();
        assert!(
            exact.min.as_dvec3().abs_diff_eq(min, 1e-4)
                && exact.max.as_dvec3().abs_diff_eq(max, 1e-4),
            "{layout:?}, pose {pose}: {exact:?} against {min} {max}"
        );
    }
}

#[test]
fn a_sparse_skinned_position_accessor_is_skinned_with_its_values_put_in() {
    check(Layout {
        sparse_positions: true,
        second_set: false,
        sparse_weights: false,
    });
}

#[test]
fn a_second_joint_and_weight_set_takes_part_in_skinning() {
    check(Layout {
        sparse_positions: false,
        second_set: true,
        sparse_weights: false,
    });
}

#[test]
fn sparse_positions_and_sparse_weights_over_zeros_with_two_sets() {
    check(Layout {
        sparse_positions: true,
        second_set: true,
        sparse_weights: true,
    });
}

/// Both sets over the same joints give the same pose as one set with the influences
/// merged: the sets add, they are not renormalised apart.
#[test]
fn two_sets_pose_as_their_influences_merged_into_one() {
    let layout = Layout {
        sparse_positions: false,
        second_set: true,
        sparse_weights: false,
    };
    let two = import(&skinned_file(layout)).unwrap();
    let id = two.node(0).unwrap().primitives[0];
    let skinned = two.graph.get::<SkinnedMesh>(id).unwrap();
    for (v, (js, ws)) in skinned.joints().zip(skinned.weights()).enumerate() {
        let mut merged = [0.0f32; 3];
        for k in 0..8 {
            merged[usize::from(js[k])] += ws[k];
        }
        let mut want = [0.0f32; 3];
        for (js, ws) in [SET_0[v], SET_1[v]] {
            for k in 0..4 {
                want[usize::from(js[k])] += ws[k];
            }
        }
        let sum: f32 = want.iter().sum();
        for j in 0..3 {
            assert!((merged[j] - want[j] / sum).abs() < 1e-6, "vertex {v}");
        }
    }
}

/// The error of importing `doc`, which must be an `Invalid` at `at`.
fn invalid(doc: &Value, at: &str) -> String {
    match import(doc) {
        Err(GltfError::Invalid { at: found, reason }) if found == at => reason,
        other => panic!("expected an error at {at}, got {other:?}"),
    }
}

#[test]
fn unpaired_or_gapped_sets_are_refused() {
    let good = Layout {
        sparse_positions: false,
        second_set: true,
        sparse_weights: false,
    };
    let attributes = "/meshes/0/primitives/0/attributes";
    let at = "meshes[0].primitives[0].attributes";
    // JOINTS_1 without WEIGHTS_1.
    let mut doc = skinned_file(good);
    let fields = doc
        .pointer_mut(attributes)
        .unwrap()
        .as_object_mut()
        .unwrap();
    fields.remove("WEIGHTS_1");
    let reason = invalid(&doc, at);
    assert!(
        reason.contains("JOINTS_0, JOINTS_1") && reason.contains("pair up"),
        "{reason}"
    );
    // JOINTS_2 / WEIGHTS_2 without set 1.
    let mut doc = skinned_file(good);
    let fields = doc
        .pointer_mut(attributes)
        .unwrap()
        .as_object_mut()
        .unwrap();
    let (j, w) = (
        fields.remove("JOINTS_1").unwrap(),
        fields.remove("WEIGHTS_1").unwrap(),
    );
    fields.insert("JOINTS_2".into(), j);
    fields.insert("WEIGHTS_2".into(), w);
    let reason = invalid(&doc, at);
    assert!(reason.contains("without a gap"), "{reason}");
    // No WEIGHTS_0 at all.
    let mut doc = skinned_file(good);
    let fields = doc
        .pointer_mut(attributes)
        .unwrap()
        .as_object_mut()
        .unwrap();
    fields.remove("WEIGHTS_0");
    fields.remove("WEIGHTS_1");
    let reason = invalid(&doc, at);
    assert!(reason.contains("no WEIGHTS_0"), "{reason}");
}

#[test]
fn bad_sparse_indices_are_refused() {
    let layout = Layout {
        sparse_positions: true,
        second_set: false,
        sparse_weights: false,
    };
    let good = skinned_file(layout);
    // The POSITION accessor's sparse indices are accessor 1's view: rewrite them.
    let indices_of = |doc: &Value| doc["accessors"][0]["sparse"]["indices"]["bufferView"].clone();
    assert_eq!(indices_of(&good), json!(1));
    for (indices, want) in [
        ([4u32, 1], "does not come after"),
        ([1, 1], "does not come after"),
        ([1, 6], "past the accessor's 6 elements"),
    ] {
        let doc = doc_with_buffer_bytes(&good, 1, &indices);
        let e = import(&doc).unwrap_err().to_string();
        assert!(
            e.contains("accessors[0].sparse.indices[1]") && e.contains(want),
            "{e}"
        );
    }
    // Sparse values past their view.
    let mut doc = good.clone();
    doc["accessors"][0]["sparse"]["count"] = json!(3);
    let e = import(&doc).unwrap_err();
    assert!(matches!(e, GltfError::OutOfBounds { .. }), "{e:?}");
    // Zeros without a buffer view: a count past every buffer's bytes is refused, not
    // allocated.
    let mut doc = good.clone();
    doc["accessors"][0]
        .as_object_mut()
        .unwrap()
        .remove("bufferView");
    doc["accessors"][0]["count"] = json!(1u64 << 40);
    let reason = invalid(&doc, "accessors[0]");
    assert!(reason.contains("without a buffer view"), "{reason}");
}

/// `doc` with buffer view `view`'s bytes replaced by `indices` (same length).
fn doc_with_buffer_bytes(doc: &Value, view: usize, indices: &[u32]) -> Value {
    use base64::Engine;
    let engine = base64::engine::general_purpose::STANDARD;
    let uri = doc["buffers"][0]["uri"].as_str().unwrap();
    let (head, data) = uri.split_once(',').unwrap();
    let mut bytes = engine.decode(data).unwrap();
    let start = doc["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize;
    for (k, i) in indices.iter().enumerate() {
        bytes[start + 4 * k..start + 4 * k + 4].copy_from_slice(&i.to_le_bytes());
    }
    let mut out = doc.clone();
    out["buffers"][0]["uri"] = json!(format!("{head},{}", engine.encode(&bytes)));
    out
}

#[test]
fn primitives_that_cannot_be_skinned_are_refused_not_left_unposed() {
    let layout = Layout {
        sparse_positions: false,
        second_set: false,
        sparse_weights: false,
    };
    let at = "meshes[0].primitives[0]";
    // Points.
    let mut doc = skinned_file(layout);
    doc["meshes"][0]["primitives"][0]["mode"] = json!(0);
    let reason = invalid(&doc, at);
    assert!(reason.contains("only triangles are skinned"), "{reason}");
    // Quantized positions (normalized shorts): not float VEC3.
    let mut doc = skinned_file(layout);
    let shorts: Vec<u8> = (0..18)
        .flat_map(|k: i16| (k * 1000).to_le_bytes())
        .collect();
    let mut a = Accessors::default();
    let q = a.raw(&shorts, 5122, true, "VEC3", 6);
    let mut extra = Value::Null;
    a.finish(&mut extra);
    // Put the quantized accessor's bytes in a second buffer, as accessor N.
    let n = doc["accessors"].as_array().unwrap().len();
    let views = doc["bufferViews"].as_array().unwrap().len();
    let mut view = extra["bufferViews"][0].clone();
    view["buffer"] = json!(1);
    let mut accessor = extra["accessors"][q].clone();
    accessor["bufferView"] = json!(views);
    accessor["min"] = json!([0, 0, 0]);
    accessor["max"] = json!([16000, 16000, 17000]);
    doc["buffers"]
        .as_array_mut()
        .unwrap()
        .push(extra["buffers"][0].clone());
    doc["bufferViews"].as_array_mut().unwrap().push(view);
    doc["accessors"].as_array_mut().unwrap().push(accessor);
    doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(n);
    let reason = invalid(&doc, at);
    assert!(reason.contains("not float VEC3"), "{reason}");
    // Without positions, a primitive draws nothing: it stays an empty box.
    let mut doc = skinned_file(layout);
    let attributes = doc["meshes"][0]["primitives"][0]["attributes"]
        .as_object_mut()
        .unwrap();
    attributes.remove("POSITION");
    let imported = import(&doc).unwrap();
    let id = imported.node(0).unwrap().primitives[0];
    assert!(imported.graph.get::<SkinnedMesh>(id).is_err());
}
