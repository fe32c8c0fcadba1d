//! # scenewalk-iterators: the orders a traversal can take
//!
//! An Iterator (paper section 3.3) keeps the nodes still to be traversed and picks the
//! next one; an [`Action`](scenewalk_core::Action) pipes it through its actors. Each
//! iterator here implements [`TraversalIterator`](scenewalk_core::TraversalIterator)
//! and states its [`Capabilities`](scenewalk_core::Capabilities), which the action checks
//! against each actor's class.
//!
//! - [`DepthFirst`]: explicit stack, document order, nested enter/leave, no recursion.
//!
//! A new order is a type implementing `TraversalIterator` in any crate; nothing here
//! or in core needs to change.

#![forbid(unsafe_code)]

pub use depth_first::DepthFirst;

mod depth_first;
