//! Pre-order spans of the last full run, and the patch they allow when only payloads
//! changed: no walk up to learn what lies inside what.

use super::IncrementalUpdate;
use super::subtree::{Kinds, rebox, rewalk};
use crate::{PerNode, WorldTransforms};
use scenewalk_core::{
    Aabb, ActiveList, Change, Events, Flow, Graph, NodeIndex, RunContext, UnorderedActor, Visit,
};

/// A node's pre-order number in the full run and the number after its subtree, with
/// the run that wrote them: value and stamp in one record, so a lookup is one miss.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    run: u32,
    pre: u32,
    end: u32,
}

/// Numbers the nodes of a full run in pre-order. Node `b` lies in `a`'s subtree exactly when
/// `a.pre <= b.pre < a.end`, which the update reads instead of walking up.
#[derive(Clone, Debug, Default)]
pub(super) struct Spans {
    spans: Vec<Span>,
    run: u32,
    next: u32,
}

impl Spans {
    /// `(pre, end)` of the node in slot `node` if the latest run reached it.
    #[inline]
    pub(super) fn get(&self, node: NodeIndex) -> Option<(u32, u32)> {
        match self.spans.get(node.get()) {
            Some(s) if s.run == self.run && self.run != 0 => Some((s.pre, s.end)),
            _ => None,
        }
    }
}

// Unordered in the trait's terms (no state handed down), though the numbers follow
// the traversal's order: the update runs it under `DepthFirst` only, one node after
// another, and as an ordered actor (with a `()` state) it made the full run 6–30 %
// slower in three back-to-back pairs; unordered, no slowdown showed.
impl UnorderedActor for Spans {
    const EVENTS: Events = Events::EnterLeave;

    fn begin(&mut self, run: &RunContext<'_>) {
        if self.spans.len() < run.graph.capacity() {
            self.spans.resize(run.graph.capacity(), Span::default());
        }
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.spans.iter_mut().for_each(|s| s.run = 0);
            self.run = 1;
        }
        self.next = 0;
    }

    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        if let Some(s) = self.spans.get_mut(visit.node().get()) {
            *s = Span {
                run: self.run,
                pre: self.next,
                end: self.next,
            };
        }
        self.next = self.next.wrapping_add(1);
        Flow::Continue
    }

    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if let Some(s) = self.spans.get_mut(visit.node().get()) {
            s.end = self.next;
        }
    }
}

impl IncrementalUpdate {
    /// The patch when every change is a payload change and the spans of the last
    /// full run still describe the tree (no structural edit since): a changed node is
    /// inside the root's subtree when the full run numbered it, and covered when it
    /// lies in the span of an earlier one in pre-order, so the changed nodes are
    /// sorted once instead of each walking up to the root. Boxes on the way up are
    /// recomputed from a queue in decreasing pre-order (children before parents),
    /// and only while they change.
    ///
    /// `None` when a full run is needed (a change at or above the root, a non-finite
    /// matrix).
    pub(super) fn patch_payloads(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        changes: &[Change],
        boxes: &mut PerNode<Aabb>,
        stats: &mut super::UpdateStats,
    ) -> Option<()> {
        let spans = self.action.actors().2.get();
        self.tops.clear();
        let mut outside = false;
        for change in changes {
            let node = change.node();
            match spans.get(node) {
                Some((pre, end)) => self.tops.push((pre, end, node)),
                None => outside = true,
            }
        }
        if outside {
            // A change above the root changes everything below it; elsewhere it
            // changes nothing here.
            let mut up = graph.parent_at(root);
            self.path.clear();
            while let Some(p) = up {
                self.path.push(p);
                up = graph.parent_at(p);
            }
            self.path.sort_unstable();
            if changes
                .iter()
                .any(|c| self.path.binary_search(&c.node()).is_ok())
            {
                return None;
            }
        }
        self.tops.sort_unstable_by_key(|&(pre, _, _)| pre);
        if self.tops.first().is_some_and(|&(pre, _, _)| pre == 0) {
            return None; // the root itself
        }

        self.transform_types.resolve(graph.types());
        self.geometry_types.resolve(graph.types());
        let kinds = Kinds {
            transforms: &self.transform_types,
            geometries: &self.geometry_types,
            transform: graph.payloads(),
            geometry: graph.payloads(),
        };
        let mut covered_until = 0;
        self.queue.clear();
        let tops = std::mem::take(&mut self.tops);
        let mut result = Some(());
        for &(pre, end, node) in &tops {
            if pre < covered_until {
                continue; // inside a subtree walked already (or listed twice)
            }
            covered_until = end;
            let Some(parent) = graph.parent_at(node) else {
                result = None;
                break;
            };
            let Some(world) = self.action.actor_mut::<WorldTransforms>() else {
                result = None;
                break;
            };
            let Some(above) = world.world.get_at(parent) else {
                result = None;
                break;
            };
            let before = boxes.get_at(node);
            let Some((entered, after)) =
                rewalk(graph, &kinds, world, boxes, &mut self.frames, node, above)
            else {
                result = None;
                break;
            };
            stats.entered += entered;
            stats.subtrees += 1;
            if before != Some(after)
                && let Some((parent_pre, _)) = self.action.actors().2.get().get(parent)
            {
                self.queue.push((parent_pre, parent));
            }
        }
        self.tops = tops;
        result?;

        let world = self.action.actors().0.get();
        let spans = self.action.actors().2.get();
        let mut last = None;
        while let Some((_, node)) = self.queue.pop() {
            if last == Some(node) {
                continue;
            }
            last = Some(node);
            stats.ancestors += 1;
            if rebox(graph, &kinds, world, boxes, node)
                && node != root
                && let Some(parent) = graph.parent_at(node)
                && let Some((pre, _)) = spans.get(parent)
            {
                self.queue.push((pre, parent));
            }
        }
        Some(())
    }
}
