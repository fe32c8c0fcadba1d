//! Case j: one traversal on several threads against the sequential one, for each
//! thread count of `--threads` (a rayon pool of that many threads, the parallel run
//! inside its `install`), all in the same rounds as the sequential baseline. Each
//! workload is one case; its contenders are `sequential` and `threads_N`, so the ratio
//! column is time / sequential time (a speed-up of 8× reads 0.125). `threads_1` is the
//! parallel code on one thread: its own overhead. Before timing, every parallel run's
//! results are checked against the sequential run's (bit for bit).
//!
//! - `update random`: the update pass (`passes::update_action`: ordered
//!   `WorldTransforms` and `Bounds`, unordered `Statistics`), `run_parallel` against
//!   `run`, on a random tree built in depth-first order (depth ≤ 24), every third node
//!   a `Transform`, the other leaves `Geometry` and inner nodes `Group`s: 2M nodes,
//!   also 10M with `--big`;
//! - `update chain_bush`, `update giant`: the same pass on 1M-node trees that are hard
//!   to split: a chain of a tenth of the nodes with a random tree at its end, and one
//!   subtree of nine tenths of the nodes among 50-node ones (a glTF scene with one
//!   huge mesh hierarchy); `update scattered`: the random tree of 1M nodes with its
//!   records in random slots, which `run_parallel` runs on the calling thread (1.0×:
//!   no slower than sequential);
//! - `world_transforms`: `WorldTransforms` alone (an action with only
//!   `Ordered<WorldTransforms>`) on a 1M-node random tree;
//! - `statistics`: `Statistics` alone (unordered) on the 2M-node tree;
//! - `propagate`: world transforms by `Flattened::propagate_parallel` against
//!   `Flattened::propagate` (locals gathered once, output kept between runs), 1M
//!   nodes, 10M with `--big`; in the same rounds `copy (bound)`: a copy of as many
//!   matrices (the bytes the pass reads and writes, less its 4-byte parent indices) by
//!   rayon `par_chunks` against `copy_from_slice`, the memory-bandwidth bound of the
//!   pass;
//! - `flat bounds`: world transforms, each node's own world box, then subtree boxes
//!   (`propagate` + map + `accumulate` against their parallel forms) on the same tree;
//! - `update city`, `view city`: the update pass and the view pass (cull, LOD,
//!   switches, render list, from the overview camera, reading the update's results)
//!   on the ~500k-node city of case h. The frame of case h cannot run in parallel with
//!   today's API (its incremental update and its picks are sequential), so its two
//!   traversals are measured here instead.
//!
//! `--quick` uses 200,000-node trees and the 16 × 16-block city; `--big` measures fewer
//! rounds.
//!
//! The B/node column of this case is what one run allocates, on all its threads
//! together, over its nodes (after a first run, which may size what the action or
//! flattening keeps): not what the data holds, as in the other cases.

use crate::Config;
use crate::pool_bytes::allocated_on_all_threads;
use rayon::ThreadPool;
use rayon::prelude::*;
use scenewalk_actors::{Bounds, RenderList, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    Aabb, Action, Graph, NodeId, NodeIndex, Ordered, ParallelChain, Results, Unordered,
};
use scenewalk_examples::TreeShape;
use scenewalk_examples::passes::{results, update_action, view_action};
use scenewalk_examples::report::{
    Contender, Measured, Reps, Row, SEQUENTIAL, checksums, round_robin, threads_contender,
};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{
    mixed_graph, random_dfs_parents, random_mild_transform, random_walk_parents,
};
use scenewalk_examples::{CityMeshes, CityScene, NO_PARENT};
use scenewalk_iterators::{DepthFirst, Flattened};
use std::hint::black_box;

/// Depth bound of the random trees.
const MAX_DEPTH: usize = 24;

/// Matrices per task of the parallel copy (768 KiB).
const COPY_CHUNK: usize = 1 << 14;

/// A pool per thread count.
type Pools = [(usize, ThreadPool)];

/// `n` in millions or thousands, for a case name.
fn size(n: usize) -> String {
    if n >= 1_000_000 {
        format!("{:.1}M", n as f64 / 1e6)
    } else {
        format!("{:.0}k", n as f64 / 1e3)
    }
}

