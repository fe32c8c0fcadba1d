//! Per-type dispatch (paper 3.1.3): one actor, a different function per node type.
//!
//! A [`MethodTable`] holds [`Functor`]s indexed by dense [`NodeType`](crate::NodeType),
//! resolved once per run, with fallback along each type's parent chain and a default;
//! a [`DispatchActor`] runs one with a context value. When the functors are known at
//! compile time, [`Arms`] is the same dispatch with the closures inlined. Typed
//! functors reach their payloads through a [`KeptColumn`], which keeps the graph's
//! column of a type resolved across the nodes of a run.
//!
//! - `table.rs`: functors, method tables, the dispatch actor;
//! - `arms.rs`: compile-time arms;
//! - `kept.rs`: the kept column.

mod arms;
mod kept;
mod table;

pub use arms::Arms;
pub use kept::KeptColumn;
pub use table::{DispatchActor, Functor, MethodTable};
