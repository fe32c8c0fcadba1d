//! Why an import failed.

use crate::{AnimationError, BadTransform, SkinError};
use std::path::PathBuf;

/// Why a glTF file could not be imported; every message names the glTF index at fault
/// and where it was found, as a JSON path such as `nodes[3].children[1]`.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GltfError {
    /// A file (the glTF itself or an external buffer) could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// Not JSON, a value of the wrong JSON type, or a malformed `.glb` container.
    #[error("not a readable glTF file: {0}")]
    Parse(String),
    /// `asset.version` (or `asset.minVersion`) is not a 2.x version.
    #[error("unsupported glTF version {0:?}: only 2.x is read")]
    UnsupportedVersion(String),
    /// An index points past the end of the array it refers to.
    #[error("{at}: there is no {what} {index} (the file has {count})")]
    IndexOutOfRange {
        /// Where the index was found, as a JSON path.
        at: String,
        /// What kind of item it names (`node`, `mesh`, `accessor`, ...).
        what: &'static str,
        /// The index.
        index: usize,
        /// How many such items there are.
        count: usize,
    },
    /// A node is listed as a child twice: by two parents, or twice by one.
    #[error("node {node} has two parents: it is a child of node {first} and of node {second}")]
    TwoParents {
        /// The child.
        node: usize,
        /// The first parent that lists it.
        first: usize,
        /// The next parent that lists it (may equal `first`).
        second: usize,
    },
    /// A node is its own ancestor.
    #[error("node {node} is part of a cycle of children")]
    Cycle {
        /// A node on the cycle.
        node: usize,
    },
    /// A scene lists a node that is not a root (it has a parent).
    #[error("scenes[{scene}] lists node {node} as a root, but it is a child of node {parent}")]
    SceneRootHasParent {
        /// The scene.
        scene: usize,
        /// The node listed.
        node: usize,
        /// Its parent.
        parent: usize,
    },
    /// A scene lists the same root twice.
    #[error("scenes[{scene}] lists node {node} twice")]
    DuplicateRoot {
        /// The scene.
        scene: usize,
        /// The node listed twice.
        node: usize,
    },
    /// A node's matrix or translation / rotation / scale is not a usable transform.
    #[error("node {node} has a bad transform: {source}")]
    BadTransform {
        /// The node.
        node: usize,
        /// Why the transform was refused.
        #[source]
        source: BadTransform,
    },
    /// A buffer shorter than its `byteLength`, a view past its buffer or an accessor past its view.
    #[error("{at}: bytes up to {end} are needed, but {container} holds only {length}")]
    OutOfBounds {
        /// The item whose range is too long (`buffers[0]`, `accessors[5]`).
        at: String,
        /// The container (`its data`, `buffer 0`, `bufferViews[2]`).
        container: String,
        /// The end of the range.
        end: u64,
        /// The container's length.
        length: u64,
    },
    /// Any other value the importer cannot use (a bad camera, enum, min/max, layout...).
    #[error("{at}: {reason}")]
    Invalid {
        /// Where, as a JSON path.
        at: String,
        /// What is wrong.
        reason: String,
    },
    /// An animation channel's keys or values cannot be played.
    #[error("animations[{animation}].channels[{channel}]: {source}")]
    BadAnimation {
        /// The animation.
        animation: usize,
        /// The channel.
        channel: usize,
        /// What is wrong.
        #[source]
        source: AnimationError,
    },
    /// A skin, or a primitive it poses, cannot be used.
    #[error("{at} (skin {skin}): {source}")]
    BadSkin {
        /// The skin.
        skin: usize,
        /// Where, as a JSON path (`skins[0]`, `meshes[1].primitives[0]`).
        at: String,
        /// What is wrong.
        #[source]
        source: SkinError,
    },
    /// Building the graph failed (an importer bug: every edit it makes is valid).
    #[error("building the graph failed: {0}")]
    Graph(#[from] scenewalk_core::GraphError),
}

impl GltfError {
    pub(crate) fn invalid(at: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Invalid {
            at: at.into(),
            reason: reason.into(),
        }
    }
}

/// `items[index]`, or [`GltfError::IndexOutOfRange`] for a `what` index found at `at()`.
pub(crate) fn get<'a, T>(
    items: &'a [T],
    index: usize,
    what: &'static str,
    at: impl FnOnce() -> String,
) -> Result<&'a T, GltfError> {
    items.get(index).ok_or_else(|| GltfError::IndexOutOfRange {
        at: at(),
        what,
        index,
        count: items.len(),
    })
}
