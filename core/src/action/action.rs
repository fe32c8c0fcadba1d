//! The Action (paper 3.4): one iterator piped through a chain of actors.

use crate::action::{StepSink, TraversalIterator};
use crate::actor::{
    ActiveList, ActorChain, Events, Flow, Frame, RefCounts, StateKind, Visit, actors,
};
use crate::error::{ActionError, TraversalError};
use crate::graph::{Graph, NodeId, NodeIndex};
use crate::run::{OrderedState, Results, RunContext, RunStats};
use std::any::Any;

impl RunStats {
    /// Counts `entered` nodes the chain answered `flow` for.
    #[inline(always)]
    pub(crate) fn count(&mut self, entered: u64, flow: Flow) {
        self.entered += entered;
        match flow {
            Flow::Continue => {}
            Flow::Prune => self.pruned += entered,
            Flow::Stop => self.stopped = true,
        }
    }
}

/// An iterator and an ordered chain of actors, run together until the iterator runs
/// dry (paper 3.4). Building it checks every actor's [`ActorClass`](crate::ActorClass) against the
/// iterator's [`Capabilities`](crate::Capabilities). Runs reuse the iterator's and actors'
/// buffers; a stopped run leaves nothing behind for the next one.
///
/// ```
/// use scenewalk_core::{Action, Arms, DepthFirst, Flow, Graph, Unordered};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// for _ in 0..3 { graph.append_child(root, Group)?; }
/// let count = Arms::new(0u64).otherwise(|_, n| { *n += 1; Flow::Continue });
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(count),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.context::<u64>(), Some(&4));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Action<I, C> {
    iterator: I,
    pub(crate) actors: C,
    pub(crate) leave_events: bool,
    has_ordered: bool,
    /// Whether an actor was lent out mutably since the last check (its dispatch may
    /// have changed): only then does a run check the actors again.
    recheck: bool,
    frames: RefCounts,
    pub(crate) stats: RunStats,
    #[cfg(feature = "parallel")]
    pub(crate) subtrees: crate::action::parallel::SubtreeSizes,
}

impl<I: TraversalIterator, C: ActorChain> Action<I, C> {
    /// Puts an iterator and a chain of actors together, checking each actor against the
    /// iterator's [`Capabilities`](crate::Capabilities).
    pub fn new(iterator: I, actors: C) -> Result<Self, ActionError> {
        actors.check(&iterator.capabilities())?;
        let classes = actors.classes();
        Ok(Self {
            iterator,
            actors,
            leave_events: classes.iter().any(|c| c.events == Events::EnterLeave),
            has_ordered: classes.iter().any(|c| c.state == StateKind::Ordered),
            recheck: false,
            frames: RefCounts::default(),
            stats: RunStats::default(),
            #[cfg(feature = "parallel")]
            subtrees: Default::default(),
        })
    }

    /// Traverses the tree under `root`, reading no results of earlier passes.
    ///
    /// Errors: a stale `root`; an actor whose dispatch was changed (through
    /// [`actor_mut`](Action::actor_mut)) so that the iterator can no longer run it
    /// ([`TraversalError::Incompatible`]); an actor's `begin` refusing the run (a reader
    /// of another pass's results gets none: [`TraversalError::Results`]); an
    /// iterator's own error (such as a NaN priority key). After an error or a
    /// [`Flow::Stop`] the action is ready for the next run.
    pub fn run(&mut self, graph: &Graph, root: NodeId) -> Result<RunStats, TraversalError> {
        self.run_with(graph, root, &crate::run::NO_RESULTS)
    }

    /// Traverses the tree under `root`, handing `results` of earlier passes to the
    /// actors that read them ([`RunContext::read`]). A refusal in any actor's `begin`
    /// enters no node; every actor still gets `begin` and `end`. Errors: as
    /// [`run`](Action::run).
    pub fn run_with(
        &mut self,
        graph: &Graph,
        root: NodeId,
        results: &Results,
    ) -> Result<RunStats, TraversalError> {
        let root = NodeIndex(graph.check(root)?);
        let capabilities = self.iterator.capabilities();
        if self.recheck {
            self.actors.check(&capabilities)?;
            self.recheck = false;
        }
        let run = RunContext {
            graph,
            root,
            capabilities,
            results,
        };
        let mut stats = RunStats::default();
        let outcome = self.actors.begin(&run).and_then(|()| {
            self.iterator.start(graph, root, self.leave_events);
            if self.has_ordered && capabilities.ordered_state == OrderedState::Copies {
                // Frame::ROOT, held once (by the root's step).
                self.frames.reset(Some(1));
                self.drive::<true>(graph, &mut stats)
            } else {
                self.drive::<false>(graph, &mut stats)
            }
        });
        self.iterator.clear();
        self.actors.end(&mut stats);
        self.stats = stats;
        outcome.map(|()| stats)
    }

    /// Lets the iterator drive the run into a sink that keeps frames if `FRAMES`.
    fn drive<const FRAMES: bool>(
        &mut self,
        graph: &Graph,
        stats: &mut RunStats,
    ) -> Result<(), TraversalError> {
        // The sink counts into its own copy: through the reference, every node's count
        // would be a load and a store on the walk's critical path.
        let mut sink = Sink::<C, FRAMES> {
            graph,
            actors: &mut self.actors,
            frames: &mut self.frames,
            stats: *stats,
            entered_from: Frame::ROOT,
            batch_entries: 0,
        };
        let outcome = self.iterator.drive(graph, &mut sink);
        // One chain call per node entered alone, one per batch.
        let batch_entries = sink.batch_entries;
        *stats = sink.stats;
        drop(sink);
        stats.chain_calls = stats.entered - batch_entries + stats.batches;
        outcome
    }

