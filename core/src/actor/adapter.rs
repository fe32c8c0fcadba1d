//! The adapters that run each kind of actor in a chain: class, type filter, state.

use crate::actor::sealed::{Adapter, Sealed};
use crate::actor::{
    ActiveList, Actor, ActorClass, Dispatch, Events, Flow, Frame, OrderedActor, OrderedStates,
    StateKind, StaticActor, UnorderedActor, Visit,
};
use crate::error::TraversalError;
use crate::graph::{Graph, TypeSet};
use crate::run::RunContext;
use crate::run::RunStats;
use std::any::Any;

/// Which node types reach a [`Dispatch::Single`] actor, resolved once per run.
#[derive(Clone, Debug, Default)]
pub(crate) struct TypeFilter {
    single: Option<TypeSet>,
}

impl TypeFilter {
    fn resolve(&mut self, dispatch: Dispatch, run: &RunContext<'_>) {
        match dispatch {
            Dispatch::Single(key) => {
                let set = match &mut self.single {
                    Some(set) if set.target == key.id => set,
                    _ => self.single.insert(TypeSet::of_id(key.id)),
                };
                set.resolve(run.graph.types());
            }
            Dispatch::Uniform | Dispatch::PerType => self.single = None,
        }
    }

    #[inline]
    pub(crate) fn admits(&self, visit: &Visit<'_>) -> bool {
        match &self.single {
            None => true,
            Some(set) => set.contains(visit.node_type()),
        }
    }
}

/// The accessors every adapter shares.
macro_rules! wrapper_access {
    ($adapter:ident, $bound:ident) => {
        impl<A: $bound> $adapter<A> {
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
    };
}

/// `enter` and `leave` that pass the nodes the type filter admits on to the wrapped
/// actor: an adapter's, and a parallel run's shares of [`Static`] and [`Unordered`].
macro_rules! filtered_calls {
    () => {
        // Only a single-type actor asks its filter: `dispatch` is a constant for most
        // actors, so the others leave no test on the walk.
        #[inline(always)]
        fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
            let single = matches!(self.actor.dispatch(), $crate::Dispatch::Single(_));
            if single && !self.filter.admits(visit) {
                return Flow::Continue;
            }
            self.actor.enter(visit, active)
        }
        #[inline]
        fn leave(&mut self, visit: &Visit<'_>) {
            let single = matches!(self.actor.dispatch(), $crate::Dispatch::Single(_));
            if A::EVENTS == Events::EnterLeave && (!single || self.filter.admits(visit)) {
                self.actor.leave(visit);
            }
        }
    };
}
#[cfg(feature = "parallel")]
pub(crate) use filtered_calls;

/// An adapter for an actor kind with no state of the framework's to keep: the class,
/// the single-type filter and the calls.
macro_rules! plain_adapter {
    (
        $(#[$doc:meta])* $adapter:ident, $bound:ident, $state:expr,
        context: |$actor:ident| $context:expr, $context_mut:expr
    ) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $adapter<A> {
            pub(crate) actor: A,
            pub(crate) filter: TypeFilter,
        }

        impl<A: $bound> $adapter<A> {
            /// Wraps the actor.
            pub fn new(actor: A) -> Self {
                Self {
                    actor,
                    filter: TypeFilter::default(),
                }
            }
        }
        wrapper_access!($adapter, $bound);

        impl<A: $bound> Actor for $adapter<A> {
            fn class(&self) -> ActorClass {
                ActorClass {
                    name: crate::graph::short_type_name::<A>(),
                    events: A::EVENTS,
                    state: $state,
                    dispatch: self.actor.dispatch(),
                    batches: A::BATCHES,
                }
            }
            fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
                self.filter.resolve(self.actor.dispatch(), run);
                self.actor.begin(run)
            }
            filtered_calls!();
            fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
                self.actor.enter_batch(graph, depth, batch)
            }
            fn end(&mut self, _stats: &mut RunStats) {
                self.actor.end();
            }
        }

        impl<A: $bound> Adapter for $adapter<A> {
            fn inner(&self) -> &dyn Any {
                &self.actor
            }
            fn inner_mut(&mut self) -> &mut dyn Any {
                &mut self.actor
            }
            fn context(&self) -> Option<&dyn Any> {
                let $actor = &self.actor;
                $context
            }
            fn context_mut(&mut self) -> Option<&mut dyn Any> {
                let $actor = &mut self.actor;
                $context_mut
            }
        }
    };
}

