//! The graph: an arena of link records addressed by generational [`NodeId`]s (bare
//! slots, [`NodeIndex`], inside a traversal), each node type's payloads ([`NodeCore`])
//! in a column of their own, the types in a [`TypeRegistry`].

mod arena;
mod changes;
mod column;
mod compact;
mod edit;
mod id;
mod node;
mod preorder;
mod types;

pub use arena::Graph;
pub use changes::{Change, ChangeCursor};
pub use compact::Remap;
pub use id::{NodeId, NodeIndex};
pub use node::{MAX_BASE_CHAIN, NodeCore};
pub(crate) use types::RegistryStamp;
pub use types::{NodeType, ParentType, TypeInfo, TypeRegistry, short_type_name};
pub(crate) use types::{TypeSet, shorten};

pub(crate) use column::Column;
