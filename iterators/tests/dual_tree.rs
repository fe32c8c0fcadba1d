//! The dual-tree traversal against brute force: random box trees (leaves `Geometry`,
//! inner nodes `Group`), two trees in two graphs, two trees in one graph, one tree
//! against itself; first hit, pause and resume, deep chains, stale roots.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Graph, GraphError, NodeId, NodeIndex};
use scenewalk_iterators::{AabbOverlap, DualTree, NodePair, PairFilter};
use scenewalk_nodes::{Geometry, Group};
use std::collections::BTreeSet;

mod common;
use common::Rng;

// ----- helpers ----------------------------------------------------------------------

/// How a random tree looks.
#[derive(Clone, Copy, Debug)]
struct Shape {
    max_depth: u32,
    /// Largest box side.
    size: f32,
    /// Where the tree's world cube starts on x.
    offset: f32,
}

impl Shape {
    fn random(rng: &mut Rng) -> Self {
        Shape {
            max_depth: rng.below(6) as u32,
            size: [1.0, 8.0, 25.0][rng.below(3)],
            offset: [0.0, 0.0, 60.0, 300.0][rng.below(4)],
        }
    }
}

fn random_box(rng: &mut Rng, shape: Shape) -> Aabb {
    let corner = Vec3::new(
        shape.offset + rng.unit() * 100.0,
        rng.unit() * 100.0,
        rng.unit() * 100.0,
    );
    let side = Vec3::new(rng.unit(), rng.unit(), rng.unit()) * shape.size;
    Aabb::new(corner, corner + side)
}

/// A random tree: fan-out 1-4, leaves at random depths up to `shape.max_depth`.
fn random_tree(graph: &mut Graph, rng: &mut Rng, shape: Shape) -> NodeId {
    if shape.max_depth == 0 {
        return graph.add_root(Geometry::new(random_box(rng, shape)));
    }
    let root = graph.add_root(Group);
    grow(graph, rng, shape, root, shape.max_depth - 1);
    root
}

fn grow(graph: &mut Graph, rng: &mut Rng, shape: Shape, parent: NodeId, depth_left: u32) {
    for _ in 0..1 + rng.below(4) {
        if depth_left == 0 || rng.below(4) == 0 {
            let leaf = Geometry::new(random_box(rng, shape));
            graph.append_child(parent, leaf).expect("parent is live");
        } else {
            let group = graph.append_child(parent, Group).expect("parent is live");
            grow(graph, rng, shape, group, depth_left - 1);
        }
    }
}

/// The subtree of `root` in pre-order.
fn preorder(graph: &Graph, root: NodeIndex) -> Vec<NodeIndex> {
    let mut order = vec![root];
    while let Some(next) = graph.next_preorder_at(*order.last().unwrap(), root) {
        order.push(next);
    }
    order
}

fn leaves(graph: &Graph, root: NodeIndex) -> Vec<NodeIndex> {
    preorder(graph, root)
        .into_iter()
        .filter(|&n| graph.first_child_at(n).is_none())
        .collect()
}

/// Each node's box: a leaf's own, an inner node's the union of its subtree's leaves.
fn box_table(graph: &Graph) -> Vec<Aabb> {
    let mut table = vec![Aabb::EMPTY; graph.capacity()];
    for root in graph.roots() {
        for node in preorder(graph, root.index()).into_iter().rev() {
            if let Some(geometry) = graph.get_at::<Geometry>(node) {
                table[node.get()] = *geometry.local_bounds();
            }
            if let Some(parent) = graph.parent_at(node) {
                table[parent.get()] = table[parent.get()].union(&table[node.get()]);
            }
        }
    }
    table
}

fn brute_pairs(
    leaves_a: &[NodeIndex],
    table_a: &[Aabb],
    leaves_b: &[NodeIndex],
    table_b: &[Aabb],
) -> BTreeSet<NodePair> {
    let mut set = BTreeSet::new();
    for &a in leaves_a {
        for &b in leaves_b {
            if table_a[a.get()].overlaps(&table_b[b.get()]) {
                set.insert((a, b));
            }
        }
    }
    set
}

