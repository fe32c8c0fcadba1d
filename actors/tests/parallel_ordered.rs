//! Ordered actors in `Action::run_parallel`, against the sequential depth-first run,
//! exactly: per-node results bit for bit, lists in document order, flows, stops and
//! refusals, with 1, 2 and 4 threads.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{
    Aabb, Action, ActionError, ActiveList, Events, Flow, Graph, NodeId, NodeIndex, Ordered,
    OrderedActor, RunContext, RunStats, StateCell, Static, TraversalError, Unordered, Visit,
};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Geometry, Group, Transform};
use std::sync::atomic::{AtomicU64, Ordering};

mod flows;
use flows::{Cull, StopAt, hash, pool};

/// A user's ordered actor with a fork/merge hook: its state is a hash of the path,
/// written at some nodes only; it lists (node, state) at every enter and leave. The
/// enter list keeps document order with the position noted at the fork; the leave
/// list needs nothing (workers merge where their roots leave).
#[derive(Default)]
struct PathLog {
    entered: Vec<(NodeIndex, u64)>,
    left: Vec<(NodeIndex, u64)>,
    /// In a worker: where its enters go in the parent's list. In the parent: how many
    /// entries merges inserted so far.
    mark: usize,
    inserted: usize,
    forks: usize,
}

impl OrderedActor for PathLog {
    type State = u64;
    const EVENTS: Events = Events::EnterLeave;
    const FORKS: bool = true;

    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u64, scenewalk_core::TraversalError> {
        self.entered.clear();
        self.left.clear();
        self.inserted = 0;
        self.forks = 0;
        Ok(7)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u64>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        if !hash(visit.node()).is_multiple_of(3) {
            let next = state
                .get()
                .wrapping_mul(31)
                .wrapping_add(visit.node().raw() as u64);
            state.set(next);
        }
        self.entered.push((visit.node(), *state.get()));
        Flow::Continue
    }
    fn leave(&mut self, state: &u64, visit: &Visit<'_>) {
        self.left.push((visit.node(), *state));
    }
    fn fork(&self, state: &u64) -> Option<(Self, u64)> {
        let worker = PathLog {
            mark: self.entered.len(),
            forks: 1,
            ..PathLog::default()
        };
        Some((worker, *state))
    }
    fn merge(&mut self, worker: Self) {
        let at = worker.mark + self.inserted;
        self.inserted += worker.entered.len();
        self.entered.splice(at..at, worker.entered);
        self.left.extend(worker.left);
        self.forks += worker.forks;
    }
}

/// The same actor without the hook.
#[derive(Default)]
struct NoHookOrdered(u64);

