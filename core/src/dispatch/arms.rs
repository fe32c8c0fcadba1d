//! Per-type dispatch with the arms known at compile time: a `match` on a small arm
//! number instead of a call through a boxed functor.

use crate::actor::{ActiveList, Dispatch, Flow, RunContext, UnorderedActor, Visit};
use crate::dispatch::table::Typed;
use crate::graph::{Graph, NodeCore, NodeType, RegistryStamp};
use std::any::TypeId;

/// The table code of a type that no arm handles: the default runs. Any other code is
/// `2 * arm` for the arm's own type, whose payloads come from the arm's kept column,
/// or `2 * arm + 1` for a type reaching the arm by fallback (its view of the arm's
/// type, the general way).
const FALLBACK: u8 = u8::MAX;

/// One typed arm of [`Arms`]: the closure for the nodes that are a `T`.
///
/// Built by [`Arms::on`]; it keeps `T`'s column of the graph for a run, so a node
/// reaches its payload with an index, not a virtual type check.
pub struct Arm<T, F> {
    typed: Typed<T, F>,
}

/// The default of [`Arms`], built by [`Arms::otherwise`]: the closure for the node
/// types no arm handles.
pub struct Otherwise<F>(F);

impl<T, F> std::fmt::Debug for Arm<T, F> {
    /// The arm's node type (a closure has nothing else to show).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arm")
            .field("type", &std::any::type_name::<T>())
            .finish_non_exhaustive()
    }
}

impl<F> std::fmt::Debug for Otherwise<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Otherwise").finish_non_exhaustive()
    }
}

mod sealed {
    /// Only the lists [`Arms`](crate::Arms) builds are arm lists.
    pub trait Sealed {}
    impl Sealed for () {}
    impl<L, T, F> Sealed for (L, super::Arm<T, F>) {}
    impl<F> Sealed for super::Otherwise<F> {}
}

/// The typed arms of an [`Arms`] actor as one nested list, `(((), arm 0), arm 1)...`:
/// the type grows by one pair per [`Arms::on`], so every closure's type is known and
/// the call on an arm number inlines them all. Sealed: only `()` and the pairs
/// [`Arms::on`] builds implement it.
pub trait ArmList<Cx>: sealed::Sealed + Send {
    /// How many arms the list holds; arm `k` is the `k`-th added.
    const LEN: usize;
    /// The arm for exactly the type with this `TypeId`; the last added wins.
    fn arm_of(&self, id: TypeId) -> Option<u8>;
    /// Keeps every arm's column of `graph` (before a run), pushing per arm, in arm
    /// order, whether its type has a column to keep.
    fn keep(&mut self, graph: &Graph, kept: &mut Vec<bool>);
    /// Runs the arm of table code `code` on the visited node, or `default` if the
    /// list has no such arm.
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
            .is_some_and(|ty| self.1.typed.column.keep(graph, ty.0));
        kept.push(own);
    }
    // A chain of compares of one value with constants, which LLVM turns into a jump
    // table once every level is inlined. The default ends the chain rather than
    // being tested for before it: a test `code < 2 * LEN` first lets LLVM fold code 0
    // into the switch's default, and the range check that guards the table then
    // mispredicts on every eighth node.
    #[inline(always)]
    fn call<Dflt: DefaultArm<Cx>>(
        &mut self,
        code: u8,
        visit: &Visit<'_>,
        cx: &mut Cx,
        default: &mut Dflt,
    ) -> Flow {
        let typed = &mut self.1.typed;
        if usize::from(code) == 2 * L::LEN {
            match typed.column.get_kept(visit) {
                Some(node) => (typed.f)(node, visit, cx),
                None => Flow::Continue,
            }
        } else if usize::from(code) == 2 * L::LEN + 1 {
            match visit.get::<T>() {
                Some(node) => (typed.f)(node, visit, cx),
                None => Flow::Continue,
            }
        } else {
            self.0.call(code, visit, cx, default)
        }
    }
    fn release(&mut self) {
        self.1.typed.column.release();
        self.0.release();
    }
}

/// What [`Arms`] runs for a node type no arm handles: nothing (`()`, the node is
/// passed over with [`Flow::Continue`]) or the closure of [`Arms::otherwise`].
pub trait DefaultArm<Cx>: sealed::Sealed + Send {
    /// Runs the default on the visited node.
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow;
}

