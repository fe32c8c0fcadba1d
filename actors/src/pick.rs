//! Picking: the nearest ray hit, nearest boxes first.

use crate::skinned::joint_matrices;
use crate::{BoundsTable, WorldTable};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    ActiveList, Flow, NodeIndex, RunContext, TraversalError, Typed, UnorderedActor, Visit,
};
use scenewalk_nodes::{Geometry, Mesh, Ray, SkinnedMesh, ray_aabb, ray_triangles};
use std::sync::Arc;

/// The nearest thing a pick ray hits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PickHit {
    /// The node hit.
    pub node: NodeIndex,
    /// Distance along the ray (world units; the ray's direction is unit length).
    pub distance: f32,
    /// The hit point in world space.
    pub point: Vec3,
    /// The triangle hit: for a [`Mesh`], its BVH walked, placed by the node's world
    /// transform; for a [`SkinnedMesh`], its triangles posed by its joints (as drawn).
    /// `None` where a plain [`Geometry`]'s world box counts as solid.
    pub triangle: Option<u32>,
}

/// Finds the nearest hit of a world-space ray (an unordered actor).
///
/// It reads the update pass's [`BoundsTable`] and [`WorldTable`]
/// ([`Action::run_with`](scenewalk_core::Action::run_with)). At each node it drops the
/// children whose world box the ray misses or enters beyond the best hit so far, and
/// keys the others by −(entry distance), so a priority iterator takes the nearest box
/// first. The surfaces are as [`PickHit::triangle`] says.
///
/// **Skinned meshes** are hit where they are drawn: on their triangles posed by the
/// joints' world matrices of the update ([`SkinnedMesh::posed_positions`]), exactly,
/// as a CPU raycast against skinned positions does. Their box from the joints
/// ([`BoundsTable::skinned_at`]) is the broad phase: only a mesh whose box the ray
/// enters nearer than the best hit so far is posed, and then every vertex is skinned
/// and every triangle tested ([`ray_triangles`]), O(vertices × influences +
/// triangles) per such mesh and ray, with no hierarchy (the mesh's BVH holds the bind
/// pose, which a ray would hit where nothing is drawn). The buffers are kept from run
/// to run.
///
/// **Early stop.** Under [`PriorityQueue`](scenewalk_iterators::PriorityQueue) boxes
/// come out nearest entry first, so once the next box starts beyond the best hit the
/// actor returns [`Flow::Stop`]; under any other order it prunes instead, with the
/// same result ([`assume_key_order`](Pick::assume_key_order) changes which).
///
/// ```
/// use scenewalk_actors::{IncrementalUpdate, Pick};
/// use scenewalk_core::prelude::*;
/// use scenewalk_iterators::PriorityQueue;
/// use scenewalk_nodes::{Geometry, Group, Mesh, Ray, Transform};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let near = graph.append_child(root, Transform::from_translation(Vec3::new(0.0, 0.0, -5.0)))?;
/// let ball = graph.append_child(near, Mesh::uv_sphere(1.0, 16, 8)?)?;
/// graph.append_child(root, Geometry::new(Aabb::new(Vec3::new(-1.0, -1.0, -21.0), Vec3::new(1.0, 1.0, -20.0))))?;
/// let mut update = IncrementalUpdate::new();
/// update.run(&graph, root)?;
///
/// let ray = Ray::new(Vec3::ZERO, -Vec3::Z)?;
/// let mut pick = Action::new(PriorityQueue::new(), (Unordered::new(Pick::new(ray)),))?;
/// let stats = pick.run_with(&graph, root, &update.results())?;
/// let hit = pick.actor::<Pick>().unwrap().hit().unwrap();
/// assert_eq!(hit.node, ball.index());
/// assert!((hit.distance - 4.0).abs() < 1e-3);
/// assert!(stats.stopped); // the far box was never entered
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Pick {
    ray: Ray,
    /// The update pass's results, held from `begin` to `end`.
    world: Option<Arc<WorldTable>>,
    bounds: Option<Arc<BoundsTable>>,
    meshes: Typed<Mesh>,
    skinned: Typed<SkinnedMesh>,
    /// `None`: stop early under the pure `PriorityQueue` only.
    assume_key_order: Option<bool>,
    key_order: bool,
    best: Option<PickHit>,
    /// Scratch for posing a skinned mesh: joint matrices and skinned vertices.
    matrices: Vec<Affine3A>,
    posed: Vec<Vec3>,
}

