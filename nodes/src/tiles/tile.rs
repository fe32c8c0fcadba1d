//! The tile node type.

use super::{BoundingVolume, ImplicitTile, Volume};
use scenewalk_core::NodeCore;
use scenewalk_core::glam::DMat4;
use std::sync::Arc;

/// How a tile's children relate to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Refine {
    /// The children replace the tile (it is hidden once they are shown).
    #[default]
    Replace,
    /// The children add to the tile (both are shown).
    Add,
}

/// The tileset file a tile was read from, and the file that referenced that one (for
/// external tilesets): the chain is how a cycle is found.
#[derive(Debug, PartialEq, Eq)]
pub struct Source {
    /// The file, relative to the root tileset's folder.
    pub uri: String,
    /// The tileset whose tile named this file as its content.
    pub parent: Option<Arc<Source>>,
}

impl Source {
    /// The files from the root down to this one.
    pub fn chain(&self) -> Vec<&str> {
        let mut files: Vec<&str> = std::iter::successors(Some(self), |s| s.parent.as_deref())
            .map(|s| s.uri.as_str())
            .collect();
        files.reverse();
        files
    }
}

/// A 3D Tiles tile: a node of the scene graph whose children are its refinements.
///
/// Everything is resolved when the node is made: the bounding volume is placed in world
/// (Earth-centred) coordinates in f64, the transform is composed down the tree, the
/// refinement inherited and the content URIs resolved against the root tileset's
/// folder. Contents are not read here: a loader fetches them by URI when a selection
/// asks for them.
#[derive(Clone, Debug)]
pub struct Tile {
    /// The bounding volume as the tileset declares it, in the tile's frame.
    pub bounding_volume: BoundingVolume,
    /// The bounding volume placed in world coordinates.
    pub volume: Volume,
    /// The error, in metres, of showing this tile instead of its children.
    pub geometric_error: f64,
    /// REPLACE or ADD (inherited from the parent where the tile declares none).
    pub refine: Refine,
    /// The world transform: every `transform` from the root down, composed.
    pub transform: DMat4,
    /// Renderable contents (glTF, b3dm, …), relative to the root tileset's folder.
    pub contents: Vec<String>,
    /// An external tileset this tile's content names: its root becomes this tile's
    /// child when it is loaded.
    pub external: Option<String>,
    /// Where the tile lies in an implicit tiling.
    pub implicit: Option<ImplicitTile>,
    /// The file the tile was read from.
    pub source: Arc<Source>,
}

impl NodeCore for Tile {}

impl Tile {
    /// Whether the tile holds contents to load and show.
    pub fn has_content(&self) -> bool {
        !self.contents.is_empty()
    }

    /// Whether children still have to be made before the tile can refine: an external
    /// tileset, or an implicit tile whose children are not expanded. (A tile with child
    /// nodes already needs nothing.)
    pub fn expandable(&self) -> bool {
        self.external.is_some()
            || self
                .implicit
                .as_ref()
                .is_some_and(ImplicitTile::may_have_children)
    }
}
