//! The names a custom node, a custom actor and an action need, in one import:
//! `use scenewalk_core::prelude::*;` (the crate's example uses it). Only the framework's
//! vocabulary: the ready-made parts of the other crates are named where they are used.

pub use crate::action::{Action, DepthFirst};
pub use crate::actor::{
    ActiveList, Dispatch, Events, Flow, Ordered, OrderedActor, StateCell, Static, StaticActor,
    Unordered, UnorderedActor, Visit,
};
pub use crate::dispatch::{Arms, Typed};
pub use crate::error::{GraphError, TraversalError};
pub use crate::graph::{Graph, NodeCore, NodeId, NodeIndex, ParentType};
pub use crate::math::Aabb;
pub use crate::run::{Results, RunContext, RunStats};
pub use glam::{Affine3A, Mat4, Quat, Vec3};
