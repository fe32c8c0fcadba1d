//! The 3D Tiles samples of the shared real-data set: what a viewer must do with each.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::tiles::*;
use scenewalk_core::glam::{DMat3, DVec3};
use scenewalk_core::{Graph, NodeId};
use scenewalk_nodes::tiles::{Tile, Volume, add_tileset};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "../../nodes/tests/common/data.rs"]
mod data;

/// The shared set's 3D Tiles samples.
fn tiles() -> PathBuf {
    data::scenes().join("tiles")
}

fn open(folder: &Path, options: SelectionOptions) -> TileSelection {
    TileSelection::open(file_loader(folder), "tileset.json", options).unwrap()
}

fn sync() -> SelectionOptions {
    SelectionOptions {
        threads: 0,
        ..SelectionOptions::default()
    }
}

/// Runs frames until nothing is loading and the selection did not change.
fn settle(s: &mut TileSelection, view: &TileView) -> Vec<LoadFailure> {
    let mut failures = Vec::new();
    let mut last = Vec::new();
    for _ in 0..64 {
        let f = *s.update(view).unwrap();
        failures.extend(s.failures().to_vec());
        if f.loading == 0 && f.queued == 0 && f.expanded == 0 && s.rendered() == last {
            return failures;
        }
        last = s.rendered().to_vec();
    }
    panic!("the selection did not settle: {:?}", s.figures());
}

fn contents(s: &TileSelection) -> BTreeSet<String> {
    s.rendered()
        .iter()
        .flat_map(|&n| s.graph().get::<Tile>(n).unwrap().contents.clone())
        .collect()
}

fn files(folder: &Path, prefix: &str) -> BTreeSet<String> {
    std::fs::read_dir(folder)
        .unwrap()
        .map(|e| format!("{prefix}{}", e.unwrap().file_name().to_string_lossy()))
        .collect()
}

#[test]
fn every_sample_tileset_reads() {
    let root = tiles();
    let mut found = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.file_name().is_some_and(|n| n == "tileset.json") {
                found.push(path);
            }
        }
    }
    assert_eq!(found.len(), 12, "{found:?}");
    for path in found {
        let mut graph = Graph::new();
        let json = std::fs::read(&path).unwrap();
        let tile = add_tileset(&mut graph, None, &json, "tileset.json")
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(graph.get::<Tile>(tile).unwrap().geometric_error >= 0.0);
    }
}

/// The dragon's box: centre and half-axes in Earth-centred coordinates.
fn dragon_box(s: &TileSelection) -> (DVec3, DMat3) {
    let Volume::Box(b) = s.graph().get::<Tile>(s.root()).unwrap().volume else {
        panic!("a box")
    };
    (b.center, b.half_axes)
}

#[test]
fn the_discrete_lod_dragon_refines_as_the_camera_approaches_and_keeps_the_middle_level() {
    let folder = tiles().join("1.0/TilesetWithDiscreteLOD");
    let mut s = open(&folder, sync());
    let (center, axes) = dragon_box(&s);
    // Approach along the box's third axis, looking at its centre.
    let out = axes.z_axis.normalize();
    let reach = axes.z_axis.length();
    let view = |gap: f64| {
        TileView::look_at(
            center + out * (reach + gap),
            center,
            axes.x_axis.normalize(),
        )
    };
    // Root error 1: 935 px / distance; medium 0.1.
    let far = settle(&mut s, &view(1000.0));
    assert!(far.is_empty());
    assert_eq!(contents(&s), BTreeSet::from(["dragon_low.b3dm".to_owned()]));
    let mid = settle(&mut s, &view(30.0));
    assert!(mid.is_empty());
    assert_eq!(
        contents(&s),
        BTreeSet::from(["dragon_medium.b3dm".to_owned()])
    );
    let near = settle(&mut s, &view(3.0));
    assert_eq!(near.len(), 1, "{near:?}");
    assert_eq!(near[0].uri, "dragon_high.b3dm");
    assert!(
        near[0].error.contains("dragon_high.b3dm"),
        "{}",
        near[0].error
    );
    assert_eq!(
        contents(&s),
        BTreeSet::from(["dragon_medium.b3dm".to_owned()])
    );
    assert_eq!(s.figures().rendered, 1);
    // Held: the three files the loader read.
    let held: u64 = ["tileset.json", "dragon_low.b3dm", "dragon_medium.b3dm"]
        .iter()
        .map(|f| std::fs::metadata(folder.join(f)).unwrap().len())
        .sum();
    assert_eq!(s.figures().bytes_held, held);
}

