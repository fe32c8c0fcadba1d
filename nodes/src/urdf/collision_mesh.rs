//! A robot's collision geometry as triangle meshes: primitives tessellated, mesh files
//! read once each: STL (binary and ASCII) and COLLADA with `mesh-loader`, OBJ with the
//! crate's OBJ reader ([`load_obj`](crate::load_obj)'s).

use super::{Robot, Shape};
use crate::mesh::{Mesh, MeshError};
use scenewalk_core::glam::{Affine3A, Vec3};
use std::collections::HashMap;
use std::f32::consts::TAU;
use std::path::{Path, PathBuf};

/// The largest collision mesh file read (1 GiB): a bigger one is refused, not loaded.
pub const MAX_MESH_FILE_BYTES: u64 = 1 << 30;

/// How finely round shapes become triangles. Vertices lie on the surface, so a
/// tessellated shape lies inside the true one: by at most `1 − cos(π / segments)` of the
/// radius across a side (0.5 % with the default 32 segments), and as much again from
/// pole to equator for a sphere with the default 16 rings (2 %).
///
/// - a **box** is 12 triangles, exact;
/// - a **cylinder** (URDF: along z, centred) is `segments` side quads and two capping
///   fans: `4 · segments` triangles;
/// - a **sphere** is a UV sphere ([`Mesh::uv_sphere`]) of `segments` around and `rings`
///   from pole to pole: `2 · segments · (rings − 1)` triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tessellation {
    /// Vertices around a cylinder or a sphere's equator (at least 3).
    pub segments: u32,
    /// Rings of a sphere from pole to pole (at least 2).
    pub rings: u32,
}

impl Default for Tessellation {
    fn default() -> Self {
        Self {
            segments: 32,
            rings: 16,
        }
    }
}

/// One `<collision>` element as triangles.
///
/// The mesh is in the shape's own frame, unscaled; `placement` (the element's origin
/// times its scale) puts it in the link's frame, so a mesh file that several elements
/// name is read once and its [`Mesh`] (and BVH) shared. In the world the triangles sit
/// at `link pose · placement`.
#[derive(Clone, Debug)]
pub struct CollisionMesh {
    /// The link's index.
    pub link: usize,
    /// The element's frame in the link's frame: `origin · scale` (scale 1 but for meshes).
    pub placement: Affine3A,
    /// The triangles, with their BVH.
    pub mesh: Mesh,
}

/// Why a collision element gave no mesh. Each names the link.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CollisionMeshError {
    /// The mesh file could not be read or parsed.
    #[error("link {link:?}: cannot read mesh {}: {reason}", file.display())]
    Read {
        /// The link's name.
        link: String,
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// The mesh file holds no triangles.
    #[error("link {link:?}: mesh {} holds no triangles", file.display())]
    Empty {
        /// The link's name.
        link: String,
        /// The file.
        file: PathBuf,
    },
    /// The file's triangles make no valid mesh (a NaN position, a vertex index past the
    /// end).
    #[error("link {link:?}: mesh {}: {source}", file.display())]
    Mesh {
        /// The link's name.
        link: String,
        /// The file.
        file: PathBuf,
        /// Why the mesh was refused.
        source: MeshError,
    },
    /// A box, cylinder or sphere with a negative, NaN or infinite size, or a mesh
    /// scale that is not finite.
    #[error("link {link:?}: {shape} has size {size}: not a finite size of at least 0")]
    BadSize {
        /// The link's name.
        link: String,
        /// `box`, `cylinder`, `sphere` or `mesh scale`.
        shape: &'static str,
        /// The offending value(s), as written.
        size: String,
    },
    /// A tessellated shape was refused (too many triangles for the tessellation).
    #[error("link {link:?}: {shape}: {source}")]
    Shape {
        /// The link's name.
        link: String,
        /// `box`, `cylinder` or `sphere`.
        shape: &'static str,
        /// Why.
        source: MeshError,
    },
}

