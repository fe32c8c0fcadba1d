//! The Action (paper 3.4): one iterator piped through a chain of actors.

use crate::actor::{
    ActiveList, ActorChain, ActorClass, Events, Flow, Frame, FrameTable, RunContext, StateKind,
    Visit,
};
use crate::error::{ActionError, TraversalError};
use crate::graph::{Graph, NodeId, NodeIndex};
use crate::run::{Capabilities, OrderedState, Results, StepSink, TraversalIterator};
use std::any::Any;

/// What one run of an action did. For actors whose choices do not depend on the order,
/// `entered`, `left`, `pruned`, `stopped` and `state_copies` are the same under every
/// iterator that runs them (until a [`Flow::Stop`]); `batches`, `chain_calls` and
/// `tasks` say how the iterator grouped the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Nodes entered: each node the chain's enter saw, and each entry of a batch still
    /// active after the chain ran on it.
    pub entered: u64,
    /// Leave events delivered to the chain (none unless an actor takes them).
    pub left: u64,
    /// Entered nodes whose children were skipped by [`Flow::Prune`] (a batch's
    /// `Prune` counts each of its entered nodes).
    pub pruned: u64,
    /// Whether an actor ended the run with [`Flow::Stop`].
    pub stopped: bool,
    /// Copies of ordered state made (summed over ordered actors): one per node whose
    /// enter wrote an actor's state.
    pub state_copies: u64,
    /// Batches handed to the actors (breadth-first iterators; 0 under the others).
    pub batches: u64,
    /// Times the actor chain was called: once per node entered alone, once per batch.
    pub chain_calls: u64,
    /// Tasks a parallel run (`Action::run_parallel`) split the tree into, each a run
    /// of subtrees walked by a worker; 0 where the run walked the tree on the calling
    /// thread (sequential runs, and parallel ones that did not split).
    pub tasks: u64,
}

/// An iterator and an ordered chain of actors, run together until the iterator runs
/// dry (paper 3.4).
///
/// Building it checks every actor's [`ActorClass`] against the iterator's
/// [`Capabilities`], naming the actor and the reason when they cannot work together. A
/// run reuses the iterator's and actors' buffers, so running again allocates nothing
/// once they are large enough; a stopped run leaves nothing behind for the next one.
///
/// ```
/// use scenewalk_core::{Action, ActiveList, DepthFirst, Flow, Graph, Unordered, UnorderedActor, Visit};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// #[derive(Default)]
/// struct Count(u64);
/// impl UnorderedActor for Count {
///     fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         self.0 += 1;
///         Flow::Continue
///     }
/// }
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// for _ in 0..3 { graph.append_child(root, Group)?; }
///
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Count::default()),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actor::<Count>().unwrap().0, 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Action<I, C> {
    iterator: I,
    pub(crate) actors: C,
    pub(crate) leave_events: bool,
    has_ordered: bool,
    frames: FrameTable,
    pub(crate) stats: RunStats,
    /// Subtree sizes for parallel runs.
    #[cfg(feature = "parallel")]
    pub(crate) subtrees: crate::parallel::SubtreeSizes,
}

