//! # scenewalk-nodes: the basic scene vocabulary
//!
//! Node types are plain data implementing [`NodeCore`](scenewalk_core::NodeCore); core
//! knows none of them. This crate gives the three every scene needs:
//!
//! - [`Group`]: structure only, zero-sized, so a group node costs just its link record;
//! - [`Transform`]: a local affine transform (from translation / rotation / scale or a
//!   matrix) applied to its subtree;
//! - [`Geometry`]: a leaf with a local bounding box (and a primitive count).
//!
//! Types from other crates extend these by returning them from
//! [`NodeCore::base`](scenewalk_core::NodeCore::base) and registering with
//! [`Graph::register_type_with_parent`](scenewalk_core::Graph::register_type_with_parent).
//!
//! ```
//! use scenewalk_core::{Graph, glam::Vec3, Aabb};
//! use scenewalk_nodes::{Geometry, Group, Transform};
//!
//! let mut graph = Graph::new();
//! let root = graph.add_root(Group);
//! let moved = graph.append_child(root, Transform::from_translation(Vec3::X))?;
//! graph.append_child(moved, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))?;
//! assert_eq!(graph.get::<Transform>(moved)?.local().translation.x, 1.0);
//! # Ok::<(), scenewalk_core::GraphError>(())
//! ```

#![forbid(unsafe_code)]

pub use camera::{BadCamera, Camera, Projection};
pub use frustum::{Containment, Frustum, PlaneMask};
pub use geometry::{BadBounds, Geometry};
pub use group::Group;
pub use light::{Light, LightKind};
pub use lod::{BadLod, Lod};
pub use material::Material;
pub use switch::{Selection, Switch};
pub use transform::{BadTransform, Transform};

mod camera;
mod frustum;
mod geometry;
mod group;
mod light;
mod lod;
mod material;
mod switch;
mod transform;
