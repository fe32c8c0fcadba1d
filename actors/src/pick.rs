//! Picking: the nearest ray hit, nearest boxes first.

use crate::{BoundsTable, WorldTable};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{
    ActiveList, Flow, NodeIndex, RunContext, TraversalError, Typed, UnorderedActor, Visit,
};
use scenewalk_nodes::{Geometry, Mesh, Ray, SkinnedMesh, ray_aabb};
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
    /// The triangle hit, for a [`Mesh`] (its BVH walked, placed by the node's world
    /// transform); `None` where a world box counts as solid: a plain [`Geometry`]'s, or
    /// a [`SkinnedMesh`]'s own from its joints ([`BoundsTable::skinned_at`]).
    pub triangle: Option<u32>,
}

/// Finds the nearest hit of a world-space ray (an unordered actor).
///
/// It reads the update pass's [`BoundsTable`] and [`WorldTable`]
/// ([`Action::run_with`](scenewalk_core::Action::run_with)). At each node it drops the
/// children whose world box the ray misses or enters beyond the best hit so far, and
/// keys the others by −(entry distance), so a priority iterator takes the nearest box
/// first. The surfaces are as [`PickHit::triangle`] says (a skinned mesh's BVH holds
/// the bind pose, which a ray would hit where nothing is drawn).
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
    geometry: Typed<Geometry>,
    skinned: Typed<SkinnedMesh>,
    /// `None`: stop early under the pure `PriorityQueue` only.
    assume_key_order: Option<bool>,
    key_order: bool,
    best: Option<PickHit>,
}

impl Pick {
    /// Picks along `ray`.
    pub fn new(ray: Ray) -> Self {
        Self {
            ray,
            world: None,
            bounds: None,
            meshes: Typed::new(),
            geometry: Typed::new(),
            skinned: Typed::new(),
            assume_key_order: None,
            key_order: false,
            best: None,
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
        self.geometry.resolve(run.graph.types());
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
        let skinned = self.skinned.contains(ty);
        let hit = if self.meshes.contains(ty) && !skinned {
            let mesh = visit.get::<Mesh>().zip(world.at(node));
            let hit = mesh.and_then(|(mesh, world)| mesh.ray_hit_world(&self.ray, &world, limit));
            hit.map(|hit| (hit.distance, hit.point, Some(hit.triangle)))
        } else {
            // A box that counts as solid: a skinned mesh's posed box, else the world
            // box of plain geometry.
            let solid = if skinned {
                bounds.skinned_at(node)
            } else if self.geometry.contains(ty)
                && let (Some(geometry), Some(world)) = (visit.get::<Geometry>(), world.at(node))
            {
                Some(geometry.local_bounds().transformed(&world))
            } else {
                None
            };
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
