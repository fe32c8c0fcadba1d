//! Per-type dispatch with functors chosen at run time (Coin3D's method list).

use crate::actor::{Flow, Visit};
use crate::dispatch::arms::{Otherwise, view};
use crate::dispatch::typed::Kept;
use crate::graph::{NodeCore, NodeType, RegistryStamp, TypeRegistry};
use std::any::TypeId;
use std::sync::Arc;

/// A functor, type-erased: one virtual call per node.
pub(crate) trait Call<Cx>: Send {
    /// Calls the functor on the visited node.
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow;
    /// [`call`](Call::call) in a run of an [`Arms`](crate::Arms), which releases the
    /// column in `end`: a typed functor keeps its type's column across nodes, as
    /// [`Typed`](crate::Typed) does.
    fn call_kept(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        self.call(visit, cx)
    }
    /// Lets go of a kept column.
    fn release(&mut self) {}
}

/// A typed arm of an [`Arms`](crate::Arms) (built by [`Arms::on`](crate::Arms::on)),
/// or a typed functor: the closure for the nodes that are a `T`, with the graph's
/// column of `T` kept for a run.
pub struct Arm<T, F> {
    pub(crate) f: F,
    pub(crate) column: Kept<T>,
}

impl<T: NodeCore, F> Arm<T, F> {
    pub(crate) fn new(f: F) -> Self {
        Self {
            f,
            column: Kept::default(),
        }
    }
}

impl<T: NodeCore, Cx, F: FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send> Call<Cx> for Arm<T, F> {
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        match view::<T>(visit.graph(), visit.node(), visit.node_type()) {
            Some(node) => (self.f)(node, visit, cx),
            None => Flow::Continue,
        }
    }

    fn call_kept(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        match self.column.get_or_look_up(visit) {
            Some(node) => (self.f)(node, visit, cx),
            None => Flow::Continue,
        }
    }

    fn release(&mut self) {
        self.column.release();
    }
}

impl<Cx, F: FnMut(&Visit<'_>, &mut Cx) -> Flow + Send> Call<Cx> for Otherwise<F> {
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        (self.0)(visit, cx)
    }
}

/// A callable for one node type (paper 3.2). The three forms of the paper:
/// - a plain function ([`function`](Functor::function));
/// - a closure holding an object, i.e. a method bound to an object
///   ([`closure`](Functor::closure));
/// - a method of the node itself, which may be a trait method and so switch on the
///   node's type once more: a [`function`](Functor::function) that calls it,
///   `Functor::function(|lod: &Lod, _, cx| lod.select(cx))`.
///
/// A functor registered for `T` also runs for types that extend `T`; it receives their
/// `T` view ([`NodeCore::base`]).
pub struct Functor<Cx> {
    call: Box<dyn Call<Cx>>,
    /// Makes the call again, for functors that hold no state (functions and node
    /// methods), so a table of them can be copied for a parallel worker.
    remake: Option<Arc<Remake<Cx>>>,
}

type Remake<Cx> = dyn Fn() -> Box<dyn Call<Cx>> + Send + Sync;

impl<Cx> std::fmt::Debug for Functor<Cx> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Functor")
    }
}

impl<Cx: 'static> Functor<Cx> {
    /// A plain function of the node, the visit and the actor's context (a closure that
    /// captures nothing is one).
    pub fn function<T: NodeCore>(f: fn(&T, &Visit<'_>, &mut Cx) -> Flow) -> Self {
        let remake: Arc<Remake<Cx>> = Arc::new(move || Box::new(Arm::new(f)));
        Self {
            call: remake(),
            remake: Some(remake),
        }
    }

    /// A closure, which may own an object whose method it calls.
    pub fn closure<T: NodeCore>(
        f: impl FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send + 'static,
    ) -> Self {
        Self {
            call: Box::new(Arm::new(f)),
            remake: None,
        }
    }

    /// A functor for any node type, given the type-erased visit.
    pub fn any(f: impl FnMut(&Visit<'_>, &mut Cx) -> Flow + Send + 'static) -> Self {
        Self {
            call: Box::new(Otherwise(f)),
            remake: None,
        }
    }

    /// A fresh copy of a functor made by [`function`](Functor::function) (it holds no
    /// state); `None` for closures, whose state cannot be copied. For parallel workers
    /// ([`MethodTable::try_clone`]).
    pub fn try_clone(&self) -> Option<Self> {
        self.remake.as_ref().map(|remake| Self {
            call: remake(),
            remake: Some(Arc::clone(remake)),
        })
    }
}

const NONE: u32 = u32::MAX;

/// Functors per node type, resolved into one flat table indexed by [`NodeType`]: the
/// run-time half of per-type dispatch (plug-ins, functors swapped between runs).
///
/// Registration only appends; [`resolve`](MethodTable::resolve) builds the table once
/// per registry change, each type's slot from its own functor, else its parent
/// type's, up the chain, else the default: then one index and one call per node. An
/// unordered actor runs one through
/// [`Arms::otherwise_table`](crate::Arms::otherwise_table); another actor resolves it
/// in its `begin` and [`call`](MethodTable::call)s it per node.
///
/// ```
/// use scenewalk_core::{Flow, Functor, Graph, MethodTable, NodeIndex};
/// # #[derive(Clone, Debug)] struct Light;
/// # impl scenewalk_core::NodeCore for Light {}
/// # #[derive(Clone, Debug)] struct Spot(Light);
/// # use scenewalk_core::{NodeCore, ParentType};
/// # impl NodeCore for Spot { fn base(&self) -> Option<&dyn NodeCore> { Some(&self.0) }
/// #     fn parent_type() -> Option<ParentType> { Some(ParentType::of::<Light>()) } }
/// let mut graph = Graph::new();
/// let spot = graph.add_root(Spot(Light));
///
/// let mut table = MethodTable::<Vec<&'static str>>::new();
/// table.add::<Light>(Functor::function(|_: &Light, _, log| { log.push("light"); Flow::Continue }));
/// table.resolve(graph.types());
///
/// let mut log = Vec::new();
/// let visit = scenewalk_core::Visit::new(&graph, spot.index(), 0).unwrap();
/// table.call(&visit, &mut log);
/// assert_eq!(log, ["light"]); // Spot fell back to Light
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Debug)]
pub struct MethodTable<Cx> {
    /// The functors in registration order; the default is the one with no type.
    methods: Vec<(Option<TypeId>, Functor<Cx>)>,
    /// Per type index: position in `methods`, or NONE.
    resolved: Vec<u32>,
    stamp: Option<RegistryStamp>,
}

