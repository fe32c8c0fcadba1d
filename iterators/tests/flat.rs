//! `Flattened` against the graph, the `DepthFirst` action and the `WorldTransforms`
//! actor, on seeded random trees.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::WorldTransforms;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    Action, ActiveList, Events, Flow, Graph, GraphError, NodeId, NodeIndex, Ordered, Unordered,
    UnorderedActor, Visit,
};
use scenewalk_iterators::{DepthFirst, Flattened, Walk};
use scenewalk_nodes::{Group, Transform};

mod common;
use common::{Rng, random_graph};

/// Enter / leave trace, with a deterministic culling rule when `cull` is set.
#[derive(Default)]
struct Trace {
    events: Vec<(bool, NodeIndex, u32)>,
    cull: bool,
}

fn hash(node: NodeIndex) -> u64 {
    (node.raw() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40
}

impl UnorderedActor for Trace {
    const EVENTS: Events = Events::EnterLeave;

    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.events.push((true, visit.node(), visit.depth()));
        if !self.cull {
            return Flow::Continue;
        }
        if hash(visit.node()).is_multiple_of(9) {
            return Flow::Prune;
        }
        if hash(visit.node()).is_multiple_of(11) {
            active.deactivate_all(); // without building the list
            return Flow::Continue;
        }
        active.retain(|child| !hash(child).is_multiple_of(5));
        Flow::Continue
    }

    fn leave(&mut self, visit: &Visit<'_>) {
        self.events.push((false, visit.node(), visit.depth()));
    }
}

/// The pre-order of `root`'s subtree by the graph's own stackless step.
fn preorder(graph: &Graph, root: NodeId) -> Vec<NodeIndex> {
    let mut out = vec![root];
    while let Some(next) = graph.next_preorder(*out.last().unwrap(), root).unwrap() {
        out.push(next);
    }
    out.into_iter().map(NodeId::index).collect()
}

fn trace(
    graph: &Graph,
    root: NodeId,
    iterator: impl scenewalk_core::TraversalIterator,
    cull: bool,
) -> Vec<(bool, NodeIndex, u32)> {
    let trace = Trace {
        events: Vec::new(),
        cull,
    };
    let mut action = Action::new(iterator, (Unordered::new(trace),)).unwrap();
    action.run(graph, root).unwrap();
    action.actor::<Trace>().unwrap().events.clone()
}

#[test]
fn arrays_describe_the_subtree() {
    for seed in 0..40 {
        let (graph, root, ids) = random_graph(1 + seed as usize * 7, seed);
        // The whole tree and a random inner subtree.
        let inner = ids[Rng(seed ^ 0xABCD).below(ids.len())];
        for top in [root, inner] {
            let mut flat = Flattened::new();
            flat.rebuild(&graph, top).unwrap();
            let order = preorder(&graph, top);
            assert_eq!(flat.nodes(), order, "seed {seed}");
            assert_eq!(flat.iter().collect::<Vec<_>>(), order);
            assert_eq!(flat.len(), order.len());
            assert_eq!(flat.parents()[0], Flattened::NIL);
            assert_eq!(flat.depths()[0], 0);
            assert_eq!(flat.sizes()[0] as usize, flat.len());
            let top_depth = graph.depth(top).unwrap() as u32;
            for (i, &node) in flat.nodes().iter().enumerate() {
                let id = graph.id_at(node).unwrap();
                assert_eq!(
                    flat.depths()[i] + top_depth,
                    graph.depth(id).unwrap() as u32
                );
                assert_eq!(flat.sizes()[i] as usize, preorder(&graph, id).len());
                if i > 0 {
                    let parent = flat.parent(i).unwrap();
                    assert!(parent < i);
                    assert_eq!(Some(flat.nodes()[parent]), graph.parent_at(node));
                }
                let children: Vec<_> = flat.children(i).map(|c| flat.nodes()[c]).collect();
                let expected: Vec<_> = graph.children(id).unwrap().map(NodeId::index).collect();
                assert_eq!(children, expected);
            }
        }
    }
}