fn brute_self(leaves: &[NodeIndex], table: &[Aabb]) -> BTreeSet<NodePair> {
    let mut set = BTreeSet::new();
    for (i, &a) in leaves.iter().enumerate() {
        for &b in &leaves[i + 1..] {
            if table[a.get()].overlaps(&table[b.get()]) {
                set.insert((a.min(b), a.max(b)));
            }
        }
    }
    set
}

/// Wraps a filter to count (and optionally record) its calls.
struct Counting<F> {
    inner: F,
    calls: u64,
    log: Option<Vec<NodePair>>,
}

impl<F> Counting<F> {
    fn new(inner: F) -> Self {
        Self {
            inner,
            calls: 0,
            log: None,
        }
    }

    fn logged(inner: F) -> Self {
        Self {
            log: Some(Vec::new()),
            ..Self::new(inner)
        }
    }
}

impl<F: PairFilter> PairFilter for Counting<F> {
    fn test(&mut self, a: NodeIndex, b: NodeIndex) -> bool {
        self.calls += 1;
        if let Some(log) = &mut self.log {
            log.push((a, b));
        }
        self.inner.test(a, b)
    }
}

fn to_set(pairs: &[NodePair]) -> BTreeSet<NodePair> {
    let set: BTreeSet<_> = pairs.iter().copied().collect();
    assert_eq!(set.len(), pairs.len(), "a pair came twice: {pairs:?}");
    set
}

fn to_unordered_set(pairs: &[NodePair]) -> BTreeSet<NodePair> {
    let set: BTreeSet<_> = pairs
        .iter()
        .map(|&(a, b)| {
            assert_ne!(a, b, "self pair");
            (a.min(b), a.max(b))
        })
        .collect();
    assert_eq!(set.len(), pairs.len(), "a pair came twice: {pairs:?}");
    set
}

/// Two random trees in two graphs.
fn two_graphs(seed: u64) -> (Graph, NodeId, Graph, NodeId) {
    let mut rng = Rng(seed);
    let (mut graph_a, mut graph_b) = (Graph::new(), Graph::new());
    let shape = Shape::random(&mut rng);
    let root_a = random_tree(&mut graph_a, &mut rng, shape);
    let shape = Shape::random(&mut rng);
    let root_b = random_tree(&mut graph_b, &mut rng, shape);
    (graph_a, root_a, graph_b, root_b)
}

/// Two random trees in one graph.
fn one_graph(seed: u64) -> (Graph, NodeId, NodeId) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let shape = Shape::random(&mut rng);
    let root_a = random_tree(&mut graph, &mut rng, shape);
    let shape = Shape::random(&mut rng);
    let root_b = random_tree(&mut graph, &mut rng, shape);
    (graph, root_a, root_b)
}

// ----- against brute force --------------------------------------------------------------

fn check_two_trees(graph_a: &Graph, root_a: NodeId, graph_b: &Graph, root_b: NodeId) {
    let (table_a, table_b) = (box_table(graph_a), box_table(graph_b));
    let expected = brute_pairs(
        &leaves(graph_a, root_a.index()),
        &table_a,
        &leaves(graph_b, root_b.index()),
        &table_b,
    );
    let mut dual = DualTree::new();
    dual.reset(graph_a, root_a, graph_b, root_b).unwrap();
    let mut filter = Counting::new(AabbOverlap::new(&table_a, &table_b));
    let found = dual.iter(graph_a, graph_b, &mut filter).collect::<Vec<_>>();
    assert_eq!(to_set(&found), expected);
    let stats = dual.stats();
    assert_eq!(stats.pair_tests, filter.calls);
    assert_eq!(stats.pairs_found, found.len() as u64);
    assert!(stats.max_stack >= 1);
    assert!(dual.is_done());
    assert_eq!(dual.next(graph_a, graph_b, &mut filter), None, "fused");
}

