//! # scenewalk-core: the traversal framework
//!
//! scenewalk traverses heterogeneous trees (scene graphs, bounding-volume hierarchies,
//! kinematic trees) with the framework of Dirk Reiners' *A Flexible and Extensible
//! Traversal Framework for Scenegraph Systems*: three parts that are combined freely.
//!
//! - **[`Graph`]** holds the nodes: an arena of per-node records in three parallel
//!   arrays, 32 bytes a node (16 bytes of hot links every walk reads: parent, first
//!   child, next sibling, type; a 4-byte generation; 12 bytes of cold links for O(1)
//!   edits: previous sibling, last child, payload slot), with generational
//!   [`NodeId`]s, and each node type's payloads in their own column. A
//!   payload is any [`NodeCore`] type, from any crate; registering it gives it a dense
//!   [`NodeType`] index, and it may extend a parent type for dispatch fallback.
//!   Every edit and mutable payload borrow is recorded in a change log
//!   ([`Graph::changes_since`]) that incremental updates read.
//! - **Actors** do the work at a node. They see the current node ([`Visit`]) and the
//!   active list ([`ActiveList`], by default its children), may deactivate entries or
//!   give them priority keys, and return a [`Flow`]. Their classification is part of
//!   their type: [`StaticActor`] (`&self`), [`UnorderedActor`] and [`OrderedActor`]
//!   (hierarchical state kept by the framework, copied only where it changes); enter
//!   or enter + leave ([`Events`]); uniform, single-type or per-type dispatch
//!   ([`Dispatch`], [`MethodTable`], [`Functor`], or [`Arms`] when the functors are
//!   known at compile time).
//! - **Iterators** ([`TraversalIterator`]) choose the next node. [`DepthFirst`], the
//!   canonical order, is here; the others (priority, breadth-first, flattened) live in
//!   `scenewalk-iterators`.
//! - **[`Action`]** pipes an iterator through a chain of actors, after checking that
//!   every actor can work under the iterator. [`Action::run_parallel`] runs one
//!   traversal on all cores of a rayon pool: split by subtree size, static actors
//!   shared, unordered actors forked and merged in document order
//!   ([`UnorderedActor::fork`], [`check_parallel`]), ordered actors run by subtree from
//!   the state at each subtree's root ([`OrderedActor::fork`]).
//!
//! ## Why tuples of actors
//! An action's chain is a tuple of actors, so the compiler sees every call of a
//! traversal and inlines it: the per-node cost is the links walked plus the actors'
//! own work, not a virtual call per actor per node. When a chain is only known at run
//! time, `Vec<Box<dyn Actor>>` is a chain too.
//!
//! ```
//! use scenewalk_core::{Action, ActiveList, DepthFirst, Flow, Graph, Static, StaticActor, Visit};
//!
//! #[derive(Clone, Debug)]
//! struct Group;
//! impl scenewalk_core::NodeCore for Group {}
//!
//! /// Culls everything deeper than one level.
//! struct Shallow;
//! impl StaticActor for Shallow {
//!     fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
//!         if visit.depth() == 1 { Flow::Prune } else { Flow::Continue }
//!     }
//! }
//!
//! let mut graph = Graph::new();
//! let root = graph.add_root(Group);
//! let child = graph.append_child(root, Group)?;
//! graph.append_child(child, Group)?;
//!
//! let mut action = Action::new(DepthFirst::new(), (Static::new(Shallow),))?;
//! let stats = action.run(&graph, root)?;
//! assert_eq!((stats.entered, stats.pruned), (2, 1));
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

pub use glam;

pub use action::{Action, RunStats, check};
pub use active::{ActiveEntry, ActiveList, Candidate, ListState};
pub use actor::{Actor, OrderedActor, StaticActor, UnorderedActor};
pub use adapter::{Ordered, Static, Unordered};
pub use arms::{Arm, ArmList, Arms, DefaultArm, Otherwise};
pub use chain::ActorChain;
pub use changes::{Change, ChangeCursor};
pub use class::{ActorClass, Dispatch, Events, StateKind, TypeKey};
pub use compact::Remap;
pub use dispatch::{DispatchActor, Functor, MethodTable};
pub use error::{ActionError, GraphError, TypeError};
pub use flow::Flow;
pub use fork::{
    AboveActor, AboveChain, NoWorker, PARALLEL, ParallelActor, ParallelChain, StaticWorker,
    UnorderedAbove, WorkerActor, WorkerChain, check_parallel,
};
pub use fork_ordered::{OrderedAbove, OrderedPart, OrderedTop, OrderedWorker};
pub use frame::Frame;
pub use graph::{Children, Graph, Payloads};
pub use id::{NodeId, NodeIndex};
pub use iterator::{Capabilities, OrderedState, Step, StepSink, TraversalError, TraversalIterator};
pub use kept::KeptColumn;
pub use math::Aabb;
pub use node::{MAX_BASE_CHAIN, NodeCore};
pub use results::{Results, ResultsError, Staleness, Stamp, Stamped};
pub use run::DepthFirst;
pub use state::StateCell;
pub use types::{
    NodeType, ParentType, RegistryStamp, TypeInfo, TypeRegistry, TypeSet, short_type_name,
};
pub use visit::{RunContext, Visit};

mod action;
mod active;
mod actor;
mod adapter;
mod arms;
mod chain;
mod changes;
mod class;
mod column;
mod compact;
mod dispatch;
mod edit;
mod error;
mod flow;
mod fork;
mod fork_ordered;
mod frame;
mod graph;
mod id;
mod iterator;
mod kept;
mod math;
mod node;
mod parallel;
mod results;
mod run;
mod state;
mod subtree_sizes;
mod types;
mod visit;
mod walk;
