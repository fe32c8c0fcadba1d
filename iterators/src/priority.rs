//! The priority-queue iterator (paper 3.3.2) and its hybrid with depth-first (section 4).

use crate::leaves::LeaveTracker;
use scenewalk_core::{
    ActiveEntry, ActiveList, Capabilities, Flow, Frame, Graph, NodeIndex, OrderedState, Step,
    TraversalError, TraversalIterator,
};
use std::collections::BinaryHeap;

/// When a [`PriorityQueue`] stops ordering by key and goes depth-first inside a subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SwitchRule {
    /// Never: a pure priority order.
    #[default]
    Never,
    /// Nodes down to this depth are taken by priority; below it, the subtree of each
    /// node at this depth is traversed depth-first right after that node (document
    /// order: keys do not reorder it, though a NaN key is still an error).
    AtDepth(u32),
    /// Priority order while the queue holds at most this many nodes; once it holds
    /// more, each node taken from the queue is traversed depth-first with its subtree.
    FrontierAbove(usize),
}

/// The place of a pending node in every priority order here: larger key first; among
/// equal keys (`-0.0` equals `0.0`) the earlier arrival first. Keys are never NaN: a
/// NaN key is reported before it is ranked.
///
/// Packed into one `u64` (the key's bits made to sort as unsigned, then the arrival
/// number inverted), so the heap moves 16-byte entries and compares integers.
/// Arrivals are counted per run and a node arrives at most once, so 32 bits hold them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Rank(u64);

impl Rank {
    pub(crate) fn new(key: f32, arrival: u64) -> Self {
        // Adding 0.0 turns -0.0 into +0.0, so the two zeros tie.
        let bits = (key + 0.0).to_bits();
        let sortable = if bits & SIGN != 0 { !bits } else { bits | SIGN };
        Rank((u64::from(sortable) << 32) | u64::from(u32::MAX - arrival as u32))
    }
}

const SIGN: u32 = 0x8000_0000;

/// A pending node: where it came from, its key (inherited by unkeyed children) and
/// the frame of its parent's states.
#[derive(Clone, Copy, Debug)]
struct Pending {
    key: f32,
    node: NodeIndex,
    parent: Option<NodeIndex>,
    depth: u32,
    frame: Frame,
}

/// Takes the pending node with the highest priority key next (paper 3.3.2), or, as a
/// hybrid (paper section 4), switches to depth-first inside subtrees by a
/// [`SwitchRule`].
///
/// - Keys come from the actors, through [`ActiveList::set_key`]; a child without a key
///   inherits its parent's. Equal keys are taken in the order they arrived, so runs are
///   deterministic. A NaN key is an error ([`TraversalError::NanKey`]).
/// - Ordered-state actors work: each pending node carries a [`Frame`] of its parent's
///   states, shared by siblings; an actor's state is copied only when it writes it
///   ([`OrderedState::Copies`]).
/// - Leave events work: a node's leave comes after all its descendants, in whatever
///   order they were taken (the paper's implementation dropped them).
///
/// ```
/// use scenewalk_core::{Action, ActiveList, Flow, Graph, StaticActor, Static, Visit, Unordered, UnorderedActor};
/// use scenewalk_iterators::PriorityQueue;
/// # #[derive(Clone, Debug)] struct Item(f32);
/// # impl scenewalk_core::NodeCore for Item {}
/// /// Keys each child by its payload.
/// struct ByValue;
/// impl StaticActor for ByValue {
///     fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
///         for i in 0..active.len() {
///             let value = active.node(i).and_then(|n| visit.graph().get_at::<Item>(n)).map_or(0.0, |v| v.0);
///             active.set_key(i, value);
///         }
///         Flow::Continue
///     }
/// }
/// #[derive(Default)]
/// struct Order(Vec<f32>);
/// impl UnorderedActor for Order {
///     fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         self.0.push(visit.get::<Item>().unwrap().0);
///         Flow::Continue
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Item(100.0));
/// for v in [2.0, 7.0, 5.0] { graph.append_child(root, Item(v))?; }
/// let mut action = Action::new(PriorityQueue::new(), (Static::new(ByValue), Unordered::new(Order::default())))?;
/// action.run(&graph, root)?;
/// assert_eq!(action.actor::<Order>().unwrap().0, [100.0, 7.0, 5.0, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct PriorityQueue {
    rule: SwitchRule,
    /// Ranks with the slot of their pending node in `slab`.
    heap: BinaryHeap<(Rank, u32)>,
    slab: Vec<Pending>,
    free: Vec<u32>,
    /// Pending nodes of subtrees being traversed depth-first (hybrid).
    stack: Vec<Pending>,
    /// The entered node's children, shown to the actors.
    active: Vec<ActiveEntry>,
    current: Option<Pending>,
    current_from_stack: bool,
    seq: u64,
    leave_events: bool,
    leaves: LeaveTracker,
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

    fn push_heap(&mut self, rank: Rank, pending: Pending) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slab[slot as usize] = pending;
                slot
            }
            None => {
                self.slab.push(pending);
                (self.slab.len() - 1) as u32
            }
        };
        self.heap.push((rank, slot));
    }

    fn pop_heap(&mut self) -> Option<Pending> {
        let (_, slot) = self.heap.pop()?;
        self.free.push(slot);
        self.slab.get(slot as usize).copied()
    }

    fn depth_first_below(&self, current: &Pending) -> bool {
        self.current_from_stack
            || match self.rule {
                SwitchRule::Never => false,
                SwitchRule::AtDepth(d) => current.depth >= d,
                SwitchRule::FrontierAbove(n) => self.heap.len() > n,
            }
    }
}

