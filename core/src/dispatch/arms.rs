//! Per-type dispatch: arms known at compile time, a `match` on a small arm number
//! instead of a call through a boxed functor.

use crate::actor::{ActiveList, Dispatch, Flow, Sealed, UnorderedActor, Visit};
use crate::dispatch::MethodTable;
use crate::dispatch::table::Arm;
use crate::graph::{Graph, NodeCore, NodeIndex, NodeType, RegistryStamp};
use crate::invariant::Invariant;
use crate::run::RunContext;
use std::any::{Any, TypeId};

/// The table code of a type that no arm handles: the default runs. Any other code is
/// `2 * arm` for the arm's own type, whose payloads come from the arm's kept column,
/// or `2 * arm + 1` for a type reaching the arm by fallback (its view of the arm's
/// type, the general way).
const FALLBACK: u8 = u8::MAX;

/// A closure for any node type: the default of [`Arms`] ([`Arms::otherwise`]) for the
/// node types no arm handles, and the call of a [`Functor::any`](crate::Functor::any).
pub struct Otherwise<F>(pub(crate) F);

mod sealed {
    /// Only the lists [`Arms`](crate::Arms) builds are arm lists.
    pub trait Sealed {}
    impl Sealed for () {}
    impl<L, T, F> Sealed for (L, crate::dispatch::table::Arm<T, F>) {}
    impl<F> Sealed for super::Otherwise<F> {}
    impl<Cx> Sealed for crate::MethodTable<Cx> {}
}

/// The typed arms of an [`Arms`] actor as one nested list, `(((), arm 0), arm 1)...`,
/// one pair per [`Arms::on`], so the call on an arm number inlines every closure.
pub trait ArmList<Cx>: sealed::Sealed + Send {
    /// How many arms the list holds; arm `k` is the `k`-th added.
    const LEN: usize;
    /// The arm for exactly the type with this `TypeId`; the last added wins.
    fn arm_of(&self, id: TypeId) -> Option<u8>;
    /// Keeps every arm's column of `graph`, pushing per arm whether it had one.
    fn keep(&mut self, graph: &Graph, kept: &mut Vec<bool>);
    /// Runs the arm of table code `code`, or `default` if there is no such arm.
    fn call<D: DefaultArm<Cx>>(
        &mut self,
        code: u8,
        visit: &Visit<'_>,
        cx: &mut Cx,
        default: &mut D,
    ) -> Flow;
    /// Lets every arm go of the column it kept.
    fn release(&mut self);
}

impl<Cx> ArmList<Cx> for () {
    const LEN: usize = 0;
    fn arm_of(&self, _id: TypeId) -> Option<u8> {
        None
    }
    fn keep(&mut self, _graph: &Graph, _kept: &mut Vec<bool>) {}
    #[inline(always)]
    fn call<D: DefaultArm<Cx>>(
        &mut self,
        _code: u8,
        visit: &Visit<'_>,
        cx: &mut Cx,
        default: &mut D,
    ) -> Flow {
        default.call(visit, cx)
    }
    fn release(&mut self) {}
}

impl<Cx, L, T, F> ArmList<Cx> for (L, Arm<T, F>)
where
    L: ArmList<Cx>,
    T: NodeCore,
    F: FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send,
{
    const LEN: usize = L::LEN + 1;
    fn arm_of(&self, id: TypeId) -> Option<u8> {
        if id == TypeId::of::<T>() {
            Some(L::LEN as u8)
        } else {
            self.0.arm_of(id)
        }
    }
    fn keep(&mut self, graph: &Graph, kept: &mut Vec<bool>) {
        self.0.keep(graph, kept);
        let own = graph
            .types()
            .index_of::<T>()
            .is_some_and(|ty| self.1.column.keep(graph, ty.0));
        kept.push(own);
    }
    // Compares with constants, which LLVM turns into a jump table once inlined. The
    // default ends the chain: a test `code < 2 * LEN` first lets LLVM fold code 0 into
    // the switch's default, whose range check then mispredicts on every eighth node.
    #[inline(always)]
    fn call<Dflt: DefaultArm<Cx>>(
        &mut self,
        code: u8,
        visit: &Visit<'_>,
        cx: &mut Cx,
        default: &mut Dflt,
    ) -> Flow {
        let typed = &mut self.1;
        if usize::from(code) == 2 * L::LEN {
            match typed.column.get_kept(visit) {
                Some(node) => (typed.f)(node, visit, cx),
                None => Flow::Continue,
            }
        } else if usize::from(code) == 2 * L::LEN + 1 {
            match view::<T>(visit.graph(), visit.node(), visit.node_type()) {
                Some(node) => (typed.f)(node, visit, cx),
                None => Flow::Continue,
            }
        } else {
            self.0.call(code, visit, cx, default)
        }
    }
    fn release(&mut self) {
        self.1.column.release();
        self.0.release();
    }
}