#[test]
fn preorder_equals_depth_first_action() {
    for seed in 0..30 {
        let (graph, root, _) = random_graph(200, seed);
        let mut flat = Flattened::new();
        flat.rebuild(&graph, root).unwrap();
        let entered: Vec<_> = trace(&graph, root, DepthFirst::new(), false)
            .into_iter()
            .filter(|e| e.0)
            .map(|e| e.1)
            .collect();
        assert_eq!(flat.nodes(), entered);
    }
}

#[test]
fn as_iterator_matches_depth_first_with_culling() {
    for seed in 0..30 {
        let (graph, root, ids) = random_graph(300, seed + 100);
        let inner = ids[Rng(seed).below(ids.len())];
        for top in [root, inner] {
            for cull in [false, true] {
                let expected = trace(&graph, top, DepthFirst::new(), cull);
                let got = trace(&graph, top, Flattened::new(), cull);
                assert_eq!(got, expected, "seed {seed} cull {cull}");
            }
        }
    }
}

#[test]
fn action_reuses_the_flattening_until_an_edit() {
    let (mut graph, root, ids) = random_graph(100, 5);
    let mut action = Action::new(Flattened::new(), (Unordered::new(Trace::default()),)).unwrap();
    let first = action.run(&graph, root).unwrap();
    action.run(&graph, root).unwrap();
    assert_eq!(action.iterator().rebuilds(), 1);
    assert_eq!(first.entered, 100);
    graph.append_child(ids[3], Group).unwrap();
    let after = action.run(&graph, root).unwrap();
    assert_eq!(action.iterator().rebuilds(), 2);
    assert_eq!(after.entered, 101);
    // Another root rebuilds too.
    action.run(&graph, ids[3]).unwrap();
    assert_eq!(action.iterator().rebuilds(), 3);
    assert_eq!(action.iterator().root(), Some(ids[3]));
}

#[test]
fn stop_ends_the_run_and_the_next_run_is_whole() {
    struct StopAt(NodeIndex, u64);
    impl UnorderedActor for StopAt {
        fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
            self.1 += 1;
            if visit.node() == self.0 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        }
    }
    let (graph, root, _) = random_graph(50, 9);
    let order = preorder(&graph, root);
    let mut action =
        Action::new(Flattened::new(), (Unordered::new(StopAt(order[10], 0)),)).unwrap();
    let stats = action.run(&graph, root).unwrap();
    assert!(stats.stopped);
    assert_eq!(stats.entered, 11);
    // A node outside the subtree never stops it: the next run is whole.
    let outside = graph.roots().find(|&r| r != root).unwrap();
    action.actor_mut::<StopAt>().unwrap().0 = outside.index();
    let stats = action.run(&graph, root).unwrap();
    assert!(!stats.stopped);
    assert_eq!(stats.entered, 50);
}

/// World transforms by the flattened pass: gather locals, propagate.
fn flat_world(graph: &Graph, flat: &Flattened) -> Vec<Affine3A> {
    let locals = flat.gather(|n| {
        graph
            .get_at::<Transform>(n)
            .map_or(Affine3A::IDENTITY, |t| *t.local())
    });
    let mut world = Vec::new();
    flat.propagate(Affine3A::IDENTITY, &locals, &mut world, |p, l| *p * *l)
        .unwrap();
    world
}

fn close(a: &Affine3A, b: &Affine3A) -> bool {
    let (a, b) = (a.to_cols_array(), b.to_cols_array());
    a.iter()
        .zip(&b)
        .all(|(x, y)| (x - y).abs() <= 1e-4 * x.abs().max(y.abs()).max(1.0))
}

