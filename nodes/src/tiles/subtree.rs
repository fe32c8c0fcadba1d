//! Subtree files: which tiles, contents and child subtrees of one subtree exist.

use super::{Scheme, TilesError};
use serde_json::Value;

/// Whether each tile (or content, or child subtree) of a subtree exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Availability {
    /// All or none.
    Constant(bool),
    /// One bit per entry, in Morton order, least significant bit first.
    Bits(Vec<u8>),
}

impl Availability {
    /// Whether entry `i` is available.
    pub fn get(&self, i: u64) -> bool {
        match self {
            Availability::Constant(b) => *b,
            Availability::Bits(bits) => usize::try_from(i / 8)
                .ok()
                .and_then(|byte| bits.get(byte))
                .is_some_and(|b| (b >> (i % 8)) & 1 == 1),
        }
    }
}

/// A parsed subtree file (binary `.subtree` or JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtree {
    /// Tiles of the subtree's levels, level by level.
    pub tiles: Availability,
    /// Per content of the tiling, which tiles have it.
    pub contents: Vec<Availability>,
    /// Which subtrees below the last level exist.
    pub child_subtrees: Availability,
    /// The file's size, for the memory budget.
    pub byte_length: usize,
}

/// The largest subtree file read (its bitstreams are copied out of it).
pub const MAX_SUBTREE_BYTES: usize = 64 << 20;

const HEADER: usize = 24;

impl Subtree {
    /// Reads a subtree of `levels` levels of `scheme` from `bytes` (the file `uri`):
    /// every length is checked against the file before anything is copied, so a cut
    /// file or a bitstream shorter than its tiles is an error, never a short read.
    pub fn parse(
        bytes: &[u8],
        uri: &str,
        scheme: Scheme,
        levels: u32,
    ) -> Result<Subtree, TilesError> {
        let bad = |what: String| TilesError::subtree(uri, what);
        if bytes.len() > MAX_SUBTREE_BYTES {
            return Err(TilesError::TooLarge {
                uri: uri.to_owned(),
                what: format!("a subtree file of {} bytes", bytes.len()),
                limit: MAX_SUBTREE_BYTES as u64,
            });
        }
        let (json, binary) = if bytes.starts_with(b"subt") {
            let word = |at: usize, len: usize| {
                let cut = || bad(format!("cut short in the {HEADER}-byte header"));
                super::content::word(bytes, at, len).ok_or_else(cut)
            };
            let version = word(4, 4)?;
            if version != 1 {
                return Err(bad(format!("version {version}, expected 1")));
            }
            let json_len = usize::try_from(word(8, 8)?).unwrap_or(usize::MAX);
            let bin_len = usize::try_from(word(16, 8)?).unwrap_or(usize::MAX);
            let json_end = HEADER.saturating_add(json_len);
            let bin_end = json_end.saturating_add(bin_len);
            if bin_end > bytes.len() {
                return Err(bad(format!(
                    "truncated: the header declares {bin_end} bytes, the file has {}",
                    bytes.len()
                )));
            }
            (
                bytes.get(HEADER..json_end).unwrap_or_default(),
                bytes.get(json_end..bin_end).unwrap_or_default(),
            )
        } else {
            (bytes, &[][..])
        };
        let doc: Value = serde_json::from_slice(json).map_err(|source| TilesError::NotJson {
            uri: uri.to_owned(),
            source,
        })?;
        let tiles_bits = scheme
            .tiles_in(levels)
            .ok_or_else(|| bad(format!("{levels} levels overflow the tile count")))?;
        let child_bits = scheme
            .branching()
            .checked_pow(levels)
            .ok_or_else(|| bad(format!("{levels} levels overflow the child count")))?;
        let reader = Reader {
            doc: &doc,
            binary,
            uri,
        };
        let tiles =
            reader.availability(doc.get("tileAvailability"), "tileAvailability", tiles_bits)?;
        let contents = match doc.get("contentAvailability") {
            None => Vec::new(),
            Some(Value::Array(list)) => list
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    reader.availability(Some(a), &format!("contentAvailability[{i}]"), tiles_bits)
                })
                .collect::<Result<_, _>>()?,
            Some(one) => vec![reader.availability(Some(one), "contentAvailability", tiles_bits)?],
        };
        let child_subtrees = reader.availability(
            doc.get("childSubtreeAvailability"),
            "childSubtreeAvailability",
            child_bits,
        )?;
        Ok(Subtree {
            tiles,
            contents,
            child_subtrees,
            byte_length: bytes.len(),
        })
    }
}