fn check_self(graph: &Graph, root: NodeId) {
    let table = box_table(graph);
    let expected = brute_self(&leaves(graph, root.index()), &table);
    let mut dual = DualTree::new();
    dual.reset_self(graph, root).unwrap();
    let mut filter = Counting::logged(AabbOverlap::new(&table, &table));
    let found = dual.iter(graph, graph, &mut filter).collect::<Vec<_>>();
    assert_eq!(to_unordered_set(&found), expected);
    assert_eq!(dual.stats().pair_tests, filter.calls);
    for (a, b) in filter.log.unwrap() {
        assert_ne!(a, b, "the filter is never asked about a node with itself");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn find_all_matches_brute_force_two_graphs(seed in any::<u64>()) {
        let (graph_a, root_a, graph_b, root_b) = two_graphs(seed);
        check_two_trees(&graph_a, root_a, &graph_b, root_b);
    }

    #[test]
    fn find_all_matches_brute_force_one_graph(seed in any::<u64>()) {
        let (graph, root_a, root_b) = one_graph(seed);
        check_two_trees(&graph, root_a, &graph, root_b);
        // The filter only ever sees a node of tree A first and a node of tree B second.
        let nodes_a: BTreeSet<_> = preorder(&graph, root_a.index()).into_iter().collect();
        let nodes_b: BTreeSet<_> = preorder(&graph, root_b.index()).into_iter().collect();
        let table = box_table(&graph);
        let mut filter = Counting::logged(AabbOverlap::new(&table, &table));
        let mut dual = DualTree::new();
        dual.reset(&graph, root_a, &graph, root_b).unwrap();
        dual.iter(&graph, &graph, &mut filter).for_each(drop);
        let log = filter.log.unwrap();
        prop_assert_eq!(log[0], (root_a.index(), root_b.index()));
        for (a, b) in log {
            prop_assert!(nodes_a.contains(&a) && nodes_b.contains(&b));
        }
    }

    #[test]
    fn find_all_matches_brute_force_self(seed in any::<u64>()) {
        let (graph, root_a, root_b) = one_graph(seed);
        check_self(&graph, root_a);
        check_self(&graph, root_b);
    }

    #[test]
    fn first_hit_is_in_the_brute_force_set(seed in any::<u64>()) {
        let (graph_a, root_a, graph_b, root_b) = two_graphs(seed);
        let (table_a, table_b) = (box_table(&graph_a), box_table(&graph_b));
        let expected = brute_pairs(
            &leaves(&graph_a, root_a.index()),
            &table_a,
            &leaves(&graph_b, root_b.index()),
            &table_b,
        );
        let mut dual = DualTree::new();
        dual.reset(&graph_a, root_a, &graph_b, root_b).unwrap();
        let mut filter = AabbOverlap::new(&table_a, &table_b);
        let hit = dual.first_hit(&graph_a, &graph_b, &mut filter);
        match hit {
            Some(pair) => prop_assert!(expected.contains(&pair)),
            None => prop_assert!(expected.is_empty()),
        }
        prop_assert!(dual.is_done());
        prop_assert_eq!(dual.next(&graph_a, &graph_b, &mut filter), None);

        // Self mode too.
        let table = table_a;
        let expected = brute_self(&leaves(&graph_a, root_a.index()), &table);
        dual.reset_self(&graph_a, root_a).unwrap();
        match dual.first_hit(&graph_a, &graph_a, &mut AabbOverlap::new(&table, &table)) {
            Some((a, b)) => prop_assert!(expected.contains(&(a.min(b), a.max(b)))),
            None => prop_assert!(expected.is_empty()),
        }
    }

    #[test]
    fn pause_and_resume_gives_the_same_set(seed in any::<u64>(), k in 0usize..12) {
        let (graph_a, root_a, graph_b, root_b) = two_graphs(seed);
        let (table_a, table_b) = (box_table(&graph_a), box_table(&graph_b));
        let mut filter = AabbOverlap::new(&table_a, &table_b);
        let mut dual = DualTree::new();
        dual.reset(&graph_a, root_a, &graph_b, root_b).unwrap();
        let all = dual.iter(&graph_a, &graph_b, &mut filter).collect::<Vec<_>>();
        let all_tests = dual.stats().pair_tests;

        dual.reset(&graph_a, root_a, &graph_b, root_b).unwrap();
        let mut parts = Vec::new();
        for _ in 0..k {
            match dual.next(&graph_a, &graph_b, &mut filter) {
                Some(pair) => parts.push(pair),
                None => break,
            }
        }
        // Paused: a clone carries on exactly like the original.
        let mut copy = dual.clone();
        let rest_of_copy = copy.iter(&graph_a, &graph_b, &mut filter).collect::<Vec<_>>();
        // Some more through the lazy iterator, then the rest through `next`.
        parts.extend(dual.iter(&graph_a, &graph_b, &mut filter).take(k));
        while let Some(pair) = dual.next(&graph_a, &graph_b, &mut filter) {
            parts.push(pair);
        }
        prop_assert_eq!(&parts, &all, "same pairs, same order");
        prop_assert_eq!(dual.stats().pair_tests, all_tests);
        prop_assert_eq!(&parts[parts.len() - rest_of_copy.len()..], &rest_of_copy[..]);

        // Self mode, paused after k.
        let table = table_a;
        let mut filter = AabbOverlap::new(&table, &table);
        dual.reset_self(&graph_a, root_a).unwrap();
        let all = dual.iter(&graph_a, &graph_a, &mut filter).collect::<Vec<_>>();
        dual.reset_self(&graph_a, root_a).unwrap();
        let mut parts: Vec<_> = dual.iter(&graph_a, &graph_a, &mut filter).take(k).collect();
        parts.extend(dual.iter(&graph_a, &graph_a, &mut filter));
        prop_assert_eq!(parts, all);
    }
}

// ----- fixed cases ------------------------------------------------------------------------

#[test]
fn fixed_seeds_cover_empty_and_full_results() {
    let (mut empty, mut nonempty) = (0, 0);
    for seed in 0..200 {
        let (graph_a, root_a, graph_b, root_b) = two_graphs(seed);
        check_two_trees(&graph_a, root_a, &graph_b, root_b);
        let (table_a, table_b) = (box_table(&graph_a), box_table(&graph_b));
        let expected = brute_pairs(
            &leaves(&graph_a, root_a.index()),
            &table_a,
            &leaves(&graph_b, root_b.index()),
            &table_b,
        );
        if expected.is_empty() {
            empty += 1;
        } else {
            nonempty += 1;
        }
    }
    assert!(empty > 10 && nonempty > 10, "{empty} empty, {nonempty} not");
}

#[test]
fn accept_all_yields_every_leaf_pair_and_reject_all_tests_only_the_roots() {
    let (graph, root_a, root_b) = one_graph(7);
    let leaves_a = leaves(&graph, root_a.index());
    let leaves_b = leaves(&graph, root_b.index());
    let mut dual = DualTree::new();

    dual.reset(&graph, root_a, &graph, root_b).unwrap();
    let all = dual
        .iter(&graph, &graph, &mut |_, _| true)
        .collect::<Vec<_>>();
    assert_eq!(all.len(), leaves_a.len() * leaves_b.len());
    assert_eq!(to_set(&all).len(), all.len());

    dual.reset(&graph, root_a, &graph, root_b).unwrap();
    assert_eq!(
        dual.iter(&graph, &graph, &mut |_, _| false)
            .collect::<Vec<_>>(),
        []
    );
    assert_eq!(dual.stats().pair_tests, 1);

    // Self: every unordered pair of distinct leaves.
    dual.reset_self(&graph, root_a).unwrap();
    let all = dual
        .iter(&graph, &graph, &mut |_, _| true)
        .collect::<Vec<_>>();
    let n = leaves_a.len();
    assert_eq!(to_unordered_set(&all).len(), n * (n - 1) / 2);

    // Self, reject all: one test per unordered pair of siblings.
    let sibling_pairs: usize = preorder(&graph, root_a.index())
        .into_iter()
        .map(|node| {
            let mut k = 0;
            let mut child = graph.first_child_at(node);
            while let Some(c) = child {
                k += 1;
                child = graph.next_sibling_at(c);
            }
            k * (k.max(1) - 1) / 2
        })
        .sum();
    dual.reset_self(&graph, root_a).unwrap();
    assert_eq!(
        dual.iter(&graph, &graph, &mut |_, _| false)
            .collect::<Vec<_>>(),
        []
    );
    assert_eq!(dual.stats().pair_tests, sibling_pairs as u64);
}

#[test]
fn leaf_roots() {
    let mut graph = Graph::new();
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let a = graph.add_root(Geometry::new(unit));
    let b = graph.add_root(Geometry::new(unit));
    let table = box_table(&graph);
    let mut dual = DualTree::new();
    dual.reset(&graph, a, &graph, b).unwrap();
    let found = dual
        .iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
        .collect::<Vec<_>>();
    assert_eq!(found, [(a.index(), b.index())]);
    assert_eq!(dual.stats().pair_tests, 1);

    // The same leaf twice in two-tree mode is an ordered pair (x, x) …
    dual.reset(&graph, a, &graph, a).unwrap();
    let found = dual
        .iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
        .collect::<Vec<_>>();
    assert_eq!(found, [(a.index(), a.index())]);
    // … and in self mode nothing: no self pairs, and no test.
    dual.reset_self(&graph, a).unwrap();
    assert_eq!(
        dual.iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
            .next(),
        None
    );
    assert_eq!(dual.stats().pair_tests, 0);
}

#[test]
fn same_root_twice_gives_ordered_pairs() {
    let (graph, root, _) = one_graph(11);
    let table = box_table(&graph);
    let leaves = leaves(&graph, root.index());
    let mut dual = DualTree::new();
    dual.reset(&graph, root, &graph, root).unwrap();
    let found = to_set(
        &dual
            .iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
            .collect::<Vec<_>>(),
    );
    assert_eq!(found, brute_pairs(&leaves, &table, &leaves, &table));
}

#[test]
fn the_buffer_is_reused_across_resets() {
    let (graph_a, root_a, graph_b, root_b) = two_graphs(3);
    let mut dual = DualTree::with_capacity(4);
    assert!(dual.stack_capacity() >= 4);
    dual.reset(&graph_a, root_a, &graph_b, root_b).unwrap();
    dual.iter(&graph_a, &graph_b, &mut |_, _| true)
        .for_each(drop);
    let capacity = dual.stack_capacity();
    let stats = dual.stats();
    assert!(capacity >= stats.max_stack);
    dual.reset(&graph_a, root_a, &graph_b, root_b).unwrap();
    assert_eq!(dual.stats().pair_tests, 0);
    dual.iter(&graph_a, &graph_b, &mut |_, _| true)
        .for_each(drop);
    assert_eq!(dual.stack_capacity(), capacity);
    assert_eq!(dual.stats(), stats);
}

#[test]
fn any_capacity_request_is_safe() {
    // Pending memory grows with depth, not with the pairs: a huge request is capped.
    let dual = DualTree::with_capacity(usize::MAX);
    assert!(dual.stack_capacity() < 1 << 20, "{}", dual.stack_capacity());
    assert!(dual.is_done());
}

// ----- deep trees ------------------------------------------------------------------------

const CHAIN: usize = 100_000;

/// A chain of `CHAIN` groups ending in one leaf with box `leaf`.
fn chain(graph: &mut Graph, leaf: Aabb) -> NodeId {
    let root = graph.add_root(Group);
    let mut tip = root;
    for _ in 1..CHAIN {
        tip = graph.append_child(tip, Group).unwrap();
    }
    graph.append_child(tip, Geometry::new(leaf)).unwrap();
    root
}

#[test]
fn deep_chain_against_a_big_tree() {
    // A complete 4-ary tree of depth 6 (4,096 leaves) with random leaf boxes.
    let mut big = Graph::new();
    let mut rng = Rng(42);
    let shape = Shape {
        max_depth: 6,
        size: 8.0,
        offset: 0.0,
    };
    let big_root = big.add_root(Group);
    let mut level = vec![big_root];
    for depth in 1..=shape.max_depth {
        let mut next = Vec::new();
        for parent in level {
            for _ in 0..4 {
                next.push(
                    if depth == shape.max_depth {
                        big.append_child(parent, Geometry::new(random_box(&mut rng, shape)))
                    } else {
                        big.append_child(parent, Group)
                    }
                    .unwrap(),
                );
            }
        }
        level = next;
    }
    let big_leaves = leaves(&big, big_root.index());
    assert!(big_leaves.len() > 1000, "{} leaves", big_leaves.len());

    let mut deep = Graph::new();
    let probe = Aabb::new(Vec3::splat(40.0), Vec3::splat(48.0));
    let deep_root = chain(&mut deep, probe);
    let (table_big, table_deep) = (box_table(&big), box_table(&deep));
    let expected = brute_pairs(
        &leaves(&deep, deep_root.index()),
        &table_deep,
        &big_leaves,
        &table_big,
    );
    assert!(!expected.is_empty());

    let mut dual = DualTree::new();
    dual.reset(&deep, deep_root, &big, big_root).unwrap();
    let found = dual
        .iter(&deep, &big, &mut AabbOverlap::new(&table_deep, &table_big))
        .collect::<Vec<_>>();
    assert_eq!(to_set(&found), expected);
    let stats = dual.stats();
    assert!(stats.pair_tests > CHAIN as u64, "{stats:?}");
    assert!(stats.max_stack < 100, "{stats:?}");

    // The other way round.
    dual.reset(&big, big_root, &deep, deep_root).unwrap();
    let found = dual
        .iter(&big, &deep, &mut AabbOverlap::new(&table_big, &table_deep))
        .collect::<Vec<_>>();
    let swapped: BTreeSet<_> = expected.iter().map(|&(a, b)| (b, a)).collect();
    assert_eq!(to_set(&found), swapped);
}

#[test]
fn deep_chain_against_a_deep_chain_and_itself() {
    let mut graph = Graph::new();
    let probe = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let a = chain(&mut graph, probe);
    let b = chain(&mut graph, probe);
    let table = box_table(&graph);
    let mut dual = DualTree::new();
    dual.reset(&graph, a, &graph, b).unwrap();
    let found = dual
        .iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
        .collect::<Vec<_>>();
    let (leaf_a, leaf_b) = (leaves(&graph, a.index()), leaves(&graph, b.index()));
    assert_eq!(found, [(leaf_a[0], leaf_b[0])]);
    assert_eq!(dual.stats().pair_tests, CHAIN as u64 + 1);

    dual.reset_self(&graph, a).unwrap();
    assert_eq!(
        dual.iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
            .next(),
        None
    );
}

#[test]
fn deep_comb_against_itself() {
    // Spine node i has children [leaf i, spine i + 1]; leaf i overlaps leaf i + 1 only.
    let mut graph = Graph::new();
    let leaf_box = |i: usize| {
        let x = 2.0 * i as f32;
        Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 2.5, 1.0, 1.0))
    };
    let root = graph.add_root(Group);
    let mut spine = root;
    let mut leaf_ids = Vec::new();
    for i in 0..CHAIN {
        leaf_ids.push(
            graph
                .append_child(spine, Geometry::new(leaf_box(i)))
                .unwrap(),
        );
        if i + 1 < CHAIN {
            spine = graph.append_child(spine, Group).unwrap();
        }
    }
    let table = box_table(&graph);
    let mut dual = DualTree::new();
    dual.reset_self(&graph, root).unwrap();
    let found = dual
        .iter(&graph, &graph, &mut AabbOverlap::new(&table, &table))
        .collect::<Vec<_>>();
    let expected: BTreeSet<_> = leaf_ids
        .windows(2)
        .map(|w| {
            (
                w[0].index().min(w[1].index()),
                w[0].index().max(w[1].index()),
            )
        })
        .collect();
    assert_eq!(to_unordered_set(&found), expected);
    assert!(dual.stats().max_stack < 10, "{:?}", dual.stats());
}

