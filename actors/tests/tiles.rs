//! The selection's rules, with exact counts on small tilesets written here.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::tiles::*;
use scenewalk_core::glam::DVec3;
use scenewalk_core::{Graph, NodeId};
use scenewalk_nodes::tiles::{Tile, add_tileset};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

/// Files by URI; any other `.glb` is 100 bytes; the URIs in `fail` fail.
fn loader(files: &[(&str, String)], fail: &'static [&'static str]) -> Loader {
    let files: HashMap<String, Vec<u8>> = files
        .iter()
        .map(|(k, v)| (k.to_string(), v.as_bytes().to_vec()))
        .collect();
    Arc::new(move |uri: &str| {
        if fail.contains(&uri) {
            return Err(format!("{uri}: 404"));
        }
        match files.get(uri) {
            Some(b) => Ok(Fetched::Bytes(b.clone())),
            None if uri.ends_with(".glb") => Ok(Fetched::Size(100)),
            None => Err(format!("{uri}: no such file")),
        }
    })
}

fn options() -> SelectionOptions {
    SelectionOptions {
        threads: 0,
        ..SelectionOptions::default()
    }
}

fn tileset(refine: &str, children: &str) -> String {
    format!(
        r#"{{"asset": {{"version": "1.1"}}, "geometricError": 100,
        "root": {{"boundingVolume": {{"box": [0,0,0, 200,0,0, 0,50,0, 0,0,1]}}, "geometricError": 10,
                 "refine": "{refine}", "content": {{"uri": "root.glb"}}, "children": [{children}]}}}}"#
    )
}

