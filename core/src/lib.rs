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
//!   ([`Dispatch`]; [`Arms`], with a [`MethodTable`] of [`Functor`]s for functors
//!   chosen at run time). [`Typed`] reads nodes as a type in a loop.
//! - **Iterators** ([`TraversalIterator`]) choose the next node. [`DepthFirst`], the
//!   canonical order, is here; the others (priority, breadth-first, flattened) live in
//!   `scenewalk-iterators`.
//! - **[`Action`]** pipes an iterator through a chain of actors, after checking that
//!   every actor can work under the iterator. [`Action::run_parallel`] (the default
//!   feature `parallel`) runs one traversal on all cores of a rayon pool: split by
//!   subtree size, static actors shared, unordered actors forked and merged in
//!   document order ([`UnorderedActor::fork`], [`check_parallel`]), ordered actors run
//!   by subtree from the state at each subtree's root ([`OrderedActor::fork`]).
//!
//! ## Where things are
//! One folder per part, each opening with its story: `graph/` (the arena, ids, node
//! types, edits, the change log, compaction), `actor/` (the actor kinds, adapters,
//! chains, classes, ordered state, what an actor sees), `dispatch/` (typed work:
//! reading nodes as a type, per-type dispatch), `run/` (the iterator trait, the action, [`DepthFirst`], results handed
//! between passes), `parallel/` (one run on all cores). Every error is in `error.rs`.
//! Every public item is re-exported here; [`prelude`] holds the names a custom node,
//! a custom actor and an action need, in one `use scenewalk_core::prelude::*;`.
//!
//! ## Why tuples of actors
//! An action's chain is a tuple of actors, so the compiler sees every call of a
//! traversal and inlines it: the per-node cost is the links walked plus the actors'
//! own work, not a virtual call per actor per node. When a chain is only known at run
//! time, `Vec<Box<dyn Actor>>` is a chain too.
//!
//! ```
//! use scenewalk_core::prelude::*;
//!
//! #[derive(Clone, Debug)]
//! struct Group;
//! impl NodeCore for Group {}
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

pub use glam;

pub use actor::{
    ActiveEntry, ActiveList, Actor, ActorChain, ActorClass, Candidate, Dispatch, Events, Flow,
    Frame, ListState, Ordered, OrderedActor, RunContext, StateCell, StateKind, Static, StaticActor,
    TypeKey, Unordered, UnorderedActor, Visit,
};
pub use dispatch::{Arms, Functor, MethodTable, Typed};
pub use error::{ActionError, GraphError, ResultsError, TraversalError, TypeError};
pub use graph::{
    Change, ChangeCursor, Children, Graph, MAX_BASE_CHAIN, NodeCore, NodeId, NodeIndex, NodeType,
    ParentType, Payloads, RegistryStamp, Remap, TypeInfo, TypeRegistry, short_type_name,
};
pub use math::Aabb;
#[cfg(feature = "parallel")]
pub use parallel::{PARALLEL, ParallelChain, check_parallel};
pub use run::{
    Action, Capabilities, DepthFirst, OrderedState, Results, RunStats, Staleness, Stamp, Stamped,
    Step, StepSink, TraversalIterator, check,
};

mod actor;
mod dispatch;
mod error;
mod graph;
mod math;
#[cfg(feature = "parallel")]
mod parallel;
pub mod prelude;
mod run;
