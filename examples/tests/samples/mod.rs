//! Checks on glTF sample files, run on the few kept in the repository (`testdata/gltf`,
//! by the plain test targets) and on the shared real-data set (`scenes.rs`, feature
//! `scenes`): `inspect --json` against an independent reading of the JSON, its bytes
//! at rest against recorded hashes, the incremental update after the animation player
//! against a full update, the update's skinned boxes against brute-force skinning, and
//! the tour's box of a skinned model against `inspect`'s exact one.

#![allow(dead_code)]

#[path = "../../../nodes/tests/common/data.rs"]
pub mod data;
#[path = "../reference/mod.rs"]
pub mod reference;
/// Brute-force skinning in f64 (the box of every vertex skinned), shared with the
/// nodes crate's tests.
#[path = "../../../nodes/tests/common/skinning.rs"]
pub mod skinning;

use data::sample;
use scenewalk_actors::{BoundsTable, IncrementalUpdate};
use scenewalk_examples::inspect::{inspect, inspect_at};
use scenewalk_examples::tour::{Command, parse_args, run};
use scenewalk_iterators::Walk;
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{AnimationPlayer, SkinnedMesh};
use std::path::Path;

/// The samples kept in `testdata/gltf`.
pub const KEPT: [&str; 5] = [
    "BoxAnimated",
    "MultipleScenes",
    "RiggedSimple",
    "SimpleMeshes",
    "SimpleSkin",
];

/// `inspect --json` on every `.gltf` under `folder` (one folder per sample), every
/// scene and the default, checked against the reference reading of its raw JSON.
/// Fails, naming the folder, when it holds no `.gltf` file.
pub fn inspect_matches_the_reference(folder: &Path) {
    let entries = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("the glTF samples are missing: {} ({e})", folder.display()));
    let mut checked = 0;
    for entry in entries {
        let dir = entry.unwrap().path();
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for file in files {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "gltf") {
                continue;
            }
            let doc: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let scenes = doc["scenes"].as_array().map_or(0, Vec::len);
            let default = doc["scene"].as_u64().map_or(0, |s| s as usize);
            let mut runs = vec![(None, default)];
            runs.extend((0..scenes).map(|s| (Some(s), s)));
            for (option, scene) in runs {
                let imported = import(&path, &ImportOptions::default().with_scene(option)).unwrap();
                let json = inspect(&imported).unwrap().to_json();
                reference::check(&json, &doc, scene);
                eprintln!(
                    "{} scene {scene} ({option:?}): {} nodes, {} mesh nodes: ok",
                    path.display(),
                    json["node_count"],
                    json["mesh_node_count"]
                );
                checked += 1;
            }
        }
    }
    assert!(
        checked > 0,
        "no .gltf file found under {}",
        folder.display()
    );
}

/// Per sample, the bytes and FNV-1a 64 hash of `inspect --json` at rest, recorded
/// from the code before skins and animations were imported (commit 5730fdc).
pub const RECORDED: [(&str, usize, u64); 13] = [
    ("AntiqueCamera", 913, 0xe4c0aa70ec2bc075),
    ("BoxAnimated", 808, 0x453da726b2ef03ec),
    ("CesiumMan", 6898, 0x6e999b68c58b6609),
    ("CesiumMilkTruck", 2197, 0x338f92acf6874618),
    ("Fox", 8383, 0x659979b83b41363a),
    ("Lantern", 1276, 0xb62289dc4efbd0e6),
    ("MetalRoughSpheresNoTextures", 36130, 0x6472bdbc6a21cdef),
    ("MultipleScenes", 287, 0xeaa1cc0594a8f021),
    ("OrientationTest", 4039, 0xe210b45daa9506b7),
    ("RiggedFigure", 7246, 0x1b3c5b746e473d07),
    ("RiggedSimple", 1283, 0xe8aab8f100fffb13),
    ("SimpleMeshes", 463, 0xdf5a4fc881913e82),
    ("SimpleSkin", 564, 0x9fb82779e5029ddf),
];

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `inspect --json` without `--time` prints, for each of `names` in `folder`, the
/// bytes [`RECORDED`]. Skinned samples included: at rest a skinned mesh is still
/// boxed as its bind-pose mesh placed by its node.
pub fn json_at_rest_is_byte_for_byte_what_it_was(folder: &Path, names: &[&str]) {
    for name in names {
        let (_, length, hash) = *RECORDED.iter().find(|r| r.0 == *name).unwrap();
        let imported = import(&sample(folder, name), &ImportOptions::default()).unwrap();
        let text = inspect(&imported).unwrap().to_json().to_string();
        assert_eq!(
            (text.len(), fnv1a(text.as_bytes())),
            (length, hash),
            "{name}: {text}"
        );
    }
}

