//! Forking a chain into workers for a parallel run, and merging them back.

use crate::adapter::TypeFilter;
use crate::chain::fold;
use crate::{
    ActionError, ActiveList, Actor, ActorChain, ActorClass, Capabilities, Events, Flow, Ordered,
    OrderedActor, OrderedState, StateKind, Static, StaticActor, Unordered, UnorderedActor, Visit,
};

/// What a parallel run gives actors, as an iterator's capabilities: pre-order with
/// nested leave events inside each subtree; no ordered state (yet).
pub const PARALLEL: Capabilities = Capabilities {
    name: "parallel depth-first (Action::run_parallel)",
    leave_events: true,
    current_node: true,
    ordered_state: OrderedState::Unsupported,
};

/// Whether an actor of this class can take part in a parallel run
/// ([`Action::run_parallel`](crate::Action::run_parallel)); `merges` says whether it
/// has a fork/merge hook ([`UnorderedActor::fork`] and [`UnorderedActor::merge`]).
///
/// - static actors (`&self`, `Sync`) are shared by every worker: allowed;
/// - unordered actors need the hook: each worker gets a fork, merged back in document
///   order;
/// - ordered actors are refused: a parallel run does not hand each subtree the state
///   at its root yet (use [`Flattened::propagate_parallel`] for the matrix stack).
///
/// Events, dispatch and batches do not matter: workers run a depth-first walk with one
/// current node and nested leave events, and the leaves of the nodes above the split
/// points run after the workers were merged.
///
/// [`Flattened::propagate_parallel`]: https://docs.rs/scenewalk-iterators
///
/// ```
/// use scenewalk_core::{check_parallel, ActorClass, Dispatch, Events, StateKind};
/// let class = ActorClass {
///     name: "Count",
///     events: Events::Enter,
///     state: StateKind::Unordered,
///     dispatch: Dispatch::Uniform,
///     batches: false,
/// };
/// assert!(check_parallel(&class, true).is_ok());
/// let err = check_parallel(&class, false).unwrap_err();
/// assert!(err.to_string().contains("Count"));
/// ```
pub fn check_parallel(class: &ActorClass, merges: bool) -> Result<(), ActionError> {
    match class.state {
        StateKind::Static => Ok(()),
        StateKind::Unordered if merges => Ok(()),
        StateKind::Unordered | StateKind::Ordered => Err(refusal(class)),
    }
}

/// Why an actor of this class (unordered without a hook, or ordered) is refused.
fn refusal(class: &ActorClass) -> ActionError {
    let reason = match class.state {
        StateKind::Ordered => {
            "it keeps ordered state, and parallel runs do not hand each subtree the state at \
             its root yet; run it sequentially (or use Flattened::propagate_parallel)"
        }
        _ => {
            "it is an unordered actor without a fork/merge hook (UnorderedActor::fork and \
             merge), so its results cannot be split across threads and merged back"
        }
    };
    ActionError::Incompatible {
        actor: class.name,
        iterator: PARALLEL.name,
        reason: reason.to_owned(),
    }
}

/// What a worker thread of a parallel run calls at each node: an actor's `enter` and
/// `leave`, nothing else (no `begin`, `end` or frames: the original actor has them).
pub trait WorkerActor: Send {
    /// A node is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left.
    fn leave(&mut self, visit: &Visit<'_>);
}

impl<A: UnorderedActor> WorkerActor for Unordered<A> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        Actor::enter(self, visit, active)
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        Actor::leave(self, visit);
    }
}

/// A chain of [`WorkerActor`]s: one worker thread's share of an
/// [`ActorChain`], called in chain order at enter (a `Prune` deactivates every child
/// before the next actor runs, a `Stop` ends the chain) and in reverse at leave.
pub trait WorkerChain: Send {
    /// Enters a node with every actor, combining their flows.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// Leaves a node with every actor, last to first.
    fn leave(&mut self, visit: &Visit<'_>);
}

impl WorkerChain for () {
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
    fn leave(&mut self, _visit: &Visit<'_>) {}
}

macro_rules! tuple_worker {
    ($($name:ident $idx:tt),+ ; $($rev:tt),+) => {
        impl<$($name: WorkerActor),+> WorkerChain for ($($name,)+) {
            #[inline(always)]
            fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
                let mut flow = Flow::Continue;
                $(if !fold(self.$idx.enter(visit, active), active, &mut flow) { return flow; })+
                flow
            }
            #[inline]
            fn leave(&mut self, visit: &Visit<'_>) {
                $(self.$rev.leave(visit);)+
            }
        }
    };
}

tuple_worker!(A 0; 0);
tuple_worker!(A 0, B 1; 1, 0);
tuple_worker!(A 0, B 1, C 2; 2, 1, 0);
tuple_worker!(A 0, B 1, C 2, D 3; 3, 2, 1, 0);
tuple_worker!(A 0, B 1, C 2, D 3, E 4; 4, 3, 2, 1, 0);
tuple_worker!(A 0, B 1, C 2, D 3, E 4, F 5; 5, 4, 3, 2, 1, 0);
tuple_worker!(A 0, B 1, C 2, D 3, E 4, F 5, G 6; 6, 5, 4, 3, 2, 1, 0);
tuple_worker!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7; 7, 6, 5, 4, 3, 2, 1, 0);