/// The bits of a matrix, so that equal NaNs compare equal.
fn bits(m: Option<Affine3A>) -> Option<[u32; 12]> {
    m.map(|m| m.to_cols_array().map(f32::to_bits))
}

/// The bits of a box.
fn box_bits(b: Option<Aabb>) -> Option<[u32; 6]> {
    b.map(|b| {
        let (lo, hi) = (b.min.to_array(), b.max.to_array());
        [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]].map(f32::to_bits)
    })
}

/// Whether two actions left the same world matrices (and boxes, if `boxes`) for
/// every slot of `graph`.
fn same_world<C>(
    graph: &Graph,
    boxes: bool,
    a: &Action<DepthFirst, C>,
    b: &Action<DepthFirst, C>,
) -> bool
where
    C: ParallelChain,
{
    let (Some(wa), Some(wb)) = (a.actor::<WorldTransforms>(), b.actor::<WorldTransforms>()) else {
        return false;
    };
    let (ba, bb) = (a.actor::<Bounds>(), b.actor::<Bounds>());
    (0..graph.capacity() as u32).map(NodeIndex::new).all(|n| {
        bits(wa.table().at(n)) == bits(wb.table().at(n))
            && (!boxes
                || box_bits(ba.and_then(|x| x.table().at(n)))
                    == box_bits(bb.and_then(|x| x.table().at(n))))
    })
}

/// The rows of one workload, checking first that every contender counted the same.
fn rows(case: &str, measured: &[Measured]) -> Vec<Row> {
    assert!(
        measured.iter().all(|m| m.checksum == measured[0].checksum),
        "{case}: contenders disagree: {}",
        checksums(measured)
    );
    Row::from_measured(case, measured, SEQUENTIAL)
}

/// An action made by `new` run by `run_with` against `run_parallel_with` in each pool,
/// in the same rounds, after checking that each parallel run leaves what `same` finds
/// equal to the sequential run's results.
#[allow(clippy::too_many_arguments)]
fn actions<C: ParallelChain + Send>(
    case: &str,
    graph: &Graph,
    root: NodeId,
    results: &Results,
    new: impl Fn() -> Action<DepthFirst, C>,
    same: impl Fn(&Action<DepthFirst, C>, &Action<DepthFirst, C>) -> bool,
    pools: &Pools,
    reps: Reps,
) -> Vec<Row> {
    let mut sequential = new();
    let nodes = sequential
        .run_with(graph, root, results)
        .expect("root is live")
        .entered;
    let sequential_bytes = allocation_counter::measure(|| {
        sequential
            .run_with(graph, root, results)
            .expect("root is live");
    })
    .bytes_total;
    let per_node = |bytes: u64| bytes as f64 / nodes.max(1) as f64;
    let mut contenders = Vec::new();
    for (threads, pool) in pools {
        let mut parallel = new();
        // The first parallel run also counts the subtree sizes it splits by.
        pool.install(|| parallel.run_parallel_with(graph, root, results))
            .expect("every actor forks");
        assert!(
            same(&sequential, &parallel),
            "{case}: {threads} threads differ from the sequential run"
        );
        let bytes = allocated_on_all_threads(*threads, || {
            parallel
                .run_parallel_with(graph, root, results)
                .expect("every actor forks");
        });
        let contender = Contender::new(&threads_contender(*threads), nodes, move || {
            pool.install(|| parallel.run_parallel_with(graph, root, results))
                .expect("every actor forks")
                .entered
        });
        contenders.push(contender.bytes(per_node(bytes)));
    }
    let contender = Contender::new(SEQUENTIAL, nodes, move || {
        sequential
            .run_with(graph, root, results)
            .expect("root is live")
            .entered
    });
    contenders.insert(0, contender.bytes(per_node(sequential_bytes)));
    rows(case, &round_robin(&mut contenders, reps))
}

/// The update pass in sequence and in each pool.
fn update(case: &str, graph: &Graph, root: NodeId, pools: &Pools, reps: Reps) -> Vec<Row> {
    actions(
        case,
        graph,
        root,
        &Results::new(),
        || update_action().expect("the update actors run depth-first"),
        |a, b| same_world(graph, true, a, b),
        pools,
        reps,
    )
}