/// The `T` view of a node whose type reaches an arm by fallback, the general way. Out
/// of line: inlined into every arm, the general lookup crowds the registers of the
/// walk around all arms, which then spills and reloads its state on every node. It
/// takes the visit's parts, not the visit: a pointer to it would keep every visit in
/// memory.
#[cold]
#[inline(never)]
pub(crate) fn view<T: NodeCore>(graph: &Graph, node: NodeIndex, ty: NodeType) -> Option<&T> {
    graph.get_typed_raw::<T>(node.raw(), ty.0)
}

/// What [`Arms`] runs for a node type no arm handles: nothing (`()`), the closure of
/// [`Arms::otherwise`] or the method table of [`Arms::otherwise_table`].
pub trait DefaultArm<Cx>: sealed::Sealed + Send {
    /// Runs the default on the visited node.
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow;
    /// Resolves what the default needs for `graph` (before a run's first node).
    fn resolve(&mut self, _graph: &Graph) {}
    /// Lets go of what the default kept during a run.
    fn release(&mut self) {}
}

impl<Cx> DefaultArm<Cx> for () {
    #[inline]
    fn call(&mut self, _visit: &Visit<'_>, _cx: &mut Cx) -> Flow {
        Flow::Continue
    }
}

impl<Cx, F: FnMut(&Visit<'_>, &mut Cx) -> Flow + Send> DefaultArm<Cx> for Otherwise<F> {
    #[inline]
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        (self.0)(visit, cx)
    }
}

impl<Cx: 'static> DefaultArm<Cx> for MethodTable<Cx> {
    #[inline]
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        self.call_resolved(visit, cx, true)
    }
    fn resolve(&mut self, graph: &Graph) {
        MethodTable::resolve(self, graph.types());
    }
    fn release(&mut self) {
        MethodTable::release(self);
    }
}

