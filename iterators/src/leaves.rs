//! Leave events for orders that are not depth-first: a node leaves once every child it
//! kept has left, whatever order they were taken in.

use scenewalk_core::{Frame, NodeIndex};
use std::collections::VecDeque;

const NIL: u32 = u32::MAX;

/// Per entered node: how many kept children are still open, its traversal parent and
/// the frame its leave carries. Arrays indexed by slot, reused across runs.
#[derive(Clone, Debug, Default)]
pub(crate) struct LeaveTracker {
    remaining: Vec<u32>,
    parent: Vec<u32>,
    depth: Vec<u32>,
    frame: Vec<Frame>,
    ready: VecDeque<(NodeIndex, u32, Frame)>,
}

impl LeaveTracker {
    pub(crate) fn start(&mut self, capacity: usize) {
        if self.remaining.len() < capacity {
            self.remaining.resize(capacity, 0);
            self.parent.resize(capacity, NIL);
            self.depth.resize(capacity, 0);
            self.frame.resize(capacity, Frame::ROOT);
        }
        self.ready.clear();
    }

    /// `node` (entered from `parent`) kept `children`; with none it leaves at once.
    pub(crate) fn entered(
        &mut self,
        node: NodeIndex,
        parent: Option<NodeIndex>,
        depth: u32,
        children: u32,
        frame: Frame,
    ) {
        let i = node.get();
        if i >= self.remaining.len() {
            return;
        }
        self.remaining[i] = children;
        self.parent[i] = parent.map_or(NIL, NodeIndex::raw);
        self.depth[i] = depth;
        self.frame[i] = frame;
        if children == 0 {
            self.close(i);
        }
    }

    /// Queues the leave of slot `i`, and of each ancestor it was the last open child of.
    fn close(&mut self, mut i: usize) {
        loop {
            self.ready
                .push_back((NodeIndex::new(i as u32), self.depth[i], self.frame[i]));
            let p = self.parent[i];
            if p == NIL {
                return;
            }
            let p = p as usize;
            self.remaining[p] = self.remaining[p].saturating_sub(1);
            if self.remaining[p] != 0 {
                return;
            }
            i = p;
        }
    }

    /// The next queued leave, children before parents.
    pub(crate) fn pop_ready(&mut self) -> Option<(NodeIndex, u32, Frame)> {
        self.ready.pop_front()
    }

    pub(crate) fn clear(&mut self) {
        self.ready.clear();
    }
}
