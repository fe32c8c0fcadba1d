//! The frame loop: selection, loads and the memory budget around one action.

use super::load::{Done, Job, Loader, Workers};
use super::refine::{Group, Request, TileRefine, Want};
use super::state::{LoadState, TileState};
use super::{TileCull, TileView};
use scenewalk_core::{Action, ActionError, Graph, NodeId, Static, TraversalError, Unordered};
use scenewalk_iterators::PriorityQueue;
use scenewalk_nodes::tiles::{
    Tile, TilesError, add_tileset, clear_subtree, expand_implicit, set_subtree,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a [`TileSelection`] selects and loads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelectionOptions {
    /// Refine while a tile's screen-space error is above this many pixels (16).
    pub max_sse: f64,
    /// Bytes of contents, external tilesets, subtrees and the tile nodes made from them
    /// ([`NODE_BYTES`] each) to hold (512 MiB); beyond it
    /// the tiles not used this frame are unloaded, least recently used first, and while
    /// still beyond it only urgent loads start.
    pub budget_bytes: u64,
    /// Loads in flight at once (20).
    pub max_loads_in_flight: usize,
    /// Worker threads for the loader (4); 0 runs each load when it is handed over, its
    /// result applied at the next frame (deterministic, for tests).
    pub threads: usize,
}

impl Default for SelectionOptions {
    fn default() -> Self {
        Self {
            max_sse: 16.0,
            budget_bytes: 512 << 20,
            max_loads_in_flight: 20,
            threads: 4,
        }
    }
}

/// One frame's figures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameFigures {
    /// The frame's number (from 1).
    pub frame: u64,
    /// Tiles entered.
    pub visited: u64,
    /// Tiles found outside the view (children of refined tiles, or the root).
    pub culled: u64,
    /// Tiles to render.
    pub rendered: usize,
    /// Tiles that would have rendered but were dropped for an ancestor shown in their
    /// place (the no-hole rule).
    pub kicked: usize,
    /// Loads asked for this frame (each tile once).
    pub queued: usize,
    /// Loads in flight after this frame's were started.
    pub loading: usize,
    /// Loads that came back and were applied at the start of this frame.
    pub loaded: usize,
    /// Of those, the ones that failed.
    pub failed: usize,
    /// Tiles added by implicit expansion this frame.
    pub expanded: usize,
    /// Tiles unloaded for the budget this frame.
    pub unloaded: usize,
    /// Bytes held after this frame.
    pub bytes_held: u64,
    /// Tile nodes in the graph.
    pub tiles: usize,
}

/// A load that failed: reported once; its tile is never shown, so its parent stays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadFailure {
    /// The tile.
    pub node: NodeId,
    /// The file.
    pub uri: String,
    /// Why.
    pub error: String,
}

