//! World transforms (one ordered actor) on a 1,000,000-node tree under every order
//! that supports ordered state (see docs/benchmarks.md):
//!
//! - `depth_first`: `DepthFirst`, states on a stack by depth (the baseline);
//! - `priority`: `PriorityQueue`, pseudo-random keys, states in shared frames;
//! - `hybrid`: priority down to depth 4, depth-first below.
//!
//! Each run also prints the state copies it made next to the number of transform
//! nodes: copies follow state changes, not nodes or order.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenewalk_actors::WorldTransforms;
use scenewalk_core::{
    Action, ActiveList, Flow, Graph, NodeId, Ordered, Static, StaticActor, TraversalIterator, Visit,
};
use scenewalk_examples::TreeShape;
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{random_geometry, random_transform};
use scenewalk_iterators::{DepthFirst, PriorityQueue, SwitchRule};
use scenewalk_nodes::{Group, Transform};
use std::time::Duration;

const NODES: usize = 1_000_000;

/// Gives every child a pseudo-random key, so the priority order is far from
/// document order.
struct Scatter;

impl StaticActor for Scatter {
    #[inline]
    fn enter(&self, _visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        for mut entry in active.iter_mut() {
            let h = (entry.node().raw() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            entry.set_key(h as f32);
        }
        Flow::Continue
    }
}

/// A quad tree of 1,000,000 nodes in depth-first order: every third node a
/// transform, every third a geometry leaf (leaves of the shape), the rest groups.
fn scene() -> (Graph, NodeId, usize) {
    let shape = TreeShape::complete(NODES, 4);
    let children = shape.child_counts();
    let mut rng = SplitMix64::new(42);
    let mut graph = Graph::with_capacity(NODES);
    let mut ids: Vec<NodeId> = Vec::with_capacity(NODES);
    let mut transforms = 0;
    for (i, &parent) in shape.parents().iter().enumerate() {
        let id = if i == 0 {
            graph.add_root(Group)
        } else {
            let parent = ids[parent as usize];
            let added = match (children[i], i % 3) {
                (0, _) => graph.append_child(parent, random_geometry(&mut rng)),
                (_, 0) => {
                    transforms += 1;
                    graph.append_child(parent, random_transform(&mut rng))
                }
                _ => graph.append_child(parent, Group),
            };
            added.expect("parents precede children")
        };
        ids.push(id);
    }
    (graph, ids[0], transforms)
}

fn action<I: TraversalIterator>(
    iterator: I,
) -> Action<I, (Static<Scatter>, Ordered<WorldTransforms>)> {
    Action::new(
        iterator,
        (Static::new(Scatter), Ordered::new(WorldTransforms::new())),
    )
    .expect("an ordered actor runs under every iterator here")
}

fn orders(c: &mut Criterion) {
    let (graph, root, transforms) = scene();
    assert!(graph.get::<Transform>(root).is_err());
    let mut depth_first = action(DepthFirst::new());
    let mut priority = action(PriorityQueue::new());
    let mut hybrid = action(PriorityQueue::hybrid(SwitchRule::AtDepth(4)));
    for (name, stats) in [
        ("depth_first", depth_first.run(&graph, root)),
        ("priority", priority.run(&graph, root)),
        ("hybrid", hybrid.run(&graph, root)),
    ] {
        let stats = stats.expect("the root is live");
        assert_eq!(stats.entered, NODES as u64);
        assert_eq!(stats.state_copies, transforms as u64);
        println!(
            "orders/{name}: {} nodes, {} transform nodes, {} state copies",
            stats.entered, transforms, stats.state_copies
        );
    }

    let mut group = c.benchmark_group("orders");
    group.throughput(Throughput::Elements(NODES as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("depth_first", |b| b.iter(|| depth_first.run(&graph, root)));
    group.bench_function("priority", |b| b.iter(|| priority.run(&graph, root)));
    group.bench_function("hybrid", |b| b.iter(|| hybrid.run(&graph, root)));
    group.finish();
}

criterion_group!(benches, orders);
criterion_main!(benches);
