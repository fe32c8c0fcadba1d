//! Leave events for orders that are not depth-first: a node leaves once every child it
//! kept has left, whatever order they were taken in.

use scenewalk_core::{Frame, NodeIndex};
use std::collections::VecDeque;

/// An entered node: its kept children still open, its traversal parent, its leave.
#[derive(Clone, Copy, Debug)]
struct Open {
    remaining: u32,
    parent: Option<NodeIndex>,
    depth: u32,
    frame: Frame,
}

/// The entered nodes by slot (reused across runs) and the leaves due, in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct LeaveTracker {
    open: Vec<Open>,
    ready: VecDeque<(NodeIndex, u32, Frame)>,
}

impl LeaveTracker {
    pub(crate) fn start(&mut self, capacity: usize) {
        let closed = Open {
            remaining: 0,
            parent: None,
            depth: 0,
            frame: Frame::ROOT,
        };
        if self.open.len() < capacity {
            self.open.resize(capacity, closed);
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
        if let Some(open) = self.open.get_mut(node.get()) {
            *open = Open {
                remaining: children,
                parent,
                depth,
                frame,
            };
            if children == 0 {
                self.close(node);
            }
        }
    }

    /// Queues the leave of `node`, and of each ancestor it was the last open child of.
    fn close(&mut self, mut node: NodeIndex) {
        while let Some(&open) = self.open.get(node.get()) {
            self.ready.push_back((node, open.depth, open.frame));
            let Some(parent) = open.parent else {
                return;
            };
            let Some(up) = self.open.get_mut(parent.get()) else {
                return;
            };
            up.remaining = up.remaining.saturating_sub(1);
            if up.remaining != 0 {
                return;
            }
            node = parent;
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
