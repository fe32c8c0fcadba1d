//! Reading 3D Tiles: tilesets, volumes, implicit tiling and the errors bad files get.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::Graph;
use scenewalk_core::glam::{DMat3, DMat4, DVec3};
use scenewalk_nodes::tiles::*;

fn tileset(root: &str) -> String {
    format!(r#"{{"asset": {{"version": "1.1"}}, "geometricError": 100, "root": {root}}}"#)
}

fn read(json: &str) -> Result<(Graph, scenewalk_core::NodeId), TilesError> {
    let mut graph = Graph::new();
    let root = add_tileset(&mut graph, None, json.as_bytes(), "tileset.json")?;
    Ok((graph, root))
}

#[test]
fn tiles_compose_transforms_inherit_refinement_and_resolve_contents() {
    let json = tileset(
        r#"{"boundingVolume": {"box": [0,0,0, 1,0,0, 0,1,0, 0,0,1]}, "geometricError": 8,
            "refine": "ADD", "transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 10,0,0,1],
            "contents": [{"uri": "a.glb"}, {"uri": "b/c.pnts"}],
            "children": [{"boundingVolume": {"box": [0,0,0, 1,0,0, 0,1,0, 0,0,1]}, "geometricError": 0,
                          "transform": [2,0,0,0, 0,2,0,0, 0,0,2,0, 0,5,0,1],
                          "content": {"uri": "./b/../d.glb"}},
                         {"boundingVolume": {"sphere": [1,0,0, 2]}, "geometricError": 0,
                          "content": {"uri": "more/tileset.json"}}]}"#,
    );
    let (graph, root) = read(&json).unwrap();
    let tile = graph.get::<Tile>(root).unwrap();
    assert_eq!(tile.contents, ["a.glb", "b/c.pnts"]);
    assert_eq!(tile.volume.center(), DVec3::new(10.0, 0.0, 0.0));
    let kids: Vec<_> = graph.children(root).unwrap().collect();
    let first = graph.get::<Tile>(kids[0]).unwrap();
    assert_eq!(first.refine, Refine::Add);
    assert_eq!(first.contents, ["d.glb"]);
    let Volume::Box(b) = first.volume else {
        panic!("a box")
    };
    assert_eq!(b.center, DVec3::new(10.0, 5.0, 0.0));
    assert_eq!(b.half_axes, DMat3::from_diagonal(DVec3::splat(2.0)));
    let second = graph.get::<Tile>(kids[1]).unwrap();
    assert_eq!(second.external.as_deref(), Some("more/tileset.json"));
    assert!(second.contents.is_empty());
    let Volume::Sphere(s) = second.volume else {
        panic!("a sphere")
    };
    assert_eq!((s.center, s.radius), (DVec3::new(11.0, 0.0, 0.0), 2.0));
}

