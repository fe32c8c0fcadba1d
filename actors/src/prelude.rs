//! Everything a user of the four crates usually names, in one import:
//! `use scenewalk_actors::prelude::*;`. It holds core's
//! [`prelude`](scenewalk_core::prelude) (graph, actors, action, glam types) and the
//! common parts of the iterators, nodes and actors crates.

pub use crate::{
    Bounds, BoundsTable, FrustumCull, IncrementalUpdate, Pick, PickHit, RenderList, Statistics,
    WorldTable, WorldTransforms,
};
pub use scenewalk_core::prelude::*;
pub use scenewalk_iterators::{BreadthFirst, DfsWalker, Event, Flattened, PriorityQueue, Walk};
pub use scenewalk_nodes::{Camera, Geometry, Group, Light, Lod, Mesh, Ray, Switch, Transform};
