//! Case g: the walk over a graph after 10% random edits (insert, remove, reparent),
//! before and after `Graph::compact`, against the same walk over a fresh graph; and
//! what resolving ids through an indirection table would cost, the alternative to
//! compaction's remap.

use crate::Config;
use crate::bytes::{held, same_checksums};
use crate::case_visit::Count;
use scenewalk_core::{Action, Graph, GraphError, NodeId, Unordered};
use scenewalk_examples::TreeShape;
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Group;
use std::time::Instant;

/// `edits` random edits, a third each: append a new node under a random node, remove
/// a random non-root node (its children take its place), move a random non-root node
/// under another random node (skipped when that would make a cycle).
fn edit(graph: &mut Graph, root: NodeId, edits: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut live: Vec<NodeId> = graph
        .roots()
        .flat_map(|r| {
            let mut ids = Vec::new();
            let mut node = Some(r);
            while let Some(n) = node {
                ids.push(n);
                node = graph.next_preorder(n, r).ok().flatten();
            }
            ids
        })
        .collect();
    let mut done = 0;
    while done < edits {
        let pick = rng.below(live.len());
        let node = live[pick];
        match rng.below(3) {
            0 => {
                let added = graph.append_child(node, Group).expect("node is live");
                live.push(added);
            }
            1 if node != root => {
                graph.remove(node).expect("node is live");
                live.swap_remove(pick);
            }
            2 if node != root => {
                let parent = live[rng.below(live.len())];
                match graph.set_parent(node, Some(parent), None) {
                    Ok(()) | Err(GraphError::Cycle { .. }) => {}
                    Err(e) => panic!("{e}"),
                }
            }
            _ => continue,
        }
        done += 1;
    }
}

/// Runs case g.
pub fn run(config: &Config) -> Vec<Row> {
    let n = if config.quick { 200_000 } else { 1_000_000 };
    let case = format!("g. compaction {:.1}M", n as f64 / 1e6);
    let ((fresh, root), fresh_bytes) = held(|| TreeShape::complete(n, 4).to_graph());
    let mut edited = fresh.clone();
    edit(&mut edited, root, n / 10, 0xED17);
    let (edited_bytes, edited_len) = ((edited.capacity() * 32) as f64, edited.len() as u64);
    let mut compacted = edited.clone();
    let started = Instant::now();
    let (remap, remap_bytes) = held(|| {
        compacted
            .compact()
            .expect("generations are far from used up")
    });
    let compact_ns = started.elapsed().as_nanos() as f64 / edited_len as f64;
    let root2 = remap.get(root).expect("the root stays live");
    let compacted_bytes = (compacted.capacity() * 32) as f64;
    println!(
        "{case}: {} nodes fresh, {} after {} edits ({} slots); compact() took {compact_ns:.1} ns \
         a node and its remap holds {:.1} bytes a node; {} nodes moved",
        fresh.len(),
        edited.len(),
        n / 10,
        edited.capacity(),
        remap_bytes / edited_len as f64,
        remap.moved()
    );

    // The edited tree built fresh: the same shape as `compacted`, in the layout a
    // loader produces (slot i is the i-th node in pre-order, as after compaction).
    let ((rebuilt, root3), rebuilt_bytes) = held(|| {
        let parents: Vec<u32> = (0..compacted.capacity())
            .map(|slot| {
                compacted
                    .parent_at(scenewalk_core::NodeIndex::new(slot as u32))
                    .map_or(scenewalk_examples::NO_PARENT, |p| p.raw())
            })
            .collect();
        TreeShape::from_parents(parents)
            .expect("a compacted tree lists parents first")
            .to_graph()
    });

    let counting = || {
        Action::new(DepthFirst::new(), (Unordered::new(Count(0)),))
            .expect("an unordered actor runs depth-first")
    };
    let (mut a1, mut a2, mut a3, mut a4) = (counting(), counting(), counting(), counting());
    let (fresh, edited, compacted, rebuilt) = (&fresh, &edited, &compacted, &rebuilt);
    let mut walks = vec![
        (
            Contender::new("fresh_edited_shape_action_count", edited_len, move || {
                a4.run(rebuilt, root3).expect("root is live");
                a4.actor::<Count>().map_or(0, |c| c.0) / rebuilt.len() as u64
            }),
            rebuilt_bytes,
        ),
        (
            Contender::new("fresh_original_shape_action_count", n as u64, move || {
                a1.run(fresh, root).expect("root is live");
                a1.actor::<Count>().map_or(0, |c| c.0) / fresh.len() as u64
            }),
            fresh_bytes,
        ),
        (
            Contender::new("edited_10pct_action_count", edited_len, move || {
                a2.run(edited, root).expect("root is live");
                a2.actor::<Count>().map_or(0, |c| c.0) / edited.len() as u64
            }),
            edited_bytes,
        ),
        (
            Contender::new(
                "edited_then_compacted_action_count",
                edited_len,
                move || {
                    a3.run(compacted, root2).expect("root is live");
                    a3.actor::<Count>().map_or(0, |c| c.0) / compacted.len() as u64
                },
            ),
            compacted_bytes,
        ),
    ];
    // Checksum: the walk reached every node (count / len = 1).
    same_checksums(&case, &mut walks);
    let mut walks: Vec<Contender<'_>> = walks.into_iter().map(|(c, _)| c).collect();
    let mut rows = Row::from_measured(
        &case,
        &round_robin(&mut walks, config.reps()),
        "fresh_action_count",
    );

    // The alternative id rule: stable keys resolved through a key -> slot table that
    // compaction rewrites. Walks would not pay for it, but every id use would: one
    // more dependent load into a table of 4 bytes a node.
    let ids: Vec<NodeId> = {
        let mut ids: Vec<NodeId> = (0..compacted.capacity())
            .filter_map(|slot| compacted.id_at(scenewalk_core::NodeIndex::new(slot as u32)))
            .collect();
        let mut rng = SplitMix64::new(5);
        for i in (1..ids.len()).rev() {
            ids.swap(i, rng.below(i + 1));
        }
        ids
    };
    let table: Vec<NodeId> = ids.clone();
    let keys: Vec<u32> = {
        let mut keys: Vec<u32> = (0..ids.len() as u32).collect();
        let mut rng = SplitMix64::new(6);
        for i in (1..keys.len()).rev() {
            keys.swap(i, rng.below(i + 1));
        }
        keys
    };
    let lookups = ids.len() as u64;
    let case_ids = format!("g. id lookups {:.1}M", lookups as f64 / 1e6);
    let (ids, table, keys) = (&ids, &table, &keys);
    let mut lookup = vec![
        (
            Contender::new("id_direct_contains", lookups, move || {
                ids.iter().filter(|&&id| compacted.contains(id)).count() as u64
            }),
            compacted_bytes,
        ),
        (
            Contender::new("id_through_indirection_contains", lookups, move || {
                keys.iter()
                    .filter(|&&k| compacted.contains(table[k as usize]))
                    .count() as u64
            }),
            compacted_bytes + 4.0 * lookups as f64,
        ),
    ];
    same_checksums(&case_ids, &mut lookup);
    let mut lookup: Vec<Contender<'_>> = lookup.into_iter().map(|(c, _)| c).collect();
    rows.extend(Row::from_measured(
        &case_ids,
        &round_robin(&mut lookup, config.reps()),
        "id_direct_contains",
    ));
    rows
}
