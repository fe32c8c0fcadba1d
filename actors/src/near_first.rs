//! Front-to-back priority keys.

use crate::BoundsTable;
use scenewalk_core::glam::Vec3;
use scenewalk_core::{ActiveList, Flow, RunContext, StaticActor, TraversalError, Visit};
use std::sync::Arc;

/// Gives each active child the priority key −(distance from a viewer to the child's
/// world box), so a priority iterator takes nearer subtrees first (a static actor):
/// front-to-back order for rendering, occlusion or nearest-first searches.
///
/// It reads the update pass's [`BoundsTable`] ([`Action::run_with`](scenewalk_core::Action::run_with)).
/// A viewer inside a box is at distance 0; a child with no box (unreached, or empty) or
/// a NaN distance goes last.
///
/// ```
/// use scenewalk_actors::{IncrementalUpdate, NearFirst, RenderList, Sorting};
/// use scenewalk_core::prelude::*;
/// use scenewalk_iterators::PriorityQueue;
/// use scenewalk_nodes::{Geometry, Group};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let at = |x: f32| Geometry::new(Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)));
/// let far = graph.append_child(root, at(50.0))?;
/// let near = graph.append_child(root, at(5.0))?;
/// let mut update = IncrementalUpdate::new();
/// update.run(&graph, root)?;
/// let list = Ordered::new(RenderList::new(Affine3A::IDENTITY).with_sorting(Sorting::Arrival));
/// let mut view = Action::new(PriorityQueue::new(), (Static::new(NearFirst::new(Vec3::ZERO)), list))?;
/// view.run_with(&graph, root, &update.results())?;
/// let list = view.actor::<RenderList>().unwrap();
/// let order: Vec<_> = list.items().iter().map(|item| item.node).collect();
/// assert_eq!(order, [near.index(), far.index()]); // nearest box first
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct NearFirst {
    viewer: Vec3,
    /// The update pass's boxes, held from `begin` to `end`.
    bounds: Option<Arc<BoundsTable>>,
}

impl NearFirst {
    /// Keys children by distance from `viewer` to their world boxes.
    pub fn new(viewer: Vec3) -> Self {
        Self {
            viewer,
            bounds: None,
        }
    }

    /// Moves the viewer.
    pub fn set_viewer(&mut self, viewer: Vec3) {
        self.viewer = viewer;
    }

    /// Distance from the viewer to the world box of slot `node` (infinite without a
    /// box, or when NaN: it goes last rather than failing the run).
    #[inline]
    fn distance(&self, node: scenewalk_core::NodeIndex) -> f32 {
        match self.bounds.as_deref().and_then(|b| b.at(node)) {
            Some(b) if !b.is_empty() => {
                let d = (self.viewer.clamp(b.min, b.max) - self.viewer).length();
                if d.is_nan() { f32::INFINITY } else { d }
            }
            _ => f32::INFINITY,
        }
    }
}

impl StaticActor for NearFirst {
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        self.bounds = Some(run.read::<BoundsTable>("NearFirst")?);
        Ok(())
    }

    fn end(&mut self) {
        self.bounds = None;
    }

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
