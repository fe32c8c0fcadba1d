//! An animation player's writes and the incremental update: after each frame, the
//! incremental update (which re-walks only the nodes the change log names) equals a
//! full update of the same graph, world matrix by world matrix and box by box, on
//! every animated shared sample.

use scenewalk_actors::IncrementalUpdate;
use scenewalk_iterators::Walk;
use scenewalk_nodes::AnimationPlayer;
use scenewalk_nodes::gltf::{ImportOptions, import};
use std::path::Path;

const ANIMATED: [&str; 7] = [
    "BoxAnimated",
    "CesiumMilkTruck",
    "Fox",
    "CesiumMan",
    "RiggedSimple",
    "RiggedFigure",
    "SimpleSkin",
];

#[test]
fn incremental_updates_after_the_player_equal_full_updates() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes/gltf");
    assert!(
        folder.is_dir(),
        "the shared samples are missing: expected them at {}",
        folder.display()
    );
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
