//! Valid glTF files, ordinary and odd, imported into the graph they describe.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{data_uri, doc, f32_bytes, glb, import, import_with, with_mesh};
use scenewalk_core::Aabb;
use scenewalk_core::glam::{Mat4, Vec3};
use scenewalk_nodes::gltf::{ImportOptions, Imported, import_slice};
use scenewalk_nodes::{Geometry, Transform};
use serde_json::json;

fn points() -> Vec<[f32; 3]> {
    vec![
        [-1.0, 0.0, 2.0],
        [3.0, -4.0, 0.5],
        [0.0, 5.0, -6.0],
        [1.0, 1.0, 1.0],
    ]
}

fn expected_box() -> Aabb {
    Aabb::new(Vec3::new(-1.0, -4.0, -6.0), Vec3::new(3.0, 5.0, 2.0))
}

fn local(imported: &Imported, index: usize) -> Mat4 {
    let id = imported.node(index).unwrap().id;
    Mat4::from(*imported.graph.get::<Transform>(id).unwrap().local())
}

fn close(a: Mat4, b: [f64; 16]) -> bool {
    a.to_cols_array()
        .iter()
        .zip(b)
        .all(|(x, y)| (f64::from(*x) - y).abs() <= 1e-5 * (1.0 + y.abs()))
}

/// T × R × S in f64 from the glTF values, the quaternion normalized, written out.
fn trs(t: [f64; 3], q: [f64; 4], s: [f64; 3]) -> [f64; 16] {
    let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    let [x, y, z, w] = q.map(|c| c / n);
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + z * w),
            2.0 * (x * z - y * w),
        ],
        [
            2.0 * (x * y - z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + x * w),
        ],
        [
            2.0 * (x * z + y * w),
            2.0 * (y * z - x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    let mut m = [0.0; 16];
    for col in 0..3 {
        for row in 0..3 {
            m[col * 4 + row] = r[col][row] * s[col];
        }
    }
    m[12..15].copy_from_slice(&t);
    m[15] = 1.0;
    m
}

#[test]
fn hierarchy_order_parents_names_and_locals() {
    let matrix = [
        2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 5.0, 6.0, 7.0, 1.0,
    ];
    let d = with_mesh(
        doc(
            json!([
                {"name": "a", "children": [3, 1]},
                {"matrix": matrix, "mesh": 0},
                {"name": "root2", "translation": [1, 2, 3], "rotation": [0, 0, 2, 2], "scale": [1, -2, 0.5]},
                {"scale": [0, 0, 0], "children": [4]},
                {"mesh": 0},
            ]),
            json!([{"nodes": [2, 0]}]),
        ),
        &points(),
        true,
    );
    let imported = import(&d).unwrap();
    assert_eq!(imported.scene, Some(0));
    assert_eq!(imported.order, [2, 0, 3, 4, 1]);
    assert_eq!(
        imported.roots,
        [imported.node(2).unwrap().id, imported.node(0).unwrap().id]
    );
    let parents: Vec<_> = imported
        .order
        .iter()
        .map(|&n| imported.node(n).unwrap().parent)
        .collect();
    assert_eq!(parents, [None, None, Some(0), Some(3), Some(0)]);
    let depths: Vec<_> = imported
        .order
        .iter()
        .map(|&n| imported.node(n).unwrap().depth)
        .collect();
    assert_eq!(depths, [0, 0, 1, 2, 1]);
    assert_eq!(imported.node(0).unwrap().name.as_deref(), Some("a"));
    assert_eq!(imported.node(1).unwrap().name, None);

    // Graph links follow glTF's: primitives first, then children in order.
    let graph = &imported.graph;
    for &n in &imported.order {
        let node = imported.node(n).unwrap();
        let up = graph.parent(node.id).unwrap();
        assert_eq!(up, node.parent.map(|p| imported.node(p).unwrap().id));
        let children: Vec<_> = graph.children(node.id).unwrap().collect();
        assert_eq!(children[..node.primitives.len()], node.primitives[..]);
    }
    assert!(close(local(&imported, 1), matrix.map(f64::from)));
    let root2 = trs([1.0, 2.0, 3.0], [0.0, 0.0, 2.0, 2.0], [1.0, -2.0, 0.5]);
    assert!(close(local(&imported, 2), root2), "{}", local(&imported, 2));
    assert!(close(
        local(&imported, 3),
        trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [0.0; 3])
    ));
    for n in [1, 4] {
        let node = imported.node(n).unwrap();
        assert_eq!(node.mesh, Some(0));
        let [p] = node.primitives[..] else { panic!() };
        let g = graph.get::<Geometry>(p).unwrap();
        assert_eq!(*g.local_bounds(), expected_box());
        assert_eq!(g.primitives(), 1);
    }
    // 5 transforms and 2 primitives.
    assert_eq!(graph.len(), 7);
}