/// What can stop a selection.
#[derive(Debug, thiserror::Error)]
pub enum SelectionError {
    /// The root tileset could not be read.
    #[error(transparent)]
    Tiles(#[from] TilesError),
    /// The root tileset could not be loaded.
    #[error("{uri}: {error}")]
    Load {
        /// The file.
        uri: String,
        /// The loader's error.
        error: String,
    },
    /// The action refused its chain.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// The traversal failed.
    #[error(transparent)]
    Traversal(#[from] TraversalError),
    /// A camera with a position, direction or field of view that is not finite.
    #[error("a view with a non-finite position, direction or field of view: {0:?}")]
    BadView(TileView),
}

type Chain = (Unordered<TileRefine>, Static<TileCull>);

/// What a tile node made at run time (an external tileset's, an implicit expansion's)
/// counts against the budget: its payload, its link record and state, rounded up.
pub const NODE_BYTES: u64 =
    (std::mem::size_of::<Tile>() + std::mem::size_of::<TileState>() + 64) as u64;

/// Streams a tileset: each [`update`](Self::update) selects the tiles to render for a
/// camera, starts the loads it needs and keeps memory under a budget.
///
/// The selection is one [`Action`]: a [`PriorityQueue`] (tiles with the largest
/// screen-space error first) through [`TileRefine`] (error test, refinement with the
/// no-hole rule, load requests) and [`TileCull`] (frustum culling). Its per-tile state
/// lives in an array indexed by node slot, kept from frame to frame. Around it, per
/// frame: apply the loads that came back (contents; external tilesets and subtree
/// files grow the graph), run the action, drop the kicked tiles, expand implicit
/// tiles, start loads (urgent, normal, preload; inside a group nearest the view
/// centre first; a cap on loads in flight) and unload least recently used tiles over
/// the budget.
///
/// ```
/// use scenewalk_actors::tiles::{Fetched, SelectionOptions, TileSelection, TileView};
/// use scenewalk_core::glam::DVec3;
/// use std::sync::Arc;
/// let json = br#"{"asset": {"version": "1.1"}, "geometricError": 100,
///   "root": {"boundingVolume": {"sphere": [0, 0, 0, 10]}, "geometricError": 10,
///            "content": {"uri": "low.glb"},
///            "children": [{"boundingVolume": {"sphere": [0, 0, 0, 10]},
///                          "geometricError": 0, "content": {"uri": "high.glb"}}]}}"#;
/// let json_bytes = json.len() as u64;
/// let loader = Arc::new(move |uri: &str| match uri {
///     "tileset.json" => Ok(Fetched::Bytes(json.to_vec())),
///     _ => Ok(Fetched::Size(1000)),
/// });
/// let options = SelectionOptions { threads: 0, ..SelectionOptions::default() };
/// let mut tiles = TileSelection::open(loader, "tileset.json", options)?;
/// let near = TileView::look_at(DVec3::new(0.0, 0.0, 50.0), DVec3::ZERO, DVec3::Y);
/// for _ in 0..3 {
///     tiles.update(&near)?;
/// }
/// let figures = tiles.figures();
/// // Both levels held (the root tileset file counts too); the fine one shown.
/// assert_eq!((figures.rendered, figures.bytes_held), (1, 2000 + json_bytes));
/// let shown = tiles.graph().get::<scenewalk_nodes::tiles::Tile>(tiles.rendered()[0])?;
/// assert_eq!(shown.contents, ["high.glb"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TileSelection {
    graph: Graph,
    root: NodeId,
    action: Action<PriorityQueue, Chain>,
    options: SelectionOptions,
    workers: Workers,
    in_flight: usize,
    base_bytes: u64,
    held: u64,
    rendered: Vec<NodeId>,
    failures: Vec<LoadFailure>,
    unloaded: Vec<NodeId>,
    figures: FrameFigures,
    /// Loads waited for but not applied yet.
    pending: Vec<Done>,
}

impl std::fmt::Debug for TileSelection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TileSelection")
            .field("root", &self.root)
            .field("options", &self.options)
            .field("figures", &self.figures)
            .finish_non_exhaustive()
    }
}

impl TileSelection {
    /// Loads the root tileset `uri` through `loader` and prepares the selection.
    pub fn open(
        loader: Loader,
        uri: &str,
        options: SelectionOptions,
    ) -> Result<Self, SelectionError> {
        let bytes = match loader(uri) {
            Ok(super::Fetched::Bytes(b)) => b,
            Ok(super::Fetched::Size(_)) => {
                return Err(SelectionError::Load {
                    uri: uri.to_owned(),
                    error: "the loader gave a size where the file is needed".to_owned(),
                });
            }
            Err(error) => {
                return Err(SelectionError::Load {
                    uri: uri.to_owned(),
                    error,
                });
            }
        };
        let mut graph = Graph::new();
        let root = add_tileset(&mut graph, None, &bytes, uri)?;
        let mut selection = Self::from_graph(graph, root, loader, options)?;
        selection.base_bytes = bytes.len() as u64;
        selection.held = selection.base_bytes;
        Ok(selection)
    }

    /// A selection over tiles already in `graph` under `root`.
    pub fn from_graph(
        graph: Graph,
        root: NodeId,
        loader: Loader,
        options: SelectionOptions,
    ) -> Result<Self, SelectionError> {
        let chain = (
            Unordered::new(TileRefine::new(options.max_sse)),
            Static::new(TileCull::new()),
        );
        Ok(Self {
            graph,
            root,
            action: Action::new(PriorityQueue::new(), chain)?,
            options,
            workers: Workers::new(loader, options.threads),
            in_flight: 0,
            base_bytes: 0,
            held: 0,
            rendered: Vec::new(),
            failures: Vec::new(),
            unloaded: Vec::new(),
            figures: FrameFigures::default(),
            pending: Vec::new(),
        })
    }