#[test]
fn an_external_tileset_hangs_under_its_tile_and_a_cycle_is_refused() {
    let outer = tileset(
        r#"{"boundingVolume": {"sphere": [0,0,0, 10]}, "geometricError": 8, "refine": "ADD",
            "transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,7,1],
            "content": {"uri": "inner/tileset.json"}}"#,
    );
    let inner = tileset(
        r#"{"boundingVolume": {"sphere": [0,0,0, 1]}, "geometricError": 0,
            "content": {"uri": "../tileset.json"}}"#,
    );
    let (mut graph, root) = read(&outer).unwrap();
    let uri = graph.get::<Tile>(root).unwrap().external.clone().unwrap();
    let inner_root = add_tileset(&mut graph, Some(root), inner.as_bytes(), &uri).unwrap();
    let tile = graph.get::<Tile>(inner_root).unwrap();
    assert_eq!(tile.volume.center(), DVec3::new(0.0, 0.0, 7.0));
    assert_eq!(tile.refine, Refine::Add);
    let back = tile.external.clone().unwrap();
    assert_eq!(back, "tileset.json");
    let err = add_tileset(&mut graph, Some(inner_root), outer.as_bytes(), &back).unwrap_err();
    assert!(matches!(err, TilesError::Cycle { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "external tilesets form a cycle: tileset.json -> inner/tileset.json -> tileset.json"
    );
    assert_eq!(graph.len(), 2, "nothing added");
}

#[test]
fn bad_files_get_clear_errors() {
    let cases: &[(&str, &str)] = &[
        ("{not json", "tileset.json: not JSON"),
        (
            r#"{"asset": {"version": "1.0"}, "root": {}}"#,
            "tileset.json: geometricError: missing",
        ),
        (
            &tileset(r#"{"boundingVolume": {"sphere": [0,0,0,1]}}"#),
            "root.geometricError: missing",
        ),
        (
            &tileset(r#"{"boundingVolume": {"sphere": [0,0,0,1]}, "geometricError": -1}"#),
            "root.geometricError: -1 is not a finite, non-negative error",
        ),
        (
            &tileset(
                r#"{"boundingVolume": {"box": [0,0,NaN, 1,0,0, 0,1,0, 0,0,1]}, "geometricError": 1}"#,
            ),
            "not JSON",
        ),
        (
            &tileset(
                r#"{"boundingVolume": {"box": [0,0,null, 1,0,0, 0,1,0, 0,0,1]}, "geometricError": 1}"#,
            ),
            "root.boundingVolume.box: null is not a finite number",
        ),
        (
            &tileset(r#"{"boundingVolume": {"sphere": [0,0,1e999,1]}, "geometricError": 1}"#),
            "",
        ),
        (
            &tileset(r#"{"boundingVolume": {"sphere": [0,0,0,-1]}, "geometricError": 1}"#),
            "root.boundingVolume: negative radius",
        ),
        (
            &tileset(
                r#"{"boundingVolume": {"sphere": [0,0,0,1]}, "geometricError": 1, "content": {"uri": "../x.glb"}}"#,
            ),
            r#"tileset.json: the URI "../x.glb" leaves the tileset's folder"#,
        ),
        (
            &tileset(
                r#"{"boundingVolume": {"sphere": [0,0,0,1]}, "geometricError": 1, "content": {"uri": "/etc/passwd"}}"#,
            ),
            "leaves the tileset's folder",
        ),
        (
            &tileset(
                r#"{"boundingVolume": {"sphere": [0,0,0,1]}, "geometricError": 1, "refine": "MERGE"}"#,
            ),
            "root.refine: \"MERGE\" is neither REPLACE nor ADD",
        ),
    ];
    for (json, expected) in cases {
        let err = read(json).unwrap_err().to_string();
        assert!(
            err.contains(expected),
            "{json}\n gave {err}\n wanted {expected}"
        );
    }
}

#[test]
fn uris_never_leave_the_folder() {
    assert_eq!(
        resolve_uri("a/b/t.json", "c/../d.glb").unwrap(),
        "a/b/d.glb"
    );
    assert_eq!(resolve_uri("a/t.json", "../x.glb").unwrap(), "x.glb");
    for bad in [
        "../../x",
        "../x",
        "http://host/x",
        "/x",
        "C:\\x",
        "a\\..\\..\\x",
        "%2e%2e/x",
        "data:abc",
        ".",
    ] {
        assert!(resolve_uri("t.json", bad).is_err(), "{bad}");
    }
}

#[test]
fn a_region_box_holds_every_point_of_the_region_and_not_much_more() {
    let regions = [
        Region {
            west: -1.3197,
            south: 0.69884,
            east: -1.31964,
            north: 0.69890,
            min_height: 0.0,
            max_height: 20.0,
        },
        Region {
            west: 0.1,
            south: -0.4,
            east: 0.5,
            north: 0.3,
            min_height: -100.0,
            max_height: 5000.0,
        },
        Region {
            west: 3.0,
            south: 1.2,
            east: -3.0,
            north: 1.5,
            min_height: 0.0,
            max_height: 1.0,
        },
    ];
    for r in regions {
        let b = r.to_box();
        let inverse = b.half_axes.inverse();
        let mut worst = 0.0f64;
        for i in 0..=20 {
            for j in 0..=20 {
                for k in 0..=4 {
                    let h = r.min_height + (r.max_height - r.min_height) * f64::from(k) / 4.0;
                    let p = r.at(f64::from(i) / 20.0, f64::from(j) / 20.0, h);
                    let local = inverse * (p - b.center);
                    worst = worst.max(local.abs().max_element());
                }
            }
        }
        assert!(worst <= 1.0, "{r:?}: a point at {worst} of the half-axes");
        // Tight: the box's extent along up is within 1 % (+ 1 m) of the sampled span.
        assert!(worst > 0.9, "{r:?}: loose box, farthest point at {worst}");
        let Volume::Box(placed) =
            BoundingVolume::Region(r).place(&DMat4::from_scale(DVec3::splat(3.0)))
        else {
            panic!("a box")
        };
        assert_eq!(placed, b, "a region ignores transforms");
    }
}

#[test]
fn box_distance_is_zero_inside_and_euclidean_outside() {
    let v = Volume::Box(OrientedBox {
        center: DVec3::ZERO,
        half_axes: DMat3::from_cols(
            DVec3::new(1.0, 1.0, 0.0),
            DVec3::new(-2.0, 2.0, 0.0),
            DVec3::ZERO,
        ),
    });
    assert_eq!(v.distance(DVec3::ZERO), 0.0);
    assert!((v.distance(DVec3::new(0.0, 0.0, 3.0)) - 3.0).abs() < 1e-12);
    let along = DVec3::new(1.0, 1.0, 0.0).normalize() * (2f64.sqrt() + 1.0);
    assert!((v.distance(along) - 1.0).abs() < 1e-12);
}

/// A binary subtree file: `json` then the binary chunk `bin`.
fn subtree_file(json: &str, bin: &[u8]) -> Vec<u8> {
    let mut json = json.as_bytes().to_vec();
    while !json.len().is_multiple_of(8) {
        json.push(b' ');
    }
    let mut out = b"subt".to_vec();
    out.extend(1u32.to_le_bytes());
    out.extend((json.len() as u64).to_le_bytes());
    out.extend((bin.len() as u64).to_le_bytes());
    out.extend(json);
    out.extend(bin);
    out
}

const QUAD: &str = r#"{"boundingVolume": {"box": [0,0,0, 8,0,0, 0,8,0, 0,0,1]}, "geometricError": 16,
    "refine": "REPLACE", "content": {"uri": "c/{level}_{x}_{y}.glb"},
    "implicitTiling": {"subdivisionScheme": "QUADTREE", "subtreeLevels": 2, "availableLevels": 4,
                       "subtrees": {"uri": "s/{level}.{x}.{y}.subtree"}}}"#;

#[test]
fn an_implicit_quadtree_expands_only_what_its_subtrees_make_available() {
    let (mut graph, root) = read(&tileset(QUAD)).unwrap();
    let tile = graph.get::<Tile>(root).unwrap().clone();
    let implicit = tile.implicit.as_ref().unwrap();
    assert!(tile.contents.is_empty(), "unknown until the subtree loads");
    assert_eq!(
        implicit.pending_subtree().unwrap().unwrap(),
        "s/0.0.0.subtree"
    );
    assert_eq!(expand_implicit(&mut graph, root).unwrap(), 0);
    // Levels 0-1: root + children 0 and 3 (Morton) available; root has content, child 3
    // too; below, the child subtree under (1, 1, 1)'s child (2, 3, 3) (Morton 15).
    let bin = [0b0001_0011u8, 0, 0b0001_0001, 0, 0, 0b1000_0000, 0, 0];
    let json = r#"{"buffers": [{"byteLength": 8}], "bufferViews": [
        {"buffer": 0, "byteOffset": 0, "byteLength": 1}, {"buffer": 0, "byteOffset": 2, "byteLength": 1},
        {"buffer": 0, "byteOffset": 4, "byteLength": 2}],
        "tileAvailability": {"bitstream": 0}, "contentAvailability": [{"bitstream": 1}],
        "childSubtreeAvailability": {"bitstream": 2}}"#;
    let file = subtree_file(json, &bin);
    let size = set_subtree(&mut graph, root, "s/0.0.0.subtree", &file).unwrap();
    assert_eq!(size, file.len());
    assert_eq!(graph.get::<Tile>(root).unwrap().contents, ["c/0_0_0.glb"]);
    assert_eq!(expand_implicit(&mut graph, root).unwrap(), 2);
    let kids: Vec<_> = graph.children(root).unwrap().collect();
    let coords: Vec<_> = kids
        .iter()
        .map(|&k| {
            let t = graph.get::<Tile>(k).unwrap();
            let i = t.implicit.as_ref().unwrap();
            (i.level, i.x, i.y, t.contents.clone(), t.geometric_error)
        })
        .collect();
    assert_eq!(
        coords,
        [
            (1, 0, 0, vec![], 8.0),
            (1, 1, 1, vec!["c/1_1_1.glb".to_owned()], 8.0)
        ]
    );
    let Volume::Box(b) = graph.get::<Tile>(kids[1]).unwrap().volume else {
        panic!()
    };
    assert_eq!(b.center, DVec3::new(4.0, 4.0, 0.0));
    assert_eq!(b.half_axes.x_axis, DVec3::new(4.0, 0.0, 0.0));
    // (1,0,0) has no child subtree; (1,1,1) has one child subtree root, (2,3,3).
    assert_eq!(expand_implicit(&mut graph, kids[0]).unwrap(), 0);
    assert_eq!(expand_implicit(&mut graph, kids[1]).unwrap(), 1);
    let grand = graph.first_child(kids[1]).unwrap().unwrap();
    let g = graph.get::<Tile>(grand).unwrap().implicit.clone().unwrap();
    assert_eq!((g.level, g.x, g.y), (2, 3, 3));
    assert_eq!(g.pending_subtree().unwrap().unwrap(), "s/2.3.3.subtree");
    // Its subtree: constant availability, the last level (3) has no children.
    let constant = r#"{"tileAvailability": {"constant": 1}, "contentAvailability": [{"constant": 1}],
                       "childSubtreeAvailability": {"constant": 0}}"#;
    set_subtree(&mut graph, grand, "s/2.3.3.subtree", constant.as_bytes()).unwrap();
    assert_eq!(expand_implicit(&mut graph, grand).unwrap(), 4);
    let leaf = graph.first_child(grand).unwrap().unwrap();
    let l = graph.get::<Tile>(leaf).unwrap();
    assert_eq!(l.contents, ["c/3_6_6.glb"]);
    assert!(!l.expandable(), "level 3 is the last");
}

#[test]
fn bad_subtrees_get_clear_errors() {
    let (mut graph, root) = read(&tileset(QUAD)).unwrap();
    let json = r#"{"buffers": [{"byteLength": 8}], "bufferViews": [{"buffer": 0, "byteLength": 1}],
        "tileAvailability": {"bitstream": 0}, "contentAvailability": [{"constant": 0}],
        "childSubtreeAvailability": {"constant": 0}}"#;
    let good = subtree_file(json, &[1, 0, 0, 0, 0, 0, 0, 0]);
    assert!(set_subtree(&mut graph, root, "s", &good).is_ok());
    let truncated = &good[..good.len() - 3];
    let err = set_subtree(&mut graph, root, "s/0.0.0.subtree", truncated)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("s/0.0.0.subtree: subtree: truncated"),
        "{err}"
    );
    let err = set_subtree(&mut graph, root, "s", &good[..10])
        .unwrap_err()
        .to_string();
    assert!(err.contains("cut short"), "{err}");
    // Child subtrees need 16 bits (2 bytes); a 1-byte bitstream is short.
    let short = json.replace(
        r#""childSubtreeAvailability": {"constant": 0}"#,
        r#""childSubtreeAvailability": {"bitstream": 0}"#,
    );
    let err = set_subtree(&mut graph, root, "s", &subtree_file(&short, &[0; 8]))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "s: subtree: childSubtreeAvailability: the bitstream holds 1 bytes, 16 entries need 2"
    );
    let past = json.replace(
        r#""byteLength": 1}"#,
        r#""byteOffset": 6, "byteLength": 4}"#,
    );
    let err = set_subtree(&mut graph, root, "s", &subtree_file(&past, &[0; 8]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("past its buffer"), "{err}");
    let err = set_subtree(
        &mut graph,
        root,
        "s",
        b"subt\x01\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff\0\0\0\0\0\0\0\0",
    )
    .unwrap_err();
    assert!(err.to_string().contains("truncated"), "{err}");
    assert!(set_subtree(&mut graph, root, "s", b"not json").is_err());
}

