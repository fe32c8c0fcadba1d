//! # scenewalk-iterators: the orders a traversal can take
//!
//! Each order implements [`TraversalIterator`](scenewalk_core::TraversalIterator) (paper
//! section 3.3), as a new order in any crate can: [`DepthFirst`] (core's),
//! [`PriorityQueue`] (hybrid by a [`SwitchRule`]), [`BreadthFirst`] and [`Flattened`].
//! Outside actions: [`DfsWalker`] (the graph stays editable between steps), [`Walk`]
//! (std iterators on [`Graph`](scenewalk_core::Graph)) and [`DualTree`] (leaf pairs of
//! two trees under a [`PairFilter`] such as [`AabbOverlap`], reference note 002).

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
mod priority;
mod std_iter;
mod walker;