impl Robot {
    /// Every collision element of every link as a [`CollisionMesh`], in the order of
    /// [`collisions`](Robot::collisions). Boxes, cylinders and spheres are tessellated
    /// as `tessellation` says; mesh files are read once each, however many elements
    /// name them (the elements then share one [`Mesh`]).
    ///
    /// Errors: a file that cannot be read or parsed, holds no triangles or bad ones, a
    /// negative or non-finite size; each names the file and the link.
    ///
    /// ```
    /// use scenewalk_nodes::urdf::{parse, ImportOptions, Tessellation};
    /// let robot = parse(r#"
    ///   <robot name="r">
    ///     <link name="base">
    ///       <collision><geometry><box size="1 2 3"/></geometry></collision>
    ///       <collision>
    ///         <origin xyz="0 0 1"/>
    ///         <geometry><cylinder radius="0.5" length="2"/></geometry>
    ///       </collision>
    ///     </link>
    ///   </robot>"#, &ImportOptions::default())?;
    /// let meshes = robot.collision_meshes(&Tessellation::default())?;
    /// assert_eq!(meshes.len(), 2);
    /// assert_eq!(meshes[0].mesh.triangles().len(), 12);
    /// assert_eq!(meshes[1].mesh.triangles().len(), 4 * 32);
    /// assert_eq!(meshes[1].placement.translation.z, 1.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn collision_meshes(
        &self,
        tessellation: &Tessellation,
    ) -> Result<Vec<CollisionMesh>, CollisionMeshError> {
        let mut files: HashMap<&Path, Mesh> = HashMap::new();
        let mut meshes = Vec::with_capacity(self.collisions().len());
        for collision in self.collisions() {
            let link =
                || (self.links().get(collision.link)).map_or_else(String::new, |l| l.name.clone());
            let (mesh, scale) = match &collision.geometry {
                Shape::Mesh { path, scale } => {
                    if !scale.is_finite() {
                        return Err(CollisionMeshError::BadSize {
                            link: link(),
                            shape: "mesh scale",
                            size: format!("{} {} {}", scale.x, scale.y, scale.z),
                        });
                    }
                    let mesh = match files.get(path.as_path()) {
                        Some(mesh) => mesh.clone(),
                        None => {
                            let mesh = read_mesh(path).map_err(|e| e.for_link(link(), path))?;
                            files.insert(path, mesh.clone());
                            mesh
                        }
                    };
                    (mesh, *scale)
                }
                shape => (primitive(shape, tessellation, &link)?, Vec3::ONE),
            };
            meshes.push(CollisionMesh {
                link: collision.link,
                placement: collision.origin * Affine3A::from_scale(scale),
                mesh,
            });
        }
        Ok(meshes)
    }
}

/// A box, cylinder or sphere as triangles.
fn primitive(
    shape: &Shape,
    tessellation: &Tessellation,
    link: &dyn Fn() -> String,
) -> Result<Mesh, CollisionMeshError> {
    let bad = |shape: &'static str, size: String| CollisionMeshError::BadSize {
        link: link(),
        shape,
        size,
    };
    let fine = |x: f32| x.is_finite() && x >= 0.0;
    let (name, mesh) = match *shape {
        Shape::Box { size } => {
            if !size.to_array().into_iter().all(fine) {
                return Err(bad("box", format!("{} {} {}", size.x, size.y, size.z)));
            }
            ("box", Mesh::cuboid(size / 2.0))
        }
        Shape::Cylinder { radius, length } => {
            if !fine(radius) || !fine(length) {
                return Err(bad("cylinder", format!("radius {radius} length {length}")));
            }
            ("cylinder", cylinder(radius, length, tessellation.segments))
        }
        Shape::Sphere { radius } => {
            if !fine(radius) {
                return Err(bad("sphere", format!("radius {radius}")));
            }
            let (segments, rings) = (tessellation.segments, tessellation.rings);
            ("sphere", Mesh::uv_sphere(radius, segments, rings))
        }
        Shape::Mesh { .. } => ("mesh", Mesh::new(Vec::new(), Vec::new())),
    };
    mesh.map_err(|source| CollisionMeshError::Shape {
        link: link(),
        shape: name,
        source,
    })
}