/// Per-type dispatch (paper 3.1.3): an unordered actor that runs, for each node, the
/// arm of its type on the context `Cx`: a closure known at compile time
/// ([`on`](Arms::on)); the types no arm reaches go to the default: nothing, a closure
/// ([`otherwise`](Arms::otherwise)), or a [`MethodTable`] of [`Functor`](crate::Functor)s
/// chosen at run time ([`otherwise_table`](Arms::otherwise_table)). Each run starts
/// from a copy of [`start`](Arms::start). After a run, read the context with
/// [`Action::context`](crate::Action::context): the actor's type holds its closures,
/// so it cannot be named (one with no arms but a table, `Arms<Cx, (),
/// MethodTable<Cx>>`, can, for [`Action::actor_mut`](crate::Action::actor_mut)).
///
/// ```
/// use scenewalk_core::{Action, Arms, DepthFirst, Flow, Functor, Graph, MethodTable, Unordered};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// # #[derive(Clone, Debug)] struct Mesh { triangles: u64 }
/// # impl scenewalk_core::NodeCore for Mesh {}
/// # #[derive(Clone, Debug)] struct Light;
/// # impl scenewalk_core::NodeCore for Light {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// graph.append_child(root, Mesh { triangles: 12 })?;
/// graph.append_child(root, Mesh { triangles: 30 })?;
/// graph.append_child(root, Light)?;
/// // (triangles, lights, other nodes)
/// type Counts = (u64, u32, u32);
/// let count = Arms::new((0, 0, 0))
///     .on::<Mesh>(|mesh, _, cx: &mut Counts| { cx.0 += mesh.triangles; Flow::Continue })
///     .on::<Light>(|_, _, cx| { cx.1 += 1; Flow::Continue })
///     .otherwise(|_, cx| { cx.2 += 1; Flow::Continue });
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(count),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.context::<Counts>(), Some(&(42, 1, 1)));
///
/// // Functors chosen at run time, one added between runs.
/// let mut table = MethodTable::new();
/// table.add::<Mesh>(Functor::function(|mesh: &Mesh, _, cx: &mut Counts| { cx.0 += mesh.triangles; Flow::Continue }));
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Arms::new((0, 0, 0)).otherwise_table(table)),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.context::<Counts>(), Some(&(42, 0, 0)));
/// let arms = action.actor_mut::<Arms<Counts, (), MethodTable<Counts>>>().unwrap();
/// arms.table_mut().set_default(Functor::any(|_, cx: &mut Counts| { cx.2 += 1; Flow::Continue }));
/// action.run(&graph, root)?;
/// assert_eq!(action.context::<Counts>(), Some(&(42, 0, 2)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Arms<Cx, L = (), D = ()> {
    /// The context every run starts from.
    pub start: Cx,
    /// What the arms work on: after a run, that run's results.
    pub context: Cx,
    arms: L,
    default: D,
    /// Per type index of the registry resolved for: the table code (see FALLBACK).
    table: Vec<u8>,
    stamp: Option<RegistryStamp>,
    /// The column key of the graph whose columns the arms keep; 0 for none.
    key: u64,
}

impl<Cx: std::fmt::Debug, L: ArmList<Cx>, D> std::fmt::Debug for Arms<Cx, L, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arms")
            .field("start", &self.start)
            .field("context", &self.context)
            .field("arms", &L::LEN)
            .field("table", &self.table)
            .finish_non_exhaustive()
    }
}

/// [`Arms`] with one more arm: for `T`, by `F`.
type WithArm<Cx, L, D, T, F> = Arms<Cx, (L, Arm<T, F>), D>;

impl<Cx: Clone> Arms<Cx> {
    /// An actor with no arms yet (every node runs the default, which does nothing),
    /// whose runs start from `start`.
    pub fn new(start: Cx) -> Self {
        Self {
            context: start.clone(),
            start,
            arms: (),
            default: (),
            table: Vec::new(),
            stamp: None,
            key: 0,
        }
    }
}

impl<Cx, L: ArmList<Cx>, D> Arms<Cx, L, D> {
    /// Adds the arm for `T`: `f` gets the node's payload, the visit and the context.
    /// It also runs for the types extending `T` that have no arm of their own; a
    /// later arm for the same `T` replaces it. At most 127 arms (checked when
    /// compiled).
    #[must_use]
    pub fn on<T: NodeCore>(
        self,
        f: impl FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send,
    ) -> WithArm<Cx, L, D, T, impl FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send> {
        const { assert!(2 * L::LEN + 1 < FALLBACK as usize, "too many arms") };
        Arms {
            start: self.start,
            context: self.context,
            arms: (self.arms, Arm::new(f)),
            default: self.default,
            table: Vec::new(),
            stamp: None,
            key: 0,
        }
    }

