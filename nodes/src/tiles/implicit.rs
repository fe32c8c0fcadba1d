//! Implicit tiling: quadtrees and octrees whose tiles are named by (level, x, y, z) and
//! whose existence is read from subtree files, expanded only when a traversal reaches
//! them.

use super::subtree::Subtree;
use super::{BoundingVolume, OrientedBox, Refine, Region, Source, Tile, TilesError, resolve_uri};
use scenewalk_core::glam::DMat4;
use scenewalk_core::{Graph, NodeId};
use std::sync::Arc;

/// The most levels a subtree may span (a subtree's Morton indices fit 64 bits).
pub const MAX_SUBTREE_LEVELS: u32 = 20;
/// The most levels an implicit tiling may declare (coordinates fit 32 bits).
pub const MAX_AVAILABLE_LEVELS: u32 = 31;

/// How a tile divides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// Into four, along x and y (or longitude and latitude).
    Quadtree,
    /// Into eight, along all three axes.
    Octree,
}

impl Scheme {
    /// Children per tile.
    pub fn branching(self) -> u64 {
        match self {
            Scheme::Quadtree => 4,
            Scheme::Octree => 8,
        }
    }

    /// Tiles in `levels` levels of a subtree: (N^levels − 1) / (N − 1).
    pub(crate) fn tiles_in(self, levels: u32) -> Option<u64> {
        let n = self.branching();
        Some((n.checked_pow(levels)? - 1) / (n - 1))
    }

    /// The Morton index of local coordinates: bit `b` of axis `a` (x, y, z) at bit
    /// `b · dims + a`, up to bit 63.
    pub(crate) fn morton(self, x: u32, y: u32, z: u32) -> u64 {
        let dims = match self {
            Scheme::Quadtree => 2,
            Scheme::Octree => 3,
        };
        let mut m = 0u64;
        for bit in 0..32u32 {
            for (axis, c) in [x, y, z].into_iter().take(dims).enumerate() {
                let shift = bit as usize * dims + axis;
                if shift < 64 {
                    m |= u64::from((c >> bit) & 1) << shift;
                }
            }
        }
        m
    }
}

/// The implicit tiling of one tile of a tileset, shared by every tile it makes.
#[derive(Debug)]
pub struct ImplicitTiling {
    /// Quadtree or octree.
    pub scheme: Scheme,
    /// Levels per subtree file.
    pub subtree_levels: u32,
    /// Levels in the whole tiling.
    pub available_levels: u32,
    /// The subtree URI template (`subtrees/{level}.{x}.{y}.subtree`).
    pub subtrees: String,
    /// The content URI templates.
    pub contents: Vec<String>,
    /// The root's bounding volume (a box or a region), in the root's frame.
    pub root_volume: BoundingVolume,
    /// The root's world transform (every tile of the tiling shares it).
    pub transform: DMat4,
    /// The root's geometric error; level `l` has `root_error / 2^l`.
    pub root_error: f64,
    /// REPLACE or ADD, for every tile.
    pub refine: Refine,
    /// The tileset file that declares the tiling (URIs resolve against it).
    pub source: Arc<Source>,
}

/// Where a tile lies in an implicit tiling, and the subtree it belongs to (`None` for
/// the root of a subtree whose file is not loaded yet: its contents and children are
/// unknown until it is).
#[derive(Clone, Debug)]
pub struct ImplicitTile {
    /// The tiling.
    pub tiling: Arc<ImplicitTiling>,
    /// Level (0 at the root).
    pub level: u32,
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
    /// Layer (0 in a quadtree).
    pub z: u32,
    /// The subtree holding this tile's availability, once loaded.
    pub subtree: Option<Arc<Subtree>>,
}

/// `template` with its `{level}`, `{x}`, `{y}` and `{z}` filled in.
pub(super) fn fill(template: &str, level: u32, x: u32, y: u32, z: u32) -> String {
    template
        .replace("{level}", &level.to_string())
        .replace("{x}", &x.to_string())
        .replace("{y}", &y.to_string())
        .replace("{z}", &z.to_string())
}

