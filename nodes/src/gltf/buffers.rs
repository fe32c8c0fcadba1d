//! Buffer data (GLB chunk, base64 data URIs, external files) and buffer view ranges.

use super::error::{GltfError, get};
use crate::open_regular;
use base64::Engine;
use gltf::json;
use std::io::Read;
use std::path::Path;

/// Loads every buffer's bytes, cut to its `byteLength`, and checks it holds that many
/// and that every buffer view lies inside its buffer.
pub(crate) fn load(
    root: &json::Root,
    mut blob: Option<Vec<u8>>,
    base: Option<&Path>,
) -> Result<Vec<Vec<u8>>, GltfError> {
    let mut buffers = Vec::with_capacity(root.buffers.len());
    for (b, buffer) in root.buffers.iter().enumerate() {
        let at = format!("buffers[{b}]");
        let expected = buffer.byte_length.0;
        let data = match buffer.uri.as_deref() {
            // Only the first buffer may live in the GLB binary chunk.
            None => blob
                .take()
                .filter(|_| b == 0)
                .ok_or_else(|| "it has no uri and there is no GLB binary chunk".to_owned()),
            Some(uri) if uri.starts_with("data:") => decode_data_uri(uri),
            Some(uri) => read_external(uri, base, expected),
        };
        let mut data = data.map_err(|reason| GltfError::invalid(&at, reason))?;
        if (data.len() as u64) < expected {
            return Err(GltfError::OutOfBounds {
                at,
                container: "its data".into(),
                end: expected,
                length: data.len() as u64,
            });
        }
        data.truncate(usize::try_from(expected).unwrap_or(usize::MAX));
        buffers.push(data);
    }
    for v in 0..root.buffer_views.len() {
        view_bytes(root, &buffers, v)?;
    }
    Ok(buffers)
}

/// `data:[<media type>];base64,<data>`: the only data URI form glTF uses.
fn decode_data_uri(uri: &str) -> Result<Vec<u8>, String> {
    let Some((header, data)) = uri.split_once(',') else {
        return Err("the data URI has no comma".into());
    };
    if !header.ends_with(";base64") {
        return Err("the data URI is not base64".into());
    }
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| format!("the data URI is not valid base64: {e}"))
}

/// A relative URI, percent-decoded and resolved against the glTF file's folder: the
/// first `length` bytes of a regular file.
fn read_external(uri: &str, base: Option<&Path>, length: u64) -> Result<Vec<u8>, String> {
    if uri.contains("://") {
        return Err(format!("unsupported URI scheme in {uri:?}"));
    }
    let Some(base) = base else {
        return Err(format!(
            "it refers to the file {uri:?}, but no folder was given to find it in"
        ));
    };
    let decoded = percent_encoding::percent_decode_str(uri)
        .decode_utf8()
        .map_err(|e| format!("the URI {uri:?} is not UTF-8 once decoded: {e}"))?;
    let path = base.join(decoded.as_ref());
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = open_regular(&path).map_err(cannot)?;
    let mut data = Vec::new();
    file.take(length).read_to_end(&mut data).map_err(cannot)?;
    Ok(data)
}

/// Buffer view `v` and its bytes, checked against its buffer.
pub(crate) fn view_bytes<'r, 'b>(
    root: &'r json::Root,
    buffers: &'b [Vec<u8>],
    v: usize,
) -> Result<(&'r json::buffer::View, &'b [u8]), GltfError> {
    let at = || format!("bufferViews[{v}]");
    let view = get(&root.buffer_views, v, "buffer view", at)?;
    let b = view.buffer.value();
    let data = get(buffers, b, "buffer", || format!("bufferViews[{v}].buffer"))?;
    let start = view.byte_offset.map_or(0, |o| o.0);
    let end = start.saturating_add(view.byte_length.0);
    let range = usize::try_from(start).ok().zip(usize::try_from(end).ok());
    let bytes = range.and_then(|(start, end)| data.get(start..end));
    let bytes = bytes.ok_or_else(|| GltfError::OutOfBounds {
        at: at(),
        container: format!("buffer {b}"),
        end,
        length: data.len() as u64,
    })?;
    Ok((view, bytes))
}
