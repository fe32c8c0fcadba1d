//! Subtree sizes, and where a parallel run splits the tree.

use crate::graph::{Graph, NodeIndex};
use crate::invariant::Invariant;

// The limits `Action::run_parallel` states. The cut does not depend on the thread
// count, so neither does the merge order.
const PARALLEL_MIN: u32 = 4096;
const PIECES: u32 = 64;
const MIN_TASK: u32 = 512;
/// More stretches of top nodes between subtrees than this (a long chain with a leaf at
/// every link) and the run stays on the calling thread.
const MAX_STRETCHES: u32 = 16 * PIECES;
/// Records far from depth-first order make each worker's per-node results touch most
/// pages of the tables.
const MAX_JUMP_EVERY: usize = 8;

/// Subtree sizes of the last parallel run's tree, kept until its structure or root
/// changes, and the split decided from them.
#[derive(Clone, Debug, Default)]
pub(crate) struct SubtreeSizes {
    /// Graph uid, revision and root slot of the sizes.
    key: Option<(u64, u64, u32)>,
    /// Per slot: the size of its subtree (0 outside the root's subtree).
    sizes: Vec<u32>,
    /// Subtrees of at most this many nodes are handed to workers.
    pub(crate) target: u32,
    /// Whether the tree splits into a useful number of subtrees.
    splittable: bool,
    /// Runs of sibling subtrees handed off as one (first slot, last slot, nodes), by
    /// first slot.
    runs: Vec<(u32, u32, u32)>,
    /// The pre-order the sizes were summed in.
    order: Vec<NodeIndex>,
    /// The last run's plan, for its buffers.
    pub(super) spare: super::Plan,
}

/// What a walk hands off at a split point: the subtrees of the siblings `first` to
/// `last` (the same node for one subtree), `nodes` nodes in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Handoff {
    pub(crate) first: NodeIndex,
    pub(crate) last: NodeIndex,
    pub(crate) nodes: u32,
}

impl SubtreeSizes {
    /// Counts the subtree sizes under `root`, unless they are current; returns whether
    /// the tree splits.
    pub(crate) fn refresh(&mut self, graph: &Graph, root: NodeIndex) -> bool {
        let key = (graph.uid(), graph.revision(), root.raw());
        if self.key == Some(key) {
            return self.splittable;
        }
        self.sizes.clear();
        self.sizes.resize(graph.capacity(), 0);
        // Pre-order, then from the last node back, each size into its parent's.
        self.order.clear();
        let preorder = std::iter::successors(Some(root), |&n| graph.next_preorder_at(n, root));
        self.order.extend(preorder);
        for &node in self.order.iter().rev() {
            let Some(size) = self.sizes.get_mut(node.get()) else {
                continue;
            };
            *size += 1;
            let size = *size;
            if node != root
                && let Some(parent) = graph.parent_at(node)
                && let Some(p) = self.sizes.get_mut(parent.get())
            {
                *p += size;
            }
        }
        self.key = Some(key);
        let total = self.size(root);
        self.target = (total / PIECES).max(MIN_TASK);
        // The cut by structure alone (actors may prune more during the run): how many
        // subtrees, and how many stretches of top nodes between them, each of which
        // will need a worker of its own.
        let (mut subtrees, mut stretches, mut in_top) = (0, 1, true);
        self.runs.clear();
        let mut next = graph.next_preorder_at(root, root);
        while let Some(n) = next {
            let size = self.size(n);
            if size <= self.target {
                subtrees += 1;
                in_top = false;
                // Later siblings join the run while it stays within one task's size.
                let (mut last, mut nodes) = (n, size);
                while let Some(s) = graph.next_sibling_at(last) {
                    let more = self.size(s);
                    if more > self.target || nodes + more > self.target {
                        break;
                    }
                    (last, nodes) = (s, nodes + more);
                }
                if last != n {
                    self.runs.push((n.raw(), last.raw(), nodes));
                }
                next = graph
                    .next_after_subtree(last.raw(), root.raw())
                    .map(NodeIndex::new);
            } else {
                stretches += u32::from(!in_top);
                in_top = true;
                next = graph.next_preorder_at(n, root);
            }
        }
        let jumps = self
            .order
            .windows(2)
            .filter(|w| matches!(w, [a, b] if b.raw() != a.raw().wrapping_add(1)))
            .count();
        self.splittable = total >= PARALLEL_MIN
            && subtrees >= 2
            && stretches <= MAX_STRETCHES
            && jumps * MAX_JUMP_EVERY <= self.order.len();
        self.runs.sort_unstable();
        self.splittable
    }

