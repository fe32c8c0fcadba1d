//! # scenewalk-nodes: the basic scene vocabulary
//!
//! Node types are plain data implementing [`NodeCore`](scenewalk_core::NodeCore); core
//! knows none of them. This crate gives the ones every scene needs:
//!
//! - [`Group`]: structure only, zero-sized, so a group node costs just its link record;
//! - [`Transform`]: a local affine transform (from translation / rotation / scale or a
//!   matrix) applied to its subtree;
//! - [`Geometry`]: a leaf with a local bounding box (and a primitive count);
//! - [`Material`]: surface state inherited by the geometry below it;
//! - [`Lod`]: which children show at which distance from the viewer;
//! - [`Switch`]: which children are on (one, all, none, a mask);
//! - [`Light`] and [`Camera`] (a projection; its [`Frustum`] with the conservative
//!   box test and inherited [`PlaneMask`] culling uses);
//! - [`Mesh`]: a triangle mesh extending `Geometry`, with a [`MeshBvh`] (itself a
//!   scenewalk graph, so the dual-tree iterator walks it), nearest-hit ray queries,
//!   procedural shapes ([`Mesh::uv_sphere`], [`Mesh::cuboid`], [`Mesh::torus`],
//!   [`Mesh::grid`]) and OBJ loading ([`load_obj`], with the cargo feature `obj`, on by
//!   default);
//! - [`SkinnedMesh`]: a `Mesh` posed by a [`Skin`]'s joints, with its exact and
//!   conservative skinned world boxes;
//! - keyframe [`Animation`]s of [`Transform`] nodes ([`Channel`]s sampled as glTF
//!   samples them), played into a graph by an [`AnimationPlayer`].
//!
//! The exact tests meshes are built on are public too: [`Ray`], [`ray_aabb`],
//! [`ray_triangle`] and [`triangles_intersect`].
//!
//! The checked constructors (the `try_` forms, [`Camera::try_new`], [`Lod::new`],
//! [`Mesh::new`], the procedural shapes) refuse NaN and out-of-range values with an
//! error naming the value. The plain ones ([`Transform::from_trs`] and the other
//! `Transform::from_*`, [`Light::new`], [`Material::new`]) take their values as given,
//! for callers whose numbers are already known to be good; [`Geometry::new`] takes
//! any box but one with a NaN or infinite corner, which it refuses with a panic.
//!
//! With the cargo feature `gltf` (on by default), [`gltf`] imports glTF 2.0 scenes into
//! a graph of these types.
//!
//! Types from other crates extend these by returning them from
//! [`NodeCore::base`](scenewalk_core::NodeCore::base) and declaring the parent type in
//! [`NodeCore::parent_type`](scenewalk_core::NodeCore::parent_type), as [`Mesh`] does
//! for `Geometry`.
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

pub use animation::{
    Animation, AnimationError, AnimationPlayer, Channel, Interpolation, Property, Trs,
};
pub use bvh::{BvhNode, MAX_LEAF_TRIANGLES, MeshBvh};
pub use camera::{BadCamera, Camera, Projection};
pub use frustum::{Containment, Frustum, PlaneMask};
pub use geometry::{BadBounds, Geometry};
pub use group::Group;
pub use intersect::{BadRay, Ray, ray_aabb, ray_triangle, triangles_intersect};
pub use light::{Light, LightKind};
pub use lod::{BadLod, Lod};
pub use material::Material;
pub use mesh::{Mesh, MeshError, TriangleHit};
#[cfg(feature = "obj")]
pub use obj::{ObjError, load_obj, load_obj_from};
pub use shapes::MAX_SHAPE_TRIANGLES;
pub use skin::{Skin, SkinError, SkinnedMesh};
pub use switch::{Selection, Switch};
pub use transform::{BadTransform, Transform};

mod animation;
mod bvh;
mod camera;
mod frustum;
mod geometry;
#[cfg(feature = "gltf")]
pub mod gltf;
mod group;
mod intersect;
mod light;
mod lod;
mod material;
mod mesh;
#[cfg(feature = "obj")]
mod obj;
mod shapes;
mod skin;
mod switch;
mod transform;
mod tri_tri;
