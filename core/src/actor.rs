//! Actors (paper 3.1): the three user-facing kinds and the element trait the action runs.

use crate::TypeSet;
use crate::state::{DepthStates, StateCell};
use crate::{
    ActiveList, ActorClass, Dispatch, Events, Flow, RunContext, RunStats, StateKind, Visit,
};
use std::any::Any;

/// A link of an action's actor chain, as the [`Action`](crate::Action) drives it.
///
/// You rarely implement this directly: implement [`StaticActor`], [`UnorderedActor`] or
/// [`OrderedActor`] and wrap the value in [`Static`], [`Unordered`] or [`Ordered`], which
/// implement `Actor` with the right class, the single-type filter and (for ordered
/// actors) the state bookkeeping.
pub trait Actor: Any {
    /// The actor's classification.
    fn class(&self) -> ActorClass;
    /// A run begins.
    fn begin(&mut self, run: &RunContext<'_>);
    /// A node is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left (only called for [`Events::EnterLeave`] actors).
    fn leave(&mut self, visit: &Visit<'_>);
    /// A run ended (also after [`Flow::Stop`]); actors add their counts to `stats`.
    fn end(&mut self, stats: &mut RunStats);
    /// The user's actor inside the adapter, for [`Action::actor`](crate::Action::actor).
    fn inner(&self) -> &dyn Any;
    /// The user's actor inside the adapter, mutable.
    fn inner_mut(&mut self) -> &mut dyn Any;
}

/// A static-state actor: read-only during traversal (`&self`), so it may be called in
/// any order, batched, or from several threads.
///
/// ```
/// use scenewalk_core::{ActiveList, Flow, StaticActor, Visit};
/// /// Cuts the tree below a depth.
/// struct MaxDepth(u32);
/// impl StaticActor for MaxDepth {
///     fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         if visit.depth() >= self.0 { Flow::Prune } else { Flow::Continue }
///     }
/// }
/// ```
pub trait StaticActor: Any + Sync {
    /// Enter-only or enter + leave.
    const EVENTS: Events = Events::Enter;
    /// Which node types reach the actor.
    fn dispatch(&self) -> Dispatch {
        Dispatch::Uniform
    }
    /// A run begins: the one place a static actor may change itself.
    fn begin(&mut self, _run: &RunContext<'_>) {}
    /// A node is entered.
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left.
    fn leave(&self, _visit: &Visit<'_>) {}
}

/// An unordered-state actor: changes its state, but the result does not depend on the
/// order nodes come in (statistics), so it may be batched.
pub trait UnorderedActor: Any + Send {
    /// Enter-only or enter + leave.
    const EVENTS: Events = Events::Enter;
    /// Which node types reach the actor.
    fn dispatch(&self) -> Dispatch {
        Dispatch::Uniform
    }
    /// A run begins.
    fn begin(&mut self, _run: &RunContext<'_>) {}
    /// A node is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left.
    fn leave(&mut self, _visit: &Visit<'_>) {}
    /// A run ended.
    fn end(&mut self) {}
}

/// An ordered-state actor: keeps hierarchical state that depends on the path from the
/// root (the matrix stack). The state is a separate `Clone` value that the framework
/// saves and restores: the actor reads it through a [`StateCell`] and asks for a
/// writable copy only where a node changes it, so siblings share their parent's state.
///
/// ```
/// use scenewalk_core::{ActiveList, Flow, OrderedActor, StateCell, Visit};
/// /// Records each node's distance (in edges) from the nearest "marked" ancestor.
/// struct Path { seen: Vec<u32> }
/// impl OrderedActor for Path {
///     type State = u32;
///     fn root_state(&mut self, _: &scenewalk_core::RunContext<'_>) -> u32 { 0 }
///     fn enter(&mut self, state: &mut StateCell<'_, u32>, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         if visit.depth() > 0 { *state.make_mut() += 1; }
///         self.seen.push(*state.get());
///         Flow::Continue
///     }
/// }
/// ```
pub trait OrderedActor: Any + Send {
    /// The hierarchical state.
    type State: Clone + Send + 'static;
    /// Enter-only or enter + leave.
    const EVENTS: Events = Events::Enter;
    /// Which node types reach the actor.
    fn dispatch(&self) -> Dispatch {
        Dispatch::Uniform
    }
    /// A run begins; returns the state above the root.
    fn root_state(&mut self, run: &RunContext<'_>) -> Self::State;
    /// A node is entered; `state` holds the state of its parent until changed.
    fn enter(
        &mut self,
        state: &mut StateCell<'_, Self::State>,
        visit: &Visit<'_>,
        active: &mut ActiveList<'_>,
    ) -> Flow;
    /// A node is left; `state` is the node's own state (as its enter left it).
    fn leave(&mut self, _state: &Self::State, _visit: &Visit<'_>) {}
    /// A run ended.
    fn end(&mut self) {}
}

/// Which node types reach a [`Dispatch::Single`] actor, resolved once per run.
#[derive(Clone, Debug, Default)]
struct TypeFilter {
    single: Option<TypeSet>,
}

impl TypeFilter {
    fn resolve(&mut self, dispatch: Dispatch, run: &RunContext<'_>) {
        match dispatch {
            Dispatch::Single(key) => {
                let set = match &mut self.single {
                    Some(set) => set,
                    None => self.single.insert(TypeSet::of_id(key.id)),
                };
                set.resolve(run.graph.types());
            }
            Dispatch::Uniform | Dispatch::PerType => self.single = None,
        }
    }

    #[inline]
    fn admits(&self, visit: &Visit<'_>) -> bool {
        match &self.single {
            None => true,
            Some(set) => set.contains(visit.node_type()),
        }
    }
}

fn class_of(
    name: &'static str,
    events: Events,
    state: StateKind,
    dispatch: Dispatch,
) -> ActorClass {
    ActorClass {
        name,
        events,
        state,
        dispatch,
    }
}

/// Runs a [`StaticActor`] in an action.
#[derive(Debug)]
pub struct Static<A> {
    actor: A,
    filter: TypeFilter,
}

impl<A: StaticActor> Static<A> {
    /// Wraps the actor.
    pub fn new(actor: A) -> Self {
        Self {
            actor,
            filter: TypeFilter::default(),
        }
    }
    /// The wrapped actor.
    pub fn get(&self) -> &A {
        &self.actor
    }
    /// The wrapped actor, mutable (between runs).
    pub fn get_mut(&mut self) -> &mut A {
        &mut self.actor
    }
    /// Unwraps the actor.
    pub fn into_inner(self) -> A {
        self.actor
    }
}

impl<A: StaticActor> Actor for Static<A> {
    fn class(&self) -> ActorClass {
        class_of(
            std::any::type_name::<A>(),
            A::EVENTS,
            StateKind::Static,
            self.actor.dispatch(),
        )
    }
    fn begin(&mut self, run: &RunContext<'_>) {
        self.actor.begin(run);
        self.filter.resolve(self.actor.dispatch(), run);
    }
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if !self.filter.admits(visit) {
            return Flow::Continue;
        }
        self.actor.enter(visit, active)
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave && self.filter.admits(visit) {
            self.actor.leave(visit);
        }
    }
    fn end(&mut self, _stats: &mut RunStats) {}
    fn inner(&self) -> &dyn Any {
        &self.actor
    }
    fn inner_mut(&mut self) -> &mut dyn Any {
        &mut self.actor
    }
}

/// Runs an [`UnorderedActor`] in an action.
#[derive(Debug)]
pub struct Unordered<A> {
    actor: A,
    filter: TypeFilter,
}

impl<A: UnorderedActor> Unordered<A> {
    /// Wraps the actor.
    pub fn new(actor: A) -> Self {
        Self {
            actor,
            filter: TypeFilter::default(),
        }
    }
    /// The wrapped actor.
    pub fn get(&self) -> &A {
        &self.actor
    }
    /// The wrapped actor, mutable.
    pub fn get_mut(&mut self) -> &mut A {
        &mut self.actor
    }
    /// Unwraps the actor.
    pub fn into_inner(self) -> A {
        self.actor
    }
}

impl<A: UnorderedActor> Actor for Unordered<A> {
    fn class(&self) -> ActorClass {
        class_of(
            std::any::type_name::<A>(),
            A::EVENTS,
            StateKind::Unordered,
            self.actor.dispatch(),
        )
    }
    fn begin(&mut self, run: &RunContext<'_>) {
        self.actor.begin(run);
        self.filter.resolve(self.actor.dispatch(), run);
    }
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if !self.filter.admits(visit) {
            return Flow::Continue;
        }
        self.actor.enter(visit, active)
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave && self.filter.admits(visit) {
            self.actor.leave(visit);
        }
    }
    fn end(&mut self, _stats: &mut RunStats) {
        self.actor.end();
    }
    fn inner(&self) -> &dyn Any {
        &self.actor
    }
    fn inner_mut(&mut self) -> &mut dyn Any {
        &mut self.actor
    }
}

/// Runs an [`OrderedActor`] in an action, keeping its hierarchical state.
#[derive(Debug)]
pub struct Ordered<A: OrderedActor> {
    actor: A,
    filter: TypeFilter,
    states: DepthStates<A::State>,
}

impl<A: OrderedActor> Ordered<A> {
    /// Wraps the actor.
    pub fn new(actor: A) -> Self {
        Self {
            actor,
            filter: TypeFilter::default(),
            states: DepthStates::default(),
        }
    }
    /// The wrapped actor.
    pub fn get(&self) -> &A {
        &self.actor
    }
    /// The wrapped actor, mutable.
    pub fn get_mut(&mut self) -> &mut A {
        &mut self.actor
    }
    /// Unwraps the actor.
    pub fn into_inner(self) -> A {
        self.actor
    }
}

impl<A: OrderedActor> Actor for Ordered<A> {
    fn class(&self) -> ActorClass {
        class_of(
            std::any::type_name::<A>(),
            A::EVENTS,
            StateKind::Ordered,
            self.actor.dispatch(),
        )
    }
    fn begin(&mut self, run: &RunContext<'_>) {
        let root = self.actor.root_state(run);
        self.states.reset(root);
        self.filter.resolve(self.actor.dispatch(), run);
    }
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        // Siblings (and their subtrees) entered before this node are done: drop
        // their states even if this actor skips the node, so the parent's is on top.
        self.states.enter_depth(visit.depth());
        if !self.filter.admits(visit) {
            return Flow::Continue;
        }
        let mut cell = self.states.cell(visit.depth());
        self.actor.enter(&mut cell, visit, active)
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave && self.filter.admits(visit) {
            let state = self.states.leave_depth(visit.depth());
            self.actor.leave(state, visit);
        }
    }
    fn end(&mut self, stats: &mut RunStats) {
        stats.state_copies += self.states.take_copies();
        self.actor.end();
    }
    fn inner(&self) -> &dyn Any {
        &self.actor
    }
    fn inner_mut(&mut self) -> &mut dyn Any {
        &mut self.actor
    }
}
