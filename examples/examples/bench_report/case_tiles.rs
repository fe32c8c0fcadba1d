//! Case t: 3D Tiles selection over the procedural planet. A warm frame (the camera
//! moving a metre a frame, nothing left to load) at the same view over a planet of
//! 11 levels (1.4 million tiles) and one of 16 (1.4 billion): the selection's cost
//! follows the visible set, not the tileset. A view down to the finest level gives the
//! cost per visited tile when the selection is deep. Then a cruise at 1 km under a
//! 256 MiB budget (loading several times that) reports the most bytes held.

use crate::Config;
use scenewalk_actors::tiles::{LoadState, Planet, SelectionOptions, TileSelection, TileView};
use scenewalk_core::glam::DVec3;
use scenewalk_core::{Graph, NodeIndex};
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_nodes::Frustum;
use scenewalk_nodes::tiles::{Refine, Tile};

fn open(levels: u32, max_loads_in_flight: usize) -> TileSelection {
    let options = SelectionOptions {
        threads: 0,
        budget_bytes: 256 << 20,
        max_loads_in_flight,
        ..SelectionOptions::default()
    };
    TileSelection::open(Planet::new(levels).loader(), "tileset.json", options)
        .expect("the planet's tileset reads")
}

/// Frames at `view` until nothing is loading or expanding.
fn settle(tiles: &mut TileSelection, view: &TileView) {
    for _ in 0..500 {
        let f = *tiles.update(view).expect("the selection runs");
        if f.loading == 0 && f.queued == 0 && f.expanded == 0 {
            return;
        }
    }
    panic!("the selection did not settle");
}

fn deepest(tiles: &TileSelection) -> usize {
    tiles
        .rendered()
        .iter()
        .map(|&n| tiles.graph().depth(n).expect("rendered tiles are live"))
        .max()
        .unwrap_or(0)
}

/// A warm frame: the view nudged by a metre, alternately, so the selection reruns.
fn warm<'a>(name: &str, tiles: &'a mut TileSelection, view: TileView) -> Contender<'a> {
    let visited = tiles.figures().visited;
    let mut nudged = view;
    nudged.position += view.direction.normalize();
    let mut flip = false;
    Contender::new(name, visited, move || {
        flip = !flip;
        let f = tiles
            .update(if flip { &nudged } else { &view })
            .expect("the selection runs");
        f.visited + f.rendered as u64
    })
}

/// The hand-written selection: Cesium's recursive depth-first walk with the same
/// rules (error test, culling, REPLACE/ADD, kicking by truncating the render list),
/// over a snapshot of which tiles are loaded; no load requests, no budget.
struct Hand {
    view: TileView,
    frustum: Frustum,
    eye: DVec3,
    factor: f64,
    max_sse: f64,
    loaded: Vec<bool>,
    rendered: Vec<NodeIndex>,
    visited: u64,
}

impl Hand {
    fn new(tiles: &TileSelection, view: &TileView) -> Hand {
        let graph = tiles.graph();
        let mut loaded = vec![false; graph.capacity()];
        let mut stack = vec![tiles.root()];
        while let Some(n) = stack.pop() {
            loaded[n.index().get()] = tiles
                .state(n)
                .is_some_and(|s| s.content == LoadState::Loaded);
            stack.extend(graph.children(n).expect("live"));
        }
        Hand {
            view: *view,
            frustum: view.frustum().expect("a good view"),
            eye: view.position,
            factor: view.sse_factor(),
            max_sse: tiles.options().max_sse,
            loaded,
            rendered: Vec::new(),
            visited: 0,
        }
    }

    /// One frame: the frustum from the view (as a moving camera needs), the walk.
    fn run(&mut self, graph: &Graph, root: NodeIndex) -> u64 {
        self.frustum = self.view.frustum().expect("a good view");
        self.eye = self.view.position;
        self.rendered.clear();
        self.visited = 0;
        let tile = graph.get_at::<Tile>(root).expect("a tile");
        if !tile.volume.outside(&self.frustum, self.eye) {
            self.visit(graph, root, tile);
        }
        self.visited + self.rendered.len() as u64
    }

    /// Whether the tile, or what replaces it, can be shown.
    fn visit(&mut self, graph: &Graph, node: NodeIndex, tile: &Tile) -> bool {
        self.visited += 1;
        if tile.implicit.as_ref().is_some_and(|i| i.subtree.is_none()) {
            return false;
        }
        let loaded = self.loaded[node.get()];
        let has = tile.has_content();
        let distance = tile.volume.distance(self.eye);
        let sse = if distance > 0.0 {
            tile.geometric_error * self.factor / distance
        } else {
            f64::INFINITY
        };
        let first = graph.first_child_at(node);
        if sse > self.max_sse && first.is_some() {
            let mark = self.rendered.len();
            if tile.refine == Refine::Add && has && loaded {
                self.rendered.push(node);
            }
            let (mut all, mut any) = (true, false);
            let mut child = first;
            while let Some(c) = child {
                child = graph.next_sibling_at(c);
                let ct = graph.get_at::<Tile>(c).expect("a tile");
                if ct.volume.outside(&self.frustum, self.eye) {
                    if tile.refine == Refine::Replace {
                        let pending = ct.implicit.as_ref().is_some_and(|i| i.subtree.is_none());
                        all &= !pending && (!ct.has_content() || self.loaded[c.get()]);
                    }
                    continue;
                }
                any = true;
                all &= self.visit(graph, c, ct);
            }
            if tile.refine == Refine::Add {
                return !has || loaded;
            }
            if any && all {
                return true;
            }
            self.rendered.truncate(mark);
            if has && loaded {
                self.rendered.push(node);
            }
            return has && loaded;
        }
        if has {
            if loaded {
                self.rendered.push(node);
            }
            loaded
        } else {
            !(sse > self.max_sse && tile.expandable())
        }
    }
}

