//! The paper's three classifications of actors (section 3.1), as data the action checks.

use crate::error::ActionError;
use crate::run::{Capabilities, OrderedState};
use std::any::TypeId;

/// Which events an actor takes (paper 3.1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Events {
    /// Enter-only: called when a node starts to be traversed.
    Enter,
    /// Enter, then leave after all of the node's descendants.
    EnterLeave,
}

/// How an actor's state behaves during a traversal (paper 3.1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// Read-only during traversal: any order, batching and parallel calls are fine.
    Static,
    /// Changes state, but not depending on order (statistics): any order, batching.
    Unordered,
    /// Hierarchical state that depends on the path from the root (the matrix stack).
    Ordered,
}

/// A node type named without its registry index, for single-type dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeKey {
    /// The type's `TypeId`.
    pub id: TypeId,
    /// The type's full path ([`std::any::type_name`]); messages show
    /// [`short_name`](Self::short_name).
    pub name: &'static str,
}

impl TypeKey {
    /// The key of `T`: two compile-time constants, so an adapter that asks an actor's
    /// [`dispatch`](crate::UnorderedActor::dispatch) at every node pays nothing for it.
    pub fn of<T: 'static>() -> Self {
        Self {
            id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
        }
    }

    /// The type's name without module paths ([`short_type_name`](crate::short_type_name)).
    pub fn short_name(&self) -> &'static str {
        crate::graph::shorten(self.name)
    }
}

/// How an actor treats node types (paper 3.1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dispatch {
    /// One function for every node type.
    Uniform,
    /// Only nodes of this type (or types that extend it) reach the actor.
    Single(TypeKey),
    /// A functor per node type ([`MethodTable`](crate::MethodTable)).
    PerType,
}

impl Dispatch {
    /// Single-type dispatch on `T`.
    pub fn single<T: 'static>() -> Self {
        Dispatch::Single(TypeKey::of::<T>())
    }
}

/// An actor's classification, which the [`Action`](crate::Action) checks against its
/// iterator when it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActorClass {
    /// The actor's name ([`short_type_name`](crate::short_type_name)).
    pub name: &'static str,
    /// Enter-only or enter + leave.
    pub events: Events,
    /// Static, unordered or ordered state.
    pub state: StateKind,
    /// Uniform, single-type or per-type dispatch.
    pub dispatch: Dispatch,
    /// Whether it works on whole batches (breadth-first iterators).
    pub batches: bool,
}

impl ActorClass {
    /// Whether an actor of this class can run under an iterator with these capabilities
    /// (what [`Action::new`](crate::Action::new) checks).
    pub fn check(&self, capabilities: &Capabilities) -> Result<(), ActionError> {
        let class = self;
        let refuse = |reason: &str| Err(class.refused(capabilities.name, reason));
        if class.events == Events::EnterLeave && !capabilities.leave_events {
            return refuse(
                "it needs leave events (enter + leave actor), and this iterator gives none",
            );
        }
        if !capabilities.current_node && class.state == StateKind::Ordered {
            return refuse(
                "it keeps ordered state, which needs one current node per step; this iterator batches nodes",
            );
        }
        if !capabilities.current_node && class.dispatch != Dispatch::Uniform {
            return refuse(
                "it dispatches on the current node's type, and this iterator batches nodes with no current node",
            );
        }
        if !capabilities.current_node && !class.batches {
            return refuse(
                "it works on a single current node (it does not implement enter_batch), and this iterator batches nodes",
            );
        }
        if class.state == StateKind::Ordered
            && capabilities.ordered_state == OrderedState::Unsupported
        {
            return refuse(
                "it keeps ordered state, and this iterator cannot give each node the state of its path",
            );
        }
        Ok(())
    }

    /// The error that refuses an actor of this class under `iterator`, saying why.
    pub(crate) fn refused(&self, iterator: &'static str, reason: &str) -> ActionError {
        ActionError::Incompatible {
            actor: self.name,
            iterator,
            reason: reason.to_owned(),
        }
    }
}
