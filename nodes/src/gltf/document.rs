//! Bytes → the JSON document, lenient where the gltf crate is strict: its animation
//! target needs a `node`, which a `KHR_animation_pointer` channel does not have.
//!
//! Such a channel is rewritten before the document is typed: a pointer to a node's
//! `translation`, `rotation`, `scale` or `weights` becomes the plain channel it means
//! (and plays, or is reported as a plain `weights` channel is); any other pointer is
//! set aside as [`Unplayed::Pointer`] and its target replaced by a placeholder the
//! animation reader skips.

use super::animation::{Unplayed, UnplayedChannel};
use super::error::GltfError;
use gltf::json;
use gltf::json::Value;

/// The glTF extension whose channels are rewritten here.
const POINTER: &str = "KHR_animation_pointer";

/// The typed document, the GLB binary chunk, and the channels set aside (by
/// animation, then channel).
pub(crate) struct Document {
    pub(crate) root: json::Root,
    pub(crate) blob: Option<Vec<u8>>,
    pub(crate) set_aside: Vec<UnplayedChannel>,
}

/// Reads a `.gltf`'s JSON or a `.glb` container.
pub(crate) fn read(bytes: &[u8]) -> Result<Document, GltfError> {
    let parse = |e: &dyn std::fmt::Display| GltfError::Parse(e.to_string());
    let (text, blob) = match bytes.starts_with(b"glTF") {
        true => {
            let glb = gltf::Glb::from_slice(bytes).map_err(|e| parse(&e))?;
            (glb.json.into_owned(), glb.bin.map(|b| b.into_owned()))
        }
        false => (bytes.to_vec(), None),
    };
    let mut value: Value = json::deserialize::from_slice(&text).map_err(|e| parse(&e))?;
    let set_aside = rewrite_pointers(&mut value);
    let root = json::deserialize::from_value::<json::Root>(value).map_err(|e| {
        // The same error read from the text names its line and column.
        match json::deserialize::from_slice::<json::Root>(&text) {
            Err(positioned) if set_aside.is_empty() => parse(&positioned),
            _ => parse(&e),
        }
    })?;
    Ok(Document {
        root,
        blob,
        set_aside,
    })
}

/// Rewrites every `KHR_animation_pointer` channel's target as the module says;
/// returns the channels set aside.
fn rewrite_pointers(doc: &mut Value) -> Vec<UnplayedChannel> {
    let mut set_aside = Vec::new();
    let Some(animations) = doc.get_mut("animations").and_then(Value::as_array_mut) else {
        return set_aside;
    };
    for (a, animation) in animations.iter_mut().enumerate() {
        let channels = animation.get_mut("channels").and_then(Value::as_array_mut);
        for (c, channel) in channels.into_iter().flatten().enumerate() {
            let Some(target) = channel.get_mut("target") else {
                continue;
            };
            if target.get("path").and_then(Value::as_str) != Some("pointer") {
                continue;
            }
            let pointer = (target.get("extensions"))
                .and_then(|e| e.get(POINTER))
                .and_then(|p| p.get("pointer"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            *target = match node_property(&pointer) {
                Some((node, path)) => plain_target(node, path),
                None => {
                    let reason = Unplayed::Pointer { pointer };
                    set_aside.push(UnplayedChannel {
                        animation: a,
                        channel: c,
                        reason,
                    });
                    plain_target(0, "translation")
                }
            };
        }
    }
    set_aside
}

/// `/nodes/N/translation` (rotation, scale, weights) as (N, the property).
fn node_property(pointer: &str) -> Option<(u32, &str)> {
    let rest = pointer.strip_prefix("/nodes/")?;
    let (node, property) = rest.split_once('/')?;
    let node = node
        .parse()
        .ok()
        .filter(|_| node.bytes().all(|b| b.is_ascii_digit()))?;
    let known = ["translation", "rotation", "scale", "weights"];
    known.contains(&property).then_some((node, property))
}

/// `{"node": node, "path": path}`.
fn plain_target(node: u32, path: &str) -> Value {
    serde_json::json!({ "node": node, "path": path })
}
