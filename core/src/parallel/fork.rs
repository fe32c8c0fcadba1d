//! Forking a chain into workers for a parallel run, and merging them back.
//! (Ordered actors: `fork_ordered.rs`.)

use crate::actor::{
    ActiveList, Actor, ActorChain, ActorClass, Events, Flow, StateKind, Static, StaticActor,
    TypeFilter, Unordered, UnorderedActor, Visit, fold,
};
use crate::error::ActionError;
use crate::run::{Capabilities, OrderedState};
use std::collections::VecDeque;
use std::ops::Range;

/// What a parallel run gives actors, as an iterator's capabilities: pre-order with
/// nested leave events inside each subtree; ordered state on a stack by depth, each
/// subtree starting from the state at its root.
pub const PARALLEL: Capabilities = Capabilities {
    name: "parallel depth-first (Action::run_parallel)",
    leave_events: true,
    current_node: true,
    ordered_state: OrderedState::DepthStack,
};

/// Whether an actor of this class can take part in a parallel run
/// ([`Action::run_parallel`](crate::Action::run_parallel)); `merges` says whether it
/// has a fork/merge hook ([`UnorderedActor::fork`] and [`UnorderedActor::merge`], or
/// [`OrderedActor::FORKS`](crate::OrderedActor::FORKS) with
/// [`OrderedActor::fork`](crate::OrderedActor::fork) and
/// [`OrderedActor::merge`](crate::OrderedActor::merge)).
///
/// - static actors (`&self`, `Sync`) are shared by every worker: allowed;
/// - unordered actors need the hook: each worker gets a fork, merged back in document
///   order;
/// - ordered actors need the hook: the walk above the split points runs on the actor
///   itself, and each subtree gets a fork starting from the state at its root, merged
///   back where a sequential run would have left that root.
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
        StateKind::Unordered | StateKind::Ordered if merges => Ok(()),
        StateKind::Unordered | StateKind::Ordered => Err(refusal(class)),
    }
}

