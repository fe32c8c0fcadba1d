//! The actors under every order: what an ordered actor sees under priority and hybrid
//! orders equals what it sees depth-first; statistics agree under breadth-first batches.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Quat, Vec3};
use scenewalk_core::{
    Aabb, Action, ActiveList, Flow, Graph, NodeId, Ordered, Static, StaticActor, Unordered, Visit,
};
use scenewalk_iterators::{BreadthFirst, DepthFirst, PriorityQueue, SwitchRule};
use scenewalk_nodes::{Geometry, Group, Transform};

/// A small deterministic generator (splitmix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn random_scene(n: usize, seed: u64) -> (Graph, Vec<NodeId>) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let mut ids = vec![graph.add_root(Group)];
    for _ in 1..n {
        let parent = ids[rng.below(ids.len())];
        let id = match rng.below(3) {
            0 => graph.append_child(parent, Group),
            1 => {
                let t = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * 10.0;
                let r = Quat::from_rotation_y(rng.unit() * 6.0);
                graph.append_child(
                    parent,
                    Transform::from_trs(t, r, Vec3::splat(0.5 + rng.unit())),
                )
            }
            _ => {
                let a = Vec3::new(rng.unit(), rng.unit(), rng.unit());
                graph.append_child(parent, Geometry::new(Aabb::new(a, a + Vec3::ONE)))
            }
        };
        ids.push(id.unwrap());
    }
    (graph, ids)
}

/// Gives every child a pseudo-random key, so the priority order differs from document
/// order.
struct Shuffle;
impl StaticActor for Shuffle {
    fn enter(&self, _visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        for i in 0..active.len() {
            let node = active.entries()[i].node().get();
            active.set_key(i, ((node * 7919) % 1013) as f32);
        }
        Flow::Continue
    }
}

