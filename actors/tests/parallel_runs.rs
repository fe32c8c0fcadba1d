//! The update pass run in parallel again and again on one action, against the
//! sequential run each time: wide nodes whose small children are handed off in runs
//! of siblings, and forks that start from the previous run's windows while what the
//! run reaches (culling) and the structure (edits) change between runs.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, NodeIndex, Ordered, Static, Unordered};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Geometry, Group, Transform};

mod flows;
use flows::{Cull, pool};

type Update = (
    Static<Cull>,
    Ordered<WorldTransforms>,
    Unordered<Statistics>,
    Ordered<Bounds>,
);

fn update(seed: u64, from_depth: u32) -> Action<DepthFirst, Update> {
    let chain = (
        Static::new(Cull { seed, from_depth }),
        Ordered::new(WorldTransforms::new()),
        Unordered::new(Statistics::new()),
        Ordered::new(Bounds::new()),
    );
    Action::new(DepthFirst::new(), chain).unwrap()
}

fn set_cull(action: &mut Action<DepthFirst, Update>, seed: u64, from_depth: u32) {
    *action.actor_mut::<Cull>().unwrap() = Cull { seed, from_depth };
}

/// Per slot, the bits of the world matrix and box (NaN equals NaN), then the
/// counts: what must not depend on how the run was split.
type Outcome = (
    Vec<Option<([u32; 12], [u32; 6])>>,
    (u64, u64, u64),
    Vec<u64>,
);

fn outcome(graph: &Graph, action: &Action<DepthFirst, Update>) -> Outcome {
    let world = action.actor::<WorldTransforms>().unwrap();
    let bounds = action.actor::<Bounds>().unwrap();
    let stats = action.actor::<Statistics>().unwrap();
    let per_slot = (0..graph.capacity() as u32)
        .map(NodeIndex::new)
        .map(|n| {
            let w = world
                .table()
                .at(n)
                .map(|m: Affine3A| m.to_cols_array().map(f32::to_bits));
            let b = bounds.table().at(n).map(|b: Aabb| {
                let [x, y, z] = b.min.to_array();
                let [u, v, w] = b.max.to_array();
                [x, y, z, u, v, w].map(f32::to_bits)
            });
            match (w, b) {
                (Some(w), Some(b)) => Some((w, b)),
                (None, None) => None,
                other => panic!("world and box disagree on reaching {n:?}: {other:?}"),
            }
        })
        .collect();
    let s = action.stats();
    (
        per_slot,
        (s.entered, s.left, s.pruned),
        stats.depth_histogram().to_vec(),
    )
}

/// A small pseudo-random stream.
fn stream(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }
}

