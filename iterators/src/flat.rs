#![allow(clippy::indexing_slicing, reason = "len()-long arrays; checked slices")]

use crate::{Event, Walk};
use scenewalk_core::{
    ActiveEntry, ActiveList, Capabilities, Flow, Frame, Graph, GraphError, ListState, NodeId,
    NodeIndex, OrderedState, Step, TraversalError, TraversalIterator,
};
use std::ops::Range;

/// The tree under a root compiled into arrays in depth-first (document) order, so a
/// parent-before-child pass is one linear loop (reference note "Flattening trees").
///
/// Position `i` holds a node, its parent's position, its subtree's size (itself counted)
/// and its depth below the root (the accessors below); a node's descendants are the
/// positions `i + 1 .. i + sizes[i]`, and every parent lies before its children.
///
/// The arrays describe the graph at the build; [`refresh`](Self::refresh) rebuilds only
/// after a structural edit (after a payload edit, [`gather`](Self::gather) again). As a
/// [`TraversalIterator`] it runs [`Action`](scenewalk_core::Action)s in depth-first order.
///
/// ```
/// use scenewalk_core::{Action, Graph, glam::{Affine3A, Vec3}};
/// use scenewalk_iterators::Flattened;
/// use scenewalk_nodes::{Group, Transform};
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let arm = graph.append_child(root, Transform::from_translation(Vec3::X))?;
/// let hand = graph.append_child(arm, Transform::from_translation(Vec3::Y))?;
/// graph.append_child(root, Group)?;
///
/// let mut flat = Flattened::new();
/// flat.rebuild(&graph, root)?;
/// assert_eq!(flat.sizes(), [4, 2, 1, 1]);
/// assert_eq!(flat.parents(), [Flattened::NIL, 0, 1, 0]);
///
/// // World transforms: gather the locals in flat order, then one linear pass.
/// let locals = flat.gather(|n| graph.get_at::<Transform>(n).map_or(Affine3A::IDENTITY, |t| *t.local()));
/// let mut world = Vec::new();
/// flat.propagate(Affine3A::IDENTITY, &locals, &mut world, |parent, local| *parent * *local)?;
/// assert_eq!(world[2].translation, Vec3::new(1.0, 1.0, 0.0).into());
/// assert_eq!(flat.nodes()[2], hand.index());
///
/// // Rebuilt only after a structural edit.
/// assert!(!flat.refresh(&graph, root)?);
/// graph.append_child(hand, Group)?;
/// assert!(flat.refresh(&graph, root)?);
/// assert_eq!((flat.len(), flat.rebuilds()), (5, 2));
///
/// // As an action's iterator.
/// let mut action = Action::new(Flattened::new(), ())?;
/// assert_eq!(action.run(&graph, root)?.entered, 5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Flattened {
    pub(crate) nodes: Vec<NodeIndex>,
    pub(crate) parents: Vec<u32>,
    pub(crate) sizes: Vec<u32>,
    pub(crate) depths: Vec<u32>,
    /// The root, the graph's uid and its revision at the last build.
    built: Option<(NodeId, u64, u64)>,
    rebuilds: u64,
    /// A run's next position to consider (the rest of a run's state follows).
    pos: usize,
    /// The last entered position, until its commit.
    entered: Option<usize>,
    /// Deactivated children ahead, smallest on top: the walk jumps past their subtrees.
    skips: Vec<u32>,
    /// Entered positions whose leave event is still due, innermost on top.
    open: Vec<u32>,
    /// The active list of the last entered node (its children), if an actor built it.
    active: Vec<ActiveEntry>,
    list_state: ListState,
    leave_events: bool,
    /// The parallel passes' last cut.
    #[cfg(feature = "parallel")]
    pub(crate) cuts: crate::flat_par::CutCache,
}

/// A pass was given a different number of values than the flattening has positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a pass needs one value per flattened position: {positions} positions, {locals} values")]
pub struct LengthMismatch {
    /// Positions in the flattening.
    pub positions: usize,
    /// Values given.
    pub locals: usize,
}

impl Flattened {
    /// The parent position of the root.
    pub const NIL: u32 = u32::MAX;

    /// An empty flattening, for [`rebuild`](Self::rebuild) or an action's run to fill.
    pub fn new() -> Self {
        Self::default()
    }

    /// Flattens the tree under `root`, reusing the arrays' memory. Errors:
    /// [`GraphError::StaleNode`] for a stale root (it is then empty and not current).
    pub fn rebuild(&mut self, graph: &Graph, root: NodeId) -> Result<(), GraphError> {
        self.forget();
        let mut walk = graph.depth_first(root)?;
        self.built = Some((root, graph.uid(), graph.revision()));
        self.rebuilds += 1;
        // The innermost entered position: its size is known at its leave.
        let mut pos = Self::NIL;
        while let Some(event) = walk.next() {
            let end = self.nodes.len() as u32;
            match event {
                Event::Enter(node) => {
                    self.nodes.push(node);
                    self.parents.push(pos);
                    self.sizes.push(0);
                    self.depths.push(walk.depth());
                    pos = end;
                }
                Event::Leave(_) => {
                    self.sizes[pos as usize] = end - pos;
                    pos = self.parents[pos as usize];
                }
            }
        }
        Ok(())
    }

