//! A parallel run allocates per task, never per node: once its split (or cut) is
//! counted, a run of `Action::run_parallel` or `Flattened::propagate_parallel` on a
//! tree ten times as big allocates about as much, on all its threads together.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

#[path = "../examples/bench_report/pool_bytes.rs"]
mod pool_bytes;

use pool_bytes::allocated_on_all_threads;
use scenewalk_core::prelude::*;
use scenewalk_examples::passes::{UpdateAction, update_action};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{
    mixed_graph, random_dfs_parents, random_mild_transform, random_walk_parents,
};
use scenewalk_examples::{NO_PARENT, TreeShape};
use scenewalk_iterators::Flattened;

const THREADS: usize = 2;

/// Counts the nodes it enters.
#[derive(Debug, Default)]
struct Count(u64);

impl UnorderedActor for Count {
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
    fn fork(&self) -> Option<Self> {
        Some(Count::default())
    }
    fn merge(&mut self, worker: Self) {
        self.0 += worker.0;
    }
}

/// Sums the depths it leaves, from a state copied down the tree.
#[derive(Debug, Default)]
struct Depths(u64);

impl OrderedActor for Depths {
    type State = u64;
    const EVENTS: Events = Events::EnterLeave;
    const FORKS: bool = true;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u64, TraversalError> {
        Ok(0)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u64>,
        _: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        *state.make_mut() += 1;
        Flow::Continue
    }
    fn leave(&mut self, state: &u64, _: &Visit<'_>) {
        self.0 += state;
    }
    fn fork(&self, state: &u64) -> Option<(Self, u64)> {
        Some((Depths::default(), *state))
    }
    fn merge(&mut self, worker: Self) {
        self.0 += worker.0;
    }
}

fn random_tree(n: usize) -> TreeShape {
    TreeShape::from_parents(random_dfs_parents(n, 24, &mut SplitMix64::new(5))).unwrap()
}

/// A chain of a tenth of the nodes with a random tree at its end: the chain lies above
/// the split points.
fn chain_bush(n: usize) -> TreeShape {
    let chain = n / 10;
    let mut parents = vec![NO_PARENT];
    parents.extend(0..chain as u32 - 1);
    let mut rng = SplitMix64::new(9);
    random_walk_parents(&mut parents, chain as u32 - 1, n - chain, 24, &mut rng);
    TreeShape::from_parents(parents).unwrap()
}

/// A chain with a leaf at every link.
fn comb(n: usize) -> TreeShape {
    let mut parents = vec![NO_PARENT];
    while parents.len() < n {
        let link = parents.len() as u32 - 1;
        parents.push(link);
        parents.push(link);
    }
    parents.truncate(n);
    TreeShape::from_parents(parents).unwrap()
}

/// Bytes one warm `run_parallel` of the counting and the depth-summing actor
/// allocates on `tree`, checking its results against a sequential run's.
fn run_parallel_bytes(tree: &TreeShape) -> u64 {
    let (graph, root) = tree.to_graph();
    let new = || {
        Action::new(
            DepthFirst::new(),
            (
                Unordered::new(Count::default()),
                Ordered::new(Depths::default()),
            ),
        )
        .unwrap()
    };
    let mut sequential = new();
    sequential.run(&graph, root).unwrap();
    let expect = (
        sequential.actor::<Count>().unwrap().0,
        sequential.actor::<Depths>().unwrap().0,
    );
    let mut action = new();
    // The first run counts the subtree sizes the action keeps.
    allocated_on_all_threads(THREADS, || {
        action.run_parallel(&graph, root).unwrap();
    });
    let totals = |a: &Action<DepthFirst, _>| {
        (
            a.actor::<Count>().unwrap().0,
            a.actor::<Depths>().unwrap().0,
        )
    };
    let before = totals(&action);
    let bytes = allocated_on_all_threads(THREADS, || {
        action.run_parallel(&graph, root).unwrap();
    });
    let after = totals(&action);
    // The actors add up across runs.
    assert_eq!((after.0 - before.0, after.1 - before.1), expect);
    bytes
}

