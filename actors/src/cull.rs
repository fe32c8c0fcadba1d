//! View-frustum culling.

use crate::BoundsTable;
use scenewalk_core::{
    ActiveList, Flow, Graph, NodeIndex, OrderedActor, RunContext, StateCell, StaticActor,
    TraversalError, Visit,
};
use scenewalk_nodes::{Containment, Frustum, PlaneMask};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Deactivates the children whose world bounding box lies outside a view frustum, so
/// nothing below them is entered (paper 3.1: an actor choosing the active list).
///
/// It reads the update pass's [`BoundsTable`] ([`Action::run_with`](scenewalk_core::Action::run_with)).
/// The test is **conservative**: a child is dropped only when its whole box lies beyond
/// one plane; a NaN or empty box and a node the update did not reach count as visible.
///
/// Two classes, one actor:
/// - `Ordered::new(cull)`: the state is a [`PlaneMask`]: a box fully inside a plane
///   passes that plane down, so its subtree is never tested against it again.
/// - `Static::new(cull)`: no state: each node classifies its own box to find the
///   planes its children still need. Also runs on breadth-first batches.
///
/// Every order enters the same nodes and gives the same counts per run
/// ([`tested`](FrustumCull::tested), [`culled`](FrustumCull::culled)).
///
/// ```
/// use scenewalk_actors::{FrustumCull, IncrementalUpdate};
/// use scenewalk_core::prelude::*;
/// use scenewalk_nodes::{Camera, Geometry, Group};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let unit = |z: f32| Geometry::new(Aabb::new(Vec3::new(-1.0, -1.0, z), Vec3::new(1.0, 1.0, z + 1.0)));
/// graph.append_child(root, unit(-10.0))?; // ahead of the camera
/// graph.append_child(root, unit(10.0))?;  // behind it
/// let mut update = IncrementalUpdate::new();
/// update.run(&graph, root)?;
///
/// let frustum = Camera::perspective(1.0, 1.0, 0.1, 100.0)?.frustum(&Affine3A::IDENTITY);
/// let mut view = Action::new(DepthFirst::new(), (Ordered::new(FrustumCull::new(frustum)),))?;
/// let stats = view.run_with(&graph, root, &update.results())?;
/// assert_eq!(stats.entered, 2); // root and the box ahead
/// assert_eq!(view.actor::<FrustumCull>().unwrap().culled(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FrustumCull {
    frustum: Frustum,
    /// The update pass's boxes, held from `begin` to `end`.
    bounds: Option<Arc<BoundsTable>>,
    tested: AtomicU64,
    culled: AtomicU64,
}

impl FrustumCull {
    /// Culls against `frustum`.
    pub fn new(frustum: Frustum) -> Self {
        Self {
            frustum,
            bounds: None,
            tested: AtomicU64::new(0),
            culled: AtomicU64::new(0),
        }
    }

    /// The frustum.
    pub fn frustum(&self) -> &Frustum {
        &self.frustum
    }

    /// Changes the frustum (the camera moved).
    pub fn set_frustum(&mut self, frustum: Frustum) {
        self.frustum = frustum;
    }

    /// Child boxes tested in the latest run.
    pub fn tested(&self) -> u64 {
        self.tested.load(Ordering::Relaxed)
    }

    /// Nodes culled in the latest run: the children dropped (not entered), and the
    /// run's root if its box lies outside (entered, its children pruned).
    pub fn culled(&self) -> u64 {
        self.culled.load(Ordering::Relaxed)
    }

    #[inline]
    fn box_at(&self, node: NodeIndex) -> Option<scenewalk_core::Aabb> {
        self.bounds.as_deref()?.at(node)
    }

    /// The planes of `inherited` the node's children still need (those its box is not
    /// wholly inside). `None` for the run's root (`depth` 0) outside; a deeper node
    /// outside (which a bounds run never gives) passes `inherited` on.
    #[inline]
    fn mask_at(&self, node: NodeIndex, depth: u32, inherited: PlaneMask) -> Option<PlaneMask> {
        let Some(b) = self.box_at(node) else {
            return Some(inherited);
        };
        match self.frustum.classify(&b, inherited) {
            Containment::Visible(mask) => Some(mask),
            Containment::Outside => (depth > 0).then_some(inherited),
        }
    }