impl OrderedActor for NoHookOrdered {
    type State = u32;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, scenewalk_core::TraversalError> {
        Ok(0)
    }
    fn enter(&mut self, _: &mut StateCell<'_, u32>, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

type UserChain = (Static<Cull>, Ordered<PathLog>, Unordered<Statistics>);

fn user_chain(seed: u64, from_depth: u32) -> UserChain {
    (
        Static::new(Cull { seed, from_depth }),
        Ordered::new(PathLog::default()),
        Unordered::new(Statistics::new()),
    )
}

type Update = (
    Static<Cull>,
    Ordered<WorldTransforms>,
    Unordered<Statistics>,
    Ordered<Bounds>,
);

fn update_chain(seed: u64, from_depth: u32) -> Update {
    (
        Static::new(Cull { seed, from_depth }),
        Ordered::new(WorldTransforms::new()),
        Unordered::new(Statistics::new()),
        Ordered::new(Bounds::new()),
    )
}

fn counts(stats: &RunStats) -> (u64, u64, u64, bool, u64) {
    (
        stats.entered,
        stats.left,
        stats.pruned,
        stats.stopped,
        stats.state_copies,
    )
}

/// Bits of an affine matrix (NaN equals NaN, -0 differs from 0).
fn bits(m: Option<Affine3A>) -> Option<[u32; 12]> {
    m.map(|m| m.to_cols_array().map(f32::to_bits))
}

fn box_bits(b: Option<Aabb>) -> Option<[u32; 6]> {
    b.map(|b| {
        let [x, y, z] = b.min.to_array();
        let [u, v, w] = b.max.to_array();
        [x, y, z, u, v, w].map(f32::to_bits)
    })
}

/// Everything the update pass produced, per slot, to compare exactly.
#[derive(Debug, PartialEq)]
struct UpdateOutcome {
    world: Vec<Option<[u32; 12]>>,
    boxes: Vec<Option<[u32; 6]>>,
    non_finite: Vec<NodeIndex>,
    nodes: u64,
    depths: Vec<u64>,
    stats: (u64, u64, u64, bool, u64),
}

fn update_outcome(
    graph: &Graph,
    action: &Action<DepthFirst, Update>,
    stats: &RunStats,
) -> UpdateOutcome {
    let world = action.actor::<WorldTransforms>().unwrap();
    let bounds = action.actor::<Bounds>().unwrap();
    let slots = (0..graph.capacity() as u32).map(NodeIndex::new);
    UpdateOutcome {
        world: slots.clone().map(|n| bits(world.table().at(n))).collect(),
        boxes: slots.map(|n| box_bits(bounds.table().at(n))).collect(),
        non_finite: world.non_finite().to_vec(),
        nodes: action.actor::<Statistics>().unwrap().nodes(),
        depths: action
            .actor::<Statistics>()
            .unwrap()
            .depth_histogram()
            .to_vec(),
        stats: counts(stats),
    }
}

/// The update pass in parallel equals the sequential one, with 1, 2 and 4 threads.
fn check_update(graph: &Graph, root: NodeId, seed: u64, from_depth: u32) {
    let mut seq = Action::new(DepthFirst::new(), update_chain(seed, from_depth)).unwrap();
    let stats = seq.run(graph, root).unwrap();
    let expect = update_outcome(graph, &seq, &stats);
    for threads in [1, 2, 4] {
        let mut par = Action::new(DepthFirst::new(), update_chain(seed, from_depth)).unwrap();
        for _ in 0..2 {
            let stats = pool(threads).install(|| par.run_parallel(graph, root).unwrap());
            let got = update_outcome(graph, &par, &stats);
            if got != expect {
                let w = (0..got.world.len()).find(|&i| got.world[i] != expect.world[i]);
                let b = (0..got.boxes.len()).find(|&i| got.boxes[i] != expect.boxes[i]);
                panic!(
                    "{threads} threads: world {w:?} {:?} {:?}, box {b:?} {:?} {:?}, stats {:?} {:?}, nf {} {}",
                    w.map(|i| got.world[i]),
                    w.map(|i| expect.world[i]),
                    b.map(|i| got.boxes[i]),
                    b.map(|i| expect.boxes[i]),
                    got.stats,
                    expect.stats,
                    got.non_finite.len(),
                    expect.non_finite.len()
                );
            }
        }
    }
}

/// World transforms alone (no leave events in the chain) in parallel: the same
/// matrix per node as the sequential run.
fn check_world_only(graph: &Graph, root: NodeId, seed: u64, from_depth: u32) {
    let chain = || {
        (
            Static::new(Cull { seed, from_depth }),
            Ordered::new(WorldTransforms::new()),
        )
    };
    let slots = || (0..graph.capacity() as u32).map(NodeIndex::new);
    let mut seq = Action::new(DepthFirst::new(), chain()).unwrap();
    seq.run(graph, root).unwrap();
    let world = seq.actor::<WorldTransforms>().unwrap();
    let expect: Vec<_> = slots().map(|n| bits(world.table().at(n))).collect();
    for threads in [1, 2, 4] {
        let mut par = Action::new(DepthFirst::new(), chain()).unwrap();
        pool(threads).install(|| par.run_parallel(graph, root).unwrap());
        let world = par.actor::<WorldTransforms>().unwrap();
        let got: Vec<_> = slots().map(|n| bits(world.table().at(n))).collect();
        assert!(got == expect, "{threads} threads");
    }
}

/// The user's ordered actor in parallel equals the sequential run; returns the
/// forks made (to see that the run split).
fn check_user(graph: &Graph, root: NodeId, seed: u64, from_depth: u32) -> usize {
    let mut seq = Action::new(DepthFirst::new(), user_chain(seed, from_depth)).unwrap();
    let stats = seq.run(graph, root).unwrap();
    let log = seq.actor::<PathLog>().unwrap();
    let expect = (log.entered.clone(), log.left.clone(), counts(&stats));
    let mut forks = 0;
    for threads in [1, 2, 4] {
        let mut par = Action::new(DepthFirst::new(), user_chain(seed, from_depth)).unwrap();
        let stats = pool(threads).install(|| par.run_parallel(graph, root).unwrap());
        let log = par.actor::<PathLog>().unwrap();
        forks = forks.max(log.forks);
        let got = (log.entered.clone(), log.left.clone(), counts(&stats));
        assert_eq!(got, expect, "{threads} threads");
    }
    forks
}

/// A random scene: transforms (random rotation, translation, scale; every
/// `bad`-th one NaN), geometry leaves with random boxes, groups; compacted, so its
/// records are in depth-first order (`run_parallel` runs a tree far from that order on
/// the calling thread).
fn random_scene(n: usize, seed: u64, bad: u64) -> (Graph, NodeId) {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let unit = move |r: u64| (r % 2001) as f32 / 1000.0 - 1.0;
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut ids = vec![root];
    let mut transforms = 0u64;
    for _ in 1..n {
        let parent = ids[(next() % ids.len() as u64) as usize];
        let id = match next() % 4 {
            0 => {
                transforms += 1;
                let t = Vec3::new(unit(next()), unit(next()), unit(next())) * 10.0;
                let t = if bad > 0 && transforms.is_multiple_of(bad) {
                    Vec3::NAN
                } else {
                    t
                };
                let r = Quat::from_rotation_y(unit(next()) * 3.0);
                let s = Vec3::splat(1.0 + unit(next()) * 0.5);
                graph
                    .append_child(parent, Transform::from_trs(t, r, s))
                    .unwrap()
            }
            1 => {
                let a = Vec3::new(unit(next()), unit(next()), unit(next()));
                let b = a + Vec3::new(unit(next()).abs(), unit(next()).abs(), 0.5);
                graph
                    .append_child(parent, Geometry::new(Aabb::new(a, b)))
                    .unwrap()
            }
            _ => graph.append_child(parent, Group).unwrap(),
        };
        ids.push(id);
    }
    compacted(graph, root)
}

/// A chain of `chain` transforms, then a random bushy scene of `bush` nodes.
fn chain_with_bush(chain: usize, bush: usize, seed: u64) -> (Graph, NodeId) {
    let (mut graph, bush_root) = random_scene(bush, seed, 0);
    let root = graph.add_root(Group);
    let mut end = root;
    for i in 0..chain {
        let t = Transform::from_translation(Vec3::new(0.001 * i as f32, 1.0, 0.0));
        end = graph.append_child(end, t).unwrap();
    }
    graph.set_parent(bush_root, Some(end), None).unwrap();
    (graph, root)
}

#[test]
fn the_update_pass_matches_on_lopsided_trees() {
    let (graph, root) = chain_with_bush(3000, 30_000, 7);
    check_update(&graph, root, 0, 3000);
    check_update(&graph, root, 5, 3002);
    check_update(&graph, root, 5, 0);
    check_world_only(&graph, root, 5, 3002);
    assert!(check_user(&graph, root, 1, 3000) > 10);
}

#[test]
fn bad_numbers_are_listed_in_traversal_order() {
    let (graph, root) = random_scene(40_000, 3, 50);
    check_update(&graph, root, 9, 100);
    let mut action = Action::new(DepthFirst::new(), update_chain(9, 100)).unwrap();
    pool(2).install(|| action.run_parallel(&graph, root).unwrap());
    assert!(
        action
            .actor::<WorldTransforms>()
            .unwrap()
            .non_finite()
            .len()
            > 100
    );
}

#[test]
fn a_root_below_the_graph_root_starts_from_its_ancestors() {
    let (graph, root) = chain_with_bush(50, 30_000, 4);
    let mut inner = root;
    for _ in 0..20 {
        inner = graph.children(inner).unwrap().next().unwrap();
    }
    check_update(&graph, inner, 3, 0);
    assert!(check_user(&graph, inner, 3, 100) > 10);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    #[test]
    fn random_scenes_match(
        n in 5_000usize..30_000,
        seed in any::<u64>(),
        cull in any::<u64>(),
        from_depth in 0u32..6,
    ) {
        let (graph, root) = random_scene(n, seed, 0);
        check_update(&graph, root, cull, from_depth);
        check_world_only(&graph, root, cull, from_depth);
        check_user(&graph, root, cull, from_depth);
        // Without culling near the root the run always splits.
        prop_assert!(check_user(&graph, root, cull, 6) > 0);
    }
}

/// A scene moved into depth-first slot order (`Graph::compact`): each subtree is a
/// contiguous slot range, so the forks' tables are copied at once on every thread.
fn compacted(mut graph: Graph, root: NodeId) -> (Graph, NodeId) {
    let remap = graph.compact().unwrap();
    let root = remap.get(root).unwrap();
    assert!(graph.is_compact());
    (graph, root)
}

#[test]
fn a_compacted_scene_matches_with_its_tables_copied_at_once() {
    let (graph, root) = random_scene(40_000, 11, 60);
    let (graph, root) = compacted(graph, root);
    check_update(&graph, root, 0, u32::MAX);
    check_update(&graph, root, 5, 0);
    check_update(&graph, root, 9, 4);
    check_world_only(&graph, root, 5, 3);
    assert!(check_user(&graph, root, 1, 6) > 10);
    let (graph, root) = chain_with_bush(2000, 30_000, 8);
    let (graph, root) = compacted(graph, root);
    check_update(&graph, root, 3, 2002);
    check_update(&graph, root, 3, 0);
}

/// Edits after a compaction scatter subtrees again (moved subtrees, new nodes at the
/// arena's end, freed slots reused): the copies keep the merge order and the results
/// stay the sequential run's.
#[test]
fn edits_after_a_compaction_fall_back_to_the_merge_order() {
    let (graph, root) = random_scene(30_000, 13, 0);
    let (mut graph, root) = compacted(graph, root);
    let order: Vec<NodeId> = graph.children(root).unwrap().collect();
    let mut ids = vec![root];
    let mut node = root.index();
    while let Some(next) = graph.next_preorder_at(node, root.index()) {
        ids.push(graph.id_at(next).unwrap());
        node = next;
    }
    let mut rng = 0x5eed_u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for k in 0..300 {
        let node = ids[1 + (next() % (ids.len() as u64 - 1)) as usize];
        let target = ids[(next() % ids.len() as u64) as usize];
        match k % 3 {
            // A move fails when it would make a cycle: then nothing changes.
            0 => drop(graph.set_parent(node, Some(target), None)),
            1 => drop(graph.remove(node)),
            _ => {
                if let Ok(child) = graph.append_child(target, Transform::from_translation(Vec3::X))
                {
                    ids.push(child);
                }
            }
        }
    }
    assert!(!graph.is_compact());
    assert!(order.len() > 1);
    check_update(&graph, root, 0, u32::MAX);
    check_update(&graph, root, 7, 2);
    check_world_only(&graph, root, 7, 2);
}

#[test]
fn stop_ends_every_worker_and_is_reported() {
    let (graph, root) = random_scene(50_000, 21, 0);
    check_stops(&graph, root);
    let (graph, root) = compacted(graph, root);
    check_stops(&graph, root);
}

/// Stops at several places with 1, 2 and 4 threads: what was entered has the
/// sequential run's results, and the next run is complete.
fn check_stops(graph: &Graph, root: NodeId) {
    let order: Vec<NodeIndex> = {
        let mut order = vec![root.index()];
        while let Some(next) = graph.next_preorder_at(*order.last().unwrap(), root.index()) {
            order.push(next);
        }
        order
    };
    let mut seq = Action::new(DepthFirst::new(), update_chain(0, u32::MAX)).unwrap();
    let full = seq.run(graph, root).unwrap();
    let expect = update_outcome(graph, &seq, &full);
    for (at, threads) in [(100, 2), (25_000, 2), (49_999, 4), (0, 1)] {
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Static::new(StopAt(order[at], AtomicU64::new(0))),
                Ordered::new(WorldTransforms::new()),
                Ordered::new(Bounds::new()),
                Ordered::new(PathLog::default()),
            ),
        )
        .unwrap();
        let stats = pool(threads).install(|| action.run_parallel(graph, root).unwrap());
        assert!(stats.stopped, "stop at {at}");
        assert_eq!(
            stats.entered,
            action.actor::<StopAt>().unwrap().1.load(Ordering::Relaxed)
        );
        assert!(stats.entered <= order.len() as u64);
        if at == 0 {
            assert_eq!(stats.entered, 1);
        }
        // What was entered before the stop has the sequential run's world matrix.
        let world = action.actor::<WorldTransforms>().unwrap();
        let reached: Vec<_> = order
            .iter()
            .filter(|&&n| world.table().at(n).is_some())
            .collect();
        assert_eq!(reached.is_empty(), at == 0);
        for &&n in &reached {
            assert_eq!(bits(world.table().at(n)), expect.world[n.get()]);
        }
        // The next run starts clean and is complete.
        action.actor_mut::<StopAt>().unwrap().0 = NodeIndex::new(u32::MAX - 1);
        let stats = pool(threads).install(|| action.run_parallel(graph, root).unwrap());
        assert!(!stats.stopped);
        assert_eq!(stats.entered, order.len() as u64);
        let world = action.actor::<WorldTransforms>().unwrap();
        let bounds = action.actor::<Bounds>().unwrap();
        for &n in &order {
            assert_eq!(bits(world.table().at(n)), expect.world[n.get()]);
            assert_eq!(box_bits(bounds.table().at(n)), expect.boxes[n.get()]);
        }
    }
}

#[test]
fn an_ordered_actor_without_a_hook_is_named() {
    let (graph, root) = random_scene(10_000, 1, 0);
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(NoHookOrdered::default()),
        ),
    )
    .unwrap();
    let err = action.run_parallel(&graph, root).unwrap_err();
    let TraversalError::Incompatible(ActionError::Incompatible { actor, reason, .. }) = err else {
        panic!("unexpected {err:?}");
    };
    assert!(actor.ends_with("NoHookOrdered"), "{actor}");
    assert!(
        reason.contains("ordered state") && reason.contains("fork/merge hook"),
        "{reason}"
    );
    assert!(action.check_parallel().is_err());
    // Nothing ran, and the sequential run still works.
    assert_eq!(action.actor::<NoHookOrdered>().unwrap().0, 0);
    assert_eq!(action.run(&graph, root).unwrap().entered, 10_000);
}