impl<Cx> DefaultArm<Cx> for () {
    #[inline(always)]
    fn call(&mut self, _visit: &Visit<'_>, _cx: &mut Cx) -> Flow {
        Flow::Continue
    }
}

impl<Cx, F: FnMut(&Visit<'_>, &mut Cx) -> Flow + Send> DefaultArm<Cx> for Otherwise<F> {
    #[inline(always)]
    fn call(&mut self, visit: &Visit<'_>, cx: &mut Cx) -> Flow {
        (self.0)(visit, cx)
    }
}

/// Per-type dispatch with the arms listed at compile time: an unordered actor that
/// runs, for each node, the closure of its type on the context `Cx`.
///
/// The statically typed twin of [`DispatchActor`](crate::DispatchActor), with the same
/// rules: an arm for `T` also runs for the types extending `T` (given their `T`
/// view) unless they have their own arm, and [`otherwise`](Arms::otherwise) runs for
/// the rest. `begin` resolves, per type of the graph's registry, which arm handles it
/// into a table of arm numbers; `enter` is then one table load and a `match` on the
/// number with every closure inlined, where the dynamic actor makes an indirect call
/// the walk must spill its registers around. Use it when the node types an actor handles are known where the actor is
/// written; use [`DispatchActor`](crate::DispatchActor) when functors are added at
/// run time (plug-ins, a table filled from configuration) or must be named as one type.
/// As there, each run starts with `context` set to a copy of
/// [`start`](Arms::start), the context the actor was built with.
///
/// ```
/// use scenewalk_core::{Action, Arms, DepthFirst, Flow, Graph, Unordered};
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
///
/// // (triangles, lights, other nodes)
/// let count = Arms::new((0u64, 0u32, 0u32))
///     .on::<Mesh>(|mesh, _, cx| { cx.0 += mesh.triangles; Flow::Continue })
///     .on::<Light>(|_, _, cx| { cx.1 += 1; Flow::Continue })
///     .otherwise(|_, cx| { cx.2 += 1; Flow::Continue });
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(count),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actors().0.get().context, (42, 1, 1));
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
    // The closure is an argument-position `impl`, so a call names only the node type
    // (`on::<Mesh>(...)`), as with `DispatchActor::on`.
    pub fn on<T: NodeCore>(
        self,
        f: impl FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send,
    ) -> WithArm<Cx, L, D, T, impl FnMut(&T, &Visit<'_>, &mut Cx) -> Flow + Send> {
        const { assert!(2 * L::LEN + 1 < FALLBACK as usize, "too many arms") };
        Arms {
            start: self.start,
            context: self.context,
            arms: (
                self.arms,
                Arm {
                    typed: Typed::new(f),
                },
            ),
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
        Arms {
            start: self.start,
            context: self.context,
            arms: self.arms,
            default: Otherwise(f),
            table: self.table,
            stamp: self.stamp,
            key: self.key,
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

    /// Keeps the arms' columns of `graph` and builds the table of codes for its
    /// types, unless both are done for the graph as it is.
    fn resolve(&mut self, graph: &Graph) {
        let types = graph.types();
        if self.key == graph.column_key() && self.stamp == Some(types.stamp()) {
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
                    && kept.get(usize::from(arm)).copied().unwrap_or(false);
                *code = 2 * arm + u8::from(!own);
            }
        }
        self.stamp = Some(types.stamp());
        self.key = graph.column_key();
    }

    /// A hand-driven enter on another graph than `begin` saw, or after `end`: the
    /// kept columns and the table are not this graph's.
    #[cold]
    #[inline(never)]
    fn resolve_cold(&mut self, graph: &Graph) {
        self.resolve(graph);
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
    /// Keeps the arms' columns, resolves the table and starts the context afresh.
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), crate::error::TraversalError> {
        self.resolve(run.graph);
        self.context.clone_from(&self.start);
        Ok(())
    }
    // Inlined into the walk like a hand-written `match`: as a call, the walk would
    // spill its registers around it.
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        // One compare for all arms: while the graph's column key is the one the
        // arms kept their columns at, each is the graph's column of its type. Within
        // a run it always holds, so it costs a predicted branch.
        if visit.graph().column_key() != self.key {
            self.resolve_cold(visit.graph());
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
        self.key = 0;
    }
}
