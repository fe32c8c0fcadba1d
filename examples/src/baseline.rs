//! What scenewalk's traversal is measured against: hand-written walks over plain data.
//!
//! - [`Links`] with [`Links::preorder`]: the stackless first-child / next-sibling loop
//!   of reference note 000 over bare `u32` arrays (12 bytes a node), the fastest
//!   general pre-order walk there is and the benchmark's baseline;
//! - [`graph_preorder_links`] and [`graph_preorder_steps`]: the same loop over
//!   scenewalk's own [`Graph`], through its public link accessors;
//! - [`VecNode`] with [`VecNode::preorder`]: the textbook recursive walk over nested
//!   `Vec` children.

use crate::shape::NO_PARENT;
use scenewalk_core::{Graph, NodeIndex};

/// "No node" in a [`Links`] record.
pub const NIL: u32 = u32::MAX;

/// A tree as bare link arrays: record `i` is `[parent, first_child, next_sibling]`
/// of node `i`, [`NIL`] where there is none. 12 bytes a node, nothing else.
///
/// ```
/// use scenewalk_examples::TreeShape;
/// let links = TreeShape::complete(6, 2).to_links();
/// let mut order = Vec::new();
/// links.preorder(0, |node| order.push(node));
/// assert_eq!(order, [0, 1, 2, 3, 4, 5]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Links {
    records: Vec<[u32; 3]>,
}

impl Links {
    /// Index of the parent in a record.
    pub const PARENT: usize = 0;
    /// Index of the first child in a record.
    pub const FIRST_CHILD: usize = 1;
    /// Index of the next sibling in a record.
    pub const NEXT_SIBLING: usize = 2;

    /// Links from a parent list in which every parent precedes its children
    /// ([`NO_PARENT`] for a root); children keep their order in the list.
    ///
    /// # Panics
    /// If a parent does not precede its child.
    pub fn from_parents(parents: &[u32]) -> Self {
        let mut records = vec![[NIL; 3]; parents.len()];
        let mut last_child = vec![NIL; parents.len()];
        for (i, &p) in parents.iter().enumerate() {
            let i = i as u32;
            if p == NO_PARENT {
                continue;
            }
            assert!(p < i, "parent {p} of node {i} does not precede it");
            records[i as usize][Self::PARENT] = p;
            match last_child[p as usize] {
                NIL => records[p as usize][Self::FIRST_CHILD] = i,
                prev => records[prev as usize][Self::NEXT_SIBLING] = i,
            }
            last_child[p as usize] = i;
        }
        Self { records }
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The records.
    pub fn records(&self) -> &[[u32; 3]] {
        &self.records
    }

    /// Bytes of link data per node.
    pub const BYTES_PER_NODE: usize = std::mem::size_of::<[u32; 3]>();

    /// Calls `visit` on every node of `root`'s subtree in depth-first pre-order, with
    /// no stack and no allocation: down the first child while there is one, else to
    /// the next sibling of the nearest node on the way up that has one, stopping on
    /// the way back at `root` (reference note 000).
    ///
    /// # Panics
    /// If `root` is out of range.
    #[inline]
    pub fn preorder(&self, root: u32, mut visit: impl FnMut(u32)) {
        let links = &self.records[..];
        let mut node = root;
        loop {
            visit(node);
            let first = links[node as usize][Self::FIRST_CHILD];
            if first != NIL {
                node = first;
                continue;
            }
            loop {
                if node == root {
                    return;
                }
                let record = &links[node as usize];
                if record[Self::NEXT_SIBLING] != NIL {
                    node = record[Self::NEXT_SIBLING];
                    break;
                }
                node = record[Self::PARENT];
            }
        }
    }
}

/// Note 000's loop over a scenewalk [`Graph`] through
/// [`first_child_at`](Graph::first_child_at), [`next_sibling_at`](Graph::next_sibling_at)
/// and [`parent_at`](Graph::parent_at): what a user writes by hand against the graph.
///
/// ```
/// use scenewalk_examples::{TreeShape, baseline::graph_preorder_links};
/// let (graph, root) = TreeShape::complete(10, 3).to_graph();
/// let mut n = 0;
/// graph_preorder_links(&graph, root.index(), |_| n += 1);
/// assert_eq!(n, 10);
/// ```
#[inline]
pub fn graph_preorder_links(graph: &Graph, root: NodeIndex, mut visit: impl FnMut(NodeIndex)) {
    let mut node = root;
    loop {
        visit(node);
        if let Some(first) = graph.first_child_at(node) {
            node = first;
            continue;
        }
        loop {
            if node == root {
                return;
            }
            if let Some(next) = graph.next_sibling_at(node) {
                node = next;
                break;
            }
            match graph.parent_at(node) {
                Some(parent) => node = parent,
                None => return,
            }
        }
    }
}

/// The same walk through scenewalk's own resumable step,
/// [`Graph::next_preorder_at`].
///
/// ```
/// use scenewalk_examples::{TreeShape, baseline::graph_preorder_steps};
/// let (graph, root) = TreeShape::complete(10, 3).to_graph();
/// let mut n = 0;
/// graph_preorder_steps(&graph, root.index(), |_| n += 1);
/// assert_eq!(n, 10);
/// ```
#[inline]
pub fn graph_preorder_steps(graph: &Graph, root: NodeIndex, mut visit: impl FnMut(NodeIndex)) {
    let mut node = Some(root);
    while let Some(current) = node {
        visit(current);
        node = graph.next_preorder_at(current, root);
    }
}

/// A tree node that owns its children in a `Vec`: the plain Rust layout a recursive
/// walk uses. A node takes 32 bytes (the `Vec` and the id) plus its share of its
/// parent's heap buffer.
///
/// ```
/// use scenewalk_examples::TreeShape;
/// let tree = TreeShape::complete(7, 2).to_vec_tree();
/// let mut order = Vec::new();
/// tree.preorder(&mut |node| order.push(node.id));
/// assert_eq!(order, [0, 1, 2, 3, 4, 5, 6]);
/// assert_eq!(tree.count(), 7);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VecNode {
    /// The node's number in its [`TreeShape`](crate::TreeShape).
    pub id: u32,
    /// The children, in order.
    pub children: Vec<VecNode>,
}

