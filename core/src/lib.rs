//! # scenewalk-core: the traversal framework
//!
//! scenewalk traverses heterogeneous trees (scene graphs, bounding-volume hierarchies,
//! kinematic trees) with the framework of Dirk Reiners' *A Flexible and Extensible
//! Traversal Framework for Scenegraph Systems*: three parts that are combined freely.
//!
//! - **[`Graph`]** holds the nodes: an arena of small link records with generational
//!   [`NodeId`]s, each node type's payloads ([`NodeCore`], from any crate) in a column of
//!   their own, and a change log ([`Graph::changes_since`]) that incremental updates
//!   read.
//! - **Actors** do the work at a node: they see it ([`Visit`]) and its children still
//!   to traverse ([`ActiveList`]), and answer with a [`Flow`]. Their classification is
//!   part of their type: [`StaticActor`], [`UnorderedActor`], [`OrderedActor`] (state
//!   kept by the framework), enter or enter + leave ([`Events`]), uniform, single-type
//!   or per-type [`Dispatch`] ([`Arms`], with a [`MethodTable`] of [`Functor`]s chosen
//!   at run time). [`Typed`] reads nodes as a type in a loop.
//! - **Iterators** ([`TraversalIterator`]) choose the next node: [`DepthFirst`] here,
//!   the other orders in `scenewalk-iterators`.
//! - **[`Action`]** pipes an iterator through a chain of actors, after checking that
//!   each actor can work under it; [`Action::run_parallel`] (default feature
//!   `parallel`) runs one traversal on all cores.
//!
//! [`prelude`] holds the names a custom node, actor and action need.
//!
//! An action's chain is a tuple of actors, so the compiler sees every call of a
//! traversal and inlines it: the per-node cost is the links walked plus the actors' own
//! work. A chain only known at run time is a `Vec<Box<dyn Actor>>`.
//!
//! ```
//! use scenewalk_core::prelude::*;
//! #[derive(Clone, Debug)]
//! struct Group;
//! impl NodeCore for Group {}
//! /// Culls everything deeper than one level.
//! struct Shallow;
//! impl StaticActor for Shallow {
//!     fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
//!         if visit.depth() == 1 { Flow::Prune } else { Flow::Continue }
//!     }
//! }
//! let mut graph = Graph::new();
//! let root = graph.add_root(Group);
//! let child = graph.append_child(root, Group)?;
//! graph.append_child(child, Group)?;
//! let mut action = Action::new(DepthFirst::new(), (Static::new(Shallow),))?;
//! let stats = action.run(&graph, root)?;
//! assert_eq!((stats.entered, stats.pruned), (2, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub use glam;

#[cfg(feature = "parallel")]
pub use action::parallel::ParallelChain;
pub use action::{Action, DepthFirst, Step, StepSink, TraversalIterator};
pub use actor::{
    ActiveEntry, ActiveList, Actor, ActorChain, ActorClass, Candidate, Dispatch, Events, Flow,
    Frame, ListState, Ordered, OrderedActor, StateCell, StateKind, Static, StaticActor, TypeKey,
    Unordered, UnorderedActor, Visit,
};
pub use dispatch::{Arms, Functor, MethodTable, Typed};
pub use error::{ActionError, GraphError, ResultsError, Staleness, TraversalError, TypeError};
pub use graph::{
    Change, ChangeCursor, Graph, MAX_BASE_CHAIN, NodeCore, NodeId, NodeIndex, NodeType, ParentType,
    Remap, TypeInfo, TypeRegistry, short_type_name,
};
#[doc(hidden)]
pub use invariant::Invariant;
pub use math::Aabb;
pub use run::{Capabilities, OrderedState, Results, RunContext, RunStats, Stamp, Stamped};

mod action;
mod actor;
mod dispatch;
mod error;
mod graph;
mod invariant;
mod math;
pub mod prelude;
mod run;
