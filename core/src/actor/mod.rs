//! Actors: what does the work at a node, and everything an actor sees.
//!
//! A user writes one of three kinds of actor, by how its state behaves (paper 3.1.2):
//! a [`StaticActor`] only reads (`&self`), an [`UnorderedActor`] changes state in a way
//! that does not depend on the order of nodes, an [`OrderedActor`] keeps hierarchical
//! state (the matrix stack) that the framework saves per node where it changes and
//! hands back through a [`StateCell`]. An adapter ([`Static`], [`Unordered`],
//! [`Ordered`]) turns each into an [`Actor`], the link an action's [`ActorChain`]
//! calls; its [`ActorClass`] (events, state, [`Dispatch`]) is what the action checks
//! against the iterator.
//!
//! At each node an actor gets a [`Visit`] (the node, its depth and payload), the
//! [`ActiveList`] of children still to traverse (to deactivate or give priority keys),
//! and answers with a [`Flow`]. When a run begins it gets a [`RunContext`].
//!
//! - `kinds.rs`: the three actor traits and [`Actor`];
//! - `adapter.rs`, `chain.rs`: adapters and chains (tuples, `Vec<Box<dyn Actor>>`);
//! - `class.rs`: the classification;
//! - `state.rs`, `frame.rs`: ordered state, by depth or in shared [`Frame`]s;
//! - `visit.rs`, `active.rs`, `flow.rs`: what an actor sees and answers.

mod active;
mod adapter;
mod chain;
mod class;
mod flow;
mod frame;
mod kinds;
mod sealed;
mod state;
mod visit;

pub use active::{ActiveEntry, ActiveList, Candidate, ListState};
pub use adapter::{Ordered, Static, Unordered};
pub use chain::ActorChain;
pub use class::{ActorClass, Dispatch, Events, StateKind, TypeKey};
pub use flow::Flow;
pub use frame::Frame;
pub use kinds::{Actor, OrderedActor, StaticActor, UnorderedActor};
pub use state::StateCell;
pub use visit::{RunContext, Visit};

#[cfg(feature = "parallel")]
pub(crate) use adapter::TypeFilter;
#[cfg(feature = "parallel")]
pub(crate) use chain::fold;
pub(crate) use frame::FrameTable;
pub(crate) use sealed::Sealed;
pub(crate) use state::OrderedStates;
