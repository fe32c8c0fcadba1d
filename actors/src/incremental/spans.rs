//! Pre-order spans of the last full run, and the patch when only payloads changed.

use super::IncrementalUpdate;
use super::plan::{self, Plan};
use super::subtree::{Kinds, Patcher};
use crate::Bounds;
use scenewalk_core::{
    ActiveList, Change, Events, Flow, Graph, NodeIndex, RunContext, TraversalError, UnorderedActor,
    Visit,
};

/// A node's pre-order number in the full run, the number after its subtree, its depth
/// below the run's root, and the run that wrote them (one 16-byte record, one miss).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Span {
    run: u32,
    pub(super) pre: u32,
    pub(super) end: u32,
    pub(super) depth: u32,
}

/// Numbers the nodes of a full run in pre-order: `b` lies in `a`'s subtree exactly
/// when `a.pre <= b.pre < a.end`.
#[derive(Clone, Debug, Default)]
pub(super) struct Spans {
    spans: Vec<Span>,
    run: u32,
    /// The next pre-order number: how many nodes the latest run numbered.
    pub(super) count: u32,
    /// The same run's patch plan, built by the patches (`Plan::build`).
    pub(super) plan: Plan,
}

impl Spans {
    /// The slots of the latest run's nodes with their spans, in slot order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (NodeIndex, Span)> + '_ {
        let nodes = (0..self.spans.len() as u32).map(NodeIndex::new);
        nodes.filter_map(|node| Some((node, self.get(node)?)))
    }

    /// The span of the node in slot `node` if the latest run reached it.
    #[inline]
    pub(super) fn get(&self, node: NodeIndex) -> Option<Span> {
        match self.spans.get(node.get()) {
            Some(&s) if s.run == self.run && self.run != 0 => Some(s),
            _ => None,
        }
    }
}

// Unordered in the trait's terms though the numbers follow the order: the update runs
// it under `DepthFirst` only, and needs no state of the framework's.
impl UnorderedActor for Spans {
    const EVENTS: Events = Events::EnterLeave;

    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), TraversalError> {
        if self.spans.len() < run.graph.capacity() {
            self.spans.resize(run.graph.capacity(), Span::default());
        }
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.spans.iter_mut().for_each(|s| s.run = 0);
            self.run = 1;
        }
        self.count = 0;
        self.plan.built = false;
        Ok(())
    }

    #[inline]
    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        if let Some(s) = self.spans.get_mut(visit.node().get()) {
            *s = Span {
                run: self.run,
                pre: self.count,
                end: self.count,
                depth: visit.depth(),
            };
        }
        self.count = self.count.wrapping_add(1);
        Flow::Continue
    }

    #[inline]
    fn leave(&mut self, visit: &Visit<'_>) {
        if let Some(s) = self.spans.get_mut(visit.node().get()) {
            s.end = self.count;
        }
    }
}

impl IncrementalUpdate {
    /// The patch when every change is a payload change and the spans still hold: a
    /// changed node is inside when the full run numbered it and covered when it lies
    /// in an earlier one's span, so the changes are sorted instead of walked up. No
    /// state changes: only matrices and boxes are rewritten, replayed from the plan
    /// once built, else by the update's chain. `None` when a full run is needed.
    #[inline(never)] // one call per update; kept apart for profiles
    pub(super) fn patch_payloads(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        changes: &[Change],
        patcher: &mut Patcher,
        stats: &mut super::UpdateStats,
    ) -> Option<()> {
        let spans = self.action.0.actors().1.get();
        // Sorted as one integer each (pre-order number, then slot): a quarter of the
        // moves and cheaper compares than sorting the records.
        self.scratch.keys.clear();
        let mut outside = false;
        for change in changes {
            let node = change.node();
            match spans.get(node) {
                Some(span) => self
                    .scratch
                    .keys
                    .push(u64::from(span.pre) << 32 | u64::from(node.raw())),
                None => outside = true,
            }
        }
        if outside {
            // A change above the root changes everything below it; elsewhere it
            // changes nothing here.
            self.scratch.path.clear();
            self.scratch.path.extend(graph.path_up(root).skip(1));
            self.scratch.path.sort_unstable();
            if changes
                .iter()
                .any(|c| self.scratch.path.binary_search(&c.node()).is_ok())
            {
                return None;
            }
        }
        self.scratch.keys.sort_unstable();
        self.scratch.tops.clear();
        self.scratch
            .tops
            .extend(self.scratch.keys.iter().filter_map(|&key| {
                let node = NodeIndex::new(key as u32);
                spans.get(node).map(|span| (span, node))
            }));
        if self
            .scratch
            .tops
            .first()
            .is_some_and(|(span, _)| span.pre == 0)
        {
            return None; // the root itself
        }

        // The topmost changed nodes: those not inside an earlier one's span.
        let mut covered_until = 0;
        self.scratch.tops.retain(|&(span, _)| {
            let top = span.pre >= covered_until;
            if top {
                covered_until = span.end;
            }
            top
        });
        self.lifts.clear();
        // The plan leaves the `Spans` actor, to be read beside the matrices; it always goes back.
        let mut plan = std::mem::take(&mut self.action.0.actor_mut::<Spans>()?.plan);
        if !plan.built {
            // Building costs about 40 % of a full run: built once the patches re-walked a
            // third of the tree, it costs at most twice the best choice in hindsight.
            let spans = self.action.0.actors().1.get();
            let nodes: u64 = self
                .scratch
                .tops
                .iter()
                .map(|(s, _)| u64::from(s.end.saturating_sub(s.pre)))
                .sum();
            self.rewalked = self.rewalked.saturating_add(nodes);
            if self.rewalked >= u64::from(spans.count / 3) {
                plan.build(graph, spans, patcher.bounds().transforms(), &self.types);
            }
        }
        let usable = plan.usable(graph).then_some(&plan);
        let patched = self.patch_tops(graph, usable, patcher, stats);
        if let Some(spans) = self.action.0.actor_mut::<Spans>() {
            spans.plan = plan;
        }
        patched?;

        let bounds = patcher.bounds_mut()?;
        // The skinned meshes the passes met: the full run listed them already.
        bounds.skins.clear();
        let kinds = Kinds::new(graph, &self.types, &self.skins);
        let (world, boxes) = (&bounds.world, &mut bounds.boxes);
        stats.ancestors += self.lifts.run(graph, root, &kinds, world, boxes)?;
        Some(())
    }