/// The tree of a depth-first `parents` list with payloads as `mixed_graph` mixes
/// them, its transforms mild enough to stay finite down long chains.
fn random_scene(parents: Vec<u32>, seed: u64) -> (Graph, NodeId) {
    let shape = TreeShape::from_parents(parents).expect("parents precede children");
    let (graph, root, _) = mixed_graph(&shape, &mut SplitMix64::new(seed), random_mild_transform);
    (graph, root)
}

/// A tree shape: `n` nodes as a depth-first parent list.
type Shape = fn(usize, &mut SplitMix64) -> Vec<u32>;

/// `n` nodes of random depth (at most [`MAX_DEPTH`]).
fn random(n: usize, rng: &mut SplitMix64) -> Vec<u32> {
    random_dfs_parents(n, MAX_DEPTH, rng)
}

/// `n` nodes: a chain of a tenth of them, a random tree at its end.
fn chain_bush(n: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let chain = (n / 10).max(1);
    let mut parents = vec![NO_PARENT];
    parents.extend(0..chain as u32 - 1);
    random_walk_parents(&mut parents, chain as u32 - 1, n - chain, MAX_DEPTH, rng);
    parents
}

/// `n` nodes of random depth, as [`random`], with the records in random slots (each
/// node's slot after its parent's and its previous sibling's): far from depth-first
/// order, as after many edits, so `run_parallel` walks it on the calling thread.
fn scattered(n: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let shape = TreeShape::from_parents(random(n, rng)).expect("parents precede children");
    shape.scattered(rng.next_u64()).parents().to_vec()
}

/// `n` nodes: one random subtree of about nine tenths of them in the middle of
/// 50-node ones, all under the root.
fn giant(n: usize, rng: &mut SplitMix64) -> Vec<u32> {
    let small = (n / 500).max(1);
    let giant = n - 1 - small * 50;
    let mut parents = vec![NO_PARENT];
    for k in 0..small {
        if k == small / 2 {
            let top = parents.len() as u32;
            parents.push(0);
            random_walk_parents(&mut parents, top, giant - 1, MAX_DEPTH, rng);
        }
        let top = parents.len() as u32;
        parents.push(0);
        random_walk_parents(&mut parents, top, 49, MAX_DEPTH, rng);
    }
    parents
}

/// A flattened random tree with a local matrix and an own box per position.
struct Flat {
    flat: Flattened,
    locals: Vec<Affine3A>,
    boxes: Vec<Aabb>,
}

impl Flat {
    fn build(n: usize) -> Self {
        let mut rng = SplitMix64::new(0x9A4);
        let shape = TreeShape::from_parents(random(n, &mut rng)).expect("parents precede children");
        let (graph, root) = shape.to_graph();
        let mut flat = Flattened::new();
        flat.rebuild(&graph, root).expect("root is live");
        let locals = flat.gather(|_| *random_mild_transform(&mut rng).local());
        let boxes = flat.gather(|_| {
            let c = Vec3::splat(rng.range_f32(-1.0, 1.0));
            Aabb::new(c - 0.5, c + 0.5)
        });
        Flat {
            flat,
            locals,
            boxes,
        }
    }

    fn world(&self, parallel: bool, out: &mut Vec<Affine3A>) {
        let combine = |p: &Affine3A, l: &Affine3A| *p * *l;
        let done = if parallel {
            self.flat
                .propagate_parallel(Affine3A::IDENTITY, &self.locals, out, combine)
        } else {
            self.flat
                .propagate(Affine3A::IDENTITY, &self.locals, out, combine)
        };
        done.expect("one local per position");
    }

