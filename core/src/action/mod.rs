//! Running a traversal: a [`TraversalIterator`] [`drive`](TraversalIterator::drive)s
//! its steps into an [`Action`]'s [`StepSink`]; [`Action::run_parallel`] (feature
//! `parallel`) runs one on all cores.

#[allow(
    clippy::module_inception,
    reason = "the Action, in the folder of what runs one"
)]
mod action;
pub(crate) mod depth_first;
mod iterator;
#[cfg(feature = "parallel")]
pub(crate) mod parallel;

pub use action::Action;
pub use depth_first::DepthFirst;
pub use iterator::{Step, StepSink, TraversalIterator};
