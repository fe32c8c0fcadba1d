//! The glTF inside a tile content, for the glTF importer.

use super::TilesError;

/// The little-endian unsigned integer of `len` bytes (at most 8) at `at` in `bytes`, if
/// they hold it.
pub(crate) fn word(bytes: &[u8], at: usize, len: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(len)?)?;
    (len <= 8).then(|| b.iter().rev().fold(0, |v, &b| (v << 8) | u64::from(b)))
}

/// The binary glTF (GLB) a tile content holds: a `.glb` itself, or the one embedded
/// in a batched (`b3dm`) or instanced (`i3dm`) model after its feature and batch
/// tables; read it with [`gltf::import_slice`](crate::gltf::import_slice) (feature
/// `gltf`). A point cloud (`pnts`), an instanced model that names its glTF by URI, an
/// unknown format or lengths that do not fit the bytes are errors.
///
/// ```
/// use scenewalk_nodes::tiles::content_glb;
/// let mut b3dm = b"b3dm".to_vec();
/// for word in [1u32, 28 + 4, 0, 0, 0, 0] {
///     b3dm.extend(word.to_le_bytes());
/// }
/// b3dm.extend(b"glTF");
/// assert_eq!(content_glb(&b3dm, "a.b3dm")?, b"glTF");
/// assert!(content_glb(&b3dm[..30], "a.b3dm").is_err());
/// # Ok::<(), scenewalk_nodes::tiles::TilesError>(())
/// ```
pub fn content_glb<'a>(bytes: &'a [u8], uri: &str) -> Result<&'a [u8], TilesError> {
    let bad = |what: &str| TilesError::invalid(uri, "content", what);
    let (header, tables_at): (usize, usize) = match bytes.get(..4) {
        Some(b"glTF") => return Ok(bytes),
        Some(b"b3dm") => (28, 12),
        Some(b"i3dm") => (32, 12),
        Some(b"pnts") => return Err(bad("a point cloud (pnts) holds no glTF")),
        _ => return Err(bad("neither glb, b3dm nor i3dm")),
    };
    let cut = || bad("cut short: its header's lengths pass its end");
    let word = |at: usize| usize::try_from(word(bytes, at, 4)?).ok();
    let total = word(8).ok_or_else(cut)?;
    if header == 32 && word(28).ok_or_else(cut)? != 1 {
        return Err(bad("the instanced model names its glTF by URI"));
    }
    let mut start = header;
    for i in 0..4 {
        start = start
            .checked_add(word(tables_at + 4 * i).ok_or_else(cut)?)
            .ok_or_else(cut)?;
    }
    let end = total.min(bytes.len());
    if total > bytes.len() {
        return Err(cut());
    }
    bytes
        .get(start..end)
        .filter(|g| !g.is_empty())
        .ok_or_else(cut)
}