    /// Frames still referenced (state-copy iterators): 0 whenever no run is going on,
    /// however the last one ended (a panic included).
    pub fn live_frames(&self) -> usize {
        self.frames.live()
    }

    /// The counts of the last run.
    pub fn stats(&self) -> &RunStats {
        &self.stats
    }

    /// The first actor of type `T` in the chain (the user's actor, unwrapped), else the
    /// first one an actor of the chain carries ([`OrderedActor::carried`](crate::OrderedActor::carried)).
    pub fn actor<T: Any>(&self) -> Option<&T> {
        actors(&self.actors)
            .find_map(|a| a.inner().downcast_ref())
            .or_else(|| actors(&self.actors).find_map(|a| a.carried()?.downcast_ref()))
    }

    /// The first actor of type `T` in the chain, or carried, mutable (between runs).
    pub fn actor_mut<T: Any>(&mut self) -> Option<&mut T> {
        self.recheck = true;
        let own = actors(&self.actors).position(|a| a.inner().is::<T>());
        if let Some(i) = own {
            return self.actors.nth_mut(i)?.inner_mut().downcast_mut();
        }
        let i = actors(&self.actors).position(|a| a.carried().is_some_and(|c| c.is::<T>()))?;
        self.actors.nth_mut(i)?.carried_mut()?.downcast_mut()
    }

    /// The context of the first per-type dispatch actor ([`Arms`](crate::Arms)) whose
    /// context is a `Cx`: after a run, that run's results (an `Arms`' own type cannot be
    /// written out).
    pub fn context<Cx: Any>(&self) -> Option<&Cx> {
        actors(&self.actors).find_map(|a| a.context()?.downcast_ref())
    }

    /// [`context`](Action::context), mutable.
    pub fn context_mut<Cx: Any>(&mut self) -> Option<&mut Cx> {
        self.recheck = true;
        let i = actors(&self.actors).position(|a| a.context().is_some_and(|c| c.is::<Cx>()))?;
        self.actors.nth_mut(i)?.context_mut()?.downcast_mut()
    }

    /// The actor chain.
    pub fn actors(&self) -> &C {
        &self.actors
    }

    /// The iterator.
    pub fn iterator(&self) -> &I {
        &self.iterator
    }

    /// Takes the action apart.
    pub fn into_parts(self) -> (I, C) {
        (self.iterator, self.actors)
    }
}

/// The action's side of a run: visits, chain calls, counts and (with `FRAMES`) frames.
struct Sink<'r, C: ActorChain, const FRAMES: bool> {
    graph: &'r Graph,
    actors: &'r mut C,
    frames: &'r mut RefCounts,
    stats: RunStats,
    /// The frame of the last entered node's parent states.
    entered_from: Frame,
    batch_entries: u64,
}

impl<C: ActorChain, const FRAMES: bool> Sink<'_, C, FRAMES> {
    #[inline(always)]
    fn drop_frame(&mut self, frame: Frame) {
        if FRAMES && self.frames.drop_ref(frame.0) {
            self.actors.release_frame(frame);
        }
    }
}

/// However the run ends (an actor's panic included), every frame is released.
impl<C: ActorChain, const FRAMES: bool> Drop for Sink<'_, C, FRAMES> {
    fn drop(&mut self) {
        if FRAMES {
            // While unwinding the actors are not called; the next run resets them.
            let actors = (!std::thread::panicking()).then_some(&mut *self.actors);
            self.frames.release_all(actors, C::release_frame);
        }
    }
}

impl<C: ActorChain, const FRAMES: bool> StepSink for Sink<'_, C, FRAMES> {
    #[inline(always)]
    fn enter(
        &mut self,
        node: NodeIndex,
        depth: u32,
        frame: Frame,
        active: &mut ActiveList<'_>,
    ) -> Flow {
        if FRAMES {
            self.entered_from = frame;
        }
        let Some(visit) = Visit::new(self.graph, node, depth) else {
            return Flow::Prune; // not a live node
        };
        if FRAMES {
            self.actors.restore_frame(frame);
        }
        let flow = self.actors.enter(&visit, active);
        self.stats.count(1, flow);
        flow
    }

    #[inline(always)]
    fn save_frame(&mut self) -> Frame {
        if !FRAMES {
            return Frame::ROOT;
        }
        let saved = Frame(self.frames.allocate());
        self.actors.save_frame(saved);
        saved
    }

    #[inline(always)]
    fn hold_frame(&mut self, frame: Frame, refs: u32) {
        if FRAMES {
            if self.frames.hold(frame.0, refs) {
                self.actors.release_frame(frame);
            }
            let parent = self.entered_from;
            self.drop_frame(parent);
        }
    }

    #[inline(always)]
    fn leave(&mut self, node: NodeIndex, depth: u32, frame: Frame) {
        if let Some(visit) = Visit::new(self.graph, node, depth) {
            self.stats.left += 1;
            if FRAMES {
                self.actors.restore_frame(frame);
            }
            self.actors.leave(&visit);
        }
        self.drop_frame(frame);
    }

    #[inline(always)]
    fn batch(&mut self, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        let flow = self.actors.enter_batch(self.graph, depth, batch);
        // Entered: what the actors kept of the batch.
        let entered = batch.active_nodes().count() as u64;
        self.stats.batches += 1;
        self.stats.count(entered, flow);
        self.batch_entries += entered;
        flow
    }
}
