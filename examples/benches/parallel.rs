//! One traversal on all cores against the sequential one (see docs/benchmarks.md,
//! section "Parallel traversal"):
//!
//! - `world_1M/<shape>`: world transforms by `Flattened::propagate` (`seq`) and
//!   `propagate_parallel` in a 1-thread pool (`par_t1`) and a 2-thread pool (`par_t2`,
//!   all cores of the benchmark machine);
//! - `bounds_1M/<shape>`: world transforms, each node's own world box, then subtree
//!   boxes by `accumulate` / `accumulate_parallel`;
//! - `statistics_quad_22M` and `statistics_1M/<shape>`: `Action<DepthFirst,
//!   (Unordered<Statistics>,)>` by `run` and by `run_parallel`;
//! - `update_1M/<shape>`: the update pass (`passes::update_action`: ordered
//!   `WorldTransforms` and `Bounds`, unordered `Statistics`) by `run` and by
//!   `run_parallel` (ordered actors forked per subtree).
//!
//! Shapes, about 1,000,000 nodes each, built in depth-first order: `random` (random
//! depth walk, depth ≤ 24), `chain_bush` (a 100,000-node chain with a 900,000-node
//! random tree at its end), `giant` (2,000 small subtrees of 50 nodes beside one
//! 900,000-node subtree: a glTF scene with one huge mesh hierarchy) and `city` (the
//! examples' city, 80 × 80 blocks).
//!
//! Before criterion runs, every comparison is also timed **interleaved** (variants in
//! turn, 11 rounds, median), since the machine is shared: those ratios are printed as
//! `ratio <name> <variant>/seq = x`.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rayon::prelude::*;
use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, NodeIndex, ParallelChain, Unordered};
use scenewalk_examples::TreeShape;
use scenewalk_examples::passes::{UpdateAction, update_action};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{random_mild_transform, random_walk_parents};
use scenewalk_iterators::{DepthFirst, Flattened};
use scenewalk_nodes::{Geometry, Transform};
use std::hint::black_box;
use std::time::{Duration, Instant};

const NODES: usize = 1_000_000;
const MAX_DEPTH: usize = 24;

fn shape(name: &str, rng: &mut SplitMix64) -> Vec<u32> {
    let mut parents = vec![u32::MAX];
    match name {
        "random" => random_walk_parents(&mut parents, 0, NODES - 1, MAX_DEPTH, rng),
        "chain_bush" => {
            for i in 1..100_000u32 {
                parents.push(i - 1);
            }
            random_walk_parents(&mut parents, 99_999, NODES - 100_000, MAX_DEPTH, rng);
        }
        _ => {
            for k in 0..2_000 {
                if k == 1_000 {
                    let giant = parents.len() as u32;
                    parents.push(0);
                    random_walk_parents(&mut parents, giant, 900_000 - 1, MAX_DEPTH, rng);
                }
                let small = parents.len() as u32;
                parents.push(0);
                random_walk_parents(&mut parents, small, 49, MAX_DEPTH, rng);
            }
        }
    }
    parents
}

/// A scene: its graph, root, flattening, locals and own boxes in flattened order.
struct Scene {
    graph: Graph,
    root: NodeId,
    flat: Flattened,
    locals: Vec<Affine3A>,
    boxes: Vec<Aabb>,
}

fn scene(name: &str) -> Scene {
    let mut rng = SplitMix64::new(0x9A4);
    let (graph, root) = if name == "city" {
        scenewalk_examples::city(80, 80, 3)
    } else {
        TreeShape::from_parents(shape(name, &mut rng))
            .expect("parents precede children")
            .to_graph()
    };
    let flat = Flattened::build(&graph, root).expect("root is live");
    let locals = flat.gather(|n| match graph.get_at::<Transform>(n) {
        Some(t) => *t.local(),
        None if name == "city" => Affine3A::IDENTITY,
        None => *random_mild_transform(&mut rng).local(),
    });
    let boxes = flat.gather(|n| match graph.get_at::<Geometry>(n) {
        Some(g) => *g.local_bounds(),
        None if name == "city" => Aabb::EMPTY,
        None => {
            let c = Vec3::splat(rng.range_f32(-1.0, 1.0));
            Aabb::new(c - 0.5, c + 0.5)
        }
    });
    Scene {
        graph,
        root,
        flat,
        locals,
        boxes,
    }
}

fn world(s: &Scene, parallel: bool, out: &mut Vec<Affine3A>) {
    let combine = |p: &Affine3A, l: &Affine3A| *p * *l;
    let result = if parallel {
        s.flat
            .propagate_parallel(Affine3A::IDENTITY, &s.locals, out, combine)
    } else {
        s.flat
            .propagate(Affine3A::IDENTITY, &s.locals, out, combine)
    };
    result.expect("one local per position");
}

