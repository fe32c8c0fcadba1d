//! `Action::run_parallel` against the sequential depth-first run, exactly: the same
//! enter lists in document order, the same leave sets, counts and statistics, on
//! random trees and lopsided shapes, with 1, 2 and 4 threads.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::{Statistics, WorldTransforms};
use scenewalk_core::{
    Action, ActionError, ActiveList, Events, Flow, Graph, NodeId, NodeIndex, Ordered, RunContext,
    RunStats, Static, TraversalError, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{DepthFirst, Flattened};
use scenewalk_nodes::{Group, Transform};
use std::sync::atomic::{AtomicU64, Ordering};

mod flows;
use flows::{Cull, StopAt, pool};

/// Records enters (in order) and leaves; forks and merges by appending.
#[derive(Default)]
struct Trace {
    entered: Vec<(NodeIndex, u32)>,
    left: Vec<NodeIndex>,
    /// Workers merged into this one in the last run (to see that runs really split).
    forks: usize,
}

impl UnorderedActor for Trace {
    const EVENTS: Events = Events::EnterLeave;
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.entered.clear();
        self.left.clear();
        self.forks = 0;
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.entered.push((visit.node(), visit.depth()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.left.push(visit.node());
    }
    fn fork(&self) -> Option<Self> {
        Some(Self {
            forks: 1,
            ..Self::default()
        })
    }
    fn merge(&mut self, worker: Self) {
        self.entered.extend(worker.entered);
        self.left.extend(worker.left);
        self.forks += worker.forks;
    }
}

/// Counts enters; has no fork/merge hook.
#[derive(Default)]
struct NoHook(u64);

impl UnorderedActor for NoHook {
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

type Chain = (Static<Cull>, Unordered<Trace>, Unordered<Statistics>);

fn chain(seed: u64, from_depth: u32) -> Chain {
    (
        Static::new(Cull { seed, from_depth }),
        Unordered::new(Trace::default()),
        Unordered::new(Statistics::new()),
    )
}

/// What a run produced, to compare exactly.
#[derive(Debug, PartialEq)]
struct Outcome {
    entered: Vec<(NodeIndex, u32)>,
    left: Vec<NodeIndex>,
    nodes: u64,
    leaves: u64,
    depths: Vec<u64>,
    groups: u64,
    transforms: u64,
    stats: (u64, u64, u64, bool, u64),
}

fn outcome(action: &Action<DepthFirst, Chain>, stats: RunStats, sort_leaves: bool) -> Outcome {
    let trace = action.actor::<Trace>().unwrap();
    let statistics = action.actor::<Statistics>().unwrap();
    let mut left = trace.left.clone();
    if sort_leaves {
        left.sort();
    }
    Outcome {
        entered: trace.entered.clone(),
        left,
        nodes: statistics.nodes(),
        leaves: statistics.leaves(),
        depths: statistics.depth_histogram().to_vec(),
        groups: statistics.count_of::<Group>(),
        transforms: statistics.count_of::<Transform>(),
        stats: (
            stats.entered,
            stats.left,
            stats.pruned,
            stats.stopped,
            stats.chain_calls,
        ),
    }
}

/// The parallel run equals the sequential one under 1, 2 and 4 threads; returns the
/// forks made, so callers can see that the run split.
fn check(graph: &Graph, root: NodeId, seed: u64, from_depth: u32) -> usize {
    let mut seq = Action::new(DepthFirst::new(), chain(seed, from_depth)).unwrap();
    let stats = seq.run(graph, root).unwrap();
    let mut expect = outcome(&seq, stats, true);
    // Enter-only order: document order, as the sequential run gives it.
    let in_order = expect.entered.clone();
    expect.entered.sort();
    let mut forks = 0;
    let mut orders = Vec::new();
    for threads in [1, 2, 4] {
        let mut par = Action::new(DepthFirst::new(), chain(seed, from_depth)).unwrap();
        for _ in 0..2 {
            // Twice: the second run reuses the subtree sizes.
            let stats = pool(threads).install(|| par.run_parallel(graph, root).unwrap());
            forks = forks.max(par.actor::<Trace>().unwrap().forks);
            let mut got = outcome(&par, stats, true);
            orders.push(got.entered.clone());
            got.entered.sort();
            assert_eq!(got, expect, "{threads} threads");
        }
    }
    // Entered lists come out in document order, whatever the thread count.
    for order in &orders {
        assert_eq!(*order, in_order);
    }
    forks
}

/// A random tree: node `i` hangs under a random earlier node; then compacted, so its
/// records are in depth-first order (`run_parallel` runs a tree far from that order on
/// the calling thread).
fn random_tree(n: usize, seed: u64) -> (Graph, NodeId) {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut ids = vec![root];
    for _ in 1..n {
        let parent = ids[(next() % ids.len() as u64) as usize];
        let id = if next() % 3 == 0 {
            graph.append_child(parent, Transform::default()).unwrap()
        } else {
            graph.append_child(parent, Group).unwrap()
        };
        ids.push(id);
    }
    in_order(graph, root)
}

/// The graph compacted: its records in depth-first order, as the parallel walk wants
/// them (it runs a tree far from that order on the calling thread).
fn in_order(mut graph: Graph, root: NodeId) -> (Graph, NodeId) {
    let remap = graph.compact().unwrap();
    let root = remap.get(root).unwrap();
    (graph, root)
}

/// A chain of `chain` nodes, then a random bushy tree of `bush` nodes at its end.
fn chain_with_bush(chain: usize, bush: usize, seed: u64) -> (Graph, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut end = root;
    for _ in 0..chain {
        end = graph.append_child(end, Transform::default()).unwrap();
    }
    let mut ids = vec![end];
    let mut rng = seed | 1;
    for _ in 0..bush {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let parent = ids[((rng >> 33) % ids.len() as u64) as usize];
        ids.push(graph.append_child(parent, Group).unwrap());
    }
    in_order(graph, root)
}

/// One giant bushy subtree (a mesh's hierarchy) beside many small ones.
fn giant_subtree(n: usize) -> (Graph, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for _ in 0..40 {
        let small = graph.append_child(root, Group).unwrap();
        graph.append_child(small, Transform::default()).unwrap();
    }
    let giant = graph.append_child(root, Group).unwrap();
    let mut ids = vec![giant];
    let mut rng = 12345u64;
    while ids.len() < n {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let parent = ids[((rng >> 33) % ids.len() as u64) as usize];
        ids.push(graph.append_child(parent, Group).unwrap());
    }
    in_order(graph, root)
}

#[test]
fn lopsided_shapes_split_and_match() {
    let (graph, root) = chain_with_bush(3000, 30_000, 7);
    // Culling in the bush only, and all along the chain (cut before the bush).
    assert!(check(&graph, root, 0, 3000) > 10);
    assert!(check(&graph, root, 5, 3002) > 10);
    check(&graph, root, 5, 0);
    let (graph, root) = giant_subtree(40_000);
    assert!(check(&graph, root, 1, 0) > 10);
    assert!(check(&graph, root, 8, 3) > 10);
    // A pure chain and a chain with a leaf at every link do not split: the run is the
    // sequential walk.
    let (graph, root) = chain_with_bush(20_000, 0, 1);
    assert_eq!(check(&graph, root, 2, 0), 0);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut end = root;
    for _ in 0..20_000 {
        graph.append_child(end, Group).unwrap();
        end = graph.append_child(end, Group).unwrap();
    }
    assert_eq!(check(&graph, root, 3, 0), 0);
}

#[test]
fn small_trees_run_on_the_calling_thread() {
    let (graph, root) = random_tree(300, 4);
    assert_eq!(check(&graph, root, 9, 0), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]
    #[test]
    fn random_trees_match(
        n in 5_000usize..30_000,
        seed in any::<u64>(),
        cull in any::<u64>(),
        from_depth in 0u32..6,
    ) {
        let (graph, root) = random_tree(n, seed);
        check(&graph, root, cull, from_depth);
        // Without culling near the root the run always splits.
        prop_assert!(check(&graph, root, cull, 6) > 0);
    }
}

#[test]
fn a_subtree_root_below_the_graph_root() {
    let (graph, root) = giant_subtree(30_000);
    let inner = graph.children(root).unwrap().last().unwrap();
    check(&graph, inner, 11, 2);
}

#[test]
fn stop_ends_every_worker_and_is_reported() {
    let (graph, root) = random_tree(50_000, 21);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    for (at, threads) in [(100, 2), (25_000, 2), (49_999, 4), (0, 2)] {
        let target = flat.nodes()[at];
        let stopper = StopAt(target, AtomicU64::new(0));
        let mut action = Action::new(
            DepthFirst::new(),
            (Static::new(stopper), Unordered::new(Statistics::new())),
        )
        .unwrap();
        let stats = pool(threads).install(|| action.run_parallel(&graph, root).unwrap());
        assert!(stats.stopped, "stop at {at}");
        assert!(stats.entered <= flat.len() as u64);
        assert_eq!(
            stats.entered,
            action.actor::<StopAt>().unwrap().1.load(Ordering::Relaxed)
        );
        // The stopping node's later siblings in its own task never run: fewer
        // than all nodes entered (the stop is within the last task at worst).
        if at == 0 {
            assert_eq!(stats.entered, 1);
        }
        // The next run starts clean and is complete.
        action.actor_mut::<StopAt>().unwrap().0 = NodeIndex::new(u32::MAX - 1);
        let stats = pool(threads).install(|| action.run_parallel(&graph, root).unwrap());
        assert!(!stats.stopped);
        assert_eq!(stats.entered, flat.len() as u64);
        assert_eq!(
            action.actor::<Statistics>().unwrap().nodes(),
            flat.len() as u64
        );
    }
}

fn incompatible(err: TraversalError) -> (&'static str, String) {
    match err {
        TraversalError::Incompatible(ActionError::Incompatible { actor, reason, .. }) => {
            (actor, reason)
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn actors_that_cannot_run_in_parallel_are_named() {
    let (graph, root) = random_tree(100, 1);
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Unordered::new(Statistics::new()),
            Unordered::new(NoHook::default()),
        ),
    )
    .unwrap();
    let (actor, reason) = incompatible(action.run_parallel(&graph, root).unwrap_err());
    assert!(actor.ends_with("NoHook"), "{actor}");
    assert!(reason.contains("fork/merge hook"), "{reason}");
    assert!(action.check_parallel().is_err());
    // The sequential run still works.
    assert_eq!(action.run(&graph, root).unwrap().entered, 100);

    // Ordered actors with a hook run (actors/tests/parallel_ordered.rs has the rest).
    let mut action =
        Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
    assert_eq!(action.run_parallel(&graph, root).unwrap().entered, 100);

    // A stale root is an error, not a panic.
    let mut other = graph.clone();
    let gone = other.append_child(root, Group).unwrap();
    other.remove(gone).unwrap();
    let mut action = Action::new(DepthFirst::new(), chain(0, 0)).unwrap();
    assert!(matches!(
        action.run_parallel(&other, gone),
        Err(TraversalError::Graph(_))
    ));
}
