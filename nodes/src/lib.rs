//! # scenewalk-nodes: the basic scene vocabulary
//!
//! Node types are plain data implementing [`NodeCore`](scenewalk_core::NodeCore), which
//! core knows nothing of: structure and state ([`Group`], [`Transform`], [`Switch`],
//! [`Lod`], [`Material`], [`Light`], [`Camera`] with its culling [`Frustum`]), geometry
//! ([`Geometry`]; [`Mesh`] with its [`MeshBvh`], ray queries, shapes and [`load_obj`];
//! [`SkinnedMesh`]) and keyframe [`Animation`]s. The exact tests meshes use are public
//! ([`ray_aabb`], [`ray_triangle`], [`triangles_intersect`]). Features `obj` and `gltf`
//! (the glTF 2.0 importer [`gltf`]) are on by default, and so is `urdf` (the robot
//! importer [`urdf`], whose joints are nodes extending [`Transform`]).
//! Feature `tiles` (on by default) reads 3D Tiles tilesets into tile nodes ([`tiles`]).
//!
//! Constructors named `try_` (and [`Mesh::new`], [`Lod::new`], the shapes) refuse NaN
//! and out-of-range values with an error naming the value; the others take values as
//! given ([`Geometry::new`] panics on a non-finite corner).
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
pub use intersect::{BadRay, Ray, ray_aabb, ray_triangle, ray_triangles, triangles_intersect};
pub use light::{Light, LightKind};
pub use lod::{BadLod, Lod};
pub use material::Material;
pub use mesh::{Mesh, MeshError, TriangleHit};
#[cfg(feature = "obj")]
pub use obj::{ObjError, load_obj, load_obj_from};
pub use shapes::MAX_SHAPE_TRIANGLES;
pub use skin::{InfluenceSet, Skin, SkinError, SkinnedMesh};
pub use switch::{Selection, Switch};
pub use transform::{BadTransform, Transform};

mod animation;
mod bvh;
mod camera;
#[cfg(any(feature = "gltf", feature = "urdf"))]
mod forest;
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
#[cfg(feature = "tiles")]
pub mod tiles;
mod transform;
mod tri_tri;
#[cfg(feature = "urdf")]
pub mod urdf;

/// Opens `path` if it is a regular file (the error says so otherwise): opening a pipe
/// blocks until a writer comes, and reading a device may never end.
#[cfg(any(feature = "obj", feature = "gltf", feature = "urdf"))]
fn open_regular(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    if !std::fs::metadata(path)?.is_file() {
        let kind = std::io::ErrorKind::InvalidInput;
        return Err(std::io::Error::new(kind, "not a regular file"));
    }
    std::fs::File::open(path)
}

/// The bytes of the regular file at `path` ([`open_regular`]); a file past `limit`
/// bytes is refused (`InvalidData`, "larger than `limit` bytes"), never read whole.
#[cfg(any(feature = "gltf", feature = "urdf"))]
fn read_regular(path: &std::path::Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    let mut bytes = Vec::new();
    let mut file = open_regular(path)?.take(limit.saturating_add(1));
    file.read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        let larger = format!("larger than {limit} bytes");
        return Err(Error::new(ErrorKind::InvalidData, larger));
    }
    Ok(bytes)
}
