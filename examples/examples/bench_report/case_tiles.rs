//! Case t: 3D Tiles selection over the procedural planet. A warm frame (the camera
//! moving a metre a frame, nothing left to load) at the same view over a planet of
//! 11 levels (1.4 million tiles) and one of 16 (1.4 billion): the selection's cost
//! follows the visible set, not the tileset. A view down to the finest level gives the
//! cost per visited tile when the selection is deep. Then a cruise at 1 km under a
//! 256 MiB budget (loading several times that) reports the most bytes held.

use crate::Config;
use scenewalk_actors::tiles::{Planet, SelectionOptions, TileSelection, TileView};
use scenewalk_examples::report::{Contender, Row, round_robin};

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
    let mut contenders = vec![
        warm("planet_1.4M_tiles_level10_view", &mut million, shallow),
        warm("planet_1.4B_tiles_level10_view", &mut billion, shallow),
        warm("planet_1.4B_tiles_finest_view", &mut finest, deep),
    ];
    let measured = round_robin(&mut contenders, config.reps());
    drop(contenders);
    let per_tile = |m: &scenewalk_examples::report::Measured| m.median / m.elements as f64;
    for (m, f) in measured.iter().zip(&figures) {
        println!(
            "   {}: {} visited, {} rendered, {} tile nodes; a warm frame {:.4} ms, {:.2}x the first per visited tile",
            m.name,
            f.visited,
            f.rendered,
            f.tiles,
            m.median / 1e6,
            per_tile(m) / per_tile(&measured[0]),
        );
    }
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