impl TraversalIterator for PriorityQueue {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: if self.rule == SwitchRule::Never {
                "PriorityQueue"
            } else {
                "PriorityQueue (hybrid)"
            },
            leave_events: true,
            current_node: true,
            ordered_state: OrderedState::Copies,
        }
    }

    fn start(&mut self, graph: &Graph, root: NodeIndex, leave_events: bool) {
        self.clear();
        self.leave_events = leave_events;
        if leave_events {
            self.leaves.start(graph.capacity());
        }
        self.push_heap(
            Rank::new(0.0, 0),
            Pending {
                key: 0.0,
                node: root,
                parent: None,
                depth: 0,
                frame: Frame::ROOT,
            },
        );
        self.seq = 1;
    }

    fn next(&mut self, graph: &Graph) -> Option<Step> {
        if let Some((node, depth, frame)) = self.leaves.pop_ready() {
            return Some(Step::Leave { node, depth, frame });
        }
        let (pending, from_stack) = match self.stack.pop() {
            Some(p) => (p, true),
            None => (self.pop_heap()?, false),
        };
        self.current = Some(pending);
        self.current_from_stack = from_stack;
        self.active.clear();
        let mut child = graph.first_child_at(pending.node);
        while let Some(c) = child {
            self.active.push(ActiveEntry::new(c, pending.depth + 1));
            child = graph.next_sibling_at(c);
        }
        Some(Step::Enter {
            node: pending.node,
            depth: pending.depth,
            frame: pending.frame,
        })
    }

    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        ActiveList::new(&mut self.active)
    }

    fn commit(&mut self, graph: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError> {
        let Some(current) = self.current.take() else {
            return Ok(0);
        };
        if flow != Flow::Continue {
            self.active.clear();
        }
        let nan = self
            .active
            .iter()
            .find(|e| e.is_active() && e.key().is_some_and(f32::is_nan));
        if let Some(node) = nan.and_then(|e| graph.id_at(e.node())) {
            return Err(TraversalError::NanKey { node });
        }
        let depth_first = self.depth_first_below(&current);
        let mut kept = 0u32;
        let start = self.stack.len();
        for i in 0..self.active.len() {
            let entry = self.active[i];
            if !entry.is_active() {
                continue;
            }
            let key = entry.key().unwrap_or(current.key);
            let pending = Pending {
                key,
                node: entry.node(),
                parent: Some(current.node),
                depth: entry.depth(),
                frame,
            };
            kept += 1;
            if depth_first {
                self.stack.push(pending);
            } else {
                self.push_heap(Rank::new(key, self.seq), pending);
                self.seq += 1;
            }
        }
        // The stack pops last-in first: reverse so children come in document order.
        self.stack[start..].reverse();
        let mut refs = kept;
        if self.leave_events {
            self.leaves
                .entered(current.node, current.parent, current.depth, kept, frame);
            refs += 1;
        }
        Ok(refs)
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.slab.clear();
        self.free.clear();
        self.stack.clear();
        self.active.clear();
        self.current = None;
        self.leaves.clear();
        self.seq = 0;
    }
}