/// Four children in a row along x, each 100 wide: x in [-200, -100], …, [100, 200].
fn row() -> String {
    (0..4)
        .map(|i| {
            let x = -150 + 100 * i;
            format!(
                r#"{{"boundingVolume": {{"box": [{x},0,0, 50,0,0, 0,50,0, 0,0,1]}}, "geometricError": 0,
                    "content": {{"uri": "c{i}.glb"}}}}"#
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn open(json: &str, fail: &'static [&'static str], options: SelectionOptions) -> TileSelection {
    let mut graph = Graph::new();
    let root = add_tileset(&mut graph, None, json.as_bytes(), "tileset.json").unwrap();
    TileSelection::from_graph(graph, root, loader(&[], fail), options).unwrap()
}

/// Looking straight down from (x, 0, height), 1080 pixels high, `fovy_deg` high, square.
fn down(x: f64, height: f64, fovy_deg: f64) -> TileView {
    TileView {
        position: DVec3::new(x, 0.0, height),
        direction: DVec3::NEG_Z,
        up: DVec3::Y,
        fovy: fovy_deg.to_radians(),
        aspect: 1.0,
        viewport_height: 1080.0,
    }
}

fn names(s: &TileSelection) -> Vec<String> {
    let mut v: Vec<String> = s
        .rendered()
        .iter()
        .map(|&n| s.graph().get::<Tile>(n).unwrap().contents.join("+"))
        .collect();
    v.sort();
    v
}

/// Nothing renders twice, and (under REPLACE) no rendered tile has a rendered ancestor.
fn no_double(s: &TileSelection) {
    let set: HashSet<NodeId> = s.rendered().iter().copied().collect();
    assert_eq!(set.len(), s.rendered().len(), "a tile rendered twice");
    for &n in s.rendered() {
        let mut up = s.graph().parent(n).unwrap();
        while let Some(p) = up {
            assert!(
                !set.contains(&p),
                "{n:?} and its ancestor {p:?} both rendered"
            );
            up = s.graph().parent(p).unwrap();
        }
    }
}

fn figures(s: &mut TileSelection, view: &TileView) -> FrameFigures {
    *s.update(view).unwrap()
}

#[test]
fn far_away_the_parent_renders_near_by_its_four_children_replace_it() {
    let json = tileset("REPLACE", &row());
    let mut s = open(&json, &[], options());
    // fovy 60°, 1080 px: factor 935.3; root error 10 is 9.35 px at 1000 m, 31.2 px at 300.
    let far = down(0.0, 1001.0, 60.0);
    let f = figures(&mut s, &far);
    assert_eq!(
        (
            f.visited, f.culled, f.rendered, f.kicked, f.queued, f.loading
        ),
        (1, 0, 0, 0, 1, 1)
    );
    let f = figures(&mut s, &far);
    assert_eq!(
        (f.visited, f.rendered, f.loaded, f.queued, f.bytes_held),
        (1, 1, 1, 0, 100)
    );
    assert_eq!(names(&s), ["root.glb"]);
    // Near: the root refines; its children are not loaded, so it stays (no hole).
    let near = down(0.0, 301.0, 60.0);
    let f = figures(&mut s, &near);
    assert_eq!(
        (f.visited, f.culled, f.rendered, f.kicked, f.queued),
        (5, 0, 1, 0, 4)
    );
    assert_eq!(names(&s), ["root.glb"]);
    let f = figures(&mut s, &near);
    assert_eq!(
        (f.visited, f.rendered, f.kicked, f.loaded, f.bytes_held),
        (5, 4, 0, 4, 500)
    );
    assert_eq!(names(&s), ["c0.glb", "c1.glb", "c2.glb", "c3.glb"]);
    no_double(&s);
    // Back far: the root again (still loaded), the children kept while within budget.
    let f = figures(&mut s, &far);
    assert_eq!(
        (f.visited, f.rendered, f.unloaded, f.bytes_held),
        (1, 1, 0, 500)
    );
}

#[test]
fn replace_with_a_child_not_loaded_keeps_the_parent_and_kicks_the_others() {
    let json = tileset("REPLACE", &row());
    let mut s = open(&json, &["c2.glb"], options());
    let near = down(0.0, 301.0, 60.0);
    figures(&mut s, &near);
    figures(&mut s, &near);
    let f = figures(&mut s, &near);
    // c2 failed: the root stays; c0, c1, c3 were ready but are kicked.
    assert_eq!((f.visited, f.rendered, f.kicked, f.queued), (5, 1, 3, 0));
    assert_eq!(names(&s), ["root.glb"]);
    no_double(&s);
    let c2 = s.graph().children(s.root()).unwrap().nth(2).unwrap();
    assert_eq!(s.state(c2).unwrap().content, LoadState::Failed);
}

#[test]
fn a_failed_load_is_reported_once() {
    let json = tileset("REPLACE", &row());
    let mut s = open(&json, &["c2.glb"], options());
    let near = down(0.0, 301.0, 60.0);
    figures(&mut s, &near);
    let f = figures(&mut s, &near);
    assert_eq!((f.loaded, f.failed), (5, 1));
    assert_eq!(s.failures().len(), 1);
    assert_eq!(s.failures()[0].uri, "c2.glb");
    assert_eq!(s.failures()[0].error, "c2.glb: 404");
    let f = figures(&mut s, &near);
    assert_eq!((f.failed, f.queued), (0, 0), "not asked again");
    assert!(s.failures().is_empty());
}

#[test]
fn add_renders_parent_and_children_together() {
    let json = tileset("ADD", &row());
    let mut s = open(&json, &[], options());
    let near = down(0.0, 301.0, 60.0);
    let f = figures(&mut s, &near);
    assert_eq!((f.visited, f.rendered, f.kicked, f.queued), (5, 0, 0, 5));
    let f = figures(&mut s, &near);
    assert_eq!(
        (f.visited, f.rendered, f.kicked, f.bytes_held),
        (5, 5, 0, 500)
    );
    assert_eq!(
        names(&s),
        ["c0.glb", "c1.glb", "c2.glb", "c3.glb", "root.glb"]
    );
}

#[test]
fn a_child_outside_the_frustum_is_culled_but_loaded_to_avoid_a_hole() {
    let json = tileset("REPLACE", &row());
    let mut s = open(&json, &[], options());
    // From x = 50 at 101 m, fovy 60° sees x in about [-8, 108]: c0 ([-200, -100]) is out.
    let view = down(50.0, 101.0, 60.0);
    let f = figures(&mut s, &view);
    // Root, c1-c3 visited; c0 culled but asked for (urgent): the root cannot be
    // replaced until it is in, since turning the camera would show a hole.
    assert_eq!(
        (f.visited, f.culled, f.rendered, f.kicked, f.queued),
        (4, 1, 0, 0, 5)
    );
    let f = figures(&mut s, &view);
    assert_eq!((f.visited, f.culled, f.rendered, f.kicked), (4, 1, 3, 0));
    assert_eq!(names(&s), ["c1.glb", "c2.glb", "c3.glb"]);
    no_double(&s);
    let c0 = s.graph().children(s.root()).unwrap().next().unwrap();
    assert_eq!(s.state(c0).unwrap().content, LoadState::Loaded);
}

#[test]
fn a_culled_child_that_cannot_load_keeps_its_parent_shown() {
    let json = tileset("REPLACE", &row());
    let mut s = open(&json, &["c0.glb"], options());
    let view = down(50.0, 101.0, 60.0);
    figures(&mut s, &view);
    let f = figures(&mut s, &view);
    assert_eq!((f.visited, f.culled, f.rendered, f.kicked), (4, 1, 1, 3));
    assert_eq!(names(&s), ["root.glb"]);
}

#[test]
fn the_urgent_group_loads_first_under_the_cap() {
    let json = tileset("REPLACE", &row());
    let cap = SelectionOptions {
        max_loads_in_flight: 1,
        ..options()
    };
    let mut s = open(&json, &[], cap);
    let view = down(50.0, 101.0, 60.0);
    let f = figures(&mut s, &view);
    assert_eq!((f.queued, f.loading), (5, 1));
    // Urgent: the root (shown in place of its children) and culled c0; the root is
    // nearer the view's centre line... both urgent, the nearer first.
    let f = figures(&mut s, &view);
    assert_eq!(f.loaded, 1);
    let root = s.root();
    let loaded: Vec<_> = std::iter::once(root)
        .chain(s.graph().children(root).unwrap())
        .filter(|&n| s.state(n).is_some_and(|st| st.content == LoadState::Loaded))
        .collect();
    assert_eq!(
        loaded,
        [root],
        "the root first: urgent, and at distance 100"
    );
}

#[test]
fn the_budget_unloads_least_recently_used_tiles_not_selected_this_frame() {
    let json = tileset("ADD", &row());
    let budget = SelectionOptions {
        budget_bytes: 300,
        ..options()
    };
    let mut s = open(&json, &[], budget);
    let kids: Vec<NodeId> = s.graph().children(s.root()).unwrap().collect();
    // fovy 20°: from 101 m the view is about ±18 m wide: one child at a time.
    let at = |i: usize| down(-150.0 + 100.0 * i as f64, 101.0, 20.0);
    for _ in 0..2 {
        figures(&mut s, &at(0));
    }
    assert_eq!(names(&s), ["c0.glb", "root.glb"]);
    for _ in 0..2 {
        figures(&mut s, &at(1));
    }
    assert_eq!(s.figures().bytes_held, 300);
    assert!(s.unloaded().is_empty());
    let f = figures(&mut s, &at(2));
    assert_eq!((f.unloaded, f.bytes_held, f.loading), (0, 300, 1));
    let f = figures(&mut s, &at(2));
    // c2 came in (400): c0 (used in frame 2) goes before c1 (frame 4).
    assert_eq!((f.unloaded, f.bytes_held, f.rendered), (1, 300, 2));
    assert_eq!(s.unloaded(), [kids[0]]);
    figures(&mut s, &at(3));
    let f = figures(&mut s, &at(3));
    assert_eq!((f.unloaded, f.bytes_held), (1, 300));
    assert_eq!(s.unloaded(), [kids[1]]);
    assert_eq!(s.state(kids[0]).unwrap().content, LoadState::Unloaded);
    assert_eq!(
        s.state(s.root()).unwrap().content,
        LoadState::Loaded,
        "used every frame"
    );
}

#[test]
fn an_external_tileset_loads_when_reached_and_a_cycle_is_a_reported_failure() {
    let outer = tileset(
        "REPLACE",
        r#"{"boundingVolume": {"box": [0,0,0, 200,0,0, 0,50,0, 0,0,1]}, "geometricError": 5,
            "content": {"uri": "inner/tileset.json"}}"#,
    );
    let inner = r#"{"asset": {"version": "1.0"}, "geometricError": 5,
        "root": {"boundingVolume": {"box": [0,0,0, 200,0,0, 0,50,0, 0,0,1]}, "geometricError": 0,
                 "content": {"uri": "deep.glb"},
                 "children": [{"boundingVolume": {"sphere": [0,0,0,1]}, "geometricError": 0,
                               "content": {"uri": "loop/tileset.json"}}]}}"#;
    let files = [
        ("tileset.json", outer.clone()),
        ("inner/tileset.json", inner.to_owned()),
        (
            "inner/loop/tileset.json",
            outer.replace("inner/tileset.json", "../tileset.json"),
        ),
    ];
    let mut s = TileSelection::open(loader(&files, &[]), "tileset.json", options()).unwrap();
    assert_eq!(s.figures().tiles, 0);
    let far = down(0.0, 1001.0, 60.0);
    figures(&mut s, &far);
    let f = figures(&mut s, &far);
    assert_eq!((f.tiles, f.rendered), (2, 1), "not reached: not loaded");
    let near = down(0.0, 101.0, 60.0);
    let f = figures(&mut s, &near);
    // The external tile wants to refine: its file is asked for; the root stays.
    assert_eq!((f.tiles, f.rendered, f.queued), (2, 1, 1));
    let f = figures(&mut s, &near);
    assert_eq!(f.tiles, 4, "the inner tileset's two tiles added");
    assert_eq!(names(&s), ["root.glb"]);
    for _ in 0..3 {
        figures(&mut s, &near);
    }
    assert_eq!(names(&s), ["inner/deep.glb"]);
    assert!(s.figures().bytes_held > 200);
}

