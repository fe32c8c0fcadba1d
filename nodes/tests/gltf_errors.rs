//! Malformed glTF files: each is an error naming the index at fault, never a panic.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{data_uri, doc, f32_bytes, import, import_with, with_mesh};
use scenewalk_nodes::gltf::{GltfError, ImportOptions, import_slice};
use serde_json::{Value, json};

fn error(doc: &Value) -> GltfError {
    match import(doc) {
        Ok(_) => panic!("imported a malformed file: {doc}"),
        Err(e) => e,
    }
}

fn triangle() -> Vec<[f32; 3]> {
    vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
}

#[test]
fn child_index_out_of_range() {
    let e = error(&doc(
        json!([{"children": [1, 5]}, {}]),
        json!([{"nodes": [0]}]),
    ));
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "node", index: 5, count: 2 } if at == "nodes[0].children[1]"),
        "{e:?}"
    );
    assert!(e.to_string().contains("nodes[0].children[1]"), "{e}");
}

#[test]
fn two_parents() {
    let e = error(&doc(
        json!([{"children": [2]}, {"children": [2]}, {}]),
        json!([{"nodes": [0, 1]}]),
    ));
    assert!(
        matches!(
            e,
            GltfError::TwoParents {
                node: 2,
                first: 0,
                second: 1
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("node 2"), "{e}");
    // Listed twice by the same parent is the same fault.
    let e = error(&doc(
        json!([{"children": [1, 1]}, {}]),
        json!([{"nodes": [0]}]),
    ));
    assert!(
        matches!(
            e,
            GltfError::TwoParents {
                node: 1,
                first: 0,
                second: 0
            }
        ),
        "{e:?}"
    );
}

#[test]
fn cycles() {
    // 0 → 1 → 2 → 0, in no scene: the file is still invalid.
    let e = error(&doc(
        json!([{"children": [1]}, {"children": [2]}, {"children": [0]}, {}]),
        json!([{"nodes": [3]}]),
    ));
    assert!(matches!(e, GltfError::Cycle { node: 0..=2 }), "{e:?}");
    let e = error(&doc(json!([{"children": [0]}]), json!([])));
    assert!(matches!(e, GltfError::Cycle { node: 0 }), "{e:?}");
}

#[test]
fn scene_roots_must_be_roots_listed_once() {
    let e = error(&doc(
        json!([{"children": [1]}, {}]),
        json!([{"nodes": [0, 1]}]),
    ));
    assert!(
        matches!(
            e,
            GltfError::SceneRootHasParent {
                scene: 0,
                node: 1,
                parent: 0
            }
        ),
        "{e:?}"
    );
    let e = error(&doc(json!([{}]), json!([{"nodes": [0, 0]}])));
    assert!(
        matches!(e, GltfError::DuplicateRoot { scene: 0, node: 0 }),
        "{e:?}"
    );
    let e = error(&doc(json!([{}]), json!([{"nodes": [0, 3]}])));
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, index: 3, .. } if at == "scenes[0].nodes[1]"),
        "{e:?}"
    );
}

#[test]
fn scene_out_of_range() {
    let mut d = doc(json!([{}]), json!([{"nodes": [0]}]));
    d["scene"] = json!(4);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "scene", index: 4, count: 1 } if at == "scene"),
        "{e:?}"
    );
    let d = doc(json!([{}]), json!([{"nodes": [0]}]));
    let e = import_with(&d, &ImportOptions::default().with_scene(Some(1))).unwrap_err();
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "scene", index: 1, count: 1 } if at == "the options"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "the options: there is no scene 1 (the file has 1)"
    );
}

#[test]
fn mesh_and_camera_out_of_range() {
    let d = with_mesh(
        doc(json!([{"mesh": 2}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "mesh", index: 2, count: 1 } if at == "nodes[0].mesh"),
        "{e:?}"
    );
    let e = error(&doc(json!([{"camera": 0}]), json!([{"nodes": [0]}])));
    assert!(
        matches!(
            &e,
            GltfError::IndexOutOfRange {
                what: "camera",
                index: 0,
                count: 0,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn accessor_out_of_range() {
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = json!(7);
    let e = error(&d);
    assert!(
        matches!(
            &e,
            GltfError::IndexOutOfRange {
                what: "accessor",
                index: 7,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("meshes[0].primitives[0]"), "{e}");
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["meshes"][0]["primitives"][0]["indices"] = json!(3);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "accessor", index: 3, .. } if at.ends_with("indices")),
        "{e:?}"
    );
}

#[test]
fn buffer_view_past_its_buffer() {
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["bufferViews"][0]["byteOffset"] = json!(4);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::OutOfBounds { at, end: 40, length: 36, .. } if at == "bufferViews[0]"),
        "{e:?}"
    );
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["bufferViews"][0]["buffer"] = json!(1);
    assert!(matches!(
        error(&d),
        GltfError::IndexOutOfRange {
            what: "buffer",
            index: 1,
            ..
        }
    ));
}

#[test]
fn accessor_past_its_view() {
    // Without min/max the data is read, and the accessor claims one more point.
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        false,
    );
    d["accessors"][0]["count"] = json!(4);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::OutOfBounds { at, end: 48, length: 36, .. } if at == "accessors[0]"),
        "{e:?}"
    );
}

