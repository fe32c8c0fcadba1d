//! Actors: what does the work at a node. A user writes a [`StaticActor`],
//! [`UnorderedActor`] or [`OrderedActor`]; an adapter ([`Static`], [`Unordered`],
//! [`Ordered`]) turns it into an [`Actor`] of an [`ActorChain`]. At each node an actor
//! gets a [`Visit`] and an [`ActiveList`] and answers with a [`Flow`].

mod active;
mod adapter;
mod chain;
mod class;
mod frame;
mod kinds;
mod sealed;
mod state;
mod visit;

pub use active::{ActiveEntry, ActiveList, Candidate, ListState};
pub use adapter::{Ordered, Static, Unordered};
pub use chain::ActorChain;
pub use class::{ActorClass, Dispatch, Events, StateKind, TypeKey};
pub use frame::Frame;
pub use kinds::{Actor, Flow, OrderedActor, StaticActor, UnorderedActor};
pub use state::StateCell;
pub use visit::Visit;

#[cfg(feature = "parallel")]
pub(crate) use adapter::{TypeFilter, filtered_calls};
#[cfg(feature = "parallel")]
pub(crate) use chain::{fold, for_tuples, tuple_calls};
pub(crate) use frame::RefCounts;
pub(crate) use sealed::{Sealed, actors};
pub(crate) use state::OrderedStates;