impl<Cx: 'static> Default for MethodTable<Cx> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Cx: 'static> MethodTable<Cx> {
    /// An empty table.
    pub fn new() -> Self {
        Self {
            methods: Vec::new(),
            resolved: Vec::new(),
            stamp: None,
        }
    }

    /// Puts `functor` in the entry for `ty` (`None`: the default), replacing an
    /// earlier one.
    fn put(&mut self, ty: Option<TypeId>, functor: Functor<Cx>) {
        match self.methods.iter_mut().find(|(t, _)| *t == ty) {
            Some(slot) => slot.1 = functor,
            None => self.methods.push((ty, functor)),
        }
        self.stamp = None;
    }

    /// Registers the functor for `T` (replacing an earlier one).
    pub fn add<T: NodeCore>(&mut self, functor: Functor<Cx>) -> &mut Self {
        self.put(Some(TypeId::of::<T>()), functor);
        self
    }

    /// A copy of the table, resolved as it is, if every functor can be copied
    /// ([`Functor::try_clone`]: functions and node methods, not closures). Parallel
    /// workers of an actor that dispatches per type each need their own.
    pub fn try_clone(&self) -> Option<Self> {
        let methods = self
            .methods
            .iter()
            .map(|(ty, f)| f.try_clone().map(|f| (*ty, f)))
            .collect::<Option<Vec<_>>>()?;
        Some(Self {
            methods,
            resolved: self.resolved.clone(),
            stamp: self.stamp,
        })
    }

    /// Sets the functor for types with no functor of their own or of a parent type.
    pub fn set_default(&mut self, functor: Functor<Cx>) -> &mut Self {
        self.put(None, functor);
        self
    }

    /// Builds the flat table for `types`, unless it is already built for them.
    pub fn resolve(&mut self, types: &TypeRegistry) {
        if self.stamp == Some(types.stamp()) {
            return;
        }
        let position = |ty: Option<TypeId>| {
            self.methods
                .iter()
                .position(|(t, _)| *t == ty)
                .map(|p| p as u32)
        };
        let default = position(None).unwrap_or(NONE);
        types.resolve_by_chain(|id| position(Some(id)), default, &mut self.resolved);
        self.stamp = Some(types.stamp());
    }

    /// Whether some functor (own, inherited or default) handles `ty`.
    pub fn handles(&self, ty: NodeType) -> bool {
        self.resolved.get(ty.get()).is_some_and(|&m| m != NONE)
    }

    /// Calls the functor for the visited node's type; `Continue` if there is none or
    /// the table is not resolved for this graph's types (call
    /// [`resolve`](MethodTable::resolve) first; it is cheap when nothing changed).
    #[inline]
    pub fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        if self.stamp != Some(visit.graph().types().stamp()) {
            return Flow::Continue;
        }
        self.call_resolved(visit, cx, false)
    }

    /// [`call`](Self::call) for a table resolved for the visit's graph; with `keep`,
    /// typed functors keep their column until [`release`](Self::release).
    #[inline]
    pub(crate) fn call_resolved(&mut self, visit: &Visit<'_>, cx: &mut Cx, keep: bool) -> Flow {
        // NONE is past the end of `methods`: one bounds check for both.
        let slot = self.resolved.get(visit.node_type().get()).copied();
        match self.methods.get_mut(slot.unwrap_or(NONE) as usize) {
            Some((_, functor)) if keep => functor.call.call_kept(visit, cx),
            Some((_, functor)) => functor.call.call(visit, cx),
            None => Flow::Continue,
        }
    }

    /// Lets every functor go of the columns it kept.
    pub(crate) fn release(&mut self) {
        for (_, functor) in &mut self.methods {
            functor.call.release();
        }
    }
}
