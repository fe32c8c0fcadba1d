//! The names a custom node, a custom actor and an action need, in one import:
//! `use scenewalk_core::prelude::*;`.
//!
//! It is the framework's vocabulary only. The ready-made parts of the other crates
//! (node types, actors, other iterators) are named where they are used, so a reader
//! sees which ones a program picks; they have no preludes of their own.
//!
//! ```
//! use scenewalk_core::prelude::*;
//!
//! /// A node type of this program: a spinning transform.
//! #[derive(Clone, Debug)]
//! struct Spin(Affine3A);
//! impl NodeCore for Spin {}
//!
//! /// An ordered actor: each node's world matrix, composed down the path.
//! #[derive(Default)]
//! struct World(Vec<Vec3>);
//! impl OrderedActor for World {
//!     type State = Affine3A;
//!     fn root_state(&mut self, _: &RunContext<'_>) -> Result<Affine3A, TraversalError> {
//!         self.0.clear();
//!         Ok(Affine3A::IDENTITY)
//!     }
//!     fn enter(&mut self, world: &mut StateCell<'_, Affine3A>, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
//!         if let Some(spin) = visit.get::<Spin>() {
//!             let composed = *world.get() * spin.0;
//!             world.set(composed);
//!         }
//!         self.0.push(world.get().translation.into());
//!         Flow::Continue
//!     }
//! }
//!
//! let mut graph = Graph::new();
//! let step = Spin(Affine3A::from_translation(Vec3::X));
//! let root = graph.add_root(step.clone());
//! graph.append_child(root, step)?;
//! let mut action = Action::new(DepthFirst::new(), (Ordered::new(World::default()),))?;
//! action.run(&graph, root)?;
//! assert_eq!(action.actor::<World>().unwrap().0, [Vec3::X, 2.0 * Vec3::X]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::actor::{
    ActiveList, Dispatch, Events, Flow, Ordered, OrderedActor, RunContext, StateCell, Static,
    StaticActor, Unordered, UnorderedActor, Visit,
};
pub use crate::error::{GraphError, TraversalError};
pub use crate::graph::{Graph, NodeCore, NodeId, ParentType};
pub use crate::math::Aabb;
pub use crate::run::{Action, DepthFirst, Results, RunStats};
pub use glam::{Affine3A, Mat4, Quat, Vec3};
