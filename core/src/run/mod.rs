//! What a run is, below the actors that take part in one: the [`RunContext`] actors
//! get when it begins (with the [`Results`] of earlier passes), the [`Capabilities`]
//! of its iterator, and the [`RunStats`] it ends with.

mod context;
mod results;

pub use context::{Capabilities, OrderedState, RunContext, RunStats};
pub use results::{Results, Stamp, Stamped};

pub(crate) use results::NO_RESULTS;
