//! Case e: every overlapping leaf pair of two BVHs, `DualTree` (explicit stack)
//! against the recursive descent of note 002. Elements are pair tests.

use crate::Config;
use crate::bytes::{held, same_checksums};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Graph, NodeId, NodeIndex};
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_iterators::{AabbOverlap, DualTree, PairFilter};
use scenewalk_nodes::{Geometry, Group};

/// Side of the world cube the boxes lie in.
const WORLD: f32 = 1000.0;
/// Largest box side.
const SIZE: f32 = 20.0;

/// A binary BVH over `leaves` random boxes: the graph, its root and each node's box.
fn bvh(leaves: usize, seed: u64) -> (Graph, NodeId, Vec<Aabb>) {
    let mut rng = SplitMix64::new(seed);
    let mut v = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32());
    let mut boxes: Vec<Aabb> = (0..leaves)
        .map(|_| {
            let corner = v() * WORLD;
            Aabb::new(corner, corner + v() * SIZE)
        })
        .collect();
    let mut graph = Graph::with_capacity(2 * leaves);
    let mut table = vec![Aabb::EMPTY; 2 * leaves];
    let root = build(&mut graph, None, &mut boxes, &mut table);
    (graph, root, table)
}

/// Median split on the longest axis of the centroids, depth-first; recursion depth
/// is about log2(leaves).
fn build(
    graph: &mut Graph,
    parent: Option<NodeId>,
    items: &mut [Aabb],
    table: &mut [Aabb],
) -> NodeId {
    let add = |graph: &mut Graph, leaf: Option<Aabb>| {
        let added = match (parent, leaf) {
            (Some(p), Some(b)) => graph.append_child(p, Geometry::new(b)),
            (Some(p), None) => graph.append_child(p, Group),
            (None, Some(b)) => Ok(graph.add_root(Geometry::new(b))),
            (None, None) => Ok(graph.add_root(Group)),
        };
        added.expect("parent is live")
    };
    if let [leaf] = items {
        let node = add(graph, Some(*leaf));
        table[node.index().get()] = *leaf;
        return node;
    }
    let node = add(graph, None);
    let extent = Aabb::from_points(items.iter().map(Aabb::center)).size();
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
    table[node.index().get()] = table[a.index().get()].union(&table[b.index().get()]);
    node
}

/// Note 002's recursive descent, n-ary like `DualTree`: test, then report a leaf
/// pair, or descend the internal side, or every child pair.
fn recursive<F: PairFilter>(
    (ga, a): (&Graph, NodeIndex),
    (gb, b): (&Graph, NodeIndex),
    filter: &mut F,
    tests: &mut u64,
    found: &mut u64,
) {
    *tests += 1;
    if !filter.test(a, b) {
        return;
    }
    match (ga.first_child_at(a), gb.first_child_at(b)) {
        (None, None) => *found += 1,
        (Some(first), None) => {
            let mut child = Some(first);
            while let Some(c) = child {
                recursive((ga, c), (gb, b), filter, tests, found);
                child = ga.next_sibling_at(c);
            }
        }
        (None, Some(first)) => {
            let mut child = Some(first);
            while let Some(c) = child {
                recursive((ga, a), (gb, c), filter, tests, found);
                child = gb.next_sibling_at(c);
            }
        }
        (Some(first_a), Some(first_b)) => {
            let mut child_a = Some(first_a);
            while let Some(ca) = child_a {
                let mut child_b = Some(first_b);
                while let Some(cb) = child_b {
                    recursive((ga, ca), (gb, cb), filter, tests, found);
                    child_b = gb.next_sibling_at(cb);
                }
                child_a = ga.next_sibling_at(ca);
            }
        }
    }
}

/// Runs case e.
pub fn run(config: &Config) -> Vec<Row> {
    let leaves = if config.quick { 20_000 } else { 100_000 };
    let case = format!("e. dual tree {}k", leaves / 1000);
    let ((ga, ra, ta), bytes_a) = held(|| bvh(leaves, 1));
    let ((gb, rb, tb), bytes_b) = held(|| bvh(leaves, 2));
    let bytes = bytes_a + bytes_b;
    let mut dual = DualTree::new();
    dual.reset(&ga, ra, &gb, rb).expect("roots are live");
    let mut filter = AabbOverlap::new(&ta, &tb);
    let found = dual.iter(&ga, &gb, &mut filter).count() as u64;
    let tests = dual.stats().pair_tests;
    let (mut t, mut f) = (0, 0);
    recursive(
        (&ga, ra.index()),
        (&gb, rb.index()),
        &mut filter,
        &mut t,
        &mut f,
    );
    assert_eq!((t, f), (tests, found), "both ways must do the same work");

    let (ga, gb, ta, tb) = (&ga, &gb, &ta, &tb);
    let mut contenders = vec![
        (
            Contender::new("recursive", tests, move || {
                let mut filter = AabbOverlap::new(ta, tb);
                let (mut t, mut f) = (0, 0);
                recursive(
                    (ga, ra.index()),
                    (gb, rb.index()),
                    &mut filter,
                    &mut t,
                    &mut f,
                );
                f
            }),
            bytes,
        ),
        (
            Contender::new("dual_tree_next", tests, move || {
                let mut filter = AabbOverlap::new(ta, tb);
                dual.reset(ga, ra, gb, rb).expect("roots are live");
                let mut f = 0;
                while dual.next(ga, gb, &mut filter).is_some() {
                    f += 1;
                }
                f
            }),
            bytes,
        ),
    ];
    same_checksums(&case, &mut contenders);
    // Elements here are pair tests: bytes per pair test would mean nothing.
    let mut contenders: Vec<Contender<'_>> = contenders
        .into_iter()
        .map(|(mut c, _)| {
            c.bytes_per_node = None;
            c
        })
        .collect();
    let measured = round_robin(&mut contenders, config.reps());
    Row::from_measured(&case, &measured, "recursive")
}
