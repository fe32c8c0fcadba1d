//! glTF 2.0 import (cargo feature `gltf`, on by default).
//!
//! [`import`] reads a `.gltf` (buffers in base64 data URIs or files beside it) or a
//! `.glb` into a [`Graph`](scenewalk_core::Graph) as [`Imported`] describes. A skinned
//! node's triangle primitives become [`SkinnedMesh`](crate::SkinnedMesh)es posed by every
//! joint / weight set they have (`JOINTS_0` / `WEIGHTS_0`, `JOINTS_1` / `WEIGHTS_1`,
//! ...); a skinned primitive that cannot be skinned (points, lines, positions that are
//! not float VEC3) is refused, never left unposed. Each animation becomes an
//! [`Animation`](crate::Animation) of the scene's transforms, normalized integer keys
//! de-quantized as glTF says. Channels that import but do not move the scene, morph
//! target `weights` and `KHR_animation_pointer` channels to anything but a node's
//! transform, are listed in [`Imported::unplayed`]; pointer channels to a node's
//! translation, rotation or scale play as the plain channels they mean.
//!
//! Accessors are read with their sparse values put in (onto zeros without a buffer
//! view). Malformed files are [`GltfError`]s naming the index at fault, never panics;
//! the hierarchy is checked and built without recursion.
//!
//! ```
//! use scenewalk_nodes::gltf::{ImportOptions, import_slice};
//! use scenewalk_nodes::Transform;
//! let file = br#"{
//!     "asset": {"version": "2.0"},
//!     "scenes": [{"nodes": [0]}],
//!     "nodes": [{"translation": [1, 2, 3], "children": [1]}, {"scale": [2, 2, 2]}]
//! }"#;
//! let imported = import_slice(file, None, &ImportOptions::default())?;
//! assert_eq!(imported.order, [0, 1]);
//! let child = imported.node(1).unwrap().id;
//! let t = imported.graph.get::<Transform>(child).unwrap();
//! assert_eq!(t.local().matrix3.x_axis.x, 2.0);
//! # Ok::<(), scenewalk_nodes::gltf::GltfError>(())
//! ```

pub use animation::{Unplayed, UnplayedChannel};
pub use error::GltfError;
pub use import::{ImportOptions, Imported, ImportedNode, import, import_slice};

mod accessor;
mod animation;
mod buffers;
mod camera;
mod document;
mod error;
mod hierarchy;
mod import;
mod mesh;
mod skin;