    /// Rebuilds, returning `true`, unless [current](Self::is_current) for `root`; another
    /// graph (a clone included) is never current. Errors: as [`rebuild`](Self::rebuild).
    pub fn refresh(&mut self, graph: &Graph, root: NodeId) -> Result<bool, GraphError> {
        let stale = !self.is_current(graph) || self.root() != Some(root);
        if stale {
            self.rebuild(graph, root)?;
        }
        Ok(stale)
    }

    /// Whether the arrays still describe `graph`: built, and no structural edit since.
    pub fn is_current(&self, graph: &Graph) -> bool {
        self.built.is_some_and(|(root, uid, revision)| {
            uid == graph.uid() && revision == graph.revision() && graph.contains(root)
        })
    }

    /// How many times the arrays were built.
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// The root of the last build.
    pub fn root(&self) -> Option<NodeId> {
        self.built.map(|(root, _, _)| root)
    }

    /// The graph revision of the last build.
    pub fn built_revision(&self) -> Option<u64> {
        self.built.map(|(_, _, revision)| revision)
    }

    /// How many nodes (positions) there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether nothing is built.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node at each position, in depth-first order.
    pub fn nodes(&self) -> &[NodeIndex] {
        &self.nodes
    }

    /// The parent position of each position ([`Flattened::NIL`] for the root, at 0).
    pub fn parents(&self) -> &[u32] {
        &self.parents
    }

    /// The subtree size of each position, counting the node itself.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// The depth below the root of each position.
    pub fn depths(&self) -> &[u32] {
        &self.depths
    }

    /// The parent position of position `pos` (`None` for the root or out of range).
    pub fn parent(&self, pos: usize) -> Option<usize> {
        let parent = self.parents.get(pos).filter(|&&p| p != Self::NIL);
        parent.map(|&p| p as usize)
    }

    /// The positions of `pos`'s subtree, itself first (empty if out of range).
    pub fn subtree(&self, pos: usize) -> Range<usize> {
        let size = self.sizes.get(pos).map_or(0, |&size| size as usize);
        pos..pos + size
    }

    /// The positions of `pos`'s children, in order (none if `pos` is out of range).
    pub fn children(&self, pos: usize) -> impl Iterator<Item = usize> + '_ {
        let end = self.subtree(pos).end;
        std::iter::successors(Some(pos.saturating_add(1)), |&c| Some(self.subtree(c).end))
            .take_while(move |&c| c < end)
    }

    /// One value per position, in order: `f(nodes[i])`.
    pub fn gather<T>(&self, f: impl FnMut(NodeIndex) -> T) -> Vec<T> {
        self.nodes.iter().copied().map(f).collect()
    }

    /// As [`gather`](Self::gather), into `out` (cleared first) to reuse its memory.
    pub fn gather_into<T>(&self, out: &mut Vec<T>, f: impl FnMut(NodeIndex) -> T) {
        out.clear();
        out.extend(self.nodes.iter().copied().map(f));
    }

    /// The parent-before-child pass, one linear loop: `out[i] = combine(&out[parent],
    /// &locals[i])`, `root_value` standing for the root's parent (world transforms,
    /// opacity, inherited flags). `out` is refilled, or left empty on [`LengthMismatch`].
    pub fn propagate<T: Copy>(
        &self,
        root_value: T,
        locals: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T,
    ) -> Result<(), LengthMismatch> {
        self.fits(locals, out)?;
        out.clear();
        let (Some(first), Some(parents), Some(rest)) =
            (locals.first(), self.parents.get(1..), locals.get(1..))
        else {
            return Ok(());
        };
        out.reserve(locals.len());
        out.push(combine(&root_value, first));
        for (&parent, local) in parents.iter().zip(rest) {
            // Every parent lies before its child, so `out[parent]` is already set.
            let above = out[parent as usize];
            out.push(combine(&above, local));
        }
        Ok(())
    }

    /// The child-before-parent pass: `out[i] = own[i]`, then `out[i] = combine(&out[i],
    /// &out[child])` for each child, last to first (subtree bounds, sizes, counts, flags).
    /// `out` and errors as in [`propagate`](Self::propagate).
    pub fn accumulate<T: Copy>(
        &self,
        own: &[T],
        out: &mut Vec<T>,
        combine: impl Fn(&T, &T) -> T,
    ) -> Result<(), LengthMismatch> {
        self.fits(own, out)?;
        out.clear();
        out.extend_from_slice(own);
        accumulate_range(&self.parents, 0, out, &combine);
        Ok(())
    }

    /// The nodes in flattened order, with [`skip_subtree`](FlatIter::skip_subtree).
    pub fn iter(&self) -> FlatIter<'_> {
        FlatIter {
            flat: self,
            pos: 0,
            last: None,
        }
    }

    /// `Ok` if `values` holds one value per position; else `out` is cleared.
    pub(crate) fn fits<T, U>(&self, values: &[T], out: &mut Vec<U>) -> Result<(), LengthMismatch> {
        if values.len() == self.len() {
            return Ok(());
        }
        out.clear();
        Err(LengthMismatch {
            positions: self.len(),
            locals: values.len(),
        })
    }

    /// Empties the arrays, as not built.
    fn forget(&mut self) {
        self.nodes.clear();
        self.parents.clear();
        self.sizes.clear();
        self.depths.clear();
        self.built = None;
    }
}

