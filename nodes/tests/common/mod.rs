//! Small glTF files written by the tests themselves (buffers as base64 data URIs).

#![allow(dead_code)]

pub mod animated;
pub mod data;
pub mod skinning;

use base64::Engine;
use scenewalk_nodes::gltf::{GltfError, ImportOptions, Imported, import_slice};
use serde_json::{Value, json};

/// A base64 data URI holding `bytes`.
pub fn data_uri(bytes: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:application/octet-stream;base64,{encoded}")
}

/// Little-endian bytes of floats.
pub fn f32_bytes(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// Adds mesh 0: one triangle list over `points` (min/max declared when `declare`), its
/// buffer embedded. Returns the document.
pub fn with_mesh(mut doc: Value, points: &[[f32; 3]], declare: bool) -> Value {
    let bytes = f32_bytes(points.iter().flatten().copied());
    let mut accessor = json!({
        "bufferView": 0, "componentType": 5126, "count": points.len(), "type": "VEC3"
    });
    if declare {
        let min: Vec<f32> = (0..3)
            .map(|k| points.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min))
            .collect();
        let max: Vec<f32> = (0..3)
            .map(|k| {
                points
                    .iter()
                    .map(|p| p[k])
                    .fold(f32::NEG_INFINITY, f32::max)
            })
            .collect();
        accessor["min"] = json!(min);
        accessor["max"] = json!(max);
    }
    doc["buffers"] = json!([{"byteLength": bytes.len(), "uri": data_uri(&bytes)}]);
    doc["bufferViews"] = json!([{"buffer": 0, "byteLength": bytes.len()}]);
    doc["accessors"] = json!([accessor]);
    doc["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": 0}}]}]);
    doc
}

/// A document with the given nodes and scenes.
pub fn doc(nodes: Value, scenes: Value) -> Value {
    json!({"asset": {"version": "2.0"}, "nodes": nodes, "scenes": scenes})
}

/// Imports a JSON document with default options.
pub fn import(doc: &Value) -> Result<Imported, GltfError> {
    import_with(doc, &ImportOptions::default())
}

/// Imports a JSON document.
pub fn import_with(doc: &Value, options: &ImportOptions) -> Result<Imported, GltfError> {
    let bytes = serde_json::to_vec(doc).unwrap();
    import_slice(&bytes, None, options)
}

/// A `.glb` container with this JSON and binary chunk.
pub fn glb(doc: &Value, bin: &[u8]) -> Vec<u8> {
    let mut json = serde_json::to_vec(doc).unwrap();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

/// Accessors written by a test: one embedded buffer, one view per accessor (4-byte
/// aligned), then [`Accessors::finish`] puts them into a document.
#[derive(Default)]
pub struct Accessors {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Accessors {
    /// An accessor of `count` elements of `ty` (`"SCALAR"`, `"VEC4"`, ...) over
    /// `bytes`, of GL component type `component`; returns its index.
    pub fn raw(
        &mut self,
        bytes: &[u8],
        component: u32,
        normalized: bool,
        ty: &str,
        count: usize,
    ) -> usize {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let start = self.bytes.len();
        self.bytes.extend_from_slice(bytes);
        self.views
            .push(json!({"buffer": 0, "byteOffset": start, "byteLength": bytes.len()}));
        let mut accessor = json!({
            "bufferView": self.views.len() - 1, "componentType": component, "count": count, "type": ty
        });
        if normalized {
            accessor["normalized"] = json!(true);
        }
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    /// A float accessor of `ty` with `width` numbers per element.
    pub fn floats(&mut self, values: &[f32], ty: &str, width: usize) -> usize {
        self.raw(
            &f32_bytes(values.iter().copied()),
            5126,
            false,
            ty,
            values.len() / width,
        )
    }

    /// Float key times (SCALAR) with min / max declared.
    pub fn times(&mut self, times: &[f32]) -> usize {
        let a = self.floats(times, "SCALAR", 1);
        let (min, max) = (
            times.iter().copied().fold(f32::INFINITY, f32::min),
            times.iter().copied().fold(f32::NEG_INFINITY, f32::max),
        );
        self.accessors[a]["min"] = json!([min]);
        self.accessors[a]["max"] = json!([max]);
        a
    }

    /// Gives accessor `base` sparse values: `values` (raw bytes, one element per index)
    /// at `indices` (unsigned ints). Without `keep_view`, the base has no buffer view
    /// (zeros under the sparse values).
    pub fn sparse(&mut self, base: usize, indices: &[u32], values: &[u8], keep_view: bool) {
        let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let i = self.raw(&index_bytes, 5125, false, "SCALAR", indices.len());
        let v = self.raw(values, 5126, false, "SCALAR", 1);
        let view = |a: usize| self.accessors[a]["bufferView"].clone();
        let sparse = json!({
            "count": indices.len(),
            "indices": {"bufferView": view(i), "componentType": 5125},
            "values": {"bufferView": view(v)}
        });
        self.accessors[base]["sparse"] = sparse;
        if !keep_view {
            self.accessors[base]
                .as_object_mut()
                .unwrap()
                .remove("bufferView");
        }
    }

    /// Sets the document's buffers, views and accessors.
    pub fn finish(self, doc: &mut Value) {
        doc["buffers"] = json!([{"byteLength": self.bytes.len(), "uri": data_uri(&self.bytes)}]);
        doc["bufferViews"] = json!(self.views);
        doc["accessors"] = json!(self.accessors);
    }
}