#[test]
fn wrong_json_types_and_bad_json() {
    for bad in [
        json!({"asset": {"version": "2.0"}, "nodes": [{"children": "1"}]}),
        json!({"asset": {"version": "2.0"}, "nodes": [{"translation": [1, "a", 0]}]}),
        json!({"asset": {"version": "2.0"}, "scenes": {"nodes": [0]}}),
        json!({"asset": {"version": 2}}),
        json!({"nodes": []}),
    ] {
        assert!(matches!(error(&bad), GltfError::Parse(_)), "{bad}");
    }
    let e = import_slice(b"{\"asset\": ", None, &ImportOptions::default()).unwrap_err();
    assert!(matches!(e, GltfError::Parse(_)), "{e:?}");
    let e = import_slice(b"glTF\x02\0\0\0\x40\0\0\0", None, &ImportOptions::default()).unwrap_err();
    assert!(matches!(e, GltfError::Parse(_)), "{e:?}");
}

#[test]
fn bad_enum_values_and_boxes() {
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["meshes"][0]["primitives"][0]["mode"] = json!(9);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at.ends_with(".mode")),
        "{e:?}"
    );
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["accessors"][0]["min"] = json!([2, 0, 0]);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at == "accessors[0]"),
        "{e:?}"
    );
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    d["accessors"][0]["max"] = json!([1, 1]);
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at == "accessors[0].max"),
        "{e:?}"
    );
}

#[test]
fn unsupported_versions() {
    for version in ["1.0", "3.0", "two"] {
        let mut d = doc(json!([]), json!([]));
        d["asset"]["version"] = json!(version);
        assert!(
            matches!(error(&d), GltfError::UnsupportedVersion(v) if v == version),
            "{version}"
        );
    }
    // A minVersion above the 2.0 this importer implements asks for features it does
    // not know: the spec says to refuse the asset. A 2.1 asset version without a
    // minVersion is still a 2.x file.
    let mut d = doc(json!([]), json!([]));
    d["asset"]["minVersion"] = json!("2.1");
    assert!(matches!(error(&d), GltfError::UnsupportedVersion(v) if v == "2.1"));
    d["asset"]["minVersion"] = json!("2.0");
    assert!(import(&d).is_ok());
    let mut d = doc(json!([]), json!([]));
    d["asset"]["version"] = json!("2.1");
    assert!(import(&d).is_ok(), "2.1 is a 2.x version");
}

#[test]
fn bad_transforms_name_the_node() {
    let mut projective = [0.0f32; 16];
    projective[0] = 1.0;
    projective[5] = 1.0;
    projective[10] = 1.0;
    projective[3] = 0.5; // last row (column-major: element 3 of column 0)
    projective[15] = 1.0;
    let e = error(&doc(
        json!([{"children": [1]}, {"matrix": projective}]),
        json!([{"nodes": [0]}]),
    ));
    assert!(
        matches!(e, GltfError::BadTransform { node: 1, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("node 1"), "{e}");
    // Beyond f32: infinite once read.
    let e = error(&doc(
        json!([{"translation": [1e39, 0, 0]}]),
        json!([{"nodes": [0]}]),
    ));
    assert!(
        matches!(e, GltfError::BadTransform { node: 0, .. }),
        "{e:?}"
    );
    let e = error(&doc(
        json!([{"rotation": [0, 0, 0, 0]}]),
        json!([{"nodes": [0]}]),
    ));
    assert!(
        matches!(e, GltfError::BadTransform { node: 0, .. }),
        "{e:?}"
    );
}

#[test]
fn missing_or_undecodable_buffers() {
    let base = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &triangle(),
        true,
    );
    let cases = [
        json!("missing-file-scenewalk-test.bin"),
        json!("data:application/octet-stream;base64,@@@@"),
        json!("data:application/octet-stream,plain"),
        json!("https://example.invalid/a.bin"),
        Value::Null,
    ];
    for uri in cases {
        let mut d = base.clone();
        if uri.is_null() {
            d["buffers"][0].as_object_mut().unwrap().remove("uri");
        } else {
            d["buffers"][0]["uri"] = uri.clone();
        }
        let e = error(&d);
        assert!(
            matches!(&e, GltfError::Invalid { at, .. } if at == "buffers[0]"),
            "{uri}: {e:?}"
        );
        assert!(e.to_string().contains("buffers[0]"), "{e}");
    }
    // A file next to nothing: the folder is given but holds no such file.
    let mut d = base.clone();
    d["buffers"][0]["uri"] = json!("missing-file-scenewalk-test.bin");
    let bytes = serde_json::to_vec(&d).unwrap();
    let e = import_slice(
        &bytes,
        Some(&std::env::temp_dir()),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at == "buffers[0]"),
        "{e:?}"
    );
    // A device is not a buffer, even one that never ends.
    let mut d = base.clone();
    d["buffers"][0]["uri"] = json!("/dev/zero");
    let bytes = serde_json::to_vec(&d).unwrap();
    let e = import_slice(
        &bytes,
        Some(&std::env::temp_dir()),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at == "buffers[0]"),
        "{e:?}"
    );
    // Shorter than its byteLength.
    let mut d = base;
    d["buffers"][0]["uri"] = json!(data_uri(&f32_bytes([0.0; 4])));
    let e = error(&d);
    assert!(
        matches!(&e, GltfError::OutOfBounds { at, end: 36, length: 16, .. } if at == "buffers[0]"),
        "{e:?}"
    );
}
