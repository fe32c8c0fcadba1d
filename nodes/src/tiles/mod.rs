//! # 3D Tiles: tilesets as tile nodes
//!
//! [`add_tileset`] reads an OGC 3D Tiles 1.0 or 1.1 `tileset.json` into the scene
//! graph as [`Tile`] nodes: bounding volumes (box, region, sphere; placed in world
//! coordinates in f64 as a [`Volume`], a region as an east-north-up box), geometric
//! errors, REPLACE/ADD refinement (inherited), transforms (composed down the tree) and
//! content URIs (`content` and `contents`, resolved against the root tileset's folder by
//! [`resolve_uri`], which refuses a URI that leaves it).
//!
//! Two kinds of tile grow children only when a traversal reaches them, so a tileset
//! larger than memory costs only what is visited:
//! - an **external tileset** (a content that is a `tileset.json`, [`Tile::external`]):
//!   its file is read by [`add_tileset`] with the tile as parent (a cycle of external
//!   tilesets is an error);
//! - an **implicit tiling** (quadtree or octree, [`ImplicitTiling`]): a subtree root
//!   waits for its subtree file ([`set_subtree`], [`Subtree`]) and [`expand_implicit`]
//!   adds the available children.
//!
//! Tile contents are not read here: the selection in `scenewalk-actors` asks a loader
//! for them by URI; [`content_glb`] finds the glTF in one for the glTF importer. Bad input is an error naming the file and the place in it
//! ([`TilesError`]); the sizes a file can make us allocate are capped
//! ([`MAX_TILESET_BYTES`], [`MAX_TILES_PER_FILE`], [`MAX_SUBTREE_BYTES`]).

pub use content::content_glb;
pub use error::TilesError;
pub use implicit::{
    ImplicitTile, ImplicitTiling, MAX_AVAILABLE_LEVELS, MAX_SUBTREE_LEVELS, Scheme, clear_subtree,
    expand_implicit, set_subtree,
};
pub use read::{MAX_EXTERNAL_DEPTH, MAX_TILES_PER_FILE, MAX_TILESET_BYTES, add_tileset};
pub use subtree::{Availability, MAX_SUBTREE_BYTES, Subtree};
pub use tile::{Refine, Source, Tile};
pub use uri::resolve_uri;
pub use volume::{
    BoundingVolume, OrientedBox, Region, Sphere, Volume, WGS84_A, WGS84_E2, east_north_up,
    geodetic_to_ecef,
};

mod content;
mod error;
mod implicit;
mod read;
mod subtree;
mod tile;
mod uri;
mod volume;