/// After each frame of every animation of `names`, the incremental update (which
/// re-walks only the nodes the change log names) equals a full update of the same
/// graph, world matrix by world matrix and box by box (skinned boxes included).
pub fn incremental_updates_after_the_player_equal_full_updates(folder: &Path, names: &[&str]) {
    for name in names {
        let imported = import(&sample(folder, name), &ImportOptions::default()).unwrap();
        for animation in &imported.animations {
            let mut graph = imported.graph.clone();
            let mut player = AnimationPlayer::new(animation.clone());
            let mut updates: Vec<_> = (imported.roots.iter())
                .map(|&root| {
                    let mut update = IncrementalUpdate::new();
                    update.run(&graph, root).unwrap();
                    (root, update)
                })
                .collect();
            // Forward a frame at a time, then a jump back.
            let d = animation.duration();
            let frames = (0..12).map(|i| i as f32 * d / 10.0).chain([d * 0.25]);
            for t in frames {
                player.apply(&mut graph, t).unwrap();
                for (root, update) in &mut updates {
                    let stats = update.run(&graph, *root).unwrap();
                    // Incremental unless the root itself moved (then all of it did).
                    if animation.targets().all(|target| target != *root) {
                        assert!(!stats.full, "{name} at {t}: {stats:?}");
                    }
                    let mut full = IncrementalUpdate::new();
                    full.run_full(&graph, *root).unwrap();
                    let (a, b) = (update.results(), full.results());
                    let read = |r: &scenewalk_core::Results| {
                        r.get::<BoundsTable>("test", &graph, root.index()).unwrap()
                    };
                    assert_eq!(read(&a).skinned(), read(&b).skinned(), "{name} at {t}");
                    for index in graph.preorder(*root).unwrap() {
                        let id = graph.id_at(index).unwrap();
                        let at = format!("{name} at {t}, node {id:?}");
                        assert_eq!(update.world(&graph, id), full.world(&graph, id), "{at}");
                        assert_eq!(
                            update.world_bounds(&graph, id),
                            full.world_bounds(&graph, id),
                            "{at}"
                        );
                    }
                }
            }
        }
    }
}

/// At pseudo-random times of every animation (inside and outside its keys), the
/// incremental update's box of each skinned mesh of `names` holds every vertex
/// skinned by brute force, and so do the mesh's and its root's subtree boxes.
pub fn the_updates_skinned_boxes_hold_every_skinned_vertex(folder: &Path, names: &[&str]) {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f32 / (1u64 << 53) as f32
    };
    for name in names {
        let imported = import(&sample(folder, name), &ImportOptions::default()).unwrap();
        let mut checked = 0;
        for animation in &imported.animations {
            let mut graph = imported.graph.clone();
            let mut player = AnimationPlayer::new(animation.clone());
            let mut updates: Vec<_> = (imported.roots.iter())
                .map(|&root| (root, IncrementalUpdate::new()))
                .collect();
            for _ in 0..8 {
                let t = (1.2 * random() - 0.1) * animation.duration();
                player.apply(&mut graph, t).unwrap();
                for (root, update) in &mut updates {
                    update.run(&graph, *root).unwrap();
                    let results = update.results();
                    let bounds = results.get::<BoundsTable>("test", &graph, root.index());
                    let bounds = bounds.unwrap();
                    for index in graph.preorder(*root).unwrap() {
                        let Some(skinned) = graph.get_at::<SkinnedMesh>(index) else {
                            continue;
                        };
                        let boxes = [
                            bounds.skinned_at(index).unwrap(),
                            bounds.at(index).unwrap(),
                            bounds.at(root.index()).unwrap(),
                        ];
                        let (min, max) = skinning::brute_force(&graph, skinned);
                        for p in [min, max] {
                            for b in &boxes {
                                let holds = b.min.as_dvec3().cmple(p).all()
                                    && b.max.as_dvec3().cmpge(p).all();
                                assert!(holds, "{name} at {t}: {b:?} misses {p}");
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 0, "{name} has no skinned mesh to check");
    }
}

/// The tour of the skinned model `file` at 1 s: its scene box holds the exact box
/// `inspect` gives at the same pose and is not much larger, and it names the skinned
/// mesh of node `mesh` (a quoted name).
pub fn the_tour_draws_a_skinned_model_where_its_joints_put_it(file: &Path, mesh: &str) {
    assert!(file.is_file(), "missing sample: {}", file.display());
    let svg = std::env::temp_dir().join(format!(
        "scenewalk-skinned-{}-{}.svg",
        std::process::id(),
        file.file_stem().unwrap().to_string_lossy()
    ));
    let args = [
        file.to_str().unwrap(),
        "--frames",
        "4",
        "--time",
        "1",
        "--svg",
    ];
    let args = args
        .iter()
        .map(|s| s.to_string())
        .chain([svg.display().to_string()]);
    let Ok(Command::Run(options)) = parse_args(args) else {
        panic!("the tour's command line was refused");
    };
    let mut out = Vec::new();
    let outcome = run(&options, &mut out);
    let _ = std::fs::remove_file(&svg);
    let text = String::from_utf8(out).unwrap();
    let outcome = outcome.unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(outcome.failed.is_empty(), "{text}");
    // inspect poses the same animation at the same time and skins every vertex.
    let mut imported = import(file, &ImportOptions::default()).unwrap();
    let want = inspect_at(&mut imported, 0, 1.0)
        .unwrap()
        .world_aabb()
        .unwrap();
    // The update boxes the mesh by one box per joint: it holds the exact box, and
    // is not much larger.
    let got = outcome.scene_box.unwrap();
    let grown = (got.size() - want.size()).max_element();
    assert!(
        got.union(&want) == got && grown <= 0.25 * want.size().max_element(),
        "the tour's box {got:?}, inspect's {want:?}"
    );
    assert!(text.contains(&format!("skinned mesh {mesh:?}")), "{text}");
}