struct Reader<'a> {
    doc: &'a Value,
    binary: &'a [u8],
    uri: &'a str,
}

impl Reader<'_> {
    fn bad(&self, what: String) -> TilesError {
        TilesError::subtree(self.uri, what)
    }

    fn index(&self, value: Option<&Value>, what: &str) -> Result<usize, TilesError> {
        value
            .and_then(Value::as_u64)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| self.bad(format!("{what} is missing or not a whole number")))
    }

    fn availability(
        &self,
        value: Option<&Value>,
        at: &str,
        bits: u64,
    ) -> Result<Availability, TilesError> {
        let value = value.ok_or_else(|| self.bad(format!("{at} is missing")))?;
        if let Some(c) = value.get("constant") {
            return match c.as_u64() {
                Some(0) => Ok(Availability::Constant(false)),
                Some(1) => Ok(Availability::Constant(true)),
                _ => Err(self.bad(format!("{at}.constant must be 0 or 1"))),
            };
        }
        let view_index = self.index(
            value.get("bitstream").or_else(|| value.get("bufferView")),
            &format!("{at}.bitstream"),
        )?;
        let view = self
            .doc
            .get("bufferViews")
            .and_then(|v| v.get(view_index))
            .ok_or_else(|| self.bad(format!("{at}: no bufferView {view_index}")))?;
        let buffer_index = self.index(view.get("buffer"), "bufferView.buffer")?;
        let buffer = self
            .doc
            .get("buffers")
            .and_then(|b| b.get(buffer_index))
            .ok_or_else(|| self.bad(format!("{at}: no buffer {buffer_index}")))?;
        if buffer.get("uri").is_some() {
            return Err(self.bad(format!(
                "{at}: buffer {buffer_index} is an external file, which is not supported"
            )));
        }
        if buffer_index != 0 {
            return Err(self.bad(format!(
                "{at}: buffer {buffer_index} is not the binary chunk"
            )));
        }
        let buffer_len = self.index(buffer.get("byteLength"), "buffer.byteLength")?;
        let offset = match view.get("byteOffset") {
            None => 0,
            some => self.index(some, "bufferView.byteOffset")?,
        };
        let length = self.index(view.get("byteLength"), "bufferView.byteLength")?;
        let end = offset.saturating_add(length);
        if buffer_len > self.binary.len() {
            return Err(self.bad(format!(
                "truncated: buffer {buffer_index} declares {buffer_len} bytes, the binary chunk holds {}",
                self.binary.len()
            )));
        }
        if end > buffer_len {
            return Err(self.bad(format!(
                "{at}: bufferView {view_index} ends at {end}, past its buffer's {buffer_len} bytes"
            )));
        }
        let needed = bits.div_ceil(8);
        if (length as u64) < needed {
            return Err(self.bad(format!(
                "{at}: the bitstream holds {length} bytes, {bits} entries need {needed}"
            )));
        }
        let needed = usize::try_from(needed).unwrap_or(usize::MAX);
        let bytes = self
            .binary
            .get(offset..offset.saturating_add(needed))
            .ok_or_else(|| self.bad(format!("{at}: bitstream out of the binary chunk")))?;
        Ok(Availability::Bits(bytes.to_vec()))
    }
}
