//! `PerNode`'s parallel merges against a brute-force replay: forks that write
//! anywhere (forward runs as in a compact graph, scattered slots, overwrites), merged
//! one by one or all together before `finish_merges`, give the values of replaying
//! every write in merge order.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::PerNode;
use scenewalk_core::{Graph, NodeCore, NodeIndex};
use std::collections::HashMap;

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

mod flows;
use flows::pool;

/// A graph of `n` nodes (a root and its children).
fn graph(n: usize) -> Graph {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for _ in 1..n {
        graph.append_child(root, Group).unwrap();
    }
    graph
}

/// One fork's writes: a forward run of slots (with gaps) and some scattered ones.
fn writes(n: u32) -> impl Strategy<Value = Vec<(u32, u32)>> {
    let run = (0..n, 0usize..300, 1u32..3).prop_map(move |(start, len, step)| {
        (0..len as u32)
            .map(|k| start + k * step)
            .filter(|&s| s < n)
            .map(|s| (s, s * 7 + 1))
            .collect::<Vec<_>>()
    });
    let scattered = prop::collection::vec((0..n, any::<u32>()), 0..20);
    (run, scattered, any::<bool>()).prop_map(|(run, scattered, mix)| {
        if mix {
            run.into_iter().chain(scattered).collect()
        } else {
            run
        }
    })
}

/// Disjoint forward runs, one per fork, as the forks of a compact graph write.
fn disjoint(n: u32, forks: usize) -> impl Strategy<Value = Vec<Vec<(u32, u32)>>> {
    prop::collection::vec(0u32..400, forks).prop_map(move |cuts| {
        let mut at = 0;
        cuts.into_iter()
            .map(|len| {
                let run: Vec<_> = (at..(at + len).min(n)).map(|s| (s, s ^ 0x55)).collect();
                at = (at + len + 3).min(n);
                run
            })
            .collect()
    })
}

/// Replays every fork's writes through `map` in merge order.
fn expected(forks: &[Vec<(u32, u32)>], map: impl Fn(usize, u32) -> u32) -> HashMap<u32, u32> {
    let mut table = HashMap::new();
    for (k, fork) in forks.iter().enumerate() {
        for &(slot, value) in fork {
            table.insert(slot, map(k, value));
        }
    }
    table
}

/// Runs the forks and merges them; returns every slot's value.
fn merged(n: u32, forks: &[Vec<(u32, u32)>], deferred: bool, threads: usize) -> Vec<Option<u32>> {
    let graph = graph(n as usize);
    let mut table = PerNode::new(0u32);
    // A second run, so the merges also reuse the first run's buffers.
    for _ in 0..2 {
        table.begin(&graph, scenewalk_core::NodeIndex::new(0));
        let workers: Vec<_> = forks
            .iter()
            .enumerate()
            .map(|(k, writes)| {
                let mut worker = table.fork();
                let mut wrote = HashMap::new();
                for &(slot, value) in writes {
                    let value = value.wrapping_add(1000 * k as u32);
                    worker.set(NodeIndex::new(slot), value);
                    wrote.insert(slot, value);
                }
                // A fork reads back its own latest writes, in whatever order it wrote.
                for (&slot, &value) in &wrote {
                    assert_eq!(worker.get_at(NodeIndex::new(slot)), Some(value));
                }
                worker
            })
            .collect();
        for worker in workers {
            table.merge(worker);
            if !deferred {
                pool(threads).install(|| table.finish_merges());
            }
        }
        pool(threads).install(|| table.finish_merges());
    }
    (0..n).map(|s| table.get_at(NodeIndex::new(s))).collect()
}

fn check(n: u32, forks: &[Vec<(u32, u32)>]) -> Result<(), TestCaseError> {
    let expect = expected(forks, |k, v| v.wrapping_add(1000 * k as u32));
    let expect: Vec<_> = (0..n).map(|s| expect.get(&s).copied()).collect();
    for (deferred, threads) in [(false, 1), (true, 1), (true, 2), (true, 4)] {
        prop_assert_eq!(&merged(n, forks, deferred, threads), &expect);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_forks_merge_as_their_writes_replayed(forks in prop::collection::vec(writes(3000), 0..8)) {
        check(3000, &forks)?;
    }

    #[test]
    fn disjoint_forks_merge_as_their_writes_replayed(forks in (1usize..12).prop_flat_map(|k| disjoint(3000, k))) {
        check(3000, &forks)?;
    }
}

#[test]
fn deferred_values_appear_only_at_finish() {
    let graph = graph(10);
    let mut table = PerNode::new(0u32);
    table.begin(&graph, scenewalk_core::NodeIndex::new(0));
    let mut worker = table.fork();
    worker.set(NodeIndex::new(3), 5);
    table.merge(worker);
    assert_eq!(table.get_at(NodeIndex::new(3)), None);
    table.finish_merges();
    assert_eq!(table.get_at(NodeIndex::new(3)), Some(5));
    // A new run forgets merges left unfinished by the last one.
    let mut worker = table.fork();
    worker.set(NodeIndex::new(4), 1);
    table.merge(worker);
    table.begin(&graph, scenewalk_core::NodeIndex::new(0));
    table.finish_merges();
    assert_eq!(table.get_at(NodeIndex::new(4)), None);
}

/// A fork taken after a merge finished in the same run reads only its own writes,
/// though its pages may come from the pool the finished merge filled.
#[test]
fn a_later_fork_reads_none_of_an_earlier_forks_entries() {
    let graph = graph(600);
    let mut table = PerNode::new(0u32);
    table.begin(&graph, NodeIndex::new(0));
    let mut a = table.fork();
    a.set(NodeIndex::new(5), 42);
    table.merge(a);
    table.finish_merges();
    let mut b = table.fork();
    b.set(NodeIndex::new(6), 1);
    assert_eq!(b.get_at(NodeIndex::new(5)), None);
    assert_eq!(b.get_at(NodeIndex::new(6)), Some(1));
    assert_eq!(table.get_at(NodeIndex::new(5)), Some(42));
}
