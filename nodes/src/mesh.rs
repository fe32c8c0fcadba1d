//! The triangle mesh node: positions, triangles and their BVH, shared behind an `Arc`.

use crate::bvh::MeshBvh;
use crate::geometry::Geometry;
use crate::intersect::{Ray, nearest_hit, ray_aabb};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, GraphError, NodeCore, NodeIndex, ParentType};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

/// A triangle mesh in its node's local frame: positions, index triples and a [`MeshBvh`],
/// shared by clones. It extends [`Geometry`] (its [`base`](NodeCore::base)), so actors
/// that handle geometry handle meshes unchanged.
///
/// ```
/// use scenewalk_core::{Aabb, glam::Vec3};
/// use scenewalk_nodes::{Mesh, Ray};
/// let quad = Mesh::new(
///     vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y],
///     vec![[0, 1, 2], [0, 2, 3]],
/// )?;
/// assert_eq!(quad.geometry().primitives(), 2);
/// assert_eq!(*quad.geometry().local_bounds(), Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 0.0)));
///
/// let ray = Ray::new(Vec3::new(0.25, 0.75, 2.0), -Vec3::Z)?;
/// let hit = quad.ray_hit(&ray, f32::INFINITY).unwrap();
/// assert_eq!((hit.triangle, hit.distance), (1, 2.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Mesh {
    geometry: Geometry,
    data: Arc<MeshData>,
}

struct MeshData {
    positions: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    bvh: MeshBvh,
}

/// Why a mesh was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// A position holds a NaN or an infinity.
    #[error("position {index} is {position:?}: not a finite point")]
    NotFinite {
        /// The position's index.
        index: usize,
        /// Its value.
        position: Vec3,
    },
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle} names vertex {index}, but the mesh has {positions} positions")]
    IndexOutOfRange {
        /// The triangle's index.
        triangle: usize,
        /// The bad vertex index.
        index: u32,
        /// How many positions there are.
        positions: usize,
    },
    /// More triangles than a `u32` can count.
    #[error("{0} triangles: a mesh holds fewer than 2^32 - 1")]
    TooManyTriangles(usize),
    /// The hierarchy's graph refused a node (its arena is full).
    #[error("building the BVH failed: {0}")]
    Bvh(#[from] GraphError),
}

/// The nearest triangle a ray hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleHit {
    /// The triangle's index.
    pub triangle: u32,
    /// The distance along the ray, in the frame of the ray the caller passed.
    pub distance: f32,
    /// The hit point, in the frame of the query ([`Mesh::ray_hit`]: local,
    /// [`Mesh::ray_hit_world`]: world).
    pub point: Vec3,
    /// The barycentric coordinates `(u, v)` of the point: weights of corners 1 and 2.
    pub barycentric: (f32, f32),
}

impl Mesh {
    /// A mesh of `triangles` (index triples into `positions`), with its BVH built.
    /// Degenerate triangles are kept (they bound but are never hit).
    pub fn new(positions: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<Mesh, MeshError> {
        if let Some((index, &position)) = positions.iter().enumerate().find(|(_, p)| !p.is_finite())
        {
            return Err(MeshError::NotFinite { index, position });
        }
        if triangles.len() >= u32::MAX as usize {
            return Err(MeshError::TooManyTriangles(triangles.len()));
        }
        for (triangle, t) in triangles.iter().enumerate() {
            if let Some(&index) = t.iter().find(|&&i| i as usize >= positions.len()) {
                return Err(MeshError::IndexOutOfRange {
                    triangle,
                    index,
                    positions: positions.len(),
                });
            }
        }
        let bvh = MeshBvh::build(&positions, &triangles)?;
        let bounds = bvh.node_box(bvh.root().index());
        let geometry = Geometry::with_primitives(bounds, triangles.len() as u32);
        Ok(Mesh {
            geometry,
            data: Arc::new(MeshData {
                positions,
                triangles,
                bvh,
            }),
        })
    }

    /// The mesh with its geometry box widened to hold `bounds` too (a file's declared
    /// min / max); the BVH keeps the computed boxes. A box with a NaN or infinite
    /// corner, or `min` above `max`, is ignored.
    #[must_use]
    pub fn with_declared_bounds(self, bounds: Aabb) -> Mesh {
        let own = self.data.bvh.node_box(self.data.bvh.root().index());
        let declared = bounds.is_finite() && !bounds.is_empty();
        let union = if declared { own.union(&bounds) } else { own };
        Mesh {
            geometry: Geometry::with_primitives(union, self.geometry.primitives()),
            data: self.data,
        }
    }

    /// The vertex positions.
    pub fn positions(&self) -> &[Vec3] {
        &self.data.positions
    }

    /// The triangles, as index triples into [`positions`](Mesh::positions).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.data.triangles
    }

