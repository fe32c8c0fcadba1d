//! # scenewalk-actors: ready-made actors
//!
//! Each actor does one job at a node; its doc gives its class by the paper's criteria
//! (events, state, dispatch), which the [`Action`](scenewalk_core::Action) checks
//! against its iterator. [`Bounds`] (which carries the [`WorldTransforms`] its boxes
//! start from) and [`Statistics`] make the **update pass**; the view actors ([`FrustumCull`], [`LodSelect`], [`SwitchSelect`],
//! [`RenderList`], [`NearFirst`], [`Pick`]) read its results ([`WorldTable`],
//! [`BoundsTable`]), handed to their run without copying. [`IncrementalUpdate`] keeps
//! the update pass up to date at a cost that follows the edits. [`Collide`] is a query
//! on the update's results. Results stay in the actor after the run
//! (`action.actor::<WorldTransforms>()`), and hold for node types of other crates that
//! extend `Transform` or `Geometry`. [`robot`] poses URDF kinematic trees through the
//! same passes, and gives their Jacobians (feature `urdf`, on by default). [`prelude`]
//! names all four crates' common parts in one import.
//!
//! Feature `tiles` (on by default): module `tiles` streams 3D Tiles by screen-space
//! error, one priority-ordered action a frame with a load queue and a memory budget.
//!
//! ## A frame
//!
//! Edit, bring the update up to date, then hand its results (handles, no copy) to the
//! view and pick passes, which refuse results that no longer describe the graph.
//!
//! ```
//! use scenewalk_actors::prelude::*; // the four crates' common names, glam's types
//!
//! let mut graph = Graph::new();
//! let root = graph.add_root(Group);
//! let arm = graph.append_child(root, Transform::from_translation(Vec3::new(0.0, 0.0, -10.0)))?;
//! let ball = graph.append_child(arm, Geometry::new(Aabb::new(Vec3::splat(-1.0), Vec3::ONE)))?;
//!
//! // The passes, built once: a camera at the origin looking down -z.
//! let frustum = Camera::perspective(1.0, 1.0, 0.1, 100.0)?.frustum(&Affine3A::IDENTITY);
//! let (cull, draw) = (FrustumCull::new(frustum), RenderList::new(Affine3A::IDENTITY));
//! let mut view = Action::new(DepthFirst::new(), (Ordered::new(cull), Ordered::new(draw)))?;
//! let pick = Unordered::new(Pick::new(Ray::new(Vec3::ZERO, -Vec3::Z)?));
//! let mut pick = Action::new(PriorityQueue::new(), (pick,))?;
//! let mut update = IncrementalUpdate::new();
//!
//! for frame in 0..3 {
//!     let x = 0.3 * frame as f32;
//!     graph.get_mut::<Transform>(arm)?.set_local(Affine3A::from_translation(Vec3::new(x, 0.0, -10.0)));
//!     update.run(&graph, root)?; // re-walks only what the edit reached
//!     let results = update.results(); // handles, not copies
//!     view.run_with(&graph, root, &results)?; // cull + draw list
//!     pick.run_with(&graph, root, &results)?; // nearest hit
//! }
//! assert_eq!(view.actor::<RenderList>().unwrap().items().len(), 1);
//! assert_eq!(pick.actor::<Pick>().unwrap().hit().unwrap().node, ball.index());
//!
//! // Results of an older state of the graph are refused, never read.
//! let stale = update.results();
//! graph.append_child(root, Group)?;
//! assert!(view.run_with(&graph, root, &stale).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

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
#[cfg(feature = "urdf")]
pub use self_collision::{
    LinkPair, SelfCollision, SelfCollisionError, SelfCollisionStats, SelfCollisionWorkspace,
};
pub use statistics::Statistics;
pub use world::{WorldTable, WorldTransforms};

mod bounds;
mod collide;
mod cull;
mod incremental;
mod near_first;
mod per_node;
mod pick;
pub mod prelude;
mod render;
#[cfg(feature = "urdf")]
pub mod robot;
mod select;
#[cfg(feature = "urdf")]
mod self_collision;
mod shared;
mod skinned;
mod statistics;
#[cfg(feature = "tiles")]
pub mod tiles;
mod world;
