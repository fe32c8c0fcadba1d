//! # scenewalk-actors: ready-made actors
//!
//! Each actor does one job at a node and is classified by the paper's three criteria,
//! which the [`Action`](scenewalk_core::Action) checks against its iterator:
//!
//! | actor | events | state | dispatch |
//! |---|---|---|---|
//! | [`WorldTransforms`] | enter | ordered (the matrix stack) | uniform; composes at types that are a [`Transform`](scenewalk_nodes::Transform) |
//! | [`Statistics`] | enter | unordered | uniform |
//! | [`Bounds`] | enter + leave | ordered (the matrix stack) | uniform; reads types that are a [`Geometry`](scenewalk_nodes::Geometry) |
//! | [`FrustumCull`] | enter | ordered (plane mask) or static | uniform |
//! | [`LodSelect`] | enter | static | single: [`Lod`](scenewalk_nodes::Lod) |
//! | [`SwitchSelect`] | enter | static | single: [`Switch`](scenewalk_nodes::Switch) |
//! | [`RenderList`] | enter | ordered (world matrix, material) | per type ([`MethodTable`](scenewalk_core::MethodTable)) |
//! | [`NearFirst`] | enter | static (sets priority keys) | uniform |
//! | [`Pick`] | enter | unordered (the best hit) | uniform |
//!
//! The first three make the **update pass**; the view actors ([`FrustumCull`],
//! [`LodSelect`], [`Pick`], [`NearFirst`]) read its results, shared through an `Arc`,
//! because choosing which children to enter needs their subtree boxes before they are
//! entered.
//!
//! [`IncrementalUpdate`] is the update pass kept up to date across edits: it reads the
//! graph's change log and recomputes world matrices and boxes only over the subtrees
//! that changed (the update actors' work in one tight loop), then recomputes the boxes
//! of their ancestors while they change.
//!
//! [`Collide`] is not an actor but a query built on their results: it drives the
//! dual-tree iterator over two meshes' BVHs, or over two scene subtrees pruned by a
//! [`Bounds`] run, with exact triangle tests at the leaves.
//!
//! Results stay in the actor after the run, indexed by node, and are read through the
//! action (`action.actor::<WorldTransforms>()`). They work for node types from other
//! crates that extend `Transform` or `Geometry` (see `NodeCore::base`).
//!
//! ```
//! use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
//! use scenewalk_core::{Action, Aabb, Graph, Ordered, Unordered, glam::Vec3};
//! use scenewalk_iterators::DepthFirst;
//! use scenewalk_nodes::{Geometry, Group, Transform};
//!
//! let mut graph = Graph::new();
//! let root = graph.add_root(Group);
//! let moved = graph.append_child(root, Transform::from_translation(Vec3::X * 10.0))?;
//! let mesh = graph.append_child(moved, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))?;
//!
//! let mut action = Action::new(
//!     DepthFirst::new(),
//!     (Ordered::new(WorldTransforms::new()), Unordered::new(Statistics::new()), Ordered::new(Bounds::new())),
//! )?;
//! action.run(&graph, root)?;
//!
//! let world = action.actor::<WorldTransforms>().unwrap().world(&graph, mesh).unwrap();
//! assert_eq!(world.translation.x, 10.0);
//! assert_eq!(action.actor::<Statistics>().unwrap().nodes(), 3);
//! let bounds = action.actor::<Bounds>().unwrap().world_bounds(&graph, root).unwrap();
//! assert_eq!(bounds, Aabb::new(Vec3::new(10.0, 0.0, 0.0), Vec3::new(11.0, 1.0, 1.0)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented,
    clippy::indexing_slicing
)]

pub use bounds::{Bounds, BoundsTable};
pub use collide::{Collide, CollideError, ContactMode, NodeContact, TriangleContact};
pub use cull::FrustumCull;
pub use incremental::{IncrementalUpdate, UpdateStats};
pub use near_first::NearFirst;
pub use per_node::PerNode;
pub use pick::{Pick, PickHit};
pub use render::{
    CameraItem, DrawItem, LightItem, RenderContext, RenderList, RenderState, Sorting,
};
pub use select::{LodSelect, SwitchSelect};
pub use statistics::Statistics;
pub use world::{WorldTable, WorldTransforms, local_transform};

mod bounds;
mod collide;
mod cull;
mod incremental;
mod near_first;
mod per_node;
mod pick;
mod render;
mod select;
mod shared;
mod statistics;
mod world;
