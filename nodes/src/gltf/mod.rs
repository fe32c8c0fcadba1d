//! glTF 2.0 import (cargo feature `gltf`, on by default).
//!
//! [`import`] reads a `.gltf` (buffers embedded as base64 data URIs or in files beside
//! it) or a `.glb` into a [`Graph`](scenewalk_core::Graph) of this crate's node types:
//! each glTF node becomes a [`Transform`](crate::Transform); each primitive of its mesh
//! a [`Mesh`](crate::Mesh) child (triangles), or a [`Geometry`](crate::Geometry) child
//! holding the POSITION box (points, lines, undecoded data); its camera a
//! [`Camera`](crate::Camera) child. World transforms and world boxes are then what
//! scenewalk's own actors compute over the graph.
//!
//! Skins and animations come along. A node with a skin gets
//! [`SkinnedMesh`](crate::SkinnedMesh) children (its triangle primitives with their
//! `JOINTS_0` / `WEIGHTS_0`; further sets, `JOINTS_1` and on, are not read; points,
//! lines and undecoded primitives stay unskinned) posed by the skin's joints. Each animation becomes an [`Animation`](crate::Animation) whose channels
//! target the scene's [`Transform`](crate::Transform) nodes, keeping each target's
//! rest translation, rotation and scale; morph target `weights` channels are read and
//! kept, not applied. Key values stored as normalized integers are de-quantized as
//! the glTF specification says.
//!
//! Malformed files are errors ([`GltfError`]) naming the index at fault, never panics:
//! indices out of range, a node with two parents, cycles, byte ranges past their
//! buffer, unsupported versions, animations that cannot be played
//! ([`GltfError::BadAnimation`] with an [`AnimationFault`]), skins or skinned vertices
//! that do not fit ([`GltfError::BadSkin`]). The hierarchy is checked and built without
//! recursion. Sparse accessors are not read: a sampler, skin or skinned primitive that
//! uses one is refused.
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
//! let child = imported.node_id(1).unwrap();
//! let t = imported.graph.get::<Transform>(child).unwrap();
//! assert_eq!(t.local().matrix3.x_axis.x, 2.0);
//! # Ok::<(), scenewalk_nodes::gltf::GltfError>(())
//! ```

pub use error::{AnimationFault, GltfError};
pub use import::{ImportOptions, Imported, ImportedNode, import, import_slice};

mod accessor;
mod animation;
mod buffers;
mod camera;
mod error;
mod hierarchy;
mod import;
mod mesh;
mod skin;
