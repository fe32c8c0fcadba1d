//! The counts of a run do not depend on the iterator: for the same scene and the same
//! actors, `RunStats`, `Statistics` and `FrustumCull`'s counts are the same under every
//! order the compatibility table allows, and equal an independent computation.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod common;

use common::{brute_force_entered, build, camera, tree, update};
use proptest::prelude::*;
use scenewalk_actors::{BoundsTable, FrustumCull, Statistics};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{
    Action, Actor, ActorChain, Graph, NodeId, Ordered, Results, RunStats, Static,
    TraversalIterator, Unordered,
};
use scenewalk_iterators::{BreadthFirst, DepthFirst, Flattened, PriorityQueue, SwitchRule};
use scenewalk_nodes::{Containment, Frustum, PlaneMask};

/// What one run counted, with the counts that describe the iterator's shape rather
/// than the run (batches, chain calls) left out.
#[derive(Debug, PartialEq)]
struct Counts {
    stats: RunStats,
    nodes: u64,
    leaves: u64,
    depths: Vec<u64>,
    types: Vec<(&'static str, u64)>,
    tested: u64,
    culled: u64,
}

fn counts<C: ActorChain>(action: &Action<impl TraversalIterator, C>, stats: RunStats) -> Counts {
    let statistics = action.actor::<Statistics>().unwrap();
    let cull = action.actor::<FrustumCull>().unwrap();
    Counts {
        stats: RunStats {
            batches: 0,
            chain_calls: 0,
            ..stats
        },
        nodes: statistics.nodes(),
        leaves: statistics.leaves(),
        depths: statistics.depth_histogram().to_vec(),
        types: statistics.counts_by_type(),
        tested: cull.tested(),
        culled: cull.culled(),
    }
}

/// Runs `(cull, Statistics)` under `iterator`, twice (the second run must count the
/// same: nothing carries over), and in parallel.
fn run<A: Actor>(
    iterator: impl TraversalIterator,
    cull: A,
    graph: &Graph,
    root: NodeId,
    results: &Results,
) -> Counts {
    let mut action = Action::new(iterator, (cull, Unordered::new(Statistics::new()))).unwrap();
    let first = action.run_with(graph, root, results).unwrap();
    let first = counts(&action, first);
    let again = action.run_with(graph, root, results).unwrap();
    assert_eq!(
        counts(&action, again),
        first,
        "a second run counts the same"
    );
    first
}

/// Runs `(cull, Statistics)` with `Action::run_parallel`.
#[cfg(feature = "parallel")]
fn parallel<A>(cull: A, graph: &Graph, root: NodeId, results: &Results) -> Counts
where
    (A, Unordered<Statistics>): scenewalk_core::ParallelChain,
{
    let mut action =
        Action::new(DepthFirst::new(), (cull, Unordered::new(Statistics::new()))).unwrap();
    let stats = action.run_parallel_with(graph, root, results).unwrap();
    counts(&action, stats)
}

/// Every order the table allows, for the static cull and for the ordered one: each
/// must count what depth-first counts with the same actors. The two culls enter and
/// cull the same nodes; they differ in their state copies, and in the boxes tested
/// where rounding leaves a box inside a plane for its parent's mask but not for its
/// own classification.
fn every_order(graph: &Graph, root: NodeId, frustum: Frustum, results: &Results) -> Counts {
    let cull = || FrustumCull::new(frustum);
    let hybrid = || PriorityQueue::hybrid(SwitchRule::AtDepth(2));
    let batched = || BreadthFirst::new().with_max_batch(3);
    let want = run(DepthFirst::new(), Static::new(cull()), graph, root, results);
    let statics = [
        (
            "PQ",
            run(
                PriorityQueue::new(),
                Static::new(cull()),
                graph,
                root,
                results,
            ),
        ),
        (
            "HY",
            run(hybrid(), Static::new(cull()), graph, root, results),
        ),
        (
            "BF",
            run(
                BreadthFirst::new(),
                Static::new(cull()),
                graph,
                root,
                results,
            ),
        ),
        (
            "BF, batches of 3",
            run(batched(), Static::new(cull()), graph, root, results),
        ),
        (
            "FL",
            run(Flattened::new(), Static::new(cull()), graph, root, results),
        ),
    ];
    for (name, got) in statics {
        assert_eq!(got, want, "{name} against DF");
    }
    #[cfg(feature = "parallel")]
    assert_eq!(
        parallel(Static::new(cull()), graph, root, results),
        want,
        "PAR against DF"
    );
    let want_ordered = run(
        DepthFirst::new(),
        Ordered::new(cull()),
        graph,
        root,
        results,
    );
    let ordered = [
        (
            "PQ",
            run(
                PriorityQueue::new(),
                Ordered::new(cull()),
                graph,
                root,
                results,
            ),
        ),
        (
            "HY",
            run(hybrid(), Ordered::new(cull()), graph, root, results),
        ),
        (
            "FL",
            run(Flattened::new(), Ordered::new(cull()), graph, root, results),
        ),
    ];
    for (name, got) in ordered {
        assert_eq!(got, want_ordered, "{name} against DF, ordered cull");
    }
    #[cfg(feature = "parallel")]
    assert_eq!(
        parallel(Ordered::new(cull()), graph, root, results),
        want_ordered,
        "PAR against DF, ordered cull"
    );
    let copies = RunStats {
        state_copies: 0,
        ..want_ordered.stats
    };
    assert_eq!(
        Counts {
            stats: copies,
            tested: want.tested,
            ..want_ordered
        },
        want,
        "ordered against static"
    );
    want
}

/// What the counts must be, from the per-node test of `brute_force_entered`.
fn check_against_brute_force(
    counts: &Counts,
    graph: &Graph,
    root: NodeId,
    frustum: &Frustum,
    bounds: &BoundsTable,
) {
    let entered = brute_force_entered(graph, root, frustum, bounds);
    let outside = |n: NodeId| {
        bounds
            .at(n.index())
            .is_some_and(|b| frustum.classify(&b, PlaneMask::ALL) == Containment::Outside)
    };
    let root_outside = outside(root);
    // The cull drops each child of an entered node that lies outside, or the root.
    let dropped = entered
        .iter()
        .filter(|_| !root_outside)
        .flat_map(|&n| graph.children(graph.id_at(n).unwrap()).unwrap())
        .filter(|&c| outside(c))
        .count() as u64;
    assert_eq!(counts.stats.entered, entered.len() as u64);
    assert_eq!(counts.nodes, entered.len() as u64);
    assert_eq!(counts.stats.pruned, u64::from(root_outside));
    assert_eq!(counts.culled, dropped + u64::from(root_outside));
    assert!(!counts.stats.stopped);
    assert_eq!(counts.stats.left, 0, "no actor takes leave events");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn counts_agree_under_every_order((spec, (camera, placed)) in (tree(), camera())) {
        let (graph, ids) = build(&spec);
        let root = ids[0];
        let (_, bounds, results) = update(&graph, root);
        // The camera as placed, and turned around (which often leaves the root outside).
        let turned = placed * Affine3A::from_quat(Quat::from_rotation_y(std::f32::consts::PI));
        for placed in [placed, turned] {
            let frustum = camera.frustum(&placed);
            let counts = every_order(&graph, root, frustum, &results);
            check_against_brute_force(&counts, &graph, root, &frustum, &bounds);
        }
    }
}

#[test]
fn a_root_outside_the_frustum_is_culled_under_every_order() {
    use scenewalk_core::Aabb;
    use scenewalk_nodes::{Camera, Geometry, Transform};
    let mut graph = Graph::new();
    // A transform root far behind the camera, with two boxes under it.
    let root = graph.add_root(Transform::from_trs(
        Vec3::new(0.0, 0.0, 50.0),
        Quat::IDENTITY,
        Vec3::ONE,
    ));
    let unit = Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE));
    graph.append_child(root, unit).unwrap();
    graph.append_child(root, unit).unwrap();
    let (_, bounds, results) = update(&graph, root);
    let frustum = Camera::perspective(1.0, 1.0, 0.1, 100.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY);
    let counts = every_order(&graph, root, frustum, &results);
    assert_eq!(
        (
            counts.stats.entered,
            counts.stats.pruned,
            counts.culled,
            counts.nodes
        ),
        (1, 1, 1, 1)
    );
    check_against_brute_force(&counts, &graph, root, &frustum, &bounds);
}