impl ImplicitTiling {
    /// The bounding volume of tile `(level, x, y, z)` in the root's frame.
    pub fn volume(&self, level: u32, x: u32, y: u32, z: u32) -> BoundingVolume {
        let n = 2f64.powi(level.min(1023) as i32);
        let octree = self.scheme == Scheme::Octree;
        let part = |i: u32| (f64::from(i), f64::from(i) + 1.0);
        match self.root_volume {
            BoundingVolume::Box(b) => {
                let offset = |i: u32| (2.0 * f64::from(i) + 1.0) / n - 1.0;
                let (a, bb, c) = (b.half_axes.x_axis, b.half_axes.y_axis, b.half_axes.z_axis);
                let (oz, cz) = if octree { (offset(z), c / n) } else { (0.0, c) };
                BoundingVolume::Box(OrientedBox {
                    center: b.center + a * offset(x) + bb * offset(y) + c * oz,
                    half_axes: scenewalk_core::glam::DMat3::from_cols(a / n, bb / n, cz),
                })
            }
            BoundingVolume::Region(r) => {
                let (x0, x1) = part(x);
                let (y0, y1) = part(y);
                let width = r.width();
                let wrap = |lon: f64| {
                    if lon > std::f64::consts::PI {
                        lon - std::f64::consts::TAU
                    } else {
                        lon
                    }
                };
                let (h0, h1) = if octree {
                    let (z0, z1) = part(z);
                    let span = r.max_height - r.min_height;
                    (r.min_height + span * z0 / n, r.min_height + span * z1 / n)
                } else {
                    (r.min_height, r.max_height)
                };
                BoundingVolume::Region(Region {
                    west: wrap(r.west + width * x0 / n),
                    east: wrap(r.west + width * x1 / n),
                    south: r.south + (r.north - r.south) * y0 / n,
                    north: r.south + (r.north - r.south) * y1 / n,
                    min_height: h0,
                    max_height: h1,
                })
            }
            // Refused when the tiling is read.
            BoundingVolume::Sphere(_) => self.root_volume,
        }
    }

    /// The subtree file of the subtree rooted at `(level, x, y, z)`.
    pub fn subtree_uri(&self, level: u32, x: u32, y: u32, z: u32) -> Result<String, TilesError> {
        resolve_uri(&self.source.uri, &fill(&self.subtrees, level, x, y, z))
    }

    /// The tile node for `(level, x, y, z)`; its contents are filled from `subtree`.
    pub fn tile(
        self: &Arc<Self>,
        level: u32,
        [x, y, z]: [u32; 3],
        subtree: Option<Arc<Subtree>>,
    ) -> Result<Tile, TilesError> {
        let bounding_volume = self.volume(level, x, y, z);
        let implicit = ImplicitTile {
            tiling: Arc::clone(self),
            level,
            x,
            y,
            z,
            subtree,
        };
        let contents = implicit.content_uris()?;
        Ok(Tile {
            bounding_volume,
            volume: bounding_volume.place(&self.transform),
            geometric_error: self.root_error / 2f64.powi(level.min(1023) as i32),
            refine: self.refine,
            transform: self.transform,
            contents,
            external: None,
            implicit: Some(implicit),
            source: Arc::clone(&self.source),
        })
    }
}

impl ImplicitTile {
    /// The root of the subtree this tile belongs to.
    pub fn subtree_root(&self) -> (u32, [u32; 3]) {
        let levels = self.tiling.subtree_levels.max(1);
        let local = self.level % levels;
        (
            self.level - local,
            [self.x >> local, self.y >> local, self.z >> local],
        )
    }

    /// Whether this tile is the root of its subtree (its file names it).
    pub fn is_subtree_root(&self) -> bool {
        self.level.is_multiple_of(self.tiling.subtree_levels.max(1))
    }

    /// Level within the subtree and the tile's bit in its availability.
    fn local_bit(&self) -> Option<(u32, u64)> {
        let (root, _) = self.subtree_root();
        let local = self.level - root;
        let mask = |v: u32| v & ((1u64 << local) - 1) as u32;
        let scheme = self.tiling.scheme;
        let m = scheme.morton(mask(self.x), mask(self.y), mask(self.z));
        Some((local, scheme.tiles_in(local)?.checked_add(m)?))
    }

    /// The contents this tile has (empty while its subtree is not loaded).
    pub fn content_uris(&self) -> Result<Vec<String>, TilesError> {
        let (Some(subtree), Some((_, bit))) = (self.subtree.as_deref(), self.local_bit()) else {
            return Ok(Vec::new());
        };
        let mut uris = Vec::new();
        for (i, template) in self.tiling.contents.iter().enumerate() {
            if subtree.contents.get(i).is_some_and(|a| a.get(bit)) {
                let t = fill(template, self.level, self.x, self.y, self.z);
                uris.push(resolve_uri(&self.tiling.source.uri, &t)?);
            }
        }
        Ok(uris)
    }

