//! The incremental update pass: world transforms and bounds brought up to date after
//! edits by re-traversing only what the edits reach.

use crate::{Bounds, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{
    Aabb, Action, Change, ChangeCursor, Graph, GraphError, NodeId, NodeIndex, Ordered,
    TraversalError,
};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Geometry;

/// The update action's chain.
type UpdateAction = Action<DepthFirst, (Ordered<WorldTransforms>, Ordered<Bounds>)>;

/// What one [`IncrementalUpdate::run`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UpdateStats {
    /// Whether it recomputed everything (first run, another root or graph, a log
    /// that no longer reaches back, a change above the root, non-finite matrices, or
    /// too many matrices left over from earlier patches).
    pub full: bool,
    /// Changes read from the graph's log.
    pub changes: usize,
    /// Subtrees traversed again (the topmost changed nodes; nested ones are inside).
    pub subtrees: usize,
    /// Nodes entered by those traversals (or by the full one).
    pub entered: u64,
    /// Boxes recomputed on the way up from changed nodes to the root (only where a
    /// child's box changed).
    pub ancestors: usize,
}

/// Per-slot bookkeeping of one incremental run, valid when `epoch` is the run's.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    epoch: u32,
    flags: u8,
    depth: u32,
}

/// The node's world changed: its subtree is traversed again.
const SUBTREE: u8 = 1;
/// Only the node's children changed: its box (and its ancestors') is recomputed.
const BOX: u8 = 2;
/// `INSIDE`, `COVERED` and `depth` are known.
const KNOWN: u8 = 4;
/// The node lies in the update root's subtree.
const INSIDE: u8 = 8;
/// The node or one of its ancestors has `SUBTREE`.
const COVERED: u8 = 16;
/// The node was added or moved: it has no earlier box of its own to compare with.
const PLACED: u8 = 32;
/// A child's box (or the set of children) changed: the node's box is recomputed.
const STALE: u8 = 64;

/// World transforms and world bounds of a subtree, kept up to date across edits at a
/// cost that follows the edits rather than the tree.
///
/// The first [`run`](Self::run) is the update pass (`WorldTransforms` and `Bounds`
/// under `DepthFirst`). Later runs read the graph's change log
/// ([`Graph::changes_since`]): every edit and every mutable payload borrow is in it.
/// A node whose payload changed or that was added or moved starts a subtree whose
/// world matrices and boxes are recomputed by running the same action from that node
/// (the topmost such nodes only, starting from the parent's stored world); then the
/// boxes of their ancestors are recomputed bottom-up, each from its own geometry and
/// its children's stored boxes. The results equal a full run's.
///
/// Edit through the graph (`graph.get_mut::<Transform>(id)?.set_local(m)`, or any
/// structural edit), then call `run` again with the same root; a payload changed
/// without a mutable borrow (interior mutability) needs [`Graph::mark_changed`].
/// `examples/examples/incremental.rs` animates a 200,000-node scene this way; the
/// costs are in `docs/benchmarks.md`.
///
/// ```
/// use scenewalk_actors::IncrementalUpdate;
/// use scenewalk_core::{Aabb, Graph, glam::{Affine3A, Vec3}};
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
/// assert_eq!(update.world(&graph, hand).unwrap().translation.y, 5.0);
/// assert_eq!(
///     update.world_bounds(&graph, root),
///     Some(Aabb::new(Vec3::ZERO, Vec3::new(1.0, 6.0, 1.0)))
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct IncrementalUpdate {
    action: UpdateAction,
    /// The root and the log position the results describe.
    seen: Option<(NodeId, ChangeCursor)>,
    /// World matrices after the last full run; patches append to them when they add
    /// or move transforms (changed ones are overwritten in place).
    matrices_after_full: usize,
    marks: Vec<Mark>,
    epoch: u32,
    /// Nodes named by this run's changes.
    dirty: Vec<NodeIndex>,
    /// Nodes inside the root's subtree met on the way up, with their depth.
    inside: Vec<(u32, NodeIndex)>,
    /// Scratch for the walk up.
    path: Vec<NodeIndex>,
}

impl Default for IncrementalUpdate {
    fn default() -> Self {
        Self::new()
    }
}

