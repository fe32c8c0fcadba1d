//! # scenewalk-iterators: the orders a traversal can take
//!
//! An iterator (paper section 3.3) keeps the nodes still to be traversed and picks the
//! next one; an [`Action`](scenewalk_core::Action) pipes it through its actors, checking
//! their classes against its [`Capabilities`](scenewalk_core::Capabilities). Each order
//! here implements [`TraversalIterator`](scenewalk_core::TraversalIterator), as a new
//! order in any crate can: [`DepthFirst`] (core's), [`PriorityQueue`] (a hybrid with
//! depth-first by a [`SwitchRule`]), [`BreadthFirst`] (levels as batches) and
//! [`Flattened`] (the tree as depth-first arrays, rebuilt only after structural edits,
//! with linear top-down and bottom-up passes, on all cores with `parallel`).
//!
//! Outside actions: [`DfsWalker`], the depth-first walk that leaves the graph free to
//! edit between steps; [`Walk`], std iterators on [`Graph`](scenewalk_core::Graph);
//! [`DualTree`], the leaf pairs of two trees (or one against itself) under a pair filter
//! such as [`AabbOverlap`] (reference note 002).

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
