//! A payload column kept across the nodes of a run.

use crate::actor::Visit;
use crate::graph::{Column, NodeCore};
use std::any::Any;
use std::sync::Arc;

/// Typed access to the payloads of type `T` that stays resolved across the nodes of
/// a run, for an actor that reads a `T` at many nodes.
///
/// [`Visit::get`] checks the column's exact type at every node (a virtual
/// `type_id` call). This keeps the graph's column of `T` from the first node of a `T`
/// on, so later ones reach their payload with two compares and an index, as the
/// typed [`Functor`](crate::Functor)s of a dispatch actor do. A node of a type that
/// extends `T` lives in another column and takes [`Visit::get`]'s way, with the
/// same result.
///
/// It holds a share of the column: call [`release`](Self::release) when the run
/// ends (in the actor's `end`), or the graph's next edit of a `T` copies the column.
///
/// ```
/// use scenewalk_core::{Graph, KeptColumn, Visit};
/// # #[derive(Clone, Debug, PartialEq)] struct Mass(f32);
/// # impl scenewalk_core::NodeCore for Mass {}
/// let mut graph = Graph::new();
/// let a = graph.add_root(Mass(2.0));
/// let b = graph.append_child(a, Mass(3.0))?;
/// let mut masses = KeptColumn::<Mass>::new();
/// let mut total = 0.0;
/// for id in [a, b] {
///     let visit = Visit::new(&graph, id.index(), 0).unwrap();
///     total += masses.get(&visit).map_or(0.0, |m| m.0);
/// }
/// masses.release();
/// assert_eq!(total, 5.0);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
pub struct KeptColumn<T> {
    /// The graph's column of `T`, shared while a run lasts.
    column: Option<Arc<Column<T>>>,
    /// The type index of `T` and the graph's column key when the column was kept:
    /// while both match a visit, the kept column is that graph's column of the node's
    /// type (holding it stops the graph from writing it in place).
    ty: u32,
    key: u64,
}

impl<T> std::fmt::Debug for KeptColumn<T> {
    /// Whether a column is kept, not its contents (the graph's whole column).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeptColumn")
            .field("kept", &self.column.is_some())
            .finish()
    }
}

impl<T> Default for KeptColumn<T> {
    fn default() -> Self {
        Self {
            column: None,
            ty: u32::MAX,
            key: 0,
        }
    }
}