impl VecNode {
    /// Calls `visit` on this node, then recursively on each child's subtree.
    /// Recursion depth is the tree's depth.
    pub fn preorder(&self, visit: &mut impl FnMut(&VecNode)) {
        visit(self);
        for child in &self.children {
            child.preorder(visit);
        }
    }

    /// How many nodes the subtree holds (recursively).
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(VecNode::count).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TreeShape;

    #[test]
    fn links_match_parents() {
        let shape = TreeShape::complete(40, 3);
        let links = shape.to_links();
        assert_eq!(links.len(), 40);
        for (i, record) in links.records().iter().enumerate() {
            assert_eq!(record[Links::PARENT], shape.parents()[i]);
            let mut child = record[Links::FIRST_CHILD];
            while child != NIL {
                assert_eq!(links.records()[child as usize][Links::PARENT], i as u32);
                child = links.records()[child as usize][Links::NEXT_SIBLING];
            }
        }
        assert_eq!(Links::BYTES_PER_NODE, 12);
    }

    #[test]
    fn every_walk_gives_the_same_order() {
        // Not in pre-order: node 3 hangs under node 1 after node 2 was listed.
        let shape = TreeShape::from_parents(vec![NO_PARENT, 0, 0, 1, 2, 3, 0]).unwrap();
        let expected = [0, 1, 3, 5, 2, 4, 6];

        let mut raw = Vec::new();
        shape.to_links().preorder(0, |n| raw.push(n));
        assert_eq!(raw, expected);

        let mut rec = Vec::new();
        shape.to_vec_tree().preorder(&mut |n| rec.push(n.id));
        assert_eq!(rec, expected);

        let (graph, root) = shape.to_graph();
        let mut by_links = Vec::new();
        graph_preorder_links(&graph, root.index(), |n| by_links.push(n.raw()));
        assert_eq!(by_links, expected);
        let mut by_steps = Vec::new();
        graph_preorder_steps(&graph, root.index(), |n| by_steps.push(n.raw()));
        assert_eq!(by_steps, expected);
    }

    #[test]
    fn walks_stay_inside_a_subtree() {
        let shape = TreeShape::complete(21, 4); // root, 4 children with 4 leaves each
        let mut sub = Vec::new();
        shape.to_links().preorder(1, |n| sub.push(n));
        assert_eq!(sub, [1, 2, 3, 4, 5]);
        let (graph, root) = shape.to_graph();
        let first = graph.first_child(root).unwrap().unwrap().index();
        let mut in_graph = Vec::new();
        graph_preorder_links(&graph, first, |n| in_graph.push(n.raw()));
        assert_eq!(in_graph, [1, 2, 3, 4, 5]);
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn vec_node_is_32_bytes() {
        // The figure docs/benchmarks.md gives for the recursive baseline.
        assert_eq!(std::mem::size_of::<VecNode>(), 32);
    }

    #[test]
    fn single_node() {
        let shape = TreeShape::complete(1, 4);
        let mut n = 0;
        shape.to_links().preorder(0, |_| n += 1);
        assert_eq!(n, 1);
        assert_eq!(shape.to_vec_tree().count(), 1);
    }
}