#[test]
fn implicit_tilings_refuse_bad_declarations() {
    for (from, to, expected) in [
        ("\"QUADTREE\"", "\"HEXTREE\"", "neither QUADTREE nor OCTREE"),
        (
            "\"subtreeLevels\": 2",
            "\"subtreeLevels\": 99",
            "subtreeLevels: missing or not in 1..=20",
        ),
        (
            "\"availableLevels\": 4",
            "\"availableLevels\": 0",
            "availableLevels",
        ),
        ("s/{level}", "../{level}", "leaves the tileset's folder"),
    ] {
        let json = tileset(&QUAD.replace(from, to));
        let err = read(&json).unwrap_err().to_string();
        assert!(err.contains(expected), "{err}");
    }
}

const SAMPLE: &str = r#"{"boundingVolume": {"region": [0.1, 0.2, 0.3, 0.4, 0, 100]}, "geometricError": 50,
    "refine": "ADD", "content": {"uri": "a.glb"}, "transform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1],
    "children": [{"boundingVolume": {"box": [0,0,0, 1,0,0, 0,1,0, 0,0,1]}, "geometricError": 5,
                  "contents": [{"uri": "b.glb"}, {"uri": "ext/tileset.json"}]},
                 {"boundingVolume": {"sphere": [1,2,3,4]}, "geometricError": 0}]}"#;

