//! The dual-tree traversal's pending pairs, counted by a counting global allocator:
//! they grow with depth × fan-out, never with fan-out squared, in self and two-tree
//! mode, for the first hit and for a streamed find-all.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{Graph, NodeId, NodeIndex};
use scenewalk_iterators::DualTree;
use scenewalk_nodes::Group;

/// A root with `width` leaf children.
fn fan(graph: &mut Graph, width: usize) -> NodeId {
    let root = graph.add_root(Group);
    for _ in 0..width {
        graph.append_child(root, Group).unwrap();
    }
    root
}

/// The most bytes held at once while `f` runs.
fn peak(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).bytes_max
}

#[test]
fn the_first_hit_in_a_wide_fan_holds_no_pair_per_child() {
    for width in [1_000, 3_000] {
        let mut graph = Graph::new();
        let root = fan(&mut graph, width);
        let other = fan(&mut graph, width);
        let mut dual = DualTree::new();
        // Self mode: the first pair of leaves passes.
        dual.reset_self(&graph, root).unwrap();
        let mut hit = None;
        let bytes = peak(|| hit = dual.first_hit(&graph, &graph, &mut |_, _| true));
        assert!(hit.is_some());
        assert!(bytes < 4096, "self, width {width}: {bytes} bytes");
        assert_eq!(dual.stats().pair_tests, 1);
        // Two fans: the roots' pair, then the first pair of leaves.
        dual.reset(&graph, root, &graph, other).unwrap();
        let bytes = peak(|| hit = dual.first_hit(&graph, &graph, &mut |_, _| true));
        assert!(hit.is_some());
        assert!(bytes < 4096, "two fans, width {width}: {bytes} bytes");
        assert_eq!(dual.stats().pair_tests, 2);
    }
}

#[test]
fn find_all_streams_its_pairs_with_pending_memory_independent_of_the_fan_out() {
    let mut peaks = Vec::new();
    for width in [300, 1_200] {
        let mut graph = Graph::new();
        let root = fan(&mut graph, width);
        let other = fan(&mut graph, width);
        let neighbours = |a: NodeIndex, b: NodeIndex| a.get().abs_diff(b.get()) <= 1;
        let mut dual = DualTree::new();
        dual.reset_self(&graph, root).unwrap();
        let mut found = 0;
        let self_bytes = peak(|| {
            found = dual
                .iter(&graph, &graph, &mut |a, b| neighbours(a, b))
                .count()
        });
        assert_eq!(found, width - 1);
        assert_eq!(dual.stats().pair_tests as usize, width * (width - 1) / 2);
        // Two fans side by side in one graph: leaf i of one and leaf i of the other
        // are `width + 1` slots apart.
        let apart = |a: NodeIndex, b: NodeIndex| b.get() - a.get() == width + 1;
        dual.reset(&graph, root, &graph, other).unwrap();
        let two_bytes = peak(|| {
            found = dual
                .iter(&graph, &graph, &mut |a, b| apart(a, b) || a == root.index())
                .count()
        });
        assert_eq!(found, width);
        peaks.push((self_bytes, two_bytes, dual.stats().max_stack));
    }
    // The same pending entries for a fan four times as wide (no allocation at all
    // once the stack's buffer holds them).
    assert_eq!(peaks[0], peaks[1], "{peaks:?}");
    assert!(peaks[1].0 < 4096 && peaks[1].1 < 4096, "{peaks:?}");
}

#[test]
fn the_first_hit_in_a_million_wide_fan() {
    let mut graph = Graph::with_capacity(1_000_001);
    let root = fan(&mut graph, 1_000_000);
    let mut dual = DualTree::new();
    dual.reset_self(&graph, root).unwrap();
    let mut hit = None;
    let bytes = peak(|| hit = dual.first_hit(&graph, &graph, &mut |_, _| true));
    let first = graph.first_child(root).unwrap().unwrap().index();
    assert_eq!(hit, Some((first, graph.next_sibling_at(first).unwrap())));
    assert!(bytes < 4096, "{bytes} bytes");
    assert_eq!(dual.stats().max_stack, 1);
}
