//! The walkers and std iterators against the `DepthFirst` action and naive models, on
//! seeded random trees, and with graph edits between steps.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{
    Action, ActiveList, Events, Flow, Graph, GraphError, NodeId, NodeIndex, Unordered,
    UnorderedActor, Visit,
};
use scenewalk_iterators::{DepthFirst, DfsWalker, Event, Flattened, Walk};
use scenewalk_nodes::Group;
use std::collections::BTreeSet;

mod common;
use common::{Rng, random_graph};

#[derive(Default)]
struct Trace(Vec<Event>);

impl UnorderedActor for Trace {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push(Event::Enter(visit.node()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.0.push(Event::Leave(visit.node()));
    }
}

fn action_events(graph: &Graph, root: NodeId) -> Vec<Event> {
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(Trace::default()),)).unwrap();
    action.run(graph, root).unwrap();
    action.actor::<Trace>().unwrap().0.clone()
}

/// The rest of a walk's events.
fn events(mut walker: DfsWalker, graph: &Graph) -> Vec<Event> {
    std::iter::from_fn(|| walker.next(graph)).collect()
}

/// The rest of a walk's nodes in pre-order.
fn pre_order(mut walker: DfsWalker, graph: &Graph) -> Vec<NodeIndex> {
    std::iter::from_fn(|| walker.next_enter(graph)).collect()
}

fn entered(events: &[Event]) -> Vec<NodeIndex> {
    events
        .iter()
        .filter(|e| e.is_enter())
        .map(|e| e.node())
        .collect()
}

/// Each node once, and exactly the nodes of `reference`.
fn same_node_set(order: &[NodeIndex], reference: &[NodeIndex]) {
    let set: BTreeSet<_> = order.iter().collect();
    assert_eq!(set.len(), order.len(), "a node came twice");
    assert_eq!(set, reference.iter().collect::<BTreeSet<_>>());
}

fn keys(seed: u64) -> impl FnMut(NodeIndex) -> f32 {
    // Few distinct values (ties), zeros of both signs, infinities.
    const KEYS: [f32; 8] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        f32::NEG_INFINITY,
        f32::INFINITY,
        -3.0,
    ];
    move |n: NodeIndex| {
        KEYS[((n.raw() as u64 ^ seed).wrapping_mul(0x2545_F491_4F6C_DD1D) >> 61) as usize]
    }
}

#[test]
fn every_order_visits_the_depth_first_node_set() {
    for seed in 0..40 {
        let (graph, root, ids) = random_graph(1 + seed as usize * 9, seed);
        let inner = ids[Rng(!seed).below(ids.len())];
        for top in [root, inner] {
            let reference = entered(&action_events(&graph, top));
            let mut walker = DfsWalker::new(top);
            let mut by_walker = Vec::new();
            while let Some(event) = walker.next(&graph) {
                by_walker.push(event);
            }
            let mut flat = Flattened::new();
            flat.rebuild(&graph, top).unwrap();
            let orders = [
                entered(&graph.depth_first(top).unwrap().collect::<Vec<_>>()),
                entered(&by_walker),
                graph.preorder(top).unwrap().collect(),
                pre_order(DfsWalker::new(top), &graph),
                graph.breadth_first(top).unwrap().map(|(n, _)| n).collect(),
                ok(graph.by_priority(top, keys(seed)).unwrap()),
                ok(graph.by_priority(top, |_| 0.0).unwrap()),
                flat.iter().collect(),
            ];
            for order in &orders {
                same_node_set(order, &reference);
            }
        }
    }
}

#[test]
fn depth_first_events_equal_the_action() {
    for seed in 0..40 {
        let (graph, root, ids) = random_graph(250, seed + 50);
        let inner = ids[Rng(seed).below(ids.len())];
        for top in [root, inner] {
            let expected = action_events(&graph, top);
            assert_eq!(
                graph.depth_first(top).unwrap().collect::<Vec<_>>(),
                expected
            );
            assert_eq!(events(DfsWalker::new(top), &graph), expected);
            assert_eq!(
                graph.preorder(top).unwrap().collect::<Vec<_>>(),
                entered(&expected)
            );
        }
    }
}

#[test]
fn depth_is_tracked() {
    let (graph, root, _) = random_graph(200, 8);
    let mut iter = graph.depth_first(root).unwrap();
    while let Some(event) = iter.next() {
        let id = graph.id_at(event.node()).unwrap();
        assert_eq!(iter.depth() as usize, graph.depth(id).unwrap());
    }
}