fn good_subtree() -> Vec<u8> {
    let json = r#"{"buffers": [{"byteLength": 8}], "bufferViews": [{"buffer": 0, "byteLength": 1},
        {"buffer": 0, "byteOffset": 2, "byteLength": 2}],
        "tileAvailability": {"bitstream": 0}, "contentAvailability": [{"constant": 1}],
        "childSubtreeAvailability": {"bitstream": 1}}"#;
    subtree_file(json, &[0b11, 0, 0xff, 0xff, 0, 0, 0, 0])
}

proptest::proptest! {
    /// Cut or damaged, a tileset reads or is refused whole: never a panic, never a
    /// partial graph.
    #[test]
    fn damaged_tilesets_are_read_or_refused_whole(
        cut in 0usize..1200,
        flips in proptest::collection::vec((0usize..1200, proptest::prelude::any::<u8>()), 0..4),
    ) {
        let mut bytes = tileset(SAMPLE).into_bytes();
        for (at, b) in flips {
            if let Some(x) = bytes.get_mut(at) {
                *x = b;
            }
        }
        bytes.truncate(cut.max(1));
        let mut graph = Graph::new();
        if add_tileset(&mut graph, None, &bytes, "t.json").is_err() {
            proptest::prop_assert_eq!(graph.len(), 0);
        }
    }

    /// Cut or damaged, a subtree file reads or is an error, never a panic.
    #[test]
    fn damaged_subtrees_are_read_or_refused(
        cut in 0usize..400,
        flips in proptest::collection::vec((0usize..400, proptest::prelude::any::<u8>()), 0..4),
    ) {
        let (mut graph, root) = read(&tileset(QUAD)).unwrap();
        let mut bytes = good_subtree();
        for (at, b) in flips {
            if let Some(x) = bytes.get_mut(at) {
                *x = b;
            }
        }
        bytes.truncate(cut);
        if set_subtree(&mut graph, root, "s", &bytes).is_ok() {
            // Whatever it declares, expansion stays within the four children.
            proptest::prop_assert!(expand_implicit(&mut graph, root).unwrap() <= 4);
        }
    }

    /// Every point of a region, at any height in it, lies in the region's box.
    #[test]
    fn region_boxes_hold_their_regions(
        west in -3.1f64..3.1, width in 1e-6f64..3.0, south in -1.5f64..1.4, span in 1e-6f64..1.0,
        low in -1000.0f64..1000.0, rise in 1.0f64..10_000.0,
        u in 0.0f64..=1.0, v in 0.0f64..=1.0, t in 0.0f64..=1.0,
    ) {
        let pi = std::f64::consts::PI;
        let east = if west + width > pi { west + width - 2.0 * pi } else { west + width };
        let r = Region { west, south, east, north: (south + span).min(pi / 2.0), min_height: low, max_height: low + rise };
        let b = r.to_box();
        let p = r.at(u, v, low + rise * t);
        let local = b.half_axes.inverse() * (p - b.center);
        proptest::prop_assert!(local.abs().max_element() <= 1.0 + 1e-9, "{r:?}: {local}");
    }
}