    /// What a walk above hands off at `node`, if its subtree is small enough: the run
    /// of siblings that starts there if the walk takes them `by_links` (no actor built
    /// the parent's active list), else `node`'s subtree alone.
    #[inline]
    pub(crate) fn handoff(&self, node: NodeIndex, by_links: bool) -> Option<Handoff> {
        let size = self.size(node);
        if size > self.target {
            return None;
        }
        let i = self.runs.partition_point(|r| r.0 < node.raw());
        let run = self.runs.get(i).filter(|r| by_links && r.0 == node.raw());
        let (last, nodes) = run.map_or((node, size), |&(_, last, nodes)| {
            (NodeIndex::new(last), nodes)
        });
        Some(Handoff {
            first: node,
            last,
            nodes,
        })
    }

    #[inline]
    pub(crate) fn size(&self, node: NodeIndex) -> u32 {
        self.sizes
            .get(node.get())
            .copied()
            .invariant("subtree size")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Graph;

    #[derive(Clone, Debug)]
    struct Node;
    impl crate::graph::NodeCore for Node {}

    /// A wide root's small children go in runs of consecutive siblings of at most
    /// `target` nodes, which cover every small child once and stop at big ones;
    /// taken off the links, a child is handed off alone.
    #[test]
    fn small_siblings_are_handed_off_in_runs() {
        let mut graph = Graph::new();
        let root = graph.add_root(Node);
        let mut children = Vec::new();
        for i in 0..3000u32 {
            let child = graph.append_child(root, Node).unwrap();
            // A few children are too big to hand off; the others hold 1 to 4 nodes.
            let extra = if i % 1000 == 500 { 2000 } else { i % 4 };
            for _ in 0..extra {
                graph.append_child(child, Node).unwrap();
            }
            children.push(child.index());
        }
        let mut sizes = SubtreeSizes::default();
        assert!(sizes.refresh(&graph, root.index()));
        let target = sizes.target;
        let mut i = 0;
        let mut runs = 0;
        while let Some(&child) = children.get(i) {
            let Some(run) = sizes.handoff(child, true) else {
                assert!(sizes.size(child) > target);
                i += 1;
                continue;
            };
            let end = children.iter().position(|&c| c == run.last).unwrap();
            let nodes: u32 = children[i..=end].iter().map(|&c| sizes.size(c)).sum();
            assert_eq!((run.first, run.nodes), (child, nodes));
            assert!(nodes <= target);
            // The run stops only where the next sibling would not fit.
            if let Some(&next) = children.get(end + 1) {
                assert!(nodes + sizes.size(next) > target || sizes.size(next) > target);
            }
            let alone = sizes.handoff(child, false).unwrap();
            assert_eq!((alone.last, alone.nodes), (child, sizes.size(child)));
            runs += 1;
            i = end + 1;
        }
        assert!(runs > 3 && runs < 200, "{runs} runs");
    }

    /// Subtree sizes against counting each subtree's pre-order walk.
    #[test]
    fn subtree_sizes_count_every_descendant() {
        let mut graph = Graph::new();
        let root = graph.add_root(Node);
        let mut ids = vec![root];
        let mut x = 7u64;
        for _ in 0..3000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let parent = ids[(x >> 33) as usize % ids.len()];
            ids.push(graph.append_child(parent, Node).unwrap());
        }
        // A node outside the walked subtree counts nothing.
        let other = graph.add_root(Node);
        let inner = ids[1];
        for top in [root, inner] {
            let mut sizes = SubtreeSizes::default();
            sizes.refresh(&graph, top.index());
            for &id in &ids {
                let inside = graph.is_ancestor_or_self(top, id).unwrap();
                let mut count = 0;
                let mut next = Some(id.index());
                while let Some(n) = next {
                    count += 1;
                    next = graph.next_preorder_at(n, id.index());
                }
                let expect = if inside { count } else { 0 };
                assert_eq!(sizes.size(id.index()), expect);
            }
            assert_eq!(sizes.size(other.index()), 0);
        }
    }
}
