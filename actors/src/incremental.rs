//! The incremental update pass (`docs/architecture.md`, "Incremental update").

use crate::shared::Published;
use crate::skinned::skinned_box;
use crate::{Bounds, PerNode, WorldTransforms};
use scenewalk_core::Invariant;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{
    Aabb, Action, Change, ChangeCursor, Graph, GraphError, NodeId, NodeIndex, Ordered, Results,
    ResultsError, TraversalError, Unordered,
};
use scenewalk_iterators::DepthFirst;
use spans::Spans;
use subtree::{Kinds, Patcher, Types, forget_subtree, rebox};

mod lift;
mod plan;
mod spans;
mod subtree;

/// What one [`IncrementalUpdate::run`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpdateStats {
    /// Whether it recomputed everything (first run, another root or graph, a log
    /// that no longer reaches back, a change at or above the root, non-finite
    /// matrices, or a new type extending `Transform`).
    pub full: bool,
    /// Changes read from the graph's log.
    pub changes: usize,
    /// Subtrees traversed again (those of the topmost changed nodes).
    pub subtrees: usize,
    /// Nodes entered by those traversals (or by the full one).
    pub entered: u64,
    /// Boxes recomputed on the way up from changed nodes to the root (only where a
    /// child's box changed).
    pub ancestors: usize,
}

/// A node's marks in one structural patch: flags, and where `KNOWN` and `INSIDE` are
/// set, its depth below the update root.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    flags: u8,
    depth: u32,
}

/// The flags of `node` in this patch (none if unmarked).
#[inline]
fn flags_of(marks: &PerNode<Mark>, node: NodeIndex) -> u8 {
    marks.get_at(node).map_or(0, |m| m.flags)
}

/// Adds `flags` to `node`'s marks, keeping its depth.
#[inline]
fn mark(marks: &mut PerNode<Mark>, node: NodeIndex, flags: u8) {
    match marks.get_mut_at(node) {
        Some(m) => m.flags |= flags,
        None => marks.set(node, Mark { flags, depth: 0 }),
    }
}

/// The depth below the update root of a node `classify` marked `KNOWN`.
#[inline]
fn depth_of(marks: &PerNode<Mark>, node: NodeIndex) -> u32 {
    marks.get_at(node).map(|m| m.depth).invariant("depth")
}

/// The node's world changed: its subtree is traversed again.
const SUBTREE: u8 = 1;
/// Only the node's children changed: its box (and its ancestors') is recomputed.
const BOX: u8 = 2;
/// `INSIDE`, `COVERED` and the depth are known.
const KNOWN: u8 = 4;
/// The node lies in the update root's subtree.
const INSIDE: u8 = 8;
/// The node or one of its ancestors has `SUBTREE`.
const COVERED: u8 = 16;
/// The node was added or moved: it has no earlier box of its own to compare with.
const PLACED: u8 = 32;

/// World transforms and world bounds of a subtree, kept up to date across edits at a
/// cost that follows the edits rather than the tree; the results equal a full run's.
///
/// The first [`run`](Self::run) is the update pass (`Bounds`, carrying its
/// `WorldTransforms`, under `DepthFirst`). Later runs read the graph's change log
/// ([`Graph::changes_since`]): the subtrees of the topmost changed, added or moved
/// nodes are recomputed from their parent's stored world, then their ancestors' boxes
/// bottom-up while they change; skinned meshes are boxed again every run (their joints
/// may move). Edit through the graph (`get_mut`, or any structural edit); a payload
/// changed without a mutable borrow needs [`Graph::mark_changed`].
///
/// ```
/// use scenewalk_actors::IncrementalUpdate;
/// use scenewalk_core::prelude::*;
/// use scenewalk_nodes::{Geometry, Group, Transform};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let arm = graph.append_child(root, Transform::from_translation(Vec3::X))?;
/// let hand = graph.append_child(arm, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))?;
/// graph.append_child(root, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))?;
///
/// let mut update = IncrementalUpdate::new();
/// assert!(update.run(&graph, root)?.full);
///
/// graph.get_mut::<Transform>(arm)?.set_local(Affine3A::from_translation(Vec3::Y * 5.0));
/// let stats = update.run(&graph, root)?;
/// assert!(!stats.full);
/// assert_eq!((stats.subtrees, stats.entered), (1, 2)); // the arm and the hand
/// assert_eq!(update.world(&graph, hand)?.translation.y, 5.0);
/// assert_eq!(update.world_bounds(&graph, root)?, Aabb::new(Vec3::ZERO, Vec3::new(1.0, 6.0, 1.0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct IncrementalUpdate {
    action: Update,
    /// The root and the log position the results describe.
    seen: Option<(NodeId, ChangeCursor)>,
    marks: PerNode<Mark>,
    /// Nodes re-walked by payload-only patches without the plan since the full run.
    rewalked: u64,
    /// Whether the last full run's spans still hold (no structural patch since).
    spans_valid: bool,
    lifts: lift::Lifts,
    types: Types,
    /// During a patch: the skinned meshes' own boxes.
    skins: Vec<(NodeIndex, Aabb)>,
    /// Each skinned mesh's depth, while `skins_known` (no structural edit since).
    depths: Vec<u32>,
    skins_known: bool,
    /// Runs the update's chain over the changed subtrees, holding the bounds during a
    /// patch (made at the first).
    patcher: Option<Box<Patcher>>,
    scratch: Scratch,
}

