//! Actor chains: the ordered list of actors an action calls at each node.

use crate::actor::sealed::{Chain, actors};
use crate::actor::{ActiveList, Actor, ActorClass, Flow, Frame, Visit};
use crate::error::{ActionError, TraversalError};
use crate::graph::Graph;
use crate::run::RunContext;
use crate::run::{Capabilities, RunStats};

/// The actors of an [`Action`](crate::Action), called in order at enter and in reverse
/// order at leave: tuples of up to eight [`Actor`]s, which the compiler turns into
/// straight-line calls, and `Vec<Box<dyn Actor>>` for a chain only known at run time.
/// Sealed: name it to write code generic over chains.
///
/// ```
/// use scenewalk_core::{Action, ActorChain, DepthFirst, Graph, NodeId, TraversalError};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// fn entered<C: ActorChain>(chain: C, graph: &Graph, root: NodeId) -> Result<u64, TraversalError> {
///     Ok(Action::new(DepthFirst::new(), chain)?.run(graph, root)?.entered)
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// graph.append_child(root, Group)?;
/// assert_eq!(entered((), &graph, root)?, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ActorChain: Chain {
    /// The classes of the actors, in chain order.
    fn classes(&self) -> Vec<ActorClass> {
        actors(self).map(|a| a.class()).collect()
    }
    /// Checks every actor against an iterator's capabilities, without allocating.
    fn check(&self, capabilities: &Capabilities) -> Result<(), ActionError> {
        actors(self).try_for_each(|a| a.class().check(capabilities))
    }
    /// A run begins: every actor's `begin`, in order, even after one refused the run;
    /// the first refusal is returned.
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        (0..)
            .map_while(|i| Some(self.nth_mut(i)?.begin(run)))
            .fold(Ok(()), Result::and)
    }
    /// Enters a node with every actor, combining their flows (see [`Flow`]).
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// Leaves a node with every actor, last to first.
    fn leave(&mut self, visit: &Visit<'_>);
    /// Enters a batch with every actor (see [`Actor::enter_batch`]).
    fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        let (mut flow, mut i) = (Flow::Continue, 0);
        while let Some(actor) = self.nth_mut(i)
            && fold(actor.enter_batch(graph, depth, batch), None, &mut flow)
        {
            i += 1;
        }
        flow
    }
    /// A run ended.
    fn end(&mut self, stats: &mut RunStats) {
        let mut i = 0;
        while let Some(actor) = self.nth_mut(i) {
            actor.end(stats);
            i += 1;
        }
    }
}

/// Folds one actor's answer into the chain's `flow`; returns whether the next actor
/// runs. `Prune` deactivates an entered node's `active` children before the next actor
/// runs; at a batch (no list) it keeps the entries but expands none.
#[inline(always)]
pub(crate) fn fold(answer: Flow, active: Option<&mut ActiveList<'_>>, flow: &mut Flow) -> bool {
    match answer {
        Flow::Continue => true,
        Flow::Prune => {
            if let Some(active) = active {
                active.deactivate_all();
            }
            *flow = Flow::Prune;
            true
        }
        Flow::Stop => {
            *flow = Flow::Stop;
            false
        }
    }
}

/// Calls `$m!` once per tuple of zero to eight actors, naming each element's type and
/// index, then the indices last to first: `$m!(A 0, B 1; 1, 0)`.
macro_rules! for_tuples {
    ($m:ident) => {
        $m!(;);
        $m!(A 0; 0);
        $m!(A 0, B 1; 1, 0);
        $m!(A 0, B 1, C 2; 2, 1, 0);
        $m!(A 0, B 1, C 2, D 3; 3, 2, 1, 0);
        $m!(A 0, B 1, C 2, D 3, E 4; 4, 3, 2, 1, 0);
        $m!(A 0, B 1, C 2, D 3, E 4, F 5; 5, 4, 3, 2, 1, 0);
        $m!(A 0, B 1, C 2, D 3, E 4, F 5, G 6; 6, 5, 4, 3, 2, 1, 0);
        $m!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7; 7, 6, 5, 4, 3, 2, 1, 0);
    };
}
#[cfg(feature = "parallel")]
pub(crate) use for_tuples;

/// A tuple's `enter` (first to last, folding the flows) and `leave` (last to first):
/// a chain's, and a parallel run's tuple of shares.
macro_rules! tuple_calls {
    ([$($idx:tt)*] [$($rev:tt)*]) => {
        #[inline(always)]
        fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
            let mut flow = Flow::Continue;
            $(if !fold(self.$idx.enter(visit, active), Some(&mut *active), &mut flow) { return flow; })*
            flow
        }
        #[inline]
        fn leave(&mut self, visit: &Visit<'_>) {
            $(self.$rev.leave(visit);)*
        }
    };
}
#[cfg(feature = "parallel")]
pub(crate) use tuple_calls;

macro_rules! tuple_chain {
    ($($name:ident $idx:tt),* ; $($rev:tt),*) => {
        #[allow(unused_variables, unused_mut, reason = "the empty tuple calls no actor")]
        impl<$($name: Actor),*> ActorChain for ($($name,)*) {
            tuple_calls!([$($idx)*] [$($rev)*]);
        }

        #[allow(unused_variables, clippy::match_single_binding, reason = "the empty tuple holds no actor")]
        impl<$($name: Actor),*> Chain for ($($name,)*) {
            fn restore_frame(&mut self, frame: Frame) {
                $(self.$idx.restore_frame(frame);)*
            }
            fn save_frame(&mut self, frame: Frame) {
                $(self.$idx.save_frame(frame);)*
            }
            fn release_frame(&mut self, frame: Frame) {
                $(self.$idx.release_frame(frame);)*
            }
            fn nth(&self, i: usize) -> Option<&dyn Actor> {
                match i {
                    $($idx => Some(&self.$idx),)*
                    _ => None,
                }
            }
            fn nth_mut(&mut self, i: usize) -> Option<&mut dyn Actor> {
                match i {
                    $($idx => Some(&mut self.$idx),)*
                    _ => None,
                }
            }
        }
    };
}

for_tuples!(tuple_chain);

impl ActorChain for Vec<Box<dyn Actor>> {
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let mut flow = Flow::Continue;
        for actor in self.iter_mut() {
            if !fold(actor.enter(visit, active), Some(&mut *active), &mut flow) {
                break;
            }
        }
        flow
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        for actor in self.iter_mut().rev() {
            actor.leave(visit);
        }
    }
}

impl Chain for Vec<Box<dyn Actor>> {
    fn restore_frame(&mut self, frame: Frame) {
        self.iter_mut().for_each(|a| a.restore_frame(frame));
    }
    fn save_frame(&mut self, frame: Frame) {
        self.iter_mut().for_each(|a| a.save_frame(frame));
    }
    fn release_frame(&mut self, frame: Frame) {
        self.iter_mut().for_each(|a| a.release_frame(frame));
    }
    fn nth(&self, i: usize) -> Option<&dyn Actor> {
        Some(&**self.get(i)?)
    }
    fn nth_mut(&mut self, i: usize) -> Option<&mut dyn Actor> {
        Some(&mut **self.get_mut(i)?)
    }
}
