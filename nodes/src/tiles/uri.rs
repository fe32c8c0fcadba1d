//! Content URIs: resolved against the file that names them, never leaving the folder
//! of the root tileset.

use super::TilesError;

/// Resolves `reference`, as written in the file `base` (a path relative to the root
/// tileset's folder), to a path relative to that folder: `.` and `..` segments are
/// folded, a query or fragment is kept. A reference that climbs above the folder, is
/// absolute (`/x`, `C:\x`, `http://…`, `data:`) or holds a backslash or an encoded dot
/// segment is refused ([`TilesError::Escapes`]).
///
/// ```
/// use scenewalk_nodes::tiles::resolve_uri;
/// assert_eq!(resolve_uri("city/tileset.json", "./ll.b3dm")?, "city/ll.b3dm");
/// assert_eq!(resolve_uri("a/b/tileset.json", "../c.glb?v=2")?, "a/c.glb?v=2");
/// assert!(resolve_uri("tileset.json", "../secret").is_err());
/// # Ok::<(), scenewalk_nodes::tiles::TilesError>(())
/// ```
pub fn resolve_uri(base: &str, reference: &str) -> Result<String, TilesError> {
    let escapes = || TilesError::Escapes {
        uri: base.to_owned(),
        reference: reference.to_owned(),
    };
    let split = reference.find(['?', '#']).unwrap_or(reference.len());
    let (path, rest) = reference.split_at(split);
    if path.is_empty() || path.starts_with('/') || path.contains('\\') || path.contains(':') {
        return Err(escapes());
    }
    let folder = base.rfind('/').map_or("", |i| base.get(..i).unwrap_or(""));
    let mut segments: Vec<&str> = folder.split('/').filter(|s| !s.is_empty()).collect();
    for segment in path.split('/') {
        let lower = segment.to_ascii_lowercase();
        match lower.as_str() {
            "" | "." | "%2e" => {}
            ".." | "%2e%2e" | ".%2e" | "%2e." => {
                if segments.pop().is_none() {
                    return Err(escapes());
                }
            }
            _ => segments.push(segment),
        }
    }
    if segments.is_empty() {
        return Err(escapes());
    }
    Ok(segments.join("/") + rest)
}
