//! Ordered actors in parallel runs: the actor walks the nodes above the split points
//! itself, keeping its states; each subtree gets a fork that starts from the state at
//! its root, merged back where a sequential run would have left that root.

use crate::actor::{
    ActiveList, Actor, Events, Flow, Ordered, OrderedActor, OrderedStates, TypeFilter, Visit,
};
use crate::error::ActionError;
use crate::parallel::fork::{
    AboveActor, PARALLEL, ParallelActor, WorkerActor, check_parallel, refusal,
};
use crate::run::OrderedState;
use std::collections::VecDeque;
use std::ops::Range;

/// The walk above the split points for an [`Ordered`] actor: the actor itself with
/// its own states, forking a worker at each split point.
pub struct OrderedAbove<'a, A: OrderedActor> {
    main: &'a mut Ordered<A>,
    top: OrderedTop<A>,
    error: Option<ActionError>,
}

/// What the walk above leaves for an [`Ordered`] actor: the forks with their starting
/// states (one per run of sibling subtrees in one task), the fork of each subtree,
/// finished forks waiting for their place in post-order, and the states of the nodes
/// above at their leaves, for the replayed leave events.
pub struct OrderedTop<A: OrderedActor> {
    forks: Vec<Option<(A, A::State)>>,
    /// Per subtree (by its number in the walk): its fork's number.
    fork_of: Vec<usize>,
    done: Vec<Option<A>>,
    leaves: VecDeque<A::State>,
}

impl<A: OrderedActor> AboveActor for OrderedAbove<'_, A> {
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if self.error.is_some() {
            // A fork was refused: the run ends with the error, so stop walking.
            return Flow::Stop;
        }
        Actor::enter(self.main, visit, active)
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        // The leave event itself waits until the subtrees below were merged; the
        // state it gets is the one the node has now.
        if A::EVENTS == Events::EnterLeave
            && self.main.filter.admits(visit)
            && let Some(state) = self.main.states.at_leave(visit.depth())
        {
            self.top.leaves.push_back(state.clone());
        }
    }
    fn split(&mut self, found: usize, depth: u32, fresh: bool) {
        if fresh || self.top.forks.is_empty() {
            let (fork, reason) = match self.main.states.parent_state(depth) {
                Some(state) => (
                    self.main.actor.fork(state),
                    "its OrderedActor::fork declined this run (returned None), so its \
                     subtrees cannot get workers; run it sequentially",
                ),
                None => (None, "it has no state to fork: the run did not begin it"),
            };
            if fork.is_none() && self.error.is_none() {
                self.error = Some(ActionError::Incompatible {
                    actor: self.main.class().name,
                    iterator: PARALLEL.name,
                    reason: reason.to_owned(),
                });
            }
            self.top.forks.push(fork);
        }
        // A sibling of the previous subtree with nothing above in between shares its
        // fork: the same starting state, and no event of the nodes above between
        // their places in pre-order or post-order.
        let fork = self.top.forks.len().saturating_sub(1);
        if self.top.fork_of.len() <= found {
            self.top.fork_of.resize(found + 1, fork);
        }
        if let Some(slot) = self.top.fork_of.get_mut(found) {
            *slot = fork;
        }
    }
}

/// A worker of an [`Ordered`] actor: the forks of its task's subtrees (siblings with
/// nothing above between them share one), each subtree walked with a fresh state
/// stack seeded by its fork's starting state.
pub struct OrderedWorker<A: OrderedActor> {
    /// Per subtree of the task, in order: its fork's number.
    fork_of: Vec<usize>,
    next: usize,
    queue: std::vec::IntoIter<(usize, A, A::State)>,
    current: Option<(usize, A, A::State)>,
    states: OrderedStates<A::State>,
    filter: TypeFilter,
    done: Vec<(usize, A)>,
    /// State copies of the subtrees done.
    copies: u64,
}

/// What an [`OrderedWorker`] hands back: its forks (with their numbers) and its
/// state copies.
pub struct OrderedPart<A> {
    forks: Vec<(usize, A)>,
    copies: u64,
}