#[test]
fn scene_choice() {
    let mut d = doc(
        json!([{}, {}, {}]),
        json!([{"nodes": [0]}, {"nodes": [1, 2]}]),
    );
    let imported = import(&d).unwrap();
    assert_eq!((imported.scene, imported.order.clone()), (Some(0), vec![0]));
    d["scene"] = json!(1);
    let imported = import(&d).unwrap();
    assert_eq!(
        (imported.scene, imported.order.clone()),
        (Some(1), vec![1, 2])
    );
    assert_eq!(imported.node(0).map(|n| n.id), None);
    let imported = import_with(&d, &ImportOptions::default().with_scene(Some(0))).unwrap();
    assert_eq!((imported.scene, imported.order.clone()), (Some(0), vec![0]));
    assert_eq!(imported.graph.len(), 1);
}

#[test]
fn no_scenes_empty_scenes_and_unused_nodes() {
    let imported = import(&json!({"asset": {"version": "2.0"}, "nodes": [{}]})).unwrap();
    assert_eq!(imported.scene, None);
    assert!(imported.roots.is_empty() && imported.order.is_empty());
    assert_eq!(imported.graph.len(), 0);

    let imported = import(&doc(json!([{}]), json!([{"nodes": []}]))).unwrap();
    assert_eq!(imported.scene, Some(0));
    assert_eq!(imported.graph.len(), 0);

    // Nodes 1 and 2 (a small tree) are in no scene.
    let imported = import(&doc(
        json!([{}, {"children": [2]}, {}]),
        json!([{"nodes": [0]}]),
    ))
    .unwrap();
    assert_eq!(imported.nodes.iter().filter(|n| n.is_some()).count(), 1);
    assert_eq!(imported.graph.len(), 1);
}

#[test]
fn deep_chain_without_recursion() {
    const DEPTH: usize = 100_000;
    let nodes: Vec<_> = (0..DEPTH)
        .map(|i| {
            if i + 1 < DEPTH {
                json!({"translation": [1, 0, 0], "children": [i + 1]})
            } else {
                json!({"translation": [1, 0, 0]})
            }
        })
        .collect();
    let imported = import(&doc(json!(nodes), json!([{"nodes": [0]}]))).unwrap();
    assert_eq!(imported.order.len(), DEPTH);
    assert!(imported.order.iter().copied().eq(0..DEPTH));
    let last = imported.node(DEPTH - 1).unwrap();
    assert_eq!(last.depth as usize, DEPTH - 1);
    assert_eq!(last.parent, Some(DEPTH - 2));
    // A cycle closed at the bottom of the same chain is found, also without recursion.
    let mut nodes = nodes;
    nodes[DEPTH - 1]["children"] = json!([0]);
    let e = import(&doc(json!(nodes), json!([{"nodes": [0]}]))).unwrap_err();
    assert!(
        matches!(e, scenewalk_nodes::gltf::GltfError::Cycle { .. }),
        "{e:?}"
    );
}

#[test]
fn bounds_computed_from_the_data_when_min_max_are_absent() {
    let d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &points(),
        false,
    );
    let imported = import(&d).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    assert_eq!(
        *imported.graph.get::<Geometry>(p).unwrap().local_bounds(),
        expected_box()
    );
}