impl<I: TraversalIterator, C: ActorChain> Action<I, C> {
    /// Puts an iterator and a chain of actors together, checking that each actor can
    /// run under the iterator.
    pub fn new(iterator: I, actors: C) -> Result<Self, ActionError> {
        actors.check(&iterator.capabilities())?;
        let classes = actors.classes();
        Ok(Self {
            iterator,
            actors,
            leave_events: classes.iter().any(|c| c.events == Events::EnterLeave),
            has_ordered: classes.iter().any(|c| c.state == StateKind::Ordered),
            frames: FrameTable::default(),
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
    /// actors that read them ([`RunContext::read`]; nothing is copied). A reader whose
    /// results are missing or stale refuses the run in its `begin`
    /// ([`TraversalError::Results`]): every actor still gets `begin` and `end`, and no
    /// node is entered. Errors: as [`run`](Action::run).
    pub fn run_with(
        &mut self,
        graph: &Graph,
        root: NodeId,
        results: &Results,
    ) -> Result<RunStats, TraversalError> {
        let root = graph.check(root)?;
        let root = crate::graph::NodeIndex(root);
        let capabilities = self.iterator.capabilities();
        self.actors.check(&capabilities)?;
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
                self.frames.reset();
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
        let mut sink = Sink::<C, FRAMES> {
            graph,
            actors: &mut self.actors,
            frames: &mut self.frames,
            stats,
            entered_from: Frame::ROOT,
            batch_entries: 0,
        };
        let outcome = self.iterator.drive(graph, &mut sink);
        // One chain call per node entered alone, one per batch.
        let batch_entries = sink.batch_entries;
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

    /// The first actor of type `T` in the chain (the user's actor, unwrapped).
    pub fn actor<T: Any>(&self) -> Option<&T> {
        self.actors.find::<T>()
    }

    /// The first actor of type `T` in the chain, mutable (between runs).
    pub fn actor_mut<T: Any>(&mut self) -> Option<&mut T> {
        self.actors.find_mut::<T>()
    }

    /// The context of the first per-type dispatch actor ([`Arms`](crate::Arms)) in the
    /// chain whose context is a `Cx`: after a run, that run's results. An `Arms`' type
    /// holds its closures and cannot be written out, so it is found by its context.
    ///
    /// ```
    /// use scenewalk_core::{Action, Arms, DepthFirst, Flow, Graph, Unordered};
    /// # #[derive(Clone, Debug)] struct Mesh { triangles: u64 }
    /// # impl scenewalk_core::NodeCore for Mesh {}
    /// #[derive(Clone, Debug, Default, PartialEq)]
    /// struct Triangles(u64);
    /// let mut graph = Graph::new();
    /// let root = graph.add_root(Mesh { triangles: 12 });
    /// graph.append_child(root, Mesh { triangles: 30 })?;
    /// let count = Arms::new(Triangles::default()).on::<Mesh>(|mesh, _, cx| {
    ///     cx.0 += mesh.triangles;
    ///     Flow::Continue
    /// });
    /// let mut action = Action::new(DepthFirst::new(), (Unordered::new(count),))?;
    /// action.run(&graph, root)?;
    /// assert_eq!(action.context::<Triangles>(), Some(&Triangles(42)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn context<Cx: Any>(&self) -> Option<&Cx> {
        self.actors.find_context::<Cx>()
    }

    /// The context of the first per-type dispatch actor whose context is a `Cx`,
    /// mutable.
    pub fn context_mut<Cx: Any>(&mut self) -> Option<&mut Cx> {
        self.actors.find_context_mut::<Cx>()
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

/// The action's side of a run: builds each visit, calls the chain, keeps the counts
/// and (with `FRAMES`) the frames of ordered states.
struct Sink<'r, C: ActorChain, const FRAMES: bool> {
    graph: &'r Graph,
    actors: &'r mut C,
    frames: &'r mut FrameTable,
    stats: &'r mut RunStats,
    /// The frame the last entered node's parent states came in.
    entered_from: Frame,
    /// Nodes entered as part of batches.
    batch_entries: u64,
}

impl<C: ActorChain, const FRAMES: bool> Sink<'_, C, FRAMES> {
    #[inline(always)]
    fn drop_frame(&mut self, frame: Frame) {
        if FRAMES && self.frames.drop_ref(frame) {
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
        self.stats.entered += 1;
        if FRAMES {
            self.actors.restore_frame(frame);
        }
        let flow = self.actors.enter(&visit, active);
        match flow {
            Flow::Continue => {}
            Flow::Prune => self.stats.pruned += 1,
            Flow::Stop => self.stats.stopped = true,
        }
        flow
    }

    #[inline(always)]
    fn save_frame(&mut self) -> Frame {
        if !FRAMES {
            return Frame::ROOT;
        }
        let saved = self.frames.allocate();
        self.actors.save_frame(saved);
        saved
    }

    #[inline(always)]
    fn hold_frame(&mut self, frame: Frame, refs: u32) {
        if FRAMES {
            if self.frames.hold(frame, refs) {
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
        let entered = batch.active_count() as u64;
        self.stats.batches += 1;
        self.stats.entered += entered;
        self.batch_entries += entered;
        match flow {
            Flow::Continue => {}
            Flow::Prune => self.stats.pruned += entered,
            Flow::Stop => self.stats.stopped = true,
        }
        flow
    }
}

/// Whether an actor of this class can run under an iterator with these capabilities.
pub fn check(class: &ActorClass, capabilities: &Capabilities) -> Result<(), ActionError> {
    let refuse = |reason: &str| {
        Err(ActionError::Incompatible {
            actor: class.name,
            iterator: capabilities.name,
            reason: reason.to_owned(),
        })
    };
    if class.events == Events::EnterLeave && !capabilities.leave_events {
        return refuse("it needs leave events (enter + leave actor), and this iterator gives none");
    }
    if !capabilities.current_node && class.state == StateKind::Ordered {
        return refuse(
            "it keeps ordered state, which needs one current node per step; this iterator batches nodes",
        );
    }
    if !capabilities.current_node && class.dispatch != crate::actor::Dispatch::Uniform {
        return refuse(
            "it dispatches on the current node's type, and this iterator batches nodes with no current node",
        );
    }
    if !capabilities.current_node && !class.batches {
        return refuse(
            "it works on a single current node (it does not implement enter_batch), and this iterator batches nodes",
        );
    }
    if class.state == StateKind::Ordered && capabilities.ordered_state == OrderedState::Unsupported
    {
        return refuse(
            "it keeps ordered state, and this iterator cannot give each node the state of its path",
        );
    }
    Ok(())
}
