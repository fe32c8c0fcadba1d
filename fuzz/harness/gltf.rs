//! The glTF fuzz harness, shared by the libFuzzer target (`fuzz_targets/gltf_import.rs`)
//! and the corpus replay test (`examples/tests/fuzz_replay.rs`).
//!
//! Any bytes: the importer answers `Ok` or a `GltfError`, never panics or hangs; an
//! imported graph holds every listed node, and the update pass runs over it; every
//! animation plays, and every skinned mesh's conservative box holds its exact one.

use scenewalk_actors::{Bounds, WorldTransforms};
use scenewalk_core::{Action, Ordered};
use scenewalk_iterators::{DepthFirst, Walk};
use scenewalk_nodes::gltf::{ImportOptions, import_slice};
use scenewalk_nodes::{AnimationPlayer, SkinnedMesh};

/// Imports `data` and, when it imports, checks the graph and runs the update pass.
pub fn run(data: &[u8]) {
    let Ok(imported) = import_slice(data, None, &ImportOptions::default()) else {
        return;
    };
    let mut graph = imported.graph.clone();
    let graph = &mut graph;
    for &n in &imported.order {
        let node = imported.node(n).expect("every listed node is imported");
        assert!(graph.contains(node.id), "node {n} is in the graph");
    }
    let mut update = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .expect("the update chain runs depth-first");
    let mut reached = 0;
    for &root in &imported.roots {
        let stats = update.run(graph, root).expect("a root of the graph runs");
        let walked = graph.preorder(root).expect("a live root").count();
        assert_eq!(stats.entered, walked as u64, "the action enters every node");
        reached += walked;
    }
    assert_eq!(reached, graph.len(), "every node hangs below a scene root");
    let primitives = imported.nodes.iter().flatten().flat_map(|n| &n.primitives);
    let skinned: Vec<SkinnedMesh> = primitives
        .filter_map(|&p| graph.get::<SkinnedMesh>(p).ok().cloned())
        .collect();
    let mut matrices = Vec::new();
    for animation in &imported.animations {
        let mut player = AnimationPlayer::new(animation.clone());
        for t in [-1.0, 0.25, 1.0, 1e6] {
            player
                .apply(graph, t)
                .expect("imported animations target transforms");
            for &root in &imported.roots {
                update.run(graph, root).expect("a root of the graph runs");
            }
            let worlds = update.actor::<WorldTransforms>().expect("in the chain");
            for mesh in &skinned {
                let world = |j| worlds.table().world(graph, j).ok();
                if mesh.skin().joint_matrices(world, &mut matrices).is_err() {
                    continue; // A joint under another root: its run's results are gone.
                }
                let exact = mesh.exact_bounds(&matrices).expect("a matrix per joint");
                let wide = mesh
                    .conservative_bounds(&matrices)
                    .expect("a matrix per joint");
                let finite = exact.is_finite() && wide.is_finite() && !exact.is_empty();
                assert!(
                    !finite || (wide.min.cmple(exact.min).all() && wide.max.cmpge(exact.max).all())
                );
            }
        }
    }
}
