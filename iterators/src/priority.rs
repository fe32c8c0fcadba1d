use scenewalk_core::Invariant;
use scenewalk_core::{
    ActiveEntry, ActiveList, Capabilities, Flow, Frame, Graph, ListState, NodeIndex, OrderedState,
    Step, TraversalError, TraversalIterator,
};
use std::collections::{BinaryHeap, VecDeque};

/// When a [`PriorityQueue`] stops ordering by key and goes depth-first inside a subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SwitchRule {
    /// Never: a pure priority order.
    #[default]
    Never,
    /// Nodes down to this depth are taken by priority; the subtree of each node at this
    /// depth follows it depth-first, in document order (a NaN key is still an error).
    AtDepth(u32),
    /// Priority order while the queue holds at most this many nodes; beyond, each node
    /// taken from the queue is followed depth-first by its subtree.
    FrontierAbove(usize),
}

/// A pending node's place in both priority orders (larger key, then earlier arrival;
/// NaN is reported before): one `u64`, the key's bits made to sort as unsigned above the
/// inverted arrival number (32 bits: a node arrives once per run), compared as integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Rank(u64);

impl Rank {
    #[inline]
    pub(crate) fn new(key: f32, arrival: u64) -> Self {
        // Adding 0.0 turns -0.0 into +0.0, so the two zeros tie.
        let bits = (key + 0.0).to_bits();
        let sortable = if bits & SIGN != 0 { !bits } else { bits | SIGN };
        Rank((u64::from(sortable) << 32) | u64::from(u32::MAX - arrival as u32))
    }

    /// The key the rank was made from (`-0.0` as `0.0`), for children to inherit.
    #[inline]
    fn key(self) -> f32 {
        let sortable = (self.0 >> 32) as u32;
        // Undoes `new`: the sign bit flipped back, or every bit.
        f32::from_bits(sortable ^ if sortable & SIGN != 0 { SIGN } else { u32::MAX })
    }
}

const SIGN: u32 = 0x8000_0000;

/// A heap entry, ordered by its [`Rank`] alone (unique within a run; one integer
/// comparison, not a tuple's two).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ranked<T>(pub(crate) Rank, pub(crate) T);

impl<T> PartialEq for Ranked<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<T> Eq for Ranked<T> {}

impl<T> PartialOrd for Ranked<T> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Ranked<T> {
    #[inline]
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

/// A node waiting to be entered: depth and the frame of its parent's states.
type Pending = (NodeIndex, u32, Frame);

/// In a heap entry's depth: its frame waits in `frames` (else it is [`Frame::ROOT`]).
const HAS_FRAME: u32 = 0x8000_0000;

/// An entered node's kept children still open, traversal parent, depth and frame.
type Open = (u32, Option<NodeIndex>, u32, Frame);

/// Takes the pending node with the highest key next (paper 3.3.2); as a hybrid (paper
/// section 4), goes depth-first inside subtrees by a [`SwitchRule`].
///
/// Keys come from the actors ([`ActiveList::set_key`]); a child without one inherits
/// its parent's. Equal keys (`-0.0` equals `0.0`) are taken in arrival order; a NaN key
/// is an error ([`TraversalError::NanKey`]). Each pending node carries a [`Frame`] of its
/// parent's states ([`OrderedState::Copies`]). A node leaves after all its descendants.
/// Depths are kept in 31 bits.
///
/// ```
/// use scenewalk_core::{Action, ActiveList, Flow, Graph, Visit, Unordered, UnorderedActor};
/// use scenewalk_iterators::PriorityQueue;
/// use scenewalk_nodes::Group;
/// /// Records the entered slots and keys each child by its slot: the highest first.
/// #[derive(Default)]
/// struct BySlot(Vec<usize>);
/// impl UnorderedActor for BySlot {
///     fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
///         self.0.push(visit.node().get());
///         for i in 0..active.len() {
///             let slot = active.entries()[i].node().get();
///             active.set_key(i, slot as f32);
///         }
///         Flow::Continue
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let [a, b] = [root, root].map(|r| graph.append_child(r, Group).unwrap().index().get());
/// let mut action = Action::new(PriorityQueue::new(), (Unordered::new(BySlot::default()),))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actor::<BySlot>().unwrap().0, [root.index().get(), b, a]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct PriorityQueue {
    rule: SwitchRule,
    /// Node and depth: 16 bytes with the rank, so a sift moves little.
    heap: BinaryHeap<Ranked<(NodeIndex, u32)>>,
    /// The frames of queued nodes marked [`HAS_FRAME`], by slot.
    frames: Vec<Frame>,
    /// Pending nodes of subtrees being traversed depth-first (hybrid).
    stack: Vec<Ranked<Pending>>,
    /// The entered node's children, if an actor built the list.
    active: Vec<ActiveEntry>,
    list_state: ListState,
    /// The entered node until its commit, and whether it came from `stack`.
    current: Option<(Ranked<Pending>, bool)>,
    seq: u64,
    leave_events: bool,
    /// With leave events, the entered nodes by slot (reused across runs); a node leaves,
    /// into `ready`, once every child it kept has left.
    open: Vec<Option<Open>>,
    ready: VecDeque<Pending>,
}

impl PriorityQueue {
    /// A pure priority order.
    pub fn new() -> Self {
        Self::default()
    }

    /// Priority order that switches to depth-first by `rule` (a hybrid iterator).
    pub fn hybrid(rule: SwitchRule) -> Self {
        Self {
            rule,
            ..Self::default()
        }
    }