#[test]
fn propagate_equals_world_transforms_actor() {
    for seed in 0..30 {
        let (graph, root, _) = random_graph(400, seed + 1_000);
        let mut flat = Flattened::new();
        flat.rebuild(&graph, root).unwrap();
        let world = flat_world(&graph, &flat);
        let mut action =
            Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
        action.run(&graph, root).unwrap();
        let actor = action.actor::<WorldTransforms>().unwrap();
        // The same actor with the flattening as the action's iterator.
        let mut over_flat =
            Action::new(Flattened::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
        over_flat.run(&graph, root).unwrap();
        let flat_actor = over_flat.actor::<WorldTransforms>().unwrap();
        let mut transforms = 0;
        for (i, &node) in flat.nodes().iter().enumerate() {
            let expected = actor.table().at(node).unwrap();
            assert!(close(&world[i], &expected), "seed {seed} position {i}");
            assert_eq!(flat_actor.table().at(node), Some(expected));
            transforms += graph.get_at::<Transform>(node).is_some() as usize;
        }
        assert!(transforms > 100, "the trees hold transforms");
    }
}

#[test]
fn propagate_runs_any_combination() {
    let (graph, root, _) = random_graph(300, 77);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    // Depth by propagation: 1 per node, root value -1.
    let ones = vec![1i64; flat.len()];
    let mut depth = Vec::new();
    flat.propagate(-1, &ones, &mut depth, |p, l| p + l).unwrap();
    let expected: Vec<i64> = flat.depths().iter().map(|&d| i64::from(d)).collect();
    assert_eq!(depth, expected);
    // Empty flattening: nothing to do.
    let mut out = vec![5];
    Flattened::new()
        .propagate(0, &[], &mut out, |p, l| p + l)
        .unwrap();
    assert!(out.is_empty());
    let mut into = Vec::new();
    flat.gather_into(&mut into, |n| n.get());
    assert_eq!(into, flat.gather(|n| n.get()));
}

#[test]
fn propagate_checks_the_locals_length() {
    let (graph, root, _) = random_graph(10, 1);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    let mut out = vec![7];
    let err = flat
        .propagate(0, &[1, 2], &mut out, |p, l| p + l)
        .unwrap_err();
    assert_eq!((err.positions, err.locals), (flat.len(), 2));
    assert!(out.is_empty());
}

#[test]
fn rebuilt_after_an_edit_and_not_before() {
    let (mut graph, root, ids) = random_graph(60, 3);
    let mut flat = Flattened::new();
    assert!(!flat.is_current(&graph));
    assert!(flat.refresh(&graph, root).unwrap());
    assert!(flat.is_current(&graph));
    assert!(!flat.refresh(&graph, root).unwrap());
    assert!(!flat.refresh(&graph, root).unwrap());
    assert_eq!(flat.rebuilds(), 1);
    assert_eq!(flat.built_revision(), Some(graph.revision()));

    // Payload edits keep the structure: still current, and gather sees the new value.
    let moved = ids
        .iter()
        .copied()
        .find(|&id| graph.get::<Transform>(id).is_ok())
        .unwrap();
    graph
        .get_mut::<Transform>(moved)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::splat(42.0)));
    assert!(flat.is_current(&graph));
    assert!(!flat.refresh(&graph, root).unwrap());
    let locals = flat.gather(|n| graph.get_at::<Transform>(n).map(|t| *t.local()));
    let at = flat
        .nodes()
        .iter()
        .position(|&n| n == moved.index())
        .unwrap();
    assert_eq!(
        locals[at].unwrap(),
        Affine3A::from_translation(Vec3::splat(42.0))
    );

    // A structural edit: stale until refreshed, then rebuilt once.
    let added = graph.append_child(ids[7], Group).unwrap();
    assert!(!flat.is_current(&graph));
    assert!(flat.refresh(&graph, root).unwrap());
    assert!(!flat.refresh(&graph, root).unwrap());
    assert_eq!(flat.rebuilds(), 2);
    assert_eq!(flat.len(), 61);
    assert!(flat.nodes().contains(&added.index()));
    assert_eq!(flat.nodes(), preorder(&graph, root));

    // Other edits: remove, move, make a root.
    graph.remove(added).unwrap();
    assert!(flat.refresh(&graph, root).unwrap());
    assert_eq!(flat.len(), 60);
    graph.set_parent(ids[5], None, None).unwrap();
    assert!(flat.refresh(&graph, root).unwrap());
    assert_eq!(flat.nodes(), preorder(&graph, root));

    // Another root rebuilds even without an edit.
    assert!(flat.refresh(&graph, ids[5]).unwrap());
    assert_eq!(flat.root(), Some(ids[5]));
    assert!(!flat.refresh(&graph, ids[5]).unwrap());
    assert_eq!(flat.rebuilds(), 5);
}