fn world_and_bounds<I: scenewalk_core::TraversalIterator>(
    iterator: I,
    graph: &Graph,
    root: NodeId,
) -> (WorldTransforms, Bounds, u64, u64) {
    let mut action = Action::new(
        iterator,
        (
            Static::new(Shuffle),
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    let stats = action.run(graph, root).unwrap();
    assert_eq!(
        action.live_frames(),
        0,
        "every frame is released by the end"
    );
    let (_, (_, world, bounds)) = action.into_parts();
    (
        world.into_inner(),
        bounds.into_inner(),
        stats.entered,
        stats.state_copies,
    )
}

#[test]
fn ordered_state_is_the_same_under_every_order() {
    for seed in 0..20 {
        let (graph, ids) = random_scene(300, seed);
        let (dfs_world, dfs_bounds, dfs_entered, dfs_copies) =
            world_and_bounds(DepthFirst::new(), &graph, ids[0]);
        for iterator in [
            PriorityQueue::new(),
            PriorityQueue::hybrid(SwitchRule::AtDepth(2)),
            PriorityQueue::hybrid(SwitchRule::FrontierAbove(4)),
        ] {
            let (world, bounds, entered, copies) = world_and_bounds(iterator, &graph, ids[0]);
            assert_eq!(entered, dfs_entered);
            assert_eq!(
                copies, dfs_copies,
                "copies follow state changes, not the order"
            );
            for &id in &ids {
                assert_eq!(
                    world.table().world(&graph, id).ok(),
                    dfs_world.table().world(&graph, id).ok(),
                    "seed {seed}"
                );
                assert_eq!(
                    bounds.table().world_bounds(&graph, id).ok(),
                    dfs_bounds.table().world_bounds(&graph, id).ok(),
                    "seed {seed}"
                );
            }
        }
    }
}

#[test]
fn statistics_agree_under_breadth_first_batches() {
    let (graph, ids) = random_scene(500, 7);
    let mut dfs = Action::new(DepthFirst::new(), (Unordered::new(Statistics::new()),)).unwrap();
    dfs.run(&graph, ids[0]).unwrap();
    for max in [usize::MAX, 7, 1] {
        let mut bfs = Action::new(
            BreadthFirst::new().with_max_batch(max),
            (Unordered::new(Statistics::new()),),
        )
        .unwrap();
        let stats = bfs.run(&graph, ids[0]).unwrap();
        let (a, b) = (
            dfs.actor::<Statistics>().unwrap(),
            bfs.actor::<Statistics>().unwrap(),
        );
        assert_eq!(a.nodes(), b.nodes());
        assert_eq!(a.leaves(), b.leaves());
        assert_eq!(a.depth_histogram(), b.depth_histogram());
        assert_eq!(a.counts_by_type(), b.counts_by_type());
        assert_eq!(stats.chain_calls, stats.batches);
        let levels = a.depth_histogram();
        let expected: u64 = levels
            .iter()
            .map(|&n| n.div_ceil(max.min(1 << 40) as u64))
            .sum();
        assert_eq!(stats.batches, expected);
    }
}

#[test]
fn ordered_and_visit_actors_are_refused_by_breadth_first() {
    let err =
        Action::new(BreadthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap_err();
    assert!(err.to_string().contains("WorldTransforms"), "{err}");
    assert!(Action::new(BreadthFirst::new(), (Ordered::new(Bounds::new()),)).is_err());
}

/// Prunes some nodes and deactivates some children, by slot.
struct Cut;
impl StaticActor for Cut {
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        active.retain(|n| n.get() % 5 != 1);
        if visit.node().get() % 7 == 3 {
            Flow::Prune
        } else {
            Flow::Continue
        }
    }
}

/// The box `Bounds` must give a node when `Cut` runs before it: the node's own
/// geometry and the boxes of the children entered (`None` for a node not entered).
fn cut_box(graph: &Graph, world: &WorldTransforms, node: NodeId) -> Aabb {
    let own = graph.get::<Geometry>(node).map_or(Aabb::EMPTY, |g| {
        g.local_bounds()
            .transformed(&world.table().world(graph, node).unwrap())
    });
    if node.index().get() % 7 == 3 {
        return own;
    }
    graph
        .children(node)
        .unwrap()
        .filter(|c| c.index().get() % 5 != 1)
        .fold(own, |b, c| b.union(&cut_box(graph, world, c)))
}

fn cut_bounds<I: scenewalk_core::TraversalIterator>(
    iterator: I,
    graph: &Graph,
    root: NodeId,
    parallel: bool,
) -> (WorldTransforms, Bounds) {
    let chain = (
        Static::new(Cut),
        Ordered::new(WorldTransforms::new()),
        Ordered::new(Bounds::new()),
    );
    let (_, world, bounds) = match parallel {
        // A parallel run is depth-first.
        #[cfg(feature = "parallel")]
        true => {
            let mut action = Action::new(scenewalk_core::DepthFirst::new(), chain).unwrap();
            action.run_parallel(graph, root).unwrap();
            action.into_parts().1
        }
        // `parallel` is only asked for with the feature.
        _ => {
            let mut action = Action::new(iterator, chain).unwrap();
            action.run(graph, root).unwrap();
            action.into_parts().1
        }
    };
    (world.into_inner(), bounds.into_inner())
}

#[test]
fn a_pruned_node_keeps_its_own_box_and_a_deactivated_one_has_none_under_every_order() {
    use scenewalk_iterators::Flattened;
    for (seed, n) in [(1, 300), (2, 300), (3, 6000)] {
        let (mut graph, ids) = random_scene(n, seed);
        // In depth-first slot order, so the parallel run splits (it runs a scattered
        // tree on the calling thread).
        let remap = graph.compact().unwrap();
        let ids: Vec<NodeId> = ids.iter().map(|&id| remap.get(id).unwrap()).collect();
        let root = ids[0];
        #[allow(
            unused_mut,
            reason = "without the `parallel` feature, no PAR run is added"
        )]
        let mut runs = vec![
            ("DF", cut_bounds(DepthFirst::new(), &graph, root, false)),
            ("PQ", cut_bounds(PriorityQueue::new(), &graph, root, false)),
            (
                "HY",
                cut_bounds(
                    PriorityQueue::hybrid(SwitchRule::AtDepth(2)),
                    &graph,
                    root,
                    false,
                ),
            ),
            ("FL", cut_bounds(Flattened::new(), &graph, root, false)),
        ];
        #[cfg(feature = "parallel")]
        runs.push(("PAR", cut_bounds(DepthFirst::new(), &graph, root, true)));
        let (world, _) = &runs[0].1;
        // Entered: the root, and each kept child of an entered node that was not pruned.
        let mut entered = vec![root];
        let mut i = 0;
        while let Some(&node) = entered.get(i) {
            i += 1;
            if node.index().get() % 7 != 3 {
                entered.extend(
                    graph
                        .children(node)
                        .unwrap()
                        .filter(|c| c.index().get() % 5 != 1),
                );
            }
        }
        for (name, (_, bounds)) in &runs {
            for &id in &ids {
                let want = entered.contains(&id).then(|| cut_box(&graph, world, id));
                assert_eq!(
                    bounds.table().world_bounds(&graph, id).ok(),
                    want,
                    "{name}, seed {seed}"
                );
            }
        }
    }
}

