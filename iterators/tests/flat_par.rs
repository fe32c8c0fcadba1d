//! The parallel flattened passes against the sequential ones, bit for bit, on random
//! trees and on lopsided shapes, with 1, 2 and 4 threads.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_iterators::{Flattened, LengthMismatch};
use scenewalk_nodes::{Group, Transform};

mod common;
use common::{Rng, random_graph, random_transform};

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A chain of `chain` transforms, then a bushy tree of `bush` nodes at its end.
fn chain_with_bush(chain: usize, bush: usize, seed: u64) -> (Graph, NodeId) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut end = root;
    for _ in 0..chain {
        end = graph.append_child(end, random_transform(&mut rng)).unwrap();
    }
    let mut ids = vec![end];
    for _ in 0..bush {
        let parent = ids[rng.below(ids.len())];
        ids.push(
            graph
                .append_child(parent, random_transform(&mut rng))
                .unwrap(),
        );
    }
    (graph, root)
}

/// One giant subtree (most of the nodes, itself lopsided) beside many tiny ones.
fn giant_subtree(n: usize, seed: u64) -> (Graph, NodeId) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for _ in 0..50 {
        let small = graph.append_child(root, Group).unwrap();
        graph
            .append_child(small, random_transform(&mut rng))
            .unwrap();
    }
    let giant = graph
        .append_child(root, random_transform(&mut rng))
        .unwrap();
    let mut ids = vec![giant];
    while ids.len() < n {
        // Prefer recent nodes: deep, uneven subtrees.
        let back = rng.below(ids.len().min(8));
        let parent = ids[ids.len() - 1 - back];
        ids.push(
            graph
                .append_child(parent, random_transform(&mut rng))
                .unwrap(),
        );
    }
    (graph, root)
}

fn locals(graph: &Graph, flat: &Flattened) -> Vec<Affine3A> {
    flat.gather(|n| {
        graph
            .get_at::<Transform>(n)
            .map_or(Affine3A::IDENTITY, |t| *t.local())
    })
}

fn bits(m: &Affine3A) -> [u32; 12] {
    m.to_cols_array().map(f32::to_bits)
}

/// Each node's own box: a unit cube at its world position, where that is finite (deep
/// chains of random scales leave f32's range, and NaN boxes compare unequal).
fn own_boxes(world: &[Affine3A]) -> Vec<Aabb> {
    world
        .iter()
        .map(|w| match w.is_finite() {
            true => Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5)).transformed(w),
            false => Aabb::EMPTY,
        })
        .collect()
}

/// Sequential and parallel passes agree bit for bit under 1, 2 and 4 threads, and
/// the sequential passes agree with a naive per-node walk.
fn check_tree(graph: &Graph, root: NodeId) {
    let mut flat = Flattened::new();
    flat.rebuild(graph, root).unwrap();
    let locals = locals(graph, &flat);
    let root_value = Affine3A::from_translation(Vec3::new(1.0, 2.0, 3.0));
    let mut seq = Vec::new();
    flat.propagate(root_value, &locals, &mut seq, |p, l| *p * *l)
        .unwrap();
    // Independent reference for the top-down pass: the product along each path.
    // (Shallow positions only: deep chains of random scales leave f32's range.)
    let shallow = seq
        .iter()
        .enumerate()
        .filter(|(pos, _)| flat.depths()[*pos] < 12);
    for (pos, world) in shallow.step_by(97) {
        let mut expect = locals[pos];
        let mut up = flat.parent(pos);
        while let Some(p) = up {
            expect = locals[p] * expect;
            up = flat.parent(p);
        }
        assert!((root_value * expect).abs_diff_eq(*world, 1e-2), "pos {pos}");
    }
    let boxes = own_boxes(&seq);
    let mut seq_up = Vec::new();
    flat.accumulate(&boxes, &mut seq_up, |a, b| a.union(b))
        .unwrap();
    // Independent reference for the bottom-up pass: the union over the subtree range.
    for pos in (0..flat.len()).step_by(89) {
        let expect = flat
            .subtree(pos)
            .fold(Aabb::EMPTY, |acc, i| acc.union(&boxes[i]));
        assert_eq!(seq_up[pos], expect, "pos {pos}");
    }
    let mut sizes = Vec::new();
    flat.accumulate(&vec![1u32; flat.len()], &mut sizes, |a, b| a + b)
        .unwrap();
    assert_eq!(sizes, flat.sizes());

    for threads in [1, 2, 4] {
        pool(threads).install(|| {
            let mut par = Vec::new();
            flat.propagate_parallel(root_value, &locals, &mut par, |p, l| *p * *l)
                .unwrap();
            assert_eq!(par.len(), seq.len());
            assert!(
                par.iter().zip(&seq).all(|(a, b)| bits(a) == bits(b)),
                "{threads} threads"
            );
            // A kept buffer of the right length is overwritten everywhere.
            let mut dirty = vec![Affine3A::from_translation(Vec3::splat(9.0)); flat.len()];
            flat.propagate_parallel(root_value, &locals, &mut dirty, |p, l| *p * *l)
                .unwrap();
            assert!(dirty.iter().zip(&seq).all(|(a, b)| bits(a) == bits(b)));
            let mut par_up = Vec::new();
            flat.accumulate_parallel(&boxes, &mut par_up, |a, b| a.union(b))
                .unwrap();
            assert_eq!(par_up, seq_up, "{threads} threads");
            let unit = Aabb::new(Vec3::splat(-7.0), Vec3::splat(7.0));
            let mut dirty = vec![unit; flat.len()];
            flat.accumulate_parallel(&boxes, &mut dirty, |a, b| a.union(b))
                .unwrap();
            assert_eq!(dirty, seq_up, "{threads} threads");
            // A non-commutative combine shows any change of order.
            let tags: Vec<u64> = (0..flat.len() as u64).collect();
            let order = |a: &u64, b: &u64| a.wrapping_mul(31).wrapping_add(*b);
            let (mut s, mut p) = (Vec::new(), Vec::new());
            flat.accumulate(&tags, &mut s, order).unwrap();
            flat.accumulate_parallel(&tags, &mut p, order).unwrap();
            assert_eq!(s, p, "{threads} threads");
            flat.propagate(7, &tags, &mut s, order).unwrap();
            flat.propagate_parallel(7, &tags, &mut p, order).unwrap();
            assert_eq!(s, p, "{threads} threads");
        });
    }
}