    /// The corners of triangle `i` (`None` past the end).
    pub fn triangle(&self, i: u32) -> Option<[Vec3; 3]> {
        let [a, b, c] = *self.data.triangles.get(i as usize)?;
        let p = |v: u32| self.data.positions.get(v as usize).copied();
        Some([p(a)?, p(b)?, p(c)?])
    }

    /// The geometry this mesh extends.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The bounding-volume hierarchy over the triangles.
    pub fn bvh(&self) -> &MeshBvh {
        &self.data.bvh
    }

    /// Whether two meshes share their data (one is a clone of the other).
    pub fn shares_data(&self, other: &Mesh) -> bool {
        Arc::ptr_eq(&self.data, &other.data)
    }

    /// The nearest triangle `ray` hits within `max_distance`, in the mesh's local frame;
    /// ties go to the lowest index, so it equals a loop with
    /// [`ray_triangle`](crate::ray_triangle). Its stack is kept per thread: it allocates
    /// only when deeper than any walk before.
    pub fn ray_hit(&self, ray: &Ray, max_distance: f32) -> Option<TriangleHit> {
        let bvh = &self.data.bvh;
        let graph = bvh.graph();
        let root = bvh.root().index();
        // Boxes are padded by a few dozen ulps of the box's and the ray origin's
        // coordinates, so the box test's rounding never prunes a hit the triangle test
        // accepts at an edge on a box face.
        let scale = ray.origin().abs().max_element();
        let padded = |node: NodeIndex| {
            let b = bvh.node_box(node);
            b.padded(4e-6 * (b.min.abs().max(b.max.abs()).max_element() + scale))
        };
        let entry = ray_aabb(ray, &padded(root), max_distance)?;
        let mut limit = max_distance;
        let mut best: Option<TriangleHit> = None;
        let mut stack = PENDING.take();
        stack.push((root, entry));
        while let Some((node, entry)) = stack.pop() {
            if entry > limit {
                continue;
            }
            let Some(first) = graph.first_child_at(node) else {
                let leaf = bvh.leaf_triangles(node).iter();
                let leaf = leaf.filter_map(|&t| Some((t, self.triangle(t)?)));
                nearest_hit(ray, leaf, &mut limit, &mut best);
                continue;
            };
            let hit = |c: NodeIndex| ray_aabb(ray, &padded(c), limit).map(|d| (c, d));
            let (near, far) = match (hit(first), graph.next_sibling_at(first).and_then(hit)) {
                (Some(a), Some(b)) if b.1 < a.1 => (Some(b), Some(a)),
                pair => pair,
            };
            // The BVH is binary: the farther child is pushed first, so the nearer one
            // is popped next.
            stack.extend([far, near].into_iter().flatten());
        }
        PENDING.set(stack);
        best
    }

    /// As [`ray_hit`](Mesh::ray_hit) for a world ray, the mesh placed by `world` (distance
    /// and point in world terms); `None` as well when `world` is singular.
    pub fn ray_hit_world(
        &self,
        ray: &Ray,
        world: &Affine3A,
        max_distance: f32,
    ) -> Option<TriangleHit> {
        let (local, scale) = ray.transformed(&world.inverse())?;
        let hit = self.ray_hit(&local, max_distance * scale)?;
        let distance = hit.distance / scale;
        Some(TriangleHit {
            distance,
            point: ray.at(distance),
            ..hit
        })
    }
}

thread_local! {
    /// The pending (node, entry distance) pairs of [`Mesh::ray_hit`].
    static PENDING: Cell<Vec<(NodeIndex, f32)>> = const { Cell::new(Vec::new()) };
}

impl NodeCore for Mesh {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.geometry)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Geometry>())
    }
}

impl fmt::Debug for Mesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The arrays can hold millions of entries: show their sizes, not their contents.
        f.debug_struct("Mesh")
            .field("geometry", &self.geometry)
            .field("positions", &self.data.positions.len())
            .field("triangles", &self.data.triangles.len())
            .field("bvh_nodes", &self.data.bvh.graph().len())
            .finish()
    }
}