#[test]
fn breadth_first_is_level_order() {
    for seed in 0..30 {
        let (graph, root, ids) = random_graph(200, seed + 300);
        let inner = ids[Rng(seed).below(ids.len())];
        for top in [root, inner] {
            let top_depth = graph.depth(top).unwrap();
            // Level order = pre-order sorted (stably) by depth.
            let mut expected: Vec<(NodeIndex, u32)> = graph
                .preorder(top)
                .unwrap()
                .map(|n| {
                    let depth = graph.depth(graph.id_at(n).unwrap()).unwrap() - top_depth;
                    (n, depth as u32)
                })
                .collect();
            expected.sort_by_key(|&(_, depth)| depth);
            assert_eq!(
                graph.breadth_first(top).unwrap().collect::<Vec<_>>(),
                expected
            );
        }
    }
}

/// Every node of a priority walk, which must have no NaN key.
fn ok(
    iter: impl Iterator<Item = Result<NodeIndex, scenewalk_core::TraversalError>>,
) -> Vec<NodeIndex> {
    iter.collect::<Result<_, _>>().unwrap()
}

/// Whether pending `(key, sequence)` `a` goes before `b`: higher keys first (IEEE
/// comparison, so -0 == +0), then the lower sequence number.
fn goes_first(a: (f32, u64), b: (f32, u64)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// The priority order by a naive model: scan every pending node for the best.
fn naive_priority(
    graph: &Graph,
    root: NodeId,
    mut key: impl FnMut(NodeIndex) -> f32,
) -> Vec<NodeIndex> {
    let mut pending = vec![(0.0f32, 0u64, root.index())];
    let mut sequence = 1;
    let mut out = Vec::new();
    while !pending.is_empty() {
        let mut best = 0;
        for (i, p) in pending.iter().enumerate() {
            if goes_first((p.0, p.1), (pending[best].0, pending[best].1)) {
                best = i;
            }
        }
        let (_, _, node) = pending.remove(best);
        out.push(node);
        for child in graph.children(graph.id_at(node).unwrap()).unwrap() {
            pending.push((key(child.index()), sequence, child.index()));
            sequence += 1;
        }
    }
    out
}

#[test]
fn by_priority_honours_keys_and_ties() {
    for seed in 0..40 {
        let (graph, root, _) = random_graph(300, seed + 600);
        let got = ok(graph.by_priority(root, keys(seed)).unwrap());
        assert_eq!(got, naive_priority(&graph, root, keys(seed)), "seed {seed}");
        // Each node comes after its parent.
        let position = |n: NodeIndex| got.iter().position(|&m| m == n).unwrap();
        for &n in &got[1..] {
            assert!(position(graph.parent_at(n).unwrap()) < position(n));
        }
        // All keys equal: insertion order, which is level order.
        let flat = ok(graph.by_priority(root, |_| 1.0).unwrap());
        let levels: Vec<_> = graph.breadth_first(root).unwrap().map(|(n, _)| n).collect();
        assert_eq!(flat, levels);
    }
}

fn star(children: usize) -> (Graph, NodeId, Vec<NodeIndex>) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let kids = (0..children)
        .map(|_| graph.append_child(root, Group).unwrap().index())
        .collect();
    (graph, root, kids)
}

#[test]
fn by_priority_ties_and_signed_zero() {
    let (graph, root, c) = star(5);
    let key = |n: NodeIndex| match c.iter().position(|&k| k == n).unwrap() {
        0 => 0.0,
        1 => f32::NEG_INFINITY,
        2 => -0.0,
        3 => 5.0,
        _ => 0.0,
    };
    let order = ok(graph.by_priority(root, key).unwrap());
    // 5.0; the three zeros in insertion order (-0 == +0); -inf.
    assert_eq!(order, [root.index(), c[3], c[0], c[2], c[4], c[1]]);
}

#[test]
fn by_priority_reports_a_nan_key_and_ends() {
    let (graph, root, c) = star(3);
    let key = |n: NodeIndex| if n == c[1] { f32::NAN } else { 1.0 };
    let mut iter = graph.by_priority(root, key).unwrap();
    assert_eq!(iter.next(), Some(Ok(root.index())));
    let bad = graph.id_at(c[1]).unwrap();
    assert_eq!(
        iter.next(),
        Some(Err(scenewalk_core::TraversalError::NanKey { node: bad }))
    );
    assert_eq!(iter.next(), None);
}