plain_adapter!(
    /// Runs a [`StaticActor`] in an action.
    Static,
    StaticActor,
    StateKind::Static,
    context: |_actor| None, None
);

plain_adapter!(
    /// Runs an [`UnorderedActor`] in an action.
    Unordered,
    UnorderedActor,
    StateKind::Unordered,
    context: |actor| actor.dispatch_context(Sealed), actor.dispatch_context_mut(Sealed)
);

/// Runs an [`OrderedActor`] in an action, keeping its hierarchical state: a stack by
/// depth under pre-order iterators, shared copies per pending node otherwise. Until its
/// first [`begin`](Actor::begin) there is no root state, and it skips every node.
#[derive(Debug)]
pub struct Ordered<A: OrderedActor> {
    pub(crate) actor: A,
    pub(crate) filter: TypeFilter,
    pub(crate) states: OrderedStates<A::State>,
    /// A parallel run's states for the replayed leaves above its split points, kept
    /// for the next run.
    #[cfg(feature = "parallel")]
    pub(crate) spare_leaves: std::collections::VecDeque<A::State>,
}

impl<A: OrderedActor> Ordered<A> {
    /// Wraps the actor.
    pub fn new(actor: A) -> Self {
        Self {
            actor,
            // Admits no node until the first `resolve`: an unresolved set holds no type.
            filter: TypeFilter {
                single: Some(TypeSet::of_id(std::any::TypeId::of::<TypeFilter>())),
            },
            states: OrderedStates::default(),
            #[cfg(feature = "parallel")]
            spare_leaves: std::collections::VecDeque::new(),
        }
    }
}
wrapper_access!(Ordered, OrderedActor);

impl<A: OrderedActor> Actor for Ordered<A> {
    fn class(&self) -> ActorClass {
        ActorClass {
            name: crate::graph::short_type_name::<A>(),
            events: A::EVENTS,
            state: StateKind::Ordered,
            dispatch: self.actor.dispatch(),
            batches: false,
        }
    }
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        self.filter.resolve(self.actor.dispatch(), run);
        let root = self.actor.root_state(run)?;
        self.states.reset(run.capabilities.ordered_state, root);
        Ok(())
    }
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        // Drop what earlier siblings left even if this actor skips the node.
        self.states.before_enter(visit.depth());
        if !self.filter.admits(visit) {
            return Flow::Continue;
        }
        let mut cell = self.states.cell(visit.depth());
        self.actor.enter(&mut cell, visit, active)
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave
            && self.filter.admits(visit)
            && let Some(state) = self.states.at_leave(visit.depth())
        {
            self.actor.leave(state, visit);
        }
    }
    fn end(&mut self, stats: &mut RunStats) {
        stats.state_copies += self.states.take_copies();
        self.actor.end();
    }
}

impl<A: OrderedActor> Adapter for Ordered<A> {
    fn restore_frame(&mut self, frame: Frame) {
        self.states.versions.restore(frame);
    }
    fn save_frame(&mut self, frame: Frame) {
        self.states.versions.save(frame);
    }
    fn release_frame(&mut self, frame: Frame) {
        self.states.versions.release(frame);
    }
    fn inner(&self) -> &dyn Any {
        &self.actor
    }
    fn inner_mut(&mut self) -> &mut dyn Any {
        &mut self.actor
    }
    fn carried(&self) -> Option<&dyn Any> {
        self.actor.carried()
    }
    fn carried_mut(&mut self) -> Option<&mut dyn Any> {
        self.actor.carried_mut()
    }
}