#[test]
fn the_external_city_loads_only_when_reached() {
    let folder = tiles().join("1.0/TilesetWithRequestVolume");
    let mut s = open(&folder, sync());
    // The region's centre, seen from straight above.
    let (lon, lat) = (-1.319_68, 0.698_874);
    let ground = scenewalk_nodes::tiles::geodetic_to_ecef(lon, lat, 0.0);
    let up = ground.normalize();
    let above = |h: f64| TileView::look_at(ground + up * h, ground, DVec3::Z);
    settle(&mut s, &above(200_000.0));
    assert_eq!(
        s.figures().tiles,
        4,
        "root and its three children; the city not loaded"
    );
    assert!(
        contents(&s).is_empty(),
        "the root has no content, its error is small from afar"
    );
    let failures = settle(&mut s, &above(300.0));
    assert_eq!(s.figures().tiles, 9, "the city's five tiles added");
    let shown = contents(&s);
    for quarter in [
        "city/ll.b3dm",
        "city/lr.b3dm",
        "city/ur.b3dm",
        "city/ul.b3dm",
    ] {
        assert!(shown.contains(quarter), "{quarter} not in {shown:?}");
    }
    assert!(failures.is_empty(), "{failures:?}");
}

fn implicit(name: &str, view: TileView) {
    let folder = tiles().join("1.1").join(name);
    let mut s = open(&folder, sync());
    let failures = settle(&mut s, &view);
    // Every subtree and content asked for exists: only available tiles were expanded.
    assert!(failures.is_empty(), "{failures:?}");
    // ADD refinement, refined to the last level: every content file is shown.
    assert_eq!(contents(&s), files(&folder.join("content"), "content/"));
    let subtrees = s
        .graph()
        .roots()
        .flat_map(|r| descendants(s.graph(), r))
        .filter(|&n| {
            let tile = s.graph().get::<Tile>(n).unwrap();
            let implicit = tile.implicit.as_ref();
            implicit.is_some_and(|i| i.is_subtree_root() && i.subtree.is_some())
        })
        .count();
    assert_eq!(subtrees, files(&folder.join("subtrees"), "").len());
}

fn descendants(graph: &Graph, root: NodeId) -> Vec<NodeId> {
    let mut out = vec![root];
    let mut i = 0;
    while let Some(&n) = out.get(i) {
        out.extend(graph.children(n).unwrap());
        i += 1;
    }
    out
}

#[test]
fn the_implicit_quadtree_expands_only_available_tiles() {
    let eye = DVec3::new(0.5, 0.5, 1.5);
    implicit(
        "SparseImplicitQuadtree",
        TileView::look_at(eye, DVec3::new(0.5, 0.5, 0.0), DVec3::Y),
    );
}

#[test]
fn the_implicit_octree_expands_only_available_tiles() {
    let eye = DVec3::new(0.5, 0.5, 2.5);
    implicit(
        "SparseImplicitOctree",
        TileView::look_at(eye, DVec3::splat(0.5), DVec3::Y),
    );
}

#[test]
fn every_bounding_box_test_is_culled_exactly_as_its_corners_say() {
    let folder = tiles().join("1.1/BoundingBoxTests");
    let mut boxes = Vec::new();
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path().join("tileset.json");
        if !path.is_file() {
            continue;
        }
        let mut graph = Graph::new();
        let root = add_tileset(
            &mut graph,
            None,
            &std::fs::read(&path).unwrap(),
            "tileset.json",
        )
        .unwrap();
        let Volume::Box(b) = graph.get::<Tile>(root).unwrap().volume else {
            panic!("a box")
        };
        boxes.push(b);
    }
    assert_eq!(boxes.len(), 6);
    // A deterministic spread of cameras around the boxes.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut outside, mut inside) = (0, 0);
    for _ in 0..4000 {
        let eye = DVec3::new(
            next() * 12.0 - 6.0,
            next() * 12.0 - 6.0,
            next() * 12.0 - 4.0,
        );
        let target = DVec3::new(next() * 2.0 - 0.5, next() * 2.0 - 0.5, next() * 4.0);
        let mut view = TileView::look_at(eye, target, DVec3::Z);
        view.fovy = 0.3 + next() * 1.2;
        let Some(frustum) = view.frustum() else {
            continue;
        };
        for b in &boxes {
            let corners = b.corners();
            let brute = frustum.planes().iter().any(|p| {
                let n = p.truncate().as_dvec3();
                corners
                    .iter()
                    .all(|c| n.dot(*c - eye) + f64::from(p.w) < 0.0)
            });
            let margin = frustum.planes().iter().flat_map(|p| {
                let n = p.truncate().as_dvec3();
                corners.map(|c| (n.dot(c - eye) + f64::from(p.w)).abs())
            });
            if margin.fold(f64::INFINITY, f64::min) < 1e-9 {
                continue; // a corner on a plane: either answer is right
            }
            let tested = Volume::Box(*b).outside(&frustum, eye);
            assert_eq!(tested, brute, "box {b:?} from {eye} towards {target}");
            if tested { outside += 1 } else { inside += 1 }
        }
    }
    assert!(
        outside > 1000 && inside > 1000,
        "{outside} outside, {inside} inside"
    );
}