#[test]
fn by_priority_is_best_first_across_levels() {
    // root -> a (1.0) -> a1 (10.0); root -> b (5.0): a1 waits until a is out.
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph.append_child(root, Group).unwrap();
    let a1 = graph.append_child(a, Group).unwrap();
    let b = graph.append_child(root, Group).unwrap();
    let b1 = graph.append_child(b, Group).unwrap();
    let key = |n: NodeIndex| {
        [(a, 1.0), (a1, 10.0), (b, 5.0), (b1, 0.5)]
            .iter()
            .find(|(id, _)| id.index() == n)
            .unwrap()
            .1
    };
    let order = ok(graph.by_priority(root, key).unwrap());
    let ix = |ids: &[NodeId]| ids.iter().map(|id| id.index()).collect::<Vec<_>>();
    assert_eq!(order, ix(&[root, b, a, a1, b1]));
    // Skipping b's subtree: b1 is never keyed nor yielded.
    let mut iter = graph.by_priority(root, key).unwrap();
    let mut got = Vec::new();
    while let Some(n) = iter.next() {
        let n = n.unwrap();
        got.push(n);
        if n == b.index() {
            iter.skip_subtree();
        }
    }
    assert_eq!(got, ix(&[root, b, a, a1]));
    assert_eq!(iter.pending(), 0);
}

fn skip(n: NodeIndex) -> bool {
    (n.raw() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 62 == 0
}

/// Prunes where [`skip`] says so, tracing events: the reference for `skip_subtree`.
#[derive(Default)]
struct Pruner(Vec<Event>);

impl UnorderedActor for Pruner {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push(Event::Enter(visit.node()));
        if skip(visit.node()) {
            Flow::Prune
        } else {
            Flow::Continue
        }
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.0.push(Event::Leave(visit.node()));
    }
}

/// Skips every subtree whose node hashes to 0 mod 4, in the walker and the iterators.
#[test]
fn skip_subtree_everywhere() {
    for seed in 0..20 {
        let (graph, root, _) = random_graph(200, seed + 900);
        let mut action =
            Action::new(DepthFirst::new(), (Unordered::new(Pruner::default()),)).unwrap();
        action.run(&graph, root).unwrap();
        let expected = action.actor::<Pruner>().unwrap().0.clone();
        assert!(entered(&expected).len() < 200, "something is skipped");

        let mut iter = graph.depth_first(root).unwrap();
        let mut got = Vec::new();
        while let Some(event) = iter.next() {
            got.push(event);
            if let Event::Enter(n) = event
                && skip(n)
            {
                iter.skip_subtree();
            }
        }
        assert_eq!(got, expected);

        let mut walk = DfsWalker::new(root);
        let mut pre = Vec::new();
        while let Some(n) = walk.next_enter(&graph) {
            pre.push(n);
            if skip(n) {
                walk.skip_subtree();
            }
        }
        assert_eq!(pre, entered(&expected));

        // Level order and priority order see the same node set.
        let mut bfs = graph.breadth_first(root).unwrap();
        let mut levels = Vec::new();
        while let Some((n, _)) = bfs.next() {
            levels.push(n);
            if skip(n) {
                bfs.skip_subtree();
            }
        }
        same_node_set(&levels, &pre);
        let mut best = graph.by_priority(root, keys(seed)).unwrap();
        let mut by_key = Vec::new();
        while let Some(n) = best.next() {
            let n = n.unwrap();
            by_key.push(n);
            if skip(n) {
                best.skip_subtree();
            }
        }
        same_node_set(&by_key, &pre);
    }
}

#[test]
fn skip_after_leave_does_nothing() {
    let (graph, root, kids) = star(2);
    let mut walker = DfsWalker::new(root);
    assert_eq!(walker.next(&graph), Some(Event::Enter(root.index())));
    assert_eq!(walker.next(&graph), Some(Event::Enter(kids[0])));
    assert_eq!(walker.next(&graph), Some(Event::Leave(kids[0])));
    walker.skip_subtree(); // after a leave: ignored
    assert_eq!(walker.next(&graph), Some(Event::Enter(kids[1])));
    assert_eq!(walker.next(&graph), Some(Event::Leave(kids[1])));
    assert_eq!(walker.next(&graph), Some(Event::Leave(root.index())));
    assert_eq!(walker.next(&graph), None);
    assert!(walker.is_done());
    assert_eq!(walker.next(&graph), None);
}

