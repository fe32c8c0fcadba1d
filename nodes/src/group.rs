//! The group node.

use scenewalk_core::NodeCore;

/// A node that only groups its children. Zero-sized: a group costs only its links.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Group;

impl NodeCore for Group {}