/// Buffers of one patch, kept so that the next allocates nothing.
#[derive(Debug, Default)]
struct Scratch {
    /// Nodes named by the changes (structural patches).
    dirty: Vec<NodeIndex>,
    /// The walks up.
    path: Vec<NodeIndex>,
    /// The stack of `replay`.
    open: Vec<plan::Open>,
    /// Payload-only patches: the changed nodes with their spans, and sort keys.
    tops: Vec<(spans::Span, NodeIndex)>,
    keys: Vec<u64>,
    /// The skinned meshes the subtree passes met, and their joints' matrices.
    found: Vec<NodeIndex>,
    joints: Vec<Affine3A>,
}

/// The update action, with its chain.
#[derive(Debug)]
struct Update(Action<DepthFirst, Chain>);
type Chain = (Ordered<Bounds>, Unordered<Spans>);

impl Default for Update {
    #[allow(clippy::unreachable, reason = "both run under DepthFirst (tested)")]
    fn default() -> Self {
        let chain = (
            Ordered::new(Bounds::new()),
            Unordered::new(Spans::default()),
        );
        Self(Action::new(DepthFirst::new(), chain).unwrap_or_else(|err| unreachable!("{err}")))
    }
}

impl IncrementalUpdate {
    /// An update with no results yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings the world transforms and bounds of `root`'s subtree up to date with
    /// `graph`: a patch when the last run was over the same root of the same graph and
    /// its change log still reaches back, else a full run. Errors: a stale `root`.
    pub fn run(&mut self, graph: &Graph, root: NodeId) -> Result<UpdateStats, TraversalError> {
        if !graph.contains(root) {
            return Err(GraphError::StaleNode(root).into());
        }
        let changes = match self.seen {
            Some((seen_root, cursor)) if seen_root == root => graph.changes_since(cursor),
            _ => None,
        };
        match changes.and_then(|changes| self.patch(graph, root, changes)) {
            Some(stats) => Ok(stats),
            None => self.run_full(graph, root),
        }
    }

    /// Recomputes everything under `root`, whatever changed. Errors: a stale `root`.
    pub fn run_full(&mut self, graph: &Graph, root: NodeId) -> Result<UpdateStats, TraversalError> {
        self.spans_valid = false;
        self.skins_known = false;
        self.rewalked = 0;
        let stats = self.action.0.run(graph, root)?;
        self.spans_valid = true;
        self.seen = Some((root, graph.change_cursor()));
        Ok(UpdateStats {
            full: true,
            entered: stats.entered,
            ..UpdateStats::default()
        })
    }

    /// The latest run's [`WorldTable`](crate::WorldTable) and [`BoundsTable`](crate::BoundsTable)
    /// (handles, no copy) for [`Action::run_with`](scenewalk_core::Action::run_with). Drop
    /// them before the next `run`, which then patches in place (a held handle costs a copy).
    pub fn results(&self) -> Results {
        Results::new()
            .with(self.transforms().table())
            .with(self.bounds().table())
    }

    /// The world transform of `node`, checked ([`WorldTable::world`](crate::WorldTable::world)).
    pub fn world(&self, graph: &Graph, node: NodeId) -> Result<Affine3A, ResultsError> {
        self.transforms().table().world(graph, node)
    }

    /// The world box of `node`'s subtree, checked
    /// ([`BoundsTable::world_bounds`](crate::BoundsTable::world_bounds)).
    pub fn world_bounds(&self, graph: &Graph, node: NodeId) -> Result<Aabb, ResultsError> {
        self.bounds().table().world_bounds(graph, node)
    }

    /// The transform nodes whose world matrix is not finite ([`WorldTransforms::non_finite`]).
    pub fn non_finite(&self) -> &[NodeIndex] {
        self.transforms().non_finite()
    }

    pub(crate) fn transforms(&self) -> &WorldTransforms {
        self.bounds().transforms()
    }

    pub(crate) fn bounds(&self) -> &Bounds {
        self.action.0.actors().0.get()
    }