#[test]
fn walker_with_edits_between_steps() {
    // root -> [a -> [a1], b, c]
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph.append_child(root, Group).unwrap();
    let a1 = graph.append_child(a, Group).unwrap();
    let b = graph.append_child(root, Group).unwrap();
    let c = graph.append_child(root, Group).unwrap();
    let mut walker = DfsWalker::new(root);
    let mut events = Vec::new();
    let mut added = Vec::new();
    while let Some(event) = walker.next(&graph) {
        events.push(event);
        match event {
            Event::Enter(n) if n == a.index() => {
                // Ahead of the walk: a new sibling before b is entered, b's removal
                // is seen, a node inserted before a (behind the walk) is not.
                added.push(graph.insert_before(c, Group).unwrap());
                graph.remove(b).unwrap();
                added.push(graph.insert_before(a, Group).unwrap());
            }
            Event::Enter(n) if n == a1.index() => {
                // Children added under the current node are entered.
                added.push(graph.append_child(a1, Group).unwrap());
            }
            _ => {}
        }
    }
    let [x, behind, y] = [added[0], added[1], added[2]].map(|id| id.index());
    use Event::{Enter, Leave};
    let (r, a, a1, c) = (root.index(), a.index(), a1.index(), c.index());
    assert_eq!(
        events,
        [
            Enter(r),
            Enter(a),
            Enter(a1),
            Enter(y),
            Leave(y),
            Leave(a1),
            Leave(a),
            Enter(x),
            Leave(x),
            Enter(c),
            Leave(c),
            Leave(r)
        ]
    );
    assert!(!events.contains(&Enter(behind)));
}

#[test]
fn removing_the_current_node_or_root_ends_the_walk() {
    let (mut graph, root, kids) = star(3);
    let mut walker = DfsWalker::new(root);
    walker.next(&graph);
    assert_eq!(walker.next(&graph), Some(Event::Enter(kids[0])));
    let current = walker.current().unwrap();
    graph.remove(current).unwrap();
    // The slot is reused by a new child of the root: the walker still sees the removal.
    let reused = graph.append_child(root, Group).unwrap();
    assert_eq!(reused.index(), kids[0]);
    assert_eq!(walker.next(&graph), None);
    assert!(walker.is_done() && walker.current().is_none());

    // The root removed mid-walk.
    let mut walker = DfsWalker::new(root);
    walker.next(&graph);
    walker.next(&graph);
    graph.remove(root).unwrap();
    assert_eq!(walker.next(&graph), None);
    assert_eq!(DfsWalker::new(root).next_enter(&graph), None);
    assert!(matches!(
        graph.depth_first(root),
        Err(GraphError::StaleNode(_))
    ));
    assert!(graph.breadth_first(root).is_err());
    assert!(graph.preorder(root).is_err());
    assert!(graph.by_priority(root, |_| 0.0).is_err());
}

#[test]
fn a_moved_current_node_is_left_where_the_walk_found_it() {
    // root -> [a -> [a1, a2], b];  top -> [other -> [o1]]
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph.append_child(root, Group).unwrap();
    let a1 = graph.append_child(a, Group).unwrap();
    let a1x = graph.append_child(a1, Group).unwrap();
    let a2 = graph.append_child(a, Group).unwrap();
    let b = graph.append_child(root, Group).unwrap();
    let top = graph.add_root(Group);
    let other = graph.append_child(top, Group).unwrap();
    let o1 = graph.append_child(other, Group).unwrap();
    use Event::{Enter, Leave};
    let [root_, a_, a1_, a1x_, a2_, b_] = [root, a, a1, a1x, a2, b].map(|id| id.index());

    // Moved into the other tree (depth 2 there too): not descended into, the walk
    // goes on with a2, never leaves a node it did not enter, and does not stray into
    // the other tree.
    let mut walker = DfsWalker::new(root);
    walker.next(&graph);
    walker.next(&graph);
    assert_eq!(walker.next(&graph), Some(Enter(a1_)));
    graph.set_parent(a1, Some(other), Some(o1)).unwrap();
    let rest = events(walker, &graph);
    assert_eq!(
        rest,
        [
            Leave(a1_),
            Enter(a2_),
            Leave(a2_),
            Leave(a_),
            Enter(b_),
            Leave(b_),
            Leave(root_)
        ]
    );

    // Moved ahead of the walk, under b, after its subtree was walked: entered again
    // there, with its subtree.
    graph.set_parent(a1, Some(a), Some(a2)).unwrap();
    let mut walker = DfsWalker::new(root);
    let mut events = Vec::new();
    while let Some(event) = walker.next(&graph) {
        events.push(event);
        if event == Leave(a1_) && walker.depth() == 2 {
            graph.set_parent(a1, Some(b), None).unwrap();
        }
    }
    assert_eq!(
        events,
        [
            Enter(root_),
            Enter(a_),
            Enter(a1_),
            Enter(a1x_),
            Leave(a1x_),
            Leave(a1_),
            Enter(a2_),
            Leave(a2_),
            Leave(a_),
            Enter(b_),
            Enter(a1_),
            Enter(a1x_),
            Leave(a1x_),
            Leave(a1_),
            Leave(b_),
            Leave(root_)
        ]
    );
}