impl IncrementalUpdate {
    /// An update with no results yet.
    #[allow(
        clippy::unreachable,
        reason = "internal invariant: both actors run under DepthFirst by construction (tested)"
    )]
    pub fn new() -> Self {
        let mut world = WorldTransforms::new();
        world.matrices.track_owners();
        let action = Action::new(
            DepthFirst::new(),
            (Ordered::new(world), Ordered::new(Bounds::new())),
        );
        Self {
            action: match action {
                Ok(action) => action,
                // Both actors run under DepthFirst by construction (tested).
                Err(err) => unreachable!("{err}"),
            },
            seen: None,
            matrices_after_full: 0,
            marks: Vec::new(),
            epoch: 0,
            dirty: Vec::new(),
            inside: Vec::new(),
            path: Vec::new(),
        }
    }

    /// Brings the world transforms and bounds of `root`'s subtree up to date with
    /// `graph`: incrementally when the last run was over the same root of the same
    /// graph and the graph's change log still reaches back to it, else by a full run.
    ///
    /// Errors: a stale `root`.
    pub fn run(&mut self, graph: &Graph, root: NodeId) -> Result<UpdateStats, TraversalError> {
        if !graph.contains(root) {
            return Err(GraphError::StaleNode(root).into());
        }
        let changes = match self.seen {
            Some((seen_root, cursor)) if seen_root == root => graph.changes_since(cursor),
            _ => None,
        };
        let Some(changes) = changes else {
            return self.run_full(graph, root);
        };
        let leftover = self
            .transforms()
            .matrices
            .len()
            .saturating_sub(self.matrices_after_full);
        if leftover > self.matrices_after_full.max(1024) {
            // Patches leave superseded matrices behind; a full run drops them.
            return self.run_full(graph, root);
        }
        match self.patch(graph, root, changes) {
            Some(stats) => Ok(stats),
            None => self.run_full(graph, root),
        }
    }

    /// Recomputes everything under `root`, whatever changed.
    ///
    /// Errors: a stale `root`.
    pub fn run_full(&mut self, graph: &Graph, root: NodeId) -> Result<UpdateStats, TraversalError> {
        self.set_patch(None);
        let stats = self.action.run(graph, root)?;
        self.matrices_after_full = self.transforms().matrices.len();
        self.seen = Some((root, graph.change_cursor()));
        Ok(UpdateStats {
            full: true,
            entered: stats.entered,
            ..UpdateStats::default()
        })
    }

    /// The world transforms (read them by id or slot, or clone them into an `Arc` for
    /// view actors).
    pub fn transforms(&self) -> &WorldTransforms {
        self.action.actors().0.get()
    }

    /// The world bounds.
    pub fn bounds(&self) -> &Bounds {
        self.action.actors().1.get()
    }

    /// The world transform of `node` (`None` if it is stale, outside the root's
    /// subtree, or the graph changed since the last run).
    pub fn world(&self, graph: &Graph, node: NodeId) -> Option<Affine3A> {
        self.transforms().world(graph, node)
    }

    /// The world box of `node`'s subtree (`None` as for [`world`](Self::world)).
    pub fn world_bounds(&self, graph: &Graph, node: NodeId) -> Option<Aabb> {
        self.bounds().world_bounds(graph, node)
    }

    /// Puts both actors in patch mode for the next run, below a parent whose state
    /// is `above`, or back in full mode.
    fn set_patch(&mut self, above: Option<u32>) {
        let matrix = above.map(|i| self.transforms().matrices.get(i));
        if let Some(world) = self.action.actor_mut::<WorldTransforms>() {
            world.patch = above;
        }
        if let Some(bounds) = self.action.actor_mut::<Bounds>() {
            bounds.patch = matrix;
        }
    }

    fn transforms_mut(&mut self) -> Option<&mut WorldTransforms> {
        self.action.actor_mut::<WorldTransforms>()
    }

    /// Patches the results for `changes`; `None` when a full run is needed instead.
    fn patch(&mut self, graph: &Graph, root: NodeId, changes: &[Change]) -> Option<UpdateStats> {
        if !self.transforms().non_finite().is_empty() {
            // The list of bad matrices is in traversal order; rebuild it whole.
            return None;
        }
        let mut stats = UpdateStats {
            changes: changes.len(),
            ..UpdateStats::default()
        };
        let root_id = root;
        let root = root.index();
        self.begin_marks(graph);
        self.collect(graph, changes);
        // Slot order is memory order (and document order for a graph built depth
        // first): the passes below then sweep the arrays forward instead of jumping.
        self.dirty.sort_unstable();
        // A change above the root changes everything below it.
        let mut up = graph.parent_at(root);
        while let Some(p) = up {
            if self.flags(p) & SUBTREE != 0 {
                return None;
            }
            up = graph.parent_at(p);
        }
        if self.flags(root) & SUBTREE != 0 {
            return None;
        }
        self.classify(graph, root);

        // Keep every result; the passes below overwrite what changed.
        self.transforms_mut()?.world.resume(graph);
        let bounds = self.action.actor_mut::<Bounds>()?;
        bounds.boxes.resume(graph);
        bounds.geometry.resolve(graph.types());

        // Subtrees: topmost changed nodes inside, from their parent's stored world.
        let dirty = std::mem::take(&mut self.dirty);
        let patched = self.patch_subtrees(graph, &dirty, &mut stats);
        self.dirty = dirty;
        patched?;
        if !self.transforms().non_finite().is_empty() {
            return None;
        }

        // Boxes on the way up, deepest first, so children are done before parents.
        self.inside
            .sort_unstable_by_key(|&(depth, node)| (std::cmp::Reverse(depth), node));
        let inside = std::mem::take(&mut self.inside);
        for &(_, node) in &inside {
            if self.flags(node) & (COVERED | STALE) != STALE {
                continue;
            }
            if self.rebox(graph, node)
                && node != root
                && let Some(parent) = graph.parent_at(node)
            {
                self.mark(parent, STALE);
            }
            stats.ancestors += 1;
        }
        self.inside = inside;
        self.seen = Some((root_id, graph.change_cursor()));
        Some(stats)
    }

    /// Runs the update action again from each topmost changed node inside the root's
    /// subtree; forgets the results of changed subtrees that are now outside.
    fn patch_subtrees(
        &mut self,
        graph: &Graph,
        dirty: &[NodeIndex],
        stats: &mut UpdateStats,
    ) -> Option<()> {
        for &node in dirty {
            let flags = self.flags(node);
            if flags & SUBTREE == 0 {
                continue;
            }
            let parent = graph.parent_at(node);
            let parent_covered = parent.is_some_and(|p| self.flags(p) & COVERED != 0);
            if parent_covered {
                continue;
            }
            if flags & INSIDE == 0 {
                self.forget_subtree(graph, node);
                continue;
            }
            let parent = parent?;
            let above = self.transforms().world.get_at(parent)?;
            let before = self.bounds().world_bounds_at(node);
            self.set_patch(Some(above));
            let id = graph.id_at(node)?;
            let run = self.action.run(graph, id);
            self.set_patch(None);
            stats.entered += run.ok()?.entered;
            stats.subtrees += 1;
            // A box that came out as it was leaves its ancestors' boxes as they were.
            if flags & PLACED != 0 || self.bounds().world_bounds_at(node) != before {
                self.mark(parent, STALE);
            }
        }
        Some(())
    }

    /// Starts a run's marks, sized for `graph`.
    fn begin_marks(&mut self, graph: &Graph) {
        if self.marks.len() < graph.capacity() {
            self.marks.resize(graph.capacity(), Mark::default());
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.marks.iter_mut().for_each(|m| *m = Mark::default());
            self.epoch = 1;
        }
        self.dirty.clear();
        self.inside.clear();
    }

    #[inline]
    fn flags(&self, node: NodeIndex) -> u8 {
        match self.marks.get(node.get()) {
            Some(m) if m.epoch == self.epoch => m.flags,
            _ => 0,
        }
    }

    #[inline]
    fn mark(&mut self, node: NodeIndex, flags: u8) -> Option<&mut Mark> {
        let epoch = self.epoch;
        let mark = self.marks.get_mut(node.get())?;
        if mark.epoch != epoch {
            *mark = Mark {
                epoch,
                flags: 0,
                depth: 0,
            };
        }
        mark.flags |= flags;
        Some(mark)
    }

    /// Marks the live nodes the changes name, each listed once in `dirty`.
    fn collect(&mut self, graph: &Graph, changes: &[Change]) {
        for change in changes {
            let node = change.node();
            if graph.type_at(node).is_none() {
                continue; // removed since; its parent was recorded too
            }
            let flags = match change {
                Change::Children(_) => BOX | STALE,
                Change::Placed(_) => SUBTREE | PLACED,
                _ => SUBTREE,
            };
            let first = self.flags(node) & (SUBTREE | BOX) == 0;
            if self.mark(node, flags).is_some() && first {
                self.dirty.push(node);
            }
        }
    }

    /// Finds, for every changed node and its ancestors, whether it lies inside the
    /// root's subtree, its depth and whether it is covered by a changed subtree;
    /// lists the inside ones in `inside`. Each node is walked once per run.
    fn classify(&mut self, graph: &Graph, root: NodeIndex) {
        let dirty = std::mem::take(&mut self.dirty);
        for &start in &dirty {
            let mut node = start;
            self.path.clear();
            // (inside, covered, depth) of the first known node above the path.
            let mut base: Option<(bool, bool, u32)> = None;
            loop {
                let flags = self.flags(node);
                if flags & KNOWN != 0 {
                    let depth = self.marks.get(node.get()).map_or(0, |m| m.depth);
                    base = Some((flags & INSIDE != 0, flags & COVERED != 0, depth));
                    break;
                }
                if node == root {
                    let covered = flags & SUBTREE != 0;
                    let bits = KNOWN | INSIDE | if covered { COVERED } else { 0 };
                    if self.mark(node, bits).is_some() {
                        self.inside.push((0, node));
                    }
                    base = Some((true, covered, 0));
                    break;
                }
                self.path.push(node);
                match graph.parent_at(node) {
                    Some(parent) => node = parent,
                    None => break,
                }
            }
            let (inside, mut covered, mut depth) = base.unwrap_or((false, false, 0));
            let path = std::mem::take(&mut self.path);
            for &node in path.iter().rev() {
                depth += 1;
                covered |= self.flags(node) & SUBTREE != 0;
                let bits =
                    KNOWN | if inside { INSIDE } else { 0 } | if covered { COVERED } else { 0 };
                if let Some(mark) = self.mark(node, bits) {
                    mark.depth = depth;
                    if inside {
                        self.inside.push((depth, node));
                    }
                }
            }
            self.path = path;
        }
        self.dirty = dirty;
    }

    /// Recomputes one box from the node's geometry and its children's boxes; returns
    /// whether it changed.
    fn rebox(&mut self, graph: &Graph, node: NodeIndex) -> bool {
        let mut own = Aabb::EMPTY;
        // The world matrix is three loads from scattered memory: only for geometry.
        if let Some(ty) = graph.type_at(node)
            && self.bounds().geometry.contains(ty)
            && let Some(geometry) = graph.get_at::<Geometry>(node)
            && let Some(world) = self.transforms().world_at(node)
        {
            own = geometry.local_bounds().transformed(&world);
        }
        let Some(bounds) = self.action.actor_mut::<Bounds>() else {
            return true;
        };
        let mut child = graph.first_child_at(node);
        while let Some(c) = child {
            if let Some(b) = bounds.boxes.get_at(c) {
                own = own.union(&b);
            }
            child = graph.next_sibling_at(c);
        }
        let before = bounds.boxes.get_at(node);
        bounds.boxes.set(node, own);
        before != Some(own)
    }

    /// Forgets the results of a subtree that left the root's subtree, so they read
    /// as `None`, as after a full run.
    fn forget_subtree(&mut self, graph: &Graph, top: NodeIndex) {
        let mut next = Some(top);
        while let Some(node) = next {
            if let Some(world) = self.transforms_mut() {
                world.world.unset(node);
            }
            if let Some(bounds) = self.action.actor_mut::<Bounds>() {
                bounds.boxes.unset(node);
            }
            next = graph.next_preorder_at(node, top);
        }
    }
}
