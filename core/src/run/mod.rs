//! Running a traversal.

mod depth_first;

pub use depth_first::DepthFirst;