    /// The subtree passes of a payload-only patch, from the plan if given, else by the
    /// update's chain (`BATCH` warmed at a time); parents of changed boxes go to `lifts`.
    fn patch_tops(
        &mut self,
        graph: &Graph,
        plan: Option<&Plan>,
        patcher: &mut Patcher,
        stats: &mut super::UpdateStats,
    ) -> Option<()> {
        let kinds = &Kinds::new(graph, &self.types, &self.skins);
        let (tops, lifts, open) = (&self.scratch.tops, &mut self.lifts, &mut self.scratch.open);
        let mut done = |span: Span, node, before, (entered, after): (u64, _)| {
            stats.entered += entered;
            stats.subtrees += 1;
            // A box that came out as it was leaves its ancestors' boxes as they were.
            if before != after {
                let level = span.depth.saturating_sub(1) as usize;
                lifts.push(graph, level, node, before, after);
            }
        };
        if let Some(plan) = plan {
            let Bounds { world, boxes, .. } = patcher.bounds_mut()?;
            for &(span, node) in tops {
                let before = boxes.value_at(node)?;
                let steps = plan.steps(span.pre, span.end)?;
                if steps.first()?.node() != node {
                    return None;
                }
                let above = plan::state_above(steps, graph, &world.world)?;
                let matrices = &mut world.matrices;
                let after = plan::replay(graph, steps, above, kinds, matrices, boxes, open)?;
                done(span, node, before, (steps.len() as u64, after));
            }
            return Some(());
        }
        for batch in tops.chunks(BATCH) {
            warm(graph, kinds, patcher.bounds(), batch);
            for &(span, node) in batch {
                let before = patcher.bounds().boxes.value_at(node)?;
                done(span, node, before, patcher.run(graph, node)?);
            }
        }
        Some(())
    }
}

/// Subtrees warmed up together.
const BATCH: usize = 16;

/// Loads what the passes of `tops` start from, all first, so their cache misses overlap.
fn warm(graph: &Graph, kinds: &Kinds<'_>, bounds: &Bounds, tops: &[(Span, NodeIndex)]) {
    let (world, boxes) = (bounds.transforms(), &bounds.boxes);
    let mut sum = 0u32;
    // The node's links, state and box: addresses known from the list.
    for &(_, node) in tops {
        sum = sum
            .wrapping_add(graph.first_child_at(node).map_or(0, NodeIndex::raw))
            .wrapping_add(world.world.value_at(node).unwrap_or(0))
            .wrapping_add(boxes.value_at(node).map_or(0, |b| b.min.x.to_bits()));
    }
    // Then what those lead to: the payload and the matrices.
    for &(_, node) in tops {
        let Some(state) = world.world.value_at(node) else {
            continue;
        };
        let mut above = state;
        if let Some(ty) = graph.type_at(node)
            && let Some(local) = kinds.local(graph, node, ty)
        {
            sum = sum
                .wrapping_add(local.translation.x.to_bits())
                .wrapping_add(world.matrices.get(state).translation.x.to_bits());
            above = graph
                .parent_at(node)
                .and_then(|p| world.world.value_at(p))
                .unwrap_or(state);
        }
        sum = sum.wrapping_add(world.matrices.get(above).translation.x.to_bits());
        // The children (in a tree built depth first, most of a small subtree).
        for c in graph.children_at(node) {
            if let Some(ty) = graph.type_at(c)
                && let Some(g) = kinds.geometry(graph, c, ty)
            {
                sum = sum.wrapping_add(g.local_bounds().min.x.to_bits());
            }
            sum = sum
                .wrapping_add(world.world.value_at(c).unwrap_or(0))
                .wrapping_add(boxes.value_at(c).map_or(0, |b| b.min.x.to_bits()));
        }
    }
    std::hint::black_box(sum);
}
