//! The error test, refinement with the no-hole rule, and load requests.

use super::state::{LoadState, Shown, States};
use super::view::screen_space_error;
use scenewalk_core::glam::DVec3;
use scenewalk_core::{
    ActiveList, Events, Flow, NodeId, NodeIndex, RunContext, TraversalError, UnorderedActor, Visit,
};
use scenewalk_nodes::Frustum;
use scenewalk_nodes::tiles::{Refine, Tile};

/// The three load priority groups, most pressing first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Group {
    /// Needed to avoid a hole: a tile shown in place of children that are not ready,
    /// or a culled child its REPLACE parent waits for.
    Urgent,
    /// A tile the view wants to show.
    Normal,
    /// A tile refined past (REPLACE), kept for when the camera backs away.
    Preload,
}

/// What a load fetches for a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Want {
    /// Its contents.
    Content,
    /// The external tileset or subtree file it needs before it has children.
    Structure,
}

/// A load the traversal asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Request {
    /// The tile.
    pub node: NodeId,
    /// What to fetch.
    pub want: Want,
    /// Its priority group.
    pub group: Group,
    /// Order inside the group, smaller first: distance, stretched by the angle off the
    /// view direction.
    pub score: f64,
}

/// Decides per tile whether to show it or refine it, and asks for what is missing (an
/// unordered actor with enter and leave events; its state, the per-tile [`TileState`](super::TileState)s, lives
/// in an array indexed by node slot and is kept from frame to frame).
///
/// - **Enter:** the screen-space error `geometricError · viewportHeight / (distance · 2 ·
///   tan(fovy / 2))`; above the limit, a tile with children refines (its children keyed
///   by their own error, so a priority iterator takes the largest first); otherwise it is
///   shown. A tile without its children yet asks for them (external tileset or subtree
///   file, or an implicit expansion) and is shown meanwhile.
/// - **Leave** (after all its descendants): a REPLACE tile that refined is replaced
///   only if every child is ready, the culled ones included (they are kept loaded, asked
///   for urgently): otherwise the tile is shown and its descendants' selections are
///   **kicked**. An ADD tile is shown with its children.
#[derive(Clone, Debug)]
pub struct TileRefine {
    pub(crate) eye: DVec3,
    pub(crate) direction: DVec3,
    pub(crate) factor: f64,
    pub(crate) max_sse: f64,
    pub(crate) frustum: Option<Frustum>,
    pub(crate) frame: u64,
    pub(crate) states: States,
    pub(crate) requests: Vec<Request>,
    /// The shown tiles' list entries: node and next entry.
    pub(crate) links: Vec<(NodeIndex, u32)>,
    /// Shown tiles dropped this frame for an ancestor shown in their place.
    pub(crate) kicked: u64,
    pub(crate) expansions: Vec<NodeId>,
    pub(crate) visited: u64,
    pub(crate) culled: u64,
}

impl TileRefine {
    /// Refines above `max_sse` pixels of error.
    pub fn new(max_sse: f64) -> Self {
        Self {
            eye: DVec3::ZERO,
            direction: DVec3::NEG_Z,
            factor: 1.0,
            max_sse,
            frustum: None,
            frame: 0,
            states: States::default(),
            requests: Vec::new(),
            links: Vec::new(),
            kicked: 0,
            expansions: Vec::new(),
            visited: 0,
            culled: 0,
        }
    }

    fn score(&self, tile: &Tile, distance: f64) -> f64 {
        let to = tile.volume.center() - self.eye;
        let cos = to.normalize_or_zero().dot(self.direction);
        distance * (2.0 - cos)
    }

    fn request(&mut self, node: NodeId, want: Want, group: Group, tile: &Tile) {
        let score = self.score(tile, tile.volume.distance(self.eye));
        self.requests.push(Request {
            node,
            want,
            group,
            score,
        });
    }

    /// Shows `tile` if its contents are in, else asks for them in `group`.
    fn show(&mut self, id: NodeId, tile: &Tile, content: LoadState, group: Group) {
        if !tile.has_content() {
            return;
        }
        match content {
            LoadState::Loaded => {
                let entry = self.links.len() as u32;
                self.links.push((id.index(), u32::MAX));
                if let Some(state) = self.states.of(id) {
                    let one = Shown {
                        head: entry,
                        tail: entry,
                        len: 1,
                    };
                    state.shown = Shown::join(&mut self.links, state.shown, one);
                }
            }
            LoadState::Unloaded => self.request(id, Want::Content, group, tile),
            LoadState::Loading | LoadState::Failed => {}
        }
    }

    /// Whether a culled child of a REPLACE tile is ready to replace it; asks for it
    /// urgently if not, and marks it used so the budget keeps it.
    fn culled_ready(&mut self, id: NodeId, tile: &Tile) -> bool {
        let frame = self.frame;
        let Some(state) = self.states.of(id) else {
            return false;
        };
        state.last_used = frame;
        let (structure, content) = (state.structure, state.content);
        if tile.implicit.as_ref().is_some_and(|i| i.subtree.is_none()) {
            if structure == LoadState::Unloaded {
                self.request(id, Want::Structure, Group::Urgent, tile);
            }
            return false;
        }
        if !tile.has_content() {
            return true;
        }
        if content == LoadState::Unloaded {
            self.request(id, Want::Content, Group::Urgent, tile);
        }
        content == LoadState::Loaded
    }
}

