//! The node graph: an arena of small link records, with payloads kept apart per type.

#![allow(
    clippy::indexing_slicing,
    reason = "checked slots or live links; out of range is a bug"
)]

use crate::error::GraphError;
use crate::graph::changes::ChangeLog;
use crate::graph::column::ErasedColumn;
use crate::graph::id::NIL;
use crate::graph::{Change, Column, NodeCore, NodeId, NodeIndex, NodeType, TypeRegistry};
use std::sync::Arc;

/// The links a depth-first traversal reads for every node: 16 bytes, kept apart from
/// everything else so a walk streams through one contiguous array.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HotLinks {
    pub(crate) parent: u32,
    pub(crate) first_child: u32,
    pub(crate) next_sibling: u32,
    /// Dense type index, or [`FREE`] for a free slot.
    pub(crate) ty: u32,
}

/// Links only edits need, plus the payload slot: 12 bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ColdLinks {
    pub(crate) prev_sibling: u32,
    pub(crate) last_child: u32,
    /// Where the payload lives in its type's column.
    pub(crate) slot: u32,
}

/// `HotLinks::ty` of a free slot.
pub(crate) const FREE: u32 = u32::MAX;

impl HotLinks {
    /// A free slot's links.
    pub(crate) const FREE: HotLinks = HotLinks {
        parent: NIL,
        first_child: NIL,
        next_sibling: NIL,
        ty: FREE,
    };
}

impl ColdLinks {
    /// An unlinked node's (or a free slot's) cold links.
    pub(crate) const EMPTY: ColdLinks = ColdLinks {
        prev_sibling: NIL,
        last_child: NIL,
        slot: 0,
    };
}

/// A forest of heterogeneous nodes with first-child / next-sibling links, children in
/// document order. A node costs 32 bytes in three arrays (16 bytes of hot links every walk reads, a
/// 4-byte generation, 12 bytes of cold links only edits read), plus its payload and a
/// 4-byte back link in its type's column unless the type is zero-sized. Appending,
/// inserting before a sibling and making a node a root are O(1); [`set_parent`](Graph::set_parent)
/// adds an O(depth) cycle check; [`remove`](Graph::remove) is O(children). Every call
/// with an invalid id (one of another graph included, as [`NodeId`] says) returns a
/// [`GraphError`]. Walks are many times faster over records in depth-first order, as a
/// tree built depth-first or [`compact`](Graph::compact)ed has them.
///
/// ```
/// use scenewalk_core::Graph;
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// # #[derive(Clone, Debug, PartialEq)] struct Mesh(u32);
/// # impl scenewalk_core::NodeCore for Mesh {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let a = graph.append_child(root, Mesh(1))?;
/// let b = graph.append_child(root, Mesh(2))?;
/// let c = graph.insert_before(b, Mesh(3))?;
/// let order: Vec<_> = graph.children(root)?.collect();
/// assert_eq!(order, [a, c, b]);
/// assert_eq!(graph.get::<Mesh>(c)?, &Mesh(3));
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Graph {
    pub(crate) hot: Vec<HotLinks>,
    pub(crate) cold: Vec<ColdLinks>,
    /// Each slot's generation as ids carry it, `generation ^ id_key`.
    pub(crate) generations: Vec<u32>,
    /// Mixed into every generation, so ids of another graph almost never match.
    pub(crate) id_key: u32,
    /// Shared, so a typed view can keep a column for a run (`column_mut` copies it).
    pub(crate) columns: Vec<Option<Arc<dyn ErasedColumn>>>,
    /// Drawn afresh whenever a column is created or replaced: while it is unchanged, a
    /// column kept from this graph is still its column (see `Kept`).
    pub(crate) column_key: u64,
    pub(crate) types: TypeRegistry,
    /// Head of the free-slot list, chained through `ColdLinks::slot`.
    pub(crate) free_head: u32,
    pub(crate) live: usize,
    pub(crate) revision: u64,
    pub(crate) changes: ChangeLog,
    /// The generation an appended slot starts at: above any issued for a slot
    /// [`compact`](Graph::compact) cut off.
    pub(crate) fresh_generation: u32,
}

impl Default for Graph {
    fn default() -> Self {
        Self::new()
    }
}

/// A graph's id key from a uid, spread over all 32 bits.
fn id_key(uid: u64) -> u32 {
    let x = uid.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ (x >> 32)) as u32
}

