//! Ordered actors in parallel runs: the actor walks the nodes above the split points
//! itself; each subtree gets a fork from the state at its root, merged back where a
//! sequential run would have left that root.

use crate::action::parallel::fork::{Fork, PARALLEL, Share, refusal};
use crate::actor::{
    ActiveList, Actor, Events, Flow, Ordered, OrderedActor, OrderedStates, TypeFilter, Visit,
};
use crate::error::ActionError;
use crate::invariant::Invariant;
use crate::run::OrderedState;
use std::collections::VecDeque;
use std::ops::Range;

/// The walk above the split points for an [`Ordered`] actor.
pub struct OrderedAbove<'a, A: OrderedActor> {
    main: &'a mut Ordered<A>,
    top: OrderedTop<A>,
    error: Option<ActionError>,
}

/// What the walk above leaves for an [`Ordered`] actor: the forks with their starting
/// states, finished forks waiting for their place, the states for the leaves above.
pub struct OrderedTop<A: OrderedActor> {
    forks: Vec<Option<(A, A::State)>>,
    /// Per subtree (by its number in the walk): its fork's number.
    fork_of: Vec<usize>,
    done: Vec<Option<A>>,
    leaves: VecDeque<A::State>,
}

impl<A: OrderedActor> Share for OrderedAbove<'_, A> {
    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if self.error.is_some() {
            // A fork was refused: the run ends with the error, so stop walking.
            return Flow::Stop;
        }
        Actor::enter(self.main, visit, active)
    }
    fn note_leave(&mut self, visit: &Visit<'_>) {
        // The replayed leave gets the state the node has now.
        if A::EVENTS == Events::EnterLeave
            && self.main.filter.admits(visit)
            && let Some(state) = self.main.states.at_leave(visit.depth())
        {
            self.top.leaves.push_back(state.clone());
        }
    }
    fn split(&mut self, found: usize, depth: u32, fresh: bool) {
        if fresh || self.top.forks.is_empty() {
            self.main.states.before_enter(depth);
            // A run begins its actors before this walk, so there is a state to fork.
            let state = self.main.states.current();
            let fork = state.and_then(|state| self.main.actor.fork(state));
            if fork.is_none() && self.error.is_none() {
                let reason = "its OrderedActor::fork declined this run (returned None), so \
                              its subtrees cannot get workers; run it sequentially";
                self.error = Some(self.main.class().refused(PARALLEL.name, reason));
            }
            self.top.forks.push(fork);
        }
        // A sibling of the previous subtree with nothing above in between shares its
        // fork. Subtrees are handed off in number order: `found` is the next number.
        debug_assert_eq!(self.top.fork_of.len(), found);
        self.top
            .fork_of
            .push(self.top.forks.len().saturating_sub(1));
    }
}

/// A worker of an [`Ordered`] actor: the forks of its task's subtrees.
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

impl<A: OrderedActor> Share for OrderedWorker<A> {
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

impl<A: OrderedActor> Fork for Ordered<A> {
    type Worker<'a> = OrderedWorker<A>;
    type Part = (Vec<(usize, A)>, u64);
    type Above<'a> = OrderedAbove<'a, A>;
    type Top = OrderedTop<A>;
    fn check_parallel(&self) -> Result<(), ActionError> {
        self.class().check_parallel(A::FORKS)
    }
    fn above(&mut self) -> OrderedAbove<'_, A> {
        let leaves = std::mem::take(&mut self.spare_leaves);
        OrderedAbove {
            main: self,
            top: OrderedTop {
                forks: Vec::new(),
                fork_of: Vec::new(),
                done: Vec::new(),
                leaves,
            },
            error: None,
        }
    }
    fn finish_above(above: OrderedAbove<'_, A>) -> Result<OrderedTop<A>, ActionError> {
        above.error.map_or(Ok(above.top), Err)
    }
    fn fork(
        &self,
        top: &mut OrderedTop<A>,
        subtrees: Range<usize>,
    ) -> Result<OrderedWorker<A>, ActionError> {
        let fork_of = top.fork_of.get(subtrees).invariant("subtrees").to_vec();
        let (Some(&first), Some(&last)) = (fork_of.first(), fork_of.last()) else {
            return Err(refusal(&self.class()));
        };
        // A task's forks are its own: a new task always starts a new fork.
        let forks = top
            .forks
            .get_mut(first..last + 1)
            .invariant("forks")
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
    fn finish(mut worker: OrderedWorker<A>) -> Self::Part {
        if let Some((number, actor, _)) = worker.current.take() {
            worker.done.push((number, actor));
        }
        (worker.done, worker.copies + worker.states.take_copies())
    }
    fn merge(&mut self, top: &mut OrderedTop<A>, (forks, copies): Self::Part) {
        self.states.copies += copies;
        // Kept until the place of the fork's last subtree in post-order.
        for (number, fork) in forks {
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
    /// The states of the replayed leaves, a deque as long as the nodes above, stay.
    fn recycle(&mut self, mut top: OrderedTop<A>) {
        top.leaves.clear();
        self.spare_leaves = top.leaves;
    }
}
