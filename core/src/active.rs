//! The active list: the candidate nodes an actor may deactivate or give priority keys.

use crate::NodeIndex;

const ACTIVE: u8 = 1;
const KEYED: u8 = 2;
/// Set by iterators on entries that are not candidates (e.g. a pending leave event).
const MARKER: u8 = 4;

/// One candidate of the active list. Iterators store these directly in their pending
/// structures, so handing the list to the actors copies nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActiveEntry {
    node: NodeIndex,
    depth: u32,
    key: f32,
    flags: u8,
}

impl ActiveEntry {
    /// An active, unkeyed candidate.
    #[inline]
    pub fn new(node: NodeIndex, depth: u32) -> Self {
        Self {
            node,
            depth,
            key: 0.0,
            flags: ACTIVE,
        }
    }

    /// A non-candidate entry an iterator keeps among candidates (such as the pending
    /// leave of `node`); never shown as active.
    #[inline]
    pub fn marker(node: NodeIndex, depth: u32) -> Self {
        Self {
            node,
            depth,
            key: 0.0,
            flags: MARKER,
        }
    }

    /// The candidate node.
    #[inline]
    pub fn node(&self) -> NodeIndex {
        self.node
    }

    /// Its depth below the traversal root.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether it will be traversed.
    #[inline]
    pub fn is_active(&self) -> bool {
        self.flags & ACTIVE != 0
    }

    /// Whether this is an iterator's marker rather than a candidate.
    #[inline]
    pub fn is_marker(&self) -> bool {
        self.flags & MARKER != 0
    }

    /// The priority key an actor gave it, if any. NaN keys are stored as given; the
    /// priority iterator reports them as errors.
    #[inline]
    pub fn key(&self) -> Option<f32> {
        (self.flags & KEYED != 0).then_some(self.key)
    }

    /// Sets the key.
    #[inline]
    pub fn set_key(&mut self, key: f32) {
        self.key = key;
        self.flags |= KEYED;
    }

    /// Marks it for traversal or not.
    #[inline]
    pub fn set_active(&mut self, active: bool) {
        if active {
            self.flags |= ACTIVE;
        } else {
            self.flags &= !ACTIVE;
        }
    }
}

/// The list of active nodes an actor receives with the current node: by default the
/// node's children in document order (paper 3.1).
///
/// An actor may deactivate entries (they are not traversed) and give entries priority
/// keys (used by the priority iterator, ignored by depth-first). Indices out of range
/// are ignored, never a panic.
///
/// ```
/// use scenewalk_core::{ActiveEntry, ActiveList, NodeIndex};
/// # fn demo(active: &mut ActiveList<'_>) {
/// active.retain(|node| node.get() % 2 == 0); // cull odd slots
/// for i in 0..active.len() {
///     active.set_key(i, i as f32);
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct ActiveList<'a> {
    entries: &'a mut [ActiveEntry],
}

impl<'a> ActiveList<'a> {
    /// A list over entries an iterator owns.
    #[inline]
    pub fn new(entries: &'a mut [ActiveEntry]) -> Self {
        Self { entries }
    }

    /// How many candidates (active or not).
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no candidates.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `i`th candidate's node.
    #[inline]
    pub fn node(&self, i: usize) -> Option<NodeIndex> {
        self.entries.get(i).map(|e| e.node)
    }

    /// The entries, read-only.
    #[inline]
    pub fn entries(&self) -> &[ActiveEntry] {
        self.entries
    }

    /// The nodes still active, in order.
    pub fn active_nodes(&self) -> impl std::iter::Iterator<Item = NodeIndex> + '_ {
        self.entries
            .iter()
            .filter(|e| e.is_active())
            .map(|e| e.node)
    }

    /// How many candidates are still active.
    pub fn active_count(&self) -> usize {
        self.entries.iter().filter(|e| e.is_active()).count()
    }

    /// Whether the `i`th candidate is active.
    #[inline]
    pub fn is_active(&self, i: usize) -> bool {
        self.entries.get(i).is_some_and(|e| e.is_active())
    }

    /// Drops the `i`th candidate from the traversal.
    #[inline]
    pub fn deactivate(&mut self, i: usize) {
        if let Some(e) = self.entries.get_mut(i) {
            e.set_active(false);
        }
    }

    /// Drops every candidate.
    #[inline]
    pub fn deactivate_all(&mut self) {
        for e in self.entries.iter_mut() {
            e.set_active(false);
        }
    }

    /// Keeps only the active candidates for which `keep` says yes.
    pub fn retain(&mut self, mut keep: impl FnMut(NodeIndex) -> bool) {
        for e in self.entries.iter_mut() {
            if e.is_active() && !keep(e.node) {
                e.set_active(false);
            }
        }
    }

    /// Gives the `i`th candidate a priority key (larger goes first).
    #[inline]
    pub fn set_key(&mut self, i: usize, key: f32) {
        if let Some(e) = self.entries.get_mut(i) {
            e.set_key(key);
        }
    }

    /// The `i`th candidate's key, if one was set.
    #[inline]
    pub fn key(&self, i: usize) -> Option<f32> {
        self.entries.get(i).and_then(|e| e.key())
    }

    /// The entries, mutable (to set keys or activity in one pass).
    #[inline]
    pub fn entries_mut(&mut self) -> &mut [ActiveEntry] {
        self.entries
    }
}
