//! # scenewalk-iterators: the orders a traversal can take
//!
//! An Iterator (paper section 3.3) keeps the nodes still to be traversed and picks the
//! next one; an [`Action`](scenewalk_core::Action) pipes it through its actors. Each
//! iterator here implements [`TraversalIterator`](scenewalk_core::TraversalIterator)
//! and states its [`Capabilities`](scenewalk_core::Capabilities), which the action checks
//! against each actor's class.
//!
//! - [`DepthFirst`]: explicit stack, document order, nested enter/leave, no recursion.
//! - [`PriorityQueue`]: highest key first, with shared copies of ordered state and leave
//!   events; as a hybrid it switches to depth-first inside subtrees ([`SwitchRule`]).
//! - [`BreadthFirst`]: whole levels handed to the actors as batches.
//! - [`Flattened`]: the tree compiled into depth-first arrays (node, parent position,
//!   subtree size, depth), rebuilt only after structural edits; parent-before-child
//!   passes ([`propagate`](Flattened::propagate)) become one linear loop, and it runs
//!   actions as a pre-order iterator too.
//! - [`DfsWalker`] and [`StacklessDfs`]: walks that do not borrow the graph (the
//!   [`Walker`] trait): enter / leave events or pre-order nodes, no stack, no
//!   allocation, and the graph may be edited between steps.
//! - [`Walk`]: std iterators on [`Graph`](scenewalk_core::Graph):
//!   [`depth_first`](Walk::depth_first), [`preorder`](Walk::preorder),
//!   [`breadth_first`](Walk::breadth_first) and [`by_priority`](Walk::by_priority).
//!
//! A new order is a type implementing `TraversalIterator` in any crate; nothing here
//! or in core needs to change.

#![forbid(unsafe_code)]

pub use breadth_first::BreadthFirst;
pub use depth_first::DepthFirst;
pub use priority::{PriorityQueue, SwitchRule};

mod breadth_first;
mod depth_first;
mod leaves;
mod priority;

pub use dual_tree::{AabbOverlap, DualTree, DualTreeIter, DualTreeStats, NodePair, PairFilter};

mod dual_tree;

pub use flat::{Flattened, LengthMismatch};
pub use std_iter::{BreadthFirstIter, DepthFirstIter, FlatIter, PreorderIter, PriorityIter, Walk};
pub use walker::{DfsWalker, Event, StacklessDfs, Walker, WalkerIter};

mod flat;
mod std_iter;
mod walker;
