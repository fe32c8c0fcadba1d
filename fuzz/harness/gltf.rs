//! The glTF fuzz harness, shared by the libFuzzer target (`fuzz_targets/gltf_import.rs`)
//! and the corpus replay test (`examples/tests/fuzz_replay.rs`).
//!
//! Any bytes: the importer answers `Ok` or a `GltfError`, never panics or hangs; an
//! imported graph holds every listed node, and the update pass runs over it.

use scenewalk_actors::{Bounds, WorldTransforms};
use scenewalk_core::{Action, Ordered};
use scenewalk_iterators::{DepthFirst, Walk};
use scenewalk_nodes::gltf::{ImportOptions, import_slice};

/// Imports `data` and, when it imports, checks the graph and runs the update pass.
pub fn run(data: &[u8]) {
    let Ok(imported) = import_slice(data, None, &ImportOptions::default()) else {
        return;
    };
    let graph = &imported.graph;
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
}
