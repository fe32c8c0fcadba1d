//! BVH-versus-BVH collision (reference note 002): the explicit-stack `DualTree` against
//! a straightforward recursive descent, on the same two graphs and the same filter.
//!
//! Two binary BVHs, 100,000 leaves each, built by median split (longest axis of the
//! centroid bounds) over random boxes from a fixed seed, each in its own `Graph` in
//! depth-first order; every node's box is the union of its leaves, in a side table.
//! The filter is `AabbOverlap` over those tables for every variant.
//!
//! - `find_all/dual_tree_next`: `DualTree::next` in a loop, counting the pairs;
//! - `find_all/dual_tree_iter`: the same through the lazy `Iterator` adapter;
//! - `find_all/recursive`: a recursive function with the same descent rule;
//! - `first_hit/*`: the same two ways, stopping at the first leaf pair.
//!
//! Throughput is in pair tests (filter calls), identical for both ways of a group
//! (checked before measuring), so "thrpt" is pair tests per second.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Graph, NodeId, NodeIndex};
use scenewalk_iterators::{AabbOverlap, DualTree, PairFilter};
use scenewalk_nodes::{Geometry, Group};
use std::hint::black_box;
use std::time::Duration;

const LEAVES: usize = 100_000;
/// Side of the world cube the boxes lie in.
const WORLD: f32 = 1000.0;
/// Largest box side.
const SIZE: f32 = 20.0;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn vec3(&mut self) -> Vec3 {
        Vec3::new(self.unit(), self.unit(), self.unit())
    }
}

/// A binary BVH over `LEAVES` random boxes: the graph, its root and each node's box.
fn bvh(seed: u64) -> (Graph, NodeId, Vec<Aabb>) {
    let mut rng = Rng(seed);
    let mut boxes: Vec<Aabb> = (0..LEAVES)
        .map(|_| {
            let corner = rng.vec3() * WORLD;
            Aabb::new(corner, corner + rng.vec3() * SIZE)
        })
        .collect();
    let mut graph = Graph::with_capacity(2 * LEAVES);
    let mut table = Vec::with_capacity(2 * LEAVES);
    let root = build(&mut graph, None, &mut boxes, &mut table);
    (graph, root, table)
}

/// Builds the subtree over `items` under `parent` (depth-first, so records lie in
/// depth-first order); recursion depth is about log2(LEAVES).
fn build(
    graph: &mut Graph,
    parent: Option<NodeId>,
    items: &mut [Aabb],
    table: &mut Vec<Aabb>,
) -> NodeId {
    if let [leaf] = items {
        let payload = Geometry::new(*leaf);
        let node = match parent {
            Some(p) => graph.append_child(p, payload).expect("parent is live"),
            None => graph.add_root(payload),
        };
        record(table, node, *leaf);
        return node;
    }
    let node = match parent {
        Some(p) => graph.append_child(p, Group).expect("parent is live"),
        None => graph.add_root(Group),
    };
    let centroids = Aabb::from_points(items.iter().map(Aabb::center));
    let extent = centroids.size();
    let axis = if extent.x >= extent.y && extent.x >= extent.z {
        0
    } else if extent.y >= extent.z {
        1
    } else {
        2
    };
    let mid = items.len() / 2;
    items.select_nth_unstable_by(mid, |p, q| p.center()[axis].total_cmp(&q.center()[axis]));
    let (low, high) = items.split_at_mut(mid);
    let a = build(graph, Some(node), low, table);
    let b = build(graph, Some(node), high, table);
    let union = table[a.index().get()].union(&table[b.index().get()]);
    record(table, node, union);
    node
}

fn record(table: &mut Vec<Aabb>, node: NodeId, bounds: Aabb) {
    let i = node.index().get();
    if table.len() <= i {
        table.resize(i + 1, Aabb::EMPTY);
    }
    table[i] = bounds;
}

/// The recursive descent of note 002, generalised like `DualTree` to n-ary trees:
/// test, then yield a leaf pair, or descend the internal side, or every child pair.
/// Returns `true` to stop (first-hit mode).
fn recursive<F: PairFilter, H: FnMut(NodeIndex, NodeIndex) -> bool>(
    graph_a: &Graph,
    a: NodeIndex,
    graph_b: &Graph,
    b: NodeIndex,
    filter: &mut F,
    tests: &mut u64,
    hit: &mut H,
) -> bool {
    *tests += 1;
    if !filter.test(a, b) {
        return false;
    }
    match (graph_a.first_child_at(a), graph_b.first_child_at(b)) {
        (None, None) => hit(a, b),
        (Some(first), None) => {
            let mut child = Some(first);
            while let Some(c) = child {
                if recursive(graph_a, c, graph_b, b, filter, tests, hit) {
                    return true;
                }
                child = graph_a.next_sibling_at(c);
            }
            false
        }
        (None, Some(first)) => {
            let mut child = Some(first);
            while let Some(c) = child {
                if recursive(graph_a, a, graph_b, c, filter, tests, hit) {
                    return true;
                }
                child = graph_b.next_sibling_at(c);
            }
            false
        }
        (Some(first_a), Some(first_b)) => {
            let mut child_a = Some(first_a);
            while let Some(ca) = child_a {
                let mut child_b = Some(first_b);
                while let Some(cb) = child_b {
                    if recursive(graph_a, ca, graph_b, cb, filter, tests, hit) {
                        return true;
                    }
                    child_b = graph_b.next_sibling_at(cb);
                }
                child_a = graph_a.next_sibling_at(ca);
            }
            false
        }
    }
}

