//! Typed work, in three mechanisms (the table in `docs/architecture.md` says which to
//! use when): reading a node as a `T` ([`Visit::get`](crate::Visit::get) once,
//! [`Typed`] in a loop), single-type actors ([`Dispatch::Single`](crate::Dispatch)),
//! and per-type dispatch (paper 3.1.3): [`Arms`], closures per type known at compile
//! time, with a [`MethodTable`] of [`Functor`]s chosen at run time (paper 3.2).

mod arms;
mod table;
mod typed;

pub use arms::Arms;
pub use table::{Functor, MethodTable};
pub use typed::Typed;
