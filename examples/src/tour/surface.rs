//! What the tour draws and picks of a geometry node, in world space: a mesh's
//! triangles placed by its node, a skinned mesh's posed by its joints, and plain
//! geometry's world box (which picking counts as solid).

use scenewalk_actors::WorldTable;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::{Geometry, Mesh, Ray, SkinnedMesh, ray_aabb, ray_triangle};

/// A geometry node's surface in world space.
#[derive(Clone, Debug, PartialEq)]
pub enum Surface {
    /// Triangles: a mesh's, or a skinned mesh's posed.
    Triangles(Vec<[Vec3; 3]>),
    /// Plain geometry: its local box placed by its node, boxed again in world axes.
    Box(Aabb),
}

impl Surface {
    /// The surface of the geometry node `node`, placed by the update's `world`
    /// (a skinned mesh by its joints' world matrices).
    ///
    /// Errors: `node` is no geometry the update reached, or a skinned mesh's joint has
    /// no world transform.
    pub fn of(graph: &Graph, node: NodeId, world: &WorldTable) -> Result<Surface, String> {
        if let Ok(skinned) = graph.get::<SkinnedMesh>(node) {
            let mut matrices = Vec::new();
            (skinned.skin())
                .joint_matrices(|j| world.world(graph, j).ok(), &mut matrices)
                .map_err(|joint| {
                    format!("joint {joint} of the skinned mesh {node} has no world transform")
                })?;
            let posed: Vec<Vec3> = skinned
                .posed_positions(&matrices)
                .ok_or_else(|| format!("the skinned mesh {node} uses joints its skin lacks"))?
                .collect();
            let corner = |v: u32| posed.get(v as usize).copied().unwrap_or(Vec3::NAN);
            let triangles = skinned.mesh().triangles().iter();
            return Ok(Surface::Triangles(
                triangles.map(|t| t.map(corner)).collect(),
            ));
        }
        let placed: Affine3A = world.world(graph, node).map_err(|e| e.to_string())?;
        if let Ok(mesh) = graph.get::<Mesh>(node) {
            let triangles = (0..mesh.geometry().primitives())
                .filter_map(|k| mesh.triangle(k))
                .map(|t| t.map(|p| placed.transform_point3(p)));
            return Ok(Surface::Triangles(triangles.collect()));
        }
        let geometry = graph.get::<Geometry>(node).map_err(|e| e.to_string())?;
        Ok(Surface::Box(geometry.local_bounds().transformed(&placed)))
    }

    /// How many triangles (or boxes) it has.
    pub fn parts(&self) -> usize {
        match self {
            Surface::Triangles(t) => t.len(),
            Surface::Box(_) => 1,
        }
    }

    /// The nearest hit of `ray`, by brute force: every triangle tested, or the box.
    pub fn ray_hit(&self, ray: &Ray) -> Option<f32> {
        match self {
            Surface::Triangles(triangles) => triangles
                .iter()
                .filter_map(|t| ray_triangle(ray, t).map(|(t, _, _)| t))
                .reduce(f32::min),
            Surface::Box(b) => ray_aabb(ray, b, f32::INFINITY),
        }
    }

    /// A point to aim a ray from `eye` at: the centroid of a triangle near the
    /// `fraction` (0..1) of the list that faces `eye` (not edge-on) and lies ahead
    /// along `forward`; a box's centre.
    pub fn aim(&self, fraction: f64, eye: Vec3, forward: Vec3) -> Option<Vec3> {
        let triangles = match self {
            Surface::Box(b) => return Some(b.center()),
            Surface::Triangles(t) if t.is_empty() => return None,
            Surface::Triangles(t) => t,
        };
        let start = ((fraction * triangles.len() as f64) as usize).min(triangles.len() - 1);
        let facing = |t: &&[Vec3; 3]| {
            let [a, b, c] = **t;
            let centre = (a + b + c) / 3.0;
            let to_eye = (eye - centre).normalize_or_zero();
            let normal = (b - a).cross(c - a).normalize_or_zero();
            normal.dot(to_eye).abs() > 0.3 && (centre - eye).dot(forward) > 0.0
        };
        let (head, tail) = triangles.split_at(start);
        tail.iter()
            .chain(head)
            .find(facing)
            .map(|[a, b, c]| (*a + *b + *c) / 3.0)
    }
}
