//! Tree shapes as parent lists, turned into a [`Graph`] or into the baselines' layouts.

use crate::baseline::{Links, NIL, VecNode};
use crate::rng::SplitMix64;
use scenewalk_core::{Graph, NodeCore, NodeId};
use scenewalk_nodes::Group;

/// The parent of a root in [`TreeShape::parents`].
pub const NO_PARENT: u32 = u32::MAX;

/// The shape of a tree: node `i`'s parent is `parents()[i]`, always an earlier node
/// (node 0 is the root).
///
/// One shape builds every layout a benchmark compares, so they all hold exactly the
/// same tree: scenewalk's [`Graph`] ([`to_graph`](Self::to_graph)), raw first-child /
/// next-sibling arrays ([`to_links`](Self::to_links)) and nested `Vec` children
/// ([`to_vec_tree`](Self::to_vec_tree)). Node `i` lands in slot `i` of the graph and
/// of the arrays, so a shape listed in depth-first order (as
/// [`complete`](Self::complete) makes) gives records in depth-first order.
///
/// ```
/// use scenewalk_examples::TreeShape;
/// let shape = TreeShape::complete(5, 2); // a root, two children, two grandchildren
/// assert_eq!(shape.parents(), [u32::MAX, 0, 1, 1, 0]);
/// assert!(shape.is_preorder());
/// let (graph, root) = shape.to_graph();
/// assert_eq!(graph.len(), 5);
/// assert_eq!(graph.children(root)?.count(), 2);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeShape {
    parents: Vec<u32>,
}

impl TreeShape {
    /// The first `n` nodes of a complete `fanout`-ary tree (every level full but the
    /// last, which fills from the left), listed in depth-first order: exactly `n`
    /// nodes, depth ⌈log_fanout⌉. `n` is at least 1 and `fanout` at least 1.
    ///
    /// ```
    /// use scenewalk_examples::TreeShape;
    /// let shape = TreeShape::complete(1_000, 4);
    /// assert_eq!(shape.len(), 1_000);
    /// assert_eq!(shape.max_depth(), 5);
    /// ```
    pub fn complete(n: usize, fanout: usize) -> Self {
        let n = n.max(1);
        let fanout = fanout.max(1);
        let mut parents = Vec::with_capacity(n);
        // (heap number, depth-first position of the parent); heap node h has children
        // fanout*h + 1 ..= fanout*h + fanout, so the first n heap numbers are the tree.
        let mut stack = vec![(0usize, NO_PARENT)];
        while let Some((heap, parent)) = stack.pop() {
            let position = parents.len() as u32;
            parents.push(parent);
            let first = heap.saturating_mul(fanout).saturating_add(1);
            let end = first.saturating_add(fanout).min(n);
            for child in (first..end).rev() {
                stack.push((child, position));
            }
        }
        Self { parents }
    }

    /// The complete `fanout`-ary tree with every leaf at `depth`:
    /// (fanoutᵈᵉᵖᵗʰ⁺¹ − 1) / (fanout − 1) nodes, in depth-first order.
    ///
    /// # Panics
    /// If the tree would have more than `u32::MAX - 1` nodes.
    pub fn full(depth: u32, fanout: usize) -> Self {
        let fanout = fanout.max(1);
        let mut n: usize = 0;
        let mut level: usize = 1;
        for _ in 0..=depth {
            n = n.checked_add(level).expect("tree too large");
            level = level.checked_mul(fanout).expect("tree too large");
        }
        assert!(n < u32::MAX as usize, "tree too large");
        Self::complete(n, fanout)
    }

    /// A shape from a parent list; `None` unless `parents[0]` is [`NO_PARENT`] and
    /// every other entry names an earlier node.
    pub fn from_parents(parents: Vec<u32>) -> Option<Self> {
        let valid = parents.first() == Some(&NO_PARENT)
            && parents.len() < u32::MAX as usize
            && parents
                .iter()
                .enumerate()
                .skip(1)
                .all(|(i, &p)| (p as usize) < i);
        valid.then_some(Self { parents })
    }

