//! An independent reading of a glTF JSON document: local matrices written out from the
//! glTF values in f64, world = naive product of the ancestors' matrices, mesh boxes
//! from the 8 transformed corners of each POSITION min/max box. Shares no code with
//! the importer or the actors.

#![allow(dead_code)]

use serde_json::Value;

pub type M = [f64; 16];

/// One node as `inspect --json` should list it.
#[derive(Debug)]
pub struct Expected {
    pub index: usize,
    pub name: Option<String>,
    pub parent: Option<usize>,
    pub depth: u32,
    pub world: M,
    pub mesh_aabb: Option<([f64; 3], [f64; 3])>,
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn array<const N: usize>(v: &Value) -> [f64; N] {
    let a = v.as_array().unwrap();
    std::array::from_fn(|i| num(&a[i]))
}

pub fn mul(a: &M, b: &M) -> M {
    let mut m = [0.0; 16];
    for col in 0..4 {
        for row in 0..4 {
            m[col * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum();
        }
    }
    m
}

pub const IDENTITY: M = [
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
];

/// The node's local matrix: its `matrix`, else T × R × S (quaternion normalized).
pub fn local(node: &Value) -> M {
    if let Some(m) = node.get("matrix") {
        return array::<16>(m);
    }
    let t = node.get("translation").map_or([0.0; 3], array::<3>);
    let q = node
        .get("rotation")
        .map_or([0.0, 0.0, 0.0, 1.0], array::<4>);
    let s = node.get("scale").map_or([1.0; 3], array::<3>);
    let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    let [x, y, z, w] = q.map(|c| c / n);
    // Columns of the rotation matrix of a unit quaternion.
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
    let mut m = IDENTITY;
    for col in 0..3 {
        for row in 0..3 {
            m[col * 4 + row] = r[col][row] * s[col];
        }
    }
    m[12..15].copy_from_slice(&t);
    m
}

fn transform_point(m: &M, p: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|row| (0..3).map(|k| m[k * 4 + row] * p[k]).sum::<f64>() + m[12 + row])
}

/// The world box of the 8 transformed corners of each primitive's POSITION box.
fn mesh_box(doc: &Value, mesh: usize, world: &M) -> Option<([f64; 3], [f64; 3])> {
    let mut out: Option<([f64; 3], [f64; 3])> = None;
    for primitive in doc["meshes"][mesh]["primitives"].as_array().unwrap() {
        let Some(a) = primitive["attributes"].get("POSITION") else {
            continue;
        };
        let accessor = &doc["accessors"][a.as_u64().unwrap() as usize];
        let (lo, hi) = (array::<3>(&accessor["min"]), array::<3>(&accessor["max"]));
        for corner in 0..8 {
            let p = std::array::from_fn(|k| if corner >> k & 1 == 0 { lo[k] } else { hi[k] });
            let w = transform_point(world, p);
            let (min, max) = out.get_or_insert((w, w));
            for k in 0..3 {
                min[k] = min[k].min(w[k]);
                max[k] = max[k].max(w[k]);
            }
        }
    }
    out
}

/// The nodes of `scene` in depth-first pre-order, each with its world matrix found by
/// walking up to the root and multiplying the locals.
pub fn expected(doc: &Value, scene: usize) -> Vec<Expected> {
    let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
    let mut parent = vec![None; nodes.len()];
    for (p, node) in nodes.iter().enumerate() {
        for c in node
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            parent[c.as_u64().unwrap() as usize] = Some(p);
        }
    }
    let roots: Vec<usize> = doc["scenes"][scene]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    let mut stack: Vec<(usize, u32)> = roots.iter().rev().map(|&r| (r, 0)).collect();
    let mut out = Vec::new();
    while let Some((n, depth)) = stack.pop() {
        let node = &nodes[n];
        let mut world = local(node);
        let mut up = parent[n];
        while let Some(p) = up {
            world = mul(&local(&nodes[p]), &world);
            up = parent[p];
        }
        let mesh_aabb = node
            .get("mesh")
            .and_then(|m| mesh_box(doc, m.as_u64().unwrap() as usize, &world));
        out.push(Expected {
            index: n,
            name: node.get("name").and_then(Value::as_str).map(str::to_owned),
            parent: parent[n],
            depth,
            world,
            mesh_aabb,
        });
        for c in node
            .get("children")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .rev()
        {
            stack.push((c.as_u64().unwrap() as usize, depth + 1));
        }
    }
    out
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-4 * (1.0 + scale)
}

/// Checks `inspect --json` output against the reference; panics naming the node.
pub fn check(json: &Value, doc: &Value, scene: usize) {
    let expected = expected(doc, scene);
    assert_eq!(json["scene"], serde_json::json!(scene));
    let nodes = json["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), expected.len());
    assert_eq!(json["node_count"], serde_json::json!(expected.len()));
    let mut world_box: Option<([f64; 3], [f64; 3])> = None;
    for (got, want) in nodes.iter().zip(&expected) {
        let at = format!("node {}", want.index);
        assert_eq!(got["index"], serde_json::json!(want.index), "{at}");
        assert_eq!(got["name"].as_str(), want.name.as_deref(), "{at}");
        assert_eq!(
            got["parent"].as_u64().map(|p| p as usize),
            want.parent,
            "{at}"
        );
        assert_eq!(got["depth"].as_u64(), Some(u64::from(want.depth)), "{at}");
        let world = array::<16>(&got["world"]);
        let size = want.world.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for k in 0..16 {
            assert!(
                close(world[k], want.world[k], size),
                "{at}: world {world:?} != {:?}",
                want.world
            );
        }
        match (&got["mesh_aabb"], want.mesh_aabb) {
            (Value::Null, None) => {}
            (b, Some((min, max))) if !b.is_null() => {
                let (gmin, gmax) = (array::<3>(&b["min"]), array::<3>(&b["max"]));
                let size = min.iter().chain(&max).fold(0.0f64, |m, v| m.max(v.abs()));
                for k in 0..3 {
                    assert!(
                        close(gmin[k], min[k], size) && close(gmax[k], max[k], size),
                        "{at}: box {b} != {min:?} {max:?}"
                    );
                }
                let (wmin, wmax) = world_box.get_or_insert((min, max));
                for k in 0..3 {
                    wmin[k] = wmin[k].min(min[k]);
                    wmax[k] = wmax[k].max(max[k]);
                }
            }
            (b, want) => panic!("{at}: mesh_aabb {b} but expected {want:?}"),
        }
    }
    let count = expected.iter().filter(|e| e.mesh_aabb.is_some()).count();
    assert_eq!(json["mesh_node_count"], serde_json::json!(count));
    match world_box {
        None => assert!(json["world_aabb"].is_null()),
        Some((min, max)) => {
            let b = &json["world_aabb"];
            let (gmin, gmax) = (array::<3>(&b["min"]), array::<3>(&b["max"]));
            let size = min.iter().chain(&max).fold(0.0f64, |m, v| m.max(v.abs()));
            for k in 0..3 {
                assert!(
                    close(gmin[k], min[k], size) && close(gmax[k], max[k], size),
                    "world_aabb {b}"
                );
            }
        }
    }
}
