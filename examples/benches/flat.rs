//! World-transform propagation over one 1,000,000-node tree (every node a random TRS
//! `Transform`, records in depth-first order), four ways:
//!
//! - `raw_linear_loop`: a bare loop over a prebuilt `Vec<u32>` of parent indices and a
//!   `Vec<Affine3A>` of locals, `world[i] = world[parent[i]] * local[i]`: the practical
//!   limit;
//! - `flattened_propagate`: `Flattened::propagate` over locals gathered once (the same
//!   loop behind the flattening's API);
//! - `flattened_gather_typed_propagate`: the same, reading payloads through a typed
//!   column kept by `Typed::keep` once per pass;
//! - `flattened_gather_propagate`: gathering the locals from the graph's payloads, then
//!   propagating: the per-frame cost when payloads change but the structure does not;
//! - `action_depth_first_world`: `Action<DepthFirst, (Ordered<WorldTransforms>,)>`, the
//!   framework's matrix-stack traversal;
//! - `action_flattened_world`: the same actor under `Flattened` as the action's
//!   iterator (built once, reused while the graph is unchanged).
//!
//! Throughput is in nodes.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenewalk_actors::WorldTransforms;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Action, Graph, NodeId, Ordered, Typed};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{random_dfs_parents, random_mild_transform};
use scenewalk_iterators::{DepthFirst, Flattened};
use scenewalk_nodes::Transform;
use std::hint::black_box;
use std::time::Duration;

const NODES: usize = 1_000_000;
/// Depth bound of the generated tree.
const MAX_DEPTH: usize = 24;

/// The world transforms by the bare loop; `out` is cleared first. Written the way a
/// careful hand loop would be (iterators, so no bounds checks on `parents` / `locals`).
#[inline(never)]
fn raw_linear_loop(parents: &[u32], locals: &[Affine3A], out: &mut Vec<Affine3A>) {
    out.clear();
    out.reserve(locals.len());
    out.push(locals[0]);
    for (&parent, local) in parents[1..].iter().zip(&locals[1..]) {
        let above = out[parent as usize];
        out.push(above * *local);
    }
}

fn flat(c: &mut Criterion) {
    let mut rng = SplitMix64::new(0x5EED);
    let parents = random_dfs_parents(NODES, MAX_DEPTH, &mut rng);
    let mut graph = Graph::with_capacity(NODES);
    let mut ids: Vec<NodeId> = Vec::with_capacity(NODES);
    let mut locals = Vec::with_capacity(NODES);
    for &p in &parents {
        let t = random_mild_transform(&mut rng);
        locals.push(*t.local());
        let id = match p {
            u32::MAX => graph.add_root(t),
            p => graph
                .append_child(ids[p as usize], t)
                .expect("parents precede children"),
        };
        ids.push(id);
    }
    let root = ids[0];

    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).expect("root is live");
    assert_eq!(flat.len(), NODES);
    assert_eq!(
        flat.parents(),
        parents,
        "the graph was built in depth-first order"
    );
    let mut gathered = flat.gather(|n| {
        graph
            .get_at::<Transform>(n)
            .map_or(Affine3A::IDENTITY, |t| *t.local())
    });
    assert_eq!(gathered, locals);

    // Every variant must compute the same matrices.
    let mut by_raw = Vec::new();
    raw_linear_loop(&parents, &locals, &mut by_raw);
    let mut by_flat = Vec::new();
    flat.propagate(Affine3A::IDENTITY, &locals, &mut by_flat, |p, l| *p * *l)
        .expect("one local per position");
    assert_eq!(by_flat, by_raw);
    let mut depth_first = Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),))
        .expect("ordered actors run depth-first");
    let mut flattened = Action::new(Flattened::new(), (Ordered::new(WorldTransforms::new()),))
        .expect("ordered actors run over the flattening");
    for action_world in [
        {
            depth_first.run(&graph, root).expect("root is live");
            depth_first
                .actor::<WorldTransforms>()
                .map(|w| w.table().at(ids[NODES - 1].index()))
        },
        {
            flattened.run(&graph, root).expect("root is live");
            flattened
                .actor::<WorldTransforms>()
                .map(|w| w.table().at(ids[NODES - 1].index()))
        },
    ] {
        assert_eq!(action_world.flatten(), Some(by_raw[NODES - 1]));
    }

    let mut group = c.benchmark_group("world_transforms_1M");
    group.throughput(Throughput::Elements(NODES as u64));

    let mut out = Vec::with_capacity(NODES);
    group.bench_function("raw_linear_loop", |b| {
        b.iter(|| {
            raw_linear_loop(black_box(&parents), black_box(&locals), &mut out);
            black_box(out.last().copied())
        })
    });

    group.bench_function("flattened_propagate", |b| {
        b.iter(|| {
            black_box(&flat)
                .propagate(Affine3A::IDENTITY, black_box(&locals), &mut out, |p, l| {
                    *p * *l
                })
                .expect("one local per position");
            black_box(out.last().copied())
        })
    });

    group.bench_function("flattened_gather_propagate", |b| {
        b.iter(|| {
            let flat = black_box(&flat);
            flat.gather_into(&mut gathered, |n| {
                graph
                    .get_at::<Transform>(n)
                    .map_or(Affine3A::IDENTITY, |t| *t.local())
            });
            flat.propagate(Affine3A::IDENTITY, &gathered, &mut out, |p, l| *p * *l)
                .expect("one local per position");
            black_box(out.last().copied())
        })
    });

    let mut transforms = Typed::<Transform>::new();
    group.bench_function("flattened_gather_typed_propagate", |b| {
        b.iter(|| {
            let flat = black_box(&flat);
            transforms.keep(&graph);
            flat.gather_into(&mut gathered, |n| {
                transforms
                    .get_at(&graph, n)
                    .map_or(Affine3A::IDENTITY, |t| *t.local())
            });
            transforms.release();
            flat.propagate(Affine3A::IDENTITY, &gathered, &mut out, |p, l| *p * *l)
                .expect("one local per position");
            black_box(out.last().copied())
        })
    });

    group.bench_function("action_depth_first_world", |b| {
        b.iter(|| {
            black_box(
                depth_first
                    .run(black_box(&graph), root)
                    .expect("root is live"),
            )
        })
    });

    group.bench_function("action_flattened_world", |b| {
        b.iter(|| {
            black_box(
                flattened
                    .run(black_box(&graph), root)
                    .expect("root is live"),
            )
        })
    });

    group.finish();
    assert_eq!(
        flattened.iterator().rebuilds(),
        1,
        "the flattening was never rebuilt"
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(15)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = flat
}
criterion_main!(benches);