#[test]
fn chain_with_a_bushy_end() {
    let (graph, root) = chain_with_bush(20_000, 30_000, 3);
    check_tree(&graph, root);
}

#[test]
fn one_giant_subtree() {
    let (graph, root) = giant_subtree(40_000, 4);
    check_tree(&graph, root);
}

#[test]
fn a_pure_chain_and_a_flat_fan() {
    let (graph, root) = chain_with_bush(10_000, 0, 5);
    check_tree(&graph, root);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for _ in 0..10_000 {
        graph.append_child(root, Group).unwrap();
    }
    check_tree(&graph, root);
}

#[test]
fn small_trees_and_wrong_lengths() {
    let (graph, root, _) = random_graph(50, 9);
    check_tree(&graph, root);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    let mut out = vec![1u32];
    let err = pool(2).install(|| flat.propagate_parallel(0, &[1u32; 3], &mut out, |a, b| a + b));
    assert_eq!(
        err,
        Err(LengthMismatch {
            positions: flat.len(),
            locals: 3
        })
    );
    assert!(out.is_empty());
    let big = chain_with_bush(100, 9000, 1).0;
    let mut flat = Flattened::new();
    flat.rebuild(&big, big.roots().next().unwrap()).unwrap();
    let err = pool(2).install(|| flat.accumulate_parallel(&[1u32; 3], &mut out, |a, b| a + b));
    assert!(err.is_err() && out.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn random_trees(n in 4_000usize..20_000, seed in any::<u64>()) {
        let (graph, root, _) = random_graph(n, seed);
        check_tree(&graph, root);
    }
}

/// The cut a parallel pass keeps serves only the shape and thread count it was made
/// for: after a rebuild of another shape, and under another pool, the passes still
/// equal the sequential ones, and a clone's passes equal its original's.
#[test]
fn a_kept_cut_serves_only_its_own_shape_and_pool() {
    let (mut graph, root) = chain_with_bush(2_000, 30_000, 8);
    let mut flat = Flattened::new();
    flat.rebuild(&graph, root).unwrap();
    let sizes = |flat: &Flattened, threads: usize| {
        let ones = vec![1u32; flat.len()];
        let (mut seq, mut par, mut depths) = (Vec::new(), Vec::new(), Vec::new());
        flat.accumulate(&ones, &mut seq, |a, b| a + b).unwrap();
        pool(threads).install(|| {
            flat.accumulate_parallel(&ones, &mut par, |a, b| a + b)
                .unwrap();
            flat.propagate_parallel(0, &ones, &mut depths, |p, l| p + l)
                .unwrap();
        });
        assert_eq!(seq, par, "{threads} threads");
        assert_eq!(seq, flat.sizes(), "{threads} threads");
        // Depth + 1 at every position: the top-down pass with ones.
        let expect: Vec<u32> = flat.depths().iter().map(|d| d + 1).collect();
        assert_eq!(depths, expect, "{threads} threads");
    };
    sizes(&flat, 2);
    sizes(&flat, 4);
    sizes(&flat, 2);
    // Another shape of as many nodes in the same flattening (the same length, so the
    // same cut target), then a fan of 20,000 more leaves under the root.
    let (other, other_root) = chain_with_bush(30_000, 2_000, 9);
    flat.rebuild(&other, other_root).unwrap();
    sizes(&flat, 2);
    for _ in 0..20_000 {
        graph.append_child(root, Group).unwrap();
    }
    assert!(flat.refresh(&graph, root).unwrap());
    sizes(&flat, 2);
    let copy = flat.clone();
    sizes(&copy, 2);
    sizes(&copy, 3);
}
