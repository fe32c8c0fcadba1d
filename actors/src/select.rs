//! Level-of-detail and switch selection.

use crate::WorldTable;
use scenewalk_core::glam::Vec3;
use scenewalk_core::{ActiveList, Dispatch, Flow, RunContext, StaticActor, TraversalError, Visit};
use scenewalk_nodes::{Lod, Switch};
use std::sync::Arc;

/// At each [`Lod`] node, deactivates the children whose distance range does not hold
/// the viewer's distance to the node's centre (single-type dispatch: no other node
/// reaches it; static state).
///
/// The centre is placed by the node's world transform from the update pass's
/// [`WorldTable`] ([`Action::run_with`](scenewalk_core::Action::run_with)). An unreached
/// node or a NaN distance selects child 0, the most detailed: wrong only in cost.
///
/// ```
/// use scenewalk_actors::{IncrementalUpdate, LodSelect};
/// use scenewalk_core::prelude::*;
/// use scenewalk_nodes::{Group, Lod, Transform};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Transform::from_translation(Vec3::new(0.0, 0.0, 100.0)));
/// let lod = graph.append_child(root, Lod::from_thresholds(Vec3::ZERO, &[50.0])?)?;
/// graph.append_child(lod, Group)?; // fine
/// graph.append_child(lod, Group)?; // coarse
/// let mut update = IncrementalUpdate::new();
/// update.run(&graph, root)?;
///
/// // The viewer at the origin is 100 away: the coarse child shows.
/// let mut view = Action::new(DepthFirst::new(), (Static::new(LodSelect::new(Vec3::ZERO)),))?;
/// let stats = view.run_with(&graph, root, &update.results())?;
/// assert_eq!(stats.entered, 3); // root, lod, coarse
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct LodSelect {
    viewer: Vec3,
    /// The update pass's world transforms, held from `begin` to `end`.
    world: Option<Arc<WorldTable>>,
}

impl LodSelect {
    /// Selects by distance from `viewer` (world space).
    pub fn new(viewer: Vec3) -> Self {
        Self {
            viewer,
            world: None,
        }
    }

    /// Moves the viewer.
    pub fn set_viewer(&mut self, viewer: Vec3) {
        self.viewer = viewer;
    }
}

impl StaticActor for LodSelect {
    fn dispatch(&self) -> Dispatch {
        Dispatch::single::<Lod>()
    }

    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        self.world = Some(run.read::<WorldTable>("LodSelect")?);
        Ok(())
    }

    fn end(&mut self) {
        self.world = None;
    }

    #[inline]
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let Some(lod) = visit.get::<Lod>() else {
            return Flow::Continue;
        };
        let distance = match self.world.as_deref().and_then(|w| w.at(visit.node())) {
            Some(world) => (world.transform_point3(lod.center()) - self.viewer).length(),
            None => f32::NAN,
        };
        for (i, mut child) in active.iter_mut().enumerate() {
            if !lod.shows(i, distance) {
                child.deactivate();
            }
        }
        Flow::Continue
    }
}

/// At each [`Switch`] node, deactivates the children the switch has off (single-type
/// dispatch, static state).
///
/// ```
/// use scenewalk_actors::SwitchSelect;
/// use scenewalk_core::prelude::*;
/// use scenewalk_nodes::{Group, Selection, Switch};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Switch::new(Selection::One(1)));
/// for _ in 0..3 {
///     graph.append_child(root, Group)?;
/// }
/// let mut view = Action::new(DepthFirst::new(), (Static::new(SwitchSelect),))?;
/// assert_eq!(view.run(&graph, root)?.entered, 2); // the root and child 1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SwitchSelect;

impl StaticActor for SwitchSelect {
    fn dispatch(&self) -> Dispatch {
        Dispatch::single::<Switch>()
    }

    #[inline]
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let Some(switch) = visit.get::<Switch>() else {
            return Flow::Continue;
        };
        for (i, mut child) in active.iter_mut().enumerate() {
            if !switch.is_on(i) {
                child.deactivate();
            }
        }
        Flow::Continue
    }
}
