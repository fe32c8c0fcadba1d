//! Primitives become Mesh nodes with the file's triangles; cameras become Camera nodes.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{data_uri, doc, import, with_mesh};
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_nodes::gltf::GltfError;
use scenewalk_nodes::{Camera, Geometry, Mesh, Projection};
use serde_json::{Value, json};

fn square() -> Vec<[f32; 3]> {
    vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ]
}

/// Mesh 0 over `square()` with `indices` as an unsigned-short accessor (index 1).
fn indexed(indices: &[u16], mode: u32) -> Value {
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &square(),
        true,
    );
    let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
    d["buffers"]
        .as_array_mut()
        .unwrap()
        .push(json!({"byteLength": bytes.len(), "uri": data_uri(&bytes)}));
    d["bufferViews"]
        .as_array_mut()
        .unwrap()
        .push(json!({"buffer": 1, "byteLength": bytes.len()}));
    d["accessors"].as_array_mut().unwrap().push(json!({
        "bufferView": 1, "componentType": 5123, "count": indices.len(), "type": "SCALAR"
    }));
    d["meshes"][0]["primitives"][0]["indices"] = json!(1);
    d["meshes"][0]["primitives"][0]["mode"] = json!(mode);
    d
}

fn mesh_of(d: &Value) -> Mesh {
    let imported = import(d).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    imported.graph.get::<Mesh>(p).unwrap().clone()
}

#[test]
fn triangle_lists_strips_and_fans() {
    let list = mesh_of(&indexed(&[0, 1, 2, 0, 2, 3], 4));
    assert_eq!(list.triangles(), [[0, 1, 2], [0, 2, 3]]);
    let positions: Vec<Vec3> = square().into_iter().map(Vec3::from_array).collect();
    assert_eq!(list.positions(), positions);
    // A strip flips every second triangle so all keep the same winding.
    let strip = mesh_of(&indexed(&[0, 1, 3, 2], 5));
    assert_eq!(strip.triangles(), [[0, 1, 3], [3, 1, 2]]);
    let fan = mesh_of(&indexed(&[0, 1, 2, 3], 6));
    assert_eq!(fan.triangles(), [[0, 1, 2], [0, 2, 3]]);
    assert_eq!(fan.triangles().len(), 2);
    // Without indices, vertices are taken in order.
    let plain = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &square(),
        false,
    );
    assert_eq!(mesh_of(&plain).triangles(), [[0, 1, 2]]);
}

#[test]
fn declared_bounds_widen_the_mesh_box() {
    let mut d = indexed(&[0, 1, 2], 4);
    d["accessors"][0]["max"] = json!([5, 1, 2]);
    let imported = import(&d).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    let b = *imported.graph.get::<Geometry>(p).unwrap().local_bounds();
    assert_eq!(b, Aabb::new(Vec3::ZERO, Vec3::new(5.0, 1.0, 2.0)));
}

#[test]
fn points_and_lines_stay_geometry() {
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &square(),
        true,
    );
    d["meshes"][0]["primitives"][0]["mode"] = json!(1);
    let imported = import(&d).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    assert!(imported.graph.get::<Mesh>(p).is_err());
    let g = imported.graph.get::<Geometry>(p).unwrap();
    assert_eq!(
        *g.local_bounds(),
        Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0))
    );
    assert_eq!(g.primitives(), 0);
}

#[test]
fn bad_indices_name_the_primitive_or_accessor() {
    let e = import(&indexed(&[0, 1, 9], 4)).unwrap_err();
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at == "meshes[0].primitives[0]"),
        "{e:?}"
    );
    let mut d = indexed(&[0, 1, 2], 4);
    d["accessors"][1]["count"] = json!(4);
    let e = import(&d).unwrap_err();
    assert!(
        matches!(&e, GltfError::OutOfBounds { at, .. } if at == "accessors[1]"),
        "{e:?}"
    );
    let mut d = indexed(&[0, 1, 2], 4);
    d["accessors"][1]["componentType"] = json!(5126);
    let e = import(&d).unwrap_err();
    assert!(
        matches!(&e, GltfError::Invalid { at, .. } if at == "accessors[1]"),
        "{e:?}"
    );
}