#[test]
fn a_cycle_of_external_tilesets_fails_without_a_panic() {
    let a = tileset(
        "REPLACE",
        r#"{"boundingVolume": {"box": [0,0,0, 200,0,0, 0,50,0, 0,0,1]}, "geometricError": 5,
            "content": {"uri": "b/tileset.json"}}"#,
    );
    let b = a.replace("b/tileset.json", "../tileset.json");
    let files = [("tileset.json", a.clone()), ("b/tileset.json", b)];
    let mut s = TileSelection::open(loader(&files, &[]), "tileset.json", options()).unwrap();
    let near = down(0.0, 101.0, 60.0);
    let mut failures = Vec::new();
    for _ in 0..8 {
        figures(&mut s, &near);
        failures.extend(s.failures().to_vec());
    }
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].error.contains("cycle"), "{}", failures[0].error);
    assert_eq!(
        names(&s),
        ["b/root.glb"],
        "the tile whose child failed stays shown"
    );
}

#[test]
fn worker_threads_load_slow_and_failing_files_and_the_parent_stays() {
    let json = tileset("REPLACE", &row());
    let slow: Loader = Arc::new(|uri: &str| {
        std::thread::sleep(Duration::from_millis(20));
        match uri {
            "c3.glb" => Err("timed out".to_owned()),
            "c1.glb" => panic!("a loader bug"),
            _ => Ok(Fetched::Bytes(vec![7; 10])),
        }
    });
    let mut graph = Graph::new();
    let root = add_tileset(&mut graph, None, json.as_bytes(), "tileset.json").unwrap();
    let threaded = SelectionOptions {
        threads: 3,
        ..SelectionOptions::default()
    };
    let mut s = TileSelection::from_graph(graph, root, slow, threaded).unwrap();
    let near = down(0.0, 301.0, 60.0);
    let mut failures = Vec::new();
    for _ in 0..4 {
        figures(&mut s, &near);
        failures.extend(s.failures().to_vec());
        assert!(s.wait_for_loads(Duration::from_secs(10)));
        no_double(&s);
    }
    let mut uris: Vec<_> = failures
        .iter()
        .map(|f| (f.uri.clone(), f.error.clone()))
        .collect();
    uris.sort();
    assert_eq!(
        uris,
        [
            ("c1.glb".to_owned(), "the loader panicked".to_owned()),
            ("c3.glb".to_owned(), "timed out".to_owned())
        ]
    );
    assert_eq!(names(&s), ["root.glb"]);
    assert_eq!(s.content(root), Some(&[7u8; 10][..]));
}

