//! Frustum culling of tiles.

use scenewalk_core::glam::DVec3;
use scenewalk_core::{ActiveList, Flow, StaticActor, Visit};
use scenewalk_nodes::Frustum;
use scenewalk_nodes::tiles::Tile;

/// Deactivates the child tiles whose world volume lies wholly beyond a plane of the
/// view frustum, so nothing below them is entered (a static actor: no state, enter
/// only). The test runs in f64 relative to the eye ([`Volume::outside`](scenewalk_nodes::tiles::Volume::outside)).
///
/// It runs after [`TileRefine`](super::TileRefine) in the chain, so only the children
/// of a tile that refines are tested; that actor reads which children were culled
/// (they are not entered) when it decides whether its tile can be replaced.
#[derive(Clone, Debug)]
pub struct TileCull {
    frustum: Option<Frustum>,
    eye: DVec3,
}

impl TileCull {
    /// Culls nothing until [`set_view`](Self::set_view).
    pub fn new() -> Self {
        Self {
            frustum: None,
            eye: DVec3::ZERO,
        }
    }

    /// The frustum (built at the origin) and the eye it is placed at.
    pub fn set_view(&mut self, frustum: Option<Frustum>, eye: DVec3) {
        self.frustum = frustum;
        self.eye = eye;
    }

    /// Whether `tile` lies outside the view.
    pub fn culls(&self, tile: &Tile) -> bool {
        self.frustum
            .as_ref()
            .is_some_and(|f| tile.volume.outside(f, self.eye))
    }
}

impl Default for TileCull {
    fn default() -> Self {
        Self::new()
    }
}

impl StaticActor for TileCull {
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        // A pruned tile's children are already dropped: build no list for them.
        if active.active_nodes().next().is_none() {
            return Flow::Continue;
        }
        let graph = visit.graph();
        active.retain(|child| graph.get_at::<Tile>(child).is_none_or(|t| !self.culls(t)));
        Flow::Continue
    }
}
