//! Buffer data: the `.glb` binary chunk, base64 data URIs and external files, and the
//! checked byte ranges of buffer views.

use super::error::{GltfError, get};
use crate::open_regular;
use base64::Engine;
use gltf::json;
use std::io::Read;
use std::path::Path;

/// Loads every buffer's bytes and checks each holds at least its `byteLength`.
pub(crate) fn load(
    root: &json::Root,
    mut blob: Option<Vec<u8>>,
    base: Option<&Path>,
) -> Result<Vec<Vec<u8>>, GltfError> {
    let mut buffers = Vec::with_capacity(root.buffers.len());
    for (index, buffer) in root.buffers.iter().enumerate() {
        let bad = |reason: String| GltfError::BadBuffer {
            buffer: index,
            reason,
        };
        let data = match buffer.uri.as_deref() {
            // Only the first buffer may live in the GLB binary chunk.
            None => blob
                .take()
                .filter(|_| index == 0)
                .ok_or_else(|| bad("it has no uri and there is no GLB binary chunk".into()))?,
            Some(uri) if uri.starts_with("data:") => decode_data_uri(uri).map_err(bad)?,
            Some(uri) => read_external(uri, base, buffer.byte_length.0).map_err(bad)?,
        };
        let expected = buffer.byte_length.0;
        let actual = data.len() as u64;
        if actual < expected {
            return Err(GltfError::BufferTooShort {
                buffer: index,
                expected,
                actual,
            });
        }
        buffers.push(data);
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

/// Checks that every buffer view lies inside its buffer's `byteLength`.
pub(crate) fn check_views(root: &json::Root) -> Result<(), GltfError> {
    for v in 0..root.buffer_views.len() {
        view_range(root, v)?;
    }
    Ok(())
}

/// The checked byte range of buffer view `v` in its buffer, with the buffer's index.
fn view_range(root: &json::Root, v: usize) -> Result<(usize, u64, u64), GltfError> {
    let view = get(&root.buffer_views, v, "buffer view", || {
        format!("bufferViews[{v}]")
    })?;
    let b = view.buffer.value();
    let buffer = get(&root.buffers, b, "buffer", || {
        format!("bufferViews[{v}].buffer")
    })?;
    let start = view.byte_offset.map_or(0, |o| o.0);
    let length = view.byte_length.0;
    let end = start.saturating_add(length);
    if end > buffer.byte_length.0 {
        return Err(GltfError::OutOfBounds {
            at: format!("bufferViews[{v}]"),
            container: format!("buffer {b}"),
            end,
            length: buffer.byte_length.0,
        });
    }
    Ok((b, start, end))
}

/// The bytes of buffer view `v`, checked against its buffer.
pub(crate) fn view_bytes<'b>(
    root: &json::Root,
    buffers: &'b [Vec<u8>],
    v: usize,
) -> Result<&'b [u8], GltfError> {
    let (b, start, end) = view_range(root, v)?;
    let bytes = usize::try_from(start)
        .ok()
        .zip(usize::try_from(end).ok())
        .and_then(|(s, e)| buffers.get(b)?.get(s..e));
    bytes.ok_or_else(|| GltfError::BufferTooShort {
        buffer: b,
        expected: end,
        actual: buffers.get(b).map_or(0, |d| d.len() as u64),
    })
}