/// A root with `wide` small children (a transform over a few geometry leaves and
/// groups each), one of them itself with `wide` small children, plus one big
/// subtree: built depth-first, so each subtree is a contiguous slot range (edits
/// between runs then scatter some).
fn wide_scene(wide: usize, seed: u64) -> (Graph, NodeId) {
    let mut next = stream(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let small = |graph: &mut Graph, parent: NodeId, next: &mut dyn FnMut() -> u64| {
        let t = Vec3::new((next() % 100) as f32, 1.0, -((next() % 50) as f32));
        let top = graph
            .append_child(parent, Transform::from_translation(t))
            .unwrap();
        for _ in 0..next() % 6 {
            let a = Vec3::splat((next() % 10) as f32);
            let leaf = if next().is_multiple_of(3) {
                graph.append_child(top, Group).unwrap()
            } else {
                let b = Geometry::new(Aabb::new(a, a + Vec3::ONE));
                graph.append_child(top, b).unwrap()
            };
            if next().is_multiple_of(4) {
                graph.append_child(leaf, Group).unwrap();
            }
        }
        top
    };
    for i in 0..wide {
        let child = small(&mut graph, root, &mut next);
        if i == wide / 3 {
            for _ in 0..wide {
                small(&mut graph, child, &mut next);
            }
        }
    }
    let big = graph.append_child(root, Group).unwrap();
    let mut path = vec![big];
    for _ in 0..3 * wide {
        // A random walk: each node under the current one or one of its two nearest
        // ancestors, so the big subtree too is added in depth-first order.
        for _ in 0..next() % 3 {
            if path.len() > 1 {
                path.pop();
            }
        }
        let parent = path[path.len() - 1];
        let a = Vec3::splat((next() % 7) as f32);
        let id = match next() % 3 {
            0 => graph
                .append_child(parent, Transform::from_translation(a))
                .unwrap(),
            1 => graph
                .append_child(parent, Geometry::new(Aabb::new(a, a + 2.0)))
                .unwrap(),
            _ => graph.append_child(parent, Group).unwrap(),
        };
        path.push(id);
    }
    (graph, root)
}

/// Runs the sequential and the parallel action side by side `rounds` times, with a
/// new cull each round, and every other round an edit of the structure; compares.
fn check_rounds(graph: &mut Graph, root: NodeId, threads: usize, rounds: u64, seed: u64) {
    let mut next = stream(seed ^ 0xA5A5);
    let (mut seq, mut par) = (update(0, 0), update(0, 0));
    let pool = pool(threads);
    for round in 0..rounds {
        // No cull in the first round; then culls that reach some nodes the last
        // round reached and not others, above and below the split points.
        let cull = (
            if round == 0 { u64::MAX } else { next() },
            (next() % 4) as u32,
        );
        let from_depth = if round == 0 { u32::MAX } else { cull.1 };
        set_cull(&mut seq, cull.0, from_depth);
        set_cull(&mut par, cull.0, from_depth);
        seq.run(graph, root).unwrap();
        pool.install(|| par.run_parallel(graph, root)).unwrap();
        assert!(
            outcome(graph, &seq) == outcome(graph, &par),
            "round {round}, {threads} threads, cull {cull:?}"
        );
        if round % 2 == 1 {
            // Move a few subtrees, add some nodes at the arena's end.
            let n = graph.capacity() as u64;
            for _ in 0..5 {
                let a = graph.id_at(NodeIndex::new((next() % n) as u32));
                let b = graph.id_at(NodeIndex::new((next() % n) as u32));
                if let (Some(a), Some(b)) = (a, b)
                    && a != root
                {
                    drop(graph.set_parent(a, Some(b), None));
                    drop(graph.append_child(b, Group));
                }
            }
        }
    }
}

#[test]
fn wide_nodes_and_repeated_runs_match_the_sequential_run() {
    let (mut graph, root) = wide_scene(3000, 5);
    for threads in [2, 4] {
        check_rounds(&mut graph, root, threads, 6, threads as u64);
    }
}

#[test]
fn a_compacted_wide_scene_matches_run_after_run() {
    let (mut graph, root) = wide_scene(2000, 9);
    let root = graph.compact().unwrap().get(root).unwrap();
    check_rounds(&mut graph, root, 2, 4, 1);
}

/// The same actions run unchanged: every run equals the first (forks start from the
/// previous run's windows, written anew).
#[test]
fn unchanged_runs_repeat_exactly() {
    let (graph, root) = wide_scene(2500, 3);
    let mut seq = update(11, 2);
    let mut par = update(11, 2);
    seq.run(&graph, root).unwrap();
    let expect = outcome(&graph, &seq);
    for _ in 0..4 {
        pool(2).install(|| par.run_parallel(&graph, root)).unwrap();
        assert!(outcome(&graph, &par) == expect);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn random_wide_scenes_match_run_after_run(
        wide in 600usize..2500,
        seed in any::<u64>(),
        compact in any::<bool>(),
    ) {
        let (mut graph, mut root) = wide_scene(wide, seed);
        if compact {
            root = graph.compact().unwrap().get(root).unwrap();
        }
        check_rounds(&mut graph, root, 2, 4, seed);
    }
}