fn dual_tree(c: &mut Criterion) {
    let (graph_a, root_a, table_a) = bvh(1);
    let (graph_b, root_b, table_b) = bvh(2);
    let mut filter = AabbOverlap::new(&table_a, &table_b);
    let mut dual = DualTree::new();

    // Both ways must do the same work, or the comparison means nothing.
    dual.reset(&graph_a, root_a, &graph_b, root_b)
        .expect("roots are live");
    let all = dual
        .iter(&graph_a, &graph_b, &mut filter)
        .collect::<Vec<_>>();
    let stats = dual.stats();
    let (mut tests, mut found) = (0u64, 0u64);
    let mut order = Vec::new();
    recursive(
        &graph_a,
        root_a.index(),
        &graph_b,
        root_b.index(),
        &mut filter,
        &mut tests,
        &mut |a, b| {
            found += 1;
            order.push((a, b));
            false
        },
    );
    assert_eq!((tests, found), (stats.pair_tests, stats.pairs_found));
    assert_eq!(order, all, "same pairs in the same order");
    eprintln!(
        "dual_tree: {LEAVES} x {LEAVES} leaves, {} pair tests, {} leaf pairs, max stack {}",
        stats.pair_tests, stats.pairs_found, stats.max_stack
    );

    dual.reset(&graph_a, root_a, &graph_b, root_b)
        .expect("roots are live");
    let first = dual.first_hit(&graph_a, &graph_b, &mut filter);
    let first_tests = dual.stats().pair_tests;
    let mut tests = 0;
    let mut first_rec = None;
    recursive(
        &graph_a,
        root_a.index(),
        &graph_b,
        root_b.index(),
        &mut filter,
        &mut tests,
        &mut |a, b| {
            first_rec = Some((a, b));
            true
        },
    );
    assert_eq!((first, first_tests), (first_rec, tests));

    let mut group = c.benchmark_group("find_all");
    group.throughput(Throughput::Elements(stats.pair_tests));
    group.bench_function("dual_tree_next", |bench| {
        bench.iter(|| {
            dual.reset(&graph_a, root_a, &graph_b, root_b)
                .expect("roots are live");
            let mut n = 0u64;
            while let Some(pair) = dual.next(black_box(&graph_a), black_box(&graph_b), &mut filter)
            {
                black_box(pair);
                n += 1;
            }
            black_box(n)
        })
    });
    group.bench_function("dual_tree_iter", |bench| {
        bench.iter(|| {
            dual.reset(&graph_a, root_a, &graph_b, root_b)
                .expect("roots are live");
            black_box(
                dual.iter(black_box(&graph_a), black_box(&graph_b), &mut filter)
                    .count(),
            )
        })
    });
    group.bench_function("recursive", |bench| {
        bench.iter(|| {
            let (mut tests, mut n) = (0u64, 0u64);
            recursive(
                black_box(&graph_a),
                root_a.index(),
                black_box(&graph_b),
                root_b.index(),
                &mut filter,
                &mut tests,
                &mut |a, b| {
                    black_box((a, b));
                    n += 1;
                    false
                },
            );
            black_box((tests, n))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("first_hit");
    group.throughput(Throughput::Elements(first_tests));
    group.bench_function("dual_tree", |bench| {
        bench.iter(|| {
            dual.reset(&graph_a, root_a, &graph_b, root_b)
                .expect("roots are live");
            black_box(dual.first_hit(black_box(&graph_a), black_box(&graph_b), &mut filter))
        })
    });
    group.bench_function("recursive", |bench| {
        bench.iter(|| {
            let mut tests = 0u64;
            let mut hit = None;
            recursive(
                black_box(&graph_a),
                root_a.index(),
                black_box(&graph_b),
                root_b.index(),
                &mut filter,
                &mut tests,
                &mut |a, b| {
                    hit = Some((a, b));
                    true
                },
            );
            black_box(hit)
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = dual_tree
}
criterion_main!(benches);
