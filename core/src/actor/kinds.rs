//! Actors (paper 3.1): the three user-facing kinds, the element trait the action runs,
//! and the [`Flow`] they answer with.

use crate::actor::sealed::{Adapter, Sealed};
use crate::actor::{ActiveList, ActorClass, Dispatch, Events, StateCell, Visit};
use crate::error::TraversalError;
use crate::graph::Graph;
use crate::run::RunContext;
use crate::run::RunStats;
use std::any::Any;

/// A link of an action's actor chain, as the [`Action`](crate::Action) drives it.
/// Sealed: implement [`StaticActor`], [`UnorderedActor`] or [`OrderedActor`] and wrap
/// the value in [`Static`](crate::Static), [`Unordered`](crate::Unordered) or
/// [`Ordered`](crate::Ordered). Name it for a chain only known at run time,
/// `Vec<Box<dyn Actor>>`, or to call one adapter's events directly. A type of another
/// crate cannot be an `Actor` itself:
///
/// ```compile_fail
/// use scenewalk_core::{ActiveList, Actor, ActorClass, Flow, RunContext, RunStats, TraversalError, Visit};
/// use std::any::Any;
/// struct Mine;
/// impl Actor for Mine {
///     fn class(&self) -> ActorClass { panic!("never built: the impl does not compile") }
///     fn begin(&mut self, _: &RunContext<'_>) -> Result<(), TraversalError> { Ok(()) }
///     fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow { Flow::Continue }
///     fn leave(&mut self, _: &Visit<'_>) {}
///     fn end(&mut self, _: &mut RunStats) {}
///     fn inner(&self) -> &dyn Any { self }
///     fn inner_mut(&mut self) -> &mut dyn Any { self }
/// }
/// ```
pub trait Actor: Adapter {
    /// The actor's classification.
    fn class(&self) -> ActorClass;
    /// A run begins; an error refuses it (no node is entered, every actor gets `end`).
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError>;
    /// A node is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left (only called for [`Events::EnterLeave`] actors).
    fn leave(&mut self, visit: &Visit<'_>);
    /// A batch of nodes at `depth`, for actors whose class says
    /// [`batches`](ActorClass::batches).
    fn enter_batch(&mut self, _graph: &Graph, _depth: u32, _batch: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
    /// A run ended (also after [`Flow::Stop`]); actors add their counts to `stats`.
    fn end(&mut self, stats: &mut RunStats);
}

/// A static-state actor: read-only during traversal (`&self`), so it may be called in
/// any order, batched, or from several threads.
///
/// The [crate-level example](crate) is one: it prunes the tree below depth 1.
pub trait StaticActor: Any + Sync {
    /// Enter-only or enter + leave.
    const EVENTS: Events = Events::Enter;
    /// Whether [`enter_batch`](StaticActor::enter_batch) does the actor's work, so
    /// breadth-first iterators may run it.
    const BATCHES: bool = false;
    /// Which node types reach the actor: cheap (it may be asked at each node;
    /// [`Dispatch::single`] is free), the same answer throughout a run and from a fork as
    /// from its parent; change it between runs only through
    /// [`Action::actor_mut`](crate::Action::actor_mut), after
    /// which the next run checks the actor again.
    fn dispatch(&self) -> Dispatch {
        Dispatch::Uniform
    }
    /// A run begins: the one place a static actor may change itself (reset its
    /// results, take other passes' with [`RunContext::read`]). An error refuses the run.
    fn begin(&mut self, _run: &RunContext<'_>) -> Result<(), TraversalError> {
        Ok(())
    }
    /// A node is entered.
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left.
    fn leave(&self, _visit: &Visit<'_>) {}
    /// A batch of nodes at `depth` (breadth-first iterators): a deactivated entry is
    /// not entered (later actors skip it); [`Flow::Prune`] expands none.
    fn enter_batch(&self, _graph: &Graph, _depth: u32, _batch: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
    /// A run ended (also after [`Flow::Stop`] or an error): let go of what `begin` took.
    fn end(&mut self) {}
}

/// An unordered-state actor: changes its state, but the result does not depend on the
/// order nodes come in (statistics), so it may be batched.
///
/// ```
/// use scenewalk_core::{Action, ActiveList, DepthFirst, Flow, Graph, Unordered, UnorderedActor, Visit};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// struct Leaves(u32); // counts the leaves
/// impl UnorderedActor for Leaves {
///     fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         self.0 += u32::from(visit.graph().first_child_at(visit.node()).is_none());
///         Flow::Continue
///     }
///     // Parallel runs: each worker counts its part, the parts add up.
///     fn fork(&self) -> Option<Self> { Some(Leaves(0)) }
///     fn merge(&mut self, worker: Self) { self.0 += worker.0; }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let child = graph.append_child(root, Group)?;
/// graph.append_child(child, Group)?;
/// graph.append_child(root, Group)?;
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Leaves(0)),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actor::<Leaves>().unwrap().0, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait UnorderedActor: Any + Send {
    /// Enter-only or enter + leave.
    const EVENTS: Events = Events::Enter;
    /// As [`StaticActor::BATCHES`].
    const BATCHES: bool = false;
    /// As [`StaticActor::dispatch`].
    fn dispatch(&self) -> Dispatch {
        Dispatch::Uniform
    }
    /// A run begins: reset the results (they describe the latest run only), take other
    /// passes' with [`RunContext::read`]. An error refuses the run.
    fn begin(&mut self, _run: &RunContext<'_>) -> Result<(), TraversalError> {
        Ok(())
    }
    /// A node is entered.
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow;
    /// A node is left.
    fn leave(&mut self, _visit: &Visit<'_>) {}
    /// As [`StaticActor::enter_batch`].
    fn enter_batch(&mut self, _graph: &Graph, _depth: u32, _batch: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
    /// A run ended.
    fn end(&mut self) {}
    /// Parallel runs ([`Action::run_parallel`](crate::Action::run_parallel)): a worker
    /// for part of the nodes, called after `begin`, with the parameters and setup of
    /// `self` but **none of its results**; workers get no `begin` or `end`. The default
    /// `None` refuses parallel runs.
    fn fork(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// Parallel runs: adds a worker's results, workers in document order (a list
    /// appended to keeps the sequential order).
    fn merge(&mut self, _worker: Self)
    where
        Self: Sized,
    {
    }
    /// The context of [`Arms`](crate::Arms), the only actor that can answer.
    #[doc(hidden)]
    fn dispatch_context(&self, _: Sealed) -> Option<&dyn Any> {
        None
    }
    /// The context, mutable.
    #[doc(hidden)]
    fn dispatch_context_mut(&mut self, _: Sealed) -> Option<&mut dyn Any> {
        None
    }
}

/// An ordered-state actor: hierarchical state that depends on the path from the root
/// (the matrix stack), which the framework keeps per node: the actor reads it through a
/// [`StateCell`], copied only where a node changes it.
///
/// ```
/// use scenewalk_core::{
///     Action, ActiveList, DepthFirst, Flow, Graph, NodeCore, Ordered, OrderedActor,
///     RunContext, StateCell, TraversalError, Visit,
/// };
/// # #[derive(Clone, Debug)] struct Weight(u32);
/// # impl NodeCore for Weight {}
/// /// Records, per node, the sum of the weights on its path from the root.
/// #[derive(Default)]
/// struct PathSum { seen: Vec<u32> }
/// impl OrderedActor for PathSum {
///     type State = u32;
///     fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, TraversalError> {
///         self.seen.clear();
///         Ok(0)
///     }
///     fn enter(&mut self, state: &mut StateCell<'_, u32>, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         if let Some(w) = visit.get::<Weight>().filter(|w| w.0 != 0) {
///             *state.make_mut() += w.0; // a copy only where the state changes
///         }
///         self.seen.push(*state.get());
///         Flow::Continue
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Weight(1));
/// let a = graph.append_child(root, Weight(0))?;
/// graph.append_child(a, Weight(3))?;
/// graph.append_child(root, Weight(0))?;
/// let mut action = Action::new(DepthFirst::new(), (Ordered::new(PathSum::default()),))?;
/// let stats = action.run(&graph, root)?;
/// assert_eq!(action.actor::<PathSum>().unwrap().seen, [1, 1, 4, 1]);
/// assert_eq!(stats.state_copies, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait OrderedActor: Any + Send {
    /// The hierarchical state.
    type State: Clone + Send + 'static;
    /// Enter-only or enter + leave.
    const EVENTS: Events = Events::Enter;
    /// As [`StaticActor::dispatch`].
    fn dispatch(&self) -> Dispatch {
        Dispatch::Uniform
    }
    /// A run begins: returns the state above the root (reset the results, take other
    /// passes' with [`RunContext::read`]). An error refuses the run.
    fn root_state(&mut self, run: &RunContext<'_>) -> Result<Self::State, TraversalError>;
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
    /// An actor this one runs inside itself, because its work starts from that actor's
    /// state (a chain holding both would do that work twice): [`Action::actor`] finds it
    /// after the chain's own actors.
    ///
    /// [`Action::actor`]: crate::Action::actor
    fn carried(&self) -> Option<&dyn Any> {
        None
    }
    /// [`carried`](OrderedActor::carried), mutable.
    fn carried_mut(&mut self) -> Option<&mut dyn Any> {
        None
    }
    /// Whether [`fork`](OrderedActor::fork) and [`merge`](OrderedActor::merge) are
    /// implemented; the default `false` refuses parallel runs.
    const FORKS: bool = false;
    /// Parallel runs ([`Action::run_parallel`](crate::Action::run_parallel)): a worker
    /// for one subtree (or sibling subtrees from the same state) and, in its terms, the
    /// state its root starts from; `state` is the subtree root's parent's. Called on the
    /// calling thread in document order, as this actor walks the nodes above the split
    /// points; the worker has the setup of `self` but none of its results, and gets no
    /// `root_state` or `end`. `None` refuses the run. A list appended to at enter holds,
    /// now, exactly the entries of the nodes before the subtree: note its length for
    /// [`merge`](OrderedActor::merge).
    fn fork(&self, _state: &Self::State) -> Option<(Self, Self::State)>
    where
        Self: Sized,
    {
        None
    }
    /// Parallel runs: adds a subtree worker's results, on the calling thread, where a
    /// sequential run would have left its (last) subtree's root.
    fn merge(&mut self, _worker: Self)
    where
        Self: Sized,
    {
    }
}

/// The control flow an actor returns from `enter`, combined along the chain: all
/// `Continue`, the still-active children are traversed; a `Prune` deactivates every
/// child, and the rest of the chain still enters (and leaves) the node; a `Stop` ends
/// the traversal at once, with no more enter or leave calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flow {
    /// Go on with the active children.
    #[default]
    Continue,
    /// Skip this node's children (the node itself is entered, and left).
    Prune,
    /// End the traversal now.
    Stop,
}
