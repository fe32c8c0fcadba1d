//! What a run is, as the actors and iterators of every layer above see it: its
//! context, what the iterator gives, and what it did.

use crate::graph::{Graph, NodeIndex};
use crate::run::Results;

/// How an iterator lets ordered-state actors see the state of each node's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OrderedState {
    /// Pre-order: each ordered actor keeps one stack of states by depth.
    DepthStack,
    /// Any order after the parent (priority): each pending node carries a [`Frame`](crate::Frame) of
    /// its parent's states.
    Copies,
    /// The iterator cannot give ordered actors a correct state; they are refused.
    Unsupported,
}

/// What an iterator gives actors; the [`Action`](crate::Action) checks each actor's
/// [`ActorClass`](crate::ActorClass) against it when it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The iterator's name, for error messages.
    pub name: &'static str,
    /// Whether it produces leave events, each after all of the node's descendants.
    pub leave_events: bool,
    /// Whether each step has one current node (false for batching iterators).
    pub current_node: bool,
    /// How ordered state is kept.
    pub ordered_state: OrderedState,
}

/// What one run of an action did. For actors whose choices do not depend on the order,
/// `entered`, `left`, `pruned`, `stopped` and `state_copies` are the same under every
/// iterator that runs them (until a [`Flow::Stop`](crate::Flow::Stop)); `batches`, `chain_calls` and
/// `tasks` say how the iterator grouped the work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Nodes entered: each node the chain's enter saw, and each entry of a batch still
    /// active after the chain ran on it.
    pub entered: u64,
    /// Leave events delivered to the chain (none unless an actor takes them).
    pub left: u64,
    /// Entered nodes whose children were skipped by [`Flow::Prune`](crate::Flow::Prune) (a batch's
    /// `Prune` counts each of its entered nodes).
    pub pruned: u64,
    /// Whether an actor ended the run with [`Flow::Stop`](crate::Flow::Stop).
    pub stopped: bool,
    /// Copies of ordered state made (summed over ordered actors): one per node whose
    /// enter wrote an actor's state.
    pub state_copies: u64,
    /// Batches handed to the actors (breadth-first iterators; 0 under the others).
    pub batches: u64,
    /// Times the actor chain was called: once per node entered alone, once per batch.
    pub chain_calls: u64,
    /// Tasks a parallel run (`Action::run_parallel`) split the tree into; 0 where the
    /// run walked the tree on the calling thread.
    pub tasks: u64,
}

/// What actors learn when a run begins.
#[derive(Clone, Copy, Debug)]
pub struct RunContext<'g> {
    /// The graph about to be traversed.
    pub graph: &'g Graph,
    /// The traversal root.
    pub root: NodeIndex,
    /// What the iterator of this run provides.
    pub capabilities: Capabilities,
    /// The results of earlier passes handed to this run ([`RunContext::read`]).
    pub results: &'g Results,
}
