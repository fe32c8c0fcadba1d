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
        let (Some(r), Some(p), Some(d), Some(f)) = (
            self.remaining.get_mut(i),
            self.parent.get_mut(i),
            self.depth.get_mut(i),
            self.frame.get_mut(i),
        ) else {
            return;
        };
        (*r, *p, *d, *f) = (children, parent.map_or(NIL, NodeIndex::raw), depth, frame);
        if children == 0 {
            self.close(i);
        }
    }

    /// Queues the leave of slot `i`, and of each ancestor it was the last open child of.
    fn close(&mut self, mut i: usize) {
        loop {
            let (Some(&depth), Some(&frame), Some(&p)) =
                (self.depth.get(i), self.frame.get(i), self.parent.get(i))
            else {
                return;
            };
            self.ready
                .push_back((NodeIndex::new(i as u32), depth, frame));
            if p == NIL {
                return;
            }
            let Some(remaining) = self.remaining.get_mut(p as usize) else {
                return;
            };
            *remaining = remaining.saturating_sub(1);
            if *remaining != 0 {
                return;
            }
            i = p as usize;
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
