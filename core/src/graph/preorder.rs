//! The allocation-free depth-first step over first-child / next-sibling links.

#![allow(
    clippy::indexing_slicing,
    reason = "checked slots or live links; out of range is a bug"
)]

use crate::error::GraphError;
use crate::graph::id::NIL;
use crate::graph::{Graph, NodeId, NodeIndex};

impl Graph {
    /// The node after `node` in a depth-first, document-order walk of the subtree of
    /// `root`; `None` once the subtree is done. Stackless: it reads only links, and a
    /// walk can stop and resume anywhere.
    ///
    /// Errors: a stale id, or [`GraphError::NotInSubtree`] when `node` is not in
    /// `root`'s subtree (checked in O(depth); the `_at` form skips the check).
    pub fn next_preorder(&self, node: NodeId, root: NodeId) -> Result<Option<NodeId>, GraphError> {
        // A stale `node` is named first, as the argument order reads.
        self.check(node)?;
        if !self.is_ancestor_or_self(root, node)? {
            return Err(GraphError::NotInSubtree { node, root });
        }
        let next = self.next_preorder_at(node.index(), root.index());
        Ok(next.map(|i| self.id_of(i.0)))
    }

    /// [`next_preorder`](Graph::next_preorder) on slot indices, for traversal code:
    /// `node` must lie in `root`'s subtree (not checked: a node outside it walks on
    /// through its own tree); an index outside the arena gives `None`.
    #[inline]
    pub fn next_preorder_at(&self, node: NodeIndex, root: NodeIndex) -> Option<NodeIndex> {
        if node.get() >= self.hot.len() || root.get() >= self.hot.len() {
            return None;
        }
        let first = self.hot[node.get()].first_child;
        if first != NIL {
            return Some(NodeIndex(first));
        }
        self.next_after_subtree(node.0, root.0).map(NodeIndex)
    }

    /// The step after `node`'s subtree (never into its children).
    #[inline]
    pub(crate) fn next_after_subtree(&self, mut node: u32, root: u32) -> Option<u32> {
        loop {
            if node == root {
                return None;
            }
            let hot = &self.hot[node as usize];
            if hot.next_sibling != NIL {
                return Some(hot.next_sibling);
            }
            node = hot.parent;
            if node == NIL {
                return None;
            }
        }
    }
}
