//! Front-to-back priority keys.

use crate::Bounds;
use scenewalk_core::glam::Vec3;
use scenewalk_core::{ActiveList, Flow, StaticActor, Visit};
use std::sync::Arc;

/// Gives each active child the priority key −(distance from a viewer to the child's
/// world box), so a priority iterator takes nearer subtrees first: front-to-back
/// order for rendering, occlusion or nearest-first searches.
///
/// The boxes come from an earlier [`Bounds`] run. A viewer inside a box is at distance
/// 0; a child with no box (not reached by that run, or empty), and one whose distance
/// is NaN (a NaN viewer or box), goes last.
///
/// ```
/// use std::sync::Arc;
/// use scenewalk_actors::{Bounds, NearFirst};
/// use scenewalk_core::{Aabb, Action, Graph, Ordered, Static, glam::Vec3};
/// use scenewalk_iterators::{PriorityQueue, Walk};
/// use scenewalk_nodes::{Geometry, Group};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let at = |x: f32| Geometry::new(Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)));
/// let far = graph.append_child(root, at(50.0))?;
/// let near = graph.append_child(root, at(5.0))?;
/// let mut update = Action::new(scenewalk_iterators::DepthFirst::new(), (Ordered::new(Bounds::new()),))?;
/// update.run(&graph, root)?;
/// let keys = NearFirst::new(Vec3::ZERO, Arc::new(update.actor::<Bounds>().unwrap().clone()));
/// assert_eq!(keys.distance(near.index()), 5.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct NearFirst {
    viewer: Vec3,
    bounds: Arc<Bounds>,
}

impl NearFirst {
    /// Keys children by distance from `viewer` to their boxes in `bounds`.
    pub fn new(viewer: Vec3, bounds: Arc<Bounds>) -> Self {
        Self { viewer, bounds }
    }

    /// Moves the viewer.
    pub fn set_viewer(&mut self, viewer: Vec3) {
        self.viewer = viewer;
    }

    /// Distance from the viewer to the world box of the node in slot `node`
    /// (`f32::INFINITY` without a box, or when it would be NaN).
    #[inline]
    pub fn distance(&self, node: scenewalk_core::NodeIndex) -> f32 {
        let distance = match self.bounds.world_bounds_at(node) {
            Some(b) if !b.is_empty() => (self.viewer.clamp(b.min, b.max) - self.viewer).length(),
            _ => f32::INFINITY,
        };
        // A NaN (a NaN viewer or box) goes last rather than failing the whole run.
        if distance.is_nan() {
            f32::INFINITY
        } else {
            distance
        }
    }
}

impl StaticActor for NearFirst {
    #[inline]
    fn enter(&self, _visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        for mut child in active.iter_mut() {
            if child.is_active() {
                let key = -self.distance(child.node());
                child.set_key(key);
            }
        }
        Flow::Continue
    }
}
