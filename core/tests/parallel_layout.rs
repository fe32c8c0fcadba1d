//! `run_parallel` splits a tree whose records lie in depth-first order, and runs a
//! tree whose records are far from it (nodes added in random places, as after many
//! edits) on the calling thread, where per-node results would cost each worker most
//! of a table's pages; `Graph::compact` puts the records back in order.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::prelude::*;
use scenewalk_core::{DepthFirst, Graph};

#[derive(Clone, Debug)]
struct Node;
impl NodeCore for Node {}

/// Counts the nodes it enters, and the workers merged into it.
#[derive(Debug, Default)]
struct Count {
    nodes: u64,
    workers: u64,
}

impl UnorderedActor for Count {
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.nodes += 1;
        Flow::Continue
    }
    fn fork(&self) -> Option<Self> {
        Some(Count::default())
    }
    fn merge(&mut self, worker: Self) {
        self.nodes += worker.nodes;
        self.workers += 1 + worker.workers;
    }
}

/// Nodes counted, workers merged, and the tasks the run reports.
fn run(graph: &Graph, root: NodeId) -> (u64, u64, u64) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(Count::default()),)).unwrap();
    let stats = pool.install(|| action.run_parallel(graph, root)).unwrap();
    let count = action.actor::<Count>().unwrap();
    (count.nodes, count.workers, stats.tasks)
}

#[test]
fn a_tree_far_from_depth_first_order_runs_on_the_calling_thread_until_compacted() {
    const N: u64 = 20_000;
    let mut graph = Graph::new();
    let root = graph.add_root(Node);
    let mut ids = vec![root];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 1..N {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let parent = ids[(seed >> 33) as usize % ids.len()];
        ids.push(graph.append_child(parent, Node).unwrap());
    }
    assert_eq!(run(&graph, root), (N, 0, 0), "scattered records: no split");

    let remap = graph.compact().unwrap();
    let root = remap.get(root).unwrap();
    let (nodes, workers, tasks) = run(&graph, root);
    assert_eq!(nodes, N);
    assert!(workers >= 2, "compacted: split into {workers} workers");
    // A worker per task, and one per stretch of nodes above the split points.
    assert!(
        tasks >= 2 && tasks <= workers,
        "{tasks} tasks, {workers} workers"
    );
}
