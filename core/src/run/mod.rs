//! Running a traversal. A [`TraversalIterator`] picks the next node and states its
//! [`Capabilities`]; an [`Action`] puts one together with an actor chain, refusing an
//! actor the iterator cannot serve ([`check`]), and runs it: the iterator
//! [`drive`](TraversalIterator::drive)s its steps into the action's [`StepSink`].
//! Passes hand per-node results to later ones through [`Results`], each [`Stamp`]ed
//! with the graph state it describes.
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
