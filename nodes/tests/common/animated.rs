//! Checks on animated glTF samples, run on the samples kept in `testdata/gltf`
//! (`gltf_animated_samples.rs`) and on the shared real-data set (`scenes.rs`): each
//! imports with its animations and skins, plays every animation at several times
//! with finite poses and a change log naming exactly the animated nodes; skinned boxes
//! against brute force at random times and, at rest, where the bind pose puts them.

use scenewalk_core::Change;
use scenewalk_nodes::gltf::{ImportOptions, Imported, import};
use scenewalk_nodes::{AnimationPlayer, SkinnedMesh, Transform};
use std::collections::BTreeSet;
use std::path::Path;

/// (sample, animations, skinned primitives)
pub type Animated<'a> = &'a [(&'a str, usize, usize)];

fn sample(folder: &Path, name: &str) -> Imported {
    import(
        &super::data::sample(folder, name),
        &ImportOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{name} in {}: {e}", folder.display()))
}

fn skinned(imported: &Imported) -> Vec<&SkinnedMesh> {
    let primitives = imported.nodes.iter().flatten().flat_map(|n| &n.primitives);
    primitives
        .filter_map(|&p| imported.graph.get::<SkinnedMesh>(p).ok())
        .collect()
}

/// Deterministic times in [-0.25, 1.25] × the duration: before, inside and after.
fn times(duration: f32, count: usize) -> impl Iterator<Item = f32> {
    let mut state = 0x9e37_79b9_u32;
    (0..count).map(move |_| {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        (state as f32 / u32::MAX as f32 * 1.5 - 0.25) * duration
    })
}

/// Each sample imports with its animations and skinned primitives, and plays every
/// animation at several times with finite poses and a change log naming exactly the
/// animated nodes.
pub fn every_animated_sample_plays_with_finite_poses_and_logs_its_targets(
    folder: &Path,
    samples: Animated,
) {
    for &(name, animations, skinned_count) in samples {
        let imported = sample(folder, name);
        assert_eq!(imported.animations.len(), animations, "{name}");
        assert_eq!(skinned(&imported).len(), skinned_count, "{name}");
        for animation in &imported.animations {
            assert!(animation.duration() > 0.0, "{name}");
            let targets: BTreeSet<_> = animation.targets().map(|t| t.index()).collect();
            assert!(!targets.is_empty(), "{name}");
            let mut graph = imported.graph.clone();
            let mut player = AnimationPlayer::new(animation.clone());
            let d = animation.duration();
            for t in [0.0, d * 0.3, d * 0.77, d, d + 1.0, -1.0, d * 0.5] {
                let seen = graph.change_cursor();
                player.apply(&mut graph, t).unwrap();
                let changed: BTreeSet<_> = graph
                    .changes_since(seen)
                    .unwrap()
                    .iter()
                    .map(|c| match c {
                        Change::Payload(n) => *n,
                        other => panic!("{name}: {other:?}"),
                    })
                    .collect();
                assert_eq!(changed, targets, "{name} at {t}");
                for target in animation.targets() {
                    assert!(
                        graph.get::<Transform>(target).unwrap().local().is_finite(),
                        "{name} at {t}"
                    );
                }
            }
        }
    }
}

/// Skinned boxes against brute force at pseudo-random times.
pub fn skinned_sample_boxes_match_brute_force_at_random_times(folder: &Path, samples: Animated) {
    for &(name, _, skinned_count) in samples {
        if skinned_count == 0 {
            continue;
        }
        let imported = sample(folder, name);
        for animation in &imported.animations {
            let mut graph = imported.graph.clone();
            let mut player = AnimationPlayer::new(animation.clone());
            for t in times(animation.duration(), 8) {
                player.apply(&mut graph, t).unwrap();
                for mesh in skinned(&imported) {
                    super::skinning::check_bounds(&graph, mesh);
                }
            }
        }
    }
}

/// These samples are bound in their rest pose: unanimated, each skinned box equals
/// the bind-pose mesh box placed by the mesh's node (an independent check of the
/// inverse bind matrices and the skinning rule).
pub fn skinned_samples_at_rest_sit_where_their_bind_pose_does(folder: &Path, samples: Animated) {
    for &(name, _, skinned_count) in samples {
        if skinned_count == 0 {
            continue;
        }
        let imported = sample(folder, name);
        let graph = &imported.graph;
        for node in imported.nodes.iter().flatten() {
            for &p in &node.primitives {
                let Ok(mesh) = graph.get::<SkinnedMesh>(p) else {
                    continue;
                };
                let mut matrices = Vec::new();
                let world = |j| Some(super::skinning::world(graph, j).as_affine3a());
                mesh.skin().joint_matrices(world, &mut matrices).unwrap();
                let skinned = mesh.exact_bounds(&matrices).unwrap();
                let placed = mesh
                    .mesh()
                    .geometry()
                    .local_bounds()
                    .transformed(&world(node.id).unwrap());
                let tolerance = 1e-5 * (1.0 + placed.size().max_element());
                assert!(
                    skinned.min.abs_diff_eq(placed.min, tolerance)
                        && skinned.max.abs_diff_eq(placed.max, tolerance),
                    "{name}: skinned {skinned:?}, bind pose {placed:?}"
                );
            }
        }
    }
}