// ----- stale and garbage roots -------------------------------------------------------------

#[test]
fn stale_roots_are_rejected_and_garbage_indices_give_nothing() {
    let (mut graph, root_a, root_b) = one_graph(5);
    let table = box_table(&graph);
    let mut filter = AabbOverlap::new(&table, &table);
    let mut dual = DualTree::new();

    // Never reset: nothing.
    assert_eq!(dual.next(&graph, &graph, &mut filter), None);

    // A removed root is stale.
    let removed = graph.append_child(root_a, Group).unwrap();
    graph.remove(removed).unwrap();
    assert_eq!(
        dual.reset(&graph, removed, &graph, root_b),
        Err(GraphError::StaleNode(removed))
    );
    assert!(dual.is_done());
    assert_eq!(
        dual.reset_self(&graph, removed),
        Err(GraphError::StaleNode(removed))
    );
    assert_eq!(dual.next(&graph, &graph, &mut filter), None);

    // An id of a bigger graph is stale here.
    let (big, big_root, _) = one_graph(6);
    let foreign = big.id_at(preorder(&big, big_root.index()).into_iter().last().unwrap());
    let foreign = foreign.unwrap();
    if foreign.index().get() >= graph.capacity() {
        assert!(dual.reset(&graph, root_a, &graph, foreign).is_err());
    }

    // Slot indices reach a traversal through `Graph::id_at`, which rejects an index out
    // of range or of a free slot; a live one traverses as its id.
    let mut far = Graph::new();
    let mut far_node = far.add_root(Group);
    while far_node.index().get() < graph.capacity() + 10 {
        far_node = far.add_root(Group);
    }
    assert_eq!(graph.id_at(far_node.index()), None);
    assert_eq!(graph.id_at(removed.index()), None);
    let (a, b) = (graph.id_at(root_a.index()), graph.id_at(root_b.index()));
    dual.reset(&graph, a.unwrap(), &graph, b.unwrap()).unwrap();
    let by_index = dual.iter(&graph, &graph, &mut filter).collect::<Vec<_>>();
    dual.reset(&graph, root_a, &graph, root_b).unwrap();
    assert_eq!(
        dual.iter(&graph, &graph, &mut filter).collect::<Vec<_>>(),
        by_index
    );
}