    /// Sets the default: `f` runs for the node types no arm handles (replacing an
    /// earlier default).
    #[must_use]
    pub fn otherwise<F>(self, f: F) -> Arms<Cx, L, Otherwise<F>>
    where
        F: FnMut(&Visit<'_>, &mut Cx) -> Flow + Send,
    {
        self.with_default(Otherwise(f))
    }

    /// Sets the default to a method table of run-time functors (replacing an earlier
    /// default): the node types no arm handles run the table's functor for their type,
    /// else for their nearest parent type in the table, else the table's default.
    #[must_use]
    pub fn otherwise_table(self, table: MethodTable<Cx>) -> Arms<Cx, L, MethodTable<Cx>> {
        self.with_default(table)
    }

    fn with_default<D2>(self, default: D2) -> Arms<Cx, L, D2> {
        Arms {
            start: self.start,
            context: self.context,
            arms: self.arms,
            default,
            table: self.table,
            stamp: self.stamp,
            key: 0,
        }
    }

    /// The arm that handles `ty` (its number: the order of [`on`](Arms::on) calls,
    /// from 0) as resolved for the last graph seen; `None` for the default, and for a
    /// type index the table does not know.
    pub fn arm_for(&self, ty: NodeType) -> Option<usize> {
        self.table
            .get(ty.get())
            .filter(|&&code| code != FALLBACK)
            .map(|&code| usize::from(code / 2))
    }

    /// Keeps the arms' columns of `graph` and builds the code table, unless done for
    /// the graph as it is; resolves the default. Cold: `enter` calls it only for a
    /// hand-driven enter on another graph than `begin` saw, or after `end`.
    #[cold]
    #[inline(never)]
    fn resolve(&mut self, graph: &Graph)
    where
        D: DefaultArm<Cx>,
    {
        self.default.resolve(graph);
        let types = graph.types();
        if self.key == graph.column_key && self.stamp == Some(types.stamp()) {
            return;
        }
        let mut kept = Vec::with_capacity(L::LEN);
        self.arms.keep(graph, &mut kept);
        let arms = &self.arms;
        types.resolve_by_chain(|id| arms.arm_of(id), FALLBACK, &mut self.table);
        for (code, (_, info)) in self.table.iter_mut().zip(types.iter()) {
            if *code != FALLBACK {
                let arm = *code;
                let own = arms.arm_of(info.type_id) == Some(arm)
                    && kept.get(usize::from(arm)).copied().invariant("kept flag");
                *code = 2 * arm + u8::from(!own);
            }
        }
        self.stamp = Some(types.stamp());
        self.key = graph.column_key;
    }
}

impl<Cx, L> Arms<Cx, L, MethodTable<Cx>> {
    /// The method table of [`otherwise_table`](Arms::otherwise_table).
    pub fn table(&self) -> &MethodTable<Cx> {
        &self.default
    }

    /// The method table, to add, replace or swap functors: the change takes effect at
    /// the next node entered (the table is resolved again then).
    pub fn table_mut(&mut self) -> &mut MethodTable<Cx> {
        self.key = 0;
        &mut self.default
    }
}

impl<Cx, L, D> UnorderedActor for Arms<Cx, L, D>
where
    Cx: Clone + Send + 'static,
    L: ArmList<Cx> + 'static,
    D: DefaultArm<Cx> + 'static,
{
    fn dispatch(&self) -> Dispatch {
        Dispatch::PerType
    }
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), crate::error::TraversalError> {
        self.resolve(run.graph);
        self.context.clone_from(&self.start);
        Ok(())
    }
    // As a call, the walk would spill its registers around it.
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        // One compare for all arms: while the column key is the one the arms kept their
        // columns at, each is the graph's column of its type.
        if visit.graph().column_key != self.key {
            self.resolve(visit.graph());
        }
        if L::LEN == 0 {
            return self.default.call(visit, &mut self.context);
        }
        let code = self
            .table
            .get(visit.node_type().get())
            .copied()
            .unwrap_or(FALLBACK);
        self.arms
            .call(code, visit, &mut self.context, &mut self.default)
    }
    fn end(&mut self) {
        self.arms.release();
        self.default.release();
        self.key = 0;
    }
    fn dispatch_context(&self, _: Sealed) -> Option<&dyn Any> {
        Some(&self.context)
    }
    fn dispatch_context_mut(&mut self, _: Sealed) -> Option<&mut dyn Any> {
        Some(&mut self.context)
    }
}