    /// World transforms, own world boxes, subtree boxes; returns the root's box.
    fn bounds(&self, parallel: bool, bufs: &mut Bufs) -> Aabb {
        self.world(parallel, &mut bufs.world);
        let union = |a: &Aabb, b: &Aabb| a.union(b);
        let done = if parallel {
            self.boxes
                .par_iter()
                .zip(bufs.world.par_iter())
                .map(|(b, w)| b.transformed(w))
                .collect_into_vec(&mut bufs.own);
            self.flat
                .accumulate_parallel(&bufs.own, &mut bufs.out, union)
        } else {
            bufs.own.clear();
            let own = self.boxes.iter().zip(&bufs.world);
            bufs.own.extend(own.map(|(b, w)| b.transformed(w)));
            self.flat.accumulate(&bufs.own, &mut bufs.out, union)
        };
        done.expect("one box per position");
        bufs.out[0]
    }
}

/// A bounds pass's buffers, one set per contender.
#[derive(Default)]
struct Bufs {
    world: Vec<Affine3A>,
    own: Vec<Aabb>,
    out: Vec<Aabb>,
}

/// `propagate` and the copy bound, in the same rounds.
fn propagate(n: usize, flat: &Flat, pools: &Pools, reps: Reps) -> Vec<Row> {
    let len = flat.locals.len();
    let mut reference = Vec::new();
    flat.world(false, &mut reference);
    let mut contenders = Vec::new();
    for parallel in [None].into_iter().chain(pools.iter().map(Some)) {
        let mut out = Vec::new();
        // A first pass sizes `out` (and cuts the tree); then one is counted.
        let bytes = match parallel {
            Some((threads, pool)) => {
                pool.install(|| flat.world(true, &mut out));
                allocated_on_all_threads(*threads, || flat.world(true, &mut out))
            }
            None => {
                flat.world(false, &mut out);
                allocation_counter::measure(|| flat.world(false, &mut out)).bytes_total
            }
        };
        let run = move || {
            match parallel {
                Some((_, pool)) => pool.install(|| flat.world(true, &mut out)),
                None => flat.world(false, &mut out),
            }
            (out.len() == len) as u64
        };
        let name = parallel.map_or(SEQUENTIAL.to_string(), |(t, _)| threads_contender(*t));
        let contender = Contender::new(&name, len as u64, run);
        contenders.push(contender.bytes(bytes as f64 / len.max(1) as f64));
    }
    for (threads, pool) in pools {
        let mut out = Vec::new();
        pool.install(|| flat.world(true, &mut out));
        assert!(
            out == reference,
            "j. propagate: {threads} threads differ from the sequential pass"
        );
    }
    let copies = contenders.len();
    for parallel in [None].into_iter().chain(pools.iter().map(Some)) {
        let (src, mut dst) = (&flat.locals, vec![Affine3A::ZERO; len]);
        let run = move || {
            match parallel {
                Some((_, pool)) => pool.install(|| {
                    dst.par_chunks_mut(COPY_CHUNK)
                        .zip(src.par_chunks(COPY_CHUNK))
                        .for_each(|(d, s)| d.copy_from_slice(s));
                }),
                None => dst.copy_from_slice(src),
            }
            black_box(&mut dst);
            (dst[len - 1] == src[len - 1]) as u64
        };
        let name = parallel.map_or(SEQUENTIAL.to_string(), |(t, _)| threads_contender(*t));
        contenders.push(Contender::new(&name, len as u64, run));
    }
    let measured = round_robin(&mut contenders, reps);
    let (pass, copy) = measured.split_at(copies);
    let mut out = rows(&format!("j. propagate {}", size(n)), pass);
    out.extend(rows(&format!("j. copy (bound) {}", size(n)), copy));
    out
}

/// The flattened bounds pass.
fn flat_bounds(n: usize, flat: &Flat, pools: &Pools, reps: Reps) -> Vec<Row> {
    let mut bufs = Bufs::default();
    let expect = box_bits(Some(flat.bounds(false, &mut bufs)));
    let reference = std::mem::take(&mut bufs.out);
    let mut contenders = vec![Contender::new(SEQUENTIAL, n as u64, move || {
        (box_bits(Some(flat.bounds(false, &mut bufs))) == expect) as u64
    })];
    for (threads, pool) in pools {
        let mut bufs = Bufs::default();
        pool.install(|| flat.bounds(true, &mut bufs));
        assert!(
            bufs.out == reference,
            "j. flat bounds: {threads} threads differ from the sequential pass"
        );
        contenders.push(Contender::new(
            &threads_contender(*threads),
            n as u64,
            move || {
                (box_bits(Some(pool.install(|| flat.bounds(true, &mut bufs)))) == expect) as u64
            },
        ));
    }
    rows(
        &format!("j. flat bounds {}", size(n)),
        &round_robin(&mut contenders, reps),
    )
}

