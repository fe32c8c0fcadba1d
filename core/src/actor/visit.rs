//! What an actor sees of the node being traversed.

use crate::graph::{Graph, NodeCore, NodeId, NodeIndex, NodeType};
use crate::run::Capabilities;

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

    /// The node's type index: dense (0, 1, 2, … in the order the graph's types were
    /// registered), so a table indexed by it dispatches per type. The type's name, and
    /// the types it extends, are in the graph's type registry:
    /// `visit.graph().types().name(visit.node_type())`.
    ///
    /// ```
    /// use scenewalk_core::prelude::*;
    ///
    /// #[derive(Clone, Debug)]
    /// struct Room;
    /// impl NodeCore for Room {}
    /// #[derive(Clone, Debug)]
    /// struct Lamp;
    /// impl NodeCore for Lamp {}
    ///
    /// /// The type name of every node entered.
    /// #[derive(Default)]
    /// struct Names(Vec<&'static str>);
    /// impl UnorderedActor for Names {
    ///     fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
    ///         self.0.push(visit.graph().types().name(visit.node_type()));
    ///         Flow::Continue
    ///     }
    /// }
    ///
    /// let mut graph = Graph::new();
    /// let room = graph.add_root(Room);
    /// let lamp = graph.append_child(room, Lamp)?;
    /// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Names::default()),))?;
    /// action.run(&graph, room)?;
    /// assert_eq!(action.actor::<Names>().unwrap().0, ["Room", "Lamp"]);
    /// // The same index outside a traversal, and the type's own.
    /// assert_eq!(graph.types().index_of::<Lamp>(), Some(graph.node_type(lamp)?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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

/// What actors learn when a run begins.
#[derive(Clone, Copy, Debug)]
pub struct RunContext<'g> {
    /// The graph about to be traversed.
    pub graph: &'g Graph,
    /// The traversal root.
    pub root: NodeIndex,
    /// What the iterator of this run provides.
    pub capabilities: Capabilities,
    /// The results of earlier passes handed to this run ([`RunContext::read`]).
    pub results: &'g crate::run::Results,
}