    /// The graph of tiles (it grows as external tilesets and subtrees load, and
    /// shrinks as they are unloaded).
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The root tile.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// The options.
    pub fn options(&self) -> &SelectionOptions {
        &self.options
    }

    /// The tiles to render this frame (each once; none whose ancestor is shown in its
    /// place).
    pub fn rendered(&self) -> &[NodeId] {
        &self.rendered
    }

    /// This frame's figures.
    pub fn figures(&self) -> &FrameFigures {
        &self.figures
    }

    /// The loads that failed in this frame's applied results.
    pub fn failures(&self) -> &[LoadFailure] {
        &self.failures
    }

    /// The tiles unloaded this frame, least recently used first.
    pub fn unloaded(&self) -> &[NodeId] {
        &self.unloaded
    }

    fn refine(&self) -> Option<&TileRefine> {
        self.action.actor::<TileRefine>()
    }

    /// What the selection keeps about `node`.
    pub fn state(&self, node: NodeId) -> Option<&TileState> {
        self.refine()?.states.get(node)
    }

    /// The contents' bytes of a loaded tile with one content whose loader returned them.
    pub fn content(&self, node: NodeId) -> Option<&[u8]> {
        self.state(node)?.data.as_deref()
    }

    /// Waits until no load is in flight or `timeout` passes (threaded loading); the
    /// loads are applied at the next [`update`](Self::update). Returns whether all came back.
    pub fn wait_for_loads(&mut self, timeout: Duration) -> bool {
        let end = Instant::now() + timeout;
        let mut back = Vec::new();
        while back.len() < self.in_flight {
            let left = end.saturating_duration_since(Instant::now());
            match self.workers.wait(left) {
                Some(done) => back.push(done),
                None => break,
            }
        }
        let all = back.len() >= self.in_flight;
        self.pending.extend(back);
        all
    }

    /// One frame from `view`: apply the loads come back, select, start loads, unload
    /// over the budget. Returns the frame's figures.
    pub fn update(&mut self, view: &TileView) -> Result<&FrameFigures, SelectionError> {
        self.failures.clear();
        self.unloaded.clear();
        let mut done = std::mem::take(&mut self.pending);
        done.extend(self.workers.finished());
        let (loaded, failed) = (done.len(), self.apply(done));

        if !(view.position.is_finite()
            && view.direction.is_finite()
            && view.sse_factor().is_finite())
        {
            return Err(SelectionError::BadView(*view));
        }
        let frustum = view.frustum();
        let direction = view.direction.normalize_or_zero();
        if let Some(refine) = self.action.actor_mut::<TileRefine>() {
            refine.eye = view.position;
            refine.direction = direction;
            refine.factor = view.sse_factor();
            refine.max_sse = self.options.max_sse;
            refine.frustum = frustum;
        }
        if let Some(cull) = self.action.actor_mut::<TileCull>() {
            cull.set_view(frustum, view.position);
        }
        self.action.run(&self.graph, self.root)?;

        let Some(refine) = self.action.actor_mut::<TileRefine>() else {
            return Ok(&self.figures);
        };
        let frame = refine.frame;
        let (visited, culled) = (refine.visited, refine.culled);
        let kicked = refine.kicked;
        let requests = std::mem::take(&mut refine.requests);
        let expansions = std::mem::take(&mut refine.expansions);
        // The root's list: what the whole tree shows, kicked tiles already dropped.
        self.rendered.clear();
        let shown = refine
            .states
            .get(self.root)
            .filter(|s| s.visited == frame)
            .map(|s| s.shown)
            .unwrap_or_default();
        let mut entry = shown.head;
        for _ in 0..shown.len {
            let Some(&(slot, next)) = refine.links.get(entry as usize) else {
                break;
            };
            if let Some(id) = self.graph.id_at(slot) {
                self.rendered.push(id);
            }
            entry = next;
        }
        let mut expanded = 0;
        for &node in &expansions {
            match expand_implicit(&mut self.graph, node) {
                Ok(n) => {
                    expanded += n;
                    // The nodes count against the budget, held by the tile that made them.
                    let bytes = n as u64 * NODE_BYTES;
                    if let Some(state) = self
                        .action
                        .actor_mut::<TileRefine>()
                        .and_then(|r| r.states.of(node))
                    {
                        state.structure = LoadState::Loaded;
                        state.structure_bytes += bytes;
                        self.held += bytes;
                    }
                }
                Err(e) => self.failures.push(LoadFailure {
                    node,
                    uri: String::new(),
                    error: e.to_string(),
                }),
            }
        }
        let unloaded = self.enforce_budget(frame);
        let queued = self.start_loads(&requests);
        self.figures = FrameFigures {
            frame,
            visited,
            culled,
            rendered: self.rendered.len(),
            kicked: kicked as usize,
            queued,
            loading: self.in_flight,
            loaded,
            failed,
            expanded,
            unloaded,
            bytes_held: self.held,
            tiles: self.graph.len(),
        };
        // The buffers go back for the next frame (cleared there, not reallocated).
        if let Some(refine) = self.action.actor_mut::<TileRefine>() {
            (refine.requests, refine.expansions) = (requests, expansions);
        }
        Ok(&self.figures)
    }

