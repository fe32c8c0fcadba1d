//! The change log: which nodes were edited since a reader last looked.

use crate::error::GraphError;
use crate::graph::{Graph, NodeId, NodeIndex};
use std::sync::atomic::{AtomicBool, Ordering};

/// What happened to a node, as the graph's change log records it: edits, not their
/// effects (an update that reads it decides what to recompute).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Change {
    /// The node's payload may have changed: it was borrowed mutably
    /// ([`Graph::get_mut`], [`Graph::payload_mut`]) or marked with
    /// [`Graph::mark_changed`].
    Payload(NodeIndex),
    /// The node was added, or moved under another parent (or made a root): everything
    /// inherited from above may have changed for its whole subtree.
    Placed(NodeIndex),
    /// The node lost children (removed or moved away); its own payload and path are
    /// unchanged.
    Children(NodeIndex),
}

impl Change {
    /// The node the change is about; its slot may have been freed or reused since.
    pub fn node(self) -> NodeIndex {
        match self {
            Change::Payload(n) | Change::Placed(n) | Change::Children(n) => n,
        }
    }
}

/// A position in a graph's change log, from [`Graph::change_cursor`]: what a reader has
/// seen. Hand it to [`Graph::changes_since`] to get what happened after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChangeCursor {
    uid: u64,
    position: u64,
}

/// The most recent changes, from absolute position `start` on. Readers take `&Graph`,
/// so nobody knows who read what: the window drops its older half at twice the
/// arena's size. Until the first cursor is taken only positions are counted.
#[derive(Debug, Default)]
pub(crate) struct ChangeLog {
    entries: Vec<Change>,
    start: u64,
    /// Whether a reader has taken a cursor (set through `&Graph`, hence atomic).
    read: AtomicBool,
}

impl Clone for ChangeLog {
    fn clone(&self) -> Self {
        Self {
            entries: self.entries.clone(),
            start: self.start,
            read: AtomicBool::new(self.read.load(Ordering::Relaxed)),
        }
    }
}

const MIN_WINDOW: usize = 4096;

impl ChangeLog {
    /// Appends a change; `slots` (the arena size) bounds the window.
    #[inline]
    pub(crate) fn record(&mut self, change: Change, slots: usize) {
        if !*self.read.get_mut() {
            self.start += 1;
            return;
        }
        // No de-duplication: a reader may have taken a cursor between two borrows.
        let window = slots.saturating_mul(2).max(MIN_WINDOW);
        if self.entries.len() >= window {
            // Amortized: half a window of entries moved per half a window recorded.
            let dropped = self.entries.len() - window / 2;
            self.entries.drain(..dropped);
            self.start += dropped as u64;
        }
        self.entries.push(change);
    }

    pub(crate) fn end(&self) -> u64 {
        self.start + self.entries.len() as u64
    }
}

impl Graph {
    #[inline]
    pub(crate) fn record(&mut self, change: Change) {
        let slots = self.hot.len();
        self.changes.record(change, slots);
    }

    /// Where the change log ends now: a reader keeps this with its results and later
    /// asks [`changes_since`](Graph::changes_since) for what happened after. The first
    /// cursor switches the log on: earlier changes are counted, not kept.
    pub fn change_cursor(&self) -> ChangeCursor {
        self.changes.read.store(true, Ordering::Relaxed);
        ChangeCursor {
            uid: self.uid(),
            position: self.changes.end(),
        }
    }

    /// The changes recorded after `since`, oldest first (a node may appear several
    /// times, and its slot may have been freed since).
    ///
    /// `None` when the log no longer reaches back to `since`, and the reader must
    /// recompute everything: the cursor is of another graph (a clone counts as
    /// another), [`clear_changes`](Graph::clear_changes) ran since, or more changes
    /// came than the log keeps (at least as many as the arena has slots, and at least
    /// 2,048). Every structural edit and mutable payload borrow is recorded; a payload
    /// changed some other way needs [`mark_changed`](Graph::mark_changed).
    pub fn changes_since(&self, since: ChangeCursor) -> Option<&[Change]> {
        if since.uid != self.uid() || since.position < self.changes.start {
            return None;
        }
        let offset = usize::try_from(since.position - self.changes.start).ok()?;
        self.changes.entries.get(offset..)
    }

    /// Records that the node's payload changed without a mutable borrow through the graph.
    pub fn mark_changed(&mut self, id: NodeId) -> Result<(), GraphError> {
        let i = self.check(id)?;
        self.record(Change::Payload(NodeIndex(i)));
        Ok(())
    }

    /// Drops the change log: every cursor taken before answers `None` from
    /// [`changes_since`](Graph::changes_since). Edits that renumber slots call it.
    pub fn clear_changes(&mut self) {
        // The window restarts one past the old end, so no cursor reaches into it.
        self.changes.start += self.changes.entries.len() as u64 + 1;
        self.changes.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug)]
    struct Group;
    impl crate::graph::NodeCore for Group {}

    #[test]
    fn nothing_is_kept_until_a_reader_takes_a_cursor() {
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        for _ in 0..10_000 {
            graph.append_child(root, Group).unwrap();
        }
        assert!(
            graph.changes.entries.is_empty(),
            "a graph nobody reads keeps no log"
        );
        let seen = graph.change_cursor();
        assert_eq!(graph.changes_since(seen), Some(&[][..]));
        let leaf = graph.append_child(root, Group).unwrap();
        assert_eq!(
            graph.changes_since(seen),
            Some(&[Change::Placed(leaf.index())][..])
        );
        assert_eq!(graph.changes.entries.len(), 1);
    }
}
