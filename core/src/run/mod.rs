//! Running a traversal: a [`TraversalIterator`] [`drive`](TraversalIterator::drive)s
//! its steps into an [`Action`]'s [`StepSink`]; passes hand per-node results to later
//! ones through [`Results`].

mod action;
pub(crate) mod depth_first;
mod iterator;
mod results;

pub use action::{Action, RunStats};
pub use depth_first::DepthFirst;
pub use iterator::{Capabilities, OrderedState, Step, StepSink, TraversalIterator};
pub use results::{Results, Staleness, Stamp, Stamped};

pub(crate) use results::NO_RESULTS;
