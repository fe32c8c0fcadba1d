//! Forking a chain into workers for a parallel run, and merging them back; the public
//! name of a chain that can.

use crate::actor::{
    ActiveList, Actor, ActorChain, ActorClass, Events, Flow, StateKind, Static, StaticActor,
    Unordered, UnorderedActor, Visit, filtered_calls, fold, for_tuples, tuple_calls,
};
use crate::error::ActionError;
use crate::run::{Capabilities, OrderedState};
use std::collections::VecDeque;
use std::ops::Range;

/// What a parallel run gives actors, as an iterator's capabilities: pre-order, nested
/// leave events, ordered state by depth (each subtree from the state at its root).
pub(crate) const PARALLEL: Capabilities = Capabilities {
    name: "parallel depth-first (Action::run_parallel)",
    leave_events: true,
    current_node: true,
    ordered_state: OrderedState::DepthStack,
};

impl ActorClass {
    /// Whether an actor of this class can take part in a parallel run
    /// ([`Action::run_parallel`](crate::Action::run_parallel)): static actors always,
    /// unordered and ordered ones if `merges` says they have a fork/merge hook
    /// ([`UnorderedActor::fork`], [`OrderedActor::FORKS`](crate::OrderedActor::FORKS)).
    pub fn check_parallel(&self, merges: bool) -> Result<(), ActionError> {
        if merges || self.state == StateKind::Static {
            Ok(())
        } else {
            Err(refusal(self))
        }
    }
}

/// Why an actor of this class (without a hook) is refused.
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
    class.refused(PARALLEL.name, reason)
}

/// What a walk of a parallel run calls on one actor's share of it, or on a tuple of
/// them. A task's walk calls `enter`, `leave` and `start_subtree`; the walk above the
/// split points calls `enter`, `note_leave` (the leave is replayed later,
/// [`Fork::leave_above`]) and `split`.
pub trait Share {
    /// A node is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node below the split points is left.
    fn leave(&mut self, _visit: &Visit<'_>) {}
    /// A node above the split points is left: note what the replayed leave needs.
    fn note_leave(&mut self, _visit: &Visit<'_>) {}
    /// The task's walk starts its next subtree.
    fn start_subtree(&mut self) {}
    /// The walk above hands subtree number `found`, rooted at `depth`, off; not `fresh`:
    /// it follows the task's previous subtree with no node above in between, so both
    /// start from the same state.
    fn split(&mut self, _found: usize, _depth: u32, _fresh: bool) {}
}

macro_rules! tuple_share {
    ($($name:ident $idx:tt),* ; $($rev:tt),*) => {
        #[allow(unused_variables, unused_mut, reason = "the empty tuple calls no actor")]
        impl<$($name: Share),*> Share for ($($name,)*) {
            tuple_calls!([$($idx)*] [$($rev)*]);
            fn note_leave(&mut self, visit: &Visit<'_>) {
                $(self.$rev.note_leave(visit);)*
            }
            fn start_subtree(&mut self) {
                $(self.$idx.start_subtree();)*
            }
            fn split(&mut self, found: usize, depth: u32, fresh: bool) {
                $(self.$idx.split(found, depth, fresh);)*
            }
        }
    };
}

for_tuples!(tuple_share);

/// What a parallel run calls on an adapter, or on a tuple of them, in the order of
/// its methods: merges in document order, then leaves above and subtrees done in
/// post-order.
pub trait Fork {
    /// What one worker thread runs.
    type Worker<'a>: Share + Send
    where
        Self: 'a;
    /// What a finished worker hands back to be merged.
    type Part: Send;
    /// What walks the nodes above the split points.
    type Above<'a>: Share
    where
        Self: 'a;
    /// What the walk above leaves for the forks and merges.
    type Top;
    /// Whether every actor can run in parallel ([`check_parallel`]).
    fn check_parallel(&self) -> Result<(), ActionError>;
    /// The walker of the nodes above, after `begin`.
    fn above(&mut self) -> Self::Above<'_>;
    /// Ends the walk above; an error if a fork was refused.
    fn finish_above(above: Self::Above<'_>) -> Result<Self::Top, ActionError>;
    /// A worker for the consecutive subtrees numbered `subtrees`.
    fn fork(
        &self,
        top: &mut Self::Top,
        subtrees: Range<usize>,
    ) -> Result<Self::Worker<'_>, ActionError>;
    /// A worker's results.
    fn finish(worker: Self::Worker<'_>) -> Self::Part;
    /// The results of the next stretch of nodes above.
    fn merge_above(&mut self, _top: &mut Self::Top) {}
    /// Adds a worker's results.
    fn merge(&mut self, top: &mut Self::Top, part: Self::Part);
    /// The replayed leave of a node above.
    fn leave_above(&mut self, top: &mut Self::Top, visit: &Visit<'_>);
    /// Subtree number `found` is complete.
    fn subtree_done(&mut self, _top: &mut Self::Top, _found: usize) {}
    /// The run is over: keep what `top` holds for the next run's walk above.
    fn recycle(&mut self, _top: Self::Top) {}
}

macro_rules! tuple_fork {
    ($($name:ident $idx:tt),* ; $($rev:tt),*) => {
        #[allow(unused_variables, clippy::unused_unit, reason = "the empty tuple calls no actor")]
        impl<$($name: Fork),*> Fork for ($($name,)*) {
            type Worker<'a> = ($($name::Worker<'a>,)*) where Self: 'a;
            type Part = ($($name::Part,)*);
            type Above<'a> = ($($name::Above<'a>,)*) where Self: 'a;
            type Top = ($($name::Top,)*);
            fn check_parallel(&self) -> Result<(), ActionError> {
                $(self.$idx.check_parallel()?;)*
                Ok(())
            }
            fn above(&mut self) -> Self::Above<'_> {
                ($(self.$idx.above(),)*)
            }
            fn finish_above(above: Self::Above<'_>) -> Result<Self::Top, ActionError> {
                Ok(($($name::finish_above(above.$idx)?,)*))
            }
            fn fork(&self, top: &mut Self::Top, subtrees: Range<usize>) -> Result<Self::Worker<'_>, ActionError> {
                Ok(($(self.$idx.fork(&mut top.$idx, subtrees.clone())?,)*))
            }
            fn finish(worker: Self::Worker<'_>) -> Self::Part {
                ($($name::finish(worker.$idx),)*)
            }
            fn merge_above(&mut self, top: &mut Self::Top) {
                $(self.$idx.merge_above(&mut top.$idx);)*
            }
            fn merge(&mut self, top: &mut Self::Top, part: Self::Part) {
                $(self.$idx.merge(&mut top.$idx, part.$idx);)*
            }
            fn leave_above(&mut self, top: &mut Self::Top, visit: &Visit<'_>) {
                $(self.$rev.leave_above(&mut top.$rev, visit);)*
            }
            fn subtree_done(&mut self, top: &mut Self::Top, found: usize) {
                $(self.$idx.subtree_done(&mut top.$idx, found);)*
            }
            fn recycle(&mut self, top: Self::Top) {
                $(self.$idx.recycle(top.$idx);)*
            }
        }
    };
}