    /// Applies loads come back; returns how many failed.
    fn apply(&mut self, done: Vec<Done>) -> usize {
        let mut failed = 0;
        for Done { job, result } in done {
            self.in_flight = self.in_flight.saturating_sub(1);
            if !self.graph.contains(job.node) {
                continue; // unloaded while in flight
            }
            let applied = match result {
                Ok((bytes, size)) => self.apply_one(&job, bytes, size),
                Err((uri, error)) => Err((uri, error)),
            };
            let Some(refine) = self.action.actor_mut::<TileRefine>() else {
                continue;
            };
            let Some(state) = refine.states.of(job.node) else {
                continue;
            };
            let slot = match job.want {
                Want::Content => &mut state.content,
                Want::Structure => &mut state.structure,
            };
            match applied {
                Ok(size) => {
                    *slot = LoadState::Loaded;
                    self.held = self.held.saturating_add(size.0);
                    match job.want {
                        Want::Content => {
                            state.content_bytes = size.0;
                            state.data = size.1;
                        }
                        Want::Structure => state.structure_bytes = size.0,
                    }
                }
                Err((uri, error)) => {
                    *slot = LoadState::Failed;
                    failed += 1;
                    self.failures.push(LoadFailure {
                        node: job.node,
                        uri,
                        error,
                    });
                }
            }
        }
        failed
    }

    /// Grows the graph by a structure load; the bytes held and the data kept.
    #[allow(clippy::type_complexity, reason = "one private result")]
    fn apply_one(
        &mut self,
        job: &Job,
        bytes: Option<Vec<u8>>,
        size: u64,
    ) -> Result<(u64, Option<Arc<[u8]>>), (String, String)> {
        let uri = job.uris.first().cloned().unwrap_or_default();
        if job.want == Want::Content {
            return Ok((size, bytes.map(Arc::from)));
        }
        let bytes = bytes.unwrap_or_default();
        let fail = |e: TilesError| (uri.clone(), e.to_string());
        let is_external = self
            .graph
            .get::<Tile>(job.node)
            .map_err(|e| fail(e.into()))?
            .external
            .is_some();
        if is_external {
            if self
                .graph
                .first_child(job.node)
                .map_err(|e| fail(e.into()))?
                .is_none()
            {
                let before = self.graph.len();
                add_tileset(&mut self.graph, Some(job.node), &bytes, &uri).map_err(fail)?;
                let nodes = (self.graph.len() - before) as u64;
                return Ok((bytes.len() as u64 + nodes * NODE_BYTES, None));
            }
        } else {
            set_subtree(&mut self.graph, job.node, &uri, &bytes).map_err(fail)?;
        }
        Ok((bytes.len() as u64, None))
    }

