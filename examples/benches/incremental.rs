//! Incremental updates against full ones on a 1,000,000-node tree: the first
//! 1,000,000 nodes of a complete 4-ary tree in depth-first order, every third node a
//! `Transform` (random TRS), the other inner nodes `Group`s and the other leaves
//! `Geometry` (random boxes).
//!
//! - `full`: `IncrementalUpdate::run_full`, the update pass (`WorldTransforms` and
//!   `Bounds` under `DepthFirst`) over every node;
//! - `incremental_1pct`: `IncrementalUpdate::run` after 1% of the transforms (3,333,
//!   picked at random, a new set each iteration) got a new local matrix;
//! - `incremental_1pct_clustered`: the same number of changed transforms, but
//!   consecutive ones in slot (= document) order, as when one region of a scene
//!   moves: the same amount of work with memory locality;
//! - `incremental_root`: the same after one change of a transform just below the root
//!   (a quarter of the tree below it);
//! - `incremental_leaf`: the same after one change of the last transform in slot
//!   order, a leaf: the fixed cost of an update.
//!
//! Only the update is timed (`iter_custom`); the edits before it are not. Throughput is
//! in tree nodes, so the figures compare directly.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenewalk_actors::IncrementalUpdate;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Graph, NodeId};
use scenewalk_examples::TreeShape;
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{random_geometry, random_transform};
use scenewalk_nodes::{Group, Transform};
use std::hint::black_box;
use std::time::{Duration, Instant};

const NODES: usize = 1_000_000;

/// The bench tree, and its transform nodes in slot order.
fn scene() -> (Graph, NodeId, Vec<NodeId>) {
    let shape = TreeShape::complete(NODES, 4);
    let children = shape.child_counts();
    let mut rng = SplitMix64::new(9);
    let mut graph = Graph::with_capacity(NODES);
    let mut ids: Vec<NodeId> = Vec::with_capacity(NODES);
    let mut transforms = Vec::new();
    for (i, &p) in shape.parents().iter().enumerate() {
        let id = if i == 0 {
            graph.add_root(Group)
        } else {
            let parent = ids[p as usize];
            let added = if i % 3 == 1 {
                graph.append_child(parent, random_transform(&mut rng))
            } else if children[i] == 0 {
                graph.append_child(parent, random_geometry(&mut rng))
            } else {
                graph.append_child(parent, Group)
            };
            added.expect("a shape's parents precede their children")
        };
        if i % 3 == 1 {
            transforms.push(id);
        }
        ids.push(id);
    }
    (graph, ids[0], transforms)
}

/// Times `update` alone, after `edit` before each call.
fn timed(
    iters: u64,
    graph: &mut Graph,
    mut edit: impl FnMut(&mut Graph, u64),
    mut update: impl FnMut(&Graph),
) -> Duration {
    let mut total = Duration::ZERO;
    for k in 0..iters {
        edit(graph, k);
        let start = Instant::now();
        update(graph);
        total += start.elapsed();
    }
    total
}

fn set(graph: &mut Graph, node: NodeId, k: u64) {
    let m = Affine3A::from_translation(Vec3::new(k as f32 * 1e-3, 0.5, -0.25));
    graph
        .get_mut::<Transform>(node)
        .expect("a transform")
        .set_local(m);
}

fn incremental(c: &mut Criterion) {
    let (mut graph, root, transforms) = scene();
    let mut rng = SplitMix64::new(17);
    let sets: Vec<Vec<NodeId>> = (0..32)
        .map(|_| {
            (0..transforms.len() / 100)
                .map(|_| transforms[rng.below(transforms.len())])
                .collect()
        })
        .collect();
    let near_root = transforms[0];
    let near_leaf = *transforms.last().expect("transforms");
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).expect("runs");

    let mut group = c.benchmark_group("incremental");
    group.throughput(Throughput::Elements(NODES as u64));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("full", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut graph,
                |g, k| {
                    for &n in &sets[k as usize % sets.len()] {
                        set(g, n, k);
                    }
                },
                |g| {
                    black_box(update.run_full(g, root).expect("runs"));
                },
            )
        })
    });
    let clustered: Vec<Vec<NodeId>> = (0..32)
        .map(|_| {
            let count = transforms.len() / 100;
            let first = rng.below(transforms.len() - count);
            transforms[first..first + count].to_vec()
        })
        .collect();
    for (name, sets) in [
        ("incremental_1pct", &sets),
        ("incremental_1pct_clustered", &clustered),
    ] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut graph,
                    |g, k| {
                        for &n in &sets[k as usize % sets.len()] {
                            set(g, n, k);
                        }
                    },
                    |g| {
                        let stats = update.run(g, root).expect("runs");
                        assert!(!stats.full);
                        black_box(stats);
                    },
                )
            })
        });
    }
    for (name, node) in [
        ("incremental_root", near_root),
        ("incremental_leaf", near_leaf),
    ] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut graph,
                    |g, k| set(g, node, k),
                    |g| {
                        let stats = update.run(g, root).expect("runs");
                        assert!(!stats.full);
                        black_box(stats);
                    },
                )
            })
        });
    }
    group.finish();

    // What the updates touch, for the write-up.
    let mut probe = |label: &str, nodes: &[NodeId]| {
        for &n in nodes {
            set(&mut graph, n, 1);
        }
        let stats = update.run(&graph, root).expect("runs");
        eprintln!("{label}: {stats:?}");
    };
    probe("1pct", &sets[0]);
    probe("1pct_clustered", &clustered[0]);
    probe("root", &[near_root]);
    probe("leaf", &[near_leaf]);
}

criterion_group!(benches, incremental);
criterion_main!(benches);
