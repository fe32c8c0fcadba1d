//! Typed work: doing something for the nodes of a type `T`, three ways.
//!
//! - Reading a node as a `T`: [`Visit::get`](crate::Visit::get), or in a loop over
//!   many nodes [`Typed`], which answers "is it a `T`" from a flat table resolved
//!   once and keeps the graph's column of `T` for the payloads;
//! - a single-type actor: [`Dispatch::Single`](crate::Dispatch::Single), whose adapter
//!   filters the nodes with the same table;
//! - per-type dispatch (paper 3.1.3): [`Arms`], closures per type known at compile
//!   time, with a [`MethodTable`] of [`Functor`]s chosen at run time for the types no
//!   arm handles (paper 3.2: Coin3D's method list).
//!
//! Files: `typed.rs` (the typed view), `arms.rs` (the dispatch actor), `table.rs`
//! (functors and method tables).

mod arms;
mod table;
mod typed;

pub use arms::Arms;
pub use table::{Functor, MethodTable};
pub use typed::Typed;