#[test]
fn a_structural_edit_between_calls_ends_the_traversal() {
    // A seed whose tree B has children and whose all-pairs result has a few pairs.
    let (mut graph, root_a, root_b) = (0..)
        .map(one_graph)
        .find(|(graph, a, b)| {
            graph.first_child(*b).unwrap().is_some()
                && leaves(graph, a.index()).len() * leaves(graph, b.index()).len() >= 3
        })
        .unwrap();
    let mut dual = DualTree::new();
    dual.reset(&graph, root_a, &graph, root_b).unwrap();
    assert!(dual.next(&graph, &graph, &mut |_, _| true).is_some());
    assert!(!dual.is_done());
    // Remove a whole subtree the pending pairs point into: their indices now name
    // free slots, and the next call ends the traversal instead of following them.
    let child = graph.first_child(root_b).unwrap().unwrap();
    graph.remove_subtree(child).unwrap();
    let table = box_table(&graph);
    assert_eq!(
        dual.next(&graph, &graph, &mut AabbOverlap::new(&table, &table)),
        None
    );
    assert!(dual.is_done());

    // A payload edit is not structural: the traversal goes on.
    let (mut graph, root_a, root_b) = one_graph_with_pairs();
    dual.reset(&graph, root_a, &graph, root_b).unwrap();
    assert!(dual.next(&graph, &graph, &mut |_, _| true).is_some());
    let leaf = graph.id_at(leaves(&graph, root_a.index())[0]).unwrap();
    *graph.get_mut::<Geometry>(leaf).unwrap() = Geometry::new(Aabb::EMPTY);
    assert!(dual.next(&graph, &graph, &mut |_, _| true).is_some());
}

/// Two trees of one graph with at least three leaf pairs in all.
fn one_graph_with_pairs() -> (Graph, NodeId, NodeId) {
    (0..)
        .map(one_graph)
        .find(|(graph, a, b)| {
            graph.get::<Geometry>(*a).is_err()
                && leaves(graph, a.index()).len() * leaves(graph, b.index()).len() >= 3
        })
        .unwrap()
}