    /// Patches the results for `changes`; `None` when a full run is needed instead.
    fn patch(&mut self, graph: &Graph, root_id: NodeId, changes: &[Change]) -> Option<UpdateStats> {
        if !self.transforms().non_finite().is_empty() {
            // The list of bad matrices is in traversal order; rebuild it whole.
            return None;
        }
        let mut stats = UpdateStats {
            changes: changes.len(),
            ..UpdateStats::default()
        };
        let root = root_id.index();
        // Payload changes alone leave the tree as the last full run numbered it.
        let payloads_only =
            self.spans_valid && changes.iter().all(|c| matches!(c, Change::Payload(_)));
        if !payloads_only {
            self.spans_valid = false;
            self.skins_known = false;
            self.walk_up(graph, root, changes)?;
        }

        // Keep every result (copied if a reader holds them); the passes overwrite the changes.
        let bounds = self.action.0.actor_mut::<Bounds>()?;
        bounds.checkout(true);
        bounds.world.checkout(true);
        if !bounds.resume(graph) {
            return None;
        }
        // The bounds go to the patcher, and always come back.
        let mut patcher = self.patcher.take().unwrap_or_default();
        std::mem::swap(bounds, patcher.bounds_mut()?);
        self.skins = std::mem::take(&mut patcher.bounds_mut()?.skins);
        self.scratch.found.clear();
        // The columns are kept for the passes and let go after them, so the graph's
        // next edit need not copy them.
        self.types.skinned.resolve(graph.types());
        self.types.transforms.keep(graph);
        self.types.geometries.keep(graph);
        let patched = if payloads_only {
            self.patch_payloads(graph, root, changes, &mut patcher, &mut stats)
        } else {
            self.patch_boxes(graph, root, &mut patcher, &mut stats)
        };
        let posed = patched.and_then(|()| self.pose_skins(graph, root, &mut patcher, &mut stats));
        self.types.transforms.release();
        self.types.geometries.release();
        if let Some(patched) = patcher.bounds_mut() {
            patched.skins = std::mem::take(&mut self.skins);
            if let Some(bounds) = self.action.0.actor_mut::<Bounds>() {
                std::mem::swap(bounds, patched);
            }
        }
        self.patcher = Some(patcher);
        posed?;
        let bounds = self.action.0.actor_mut::<Bounds>()?;
        bounds.world.finish_merges();
        bounds.world.publish();
        bounds.publish();
        self.seen = Some((root_id, graph.change_cursor()));
        Some(stats)
    }

    /// Marks the changed nodes: inside the root's subtree, how deep, covered by another;
    /// `None` for a change at or above the root.
    fn walk_up(&mut self, graph: &Graph, root: NodeIndex, changes: &[Change]) -> Option<()> {
        self.marks.begin(graph, root);
        self.scratch.dirty.clear();
        self.collect(graph, changes);
        // In slot order the passes sweep the arrays forward instead of jumping.
        self.scratch.dirty.sort_unstable();
        // A change at or above the root changes everything below it.
        let mut path = graph.path_up(root);
        if path.any(|p| flags_of(&self.marks, p) & SUBTREE != 0) {
            return None;
        }
        self.classify(graph, root);
        Some(())
    }

    /// The subtree passes after `walk_up`, then the ancestors' boxes (`Lifts::run`).
    fn patch_boxes(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        patcher: &mut Patcher,
        stats: &mut UpdateStats,
    ) -> Option<()> {
        self.lifts.clear();
        // Subtrees: topmost changed nodes inside, from their parent's stored world.
        for &node in &self.scratch.dirty {
            let flags = flags_of(&self.marks, node);
            let parent = graph.parent_at(node);
            let depth = depth_of(&self.marks, node) as usize;
            if flags & SUBTREE == 0 {
                if flags & (INSIDE | COVERED) == INSIDE {
                    self.lifts.rebox(depth, node);
                }
                continue;
            }
            if parent.is_some_and(|p| flags_of(&self.marks, p) & COVERED != 0) {
                continue;
            }
            if flags & INSIDE == 0 {
                let bounds = patcher.bounds_mut()?;
                forget_subtree(graph, &mut bounds.world, &mut bounds.boxes, node);
                continue;
            }
            // An added or moved node was no child of its parent: nothing to take out.
            let before = patcher
                .bounds()
                .boxes
                .get_at(node)
                .filter(|_| flags & PLACED == 0);
            let (entered, after) = patcher.run(graph, node)?;
            stats.entered += entered;
            stats.subtrees += 1;
            // A box that came out as it was leaves its ancestors' boxes as they were.
            if before != Some(after) {
                let before = before.unwrap_or(Aabb::EMPTY);
                self.lifts.push(graph, depth - 1, node, before, after);
            }
        }
        let bounds = patcher.bounds_mut()?;
        // The skinned meshes the passes met, boxed after them.
        let found = bounds.skins.drain(..).map(|(node, _)| node);
        self.scratch.found.extend(found);
        let kinds = Kinds::new(graph, &self.types, &self.skins);
        let (world, boxes) = (&bounds.world, &mut bounds.boxes);
        stats.ancestors += self.lifts.run(graph, root, &kinds, world, boxes)?;
        Some(())
    }

