//! The parallel half of `core/tests/actor_panic.rs`: an actor that panics on a worker
//! thread in the middle of `Action::run_parallel` leaves the graph unchanged, and the
//! same `Action` then runs correctly, in parallel and sequentially.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{
    Action, ActiveList, Flow, Graph, NodeId, Static, StaticActor, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Group;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU32, Ordering};

const NEVER: u32 = u32::MAX;

/// Panics at the enter of one slot; shared by every worker (static).
struct Bomb(AtomicU32);

impl StaticActor for Bomb {
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        if visit.node().get() as u32 == self.0.load(Ordering::Relaxed) {
            panic!("bomb at {:?}", visit.node());
        }
        Flow::Continue
    }
}

/// Counts enters and sums slot numbers; forks and merges exactly.
#[derive(Default, Debug, PartialEq)]
struct Sum {
    entered: u64,
    slots: u64,
}

impl UnorderedActor for Sum {
    fn begin(
        &mut self,
        _: &scenewalk_core::RunContext<'_>,
    ) -> Result<(), scenewalk_core::TraversalError> {
        *self = Sum::default();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.entered += 1;
        self.slots += visit.node().get() as u64;
        Flow::Continue
    }
    fn fork(&self) -> Option<Self> {
        Some(Sum::default())
    }
    fn merge(&mut self, worker: Self) {
        self.entered += worker.entered;
        self.slots += worker.slots;
    }
}

/// 16 subtrees of 1,000 nodes under a root: large enough to split across workers.
fn forest() -> (Graph, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for _ in 0..16 {
        let top = graph.append_child(root, Group).unwrap();
        let mut last = top;
        for i in 1..1000 {
            let parent = if i % 3 == 0 { top } else { last };
            last = graph.append_child(parent, Group).unwrap();
        }
    }
    (graph, root)
}

#[test]
fn a_panic_on_a_worker_leaves_graph_and_action_usable() {
    let (graph, root) = forest();
    let n = graph.len() as u64;
    let want = Sum {
        entered: n,
        slots: (0..n).sum(),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Unordered::new(Sum::default()),
            Static::new(Bomb(AtomicU32::new(NEVER))),
        ),
    )
    .unwrap();
    let revision = graph.revision();
    // The root, a node above the split points, and nodes deep in different subtrees.
    for at in [0u32, 1, 1500, 9000, n as u32 - 1] {
        action
            .actor::<Bomb>()
            .unwrap()
            .0
            .store(at, Ordering::Relaxed);
        let run = catch_unwind(AssertUnwindSafe(|| {
            pool.install(|| action.run_parallel(&graph, root))
        }));
        assert!(run.is_err(), "the bomb at {at} went off");
        assert_eq!((graph.revision(), graph.len() as u64), (revision, n));

        action
            .actor::<Bomb>()
            .unwrap()
            .0
            .store(NEVER, Ordering::Relaxed);
        let stats = pool.install(|| action.run_parallel(&graph, root)).unwrap();
        assert_eq!(stats.entered, n, "parallel, after a panic at {at}");
        assert_eq!(action.actor::<Sum>().unwrap(), &want);
        let stats = action.run(&graph, root).unwrap();
        assert_eq!(stats.entered, n, "sequential, after a panic at {at}");
        assert_eq!(action.actor::<Sum>().unwrap(), &want);
        assert_eq!(action.live_frames(), 0);
    }
}
