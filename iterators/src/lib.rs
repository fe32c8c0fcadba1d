//! # scenewalk-iterators: the orders a traversal can take
//!
//! An Iterator (paper section 3.3) keeps the nodes still to be traversed and picks the
//! next one; an [`Action`](scenewalk_core::Action) pipes it through its actors. Each
//! iterator here implements [`TraversalIterator`](scenewalk_core::TraversalIterator)
//! and states its [`Capabilities`](scenewalk_core::Capabilities), which the action checks
//! against each actor's class.
//!
//! - [`DepthFirst`] (core's, re-exported here): document order, nested enter/leave, no
//!   recursion; walks the links like a hand-written loop and builds an active list only
//!   when an actor looks at it.
//! - [`PriorityQueue`]: highest key first, with shared copies of ordered state and leave
//!   events; as a hybrid it switches to depth-first inside subtrees ([`SwitchRule`]).
//! - [`BreadthFirst`]: whole levels handed to the actors as batches.
//! - [`Flattened`]: the tree compiled into depth-first arrays (node, parent position,
//!   subtree size, depth), rebuilt only after structural edits; parent-before-child
//!   passes ([`propagate`](Flattened::propagate)) become one linear loop, and it runs
//!   actions as a pre-order iterator too. [`propagate_parallel`](Flattened::propagate_parallel)
//!   and [`accumulate_parallel`](Flattened::accumulate_parallel) run the top-down and
//!   bottom-up passes on all cores, cut into subtree ranges by size.
//! - [`DfsWalker`]: the depth-first walk outside actions, enter / leave events or
//!   pre-order nodes, no stack, no allocation; it does not borrow the graph, which may
//!   be edited between steps.
//! - [`Walk`]: std iterators on [`Graph`](scenewalk_core::Graph):
//!   [`depth_first`](Walk::depth_first) and [`preorder`](Walk::preorder) (the
//!   walker's steps while the graph is borrowed), [`breadth_first`](Walk::breadth_first)
//!   and [`by_priority`](Walk::by_priority).
//! - [`DualTree`]: leaf pairs of two trees (or one tree against itself) under a pair
//!   filter such as [`AabbOverlap`]; explicit growable stack, pausable (note 002).
//!
//! A new order is a type implementing `TraversalIterator` in any crate; nothing here
//! or in core needs to change.

#![forbid(unsafe_code)]

pub use breadth_first::BreadthFirst;
pub use dual_tree::{AabbOverlap, DualTree, DualTreeIter, DualTreeStats, NodePair, PairFilter};
pub use flat::{FlatIter, Flattened, LengthMismatch};
pub use priority::{PriorityQueue, SwitchRule};
pub use scenewalk_core::DepthFirst;
pub use std_iter::{BreadthFirstIter, PriorityIter, Walk};
pub use walker::{DepthFirstIter, DfsWalker, Event};

mod breadth_first;
mod dual_tree;
mod flat;
#[cfg(feature = "parallel")]
mod flat_par;
mod leaves;
mod priority;
mod std_iter;
mod walker;