#[test]
fn the_glb_in_a_content_is_found_or_refused() {
    let model = |magic: &[u8; 4], words: &[u32], tail: &[u8]| {
        let mut out = magic.to_vec();
        for w in words {
            out.extend(w.to_le_bytes());
        }
        out.extend(tail);
        out
    };
    // b3dm: 28-byte header, 8 bytes of feature table JSON, then the GLB.
    let b3dm = model(b"b3dm", &[1, 28 + 8 + 4, 8, 0, 0, 0], b"{}      glTF");
    assert_eq!(content_glb(&b3dm, "a.b3dm").unwrap(), b"glTF");
    // i3dm: 32-byte header, glTF embedded (format 1) or named by URI (0).
    let i3dm = model(b"i3dm", &[1, 32 + 4, 0, 0, 0, 0, 1], b"glTF");
    assert_eq!(content_glb(&i3dm, "a.i3dm").unwrap(), b"glTF");
    let by_uri = model(b"i3dm", &[1, 32 + 4, 0, 0, 0, 0, 0], b"a.gl");
    let glb = b"glTF\x02\0\0\0".to_vec();
    assert_eq!(content_glb(&glb, "a.glb").unwrap(), &glb[..]);
    for (bytes, expected) in [
        (by_uri, "names its glTF by URI"),
        (model(b"b3dm", &[1, 1000, 0, 0, 0, 0], b"glTF"), "cut short"),
        (
            model(b"b3dm", &[1, 32, u32::MAX, u32::MAX, 0, 0], b"glTF"),
            "cut short",
        ),
        (model(b"b3dm", &[1, 28], b""), "cut short"),
        (b"pnts".to_vec(), "point cloud"),
        (b"cmpt....".to_vec(), "neither glb, b3dm nor i3dm"),
        (Vec::new(), "neither glb, b3dm nor i3dm"),
    ] {
        let err = content_glb(&bytes, "x").unwrap_err().to_string();
        assert!(err.contains(expected), "{err}");
    }
}
