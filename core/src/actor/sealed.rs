//! The framework's side of adapters and chains, private to the crate, so [`Actor`]
//! and [`ActorChain`] are sealed.
//!
//! [`Actor`]: crate::Actor
//! [`ActorChain`]: crate::ActorChain

use crate::actor::Frame;
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

/// [`Adapter`]'s calls on a chain, forwarded to every actor.
pub trait Chain {
    /// See [`Adapter::restore_frame`].
    fn restore_frame(&mut self, frame: Frame);
    /// See [`Adapter::save_frame`].
    fn save_frame(&mut self, frame: Frame);
    /// See [`Adapter::release_frame`].
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
