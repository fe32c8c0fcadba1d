//! Typed work: reading nodes as a `T` in a loop ([`Typed`]), and per-type dispatch
//! (paper 3.1.3): [`Arms`], closures per type known at compile time, with a
//! [`MethodTable`] of [`Functor`]s chosen at run time (paper 3.2).

mod arms;
mod table;
mod typed;

pub use arms::Arms;
pub use table::{Functor, MethodTable};
pub use typed::{Typed, TypedScope};
