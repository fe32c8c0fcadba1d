//! The framework's side of adapters and chains, private to the crate, so [`Actor`]
//! and [`ActorChain`] are sealed.
//!
//! [`ActorChain`]: crate::ActorChain

use crate::actor::{Actor, Frame};
use std::any::Any;

/// What an action calls on an adapter besides the events.
pub trait Adapter: Any {
    /// The next enter or leave works on the states saved as `frame`
    /// ([`OrderedState::Copies`](crate::OrderedState::Copies)).
    fn restore_frame(&mut self, _frame: Frame) {}
    /// Saves the states as they are after the last enter as `frame`.
    fn save_frame(&mut self, _frame: Frame) {}
    /// `frame` is no longer referenced.
    fn release_frame(&mut self, _frame: Frame) {}
    /// The user's actor inside the adapter, for [`Action::actor`](crate::Action::actor).
    fn inner(&self) -> &dyn Any;
    /// The user's actor inside the adapter, mutable.
    fn inner_mut(&mut self) -> &mut dyn Any;
    /// The actor the user's actor carries ([`OrderedActor::carried`](crate::OrderedActor::carried)).
    fn carried(&self) -> Option<&dyn Any> {
        None
    }
    /// The carried actor, mutable.
    fn carried_mut(&mut self) -> Option<&mut dyn Any> {
        None
    }
    /// The context of a per-type dispatch actor, for
    /// [`Action::context`](crate::Action::context); `None` for any other actor.
    fn context(&self) -> Option<&dyn Any> {
        None
    }
    /// The context, mutable.
    fn context_mut(&mut self) -> Option<&mut dyn Any> {
        None
    }
}

/// The argument of [`UnorderedActor::dispatch_context`](crate::UnorderedActor): it
/// cannot be named outside this crate, so no actor but [`Arms`](crate::Arms) answers.
#[derive(Clone, Copy, Debug)]
pub struct Sealed;

/// A chain's actors by position, and [`Adapter`]'s frame calls forwarded to each.
pub trait Chain {
    /// See [`Adapter::restore_frame`].
    fn restore_frame(&mut self, frame: Frame);
    /// See [`Adapter::save_frame`].
    fn save_frame(&mut self, frame: Frame);
    /// See [`Adapter::release_frame`].
    fn release_frame(&mut self, frame: Frame);
    /// The actor at position `i`.
    fn nth(&self, i: usize) -> Option<&dyn Actor>;
    /// The actor at position `i`, mutable.
    fn nth_mut(&mut self, i: usize) -> Option<&mut dyn Actor>;
}

/// The actors of a chain, in order.
pub(crate) fn actors<C: Chain + ?Sized>(chain: &C) -> impl Iterator<Item = &dyn Actor> {
    (0..).map_while(|i| chain.nth(i))
}
