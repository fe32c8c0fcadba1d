//! Reading nodes as a `T` in a loop.

use crate::actor::Visit;
use crate::graph::{Column, Graph, NodeCore, NodeIndex, NodeType, TypeRegistry, TypeSet};
use std::any::Any;
use std::sync::Arc;

/// Nodes read as a `T` (its own type or one extending it) from a loop or an actor that
/// meets many of them: [`Visit::get`] resolved once, in its two halves.
///
/// - **Is it a `T`?** [`contains`](Self::contains) answers from a flat table with one
///   entry per registered type ([`resolve`](Self::resolve) it when a run begins).
/// - **Its payload.** [`get`](Self::get) gives what [`Visit::get`] gives, but keeps the
///   graph's column of `T` from the first node of exactly `T` on, so later ones skip
///   the virtual type check.
///
/// While it keeps a column it holds a share of it, which the graph's next edit of a `T`
/// would have to copy: a loop reads through a [`scope`](Self::scope), which lets go of
/// the column when it ends; an actor that keeps a `Typed` across a run's nodes lets go
/// of it in its `end` ([`release`](Self::release)). A clone keeps the table, not the
/// column.
///
/// ```
/// use scenewalk_core::{Graph, NodeCore, ParentType, Typed, Visit};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl NodeCore for Group {}
/// # #[derive(Clone, Debug)] struct Mass(f32);
/// # impl NodeCore for Mass {}
/// #[derive(Clone, Debug)]
/// struct Ball(Mass); // extends `Mass`
/// impl NodeCore for Ball {
///     fn base(&self) -> Option<&dyn NodeCore> { Some(&self.0) }
///     fn parent_type() -> Option<ParentType> { Some(ParentType::of::<Mass>()) }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Mass(2.0))?;
/// let b = graph.append_child(root, Ball(Mass(3.0)))?;
/// let mut masses = Typed::<Mass>::new();
/// // Resolved for the graph's types; the column kept goes when the loop ends.
/// let total = masses.scope(graph.types(), |masses| {
///     let mut total = 0.0;
///     for id in [root, a, b] {
///         let visit = Visit::new(&graph, id.index(), 0).unwrap();
///         assert_eq!(masses.contains(visit.node_type()), id != root);
///         total += masses.get(&visit).map_or(0.0, |m| m.0);
///     }
///     total
/// });
/// assert_eq!(total, 5.0);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
pub struct Typed<T> {
    set: TypeSet,
    column: Kept<T>,
}

impl<T> std::fmt::Debug for Typed<T> {
    /// The type and whether a column is kept, not its contents.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Typed")
            .field("type", &crate::graph::short_type_name::<T>())
            .field("kept", &self.column.column.is_some())
            .finish_non_exhaustive()
    }
}

impl<T: NodeCore> Default for Typed<T> {
    fn default() -> Self {
        Self {
            set: TypeSet::of_id(std::any::TypeId::of::<T>()),
            column: Kept::default(),
        }
    }
}

impl<T: NodeCore> Clone for Typed<T> {
    /// The same table; no column: a clone keeps its own at its first node.
    fn clone(&self) -> Self {
        Self {
            set: self.set.clone(),
            column: Kept::default(),
        }
    }
}

impl<T: NodeCore> Typed<T> {
    /// Nothing resolved or kept yet: [`contains`](Self::contains) holds no type until
    /// [`resolve`](Self::resolve)d.
    pub fn new() -> Self {
        Self::default()
    }

    /// Resolves which of `types` are a `T`, unless already resolved for them.
    pub fn resolve(&mut self, types: &TypeRegistry) {
        self.set.resolve(types);
    }

    /// Whether `ty` is a `T` (or extends it), as resolved; `false` for a type the
    /// registry did not hold when resolved.
    #[inline]
    pub fn contains(&self, ty: NodeType) -> bool {
        self.set.contains(ty)
    }

    /// The visited node's payload as a `T`, as [`Visit::get`] gives it.
    #[inline(always)]
    pub fn get<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        self.column.get(visit)
    }

    /// Resolves for `types` (as [`resolve`](Self::resolve)), runs the loop `f` with
    /// `self`, then lets go of the kept column.
    pub fn scope<R>(&mut self, types: &TypeRegistry, f: impl FnOnce(&mut Self) -> R) -> R {
        self.resolve(types);
        let out = f(self);
        self.release();
        out
    }

    /// Lets go of the kept column (an actor's `end`); the table stays.
    pub fn release(&mut self) {
        self.column = Kept::default();
    }

    /// Resolves for `graph`'s types and keeps its column of exactly `T` now, for reads by
    /// node ([`get_at`](Self::get_at)) or by position ([`kept`](Self::kept)) while the
    /// graph stays as it is; `false` if the graph holds no `T` yet. Let go of it as of any
    /// kept column.
    pub fn keep(&mut self, graph: &Graph) -> bool {
        self.resolve(graph.types());
        let Some(ty) = graph.types().index_of::<T>() else {
            self.release();
            return false;
        };
        self.column.keep(graph, ty.0)
    }

    /// The payloads of exactly `T` in the column kept of `graph`, at the positions
    /// [`Graph::payload_slot_at`] gives; empty when none is kept or `graph` was edited
    /// since (any edit, a payload write too, leaves the kept column behind).
    #[inline]
    pub fn kept(&self, graph: &Graph) -> &[T] {
        match &self.column.column {
            Some(column) if graph.column_key == self.column.key => &column.items,
            _ => &[],
        }
    }

    /// The payload of the node in slot `node` as a `T`, as [`Graph::get_at`] gives it;
    /// a node of exactly `T` read from the column [`keep`](Self::keep) kept of `graph`.
    #[inline]
    pub fn get_at<'a>(&'a self, graph: &'a Graph, node: NodeIndex) -> Option<&'a T> {
        let ty = graph.hot.get(node.get())?.ty;
        if graph.column_key != self.column.key {
            return get_other(graph, node);
        }
        if ty == self.column.ty {
            return self.kept(graph).get(graph.slot_at(node)? as usize);
        }
        // Resolved when kept, for every type with a node: a new type's first node would
        // have drawn a new column key.
        let extends = self.set.contains(NodeType(ty));
        extends.then(|| get_other(graph, node))?
    }
}

