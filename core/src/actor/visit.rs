//! What an actor sees of the node being traversed.

use crate::graph::{Graph, NodeCore, NodeId, NodeIndex, NodeType};

/// The current node of a traversal step, as actors see it (payload and id looked up
/// when asked for).
#[derive(Clone, Copy, Debug)]
pub struct Visit<'g> {
    graph: &'g Graph,
    node: NodeIndex,
    depth: u32,
    ty: NodeType,
}

impl<'g> Visit<'g> {
    /// A visit of `node` at `depth` below the traversal root; `None` for a dead slot.
    #[inline]
    pub fn new(graph: &'g Graph, node: NodeIndex, depth: u32) -> Option<Self> {
        let ty = graph.type_at(node)?;
        Some(Self {
            graph,
            node,
            depth,
            ty,
        })
    }

    /// The graph being traversed.
    #[inline]
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// The node's slot.
    #[inline]
    pub fn node(&self) -> NodeIndex {
        self.node
    }

    /// Levels below the traversal root (the root has depth 0).
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The node's type index.
    #[inline]
    pub fn node_type(&self) -> NodeType {
        self.ty
    }

    /// The node's persistent id.
    pub fn id(&self) -> NodeId {
        self.graph.id_of(self.node.raw())
    }

    /// The node's payload, type-erased.
    pub fn payload(&self) -> &'g dyn NodeCore {
        self.graph.payload_raw(self.node.raw())
    }

    /// The node's payload as a `T` (its own type or one it extends).
    #[inline]
    pub fn get<T: NodeCore>(&self) -> Option<&'g T> {
        self.graph.get_typed_raw::<T>(self.node.raw(), self.ty.0)
    }
}