    /// The subtree file to load before this tile's contents and children are known
    /// (`None` once loaded).
    pub fn pending_subtree(&self) -> Option<Result<String, TilesError>> {
        if self.subtree.is_some() {
            return None;
        }
        let (level, [x, y, z]) = self.subtree_root();
        Some(self.tiling.subtree_uri(level, x, y, z))
    }

    /// Whether the tile may have children: below the last level, and (with its subtree
    /// loaded) some child available.
    pub fn may_have_children(&self) -> bool {
        if self.level + 1 >= self.tiling.available_levels {
            return false;
        }
        self.subtree.is_none() || !self.children().is_empty()
    }

    /// The available children: `(level, [x, y, z], subtree)`, the subtree `None` where a
    /// child roots a subtree of its own (whose file tells the rest).
    pub fn children(&self) -> Vec<(u32, [u32; 3], Option<Arc<Subtree>>)> {
        let (Some(subtree), Some((local, _))) = (self.subtree.as_ref(), self.local_bit()) else {
            return Vec::new();
        };
        let level = self.level + 1;
        if level >= self.tiling.available_levels {
            return Vec::new();
        }
        let octree = self.tiling.scheme == Scheme::Octree;
        let zs: &[u32] = if octree { &[0, 1] } else { &[0] };
        let mut out = Vec::new();
        for &dz in zs {
            for dy in 0..2 {
                for dx in 0..2 {
                    let (x, y) = (self.x * 2 + dx, self.y * 2 + dy);
                    let z = if octree { self.z * 2 + dz } else { 0 };
                    let child = ImplicitTile {
                        tiling: Arc::clone(&self.tiling),
                        level,
                        x,
                        y,
                        z,
                        subtree: Some(Arc::clone(subtree)),
                    };
                    if local + 1 < self.tiling.subtree_levels {
                        if child
                            .local_bit()
                            .is_some_and(|(_, bit)| subtree.tiles.get(bit))
                        {
                            out.push((level, [x, y, z], Some(Arc::clone(subtree))));
                        }
                    } else {
                        // The child roots a subtree: its bit is in the child subtrees.
                        let n = (1u64 << (local + 1)) - 1;
                        let scheme = self.tiling.scheme;
                        let bit = scheme.morton(x & n as u32, y & n as u32, z & n as u32);
                        if subtree.child_subtrees.get(bit) {
                            out.push((level, [x, y, z], None));
                        }
                    }
                }
            }
        }
        out
    }
}

/// Adds the available children of the implicit tile `node` as nodes (none if it has
/// child nodes already, is not implicit, or waits for its subtree); returns how many.
pub fn expand_implicit(graph: &mut Graph, node: NodeId) -> Result<usize, TilesError> {
    if graph.first_child(node)?.is_some() {
        return Ok(0);
    }
    let Some(implicit) = graph.get::<Tile>(node)?.implicit.clone() else {
        return Ok(0);
    };
    let children = implicit.children();
    let tiles = children
        .into_iter()
        .map(|(level, xyz, subtree)| implicit.tiling.tile(level, xyz, subtree))
        .collect::<Result<Vec<_>, _>>()?;
    let count = tiles.len();
    for tile in tiles {
        graph.append_child(node, tile)?;
    }
    Ok(count)
}

/// Reads `bytes` as the subtree file `uri` of the implicit tile `node` (a subtree
/// root) and fills in the tile's contents; returns the subtree's size in bytes.
pub fn set_subtree(
    graph: &mut Graph,
    node: NodeId,
    uri: &str,
    bytes: &[u8],
) -> Result<usize, TilesError> {
    let tile = graph.get_mut::<Tile>(node)?;
    let Some(implicit) = tile.implicit.as_mut() else {
        return Err(TilesError::invalid(
            uri,
            "subtree",
            "the tile is not implicit",
        ));
    };
    let tiling = &implicit.tiling;
    let subtree = Subtree::parse(bytes, uri, tiling.scheme, tiling.subtree_levels)?;
    let size = subtree.byte_length;
    implicit.subtree = Some(Arc::new(subtree));
    let contents = implicit.content_uris()?;
    tile.contents = contents;
    Ok(size)
}

/// Drops the subtree of an implicit subtree root (its children must be gone): it waits
/// for its file again.
pub fn clear_subtree(graph: &mut Graph, node: NodeId) -> Result<(), TilesError> {
    let tile = graph.get_mut::<Tile>(node)?;
    if let Some(implicit) = tile.implicit.as_mut().filter(|i| i.is_subtree_root()) {
        implicit.subtree = None;
        tile.contents.clear();
    }
    Ok(())
}
