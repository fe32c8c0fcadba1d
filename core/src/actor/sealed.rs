//! The framework's side of adapters and chains: the frames of ordered state, and the
//! user's actor inside its adapter. Private to the crate, so [`Actor`] and
//! [`ActorChain`] are sealed: only the adapters and chains here implement them.
//!
//! [`Actor`]: crate::Actor
//! [`ActorChain`]: crate::ActorChain

use crate::actor::Frame;
use std::any::Any;

/// What an action calls on an adapter besides the events.
pub trait Adapter: Any {
    /// State copies ([`OrderedState::Copies`](crate::OrderedState::Copies)): the next
    /// enter or leave works on the states saved as `frame`.
    fn restore_frame(&mut self, _frame: Frame) {}
    /// State copies: remember the states as they are after the last enter as `frame`.
    fn save_frame(&mut self, _frame: Frame) {}
    /// State copies: `frame` is no longer referenced.
    fn release_frame(&mut self, _frame: Frame) {}
    /// The user's actor inside the adapter, for [`Action::actor`](crate::Action::actor).
    fn inner(&self) -> &dyn Any;
    /// The user's actor inside the adapter, mutable.
    fn inner_mut(&mut self) -> &mut dyn Any;
    /// The context of the per-type dispatch actor inside the adapter, for
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

/// What an action calls on its chain besides the events: [`Adapter`]'s calls, forwarded
/// to every actor.
pub trait Chain {
    /// Forwards [`Adapter::restore_frame`] to every actor.
    fn restore_frame(&mut self, frame: Frame);
    /// Forwards [`Adapter::save_frame`] to every actor.
    fn save_frame(&mut self, frame: Frame);
    /// Forwards [`Adapter::release_frame`] to every actor.
    fn release_frame(&mut self, frame: Frame);
    /// The first actor of type `T` (the user's actor, inside its adapter).
    fn find<T: Any>(&self) -> Option<&T>;
    /// The first actor of type `T`, mutable.
    fn find_mut<T: Any>(&mut self) -> Option<&mut T>;
    /// The context of the first per-type dispatch actor whose context is a `T`.
    fn find_context<T: Any>(&self) -> Option<&T>;
    /// The context of the first per-type dispatch actor whose context is a `T`,
    /// mutable.
    fn find_context_mut<T: Any>(&mut self) -> Option<&mut T>;
}