/// A node of a type extending `T`, or a column not kept: the graph's own lookup, out of
/// line so the kept-column read inlines.
#[cold]
#[inline(never)]
fn get_other<T: NodeCore>(graph: &Graph, node: NodeIndex) -> Option<&T> {
    graph.get_at::<T>(node)
}

/// The graph's column of `T`, kept across the nodes of a run: the payload half of
/// [`Typed`], which [`Arms`](crate::Arms) and typed functors hold alone.
pub(crate) struct Kept<T> {
    column: Option<Arc<Column<T>>>,
    /// The type index of `T` and the graph's column key when the column was kept:
    /// while both match a visit, the kept column is the node's.
    ty: u32,
    key: u64,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Self {
            column: None,
            ty: u32::MAX,
            key: 0,
        }
    }
}

impl<T: NodeCore> Kept<T> {
    /// The visited node's payload as a `T`, as [`Visit::get`] gives it.
    #[inline(always)]
    pub(crate) fn get<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        if !self.holds(visit) {
            return self.get_cold(visit);
        }
        self.get_kept(visit)
    }

    /// [`get`](Self::get) with the lookup out of line, for a caller behind a virtual
    /// call (a typed functor): inlined, the lookup makes every call save and restore
    /// the registers it needs.
    #[inline]
    pub(crate) fn get_or_look_up<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        if !self.holds(visit) {
            return self.look_up(visit);
        }
        self.get_kept(visit)
    }

    /// Whether the kept column is the visited node's.
    #[inline]
    fn holds(&self, visit: &Visit<'_>) -> bool {
        visit.node_type().0 == self.ty && visit.graph().column_key == self.key
    }

    #[cold]
    #[inline(never)]
    fn look_up<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        self.get_cold(visit)
    }

    /// Lets go of the column.
    pub(crate) fn release(&mut self) {
        *self = Self::default();
    }

    /// The node's payload from the kept column, for a caller that checked the type
    /// index and column key itself (as [`Arms`](crate::Arms) does for all its arms).
    #[inline(always)]
    pub(crate) fn get_kept<'a>(&'a self, visit: &Visit<'_>) -> Option<&'a T> {
        let own = self.column.as_ref()?;
        visit
            .graph()
            .slot_at(visit.node())
            .and_then(|s| own.items.get(s as usize))
    }

    /// A node of another type or graph, or the first of a run.
    #[inline(always)]
    fn get_cold<'a, 'g: 'a>(&'a mut self, visit: &Visit<'g>) -> Option<&'a T> {
        // Nothing of `self` goes to the out-of-line lookup: a call that may write into
        // the caller's actor makes the inlined walk reload its state after every node.
        let (column, node) = Self::lookup(*visit);
        if column.is_some() {
            // Dropped as a local, so `Arc`'s out-of-line drop gets no field's address.
            let old = std::mem::replace(&mut self.column, column);
            drop(old);
            self.ty = visit.node_type().0;
            self.key = visit.graph().column_key;
        }
        node
    }

    /// Keeps the graph's column of type index `ty` if it is a column of `T`.
    pub(crate) fn keep(&mut self, graph: &Graph, ty: u32) -> bool {
        self.column = Self::typed_column(graph, ty);
        let kept = self.column.is_some();
        // Key 0 names no graph's columns: nothing kept matches.
        (self.ty, self.key) = (ty, if kept { graph.column_key } else { 0 });
        kept
    }

    /// The node's `T` view, found the general way, and its type's column if it is a
    /// column of `T` (to keep).
    #[cold]
    #[inline(never)]
    fn lookup(visit: Visit<'_>) -> (Option<Arc<Column<T>>>, Option<&T>) {
        (
            Self::typed_column(visit.graph(), visit.node_type().0),
            visit.get::<T>(),
        )
    }

    /// A share of the graph's column of type index `ty`, if it is a column of `T`.
    fn typed_column(graph: &Graph, ty: u32) -> Option<Arc<Column<T>>> {
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