#[test]
fn a_view_that_is_not_finite_is_an_error_not_a_panic() {
    let json = tileset("REPLACE", &row());
    let mut s = open(&json, &[], options());
    let mut bad = down(0.0, 301.0, 60.0);
    bad.position.x = f64::NAN;
    assert!(matches!(s.update(&bad), Err(SelectionError::BadView(_))));
    bad = down(0.0, 301.0, 0.0);
    assert!(s.update(&bad).is_err(), "a zero field of view");
    assert_eq!(figures(&mut s, &down(0.0, 301.0, 60.0)).visited, 5);
}

#[test]
fn implicit_expansions_count_against_the_budget_and_go_when_unloaded() {
    let planet = Planet::new(8);
    let budget = SelectionOptions {
        budget_bytes: 3 << 20,
        ..options()
    };
    let mut s = TileSelection::open(planet.loader(), "tileset.json", budget).unwrap();
    let here = Planet::view(0.3, 0.8, 20_000.0, 0.0);
    for _ in 0..16 {
        figures(&mut s, &here);
    }
    let near = *s.figures();
    // Held: the tileset file, the contents, the subtree files and a node's bytes for
    // each tile made at run time (all but the root).
    let (mut contents, mut files) = (0, 0);
    let mut stack = vec![s.root()];
    let mut made_here = Vec::new();
    while let Some(n) = stack.pop() {
        made_here.push(n);
        let st = s.state(n).unwrap();
        contents += st.content_bytes;
        files += st.structure_bytes;
        stack.extend(s.graph().children(n).unwrap());
    }
    let json = planet.tileset_json().len() as u64;
    assert_eq!(near.bytes_held, json + contents + files);
    assert!(files >= (near.tiles as u64 - 1) * NODE_BYTES, "{near:?}");
    // The other side of the world: what was made here is unloaded, nodes and all.
    let there = Planet::view(-2.8, -0.8, 20_000.0, 0.0);
    let (mut most, mut unloaded) = (0, 0);
    for _ in 0..24 {
        let f = figures(&mut s, &there);
        most = most.max(f.bytes_held);
        unloaded += f.unloaded;
    }
    let far = *s.figures();
    assert!(
        near.bytes_held > 2 << 20 && most <= 3 << 20,
        "{near:?}, at most {most}"
    );
    assert!(unloaded > 0);
    // Tile nodes made here were removed with the file or expansion that made them.
    let gone = made_here
        .iter()
        .filter(|&&n| !s.graph().contains(n))
        .count();
    assert!(
        gone > 0 && far.tiles < near.tiles * 2,
        "{gone} gone; {near:?} then {far:?}"
    );
}