#[inline]
fn opt(raw: u32) -> Option<NodeIndex> {
    (raw != NIL).then_some(NodeIndex(raw))
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Self {
        Self {
            hot: Vec::new(),
            cold: Vec::new(),
            generations: Vec::new(),
            id_key: id_key(crate::graph::types::fresh_uid()),
            columns: Vec::new(),
            column_key: crate::graph::types::fresh_uid(),
            types: TypeRegistry::new(),
            free_head: NIL,
            live: 0,
            revision: 0,
            changes: ChangeLog::default(),
            fresh_generation: 0,
        }
    }

    /// An empty graph with room for `nodes` nodes: a hint, capped at `u32::MAX - 1`;
    /// room the allocator refuses is not reserved.
    pub fn with_capacity(nodes: usize) -> Self {
        let mut graph = Self::new();
        let nodes = nodes.min(crate::graph::edit::MAX_SLOTS);
        // Nothing to report: a refused reservation only means growing later.
        let _ = graph.hot.try_reserve_exact(nodes);
        let _ = graph.cold.try_reserve_exact(nodes);
        let _ = graph.generations.try_reserve_exact(nodes);
        graph
    }

    /// The registry of this graph's node types.
    pub fn types(&self) -> &TypeRegistry {
        &self.types
    }

    /// Registers `T` and the parent types it declares (done implicitly when its first
    /// node is added); see [`TypeRegistry::register`].
    pub fn register_type<T: NodeCore>(&mut self) -> Result<NodeType, GraphError> {
        Ok(self.types.register::<T>()?)
    }

    /// How many live nodes the graph holds.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether the graph holds no node.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// How many slots the arena has (live or free): the length for per-node arrays
    /// indexed by [`NodeIndex::get`].
    pub fn capacity(&self) -> usize {
        self.hot.len()
    }

    /// Counts structural edits (not payload edits): what was built at revision `r` is
    /// current while `revision() == r`.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Unique among the graphs of the process, clones included.
    pub fn uid(&self) -> u64 {
        self.types.uid()
    }

    /// Whether `id` names a live node of this graph.
    #[inline]
    pub fn contains(&self, id: NodeId) -> bool {
        self.check(id).is_ok()
    }

    #[inline]
    pub(crate) fn check(&self, id: NodeId) -> Result<u32, GraphError> {
        match (
            self.hot.get(id.index as usize),
            self.generations.get(id.index as usize),
        ) {
            (Some(hot), Some(&generation)) if hot.ty != FREE && generation == id.generation => {
                Ok(id.index)
            }
            _ => Err(GraphError::StaleNode(id)),
        }
    }

    #[inline]
    pub(crate) fn id_of(&self, index: u32) -> NodeId {
        NodeId {
            index,
            generation: self.generations[index as usize],
        }
    }

    fn id_opt(&self, raw: u32) -> Option<NodeId> {
        (raw != NIL).then(|| self.id_of(raw))
    }

    /// The node's parent (`None` for a root).
    pub fn parent(&self, id: NodeId) -> Result<Option<NodeId>, GraphError> {
        Ok(self.id_opt(self.hot[self.check(id)? as usize].parent))
    }

    /// The node's first child.
    pub fn first_child(&self, id: NodeId) -> Result<Option<NodeId>, GraphError> {
        Ok(self.id_opt(self.hot[self.check(id)? as usize].first_child))
    }

    /// The node's last child.
    pub fn last_child(&self, id: NodeId) -> Result<Option<NodeId>, GraphError> {
        Ok(self.id_opt(self.cold[self.check(id)? as usize].last_child))
    }

    /// The sibling after this node.
    pub fn next_sibling(&self, id: NodeId) -> Result<Option<NodeId>, GraphError> {
        Ok(self.id_opt(self.hot[self.check(id)? as usize].next_sibling))
    }

    /// The sibling before this node.
    pub fn prev_sibling(&self, id: NodeId) -> Result<Option<NodeId>, GraphError> {
        Ok(self.id_opt(self.cold[self.check(id)? as usize].prev_sibling))
    }

    /// The node's children in document order.
    pub fn children(
        &self,
        id: NodeId,
    ) -> Result<impl Iterator<Item = NodeId> + Clone + '_, GraphError> {
        let node = NodeIndex(self.check(id)?);
        Ok(self.children_at(node).map(|c| self.id_of(c.0)))
    }

    /// The children of the node in slot `index`, in document order.
    #[inline]
    pub fn children_at(&self, index: NodeIndex) -> impl Iterator<Item = NodeIndex> + Clone + '_ {
        std::iter::successors(self.first_child_at(index), |&c| self.next_sibling_at(c))
    }

    /// Every root (node without a parent), in slot order.
    pub fn roots(&self) -> impl std::iter::Iterator<Item = NodeId> + '_ {
        self.hot
            .iter()
            .enumerate()
            .filter(|(_, h)| h.ty != FREE && h.parent == NIL)
            .map(|(i, _)| self.id_of(i as u32))
    }

    /// How many ancestors the node has (a root has depth 0).
    pub fn depth(&self, id: NodeId) -> Result<usize, GraphError> {
        let node = NodeIndex(self.check(id)?);
        Ok(self.path_up(node).count() - 1)
    }

    /// Whether `ancestor` is `node` or lies on the path from `node` to its root.
    pub fn is_ancestor_or_self(&self, ancestor: NodeId, node: NodeId) -> Result<bool, GraphError> {
        let target = NodeIndex(self.check(ancestor)?);
        let node = NodeIndex(self.check(node)?);
        Ok(self.path_up(node).any(|n| n == target))
    }

    /// The node in slot `node`, then its parent, grandparent and so on to its root.
    pub fn path_up(&self, node: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
        std::iter::successors(Some(node), |&n| self.parent_at(n))
    }

    /// The node's type.
    pub fn node_type(&self, id: NodeId) -> Result<NodeType, GraphError> {
        Ok(NodeType(self.hot[self.check(id)? as usize].ty))
    }

    /// The node's payload, type-erased.
    pub fn payload(&self, id: NodeId) -> Result<&dyn NodeCore, GraphError> {
        Ok(self.payload_raw(self.check(id)?))
    }

    /// The node's payload, type-erased and mutable: not a change of
    /// [`revision`](Graph::revision), but a [`Change::Payload`] in the change log.
    pub fn payload_mut(&mut self, id: NodeId) -> Result<&mut dyn NodeCore, GraphError> {
        let i = self.check(id)? as usize;
        self.record(Change::Payload(NodeIndex(i as u32)));
        let (ty, slot) = (self.hot[i].ty as usize, self.cold[i].slot);
        self.column_mut(ty)
            .and_then(|c| c.get_mut(slot))
            .ok_or(GraphError::StaleNode(id))
    }

    /// The node's payload as a `T`: the node's own type, or a type it extends
    /// ([`NodeCore`] says how a type declares that).
    pub fn get<T: NodeCore>(&self, id: NodeId) -> Result<&T, GraphError> {
        let i = self.check(id)?;
        self.get_typed_raw::<T>(i, self.hot[i as usize].ty)
            .ok_or_else(|| self.wrong_type::<T>(id))
    }

    /// The node's payload as a mutable `T`, recorded as [`payload_mut`](Graph::payload_mut)
    /// is; only the node's exact type, unlike [`get`](Graph::get): a type that extends
    /// another may keep invariants over the embedded value (a mesh's box is its
    /// triangles' box), which a write through the parent type would break.
    pub fn get_mut<T: NodeCore>(&mut self, id: NodeId) -> Result<&mut T, GraphError> {
        let ty = self.hot[self.check(id)? as usize].ty;
        if self.types.index_of::<T>().map(|t| t.0) != Some(ty) {
            return Err(self.wrong_type::<T>(id));
        }
        let payload = self.payload_mut(id)?;
        payload.downcast_mut().ok_or(GraphError::StaleNode(id))
    }

    /// The column of type index `ty`, writable; a column still shared is copied first.
    pub(crate) fn column_mut(&mut self, ty: usize) -> Option<&mut dyn ErasedColumn> {
        let column = self.columns.get_mut(ty)?.as_mut()?;
        if Arc::get_mut(column).is_none() {
            *column = Arc::from(dyn_clone::clone_box(&**column));
            self.column_key = crate::graph::types::fresh_uid();
        }
        Arc::get_mut(column)
    }

    #[inline]
    pub(crate) fn slot_at(&self, i: NodeIndex) -> Option<u32> {
        Some(self.cold.get(i.get())?.slot)
    }

    #[inline]
    pub(crate) fn column_arc(&self, ty: u32) -> Option<&Arc<dyn ErasedColumn>> {
        self.columns.get(ty as usize)?.as_ref()
    }

    fn wrong_type<T: NodeCore>(&self, id: NodeId) -> GraphError {
        GraphError::WrongType {
            node: id,
            expected: crate::graph::short_type_name::<T>(),
            found: self.types.name(NodeType(self.hot[id.index as usize].ty)),
        }
    }

    #[inline]
    pub(crate) fn payload_raw(&self, i: u32) -> &dyn NodeCore {
        let (ty, slot) = (self.hot[i as usize].ty as usize, self.cold[i as usize].slot);
        match self
            .columns
            .get(ty)
            .and_then(|c| c.as_ref())
            .and_then(|c| c.get(slot))
        {
            Some(payload) => payload,
            None => &MISSING,
        }
    }

    /// The payload of the live node in slot `i`, of type index `ty`, as a `T`.
    #[inline]
    pub(crate) fn get_typed_raw<T: NodeCore>(&self, i: u32, ty: u32) -> Option<&T> {
        let slot = self.cold.get(i as usize)?.slot;
        let column = self.columns.get(ty as usize)?.as_deref()?;
        // One virtual call (`type_id`), where downcast_rs's `as_any` adds a second.
        let any: &dyn std::any::Any = column;
        match any.downcast_ref::<Column<T>>() {
            Some(column) => column.items.get(slot as usize),
            None => Self::get_extended(column, slot),
        }
    }

    /// The `T` view of a payload whose type extends `T`, off the hot path.
    #[cold]
    #[inline(never)]
    fn get_extended<T: NodeCore>(column: &dyn ErasedColumn, slot: u32) -> Option<&T> {
        column.get(slot)?.base()?.view::<T>()
    }

    /// How many payloads of exactly type `ty` the graph holds (one for all nodes of a
    /// zero-sized type): every such node's [`payload_slot_at`](Graph::payload_slot_at)
    /// is below it.
    pub fn payload_count(&self, ty: NodeType) -> usize {
        self.column_arc(ty.0).map_or(0, |c| c.len())
    }

    /// The persistent id of the node in slot `index` (`None` for a free or unknown slot).
    #[inline]
    pub fn id_at(&self, index: NodeIndex) -> Option<NodeId> {
        self.live_at(index).map(|_| self.id_of(index.0))
    }

    /// Where the payload of the node in slot `index` sits in its type's column (read
    /// it from [`Typed::kept`](crate::Typed::kept)) until the next structural edit;
    /// `None` for a free slot.
    #[inline]
    pub fn payload_slot_at(&self, index: NodeIndex) -> Option<u32> {
        self.live_at(index)?;
        self.slot_at(index)
    }

    /// The parent of the node in slot `index`.
    #[inline]
    pub fn parent_at(&self, index: NodeIndex) -> Option<NodeIndex> {
        opt(self.hot.get(index.get())?.parent)
    }

    /// The first child of the node in slot `index`.
    #[inline]
    pub fn first_child_at(&self, index: NodeIndex) -> Option<NodeIndex> {
        opt(self.hot.get(index.get())?.first_child)
    }

    /// The next sibling of the node in slot `index`.
    #[inline]
    pub fn next_sibling_at(&self, index: NodeIndex) -> Option<NodeIndex> {
        opt(self.hot.get(index.get())?.next_sibling)
    }

    /// The type of the node in slot `index`.
    #[inline]
    pub fn type_at(&self, index: NodeIndex) -> Option<NodeType> {
        self.live_at(index).map(|hot| NodeType(hot.ty))
    }

    /// The payload of the node in slot `index`, type-erased.
    pub fn payload_at(&self, index: NodeIndex) -> Option<&dyn NodeCore> {
        self.live_at(index).map(|_| self.payload_raw(index.0))
    }

    /// The payload of the node in slot `index` as a `T` (its own type, or one it extends).
    #[inline]
    pub fn get_at<T: NodeCore>(&self, index: NodeIndex) -> Option<&T> {
        let hot = self.live_at(index)?;
        self.get_typed_raw::<T>(index.0, hot.ty)
    }

    #[inline]
    fn live_at(&self, index: NodeIndex) -> Option<&HotLinks> {
        self.hot.get(index.get()).filter(|hot| hot.ty != FREE)
    }
}

/// Stands in for a payload that cannot be found (a broken invariant).
#[derive(Clone, Debug)]
struct Missing;
impl NodeCore for Missing {}
static MISSING: Missing = Missing;