/// An actor adapter that can be split into workers for a parallel run.
///
/// Implemented by [`Static`] (workers share the actor through `&self`), [`Unordered`]
/// (each worker gets the actor's [`fork`](UnorderedActor::fork), merged back with
/// [`merge`](UnorderedActor::merge)) and [`Ordered`] (always refused, with a reason).
pub trait ParallelActor: Actor {
    /// What one worker thread runs.
    type Worker<'a>: WorkerActor
    where
        Self: 'a;
    /// What a finished worker hands back to be merged.
    type Part: Send;
    /// Whether the actor can run in parallel ([`check_parallel`]).
    fn check_parallel(&self) -> Result<(), ActionError>;
    /// A worker, after `begin`.
    fn fork(&self) -> Result<Self::Worker<'_>, ActionError>;
    /// A worker's results.
    fn finish(worker: Self::Worker<'_>) -> Self::Part;
    /// Adds a worker's results to the actor's.
    fn merge(&mut self, part: Self::Part);
}

/// A worker of a [`Static`] actor: the actor itself, shared (`StaticActor` is `Sync`).
#[derive(Debug)]
pub struct StaticWorker<'a, A> {
    shared: &'a Static<A>,
}

impl<A: StaticActor> WorkerActor for StaticWorker<'_, A> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if !self.shared.filter.admits(visit) {
            return Flow::Continue;
        }
        self.shared.actor.enter(visit, active)
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave && self.shared.filter.admits(visit) {
            self.shared.actor.leave(visit);
        }
    }
}

impl<A: StaticActor> ParallelActor for Static<A> {
    type Worker<'a> = StaticWorker<'a, A>;
    type Part = ();
    fn check_parallel(&self) -> Result<(), ActionError> {
        check_parallel(&self.class(), true)
    }
    fn fork(&self) -> Result<StaticWorker<'_, A>, ActionError> {
        Ok(StaticWorker { shared: self })
    }
    fn finish(_worker: StaticWorker<'_, A>) {}
    fn merge(&mut self, _part: ()) {}
}

impl<A: UnorderedActor> ParallelActor for Unordered<A> {
    type Worker<'a> = Unordered<A>;
    type Part = A;
    fn check_parallel(&self) -> Result<(), ActionError> {
        check_parallel(&self.class(), self.actor.fork().is_some())
    }
    fn fork(&self) -> Result<Unordered<A>, ActionError> {
        match self.actor.fork() {
            Some(actor) => Ok(Unordered {
                actor,
                filter: TypeFilter::clone(&self.filter),
            }),
            None => Err(refusal(&self.class())),
        }
    }
    fn finish(worker: Unordered<A>) -> A {
        worker.actor
    }
    fn merge(&mut self, part: A) {
        self.actor.merge(part);
    }
}

/// The worker type of an actor that never runs in parallel (uninhabited: no value of
/// it exists).
#[derive(Debug)]
pub enum NoWorker {}

impl WorkerActor for NoWorker {
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        match *self {}
    }
    fn leave(&mut self, _visit: &Visit<'_>) {
        match *self {}
    }
}

impl<A: OrderedActor> ParallelActor for Ordered<A> {
    type Worker<'a> = NoWorker;
    type Part = ();
    fn check_parallel(&self) -> Result<(), ActionError> {
        check_parallel(&self.class(), false)
    }
    fn fork(&self) -> Result<NoWorker, ActionError> {
        Err(refusal(&self.class()))
    }
    fn finish(worker: NoWorker) {
        match worker {}
    }
    fn merge(&mut self, _part: ()) {}
}

/// An [`ActorChain`] that can be split into workers for a parallel run: every tuple
/// of [`ParallelActor`]s (the adapters `Static`, `Unordered`, `Ordered`).
/// `Vec<Box<dyn Actor>>` chains run sequentially only.
pub trait ParallelChain: ActorChain {
    /// The chain one worker thread runs.
    type Worker<'a>: WorkerChain
    where
        Self: 'a;
    /// What a finished worker chain hands back.
    type Part: Send;
    /// Checks every actor ([`check_parallel`]), naming the first refused one.
    fn check_parallel(&self) -> Result<(), ActionError>;
    /// A worker chain.
    fn fork(&self) -> Result<Self::Worker<'_>, ActionError>;
    /// A worker chain's results.
    fn finish(worker: Self::Worker<'_>) -> Self::Part;
    /// Adds a worker chain's results, actor by actor.
    fn merge(&mut self, part: Self::Part);
}

impl ParallelChain for () {
    type Worker<'a> = ();
    type Part = ();
    fn check_parallel(&self) -> Result<(), ActionError> {
        Ok(())
    }
    fn fork(&self) -> Result<(), ActionError> {
        Ok(())
    }
    fn finish(_worker: ()) {}
    fn merge(&mut self, _part: ()) {}
}

macro_rules! tuple_parallel {
    ($($name:ident $idx:tt),+) => {
        impl<$($name: ParallelActor),+> ParallelChain for ($($name,)+) {
            type Worker<'a> = ($($name::Worker<'a>,)+) where Self: 'a;
            type Part = ($($name::Part,)+);
            fn check_parallel(&self) -> Result<(), ActionError> {
                $(self.$idx.check_parallel()?;)+
                Ok(())
            }
            fn fork(&self) -> Result<Self::Worker<'_>, ActionError> {
                Ok(($(self.$idx.fork()?,)+))
            }
            fn finish(worker: Self::Worker<'_>) -> Self::Part {
                ($($name::finish(worker.$idx),)+)
            }
            fn merge(&mut self, part: Self::Part) {
                $(self.$idx.merge(part.$idx);)+
            }
        }
    };
}

tuple_parallel!(A 0);
tuple_parallel!(A 0, B 1);
tuple_parallel!(A 0, B 1, C 2);
tuple_parallel!(A 0, B 1, C 2, D 3);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