#[test]
fn a_clone_of_the_graph_is_another_graph() {
    let (graph, root, _) = random_graph(40, 9);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    let copy = graph.clone();
    assert_eq!(copy.revision(), graph.revision());
    assert!(!flat.is_current(&copy), "same revision, but another graph");
    assert!(flat.refresh(&copy, root).unwrap());
    assert!(flat.is_current(&copy) && !flat.is_current(&graph));
}

#[test]
fn stale_roots_are_errors() {
    let (mut graph, root, ids) = random_graph(20, 4);
    let gone = ids[4];
    graph.remove(gone).unwrap();
    assert_eq!(
        Flattened::new().rebuild(&graph, gone).unwrap_err(),
        GraphError::StaleNode(gone)
    );
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    assert!(flat.refresh(&graph, gone).is_err());
    assert!(flat.is_empty() && !flat.is_current(&graph) && flat.root().is_none());
    // The slot is reused by a new node: the old id stays stale.
    let reused = graph.add_root(Group);
    assert_eq!(reused.index(), gone.index());
    assert!(flat.refresh(&graph, gone).is_err());
    assert!(flat.refresh(&graph, reused).unwrap());
    assert_eq!(flat.len(), 1);
}

#[test]
fn flat_iter_skips_subtrees() {
    let (graph, root, _) = random_graph(150, 21);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    // Skip every subtree whose node hashes to 0 mod 4; compare with the walker.
    let mut by_flat = Vec::new();
    let mut iter = flat.iter();
    assert_eq!(iter.len(), 150);
    while let Some(node) = iter.next() {
        by_flat.push(node);
        assert_eq!(flat.nodes()[iter.position().unwrap()], node);
        if hash(node).is_multiple_of(4) {
            iter.skip_subtree();
        }
    }
    let mut by_walk = Vec::new();
    let mut walk = graph.preorder(root).unwrap();
    while let Some(node) = walk.next() {
        by_walk.push(node);
        if hash(node).is_multiple_of(4) {
            walk.skip_subtree();
        }
    }
    assert_eq!(by_flat, by_walk);
    assert!(by_flat.len() < 150);
    assert_eq!((&flat).into_iter().count(), 150);
}

#[test]
fn million_deep_chain() {
    const N: usize = 1_000_000;
    let mut graph = Graph::with_capacity(N);
    let root = graph.add_root(Group);
    let mut last = root;
    for _ in 1..N {
        last = graph.append_child(last, Group).unwrap();
    }
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    assert_eq!(flat.len(), N);
    assert_eq!(flat.sizes()[0] as usize, N);
    assert_eq!(flat.sizes()[N - 1], 1);
    assert_eq!(flat.depths()[N - 1] as usize, N - 1);
    assert_eq!(flat.nodes()[N - 1], last.index());
    assert_eq!(flat.parents()[N - 1] as usize, N - 2);

    // As the iterator of an action with leave events: a million open positions.
    let mut action = Action::new(flat, (Unordered::new(Trace::default()),)).unwrap();
    let stats = action.run(&graph, root).unwrap();
    assert_eq!((stats.entered, stats.left), (N as u64, N as u64));
    let events = &action.actor::<Trace>().unwrap().events;
    assert_eq!(events[N - 1], (true, last.index(), (N - 1) as u32));
    assert_eq!(events[N], (false, last.index(), (N - 1) as u32));
    assert_eq!(events[2 * N - 1], (false, root.index(), 0));
    assert_eq!(
        action.iterator().rebuilds(),
        1,
        "built once, reused by the run"
    );
}

#[test]
fn positions_out_of_range_are_empty() {
    let (graph, root, _) = random_graph(20, 4);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    assert_eq!(flat.children(usize::MAX).count(), 0);
    assert_eq!(flat.children(flat.len()).count(), 0);
    assert!(flat.subtree(usize::MAX).is_empty());
    assert_eq!(flat.parent(usize::MAX), None);
}
