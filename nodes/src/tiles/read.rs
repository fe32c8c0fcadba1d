//! Reading `tileset.json` (3D Tiles 1.0 and 1.1) into tile nodes.

use super::implicit::fill;
use super::{
    BoundingVolume, ImplicitTile, ImplicitTiling, MAX_AVAILABLE_LEVELS, MAX_SUBTREE_LEVELS,
    OrientedBox, Refine, Region, Scheme, Source, Sphere, Tile, TilesError, resolve_uri,
};
use scenewalk_core::glam::{DMat3, DMat4, DVec3};
use scenewalk_core::{Graph, NodeId};
use serde_json::Value;
use std::sync::Arc;

/// The largest tileset file read.
pub const MAX_TILESET_BYTES: usize = 256 << 20;
/// The most tiles one tileset file may hold.
pub const MAX_TILES_PER_FILE: usize = 4 << 20;
/// The deepest chain of external tilesets.
pub const MAX_EXTERNAL_DEPTH: usize = 64;

/// Reads the tileset file `uri` (its path relative to the root tileset's folder) from
/// `json` and adds its tiles to `graph`: as a new root when `parent` is `None`, else
/// under the tile `parent` whose content named the file (an external tileset, whose
/// transforms compose with the parent's). Nothing is added unless the whole file reads.
/// Returns the tileset's root tile.
///
/// ```
/// use scenewalk_core::Graph;
/// use scenewalk_nodes::tiles::{Refine, Tile, add_tileset};
/// let json = br#"{"asset": {"version": "1.1"}, "geometricError": 100,
///   "root": {"boundingVolume": {"sphere": [0, 0, 0, 10]}, "geometricError": 10,
///            "refine": "ADD", "content": {"uri": "a.glb"},
///            "children": [{"boundingVolume": {"sphere": [0, 0, 0, 5]},
///                          "geometricError": 0, "content": {"uri": "sub/b.glb"}}]}}"#;
/// let mut graph = Graph::new();
/// let root = add_tileset(&mut graph, None, json, "data/tileset.json")?;
/// let child = graph.first_child(root)?.unwrap();
/// let tile = graph.get::<Tile>(child)?;
/// assert_eq!(tile.refine, Refine::Add); // inherited
/// assert_eq!(tile.contents, ["data/sub/b.glb"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn add_tileset(
    graph: &mut Graph,
    parent: Option<NodeId>,
    json: &[u8],
    uri: &str,
) -> Result<NodeId, TilesError> {
    let (transform, refine, parent_source) = match parent {
        Some(p) => {
            let tile = graph.get::<Tile>(p)?;
            (tile.transform, tile.refine, Some(Arc::clone(&tile.source)))
        }
        None => (DMat4::IDENTITY, Refine::Replace, None),
    };
    if let Some(parent) = &parent_source {
        let chain = parent.chain();
        if chain.contains(&uri) {
            return Err(TilesError::Cycle {
                chain: format!("{} -> {uri}", chain.join(" -> ")),
            });
        }
        if chain.len() >= MAX_EXTERNAL_DEPTH {
            return Err(TilesError::TooLarge {
                uri: uri.to_owned(),
                what: "external tilesets nested too deep".to_owned(),
                limit: MAX_EXTERNAL_DEPTH as u64,
            });
        }
    }
    let source = Arc::new(Source {
        uri: uri.to_owned(),
        parent: parent_source,
    });
    let tiles = read_tileset(json, &source, transform, refine)?;
    // Preorder with parent positions: each parent is added before its children.
    let mut ids: Vec<NodeId> = Vec::with_capacity(tiles.len());
    for (up, tile) in tiles {
        let id = match up.and_then(|i| ids.get(i).copied()).or(parent) {
            Some(p) => graph.append_child(p, tile)?,
            None => graph.try_add_root(tile)?,
        };
        ids.push(id);
    }
    ids.first()
        .copied()
        .ok_or_else(|| TilesError::invalid(uri, "root", "no root tile"))
}

/// The tiles of one file in preorder, each with its parent's position.
type Flat = Vec<(Option<usize>, Tile)>;

fn read_tileset(
    json: &[u8],
    source: &Arc<Source>,
    transform: DMat4,
    refine: Refine,
) -> Result<Flat, TilesError> {
    let uri = source.uri.as_str();
    if json.len() > MAX_TILESET_BYTES {
        return Err(TilesError::TooLarge {
            uri: uri.to_owned(),
            what: format!("a tileset file of {} bytes", json.len()),
            limit: MAX_TILESET_BYTES as u64,
        });
    }
    let doc: Value = serde_json::from_slice(json).map_err(|source| TilesError::NotJson {
        uri: uri.to_owned(),
        source,
    })?;
    let r = Reader { uri, source };
    let asset = doc
        .get("asset")
        .ok_or_else(|| TilesError::invalid(uri, "asset", "missing"))?;
    asset
        .get("version")
        .and_then(Value::as_str)
        .ok_or_else(|| TilesError::invalid(uri, "asset.version", "missing or not a string"))?;
    r.error(&doc, "geometricError")?;
    let root = doc
        .get("root")
        .ok_or_else(|| TilesError::invalid(uri, "root", "missing"))?;
    let mut out = Vec::new();
    r.tile(root, "root".to_owned(), None, transform, refine, &mut out)?;
    Ok(out)
}