fn bounds(
    s: &Scene,
    parallel: bool,
    world_out: &mut Vec<Affine3A>,
    own: &mut Vec<Aabb>,
    out: &mut Vec<Aabb>,
) {
    world(s, parallel, world_out);
    let union = |a: &Aabb, b: &Aabb| a.union(b);
    own.clear();
    let result = if parallel {
        s.boxes
            .par_iter()
            .zip(world_out.par_iter())
            .map(|(b, w)| b.transformed(w))
            .collect_into_vec(own);
        s.flat.accumulate_parallel(own, out, union)
    } else {
        own.extend(
            s.boxes
                .iter()
                .zip(world_out.iter())
                .map(|(b, w)| b.transformed(w)),
        );
        s.flat.accumulate(own, out, union)
    };
    result.expect("one box per position");
}

#[derive(Default)]
struct Bufs {
    world: Vec<Affine3A>,
    own: Vec<Aabb>,
    boxes: Vec<Aabb>,
}

impl Bufs {
    fn bounds(&mut self, s: &Scene, parallel: bool) {
        bounds(s, parallel, &mut self.world, &mut self.own, &mut self.boxes);
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// Times the variants in turn, `rounds` times; prints each one's median against the
/// first one's.
fn interleaved(name: &str, variants: &mut [(&str, &mut dyn FnMut())]) {
    let mut times = vec![Vec::new(); variants.len()];
    for _ in 0..11 {
        for (i, (_, run)) in variants.iter_mut().enumerate() {
            let start = Instant::now();
            run();
            times[i].push(start.elapsed());
        }
    }
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        t[t.len() / 2]
    };
    let base = median(&mut times[0]);
    for (i, (variant, _)) in variants.iter().enumerate() {
        let m = median(&mut times[i]);
        println!(
            "ratio {name} {variant}: {:.2} ms, seq/{variant} = {:.2}x",
            m.as_secs_f64() * 1e3,
            base.as_secs_f64() / m.as_secs_f64()
        );
    }
}

/// The benchmark filter given on the command line (`cargo bench ... -- update`), if
/// any: criterion applies it to its own groups, and the interleaved timings, which run
/// outside criterion, skip the groups it excludes too.
fn filter() -> Option<String> {
    // Criterion's options that take a value; their values are not filters.
    const VALUED: [&str; 10] = [
        "--warm-up-time",
        "--measurement-time",
        "--sample-size",
        "--save-baseline",
        "--baseline",
        "--load-baseline",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
    ];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if VALUED.contains(&arg.as_str()) {
            args.next();
        } else if !arg.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

/// Whether the group `name` passes the command line's filter (a substring, as
/// criterion matches it without `--exact`).
fn wanted(name: &str) -> bool {
    static FILTER: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    FILTER
        .get_or_init(filter)
        .as_deref()
        .is_none_or(|f| name.contains(f) || f.contains(name))
}

fn parallel(c: &mut Criterion) {
    let (t1, t2) = (pool(1), pool(2));
    for name in ["random", "chain_bush", "giant", "city"] {
        let groups = ["world_1M", "bounds_1M", "statistics_1M", "update_1M"];
        if !groups.iter().any(|g| wanted(&format!("{g}/{name}"))) {
            continue;
        }
        let s = scene(name);
        let n = s.flat.len() as u64;
        if wanted(&format!("statistics_1M/{name}")) {
            statistics(
                c,
                &format!("statistics_1M/{name}"),
                &s.graph,
                s.root,
                &t1,
                &t2,
            );
        }
        if wanted(&format!("update_1M/{name}")) {
            update(c, &format!("update_1M/{name}"), &s.graph, s.root, &t1, &t2);
        }
        if !wanted(&format!("world_1M/{name}")) && !wanted(&format!("bounds_1M/{name}")) {
            continue;
        }
        // Parallel and sequential results are the same, bit for bit.
        let (mut a, mut b) = (Vec::new(), Vec::new());
        world(&s, false, &mut a);
        t2.install(|| world(&s, true, &mut b));
        assert_eq!(a, b);
        let (mut wa, mut oa, mut ba, mut wb, mut ob, mut bb) = (
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        bounds(&s, false, &mut wa, &mut oa, &mut ba);
        t2.install(|| bounds(&s, true, &mut wb, &mut ob, &mut bb));
        assert_eq!(ba, bb);

        // One set of buffers per variant, so none pays for another's allocation.
        let mut bufs: [Bufs; 3] = Default::default();
        let [b0, b1, b2] = &mut bufs;
        interleaved(
            &format!("world_1M/{name} ({n} nodes)"),
            &mut [
                ("seq", &mut || world(&s, false, &mut b0.world)),
                ("par_t1", &mut || {
                    t1.install(|| world(&s, true, &mut b1.world))
                }),
                ("par_t2", &mut || {
                    t2.install(|| world(&s, true, &mut b2.world))
                }),
            ],
        );
        interleaved(
            &format!("bounds_1M/{name}"),
            &mut [
                ("seq", &mut || b0.bounds(&s, false)),
                ("par_t1", &mut || t1.install(|| b1.bounds(&s, true))),
                ("par_t2", &mut || t2.install(|| b2.bounds(&s, true))),
            ],
        );

        let mut group = c.benchmark_group(format!("world_1M/{name}"));
        group.throughput(Throughput::Elements(n));
        group.bench_function("seq", |bch| {
            bch.iter(|| world(black_box(&s), false, &mut a))
        });
        group.bench_function("par_t1", |bch| {
            bch.iter(|| t1.install(|| world(black_box(&s), true, &mut a)))
        });
        group.bench_function("par_t2", |bch| {
            bch.iter(|| t2.install(|| world(black_box(&s), true, &mut a)))
        });
        group.finish();
        let mut group = c.benchmark_group(format!("bounds_1M/{name}"));
        group.throughput(Throughput::Elements(n));
        group.bench_function("seq", |bch| {
            bch.iter(|| bounds(black_box(&s), false, &mut wa, &mut oa, &mut ba))
        });
        group.bench_function("par_t2", |bch| {
            bch.iter(|| t2.install(|| bounds(black_box(&s), true, &mut wa, &mut oa, &mut ba)))
        });
        group.finish();
    }
    if wanted("statistics_quad_22M") {
        let (graph, root) = scenewalk_examples::quad_tree(12);
        statistics(c, "statistics_quad_22M", &graph, root, &t1, &t2);
    }
}

fn statistics(
    c: &mut Criterion,
    name: &str,
    graph: &Graph,
    root: NodeId,
    t1: &rayon::ThreadPool,
    t2: &rayon::ThreadPool,
) {
    let new = || {
        Action::new(DepthFirst::new(), (Unordered::new(Statistics::new()),))
            .expect("unordered actors run depth-first")
    };
    let (mut seq, mut par, par1) = (new(), new(), new());
    let expect = seq.run(graph, root).expect("root is live");
    let start = Instant::now();
    let got = t2.install(|| par.run_parallel(graph, root).expect("Statistics forks"));
    println!(
        "first parallel run of {name} (counts subtree sizes): {:.2} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    assert_eq!((got.entered, got.left), (expect.entered, expect.left));
    let counts = |a: &Action<DepthFirst, (Unordered<Statistics>,)>| {
        let s = a.actor::<Statistics>().expect("in the chain");
        (s.nodes(), s.leaves(), s.depth_histogram().to_vec())
    };
    assert_eq!(counts(&seq), counts(&par));
    let pools = Pools { t1, t2 };
    seq_against_parallel(
        c,
        name,
        graph,
        root,
        &pools,
        [seq, par, par1],
        expect.entered,
    );
}

/// The one- and two-thread pools every comparison runs in.
struct Pools<'p> {
    t1: &'p rayon::ThreadPool,
    t2: &'p rayon::ThreadPool,
}

/// Times `run` against `run_parallel` on one and on two threads (interleaved), then
/// criterion's `seq` and `par_t2`, with the three actions `[seq, par_t2, par_t1]`.
fn seq_against_parallel<C: ParallelChain + Send>(
    c: &mut Criterion,
    name: &str,
    graph: &Graph,
    root: NodeId,
    pools: &Pools<'_>,
    [mut seq, mut par, mut par1]: [Action<DepthFirst, C>; 3],
    entered: u64,
) {
    let Pools { t1, t2 } = *pools;
    interleaved(
        name,
        &mut [
            ("seq", &mut || {
                seq.run(graph, root).expect("root is live");
            }),
            ("par_t1", &mut || {
                t1.install(|| par1.run_parallel(graph, root).expect("forks"));
            }),
            ("par_t2", &mut || {
                t2.install(|| par.run_parallel(graph, root).expect("forks"));
            }),
        ],
    );
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(entered));
    group.bench_function("seq", |b| b.iter(|| seq.run(black_box(graph), root)));
    group.bench_function("par_t2", |b| {
        b.iter(|| t2.install(|| par.run_parallel(black_box(graph), root)))
    });
    group.finish();
}

fn update(
    c: &mut Criterion,
    name: &str,
    graph: &Graph,
    root: NodeId,
    t1: &rayon::ThreadPool,
    t2: &rayon::ThreadPool,
) {
    let new = || update_action().expect("the update actors run depth-first");
    let (mut seq, mut par, par1) = (new(), new(), new());
    let expect = seq.run(graph, root).expect("root is live");
    let got = t2.install(|| {
        par.run_parallel(graph, root)
            .expect("the update actors fork")
    });
    assert_eq!((got.entered, got.left), (expect.entered, expect.left));
    let world = |a: &UpdateAction| {
        let w = a.actor::<WorldTransforms>().expect("in the chain");
        let b = a.actor::<Bounds>().expect("in the chain");
        (0..graph.capacity() as u32)
            .map(NodeIndex::new)
            .map(|n| (w.world_at(n), b.world_bounds_at(n)))
            .collect::<Vec<_>>()
    };
    assert!(world(&seq) == world(&par), "the same matrices and boxes");
    let pools = Pools { t1, t2 };
    seq_against_parallel(
        c,
        name,
        graph,
        root,
        &pools,
        [seq, par, par1],
        expect.entered,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = parallel
}
criterion_main!(benches);
