//! The active list: the candidate nodes an actor may deactivate or give priority keys.

use crate::graph::{Graph, NodeIndex};
use crate::invariant::Invariant;

const ACTIVE: u8 = 1;
const KEYED: u8 = 2;

/// One candidate of the active list, as iterators store it (handing the list to the
/// actors copies nothing).
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

    /// The priority key an actor gave it, if any (a NaN too: the priority iterator
    /// reports it).
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

/// One candidate of an [`ActiveList`], from [`ActiveList::iter_mut`]: it reads as its
/// [`ActiveEntry`]; only its key and activity can change.
#[derive(Debug)]
pub struct Candidate<'a> {
    entry: &'a mut ActiveEntry,
}

impl std::ops::Deref for Candidate<'_> {
    type Target = ActiveEntry;

    #[inline]
    fn deref(&self) -> &ActiveEntry {
        self.entry
    }
}

impl Candidate<'_> {
    /// Drops it from the traversal.
    #[inline]
    pub fn deactivate(&mut self) {
        self.entry.set_active(false);
    }

    /// Gives it a priority key (larger goes first).
    #[inline]
    pub fn set_key(&mut self, key: f32) {
        self.entry.set_key(key);
    }
}

/// Whether a lazily built active list was looked at, and how.
#[doc(hidden)] // the contract between core's lists and the iterators crate's lazy lists
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ListState {
    /// Not built: every child is active, none has a key; walk them by their links.
    #[default]
    Untouched,
    /// Built in the iterator's buffer; read the entries from there.
    Filled,
    /// Every child was deactivated without the list being built.
    Cleared,
}

/// Where the entries of an [`ActiveList`] come from: an iterator's, or a node's
/// children built only if an actor asks.
#[derive(Debug)]
enum Source<'a> {
    Slice(&'a mut [ActiveEntry]),
    Lazy(Lazy<'a>),
}

/// The children of `parent`, built into `buf` from `start`.
#[derive(Debug)]
struct Lazy<'a> {
    graph: &'a Graph,
    parent: NodeIndex,
    depth: u32,
    buf: &'a mut Vec<ActiveEntry>,
    start: usize,
    state: &'a mut ListState,
}

/// The list of active nodes an actor receives with the current node: by default its
/// children in document order (paper 3.1). An actor may deactivate entries and give
/// them priority keys (ignored by depth-first); indices out of range are ignored.
/// Depth-first hands it out lazily: built only when an actor changes it or reads
/// entries by index (`len`, `is_empty` and `active_nodes` read the links).
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
    source: Source<'a>,
}

impl<'a> ActiveList<'a> {
    /// A list over entries an iterator owns.
    #[inline]
    pub fn new(entries: &'a mut [ActiveEntry]) -> Self {
        Self {
            source: Source::Slice(entries),
        }
    }

    /// The children of `parent` (at `depth`), built at the end of `buf` when an actor
    /// first looks; `state` tells the iterator afterwards how it was used.
    #[doc(hidden)] // see `ListState`
    #[inline]
    pub fn lazy(
        graph: &'a Graph,
        parent: NodeIndex,
        depth: u32,
        buf: &'a mut Vec<ActiveEntry>,
        state: &'a mut ListState,
    ) -> Self {
        *state = ListState::Untouched;
        let start = buf.len();
        Self {
            source: Source::Lazy(Lazy {
                graph,
                parent,
                depth,
                buf,
                start,
                state,
            }),
        }
    }

    /// The entries, building a lazy list first.
    #[inline]
    fn slice(&mut self) -> &mut [ActiveEntry] {
        match &mut self.source {
            Source::Slice(entries) => entries,
            Source::Lazy(lazy) => {
                if *lazy.state != ListState::Filled {
                    let active = *lazy.state == ListState::Untouched;
                    let mut child = lazy.graph.first_child_at(lazy.parent);
                    while let Some(c) = child {
                        let mut entry = ActiveEntry::new(c, lazy.depth);
                        entry.set_active(active);
                        lazy.buf.push(entry);
                        child = lazy.graph.next_sibling_at(c);
                    }
                    *lazy.state = ListState::Filled;
                }
                lazy.buf.get_mut(lazy.start..).invariant("a built list")
            }
        }
    }

    /// The candidates as they stand, (node, active, key), without building the list.
    fn peek(&self) -> impl std::iter::Iterator<Item = (NodeIndex, bool, Option<f32>)> + '_ {
        let (entries, lazy): (&[ActiveEntry], _) = match &self.source {
            Source::Slice(entries) => (&entries[..], None),
            Source::Lazy(lazy) => match *lazy.state {
                ListState::Filled => (lazy.buf.get(lazy.start..).invariant("a built list"), None),
                linked => {
                    let (graph, active) = (lazy.graph, linked == ListState::Untouched);
                    (
                        &[][..],
                        Some((graph, graph.first_child_at(lazy.parent), active)),
                    )
                }
            },
        };
        let listed = entries.iter().map(|e| (e.node, e.is_active(), e.key()));
        let linked = lazy.into_iter().flat_map(|(graph, first, active)| {
            std::iter::successors(first, move |&c| graph.next_sibling_at(c))
                .map(move |c| (c, active, None))
        });
        listed.chain(linked)
    }

    /// How many candidates (active or not).
    #[inline]
    pub fn len(&self) -> usize {
        match &self.source {
            Source::Slice(entries) => entries.len(),
            _ => self.peek().count(),
        }
    }

    /// Whether there are no candidates.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.peek().next().is_none()
    }

    /// The entries, read-only (builds a lazy list, so indexed loops stay linear).
    #[inline]
    pub fn entries(&mut self) -> &[ActiveEntry] {
        self.slice()
    }

    /// The nodes still active, in order.
    pub fn active_nodes(&self) -> impl std::iter::Iterator<Item = NodeIndex> + '_ {
        self.peek()
            .filter(|(_, active, _)| *active)
            .map(|(node, _, _)| node)
    }

    /// Drops the `i`th candidate from the traversal.
    #[inline]
    pub fn deactivate(&mut self, i: usize) {
        if let Some(e) = self.slice().get_mut(i) {
            e.set_active(false);
        }
    }

    /// Drops every candidate (without building a lazy list).
    #[inline]
    pub fn deactivate_all(&mut self) {
        if let Source::Lazy(lazy) = &mut self.source
            && *lazy.state == ListState::Untouched
        {
            *lazy.state = ListState::Cleared;
            return;
        }
        for e in self.slice().iter_mut() {
            e.set_active(false);
        }
    }

    /// Keeps only the active candidates for which `keep` says yes.
    pub fn retain(&mut self, mut keep: impl FnMut(NodeIndex) -> bool) {
        for e in self.slice().iter_mut() {
            if e.is_active() && !keep(e.node) {
                e.set_active(false);
            }
        }
    }

    /// Gives the `i`th candidate a priority key (larger goes first).
    #[inline]
    pub fn set_key(&mut self, i: usize, key: f32) {
        if let Some(e) = self.slice().get_mut(i) {
            e.set_key(key);
        }
    }

    /// Every candidate, to set keys or activity in one pass.
    #[inline]
    pub fn iter_mut(&mut self) -> impl std::iter::Iterator<Item = Candidate<'_>> + '_ {
        self.slice().iter_mut().map(|entry| Candidate { entry })
    }
}