    /// The same ordered tree with its nodes numbered in a random order, so that built
    /// as a [`Graph`] or as [`Links`] its records lie scattered instead of in walk
    /// order. Each parent still comes before its children and each sibling after the
    /// previous one, so every layout keeps the children's order: a walk meets the same
    /// tree, only from other slots.
    ///
    /// ```
    /// use scenewalk_examples::TreeShape;
    /// let shape = TreeShape::complete(1_000, 4);
    /// let scattered = shape.scattered(1);
    /// assert_eq!(scattered.len(), 1_000);
    /// assert!(!scattered.is_preorder());
    /// ```
    pub fn scattered(&self, seed: u64) -> Self {
        let links = self.to_links();
        let records = links.records();
        let mut rng = SplitMix64::new(seed);
        let mut renumbered = vec![0u32; self.len()];
        let mut parents = Vec::with_capacity(self.len());
        // Nodes whose parent and previous sibling are numbered already.
        let mut ready = vec![0u32];
        while !ready.is_empty() {
            let old = ready.swap_remove(rng.below(ready.len()));
            renumbered[old as usize] = parents.len() as u32;
            parents.push(match self.parents[old as usize] {
                NO_PARENT => NO_PARENT,
                p => renumbered[p as usize],
            });
            let record = records[old as usize];
            for next in [record[Links::FIRST_CHILD], record[Links::NEXT_SIBLING]] {
                if next != NIL {
                    ready.push(next);
                }
            }
        }
        Self { parents }
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Always false: a shape has at least its root.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// The parent list (`NO_PARENT` for the root).
    pub fn parents(&self) -> &[u32] {
        &self.parents
    }

    /// Each node's depth (the root has depth 0).
    pub fn depths(&self) -> Vec<u32> {
        let mut depths = vec![0u32; self.len()];
        for i in 1..self.len() {
            depths[i] = depths[self.parents[i] as usize] + 1;
        }
        depths
    }

    /// The depth of the deepest node.
    pub fn max_depth(&self) -> u32 {
        self.depths().into_iter().max().unwrap_or(0)
    }

    /// How many children each node has.
    pub fn child_counts(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.len()];
        for &p in &self.parents[1..] {
            counts[p as usize] += 1;
        }
        counts
    }

    /// Whether the nodes are listed in depth-first pre-order, i.e. each node's parent
    /// is the previous node or one of its ancestors.
    pub fn is_preorder(&self) -> bool {
        let mut path: Vec<u32> = Vec::new();
        for (i, &p) in self.parents.iter().enumerate() {
            if i == 0 {
                path.push(0);
                continue;
            }
            while path.last().is_some_and(|&top| top != p) {
                path.pop();
            }
            if path.is_empty() {
                return false;
            }
            path.push(i as u32);
        }
        true
    }

    /// The tree as a [`Graph`] of [`Group`] nodes (zero-sized payloads), node `i` in
    /// slot `i`; returns the graph and its root.
    pub fn to_graph(&self) -> (Graph, NodeId) {
        self.to_graph_with(|_| Group)
    }

    /// The tree as a [`Graph`] whose node `i` holds `payload(i)`; node `i` in slot `i`.
    pub fn to_graph_with<T: NodeCore>(
        &self,
        mut payload: impl FnMut(usize) -> T,
    ) -> (Graph, NodeId) {
        let mut graph = Graph::with_capacity(self.len());
        let mut ids: Vec<NodeId> = Vec::with_capacity(self.len());
        let root = graph.add_root(payload(0));
        ids.push(root);
        for (i, &p) in self.parents.iter().enumerate().skip(1) {
            let id = graph
                .append_child(ids[p as usize], payload(i))
                .expect("a shape's parents precede their children");
            ids.push(id);
        }
        (graph, root)
    }

    /// The tree as raw parent / first-child / next-sibling arrays, node `i` at index `i`.
    pub fn to_links(&self) -> Links {
        Links::from_parents(&self.parents)
    }