/// Bytes one warm `propagate_parallel` allocates on `tree`, checking its output.
fn propagate_bytes(tree: &TreeShape) -> u64 {
    let (graph, root) = tree.to_graph();
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    let locals = flat.gather(|node| u64::from(node.raw()));
    let add = |a: &u64, b: &u64| a.wrapping_mul(31).wrapping_add(*b);
    let mut expect = Vec::new();
    flat.propagate(7, &locals, &mut expect, add).unwrap();
    let mut out = Vec::new();
    // The first pass makes the cut the flattening keeps, and sizes `out`.
    allocated_on_all_threads(THREADS, || {
        flat.propagate_parallel(7, &locals, &mut out, add).unwrap()
    });
    let bytes = allocated_on_all_threads(THREADS, || {
        flat.propagate_parallel(7, &locals, &mut out, add).unwrap()
    });
    assert_eq!(out, expect);
    bytes
}

/// Bytes one warm `run_parallel` of the update pass (world transforms, boxes and
/// statistics, whose per-node tables fork by page) allocates on `tree`, checking
/// every node's box against a sequential run's.
fn update_bytes(tree: &TreeShape) -> u64 {
    let (graph, root, _) = mixed_graph(tree, &mut SplitMix64::new(3), random_mild_transform);
    let mut sequential = update_action().unwrap();
    sequential.run(&graph, root).unwrap();
    let mut action = update_action().unwrap();
    // The first run counts the subtree sizes and fills the pools of spare pages.
    allocated_on_all_threads(THREADS, || {
        action.run_parallel(&graph, root).unwrap();
    });
    let mut tasks = 0;
    let bytes = allocated_on_all_threads(THREADS, || {
        tasks = action.run_parallel(&graph, root).unwrap().tasks;
    });
    assert!(tasks > 1, "the run was not split");
    let boxes = |a: &UpdateAction| a.actors().0.get().table();
    let (want, got) = (boxes(&sequential), boxes(&action));
    let mut next = Some(root);
    while let Some(node) = next {
        assert_eq!(got.at(node.index()), want.at(node.index()));
        next = graph.next_preorder(node, root).unwrap();
    }
    bytes
}

/// Per run on trees of 20k and 200k nodes: the bigger may allocate a little more
/// (more nodes above the split points), never in proportion, and under `cap`.
fn assert_per_task(
    what: &str,
    bytes: impl Fn(&TreeShape) -> u64,
    shape: fn(usize) -> TreeShape,
    cap: u64,
) {
    let (small, big) = (bytes(&shape(20_000)), bytes(&shape(200_000)));
    println!("{what}: {small} B per run at 20k nodes, {big} B at 200k");
    assert!(
        big < 2 * small + 16 * 1024 && big < cap,
        "{what}: {small} B at 20k nodes, {big} B at 200k"
    );
}

#[test]
fn run_parallel_allocates_per_task_not_per_node() {
    assert_per_task(
        "run_parallel random",
        run_parallel_bytes,
        random_tree,
        200_000,
    );
    assert_per_task("run_parallel comb", run_parallel_bytes, comb, 200_000);
}

#[test]
fn propagate_parallel_allocates_per_task_not_per_node() {
    assert_per_task(
        "propagate_parallel random",
        propagate_bytes,
        random_tree,
        200_000,
    );
    assert_per_task("propagate_parallel comb", propagate_bytes, comb, 200_000);
    let chain = |n: usize| {
        TreeShape::from_parents(std::iter::once(NO_PARENT).chain(0..n as u32 - 1).collect())
            .unwrap()
    };
    assert_per_task("propagate_parallel chain", propagate_bytes, chain, 200_000);
}

#[test]
fn the_update_pass_allocates_per_task_not_per_node() {
    // The actors' forks and their tables' spare pages: about 0.9 MB a run at either size.
    assert_per_task("update pass random", update_bytes, random_tree, 2_000_000);
    assert_per_task(
        "update pass chain_bush",
        update_bytes,
        chain_bush,
        2_000_000,
    );
}
