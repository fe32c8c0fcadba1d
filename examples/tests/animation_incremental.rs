//! An animation player's writes and the incremental update: after each frame, the
//! incremental update (which re-walks only the nodes the change log names) equals a
//! full update of the same graph, world matrix by world matrix and box by box
//! (skinned meshes' own boxes included), on every animated shared sample; and the
//! update's box of each skinned mesh holds every vertex skinned by brute force at
//! random times.

use scenewalk_actors::{BoundsTable, IncrementalUpdate};
use scenewalk_iterators::Walk;
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{AnimationPlayer, SkinnedMesh};
use std::path::{Path, PathBuf};

const ANIMATED: [&str; 7] = [
    "BoxAnimated",
    "CesiumMilkTruck",
    "Fox",
    "CesiumMan",
    "RiggedSimple",
    "RiggedFigure",
    "SimpleSkin",
];

/// The shared glTF samples' folder, or a clear failure.
fn samples() -> PathBuf {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes/gltf");
    assert!(
        folder.is_dir(),
        "the shared samples are missing: expected them at {}",
        folder.display()
    );
    folder
}

#[test]
fn incremental_updates_after_the_player_equal_full_updates() {
    let folder = samples();
    for name in ANIMATED {
        let path = folder.join(name).join(format!("{name}.gltf"));
        let imported = import(&path, &ImportOptions::default()).unwrap();
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

/// Brute-force skinning in f64 (the box of every vertex skinned), shared with the
/// nodes crate's tests.
#[path = "../../nodes/tests/common/skinning.rs"]
#[allow(dead_code)]
mod skinning;

/// At pseudo-random times of every animation (inside and outside its keys), the
/// incremental update's box of each skinned mesh of the skinned samples holds every
/// vertex skinned by brute force, and so do the mesh's and its root's subtree boxes.
#[test]
fn the_updates_skinned_boxes_hold_every_skinned_vertex_of_the_samples() {
    let folder = samples();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f32 / (1u64 << 53) as f32
    };
    for name in [
        "CesiumMan",
        "Fox",
        "RiggedSimple",
        "RiggedFigure",
        "SimpleSkin",
    ] {
        let path = folder.join(name).join(format!("{name}.gltf"));
        let imported = import(&path, &ImportOptions::default()).unwrap();
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