struct Reader<'a> {
    uri: &'a str,
    source: &'a Arc<Source>,
}

impl Reader<'_> {
    fn invalid(&self, at: &str, what: impl Into<String>) -> TilesError {
        TilesError::invalid(self.uri, at, what)
    }

    /// A geometric error: present, finite, not negative.
    fn error(&self, value: &Value, at: &str) -> Result<f64, TilesError> {
        let e = value
            .get("geometricError")
            .ok_or_else(|| self.invalid(at, "missing"))?
            .as_f64()
            .ok_or_else(|| self.invalid(at, "not a number"))?;
        if !e.is_finite() || e < 0.0 {
            return Err(self.invalid(at, format!("{e} is not a finite, non-negative error")));
        }
        Ok(e)
    }

    fn numbers<const N: usize>(&self, value: &Value, at: &str) -> Result<[f64; N], TilesError> {
        let list = value
            .as_array()
            .filter(|l| l.len() == N)
            .ok_or_else(|| self.invalid(at, format!("expected an array of {N} numbers")))?;
        let mut out = [0.0; N];
        for (slot, v) in out.iter_mut().zip(list) {
            *slot = v
                .as_f64()
                .filter(|f| f.is_finite())
                .ok_or_else(|| self.invalid(at, format!("{v} is not a finite number")))?;
        }
        Ok(out)
    }

    fn volume(&self, value: Option<&Value>, at: &str) -> Result<BoundingVolume, TilesError> {
        let value = value.ok_or_else(|| self.invalid(at, "missing"))?;
        let volume = if let Some(b) = value.get("box") {
            let [cx, cy, cz, ax, ay, az, bx, by, bz, zx, zy, zz] =
                self.numbers::<12>(b, &format!("{at}.box"))?;
            BoundingVolume::Box(OrientedBox {
                center: DVec3::new(cx, cy, cz),
                half_axes: DMat3::from_cols(
                    DVec3::new(ax, ay, az),
                    DVec3::new(bx, by, bz),
                    DVec3::new(zx, zy, zz),
                ),
            })
        } else if let Some(r) = value.get("region") {
            let [west, south, east, north, min_height, max_height] =
                self.numbers::<6>(r, &format!("{at}.region"))?;
            BoundingVolume::Region(Region {
                west,
                south,
                east,
                north,
                min_height,
                max_height,
            })
        } else if let Some(s) = value.get("sphere") {
            let [x, y, z, radius] = self.numbers::<4>(s, &format!("{at}.sphere"))?;
            BoundingVolume::Sphere(Sphere {
                center: DVec3::new(x, y, z),
                radius,
            })
        } else {
            return Err(self.invalid(at, "neither box, region nor sphere"));
        };
        if !volume.is_valid() {
            return Err(self.invalid(
                at,
                "negative radius, south above north or min height above max",
            ));
        }
        Ok(volume)
    }

    fn refine(&self, value: &Value, at: &str, inherited: Refine) -> Result<Refine, TilesError> {
        match value.get("refine") {
            None => Ok(inherited),
            Some(v) => match v.as_str().map(str::to_ascii_uppercase).as_deref() {
                Some("REPLACE") => Ok(Refine::Replace),
                Some("ADD") => Ok(Refine::Add),
                _ => Err(self.invalid(
                    &format!("{at}.refine"),
                    format!("{v} is neither REPLACE nor ADD"),
                )),
            },
        }
    }

    /// The content URIs as written: `content` (1.0, `url` before it) and `contents`.
    fn content_refs(&self, value: &Value, at: &str) -> Result<Vec<String>, TilesError> {
        let one = |c: &Value, at: String| -> Result<String, TilesError> {
            c.get("uri")
                .or_else(|| c.get("url"))
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| self.invalid(&at, "a content without a uri"))
        };
        let mut refs = Vec::new();
        if let Some(c) = value.get("content") {
            refs.push(one(c, format!("{at}.content"))?);
        }
        if let Some(list) = value.get("contents") {
            let list = list
                .as_array()
                .ok_or_else(|| self.invalid(&format!("{at}.contents"), "not an array"))?;
            for (i, c) in list.iter().enumerate() {
                refs.push(one(c, format!("{at}.contents[{i}]"))?);
            }
        }
        Ok(refs)
    }

    fn tile(
        &self,
        value: &Value,
        at: String,
        up: Option<usize>,
        parent_transform: DMat4,
        inherited: Refine,
        out: &mut Flat,
    ) -> Result<(), TilesError> {
        if out.len() >= MAX_TILES_PER_FILE {
            return Err(TilesError::TooLarge {
                uri: self.uri.to_owned(),
                what: "too many tiles in one file".to_owned(),
                limit: MAX_TILES_PER_FILE as u64,
            });
        }
        if !value.is_object() {
            return Err(self.invalid(&at, "a tile must be an object"));
        }
        let bounding_volume =
            self.volume(value.get("boundingVolume"), &format!("{at}.boundingVolume"))?;
        let geometric_error = self.error(value, &format!("{at}.geometricError"))?;
        let refine = self.refine(value, &at, inherited)?;
        let transform = match value.get("transform") {
            None => parent_transform,
            Some(t) => {
                let m = self.numbers::<16>(t, &format!("{at}.transform"))?;
                parent_transform * DMat4::from_cols_array(&m)
            }
        };
        let mut contents = Vec::new();
        let mut external = None;
        let implicit_value = value.get("implicitTiling");
        for reference in self.content_refs(value, &at)? {
            if implicit_value.is_some() {
                // A template: resolved per tile.
                contents.push(reference);
                continue;
            }
            let resolved = resolve_uri(self.uri, &reference)?;
            let path = resolved.split(['?', '#']).next().unwrap_or_default();
            if path.to_ascii_lowercase().ends_with(".json") {
                if external.replace(resolved).is_some() {
                    return Err(self.invalid(&at, "more than one external tileset in one tile"));
                }
            } else {
                contents.push(resolved);
            }
        }
        let implicit = match implicit_value {
            None => None,
            Some(tiling) => {
                let tiling = self.tiling(
                    tiling,
                    &format!("{at}.implicitTiling"),
                    std::mem::take(&mut contents),
                    bounding_volume,
                    transform,
                    geometric_error,
                    refine,
                )?;
                Some(ImplicitTile {
                    tiling: Arc::new(tiling),
                    level: 0,
                    x: 0,
                    y: 0,
                    z: 0,
                    subtree: None,
                })
            }
        };
        let children = value.get("children");
        if implicit.is_some()
            && children.is_some_and(|c| c.as_array().is_some_and(|a| !a.is_empty()))
        {
            return Err(self.invalid(&at, "an implicit tile may not have explicit children"));
        }
        let here = out.len();
        out.push((
            up,
            Tile {
                bounding_volume,
                volume: bounding_volume.place(&transform),
                geometric_error,
                refine,
                transform,
                contents,
                external,
                implicit,
                source: Arc::clone(self.source),
            },
        ));
        if let Some(children) = children {
            let list = children
                .as_array()
                .ok_or_else(|| self.invalid(&format!("{at}.children"), "not an array"))?;
            for (i, child) in list.iter().enumerate() {
                self.tile(
                    child,
                    format!("{at}.children[{i}]"),
                    Some(here),
                    transform,
                    refine,
                    out,
                )?;
            }
        }
        Ok(())
    }

    #[allow(
        clippy::too_many_arguments,
        reason = "the root tile's parts the tiling keeps"
    )]
    fn tiling(
        &self,
        value: &Value,
        at: &str,
        contents: Vec<String>,
        root_volume: BoundingVolume,
        transform: DMat4,
        root_error: f64,
        refine: Refine,
    ) -> Result<ImplicitTiling, TilesError> {
        let scheme = match value.get("subdivisionScheme").and_then(Value::as_str) {
            Some("QUADTREE") => Scheme::Quadtree,
            Some("OCTREE") => Scheme::Octree,
            _ => {
                return Err(self.invalid(
                    &format!("{at}.subdivisionScheme"),
                    "neither QUADTREE nor OCTREE",
                ));
            }
        };
        let levels = |key: &str, max: u32| -> Result<u32, TilesError> {
            value
                .get(key)
                .and_then(Value::as_u64)
                .filter(|&v| v >= 1 && v <= u64::from(max))
                .map(|v| v as u32)
                .ok_or_else(|| {
                    self.invalid(
                        &format!("{at}.{key}"),
                        format!("missing or not in 1..={max}"),
                    )
                })
        };
        let subtree_levels = levels("subtreeLevels", MAX_SUBTREE_LEVELS)?;
        let available_levels = levels("availableLevels", MAX_AVAILABLE_LEVELS)?;
        let subtrees = value
            .get("subtrees")
            .and_then(|s| s.get("uri"))
            .and_then(Value::as_str)
            .ok_or_else(|| self.invalid(&format!("{at}.subtrees.uri"), "missing"))?
            .to_owned();
        if matches!(root_volume, BoundingVolume::Sphere(_)) {
            return Err(self.invalid(
                at,
                "an implicit tiling needs a box or a region, not a sphere",
            ));
        }
        // Check the templates resolve inside the folder (with sample coordinates).
        for t in contents.iter().chain([&subtrees]) {
            resolve_uri(self.uri, &fill(t, 0, 0, 0, 0))?;
        }
        Ok(ImplicitTiling {
            scheme,
            subtree_levels,
            available_levels,
            subtrees,
            contents,
            root_volume,
            transform,
            root_error,
            refine,
            source: Arc::clone(self.source),
        })
    }
}