impl Pick {
    /// Picks along `ray`.
    pub fn new(ray: Ray) -> Self {
        Self {
            ray,
            world: None,
            bounds: None,
            meshes: Typed::new(),
            skinned: Typed::new(),
            assume_key_order: None,
            key_order: false,
            best: None,
            matrices: Vec::new(),
            posed: Vec::new(),
        }
    }

    /// Declares whether the iterator takes nodes in the order of Pick's keys (largest
    /// first), so the actor may stop early: `true` for a user iterator that does,
    /// `false` when an actor after Pick sets other keys. Without this call, Pick stops
    /// early under the pure [`PriorityQueue`](scenewalk_iterators::PriorityQueue) only.
    #[must_use]
    pub fn assume_key_order(mut self, yes: bool) -> Self {
        self.assume_key_order = Some(yes);
        self
    }

    /// Aims a new ray.
    pub fn set_ray(&mut self, ray: Ray) {
        self.ray = ray;
    }

    /// The ray.
    pub fn ray(&self) -> &Ray {
        &self.ray
    }

    /// The nearest hit of the latest run.
    pub fn hit(&self) -> Option<PickHit> {
        self.best
    }

    #[inline]
    fn limit(&self) -> f32 {
        self.best.map_or(f32::INFINITY, |b| b.distance)
    }
}

impl UnorderedActor for Pick {
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        self.meshes.resolve(run.graph.types());
        self.skinned.resolve(run.graph.types());
        self.key_order = self
            .assume_key_order
            .unwrap_or(run.capabilities.name == "PriorityQueue");
        self.best = None;
        self.world = Some(run.read::<WorldTable>("Pick")?);
        self.bounds = Some(run.read::<BoundsTable>("Pick")?);
        Ok(())
    }

    fn end(&mut self) {
        self.world = None;
        self.bounds = None;
    }

    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let (Some(world), Some(bounds)) = (self.world.as_deref(), self.bounds.as_deref()) else {
            return Flow::Continue;
        };
        let node = visit.node();
        let limit = self.limit();
        match bounds.at(node) {
            // Not reached by the update pass: nothing known, so look inside.
            None => {}
            Some(b) => match ray_aabb(&self.ray, &b, limit) {
                Some(_) => {}
                // Keys make a priority order pop boxes nearest entry first, and a
                // child's box lies within its parent's: nothing pending is nearer.
                None if self.key_order && self.best.is_some() => return Flow::Stop,
                None => return Flow::Prune,
            },
        }
        let ty = visit.node_type();
        let hit = if self.skinned.contains(ty) {
            let broad = bounds.skinned_at(node);
            let entered = broad.and_then(|b| ray_aabb(&self.ray, &b, limit)).is_some();
            let mesh = visit.get::<SkinnedMesh>().filter(|_| entered);
            let (ray, matrices, posed) = (&self.ray, &mut self.matrices, &mut self.posed);
            let hit = mesh.and_then(|mesh| {
                if !joint_matrices(visit.graph(), mesh, |j| world.at(j), matrices) {
                    return None;
                }
                posed.clear();
                posed.extend(mesh.posed_positions(matrices)?);
                ray_triangles(ray, posed, mesh.mesh().triangles(), limit)
            });
            hit.map(|hit| (hit.distance, hit.point, Some(hit.triangle)))
        } else if self.meshes.contains(ty) {
            let mesh = visit.get::<Mesh>().zip(world.at(node));
            let hit = mesh.and_then(|(mesh, world)| mesh.ray_hit_world(&self.ray, &world, limit));
            hit.map(|hit| (hit.distance, hit.point, Some(hit.triangle)))
        } else {
            // Plain geometry: its world box counts as solid.
            let solid = visit.get::<Geometry>().zip(world.at(node));
            let solid = solid.map(|(geometry, world)| geometry.local_bounds().transformed(&world));
            let t = solid.and_then(|solid| ray_aabb(&self.ray, &solid, limit));
            t.map(|t| (t, self.ray.at(t), None))
        };
        // The nearest hit wins, ties by slot.
        if let Some((distance, point, triangle)) = hit
            && self
                .best
                .is_none_or(|b| (distance, node) < (b.distance, b.node))
        {
            self.best = Some(PickHit {
                node,
                distance,
                point,
                triangle,
            });
        }
        let limit = self.limit();
        for mut child in active.iter_mut() {
            if !child.is_active() {
                continue;
            }
            match bounds.at(child.node()) {
                None => child.set_key(0.0),
                Some(b) => match ray_aabb(&self.ray, &b, limit) {
                    Some(t) => child.set_key(-t),
                    None => child.deactivate(),
                },
            }
        }
        Flow::Continue
    }
}
