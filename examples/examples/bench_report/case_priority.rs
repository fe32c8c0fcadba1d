//! Case d: best-first order (a key per node, highest first) by the action and by the
//! `by_priority` iterator, against a hand-written binary-heap loop.

use crate::Config;
use crate::bytes::{held, same_checksums};
use scenewalk_core::{Action, ActiveList, Flow, Static, StaticActor, Visit};
use scenewalk_examples::TreeShape;
use scenewalk_examples::baseline::Links;
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_iterators::{PriorityQueue, Walk};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A pseudo-random whole-number key below 2²⁴ (exact as an `f32`), far from document
/// order.
#[inline]
fn key(node: u32) -> u32 {
    ((u64::from(node)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as u32
}

/// Gives every child its key.
struct Keying;

impl StaticActor for Keying {
    #[inline]
    fn enter(&self, _visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        for mut entry in active.iter_mut() {
            entry.set_key(key(entry.node().raw()) as f32);
        }
        Flow::Continue
    }
}

/// The hand-written loop: a heap of (key, arrival, node), children pushed as their
/// parent comes out; ties by arrival like `PriorityQueue`.
#[inline]
fn hand_heap(
    links: &Links,
    heap: &mut BinaryHeap<(u32, Reverse<u32>, u32)>,
    mut visit: impl FnMut(u32),
) -> u64 {
    const NIL: u32 = u32::MAX;
    let records = links.records();
    heap.clear();
    heap.push((0, Reverse(0), 0));
    let (mut seq, mut count) = (1u32, 0u64);
    while let Some((_, _, node)) = heap.pop() {
        visit(node);
        count += 1;
        let mut child = records[node as usize][Links::FIRST_CHILD];
        while child != NIL {
            heap.push((key(child), Reverse(seq), child));
            seq += 1;
            child = records[child as usize][Links::NEXT_SIBLING];
        }
    }
    count
}

/// Runs case d.
pub fn run(config: &Config) -> Vec<Row> {
    let n = if config.quick { 200_000 } else { 1_000_000 };
    let case = format!("d. priority {:.1}M", n as f64 / 1e6);
    let shape = TreeShape::complete(n, 4);
    let (links, links_bytes) = held(|| shape.to_links());
    let ((graph, root), graph_bytes) = held(|| shape.to_graph());
    let mut action = Action::new(PriorityQueue::new(), (Static::new(Keying),))
        .expect("a static actor runs under every order");
    let (_, action_bytes) = held(|| action.run(&graph, root).expect("root is live"));
    let mut heap = BinaryHeap::new();
    let (_, heap_bytes) = held(|| hand_heap(&links, &mut heap, |_| {}));

    // Same order from all three, not only the same count.
    let mut by_hand = Vec::with_capacity(n);
    hand_heap(&links, &mut BinaryHeap::new(), |node| by_hand.push(node));
    let by_iter: Vec<u32> = graph
        .by_priority(root, |node| key(node.raw()) as f32)
        .expect("root is live")
        .map(|node| node.map(|n| n.raw()))
        .collect::<Result<_, _>>()
        .expect("no NaN key");
    assert_eq!(by_iter, by_hand, "by_priority and the hand heap disagree");

    let graph = &graph;
    let mut contenders = vec![
        (
            Contender::new("hand_binary_heap_loop", n as u64, || {
                hand_heap(&links, &mut heap, |_| {})
            }),
            links_bytes + heap_bytes,
        ),
        (
            Contender::new("action_priority_queue_keying", n as u64, move || {
                action.run(graph, root).expect("root is live").entered
            }),
            graph_bytes + action_bytes,
        ),
        (
            Contender::new("graph.by_priority(root)", n as u64, move || {
                graph
                    .by_priority(root, |node| key(node.raw()) as f32)
                    .expect("root is live")
                    .filter(Result::is_ok)
                    .count() as u64
            }),
            graph_bytes,
        ),
    ];
    same_checksums(&case, &mut contenders);
    let mut contenders: Vec<Contender<'_>> = contenders.into_iter().map(|(c, _)| c).collect();
    let measured = round_robin(&mut contenders, config.reps());
    Row::from_measured(&case, &measured, "hand_binary_heap_loop")
}