impl<A: OrderedActor> WorkerActor for OrderedWorker<A> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.states.before_enter(visit.depth());
        if !self.filter.admits(visit) {
            return Flow::Continue;
        }
        match &mut self.current {
            Some((_, actor, _)) => actor.enter(&mut self.states.cell(visit.depth()), visit, active),
            None => Flow::Continue,
        }
    }
    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave
            && self.filter.admits(visit)
            && let Some((_, actor, _)) = &mut self.current
            && let Some(state) = self.states.at_leave(visit.depth())
        {
            actor.leave(state, visit);
        }
    }
    fn start_subtree(&mut self) {
        self.copies += self.states.take_copies();
        let fork = self.fork_of.get(self.next).copied();
        self.next += 1;
        if self.current.as_ref().map(|c| c.0) != fork {
            if let Some((number, actor, _)) = self.current.take() {
                self.done.push((number, actor));
            }
            self.current = self.queue.next();
        }
        if let Some((_, _, state)) = &self.current {
            self.states.reset(OrderedState::DepthStack, state.clone());
        }
    }
}

impl<A: OrderedActor> ParallelActor for Ordered<A> {
    type Worker<'a> = OrderedWorker<A>;
    type Part = OrderedPart<A>;
    type Above<'a> = OrderedAbove<'a, A>;
    type Top = OrderedTop<A>;
    fn check_parallel(&self) -> Result<(), ActionError> {
        check_parallel(&self.class(), A::FORKS)
    }
    fn above(&mut self) -> OrderedAbove<'_, A> {
        OrderedAbove {
            main: self,
            top: OrderedTop {
                forks: Vec::new(),
                fork_of: Vec::new(),
                done: Vec::new(),
                leaves: VecDeque::new(),
            },
            error: None,
        }
    }
    fn finish_above(above: OrderedAbove<'_, A>) -> Result<OrderedTop<A>, ActionError> {
        match above.error {
            Some(error) => Err(error),
            None => Ok(above.top),
        }
    }
    fn fork(
        &self,
        top: &mut OrderedTop<A>,
        subtrees: Range<usize>,
    ) -> Result<OrderedWorker<A>, ActionError> {
        let fork_of = top.fork_of.get(subtrees).unwrap_or_default().to_vec();
        let (Some(&first), Some(&last)) = (fork_of.first(), fork_of.last()) else {
            return Err(refusal(&self.class()));
        };
        // A task's forks are its own: a new task always starts a new fork.
        let forks = top
            .forks
            .get_mut(first..last + 1)
            .unwrap_or_default()
            .iter_mut()
            .zip(first..)
            .map(|(slot, number)| slot.take().map(|(actor, state)| (number, actor, state)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| refusal(&self.class()))?;
        Ok(OrderedWorker {
            fork_of,
            next: 0,
            queue: forks.into_iter(),
            current: None,
            states: OrderedStates::default(),
            filter: self.filter.clone(),
            done: Vec::new(),
            copies: 0,
        })
    }
    fn finish(mut worker: OrderedWorker<A>) -> OrderedPart<A> {
        if let Some((number, actor, _)) = worker.current.take() {
            worker.done.push((number, actor));
        }
        OrderedPart {
            copies: worker.copies + worker.states.take_copies(),
            forks: worker.done,
        }
    }
    fn merge_above(&mut self, _top: &mut OrderedTop<A>) {}
    fn merge(&mut self, top: &mut OrderedTop<A>, part: OrderedPart<A>) {
        self.states.add_copies(part.copies);
        // Kept until the place of the fork's last subtree in post-order.
        for (number, fork) in part.forks {
            if top.done.len() <= number {
                top.done.resize_with(number + 1, || None);
            }
            if let Some(slot) = top.done.get_mut(number) {
                *slot = Some(fork);
            }
        }
    }
    fn leave_above(&mut self, top: &mut OrderedTop<A>, visit: &Visit<'_>) {
        if A::EVENTS == Events::EnterLeave
            && self.filter.admits(visit)
            && let Some(state) = top.leaves.pop_front()
        {
            self.actor.leave(&state, visit);
        }
    }
    fn subtree_done(&mut self, top: &mut OrderedTop<A>, found: usize) {
        let Some(&number) = top.fork_of.get(found) else {
            return;
        };
        if top.fork_of.get(found + 1) == Some(&number) {
            return; // the fork's later sibling subtrees come first
        }
        if let Some(fork) = top.done.get_mut(number).and_then(Option::take) {
            self.actor.merge(fork);
        }
    }
}

macro_rules! opaque_debug {
    ($($name:ident),+) => {$(
        impl<A: OrderedActor> std::fmt::Debug for $name<A> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }
    )+};
}
opaque_debug!(OrderedTop, OrderedWorker);

impl<A: OrderedActor> std::fmt::Debug for OrderedAbove<'_, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrderedAbove").finish_non_exhaustive()
    }
}

impl<A> std::fmt::Debug for OrderedPart<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OrderedPart")
            .field("forks", &self.forks.len())
            .finish_non_exhaustive()
    }
}