    /// Deactivates the active entries outside a plane of `mask_of`; (tested, culled).
    #[inline]
    fn cull(
        &self,
        active: &mut ActiveList<'_>,
        mut mask_of: impl FnMut(NodeIndex) -> PlaneMask,
    ) -> (u64, u64) {
        let (mut tested, mut culled) = (0, 0);
        for mut child in active.iter_mut() {
            if !child.is_active() {
                continue;
            }
            let mask = mask_of(child.node());
            if mask == PlaneMask::NONE {
                continue;
            }
            tested += 1;
            if let Some(b) = self.box_at(child.node())
                && self.frustum.classify(&b, mask) == Containment::Outside
            {
                child.deactivate();
                culled += 1;
            }
        }
        (tested, culled)
    }

    fn count(&self, tested: u64, culled: u64) {
        if tested > 0 {
            self.tested.fetch_add(tested, Ordering::Relaxed);
        }
        if culled > 0 {
            self.culled.fetch_add(culled, Ordering::Relaxed);
        }
    }
}

impl StaticActor for FrustumCull {
    const BATCHES: bool = true;

    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        *self.tested.get_mut() = 0;
        *self.culled.get_mut() = 0;
        self.bounds = Some(run.read::<BoundsTable>("FrustumCull")?);
        Ok(())
    }

    fn end(&mut self) {
        self.bounds = None;
    }

    #[inline]
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if visit.depth() > 0 && visit.graph().first_child_at(visit.node()).is_none() {
            return Flow::Continue;
        }
        let Some(mask) = self.mask_at(visit.node(), visit.depth(), PlaneMask::ALL) else {
            self.count(0, 1);
            return Flow::Prune;
        };
        if mask == PlaneMask::NONE {
            return Flow::Continue;
        }
        let (tested, culled) = self.cull(active, |_| mask);
        self.count(tested, culled);
        Flow::Continue
    }

    /// Tests each entry as its parent's `enter` would; the root's batch is the root
    /// alone, pruned if outside.
    fn enter_batch(&self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        if depth == 0 {
            let mut roots = batch.active_nodes();
            if roots.any(|root| self.mask_at(root, 0, PlaneMask::ALL).is_none()) {
                self.count(0, 1);
                return Flow::Prune;
            }
            return Flow::Continue;
        }
        // A level's entries come in runs of siblings: one mask per parent.
        let mut last = (None, PlaneMask::ALL);
        let (tested, culled) = self.cull(batch, |node| {
            let parent = graph.parent_at(node);
            if parent != last.0 {
                let mask = parent.and_then(|p| self.mask_at(p, depth, PlaneMask::ALL));
                last = (parent, mask.unwrap_or(PlaneMask::ALL));
            }
            last.1
        });
        self.count(tested, culled);
        Flow::Continue
    }
}

impl OrderedActor for FrustumCull {
    type State = PlaneMask;

    fn root_state(&mut self, run: &RunContext<'_>) -> Result<PlaneMask, TraversalError> {
        StaticActor::begin(self, run)?;
        Ok(PlaneMask::ALL)
    }

    fn end(&mut self) {
        self.bounds = None;
    }

    #[inline]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, PlaneMask>,
        visit: &Visit<'_>,
        active: &mut ActiveList<'_>,
    ) -> Flow {
        let inherited = *state.get();
        if inherited == PlaneMask::NONE
            || (visit.depth() > 0 && visit.graph().first_child_at(visit.node()).is_none())
        {
            return Flow::Continue;
        }
        let Some(mask) = self.mask_at(visit.node(), visit.depth(), inherited) else {
            *self.culled.get_mut() += 1;
            return Flow::Prune;
        };
        if mask != inherited {
            state.set(mask);
        }
        if mask == PlaneMask::NONE {
            return Flow::Continue;
        }
        let (tested, culled) = self.cull(active, |_| mask);
        *self.tested.get_mut() += tested;
        *self.culled.get_mut() += culled;
        Flow::Continue
    }

    const FORKS: bool = true;
    fn fork(&self, state: &PlaneMask) -> Option<(Self, PlaneMask)> {
        let mut worker = FrustumCull::new(self.frustum);
        worker.bounds.clone_from(&self.bounds);
        Some((worker, *state))
    }
    fn merge(&mut self, worker: Self) {
        *self.tested.get_mut() += worker.tested();
        *self.culled.get_mut() += worker.culled();
    }
}