/// Stops the run when it enters its `at`-th node (counting from 0).
struct StopAt {
    at: u64,
    seen: u64,
}
impl scenewalk_core::UnorderedActor for StopAt {
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        self.seen += 1;
        if self.seen > self.at {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }
}

#[test]
fn a_stopped_depth_first_run_gives_each_entered_node_its_finished_childrens_boxes() {
    let (graph, ids) = random_scene(400, 4);
    let root = ids[0];
    let (world, ..) = world_and_bounds(DepthFirst::new(), &graph, root);
    // Document order and, per position, the last position of its subtree.
    let order: Vec<NodeId> = {
        let mut order = Vec::new();
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            order.push(node);
            let children: Vec<NodeId> = graph.children(node).unwrap().collect();
            stack.extend(children.into_iter().rev());
        }
        order
    };
    let position = |id: NodeId| order.iter().position(|&n| n == id).unwrap();
    let subtree_end = |id: NodeId| {
        let mut end = position(id);
        let mut stack = vec![id];
        while let Some(node) = stack.pop() {
            end = end.max(position(node));
            stack.extend(graph.children(node).unwrap());
        }
        end
    };
    let own = |id: NodeId| {
        graph.get::<Geometry>(id).map_or(Aabb::EMPTY, |g| {
            g.local_bounds()
                .transformed(&world.table().world(&graph, id).unwrap())
        })
    };
    for stop in [0, 1, 7, 55, 200, 399] {
        let chain = (
            Ordered::new(Bounds::new()),
            Unordered::new(StopAt { at: stop, seen: 0 }),
        );
        let mut action = Action::new(DepthFirst::new(), chain).unwrap();
        action.run(&graph, root).unwrap();
        let bounds = action.actor::<Bounds>().unwrap().table();
        // A node's box: its own, and the boxes of its children left before the stop
        // (a child whose whole subtree came before the stopping node).
        fn want(
            id: NodeId,
            stop: usize,
            graph: &Graph,
            own: &dyn Fn(NodeId) -> Aabb,
            position: &dyn Fn(NodeId) -> usize,
            subtree_end: &dyn Fn(NodeId) -> usize,
        ) -> Aabb {
            graph
                .children(id)
                .unwrap()
                .filter(|&c| position(c) <= stop && subtree_end(c) < stop)
                .fold(own(id), |b, c| {
                    b.union(&want(c, stop, graph, own, position, subtree_end))
                })
        }
        for (i, &id) in order.iter().enumerate() {
            let got = bounds.world_bounds(&graph, id).ok();
            let expected = (i <= stop as usize)
                .then(|| want(id, stop as usize, &graph, &own, &position, &subtree_end));
            assert_eq!(got, expected, "stop at {stop}, node {i}");
        }
    }
}