/// A closed cylinder along z, centred on the origin: `segments` (at least 3) around.
fn cylinder(radius: f32, length: f32, segments: u32) -> Result<Mesh, MeshError> {
    let n = segments.clamp(3, 1 << 24);
    let half = length / 2.0;
    let ring = |z: f32| {
        (0..n).map(move |i| {
            let (sin, cos) = (TAU * i as f32 / n as f32).sin_cos();
            Vec3::new(radius * cos, radius * sin, z)
        })
    };
    // Bottom ring 0..n, top ring n..2n, then the two cap centres.
    let mut positions: Vec<Vec3> = ring(-half).chain(ring(half)).collect();
    let (bottom, top) = (2 * n, 2 * n + 1);
    positions.extend([Vec3::new(0.0, 0.0, -half), Vec3::new(0.0, 0.0, half)]);
    let mut triangles = Vec::with_capacity(4 * n as usize);
    for i in 0..n {
        let j = (i + 1) % n;
        triangles.push([i, j, n + j]);
        triangles.push([i, n + j, n + i]);
        triangles.push([bottom, j, i]);
        triangles.push([top, n + i, n + j]);
    }
    Mesh::new(positions, triangles)
}

/// Why a file gave no mesh, before the link is known.
enum ReadError {
    Read(String),
    Empty,
    Mesh(MeshError),
}

impl ReadError {
    fn for_link(self, link: String, file: &Path) -> CollisionMeshError {
        let file = file.to_path_buf();
        match self {
            Self::Read(reason) => CollisionMeshError::Read { link, file, reason },
            Self::Empty => CollisionMeshError::Empty { link, file },
            Self::Mesh(source) => CollisionMeshError::Mesh { link, file, source },
        }
    }
}

/// Reads a mesh file (STL, COLLADA or OBJ, this by its extension; at most
/// [`MAX_MESH_FILE_BYTES`]), all its meshes merged into one. OBJ material libraries are
/// not read.
fn read_mesh(path: &Path) -> Result<Mesh, ReadError> {
    let read = |e: std::io::Error| ReadError::Read(e.to_string());
    let bytes = crate::read_regular(path, MAX_MESH_FILE_BYTES).map_err(read)?;
    let parts: Vec<(Vec<Vec3>, Vec<[u32; 3]>)> = if (path.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("obj"))
    {
        let models = crate::obj::read_models(&mut bytes.as_slice()).map_err(ReadError::Read)?;
        models.into_iter().map(|(_, p, t)| (p, t)).collect()
    } else {
        let no_materials = |_: &Path| -> std::io::Result<Vec<u8>> {
            Err(std::io::Error::other("material files are not read"))
        };
        let scene = mesh_loader::Loader::default()
            .load_from_slice_with_reader(&bytes, path, no_materials)
            .map_err(read)?;
        let vertices = |part: &mesh_loader::Mesh| part.vertices.iter().map(|&v| v.into()).collect();
        (scene.meshes.iter())
            .map(|part| (vertices(part), part.faces.clone()))
            .collect()
    };
    let mut positions = Vec::new();
    let mut triangles = Vec::new();
    for (part_positions, part_triangles) in parts {
        let base = u32::try_from(positions.len()).unwrap_or(u32::MAX);
        triangles.extend((part_triangles.iter()).map(|f| f.map(|i| i.saturating_add(base))));
        positions.extend(part_positions);
    }
    if triangles.is_empty() {
        return Err(ReadError::Empty);
    }
    Mesh::new(positions, triangles).map_err(ReadError::Mesh)
}