#[test]
fn strided_interleaved_positions() {
    // Each position followed by a 4-byte pad: stride 16, accessor offset 0.
    let values: Vec<f32> = points()
        .iter()
        .flat_map(|p| [p[0], p[1], p[2], 99.0])
        .collect();
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &points(),
        false,
    );
    let bytes = f32_bytes(values);
    d["buffers"] = json!([{"byteLength": bytes.len(), "uri": data_uri(&bytes)}]);
    d["bufferViews"] = json!([{"buffer": 0, "byteLength": bytes.len(), "byteStride": 16}]);
    let imported = import(&d).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    assert_eq!(
        *imported.graph.get::<Geometry>(p).unwrap().local_bounds(),
        expected_box()
    );
}

#[test]
fn primitive_modes_and_shared_meshes() {
    let mut d = with_mesh(
        doc(
            json!([{"mesh": 0}, {"mesh": 0}]),
            json!([{"nodes": [0, 1]}]),
        ),
        &points(),
        true,
    );
    d["meshes"][0]["primitives"] = json!([
        {"attributes": {"POSITION": 0}, "mode": 5},
        {"attributes": {"POSITION": 0}, "mode": 0},
        {"attributes": {}},
    ]);
    let imported = import(&d).unwrap();
    for n in [0, 1] {
        let prims = &imported.node(n).unwrap().primitives;
        let counts: Vec<_> = prims
            .iter()
            .map(|&p| imported.graph.get::<Geometry>(p).unwrap().primitives())
            .collect();
        assert_eq!(counts, [2, 0, 0]);
        let last = imported.graph.get::<Geometry>(prims[2]).unwrap();
        assert!(last.local_bounds().is_empty());
    }
}

#[test]
fn glb_with_binary_chunk() {
    let bin = f32_bytes(points().iter().flatten().copied());
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &points(),
        false,
    );
    d["buffers"] = json!([{"byteLength": bin.len()}]);
    let bytes = glb(&d, &bin);
    let imported = import_slice(&bytes, None, &ImportOptions::default()).unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    assert_eq!(
        *imported.graph.get::<Geometry>(p).unwrap().local_bounds(),
        expected_box()
    );
}

#[test]
fn external_buffer_beside_the_file() {
    let dir = std::env::temp_dir().join(format!("scenewalk-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = f32_bytes(points().iter().flatten().copied());
    std::fs::write(dir.join("my data.bin"), &bin).unwrap();
    let mut d = with_mesh(
        doc(json!([{"mesh": 0}]), json!([{"nodes": [0]}])),
        &points(),
        false,
    );
    d["buffers"] = json!([{"byteLength": bin.len(), "uri": "my%20data.bin"}]);
    let file = dir.join("scene.gltf");
    std::fs::write(&file, serde_json::to_vec(&d).unwrap()).unwrap();
    let imported = scenewalk_nodes::gltf::import(&file, &ImportOptions::default());
    std::fs::remove_dir_all(&dir).unwrap();
    let imported = imported.unwrap();
    let p = imported.node(0).unwrap().primitives[0];
    assert_eq!(
        *imported.graph.get::<Geometry>(p).unwrap().local_bounds(),
        expected_box()
    );
}

/// Pipes and devices would block or never end a read: they are refused by type.
#[cfg(unix)]
#[test]
fn pipes_and_devices_are_refused_not_read() {
    let dir = std::env::temp_dir().join(format!("scenewalk-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("buffer.bin");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo not available; skipped");
        return;
    }
    let options = scenewalk_nodes::gltf::ImportOptions::default();
    assert!(scenewalk_nodes::gltf::import(&fifo, &options).is_err());
    assert!(scenewalk_nodes::gltf::import(std::path::Path::new("/dev/zero"), &options).is_err());
    let gltf = dir.join("scene.gltf");
    let json =
        r#"{"asset": {"version": "2.0"}, "buffers": [{"byteLength": 4, "uri": "buffer.bin"}]}"#;
    std::fs::write(&gltf, json).unwrap();
    let e = scenewalk_nodes::gltf::import(&gltf, &options).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}
