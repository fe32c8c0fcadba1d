//! Actor chains: the ordered list of actors an action calls at each node.

use crate::actor::sealed::Chain;
use crate::actor::{ActiveList, Actor, ActorClass, Flow, Frame, RunContext, Visit};
use crate::error::{ActionError, TraversalError};
use crate::graph::Graph;
use crate::run::{Capabilities, RunStats};
use std::any::Any;

/// The actors of an [`Action`](crate::Action), called in order at enter and in reverse
/// order at leave.
///
/// Implemented for tuples of up to eight [`Actor`]s, which the compiler turns into
/// straight-line calls (no dynamic dispatch per node), and for `Vec<Box<dyn Actor>>`
/// when the chain is only known at run time. Sealed: those are the chains; name the
/// trait to write code generic over them.
///
/// ```
/// use scenewalk_core::{
///     Action, ActiveList, ActorChain, DepthFirst, Flow, Graph, NodeId, StateKind, Static,
///     StaticActor, TraversalError, Visit,
/// };
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// /// Runs any chain depth-first; returns how many nodes it entered.
/// fn entered<C: ActorChain>(chain: C, graph: &Graph, root: NodeId) -> Result<u64, TraversalError> {
///     let mut action = Action::new(DepthFirst::new(), chain)?;
///     Ok(action.run(graph, root)?.entered)
/// }
/// struct Everything;
/// impl StaticActor for Everything {
///     fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         Flow::Continue
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// graph.append_child(root, Group)?;
/// let chain = (Static::new(Everything), Static::new(Everything));
/// assert_eq!(chain.classes().iter().filter(|c| c.state == StateKind::Static).count(), 2);
/// assert_eq!(entered(chain, &graph, root)?, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait ActorChain: Chain {
    /// The classes of the actors, in chain order.
    fn classes(&self) -> Vec<ActorClass>;
    /// Checks every actor against an iterator's capabilities ([`check`](crate::check)),
    /// without allocating.
    fn check(&self, capabilities: &Capabilities) -> Result<(), ActionError>;
    /// A run begins: every actor's `begin`, in order, even after one refused the run;
    /// the first refusal is returned.
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError>;
    /// Enters a node with every actor, combining their flows (see [`Flow`]).
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// Leaves a node with every actor, last to first.
    fn leave(&mut self, visit: &Visit<'_>);
    /// Enters a batch with every actor (see [`Actor::enter_batch`]).
    fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow;
    /// A run ended.
    fn end(&mut self, stats: &mut RunStats);
}

/// Folds one actor's answer into the chain's `flow`; returns whether the next actor
/// runs. `Stop` ends the chain; `Prune` deactivates every child of an entered node
/// (its `active` list) before the next actor runs, and at a batch (no list) keeps the
/// entries, which are the nodes entered, but expands none of them.
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
/// index, then the indices last to first: `$m!(A 0, B 1; 1, 0)`. The empty tuple calls
/// no actor, so its impls leave their arguments unused.
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
/// a chain's, and a parallel run's tuple of walkers.
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
            fn classes(&self) -> Vec<ActorClass> {
                vec![$(self.$idx.class()),*]
            }
            fn check(&self, capabilities: &Capabilities) -> Result<(), ActionError> {
                $(crate::run::check(&self.$idx.class(), capabilities)?;)*
                Ok(())
            }
            fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
                let mut outcome = Ok(());
                $(let begun = self.$idx.begin(run);
                if outcome.is_ok() { outcome = begun; })*
                outcome
            }
            tuple_calls!([$($idx)*] [$($rev)*]);
            fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
                let mut flow = Flow::Continue;
                $(if !fold(self.$idx.enter_batch(graph, depth, batch), None, &mut flow) { return flow; })*
                flow
            }
            fn end(&mut self, stats: &mut RunStats) {
                $(self.$idx.end(stats);)*
            }
        }

        #[allow(unused_variables, reason = "the empty tuple calls no actor")]
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
            fn find<T: Any>(&self) -> Option<&T> {
                None$(.or_else(|| self.$idx.inner().downcast_ref::<T>()))*
            }
            fn find_mut<T: Any>(&mut self) -> Option<&mut T> {
                $(if self.$idx.inner().is::<T>() { return self.$idx.inner_mut().downcast_mut::<T>(); })*
                None
            }
            fn find_context<T: Any>(&self) -> Option<&T> {
                None$(.or_else(|| self.$idx.context()?.downcast_ref::<T>()))*
            }
            fn find_context_mut<T: Any>(&mut self) -> Option<&mut T> {
                $(if self.$idx.context().is_some_and(|c| c.is::<T>()) {
                    return self.$idx.context_mut()?.downcast_mut::<T>();
                })*
                None
            }
        }
    };
}

for_tuples!(tuple_chain);

impl ActorChain for Vec<Box<dyn Actor>> {
    fn classes(&self) -> Vec<ActorClass> {
        self.iter().map(|a| a.class()).collect()
    }
    fn check(&self, capabilities: &Capabilities) -> Result<(), ActionError> {
        self.iter()
            .try_for_each(|a| crate::run::check(&a.class(), capabilities))
    }
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        let mut outcome = Ok(());
        for actor in self.iter_mut() {
            let begun = actor.begin(run);
            if outcome.is_ok() {
                outcome = begun;
            }
        }
        outcome
    }
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
    fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        let mut flow = Flow::Continue;
        for actor in self.iter_mut() {
            if !fold(actor.enter_batch(graph, depth, batch), None, &mut flow) {
                break;
            }
        }
        flow
    }
    fn end(&mut self, stats: &mut RunStats) {
        for actor in self.iter_mut() {
            actor.end(stats);
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
    fn find<T: Any>(&self) -> Option<&T> {
        self.iter().find_map(|a| a.inner().downcast_ref::<T>())
    }
    fn find_mut<T: Any>(&mut self) -> Option<&mut T> {
        self.iter_mut()
            .find_map(|a| a.inner_mut().downcast_mut::<T>())
    }
    fn find_context<T: Any>(&self) -> Option<&T> {
        self.iter().find_map(|a| a.context()?.downcast_ref::<T>())
    }
    fn find_context_mut<T: Any>(&mut self) -> Option<&mut T> {
        self.iter_mut()
            .find_map(|a| a.context_mut()?.downcast_mut::<T>())
    }
}