/// The child-before-parent pass over the positions from `start` that `parents` and `out`
/// cover, last to first; a parent before `start` (or none) is left to the caller.
pub(crate) fn accumulate_range<T: Copy>(
    parents: &[u32],
    start: usize,
    out: &mut [T],
    combine: &impl Fn(&T, &T) -> T,
) {
    for (i, &parent) in parents.iter().enumerate().rev() {
        if let Some(at) = (parent as usize).checked_sub(start)
            && parent != Flattened::NIL
        {
            out[at] = combine(&out[at], &out[i]);
        }
    }
}

impl<'f> IntoIterator for &'f Flattened {
    type Item = NodeIndex;
    type IntoIter = FlatIter<'f>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The nodes of a [`Flattened`] in its order; see [`Flattened::iter`].
#[derive(Clone, Debug)]
pub struct FlatIter<'f> {
    flat: &'f Flattened,
    pos: usize,
    last: Option<usize>,
}

impl FlatIter<'_> {
    /// Do not yield the descendants of the node yielded last.
    pub fn skip_subtree(&mut self) {
        if let Some(last) = self.last.take() {
            self.pos = self.pos.max(self.flat.subtree(last).end);
        }
    }

    /// The position of the node yielded last.
    pub fn position(&self) -> Option<usize> {
        self.last
    }
}

impl Iterator for FlatIter<'_> {
    type Item = NodeIndex;

    #[inline]
    fn next(&mut self) -> Option<NodeIndex> {
        let node = *self.flat.nodes.get(self.pos)?;
        self.last = Some(self.pos);
        self.pos += 1;
        Some(node)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.flat.len().saturating_sub(self.pos);
        (left, Some(left))
    }
}

impl ExactSizeIterator for FlatIter<'_> {}

impl std::iter::FusedIterator for FlatIter<'_> {}

/// Pre-order over the arrays, [refreshed](Flattened::refresh) at each run's start; a
/// deactivated child or [`Flow::Prune`] jumps past the subtree.
impl TraversalIterator for Flattened {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "Flattened",
            leave_events: true,
            current_node: true,
            ordered_state: OrderedState::DepthStack,
        }
    }

    fn start(&mut self, graph: &Graph, root: NodeIndex, leave_events: bool) {
        match graph.id_at(root) {
            Some(root) => _ = self.refresh(graph, root), // live: cannot fail
            None => self.forget(),
        }
        self.clear();
        self.pos = 0;
        self.leave_events = leave_events;
    }

    #[inline]
    fn next(&mut self, _graph: &Graph) -> Option<Step> {
        while let Some(&skip) = self.skips.last() {
            let skip = skip as usize;
            if skip > self.pos {
                break;
            }
            self.skips.pop();
            if skip == self.pos {
                self.pos += self.sizes[skip] as usize;
            }
        }
        if let Some(&open) = self.open.last() {
            let open = open as usize;
            if open + self.sizes[open] as usize <= self.pos {
                self.open.pop();
                let (node, depth, frame) = (self.nodes[open], self.depths[open], Frame::ROOT);
                return Some(Step::Leave { node, depth, frame });
            }
        }
        let i = self.pos;
        let (node, depth, frame) = (*self.nodes.get(i)?, self.depths[i], Frame::ROOT);
        if self.leave_events {
            self.open.push(i as u32);
        }
        self.pos = i + 1;
        self.entered = Some(i);
        self.list_state = ListState::Untouched;
        Some(Step::Enter { node, depth, frame })
    }

    #[inline]
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        let (buf, state) = (&mut self.active, &mut self.list_state);
        buf.clear();
        match self.entered {
            Some(i) => ActiveList::lazy(graph, self.nodes[i], self.depths[i] + 1, buf, state),
            None => ActiveList::new(&mut buf[..]),
        }
    }

    #[inline]
    fn commit(&mut self, _graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        let Some(i) = self.entered.take() else {
            return Ok(0);
        };
        match (flow, self.list_state) {
            (Flow::Stop, _) => self.clear(),
            (Flow::Prune, _) | (_, ListState::Cleared) => self.pos = i + self.sizes[i] as usize,
            (_, ListState::Filled) => {
                // The entries are the children in order: inactive ones become jumps.
                let mut skips = std::mem::take(&mut self.skips);
                let first = skips.len();
                let children = self.children(i).zip(&self.active);
                let inactive = children.filter(|(_, entry)| !entry.is_active());
                skips.extend(inactive.map(|(child, _)| child as u32));
                skips[first..].reverse();
                self.skips = skips;
            }
            (_, ListState::Untouched) => {}
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.pos = self.nodes.len();
        self.entered = None;
        self.skips.clear();
        self.open.clear();
        self.active.clear();
        self.list_state = ListState::Untouched;
    }
}