    /// Boxes the skinned meshes under the root again (the last run's and those the passes
    /// met) as `Bounds` does, and lifts the changed boxes to the ancestors.
    fn pose_skins(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        patcher: &mut Patcher,
        stats: &mut UpdateStats,
    ) -> Option<()> {
        // Every run, even with no change logged: removing a joint that is a root
        // of the graph logs none.
        if self.skins.is_empty() && self.scratch.found.is_empty() {
            return Some(());
        }
        let mut skins = std::mem::take(&mut self.skins);
        let bounds = patcher.bounds_mut()?;
        let (world, boxes) = (&bounds.world, &mut bounds.boxes);
        let world_at = |j| world.world_at(j);
        if self.skins_known {
            // No structural edit since they were listed: the same meshes, as deep.
            for (node, own) in &mut skins {
                *own = skinned_box(graph, *node, world_at, &mut self.scratch.joints);
            }
        } else {
            skins.extend(self.scratch.found.drain(..).map(|node| (node, Aabb::EMPTY)));
            skins.sort_unstable_by_key(|s| s.0);
            skins.dedup_by_key(|s| s.0);
            self.depths.clear();
            skins.retain_mut(|(node, own)| {
                let skinned = graph
                    .type_at(*node)
                    .is_some_and(|ty| self.types.skinned.contains(ty));
                // Its depth below the root.
                let depth = graph.path_up(*node).position(|n| n == root);
                let Some(depth) = depth.filter(|_| skinned) else {
                    return false; // removed, or no longer under the root
                };
                *own = skinned_box(graph, *node, world_at, &mut self.scratch.joints);
                self.depths.push(depth as u32);
                true
            });
            self.skins_known = true;
        }
        let kinds = Kinds::new(graph, &self.types, &skins);
        self.lifts.clear();
        for (&(node, _), &depth) in skins.iter().zip(&self.depths) {
            let before = boxes.value_at(node)?;
            rebox(graph, &kinds, world, boxes, node);
            let after = boxes.value_at(node)?;
            if before != after && depth > 0 {
                self.lifts
                    .push(graph, depth as usize - 1, node, before, after);
            }
        }
        stats.ancestors += self.lifts.run(graph, root, &kinds, world, boxes)?;
        self.skins = skins;
        Some(())
    }

    /// Marks the live nodes the changes name, each listed once in `dirty`.
    fn collect(&mut self, graph: &Graph, changes: &[Change]) {
        for change in changes {
            let node = change.node();
            if graph.type_at(node).is_none() {
                continue; // removed since; its parent was recorded too
            }
            let flags = match change {
                Change::Children(_) => BOX,
                Change::Placed(_) => SUBTREE | PLACED,
                _ => SUBTREE,
            };
            if flags_of(&self.marks, node) & (SUBTREE | BOX) == 0 {
                self.scratch.dirty.push(node);
            }
            mark(&mut self.marks, node, flags);
        }
    }

    /// Marks every changed node and its ancestors `KNOWN`, each walked once per run.
    fn classify(&mut self, graph: &Graph, root: NodeIndex) {
        let marks = &mut self.marks;
        for &start in &self.scratch.dirty {
            let mut node = start;
            self.scratch.path.clear();
            // (inside, covered, depth) of the node above the path: the first known one;
            // above the root, whose depth 0 comes next; or none (outside).
            let (inside, mut covered, mut depth) = loop {
                let flags = flags_of(marks, node);
                if flags & KNOWN != 0 {
                    break (
                        flags & INSIDE != 0,
                        flags & COVERED != 0,
                        depth_of(marks, node),
                    );
                }
                self.scratch.path.push(node);
                if node == root {
                    break (true, false, u32::MAX);
                }
                match graph.parent_at(node) {
                    Some(parent) => node = parent,
                    None => break (false, false, 0),
                }
            };
            for &node in self.scratch.path.iter().rev() {
                depth = depth.wrapping_add(1);
                let flags = flags_of(marks, node);
                covered |= flags & SUBTREE != 0;
                let bits =
                    KNOWN | if inside { INSIDE } else { 0 } | if covered { COVERED } else { 0 };
                marks.set(
                    node,
                    Mark {
                        flags: flags | bits,
                        depth,
                    },
                );
            }
        }
    }
}
