//! Pre-order traversal of one 1,000,000-node tree, several ways (see docs/benchmarks.md):
//!
//! - `raw_links_loop`: the stackless first-child / next-sibling loop (reference note
//!   000) over bare `[u32; 3]` records: the baseline;
//! - `graph_links_loop`: the same loop over scenewalk's `Graph` through
//!   `first_child_at` / `next_sibling_at` / `parent_at`;
//! - `graph_next_preorder_at`: the same walk through `Graph::next_preorder_at`;
//! - `action_depth_first_count`: `Action<DepthFirst, (Unordered<Count>,)>`, the
//!   framework with one uniform counting actor;
//! - `action_depth_first_empty`: the same action with no actor at all (iterator and
//!   action overhead alone);
//! - `vec_children_recursive`: a recursive walk over nested `Vec` children;
//! - `*_scattered`: the raw loop and the counting action again, on the same tree with
//!   its records in random slots (`TreeShape::scattered`), to show what the layout
//!   costs.
//!
//! Every variant walks the same tree (the first 1,000,000 nodes of a complete 4-ary
//! tree, records in depth-first order unless scattered) and counts the nodes it
//! visits. Throughput is in nodes, so criterion's "thrpt" is nodes per second.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenewalk_core::{Action, ActiveList, Flow, RunContext, Unordered, UnorderedActor, Visit};
use scenewalk_examples::TreeShape;
use scenewalk_examples::baseline::{graph_preorder_links, graph_preorder_steps};
use scenewalk_iterators::DepthFirst;
use std::hint::black_box;
use std::time::Duration;

const NODES: usize = 1_000_000;
const FANOUT: usize = 4;
const SCATTER_SEED: u64 = 0x5CA7;

/// Counts every node it enters: the uniform actor with the least work.
struct Count(u64);

impl UnorderedActor for Count {
    fn begin(&mut self, _run: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.0 = 0;
        Ok(())
    }
    #[inline]
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

fn traversal(c: &mut Criterion) {
    let shape = TreeShape::complete(NODES, FANOUT);
    let (graph, root) = shape.to_graph();
    let links = shape.to_links();
    let vec_tree = shape.to_vec_tree();
    let scattered = shape.scattered(SCATTER_SEED);
    let (scattered_graph, scattered_root) = scattered.to_graph();
    let scattered_links = scattered.to_links();
    let mut count_action = Action::new(DepthFirst::new(), (Unordered::new(Count(0)),))
        .expect("a uniform enter-only actor runs under DepthFirst");
    let mut empty_action =
        Action::new(DepthFirst::new(), ()).expect("an empty chain runs anywhere");

    // Every variant must see the whole tree, or the comparison means nothing.
    let mut raw = 0u64;
    links.preorder(0, |_| raw += 1);
    assert_eq!(raw, NODES as u64);
    let mut by_links = 0u64;
    graph_preorder_links(&graph, root.index(), |_| by_links += 1);
    assert_eq!(by_links, NODES as u64);
    let mut by_steps = 0u64;
    graph_preorder_steps(&graph, root.index(), |_| by_steps += 1);
    assert_eq!(by_steps, NODES as u64);
    count_action.run(&graph, root).expect("root is live");
    assert_eq!(
        count_action.actor::<Count>().map(|c| c.0),
        Some(NODES as u64)
    );
    assert_eq!(
        empty_action
            .run(&graph, root)
            .expect("root is live")
            .entered,
        NODES as u64
    );
    assert_eq!(vec_tree.count(), NODES);
    let mut scattered_raw = 0u64;
    scattered_links.preorder(0, |_| scattered_raw += 1);
    assert_eq!(scattered_raw, NODES as u64);
    let scattered_run = count_action.run(&scattered_graph, scattered_root);
    assert_eq!(scattered_run.expect("root is live").entered, NODES as u64);

    let mut group = c.benchmark_group("preorder_1M");
    group.throughput(Throughput::Elements(NODES as u64));

    group.bench_function("raw_links_loop", |b| {
        b.iter(|| {
            let mut n = 0u64;
            black_box(&links).preorder(0, |_| n += 1);
            black_box(n)
        })
    });

    group.bench_function("graph_links_loop", |b| {
        b.iter(|| {
            let mut n = 0u64;
            graph_preorder_links(black_box(&graph), root.index(), |_| n += 1);
            black_box(n)
        })
    });

    group.bench_function("graph_next_preorder_at", |b| {
        b.iter(|| {
            let mut n = 0u64;
            graph_preorder_steps(black_box(&graph), root.index(), |_| n += 1);
            black_box(n)
        })
    });

    group.bench_function("action_depth_first_count", |b| {
        b.iter(|| {
            let stats = count_action
                .run(black_box(&graph), root)
                .expect("root is live");
            black_box(stats);
            black_box(count_action.actor::<Count>().map(|c| c.0))
        })
    });

    group.bench_function("action_depth_first_empty", |b| {
        b.iter(|| {
            black_box(
                empty_action
                    .run(black_box(&graph), root)
                    .expect("root is live"),
            )
        })
    });

    group.bench_function("vec_children_recursive", |b| {
        b.iter(|| {
            let mut n = 0u64;
            black_box(&vec_tree).preorder(&mut |_| n += 1);
            black_box(n)
        })
    });

    group.bench_function("raw_links_loop_scattered", |b| {
        b.iter(|| {
            let mut n = 0u64;
            black_box(&scattered_links).preorder(0, |_| n += 1);
            black_box(n)
        })
    });

    group.bench_function("action_depth_first_count_scattered", |b| {
        b.iter(|| {
            let stats = count_action
                .run(black_box(&scattered_graph), scattered_root)
                .expect("root is live");
            black_box(stats);
            black_box(count_action.actor::<Count>().map(|c| c.0))
        })
    });

    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = traversal
}
criterion_main!(benches);