    /// Queues the frame's requests (each tile and want once, in its most pressing
    /// group), starts the first up to the cap; returns how many were asked for.
    fn start_loads(&mut self, requests: &[Request]) -> usize {
        if requests.is_empty() {
            return 0;
        }
        let mut best: HashMap<(NodeId, Want), Request> = HashMap::new();
        for &r in requests {
            best.entry((r.node, r.want))
                .and_modify(|b| {
                    if (r.group, r.score) < (b.group, b.score) {
                        *b = r;
                    }
                })
                .or_insert(r);
        }
        let mut queue: Vec<Request> = best.into_values().collect();
        queue.sort_by(|a, b| {
            (a.group, a.score)
                .partial_cmp(&(b.group, b.score))
                .unwrap_or(std::cmp::Ordering::Equal)
                .then((a.node.index(), a.want).cmp(&(b.node.index(), b.want)))
        });
        let queued = queue.len();
        for r in queue {
            if self.in_flight >= self.options.max_loads_in_flight {
                break;
            }
            if self.held > self.options.budget_bytes && r.group != Group::Urgent {
                continue;
            }
            let Ok(tile) = self.graph.get::<Tile>(r.node) else {
                continue;
            };
            let uris = match r.want {
                Want::Content => tile.contents.clone(),
                Want::Structure => match (
                    &tile.external,
                    tile.implicit.as_ref().and_then(|i| i.pending_subtree()),
                ) {
                    (Some(uri), _) => vec![uri.clone()],
                    (None, Some(Ok(uri))) => vec![uri],
                    _ => continue,
                },
            };
            let Some(state) = self
                .action
                .actor_mut::<TileRefine>()
                .and_then(|r2| r2.states.of(r.node))
            else {
                continue;
            };
            let slot = match r.want {
                Want::Content => &mut state.content,
                Want::Structure => &mut state.structure,
            };
            if *slot != LoadState::Unloaded {
                continue;
            }
            *slot = LoadState::Loading;
            self.in_flight += 1;
            self.workers.submit(Job {
                node: r.node,
                want: r.want,
                uris,
            });
        }
        queued
    }

    /// Unloads tiles not used this frame, least recently used first, until the bytes
    /// held fit the budget; returns how many.
    fn enforce_budget(&mut self, frame: u64) -> usize {
        if self.held <= self.options.budget_bytes {
            return 0;
        }
        let Some(refine) = self.action.actor::<TileRefine>() else {
            return 0;
        };
        let mut old: Vec<(u64, NodeId)> = refine
            .states
            .0
            .iter()
            .filter(|s| s.last_used < frame && s.bytes() > 0)
            .filter_map(|s| Some((s.last_used, s.id?)))
            .filter(|(_, id)| self.graph.contains(*id))
            .collect();
        old.sort_by_key(|&(used, id)| (used, id.index()));
        for (_, id) in old {
            if self.held <= self.options.budget_bytes {
                break;
            }
            if self.graph.contains(id) {
                self.unload(id);
            }
        }
        self.unloaded.len()
    }

    /// Frees a tile's contents and the tiles its file made.
    fn unload(&mut self, id: NodeId) {
        let mut freed = 0u64;
        let children: Vec<NodeId> = self
            .graph
            .children(id)
            .map(|c| c.collect())
            .unwrap_or_default();
        let Some(refine) = self.action.actor_mut::<TileRefine>() else {
            return;
        };
        let Some(state) = refine.states.of(id) else {
            return;
        };
        if state.content == LoadState::Loaded {
            freed += state.content_bytes;
            state.content = LoadState::Unloaded;
            state.content_bytes = 0;
            state.data = None;
        }
        let structure = state.structure == LoadState::Loaded;
        if structure {
            freed += state.structure_bytes;
            state.structure = LoadState::Unloaded;
            state.structure_bytes = 0;
            // Everything below came from the file: release it and drop the nodes.
            for &child in &children {
                let root = child.index();
                let mut next = Some(root);
                while let Some(n) = next {
                    if let Some(s) = self.graph.id_at(n).and_then(|id| refine.states.get(id)) {
                        freed += s.bytes();
                    }
                    next = self.graph.next_preorder_at(n, root);
                }
            }
        }
        if structure {
            for child in children {
                let _ = self.graph.remove_subtree(child);
            }
            let _ = clear_subtree(&mut self.graph, id);
        }
        self.held = self.held.saturating_sub(freed);
        self.unloaded.push(id);
    }
}