#[test]
fn removing_the_node_the_current_one_was_entered_from_ends_the_walk() {
    let (mut graph, root, kids) = star(2);
    let kid = graph.id_at(kids[0]).unwrap();
    let grandchild = graph.append_child(kid, Group).unwrap();
    let mut walker = DfsWalker::new(root);
    walker.next(&graph);
    walker.next(&graph);
    assert_eq!(walker.next(&graph), Some(Event::Enter(grandchild.index())));
    // The grandchild takes its removed parent's place under the root; the walk
    // cannot leave the removed node, so it ends.
    graph.remove(kid).unwrap();
    assert_eq!(walker.next(&graph), None);
    assert!(walker.is_done());
}

#[test]
fn reset_and_move_to() {
    let (graph, root, ids) = random_graph(100, 77);
    let expected = action_events(&graph, root);
    let mut walker = DfsWalker::new(root);
    for _ in 0..30 {
        walker.next(&graph);
    }
    walker = DfsWalker::new(root);
    assert_eq!(events(walker, &graph), expected);

    // move_to: continue from any node of the subtree as if the walk had got there.
    let mut walker = DfsWalker::new(root);
    for &target in &ids[1..20] {
        assert!(walker.move_to(&graph, target).unwrap());
        let from = expected
            .iter()
            .position(|&e| e == Event::Enter(target.index()))
            .unwrap();
        let mut rest = Vec::new();
        let mut copy = walker;
        while let Some(e) = copy.next(&graph) {
            rest.push(e);
        }
        assert_eq!(rest, expected[from..], "from {target:?}");
        let id = graph.id_at(target.index()).unwrap();
        copy = DfsWalker::new(root);
        assert!(copy.move_to(&graph, id).unwrap());
        copy.next(&graph);
        assert_eq!(copy.depth() as usize, graph.depth(id).unwrap());
    }
    // Outside the subtree: refused, walker unchanged.
    let outside = graph.roots().find(|&r| r != root).unwrap();
    let before = walker;
    assert!(!walker.move_to(&graph, outside).unwrap());
    assert_eq!(walker, before);
}

#[test]
fn move_to_a_stale_node_is_an_error() {
    let (mut graph, root, kids) = star(2);
    let kid = graph.id_at(kids[0]).unwrap();
    graph.remove(kid).unwrap();
    let mut walker = DfsWalker::new(root);
    assert_eq!(walker.move_to(&graph, kid), Err(GraphError::StaleNode(kid)));
}

#[test]
fn iterators_hand_the_walker_back() {
    let (mut graph, root, kids) = star(3);
    let mut iter = graph.preorder(root).unwrap();
    assert_eq!(iter.next(), Some(root.index()));
    assert_eq!(iter.next(), Some(kids[0]));
    let mut walker = iter.into_walker();
    let added = graph.append_child(root, Group).unwrap(); // the graph is free again
    assert_eq!(walker.next(&graph), Some(Event::Leave(kids[0])));
    assert_eq!(walker.next_enter(&graph), Some(kids[1]));
    let rest = graph.depth_first(root).unwrap().skip(4);
    assert_eq!(events(walker, &graph), rest.collect::<Vec<_>>());
    assert_eq!(graph.preorder(root).unwrap().last(), Some(added.index()));
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
    let mut walker = DfsWalker::new(root);
    let (mut enters, mut leaves, mut max_depth) = (0, 0, 0);
    while let Some(event) = walker.next(&graph) {
        match event {
            Event::Enter(_) => enters += 1,
            Event::Leave(_) => leaves += 1,
        }
        max_depth = max_depth.max(walker.depth());
        if enters == N && leaves == 0 {
            assert_eq!(event, Event::Enter(last.index()));
        }
    }
    assert_eq!((enters, leaves, max_depth as usize), (N, N, N - 1));
    assert_eq!(graph.preorder(root).unwrap().count(), N);
    assert_eq!(graph.depth_first(root).unwrap().count(), 2 * N);
    assert_eq!(
        graph.breadth_first(root).unwrap().last(),
        Some((last.index(), (N - 1) as u32))
    );
    assert_eq!(ok(graph.by_priority(root, |_| 0.0).unwrap()).len(), N);
}
