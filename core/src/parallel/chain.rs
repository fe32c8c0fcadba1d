//! The public name of a chain that runs in parallel.

use crate::actor::ActorChain;
use crate::parallel::fork::Fork;

/// An [`ActorChain`] that [`Action::run_parallel`](crate::Action::run_parallel) can
/// split into workers: every tuple of up to eight adapters; a `Vec<Box<dyn Actor>>`
/// runs sequentially only. Sealed: actors take part through the fork/merge hooks of
/// their kind, checked when the run starts ([`check_parallel`](crate::check_parallel)).
///
/// The glue behind it is not public:
///
/// ```compile_fail
/// use scenewalk_core::{Fork, Walker};
/// ```
pub trait ParallelChain: ActorChain + Fork {}

impl<C: ActorChain + Fork> ParallelChain for C {}