/// Why an actor of this class (unordered or ordered, without a hook) is refused.
pub(crate) fn refusal(class: &ActorClass) -> ActionError {
    let reason = match class.state {
        StateKind::Ordered => {
            "it keeps ordered state and has no fork/merge hook (OrderedActor::FORKS, fork \
             and merge), so its subtrees cannot start from the state at their roots and be \
             merged back; run it sequentially"
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
    /// The walk starts the next of its subtrees (ordered workers switch to that
    /// subtree's fork and starting state).
    fn start_subtree(&mut self) {}
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
    /// The walk starts the next of its subtrees (chains of ordered workers switch
    /// each worker to that subtree's fork). Nothing by default.
    fn start_subtree(&mut self) {}
}

impl WorkerChain for () {
    fn start_subtree(&mut self) {}
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
            fn start_subtree(&mut self) {
                $(self.$idx.start_subtree();)+
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

/// What the walk above the split points calls on one actor of a parallel run.
///
/// Static and unordered actors walk the nodes above with workers (a fresh fork per
/// stretch between two subtrees, so merges keep document order); ordered actors walk
/// them themselves, keeping the states, and fork a worker at each split point.
pub trait AboveActor {
    /// A node above the split points is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node above is left during the walk; its leave event is replayed after the
    /// subtrees below it were merged ([`ParallelActor::leave_above`]), so here an
    /// actor only notes what the replay needs (an ordered actor: its state).
    fn leave(&mut self, visit: &Visit<'_>);
    /// The walk hands off subtree number `found`, whose root is at `depth`, instead
    /// of entering it. Not `fresh`: the previous subtree is in the same task and no
    /// node above was entered or left since, so both start from the same state.
    fn split(&mut self, found: usize, depth: u32, fresh: bool);
}

/// A chain of [`AboveActor`]s, called like a [`WorkerChain`].
pub trait AboveChain {
    /// Enters a node with every actor, combining their flows.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node above is left, last actor to first.
    fn leave(&mut self, visit: &Visit<'_>);
    /// A subtree is handed off.
    fn split(&mut self, found: usize, depth: u32, fresh: bool);
}

impl AboveChain for () {
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
    fn leave(&mut self, _visit: &Visit<'_>) {}
    fn split(&mut self, _found: usize, _depth: u32, _fresh: bool) {}
}

macro_rules! tuple_above {
    ($($name:ident $idx:tt),+ ; $($rev:tt),+) => {
        impl<$($name: AboveActor),+> AboveChain for ($($name,)+) {
            #[inline]
            fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
                let mut flow = Flow::Continue;
                $(if !fold(self.$idx.enter(visit, active), active, &mut flow) { return flow; })+
                flow
            }
            fn leave(&mut self, visit: &Visit<'_>) {
                $(self.$rev.leave(visit);)+
            }
            fn split(&mut self, found: usize, depth: u32, fresh: bool) {
                $(self.$idx.split(found, depth, fresh);)+
            }
        }
    };
}

tuple_above!(A 0; 0);
tuple_above!(A 0, B 1; 1, 0);
tuple_above!(A 0, B 1, C 2; 2, 1, 0);
tuple_above!(A 0, B 1, C 2, D 3; 3, 2, 1, 0);
tuple_above!(A 0, B 1, C 2, D 3, E 4; 4, 3, 2, 1, 0);
tuple_above!(A 0, B 1, C 2, D 3, E 4, F 5; 5, 4, 3, 2, 1, 0);
tuple_above!(A 0, B 1, C 2, D 3, E 4, F 5, G 6; 6, 5, 4, 3, 2, 1, 0);
tuple_above!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7; 7, 6, 5, 4, 3, 2, 1, 0);

/// An actor adapter that can be split into workers for a parallel run.
///
/// Implemented by [`Static`] (workers share the actor through `&self`), [`Unordered`]
/// (each worker gets the actor's [`fork`](UnorderedActor::fork), merged back with
/// [`merge`](UnorderedActor::merge)) and [`Ordered`](crate::Ordered) (the actor walks
/// the nodes above the split points itself; each subtree gets an
/// [`OrderedActor::fork`](crate::OrderedActor::fork) from the state at its root,
/// merged back with [`OrderedActor::merge`](crate::OrderedActor::merge)).
///
/// A run calls, in this order: [`above`](Self::above) for the walk above the split
/// points, [`finish_above`](Self::finish_above); [`fork`](Self::fork) per task (on the
/// calling thread), [`finish`](Self::finish) in the task; then, on the calling
/// thread in document order, [`merge_above`](Self::merge_above) per stretch above and
/// [`merge`](Self::merge) per task; last, in the post-order of the nodes above,
/// [`leave_above`](Self::leave_above) per node above and
/// [`subtree_done`](Self::subtree_done) per subtree.
///
/// This is the framework's glue between the actor classes and parallel runs: write
/// actors through [`StaticActor`](crate::StaticActor),
/// [`UnorderedActor`](crate::UnorderedActor) and
/// [`OrderedActor`](crate::OrderedActor), not by implementing this trait, whose
/// methods follow the parallel run's design (they changed when ordered actors
/// became parallel).
pub trait ParallelActor: Actor {
    /// What one worker thread runs.
    type Worker<'a>: WorkerActor
    where
        Self: 'a;
    /// What a finished worker hands back to be merged.
    type Part: Send;
    /// What walks the nodes above the split points.
    type Above<'a>: AboveActor
    where
        Self: 'a;
    /// What the walk above leaves for the forks and merges.
    type Top;
    /// Whether the actor can run in parallel ([`check_parallel`]).
    fn check_parallel(&self) -> Result<(), ActionError>;
    /// The walker of the nodes above, after `begin`.
    fn above(&mut self) -> Self::Above<'_>;
    /// Ends the walk above; an error if a fork was refused.
    fn finish_above(above: Self::Above<'_>) -> Result<Self::Top, ActionError>;
    /// A worker for the subtrees numbered `subtrees` (consecutive, in document order).
    fn fork(
        &self,
        top: &mut Self::Top,
        subtrees: Range<usize>,
    ) -> Result<Self::Worker<'_>, ActionError>;
    /// A worker's results.
    fn finish(worker: Self::Worker<'_>) -> Self::Part;
    /// The results of the next stretch of nodes above, in document order.
    fn merge_above(&mut self, top: &mut Self::Top);
    /// Adds a worker's results (tasks in document order).
    fn merge(&mut self, top: &mut Self::Top, part: Self::Part);
    /// The replayed leave event of a node above, in post-order.
    fn leave_above(&mut self, top: &mut Self::Top, visit: &Visit<'_>);
    /// Subtree number `found` is complete: where a sequential run leaves its root.
    fn subtree_done(&mut self, _top: &mut Self::Top, _found: usize) {}
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

impl<A: StaticActor> AboveActor for StaticWorker<'_, A> {
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        WorkerActor::enter(self, visit, active)
    }
    fn leave(&mut self, _visit: &Visit<'_>) {}
    fn split(&mut self, _found: usize, _depth: u32, _fresh: bool) {}
}

impl<A: StaticActor> ParallelActor for Static<A> {
    type Worker<'a> = StaticWorker<'a, A>;
    type Part = ();
    type Above<'a> = StaticWorker<'a, A>;
    type Top = ();
    fn check_parallel(&self) -> Result<(), ActionError> {
        check_parallel(&self.class(), true)
    }
    fn above(&mut self) -> StaticWorker<'_, A> {
        StaticWorker { shared: self }
    }
    fn finish_above(_above: StaticWorker<'_, A>) -> Result<(), ActionError> {
        Ok(())
    }
    fn fork(
        &self,
        _top: &mut (),
        _subtrees: Range<usize>,
    ) -> Result<StaticWorker<'_, A>, ActionError> {
        Ok(StaticWorker { shared: self })
    }
    fn finish(_worker: StaticWorker<'_, A>) {}
    fn merge_above(&mut self, _top: &mut ()) {}
    fn merge(&mut self, _top: &mut (), _part: ()) {}
    fn leave_above(&mut self, _top: &mut (), visit: &Visit<'_>) {
        Actor::leave(self, visit);
    }
}

/// The walk above the split points for an [`Unordered`] actor: a fresh fork for each
/// stretch of nodes between two subtrees.
#[derive(Debug)]
pub struct UnorderedAbove<'a, A: UnorderedActor> {
    main: &'a Unordered<A>,
    current: Option<Unordered<A>>,
    stretches: VecDeque<A>,
    error: Option<ActionError>,
}

impl<A: UnorderedActor> UnorderedAbove<'_, A> {
    fn close(&mut self) {
        if let Some(worker) = self.current.take() {
            self.stretches.push_back(worker.actor);
        }
    }
}

impl<A: UnorderedActor> AboveActor for UnorderedAbove<'_, A> {
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if self.current.is_none() {
            match self.main.fork() {
                Ok(worker) => self.current = Some(worker),
                Err(error) => {
                    self.error = Some(error);
                    return Flow::Stop;
                }
            }
        }
        match &mut self.current {
            Some(worker) => Actor::enter(worker, visit, active),
            None => Flow::Stop,
        }
    }
    fn leave(&mut self, _visit: &Visit<'_>) {}
    fn split(&mut self, _found: usize, _depth: u32, _fresh: bool) {
        self.close();
    }
}

impl<A: UnorderedActor> Unordered<A> {
    fn fork(&self) -> Result<Unordered<A>, ActionError> {
        match self.actor.fork() {
            Some(actor) => Ok(Unordered {
                actor,
                filter: TypeFilter::clone(&self.filter),
            }),
            None => Err(refusal(&self.class())),
        }
    }
}

impl<A: UnorderedActor> ParallelActor for Unordered<A> {
    type Worker<'a> = Unordered<A>;
    type Part = A;
    type Above<'a> = UnorderedAbove<'a, A>;
    type Top = VecDeque<A>;
    fn check_parallel(&self) -> Result<(), ActionError> {
        check_parallel(&self.class(), self.actor.fork().is_some())
    }
    fn above(&mut self) -> UnorderedAbove<'_, A> {
        UnorderedAbove {
            main: self,
            current: None,
            stretches: VecDeque::new(),
            error: None,
        }
    }
    fn finish_above(mut above: UnorderedAbove<'_, A>) -> Result<VecDeque<A>, ActionError> {
        above.close();
        match above.error {
            Some(error) => Err(error),
            None => Ok(above.stretches),
        }
    }
    fn fork(
        &self,
        _top: &mut VecDeque<A>,
        _subtrees: Range<usize>,
    ) -> Result<Unordered<A>, ActionError> {
        Unordered::fork(self)
    }
    fn finish(worker: Unordered<A>) -> A {
        worker.actor
    }
    fn merge_above(&mut self, top: &mut VecDeque<A>) {
        if let Some(stretch) = top.pop_front() {
            self.actor.merge(stretch);
        }
    }
    fn merge(&mut self, _top: &mut VecDeque<A>, part: A) {
        self.actor.merge(part);
    }
    fn leave_above(&mut self, _top: &mut VecDeque<A>, visit: &Visit<'_>) {
        Actor::leave(self, visit);
    }
}

/// An [`ActorChain`] that can be split into workers for a parallel run: every tuple
/// of [`ParallelActor`]s (the adapters `Static`, `Unordered`, `Ordered`).
/// `Vec<Box<dyn Actor>>` chains run sequentially only. The methods are those of
/// [`ParallelActor`], actor by actor (leaves last to first). Like
/// [`ParallelActor`], framework glue, not an extension point.
pub trait ForkChain: ActorChain {
    /// The chain one worker thread runs.
    type Worker<'a>: WorkerChain
    where
        Self: 'a;
    /// What a finished worker chain hands back.
    type Part: Send;
    /// The chain that walks the nodes above the split points.
    type Above<'a>: AboveChain
    where
        Self: 'a;
    /// What the walk above leaves, per actor.
    type Top;
    /// Checks every actor ([`check_parallel`]), naming the first refused one.
    fn check_parallel(&self) -> Result<(), ActionError>;
    /// The walker of the nodes above.
    fn above(&mut self) -> Self::Above<'_>;
    /// Ends the walk above.
    fn finish_above(above: Self::Above<'_>) -> Result<Self::Top, ActionError>;
    /// A worker chain for the subtrees numbered `subtrees`.
    fn fork(
        &self,
        top: &mut Self::Top,
        subtrees: Range<usize>,
    ) -> Result<Self::Worker<'_>, ActionError>;
    /// A worker chain's results.
    fn finish(worker: Self::Worker<'_>) -> Self::Part;
    /// Merges the next stretch above, actor by actor.
    fn merge_above(&mut self, top: &mut Self::Top);
    /// Adds a worker chain's results, actor by actor.
    fn merge(&mut self, top: &mut Self::Top, part: Self::Part);
    /// Replays the leave of a node above, last actor to first.
    fn leave_above(&mut self, top: &mut Self::Top, visit: &Visit<'_>);
    /// Subtree number `found` is complete.
    fn subtree_done(&mut self, top: &mut Self::Top, found: usize);
}

impl ForkChain for () {
    type Worker<'a> = ();
    type Part = ();
    type Above<'a> = ();
    type Top = ();
    fn check_parallel(&self) -> Result<(), ActionError> {
        Ok(())
    }
    fn above(&mut self) {}
    fn finish_above(_above: ()) -> Result<(), ActionError> {
        Ok(())
    }
    fn fork(&self, _top: &mut (), _subtrees: Range<usize>) -> Result<(), ActionError> {
        Ok(())
    }
    fn finish(_worker: ()) {}
    fn merge_above(&mut self, _top: &mut ()) {}
    fn merge(&mut self, _top: &mut (), _part: ()) {}
    fn leave_above(&mut self, _top: &mut (), _visit: &Visit<'_>) {}
    fn subtree_done(&mut self, _top: &mut (), _found: usize) {}
}

macro_rules! tuple_parallel {
    ($($name:ident $idx:tt),+ ; $($rev:tt),+) => {
        impl<$($name: ParallelActor),+> ForkChain for ($($name,)+) {
            type Worker<'a> = ($($name::Worker<'a>,)+) where Self: 'a;
            type Part = ($($name::Part,)+);
            type Above<'a> = ($($name::Above<'a>,)+) where Self: 'a;
            type Top = ($($name::Top,)+);
            fn check_parallel(&self) -> Result<(), ActionError> {
                $(self.$idx.check_parallel()?;)+
                Ok(())
            }
            fn above(&mut self) -> Self::Above<'_> {
                ($(self.$idx.above(),)+)
            }
            fn finish_above(above: Self::Above<'_>) -> Result<Self::Top, ActionError> {
                Ok(($($name::finish_above(above.$idx)?,)+))
            }
            fn fork(&self, top: &mut Self::Top, subtrees: Range<usize>) -> Result<Self::Worker<'_>, ActionError> {
                Ok(($(self.$idx.fork(&mut top.$idx, subtrees.clone())?,)+))
            }
            fn finish(worker: Self::Worker<'_>) -> Self::Part {
                ($($name::finish(worker.$idx),)+)
            }
            fn merge_above(&mut self, top: &mut Self::Top) {
                $(self.$idx.merge_above(&mut top.$idx);)+
            }
            fn merge(&mut self, top: &mut Self::Top, part: Self::Part) {
                $(self.$idx.merge(&mut top.$idx, part.$idx);)+
            }
            fn leave_above(&mut self, top: &mut Self::Top, visit: &Visit<'_>) {
                $(self.$rev.leave_above(&mut top.$rev, visit);)+
            }
            fn subtree_done(&mut self, top: &mut Self::Top, found: usize) {
                $(self.$idx.subtree_done(&mut top.$idx, found);)+
            }
        }
    };
}

tuple_parallel!(A 0; 0);
tuple_parallel!(A 0, B 1; 1, 0);
tuple_parallel!(A 0, B 1, C 2; 2, 1, 0);
tuple_parallel!(A 0, B 1, C 2, D 3; 3, 2, 1, 0);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4; 4, 3, 2, 1, 0);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4, F 5; 5, 4, 3, 2, 1, 0);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4, F 5, G 6; 6, 5, 4, 3, 2, 1, 0);
tuple_parallel!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7; 7, 6, 5, 4, 3, 2, 1, 0);