    /// The switch rule.
    pub fn rule(&self) -> SwitchRule {
        self.rule
    }

    /// Queues `node` by `key`, or stacks it if its parent's subtree goes depth-first.
    #[inline(always)]
    fn queue(&mut self, depth_first: bool, key: f32, node: NodeIndex, depth: u32, frame: Frame) {
        let rank = Rank::new(key, self.seq);
        self.seq += 1;
        if depth_first {
            return self.stack.push(Ranked(rank, (node, depth, frame)));
        }
        let mut depth = depth & !HAS_FRAME;
        if frame != Frame::ROOT {
            if self.frames.len() <= node.get() {
                self.frames.resize(node.get() + 1, Frame::ROOT);
            }
            if let Some(slot) = self.frames.get_mut(node.get()) {
                *slot = frame;
            }
            depth |= HAS_FRAME;
        }
        self.heap.push(Ranked(rank, (node, depth)));
    }

    /// Queues the leave of `node`, and of each ancestor it was the last open child of.
    fn close(&mut self, mut node: NodeIndex) -> Option<()> {
        while let Some(&Some((_, parent, depth, frame))) = self.open.get(node.get()) {
            self.ready.push_back((node, depth, frame));
            node = parent?;
            let (remaining, ..) = self.open.get_mut(node.get())?.as_mut()?;
            *remaining = remaining.saturating_sub(1);
            if *remaining != 0 {
                return None;
            }
        }
        None
    }
}

impl TraversalIterator for PriorityQueue {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: match self.rule {
                SwitchRule::Never => "PriorityQueue",
                _ => "PriorityQueue (hybrid)",
            },
            leave_events: true,
            current_node: true,
            ordered_state: OrderedState::Copies,
        }
    }

    fn start(&mut self, graph: &Graph, root: NodeIndex, leave_events: bool) {
        self.clear();
        self.leave_events = leave_events;
        if leave_events && self.open.len() < graph.capacity() {
            self.open.resize(graph.capacity(), None);
        }
        self.queue(false, 0.0, root, 0, Frame::ROOT);
    }

    #[inline(always)]
    fn next(&mut self, _graph: &Graph) -> Option<Step> {
        if self.leave_events
            && let Some((node, depth, frame)) = self.ready.pop_front()
        {
            return Some(Step::Leave { node, depth, frame });
        }
        self.current = match self.stack.pop() {
            Some(pending) => Some((pending, true)),
            None => self.heap.pop().map(|Ranked(rank, (node, depth))| {
                let frame = match depth & HAS_FRAME {
                    0 => Frame::ROOT,
                    _ => self.frames.get(node.get()).copied().invariant("frame"),
                };
                let depth = depth & !HAS_FRAME;
                (Ranked(rank, (node, depth, frame)), false)
            }),
        };
        let (Ranked(_, (node, depth, frame)), _) = self.current?;
        self.list_state = ListState::Untouched;
        Some(Step::Enter { node, depth, frame })
    }

    #[inline(always)]
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        let (buf, state) = (&mut self.active, &mut self.list_state);
        buf.clear();
        match self.current {
            Some((Ranked(_, (n, d, _)), _)) => ActiveList::lazy(graph, n, d + 1, buf, state),
            None => ActiveList::new(&mut buf[..]),
        }
    }

    #[inline(always)]
    fn commit(&mut self, graph: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError> {
        let Some((Ranked(rank, (node, depth, _)), from_stack)) = self.current.take() else {
            return Ok(0);
        };
        // Children of a stacked node, or below the switch, go depth-first.
        let depth_first = from_stack
            || match self.rule {
                SwitchRule::Never => false,
                SwitchRule::AtDepth(d) => depth >= d,
                SwitchRule::FrontierAbove(n) => self.heap.len() > n,
            };
        // The kept children are queued with `frame` (stored once each, once more to leave).
        let key = rank.key();
        let start = self.stack.len();
        let mut kept = 0u32;
        match (flow, self.list_state) {
            (Flow::Continue, ListState::Filled) => {
                let nan = self
                    .active
                    .iter()
                    .find(|e| e.is_active() && e.key().is_some_and(f32::is_nan));
                if let Some(node) = nan.and_then(|e| graph.id_at(e.node())) {
                    return Err(TraversalError::NanKey { node });
                }
                // By index (the entries stay in place), the steps inlined into this loop.
                for i in 0..self.active.len() {
                    let Some(&entry) = self.active.get(i).filter(|e| e.is_active()) else {
                        continue;
                    };
                    let key = entry.key().unwrap_or(key);
                    self.queue(depth_first, key, entry.node(), entry.depth(), frame);
                    kept += 1;
                }
            }
            // No actor looked: every child is kept and inherits the key.
            (Flow::Continue, ListState::Untouched) => {
                for c in graph.children_at(node) {
                    self.queue(depth_first, key, c, depth + 1, frame);
                    kept += 1;
                }
            }
            _ => {}
        }
        // The stack pops last-in first: reverse so children come in document order.
        if let Some(stacked) = self.stack.get_mut(start..) {
            stacked.reverse();
        }
        if self.leave_events {
            let parent = graph.parent_at(node).filter(|_| depth > 0);
            if let Some(open) = self.open.get_mut(node.get()) {
                *open = Some((kept, parent, depth, frame));
            }
            if kept == 0 {
                self.close(node);
            }
        }
        Ok(kept + u32::from(self.leave_events))
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.stack.clear();
        self.active.clear();
        self.current = None;
        self.ready.clear();
        self.seq = 0;
    }
}
