//! Part 3 of issue 8: a 100M-node group tree. Peak memory of the process (VmHWM) and
//! the bytes the graph holds, the build time, and one counting traversal timed
//! against the hand-written loop over the same graph.

use crate::bytes::held;
use crate::case_visit::Count;
use scenewalk_core::{Action, Graph, NodeId, Unordered};
use scenewalk_examples::baseline::graph_preorder_links;
use scenewalk_examples::report::{Contender, Reps, Row, round_robin, table};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Group;
use std::time::Instant;

/// Nodes in the tree.
const NODES: u64 = 100_000_000;

/// A field of `/proc/self/status` in KiB (`VmHWM`: peak resident memory).
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The first `n` nodes of a complete quad tree, added in pre-order (so the records
/// lie in walk order) with an explicit stack: node `b` of the level-order numbering
/// has children `4b + 1 ..= 4b + 4`.
fn complete_quad_tree(n: u64) -> (Graph, NodeId) {
    let mut graph = Graph::with_capacity(n as usize);
    let root = graph.add_root(Group);
    let mut stack: Vec<(u64, NodeId)> = Vec::new();
    push_children(&mut stack, 0, root, n);
    while let Some((b, parent)) = stack.pop() {
        let id = graph.append_child(parent, Group).expect("parent is live");
        push_children(&mut stack, b, id, n);
    }
    (graph, root)
}

/// Pushes the children of level-order node `b` (added as `id`), last first, so the
/// first child is popped first.
fn push_children(stack: &mut Vec<(u64, NodeId)>, b: u64, id: NodeId, n: u64) {
    for c in (4 * b + 1..=4 * b + 4).rev().filter(|&c| c < n) {
        stack.push((c, id));
    }
}

/// Runs the scale check and returns its Markdown section body.
pub fn run() -> String {
    let hwm_start = status_kib("VmHWM:").unwrap_or(0);
    let started = Instant::now();
    let ((graph, root), bytes) = held(|| complete_quad_tree(NODES));
    let build_s = started.elapsed().as_secs_f64();
    let hwm_built = status_kib("VmHWM:").unwrap_or(0);
    assert_eq!(graph.len() as u64, NODES);
    println!(
        "scale: built {NODES} nodes in {build_s:.1} s; graph holds {:.2} GiB ({:.1} B/node); \
         VmHWM {:.2} GiB",
        bytes / (1u64 << 30) as f64,
        bytes / NODES as f64,
        hwm_built as f64 / (1u64 << 20) as f64
    );

    let mut action = Action::new(DepthFirst::new(), (Unordered::new(Count(0)),))
        .expect("an unordered actor runs depth-first");
    let graph = &graph;
    let mut contenders = vec![
        Contender::new("hand_loop_graph", NODES, move || {
            let mut c = 0;
            graph_preorder_links(graph, root.index(), |_| c += 1);
            c
        }),
        Contender::new("action_depth_first_count", NODES, move || {
            action.run(graph, root).expect("root is live");
            action.actor::<Count>().map_or(0, |c| c.0)
        }),
    ];
    let measured = round_robin(
        &mut contenders,
        Reps {
            warmup: 1,
            measured: 5,
        },
    );
    assert!(measured.iter().all(|m| m.checksum == NODES));
    let rows = Row::from_measured("scale 100M", &measured, "hand_loop_graph");
    for row in &rows {
        println!("{}", row.line());
    }
    let action = &measured[1];
    let hwm_end = status_kib("VmHWM:").unwrap_or(0);
    format!(
        "{}\n| figure | value | target |\n|---|---:|---|\n\
         | nodes | {NODES} | |\n\
         | bytes the graph holds (counting allocator) | {:.2} GiB ({:.1} B/node) | |\n\
         | peak resident memory of the process (VmHWM), after building | {:.2} GiB | under 4 GiB |\n\
         | peak resident memory at the end | {:.2} GiB | |\n\
         | peak before building | {:.3} GiB | |\n\
         | build time | {build_s:.1} s | |\n\
         | one counting traversal (`Action<DepthFirst>` + counting actor), median | {:.3} s | under 1 s |\n\
         | same, best of 5 | {:.3} s | |\n",
        table(&rows),
        bytes / (1u64 << 30) as f64,
        bytes / NODES as f64,
        hwm_built as f64 / (1u64 << 20) as f64,
        hwm_end as f64 / (1u64 << 20) as f64,
        hwm_start as f64 / (1u64 << 20) as f64,
        action.median / 1e9,
        action.min / 1e9,
    )
}
