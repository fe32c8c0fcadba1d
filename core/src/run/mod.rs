//! Running a traversal: an iterator piped through a chain of actors.
//!
//! A [`TraversalIterator`] keeps the nodes still to be traversed and picks the next
//! one, stating its [`Capabilities`] (leave events, one current node, how ordered
//! state is kept). An [`Action`] puts one together with an actor chain, refusing an
//! actor the iterator cannot serve ([`check`]), and runs it: the iterator
//! [`drive`](TraversalIterator::drive)s its steps into the action's [`StepSink`],
//! which builds each visit and calls the chain. [`DepthFirst`] is the canonical
//! order, the loop a hand-written walk would be; other orders implement the same
//! trait in any crate.
//!
//! Passes hand their per-node results to later ones through [`Results`]: shared
//! handles, each [`Stamp`]ed with the graph state it describes, so a reader refuses
//! stale ones.
//!
//! - `iterator.rs`: the iterator trait and its steps;
//! - `action.rs`: the action and its counts ([`RunStats`]);
//! - `depth_first.rs`: the depth-first iterator;
//! - `results.rs`: results handed between passes.

mod action;
pub(crate) mod depth_first;
mod iterator;
mod results;

pub use action::{Action, RunStats, check};
pub use depth_first::DepthFirst;
pub use iterator::{Capabilities, OrderedState, Step, StepSink, TraversalIterator};
pub use results::{Results, Staleness, Stamp, Stamped};

pub(crate) use results::NO_RESULTS;
