//! Every error of the crate.

use crate::graph::NodeId;

/// What went wrong with a graph query or edit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GraphError {
    /// The id names a removed node, a slot this graph never had, or a node of another
    /// graph ([`NodeId`'s rule](crate::NodeId#ids-of-another-graph)).
    #[error("{0} is stale: the node was removed, or the id is not of this graph")]
    StaleNode(NodeId),
    /// The edit would make a node its own ancestor.
    #[error(
        "moving {node} under {new_parent} would make a cycle: {new_parent} is {node} or one of its descendants"
    )]
    Cycle {
        /// The node being moved.
        node: NodeId,
        /// The requested parent, which lies in `node`'s subtree.
        new_parent: NodeId,
    },
    /// `before` was given but is not a child of the requested parent.
    #[error("{before} is not a child of {parent}")]
    NotAChild {
        /// The requested parent.
        parent: NodeId,
        /// The sibling to insert before.
        before: NodeId,
    },
    /// `set_parent` was given a sibling to insert before but no parent.
    #[error("cannot place {node} before {before} without a parent: give the parent of {before}")]
    BeforeWithoutParent {
        /// The node being moved.
        node: NodeId,
        /// The sibling given.
        before: NodeId,
    },
    /// A walk of `root`'s subtree was asked to step from a node outside it.
    #[error("{node} is not in the subtree of {root}")]
    NotInSubtree {
        /// The node given.
        node: NodeId,
        /// The root of the walk.
        root: NodeId,
    },
    /// An insert-before named a sibling that has no parent (a root).
    #[error("{0} is a root: there is no parent to insert a sibling under")]
    NoParent(NodeId),
    /// Typed access asked for a type the node is not (nor extends).
    #[error("{node} is a {found}, not a {expected}")]
    WrongType {
        /// The node asked for.
        node: NodeId,
        /// The type asked for.
        expected: &'static str,
        /// The node's actual type.
        found: &'static str,
    },
    /// A type registration contradicts an earlier one.
    #[error(transparent)]
    Type(#[from] TypeError),
    /// The arena is full: it holds at most `u32::MAX - 1` nodes.
    #[error("the graph is full ({0} slots)")]
    Full(usize),
    /// [`Graph::compact`](crate::Graph::compact) would give slot `slot` a new
    /// generation, but it has used all of them; the graph is unchanged.
    #[error("slot {slot} has used up its generations: the graph cannot be compacted")]
    GenerationsExhausted {
        /// The slot whose generations are used up.
        slot: u32,
    },
}

/// A node type whose declaration cannot be honoured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TypeError {
    /// The parent types declared from this type
    /// ([`NodeCore::parent_type`](crate::NodeCore::parent_type)) loop, or the chain
    /// holds more than [`MAX_BASE_CHAIN`](crate::MAX_BASE_CHAIN) types.
    #[error("the parent types declared from {0} loop, or the chain is too long")]
    ParentChain(&'static str),
    /// A payload's [`base`](crate::NodeCore::base) does not give a value of the parent
    /// type its type declares (or gives one where it declares none).
    #[error(
        "the base() of a {ty} must be a value of its declared parent type ({declared}): declare it with NodeCore::parent_type and return it from base()"
    )]
    BaseMismatch {
        /// The type whose `base` disagrees with its declaration.
        ty: &'static str,
        /// The parent type it declares (or `none`).
        declared: &'static str,
    },
}

/// Why an [`Action`](crate::Action) could not be built from its iterator and actors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ActionError {
    /// An actor's classification cannot be honoured by the iterator.
    #[error("actor `{actor}` cannot run under iterator `{iterator}`: {reason}")]
    Incompatible {
        /// The actor's name.
        actor: &'static str,
        /// The iterator's name.
        iterator: &'static str,
        /// What the actor needs that the iterator does not give.
        reason: String,
    },
}

/// Why a reader could not use another pass's results.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResultsError {
    /// The run was given no results of the kind the reader needs, or they describe no
    /// run yet.
    #[error(
        "{reader} needs {results}, and the run was given none (hand them over with Action::run_with)"
    )]
    Missing {
        /// The reader (an actor, or an accessor).
        reader: &'static str,
        /// The kind of results it needs.
        results: &'static str,
    },
    /// The results no longer describe the graph the reader works on.
    #[error(
        "{reader} refuses the {results} it was given: {why}; run the pass that makes them again"
    )]
    Stale {
        /// The reader (an actor, or an accessor).
        reader: &'static str,
        /// The kind of results.
        results: &'static str,
        /// What changed.
        why: Staleness,
    },
    /// The node asked for has no result: the run that made them did not reach it.
    #[error("{0} was not reached by the run that made these results")]
    NotReached(NodeId),
    /// The id asked for is not a live node of the graph.
    #[error(transparent)]
    Graph(#[from] GraphError),
}

/// Why a run stopped with an error.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TraversalError {
    /// The root (or another id given to the run) is invalid.
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// An actor can no longer run under the iterator (its dispatch changed).
    #[error(transparent)]
    Incompatible(#[from] ActionError),
    /// A reader of another pass's results got none, or stale ones.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// An actor gave a node a NaN priority key, which has no place in an order.
    #[error("priority key of {node} is NaN")]
    NanKey {
        /// The node with the NaN key.
        node: NodeId,
    },
}

/// What changed since results were made, so that a reader refuses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Staleness {
    /// They describe another graph (a clone counts as another).
    #[error("they describe another graph")]
    OtherGraph,
    /// The graph's structure changed (a node was added, removed or moved).
    #[error("the graph's structure changed since they were made")]
    Structure,
    /// A payload changed (a mutable borrow or [`Graph::mark_changed`](crate::Graph::mark_changed)).
    #[error("a payload changed since they were made")]
    Payloads,
    /// The reader runs from a root outside the subtree the results were made for.
    #[error("the run's root lies outside the subtree they were made for")]
    OutsideRoot,
}