/// The update and the view pass on the city.
fn city(config: &Config, pools: &Pools, reps: Reps) -> Vec<Row> {
    let blocks = if config.quick { 16 } else { 48 };
    let meshes = CityMeshes::generated().expect("the meshes build");
    let city = CityScene::build(blocks, 11, &meshes).expect("the city builds");
    let (graph, root) = (&city.graph, city.root);
    let nodes = size(graph.len());
    let mut out = update(&format!("j. update city {nodes}"), graph, root, pools, reps);

    let mut update = update_action().expect("compatible");
    update.run(graph, root).expect("root is live");
    let (camera, placed) = city.overview().expect("the overview camera is valid");
    let frustum = camera.frustum(&placed);
    out.extend(actions(
        &format!("j. view city {nodes}"),
        graph,
        root,
        &results(&update),
        || view_action(&frustum, &placed).expect("compatible"),
        |a, b| {
            let items = |v: &scenewalk_examples::passes::ViewAction| {
                v.actor::<RenderList>().map(|l| l.items().to_vec())
            };
            items(a) == items(b)
        },
        pools,
        reps,
    ));
    out
}

/// Runs case j.
pub fn run(config: &Config) -> Vec<Row> {
    let pools: Vec<(usize, ThreadPool)> = config
        .threads
        .iter()
        .map(|&t| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .expect("a thread pool");
            (t, pool)
        })
        .collect();
    let pools = pools.as_slice();
    let reps = if config.big {
        Reps {
            warmup: 1,
            measured: 5,
        }
    } else {
        config.reps()
    };
    let (small, big) = if config.quick {
        (200_000, 200_000)
    } else {
        (1_000_000, 2_000_000)
    };
    let mut out = Vec::new();

    // The update pass on each tree, Statistics alone on the first.
    let mut trees: Vec<(&str, usize, Shape)> = vec![("random", big, random)];
    if config.big {
        trees.push(("random", 10_000_000, random));
    }
    trees.extend([
        ("chain_bush", small, chain_bush as Shape),
        ("giant", small, giant),
        ("scattered", small, scattered),
    ]);
    for (k, (name, n, shape)) in trees.into_iter().enumerate() {
        let (graph, root) = random_scene(shape(n, &mut SplitMix64::new(0x9A4)), 7);
        out.extend(update(
            &format!("j. update {name} {}", size(n)),
            &graph,
            root,
            pools,
            reps,
        ));
        if k == 0 {
            let new = || {
                Action::new(DepthFirst::new(), (Unordered::new(Statistics::new()),))
                    .expect("unordered actors run depth-first")
            };
            let counts = |a: &Action<DepthFirst, (Unordered<Statistics>,)>| {
                a.actor::<Statistics>()
                    .map(|s| (s.nodes(), s.leaves(), s.depth_histogram().to_vec()))
            };
            out.extend(actions(
                &format!("j. statistics {}", size(n)),
                &graph,
                root,
                &Results::new(),
                new,
                |a, b| counts(a) == counts(b),
                pools,
                reps,
            ));
        }
    }

    // World transforms alone.
    {
        let (graph, root) = random_scene(random(small, &mut SplitMix64::new(0x5EED)), 8);
        out.extend(actions(
            &format!("j. world_transforms {}", size(small)),
            &graph,
            root,
            &Results::new(),
            || {
                Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),))
                    .expect("ordered actors run depth-first")
            },
            |a, b| same_world(&graph, false, a, b),
            pools,
            reps,
        ));
    }

    // The flattened passes and the copy bound.
    let n = if config.big { 10_000_000 } else { small };
    let flat = Flat::build(n);
    out.extend(propagate(n, &flat, pools, reps));
    out.extend(flat_bounds(n, &flat, pools, reps));
    drop(flat);

    out.extend(city(config, pools, reps));
    out
}