#[test]
fn cameras() {
    let mut d = doc(
        json!([{"camera": 1, "children": [1]}, {"camera": 0}]),
        json!([{"nodes": [0]}]),
    );
    d["cameras"] = json!([
        {"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1, "aspectRatio": 1.5}},
        {"type": "orthographic", "orthographic": {"xmag": 2, "ymag": 1, "znear": 0, "zfar": 10}}
    ]);
    let imported = import(&d).unwrap();
    let camera = |n: usize| {
        let c = imported.node(n).unwrap().camera.unwrap();
        assert_eq!(
            imported.graph.parent(c).unwrap(),
            imported.node(n).map(|n| n.id)
        );
        *imported.graph.get::<Camera>(c).unwrap().projection()
    };
    assert_eq!(
        camera(0),
        Projection::Orthographic {
            xmag: 2.0,
            ymag: 1.0,
            near: 0.0,
            far: 10.0
        }
    );
    assert_eq!(
        camera(1),
        Projection::Perspective {
            yfov: 0.8,
            aspect: Some(1.5),
            near: 0.1,
            far: None
        }
    );

    for bad in [
        json!({"type": "perspective", "perspective": {"yfov": 0, "znear": 0.1}}),
        json!({"type": "perspective", "orthographic": {"xmag": 1, "ymag": 1, "znear": 0, "zfar": 1}}),
        json!({"type": "fisheye"}),
        json!({"type": "orthographic", "orthographic": {"xmag": 1, "ymag": 1, "znear": 2, "zfar": 1}}),
    ] {
        let mut d = doc(json!([{}, {"camera": 1}]), json!([{"nodes": [1]}]));
        d["cameras"] =
            json!([{"type": "perspective", "perspective": {"yfov": 1, "znear": 1}}, bad]);
        let e = import(&d).unwrap_err();
        assert!(
            matches!(&e, GltfError::Invalid { at, .. } if at == "cameras[1]"),
            "{e:?}"
        );
        assert!(e.to_string().contains("cameras[1]"), "{e}");
    }
}

#[test]
fn quantized_positions_keep_their_declared_box() {
    // Normalized shorts (KHR_mesh_quantization): min / max are stored integers.
    let shorts: Vec<u8> = [0i16, 0, 0, 32767, -32767, 16384, 0, 0, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut d = doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}]));
    d["extensionsUsed"] = json!(["KHR_mesh_quantization"]);
    d["buffers"] = json!([{"byteLength": 20, "uri": data_uri(&[shorts, vec![0, 0]].concat())}]);
    d["bufferViews"] = json!([{"buffer": 0, "byteLength": 20, "byteStride": 8}]);
    d["accessors"] = json!([{
        "bufferView": 0, "componentType": 5122, "normalized": true, "count": 2, "type": "VEC3",
        "min": [0, -32767, 0], "max": [32767, 0, 16384]
    }]);
    d["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": 0}, "mode": 0}]}]);
    let imported = import(&d).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    let b = *imported.graph.get::<Geometry>(p).unwrap().local_bounds();
    assert_eq!(
        b,
        Aabb::new(
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(1.0, 0.0, 16384.0 / 32767.0)
        )
    );
}

#[test]
fn meshes_naming_the_same_accessors_share_one_decoded_mesh() {
    // One triangle, named by three meshes used by three nodes.
    let positions: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &positions)
    );
    let primitive = serde_json::json!({"attributes": {"POSITION": 0}});
    let d = serde_json::json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": [{"mesh": 0}, {"mesh": 1}, {"mesh": 2}],
        "meshes": [{"primitives": [primitive]}, {"primitives": [primitive]}, {"primitives": [primitive]}],
        "buffers": [{"byteLength": 36, "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}]
    });
    let bytes = serde_json::to_vec(&d).unwrap();
    let imported = scenewalk_nodes::gltf::import_slice(&bytes, None, &Default::default()).unwrap();
    let meshes: Vec<&Mesh> = (0..3)
        .map(|i| {
            let node = imported.node(i).unwrap();
            imported.graph.get::<Mesh>(node.primitives[0]).unwrap()
        })
        .collect();
    assert!(meshes[0].shares_data(meshes[1]) && meshes[1].shares_data(meshes[2]));
}