/// Runs case t.
pub fn run(config: &Config) -> Vec<Row> {
    let case = "t. 3D Tiles frame";
    // From 20 km straight down (11 km above the tiles' 9 km tops) the view refines to
    // level 10 and no deeper; from
    // 300 m, tilted 50°, to the finest level.
    let shallow = Planet::view(0.3, 0.8, 20_000.0, 0.0);
    let deep = Planet::view(0.3, 0.8, 300.0, 50f64.to_radians());
    let mut million = open(11, 20);
    let mut billion = open(16, 20);
    let mut finest = open(16, 20);
    settle(&mut million, &shallow);
    settle(&mut billion, &shallow);
    settle(&mut finest, &deep);
    assert_eq!(deepest(&million), 10);
    assert_eq!(
        deepest(&billion),
        10,
        "the shallow view reaches level 10 only"
    );
    assert_eq!(million.rendered().len(), billion.rendered().len());
    assert_eq!(
        deepest(&finest),
        15,
        "the deep view reaches the finest level"
    );
    let figures = [&million, &billion, &finest].map(|t| *t.figures());
    // The hand loop selects what the action selects.
    let mut hand = Hand::new(&million, &shallow);
    let hand_sum = hand.run(million.graph(), million.root().index());
    assert_eq!(hand_sum, figures[0].visited + figures[0].rendered as u64);
    let mut hand_nudged = Hand::new(&million, &shallow);
    hand_nudged.view.position += shallow.direction.normalize();
    let mut hand_deep = Hand::new(&finest, &deep);
    let deep_sum = hand_deep.run(finest.graph(), finest.root().index());
    assert_eq!(deep_sum, figures[2].visited + figures[2].rendered as u64);
    let (small_graph, small_root) = (million.graph().clone(), million.root().index());
    let (deep_graph, deep_root) = (finest.graph().clone(), finest.root().index());
    let mut flip = false;
    let mut contenders = vec![
        Contender::new("hand_recursive_select_level10", figures[0].visited, || {
            flip = !flip;
            if flip {
                hand_nudged.run(&small_graph, small_root)
            } else {
                hand.run(&small_graph, small_root)
            }
        }),
        Contender::new("hand_recursive_select_finest", figures[2].visited, || {
            hand_deep.run(&deep_graph, deep_root)
        }),
        warm("planet_1.4M_tiles_level10_view", &mut million, shallow),
        warm("planet_1.4B_tiles_level10_view", &mut billion, shallow),
        warm("planet_1.4B_tiles_finest_view", &mut finest, deep),
    ];
    let measured = round_robin(&mut contenders, config.reps());
    drop(contenders);
    let per_tile = |m: &scenewalk_examples::report::Measured| m.median / m.elements as f64;
    let hand_time = |name: &str| {
        measured
            .iter()
            .find(|m| m.name == name)
            .map_or(f64::NAN, |m| m.median)
    };
    for (m, f) in measured.iter().skip(2).zip(&figures) {
        println!(
            "   {}: {} visited, {} rendered, {} tile nodes; a warm frame {:.4} ms, {:.2}x the first per visited tile",
            m.name,
            f.visited,
            f.rendered,
            f.tiles,
            m.median / 1e6,
            per_tile(m) / per_tile(&measured[2]),
        );
    }
    println!(
        "   the action's frame against the hand loop: {:.2}x at level 10, {:.2}x at the finest level",
        measured[2].median / hand_time("hand_recursive_select_level10"),
        measured[4].median / hand_time("hand_recursive_select_finest"),
    );
    // Memory: a cruise at 1 km, 30 km a frame, under a 256 MiB budget: the full run
    // loads about twice what the budget holds (contents of 16-64 KiB).
    let frames = if config.quick { 600 } else { 2400 };
    let mut cruise = open(16, 100);
    let (mut most, mut unloaded, mut loaded) = (0u64, 0usize, 0usize);
    for view in Planet::cruise(frames, 1000.0, 0.0067 * frames as f64) {
        let f = *cruise.update(&view).expect("the selection runs");
        most = most.max(f.bytes_held);
        unloaded += f.unloaded;
        loaded += f.loaded;
    }
    println!(
        "   cruise, {frames} frames at 1 km: {loaded} loads, {unloaded} unloads, at most {:.1} MiB held (budget 256)",
        most as f64 / (1 << 20) as f64
    );
    assert!(most <= 256 << 20, "over the budget");
    Row::from_measured(case, &measured, "planet_1.4M_tiles_level10_view")
}
