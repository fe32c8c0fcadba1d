//! Per-tile state kept from frame to frame, in an array indexed by node slot.

use scenewalk_core::NodeId;
use std::sync::Arc;

/// Where a load stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LoadState {
    /// Not asked for (or unloaded).
    #[default]
    Unloaded,
    /// Handed to the loader, not back yet.
    Loading,
    /// In memory.
    Loaded,
    /// The loader failed (reported once; not asked again).
    Failed,
}

/// What the selection keeps about one tile between frames.
#[derive(Clone, Debug, Default)]
pub struct TileState {
    /// The node the state belongs to; a slot reused by another node starts afresh.
    pub(crate) id: Option<NodeId>,
    /// The tile's contents.
    pub content: LoadState,
    /// Bytes its contents hold.
    pub content_bytes: u64,
    /// The contents' bytes, when the loader returned them.
    pub(crate) data: Option<Arc<[u8]>>,
    /// The external tileset or subtree file the tile waits for before it has children.
    pub structure: LoadState,
    /// Bytes that file holds.
    pub structure_bytes: u64,
    /// The last frame the tile was visited or needed (least recently used unloads first).
    pub last_used: u64,
    /// The frame it was last entered.
    pub(crate) visited: u64,
    /// Whether it refined in its latest visit.
    pub(crate) refined: bool,
    /// Whether it (or what replaces it) can be shown without a hole (its latest visit).
    pub(crate) ready: bool,
    /// What its subtree shows this frame, once it has left.
    pub(crate) shown: Shown,
    /// Its screen-space error, as its parent computed it for its key in `sse_frame`.
    pub(crate) sse: f64,
    pub(crate) sse_frame: u64,
}

impl TileState {
    /// Bytes the tile holds.
    pub fn bytes(&self) -> u64 {
        self.content_bytes + self.structure_bytes
    }
}

/// A list of shown tiles, linked through [`TileRefine`](super::TileRefine)'s links:
/// each tile's subtree's list is spliced into its parent's as it leaves (O(1)), and a
/// tile that kicks its descendants drops its list whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shown {
    pub(crate) head: u32,
    pub(crate) tail: u32,
    pub(crate) len: u32,
}

impl Shown {
    /// `a` then `b`, linking `a`'s last entry to `b`'s first.
    pub(crate) fn join(
        links: &mut [(scenewalk_core::NodeIndex, u32)],
        a: Shown,
        b: Shown,
    ) -> Shown {
        if a.len == 0 {
            return b;
        }
        if b.len == 0 {
            return a;
        }
        if let Some(last) = links.get_mut(a.tail as usize) {
            last.1 = b.head;
        }
        Shown {
            head: a.head,
            tail: b.tail,
            len: a.len + b.len,
        }
    }
}

/// The state table: grown to the graph's capacity, reset where a slot changed owner.
#[derive(Clone, Debug, Default)]
pub(crate) struct States(pub(crate) Vec<TileState>);

impl States {
    pub(crate) fn grow(&mut self, capacity: usize) {
        if self.0.len() < capacity {
            self.0.resize(capacity, TileState::default());
        }
    }

    /// The state of `id`, reset first if its slot belonged to another node.
    pub(crate) fn of(&mut self, id: NodeId) -> Option<&mut TileState> {
        let state = self.0.get_mut(id.index().get())?;
        if state.id != Some(id) {
            *state = TileState {
                id: Some(id),
                ..TileState::default()
            };
        }
        Some(state)
    }

    /// The state of `id` if it is its own (not a previous owner's).
    pub(crate) fn get(&self, id: NodeId) -> Option<&TileState> {
        self.0.get(id.index().get()).filter(|s| s.id == Some(id))
    }
}