impl UnorderedActor for TileRefine {
    const EVENTS: Events = Events::EnterLeave;

    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        self.frame += 1;
        self.states.grow(run.graph.capacity());
        self.requests.clear();
        self.links.clear();
        self.kicked = 0;
        self.expansions.clear();
        self.visited = 0;
        self.culled = 0;
        Ok(())
    }

    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let Some(tile) = visit.get::<Tile>() else {
            return Flow::Continue;
        };
        let id = visit.id();
        if visit.depth() == 0
            && self
                .frustum
                .as_ref()
                .is_some_and(|f| tile.volume.outside(f, self.eye))
        {
            self.culled += 1;
            return Flow::Prune;
        }
        let frame = self.frame;
        let (factor, eye) = (self.factor, self.eye);
        let Some(state) = self.states.of(id) else {
            return Flow::Prune;
        };
        // The error its parent computed for its key, else its own.
        let sse = if state.sse_frame == frame {
            state.sse
        } else {
            screen_space_error(factor, tile.geometric_error, tile.volume.distance(eye))
        };
        state.visited = frame;
        state.shown = Shown::default();
        state.last_used = frame;
        state.refined = false;
        state.ready = false;
        let (structure, content) = (state.structure, state.content);
        self.visited += 1;
        // An implicit subtree root knows nothing of itself until its file is in.
        if tile.implicit.as_ref().is_some_and(|i| i.subtree.is_none()) {
            if structure == LoadState::Unloaded {
                self.request(id, Want::Structure, Group::Normal, tile);
            }
            return Flow::Prune;
        }
        let graph = visit.graph();
        let wants = sse > self.max_sse;
        if wants && graph.first_child_at(visit.node()).is_some() {
            if let Some(state) = self.states.of(id) {
                state.refined = true;
            }
            for mut child in active.iter_mut() {
                let slot = child.node();
                if let (Some(t), Some(cid)) = (graph.get_at::<Tile>(slot), graph.id_at(slot)) {
                    let d = t.volume.distance(self.eye);
                    let sse = screen_space_error(self.factor, t.geometric_error, d);
                    child.set_key(sse as f32);
                    if let Some(cs) = self.states.of(cid) {
                        (cs.sse, cs.sse_frame) = (sse, frame);
                    }
                }
            }
            match tile.refine {
                Refine::Add => self.show(id, tile, content, Group::Normal),
                Refine::Replace if tile.has_content() && content == LoadState::Unloaded => {
                    self.request(id, Want::Content, Group::Preload, tile);
                }
                Refine::Replace => {}
            }
            return Flow::Continue;
        }
        if wants && tile.expandable() {
            if tile.external.is_some() {
                if structure == LoadState::Unloaded {
                    self.request(id, Want::Structure, Group::Normal, tile);
                }
            } else {
                self.expansions.push(id);
            }
            // Shown meanwhile; with nothing to show it is not ready (a hole).
            if !tile.has_content() {
                return Flow::Prune;
            }
        }
        self.show(id, tile, content, Group::Normal);
        if let Some(state) = self.states.of(id) {
            let waiting = wants && tile.expandable();
            state.ready = if tile.has_content() {
                content == LoadState::Loaded
            } else {
                !waiting
            };
        }
        Flow::Prune
    }

    fn leave(&mut self, visit: &Visit<'_>) {
        let id = visit.id();
        let frame = self.frame;
        // Only tiles entered this frame have a state stamped with it.
        let Some(state) = self.states.get(id).filter(|s| s.visited == frame) else {
            return;
        };
        if state.refined
            && let Some(tile) = visit.get::<Tile>()
        {
            self.resolve(visit, tile, id);
        }
        // What this subtree shows joins its parent's list.
        let graph = visit.graph();
        let parent = graph.parent_at(visit.node()).filter(|_| visit.depth() > 0);
        let mine = self.states.get(id).map(|s| s.shown).unwrap_or_default();
        if let (Some(pid), true) = (parent.and_then(|p| graph.id_at(p)), mine.len > 0)
            && let Some(up) = self.states.of(pid)
        {
            up.shown = Shown::join(&mut self.links, up.shown, mine);
        }
    }
}

impl TileRefine {
    /// The no-hole rule at a refined tile, once all its children have left.
    fn resolve(&mut self, visit: &Visit<'_>, tile: &Tile, id: NodeId) {
        let frame = self.frame;
        let Some(state) = self.states.get(id) else {
            return;
        };
        let content = state.content;
        let own = !tile.has_content() || content == LoadState::Loaded;
        let graph = visit.graph();
        let (mut all_ready, mut any_visible) = (true, false);
        for child in graph.children_at(visit.node()) {
            let Some(cid) = graph.id_at(child) else {
                continue;
            };
            match self.states.get(cid).filter(|s| s.visited == frame) {
                Some(s) => {
                    any_visible = true;
                    all_ready &= s.ready;
                }
                None => {
                    self.culled += 1;
                    if tile.refine == Refine::Replace
                        && let Some(ct) = graph.get_at::<Tile>(child)
                    {
                        all_ready &= self.culled_ready(cid, ct);
                    }
                }
            }
        }
        let replaced = tile.refine == Refine::Replace;
        let ready = if !replaced {
            own
        } else if any_visible && all_ready {
            true
        } else {
            // The no-hole rule: show this tile instead of its not-ready children.
            if let Some(state) = self.states.of(id) {
                self.kicked += u64::from(state.shown.len);
                state.shown = Shown::default();
            }
            self.show(id, tile, content, Group::Urgent);
            tile.has_content() && content == LoadState::Loaded
        };
        if let Some(state) = self.states.of(id) {
            state.ready = ready;
        }
    }
}
