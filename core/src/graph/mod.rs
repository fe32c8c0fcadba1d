//! The graph: an arena of link records addressed by generational [`NodeId`]s (bare
//! slots, [`NodeIndex`], inside a traversal), each node type's payloads ([`NodeCore`])
//! in a column of their own, the types in a [`TypeRegistry`].
//!
//! - `arena.rs`: the records and columns, queries by id and by slot;
//! - `edit.rs`: adding, moving and removing nodes;
//! - `walk.rs`: the stackless pre-order step over the links;
//! - `changes.rs`: the log every edit and mutable payload borrow writes, which
//!   incremental passes read ([`Change`], [`ChangeCursor`]);
//! - `compact.rs`: renumbering the arena in depth-first order ([`Remap`]);
//! - `column.rs`: one payload type's column;
//! - `id.rs`, `types.rs`, `node.rs`: ids, the type registry, the payload trait.

mod arena;
mod changes;
mod column;
mod compact;
mod edit;
mod id;
mod node;
mod types;
mod walk;

pub use arena::{Children, Graph, Payloads};
pub use changes::{Change, ChangeCursor};
pub use compact::Remap;
pub use id::{NodeId, NodeIndex};
pub use node::{MAX_BASE_CHAIN, NodeCore};
pub(crate) use types::TypeSet;
pub use types::{NodeType, ParentType, RegistryStamp, TypeInfo, TypeRegistry, short_type_name};

pub(crate) use column::Column;