for_tuples!(tuple_fork);

/// A [`Static`] actor's workers share it (`StaticActor` is `Sync`).
impl<A: StaticActor> Share for &Static<A> {
    filtered_calls!();
}

impl<A: StaticActor> Fork for Static<A> {
    type Worker<'a> = &'a Static<A>;
    type Part = ();
    type Above<'a> = &'a Static<A>;
    type Top = ();
    fn check_parallel(&self) -> Result<(), ActionError> {
        self.class().check_parallel(true)
    }
    fn above(&mut self) -> &Static<A> {
        self
    }
    fn finish_above(_above: &Static<A>) -> Result<(), ActionError> {
        Ok(())
    }
    fn fork(&self, _top: &mut (), _subtrees: Range<usize>) -> Result<&Static<A>, ActionError> {
        Ok(self)
    }
    fn finish(_worker: &Static<A>) {}
    fn merge(&mut self, _top: &mut (), _part: ()) {}
    fn leave_above(&mut self, _top: &mut (), visit: &Visit<'_>) {
        Actor::leave(self, visit);
    }
}

impl<A: UnorderedActor> Share for Unordered<A> {
    filtered_calls!();
}

/// The walk above the split points for an [`Unordered`] actor: a fork per stretch of
/// nodes between two subtrees.
pub struct UnorderedAbove<'a, A: UnorderedActor> {
    main: &'a Unordered<A>,
    current: Option<Unordered<A>>,
    stretches: VecDeque<A>,
    error: Option<ActionError>,
}

impl<A: UnorderedActor> Share for UnorderedAbove<'_, A> {
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        match self.current.take().map_or_else(|| self.main.worker(), Ok) {
            Ok(worker) => Actor::enter(self.current.insert(worker), visit, active),
            Err(error) => {
                self.error = Some(error);
                Flow::Stop
            }
        }
    }
    fn split(&mut self, _found: usize, _depth: u32, _fresh: bool) {
        self.close();
    }
}

impl<A: UnorderedActor> UnorderedAbove<'_, A> {
    fn close(&mut self) {
        if let Some(worker) = self.current.take() {
            self.stretches.push_back(worker.actor);
        }
    }
}

impl<A: UnorderedActor> Unordered<A> {
    fn worker(&self) -> Result<Unordered<A>, ActionError> {
        let filter = self.filter.clone();
        let actor = self.actor.fork().ok_or_else(|| refusal(&self.class()))?;
        Ok(Unordered { actor, filter })
    }
}

impl<A: UnorderedActor> Fork for Unordered<A> {
    type Worker<'a> = Unordered<A>;
    type Part = A;
    type Above<'a> = UnorderedAbove<'a, A>;
    type Top = VecDeque<A>;
    fn check_parallel(&self) -> Result<(), ActionError> {
        self.class().check_parallel(self.actor.fork().is_some())
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
        above.error.map_or(Ok(above.stretches), Err)
    }
    fn fork(
        &self,
        _top: &mut VecDeque<A>,
        _subtrees: Range<usize>,
    ) -> Result<Unordered<A>, ActionError> {
        self.worker()
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

/// An [`ActorChain`] that [`Action::run_parallel`](crate::Action::run_parallel) can
/// split into workers: every tuple of up to eight adapters; a `Vec<Box<dyn Actor>>`
/// runs sequentially only. Sealed: actors take part through the fork/merge hooks of
/// their kind, checked when the run starts (static actors always, others with a fork/merge hook).
///
/// The glue behind it is not public:
///
/// ```compile_fail
/// use scenewalk_core::{Fork, Share};
/// ```
pub trait ParallelChain: ActorChain + Fork {}

impl<C: ActorChain + Fork> ParallelChain for C {}