impl<T> Clone for KeptColumn<T> {
    /// A clone keeps no column: it resolves its own at its first node.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<T: NodeCore> KeptColumn<T> {
    /// Nothing kept yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The visited node's payload as a `T`, as [`Visit::get`] gives it.
    #[inline(always)]
    pub fn get<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        let graph = visit.graph();
        if visit.node_type().0 != self.ty || graph.column_key() != self.key {
            return self.get_cold(visit);
        }
        self.get_kept(visit)
    }

    /// The node's payload from the kept column, with no check that the column is the
    /// node's: for a caller that checked the node's type index and the graph's column
    /// key itself (as [`Arms`](crate::Arms) does once per node for all its arms).
    #[inline(always)]
    pub(crate) fn get_kept<'a>(&'a self, visit: &Visit<'_>) -> Option<&'a T> {
        let own = self.column.as_ref()?;
        visit
            .graph()
            .slot_at(visit.node())
            .and_then(|s| own.get_typed(s))
    }

    /// A node of another type or graph, or the first of a run.
    #[inline(always)]
    fn get_cold<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        // Nothing of `self` goes to the out-of-line lookup: a call that may write
        // through a pointer into the caller's actor (and so into its action) makes
        // the walk around an inlined caller reload its state from memory after
        // every node, whichever path the node took.
        let (column, node) = Self::lookup(*visit);
        if column.is_some() {
            // The old column is dropped as a local: `Arc`'s out-of-line drop would
            // otherwise get the address of a field of the actor.
            let old = std::mem::replace(&mut self.column, column);
            drop(old);
            self.ty = visit.node_type().0;
            self.key = visit.graph().column_key();
        }
        node
    }

    /// Keeps the graph's column of type index `ty` if it is a column of `T`, before a
    /// run's first node; `false` (and nothing kept) otherwise.
    pub(crate) fn keep(&mut self, graph: &crate::graph::Graph, ty: u32) -> bool {
        let column = Self::typed_column(graph, ty);
        let kept = column.is_some();
        self.column = column;
        (self.ty, self.key) = if kept {
            (ty, graph.column_key())
        } else {
            (u32::MAX, 0)
        };
        kept
    }

    /// Lets go of the column (at the end of a run).
    pub fn release(&mut self) {
        *self = Self::default();
    }

    /// The node's `T` view, found the general way, and the graph's column of the
    /// node's type if it is a column of `T` (to keep): at the first node of a run
    /// with this column, or a node of a type extending `T` (which lives in another
    /// column: nothing is kept for it).
    #[cold]
    #[inline(never)]
    fn lookup(visit: Visit<'_>) -> (Option<Arc<Column<T>>>, Option<&T>) {
        (
            Self::typed_column(visit.graph(), visit.node_type().0),
            visit.get::<T>(),
        )
    }

    /// A share of the graph's column of type index `ty`, if it is a column of `T`.
    fn typed_column(graph: &crate::graph::Graph, ty: u32) -> Option<Arc<Column<T>>> {
        graph
            .column_arc(ty)
            .filter(|shared| {
                let erased: &dyn Any = &***shared;
                erased.is::<Column<T>>()
            })
            .and_then(|shared| {
                let any: Arc<dyn Any + Send + Sync> = shared.clone();
                any.downcast::<Column<T>>().ok()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::KeptColumn;
    use crate::actor::Visit;
    use crate::graph::{Graph, NodeCore, NodeId};
    use proptest::prelude::*;

    #[derive(Clone, Debug, PartialEq)]
    struct Mass(u32);
    impl NodeCore for Mass {}

    /// A type extending `Mass`: its payloads live in a column of their own.
    #[derive(Clone, Debug)]
    struct Heavy(Mass);
    impl NodeCore for Heavy {
        fn base(&self) -> Option<&dyn NodeCore> {
            Some(&self.0)
        }
        fn parent_type() -> Option<crate::graph::ParentType> {
            Some(crate::graph::ParentType::of::<Mass>())
        }
    }

    #[derive(Clone, Debug)]
    struct Other;
    impl NodeCore for Other {}

    /// A graph of `kinds.len()` nodes in a chain, each a Mass, a Heavy or an Other.
    fn build(kinds: &[u8], salt: u32) -> (Graph, Vec<NodeId>) {
        let mut graph = Graph::new();
        let mut ids: Vec<NodeId> = Vec::new();
        for (i, &k) in kinds.iter().enumerate() {
            let value = i as u32 * 7 + salt;
            let id = match (ids.last(), k % 3) {
                (None, _) => graph.add_root(Mass(value)),
                (Some(&p), 0) => graph.append_child(p, Mass(value)).unwrap(),
                (Some(&p), 1) => graph.append_child(p, Heavy(Mass(value))).unwrap(),
                (Some(&p), _) => graph.append_child(p, Other).unwrap(),
            };
            ids.push(id);
        }
        (graph, ids)
    }

    proptest! {
        /// Across two graphs, node types that extend `T`, and edits that copy the
        /// kept column, every read is `Visit::get`'s.
        #[test]
        fn reads_as_visit_get(
            kinds in proptest::collection::vec(any::<u8>(), 1..40),
            reads in proptest::collection::vec((any::<bool>(), any::<usize>(), any::<bool>()), 1..80),
        ) {
            let (mut a, ids_a) = build(&kinds, 0);
            let (b, ids_b) = build(&kinds, 1000);
            let mut kept = KeptColumn::<Mass>::new();
            for (i, (in_b, pick, edit)) in reads.into_iter().enumerate() {
                if edit && !in_b {
                    // An edit while the column is kept: the graph copies it.
                    let id = ids_a[pick % ids_a.len()];
                    if let Ok(m) = a.get_mut::<Mass>(id) {
                        m.0 = 5000 + i as u32;
                    }
                }
                let (graph, ids) = if in_b { (&b, &ids_b) } else { (&a, &ids_a) };
                let id = ids[pick % ids.len()];
                let visit = Visit::new(graph, id.index(), 0).unwrap();
                let expected = visit.get::<Mass>().cloned();
                prop_assert_eq!(kept.get(&visit).cloned(), expected);
            }
            kept.release();
        }
    }
}