    /// The tree as nested `Vec` children; node `i` carries `id == i`.
    ///
    /// Built bottom-up without recursion, but dropping a [`VecNode`] recurses, so keep
    /// it to trees of moderate depth.
    pub fn to_vec_tree(&self) -> VecNode {
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); self.len()];
        for (i, &p) in self.parents.iter().enumerate().skip(1) {
            children[p as usize].push(i as u32);
        }
        // Children have larger numbers than their parent: build from the last node up.
        let mut built: Vec<Option<VecNode>> = (0..self.len()).map(|_| None).collect();
        for i in (0..self.len()).rev() {
            let node = VecNode {
                id: i as u32,
                children: children[i]
                    .iter()
                    .map(|&c| built[c as usize].take().expect("each child is built once"))
                    .collect(),
            };
            built[i] = Some(node);
        }
        built[0].take().expect("a shape has a root")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_has_exactly_n_nodes_in_preorder() {
        for (n, fanout) in [
            (1, 4),
            (2, 4),
            (5, 4),
            (21, 4),
            (100, 3),
            (1000, 2),
            (77, 1),
        ] {
            let shape = TreeShape::complete(n, fanout);
            assert_eq!(shape.len(), n);
            assert!(shape.is_preorder(), "n={n} fanout={fanout}");
            assert!(shape.child_counts().iter().all(|&c| c as usize <= fanout));
        }
        assert_eq!(TreeShape::complete(0, 4).len(), 1);
    }

    #[test]
    fn full_tree_counts() {
        let shape = TreeShape::full(3, 4);
        assert_eq!(shape.len(), 1 + 4 + 16 + 64);
        let depths = shape.depths();
        let counts = shape.child_counts();
        for i in 0..shape.len() {
            if depths[i] < 3 {
                assert_eq!(counts[i], 4);
            } else {
                assert_eq!(counts[i], 0);
            }
        }
        assert_eq!(TreeShape::full(0, 4).len(), 1);
        assert_eq!(TreeShape::full(4, 2).len(), 31);
    }

    #[test]
    fn chain_is_a_path() {
        let shape = TreeShape::complete(50, 1);
        assert_eq!(shape.max_depth(), 49);
        assert!(shape.is_preorder());
    }

    #[test]
    fn from_parents_validates() {
        assert!(TreeShape::from_parents(vec![]).is_none());
        assert!(TreeShape::from_parents(vec![0]).is_none());
        assert!(TreeShape::from_parents(vec![NO_PARENT, 1]).is_none());
        let shape = TreeShape::from_parents(vec![NO_PARENT, 0, 0, 1]).unwrap();
        assert!(!shape.is_preorder()); // node 3 comes after its parent's sibling
        assert_eq!(shape.child_counts(), [2, 1, 0, 0]);
    }

    #[test]
    fn scattered_is_the_same_ordered_tree() {
        let shape = TreeShape::complete(2_000, 4);
        let scattered = shape.scattered(3);
        assert_eq!(scattered.len(), shape.len());
        assert!(TreeShape::from_parents(scattered.parents().to_vec()).is_some());
        assert!(!scattered.is_preorder());
        // The same ordered tree: a pre-order walk meets the same depths in the same
        // order, and the same number of children at each step.
        let walk = |s: &TreeShape| {
            let (depths, counts) = (s.depths(), s.child_counts());
            let mut out = Vec::new();
            s.to_links()
                .preorder(0, |n| out.push((depths[n as usize], counts[n as usize])));
            out
        };
        assert_eq!(walk(&scattered), walk(&shape));
        assert_ne!(scattered, shape.scattered(4));
    }

    #[test]
    fn graph_has_the_shape_in_slot_order() {
        let shape = TreeShape::complete(300, 3);
        let (graph, root) = shape.to_graph();
        assert_eq!(graph.len(), 300);
        // The shape is in pre-order and node i sits in slot i, so a pre-order walk
        // meets the slots 0, 1, 2, ... and each has the shape's parent.
        let mut node = Some(root);
        let mut k = 0u32;
        while let Some(id) = node {
            assert_eq!(id.index().raw(), k);
            let parent = graph.parent(id).unwrap().map(|p| p.index().raw());
            assert_eq!(parent.unwrap_or(NO_PARENT), shape.parents()[k as usize]);
            node = graph.next_preorder(id, root).unwrap();
            k += 1;
        }
        assert_eq!(k, 300);
    }
}
