//! Ordered state under iterators that do not enter nodes in document pre-order
//! (`OrderedState::Copies`): each pending node carries a `Frame` of its parent's states.
//! Two third-party iterators written against the public trait: breadth-first with one
//! current node per step, and depth-first with children in reverse order (with leave
//! events). Every state an ordered actor sees must be the one of its path.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveEntry, ActiveList, Capabilities, Events, Flow, Frame, Graph, NodeCore, NodeId,
    NodeIndex, Ordered, OrderedActor, OrderedState, RunContext, StateCell, Step, TraversalError,
    TraversalIterator, Unordered, UnorderedActor, Visit,
};
use std::collections::{HashMap, HashSet, VecDeque};

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

// ----- iterators ----------------------------------------------------------------------------

/// Breadth-first, one node per step; each queued child holds its parent's frame.
#[derive(Default)]
struct Fifo {
    queue: VecDeque<(NodeIndex, u32, Frame)>,
    children: Vec<ActiveEntry>,
}

impl TraversalIterator for Fifo {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "Fifo",
            leave_events: false,
            current_node: true,
            ordered_state: OrderedState::Copies,
        }
    }
    fn start(&mut self, _: &Graph, root: NodeIndex, _: bool) {
        self.clear();
        self.queue.push_back((root, 0, Frame::ROOT));
    }
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        let (node, depth, frame) = self.queue.pop_front()?;
        self.children.clear();
        let mut child = graph.first_child_at(node);
        while let Some(c) = child {
            self.children.push(ActiveEntry::new(c, depth + 1));
            child = graph.next_sibling_at(c);
        }
        Some(Step::Enter { node, depth, frame })
    }
    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        ActiveList::new(&mut self.children)
    }
    fn commit(&mut self, _: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError> {
        let mut stored = 0;
        if flow == Flow::Continue {
            for e in self.children.iter().filter(|e| e.is_active()) {
                self.queue.push_back((e.node(), e.depth(), frame));
                stored += 1;
            }
        }
        Ok(stored)
    }
    fn clear(&mut self) {
        self.queue.clear();
        self.children.clear();
    }
}

#[derive(Clone, Copy)]
enum Pending {
    Enter(NodeIndex, u32, Frame),
    Leave(NodeIndex, u32, Frame),
}

/// Depth-first with children in reverse document order; the pending leave of a node
/// holds the node's own frame.
#[derive(Default)]
struct Reversed {
    stack: Vec<Pending>,
    children: Vec<ActiveEntry>,
    current: Option<(NodeIndex, u32)>,
    leave_events: bool,
}

impl TraversalIterator for Reversed {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "Reversed",
            leave_events: true,
            current_node: true,
            ordered_state: OrderedState::Copies,
        }
    }
    fn start(&mut self, _: &Graph, root: NodeIndex, leave_events: bool) {
        self.clear();
        self.leave_events = leave_events;
        self.stack.push(Pending::Enter(root, 0, Frame::ROOT));
    }
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        match self.stack.pop()? {
            Pending::Leave(node, depth, frame) => Some(Step::Leave { node, depth, frame }),
            Pending::Enter(node, depth, frame) => {
                self.children.clear();
                let mut child = graph.first_child_at(node);
                while let Some(c) = child {
                    self.children.push(ActiveEntry::new(c, depth + 1));
                    child = graph.next_sibling_at(c);
                }
                self.current = Some((node, depth));
                Some(Step::Enter { node, depth, frame })
            }
        }
    }
    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        ActiveList::new(&mut self.children)
    }
    fn commit(&mut self, _: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError> {
        let Some((node, depth)) = self.current.take() else {
            return Ok(0);
        };
        let mut stored = 0;
        if self.leave_events {
            self.stack.push(Pending::Leave(node, depth, frame));
            stored += 1;
        }
        if flow == Flow::Continue {
            // Pushed in document order, so they pop in reverse.
            for e in self.children.iter().filter(|e| e.is_active()) {
                self.stack.push(Pending::Enter(e.node(), e.depth(), frame));
                stored += 1;
            }
        }
        Ok(stored)
    }
    fn clear(&mut self) {
        self.stack.clear();
        self.children.clear();
        self.current = None;
    }
}

// ----- model and actors ---------------------------------------------------------------------

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

struct Tree {
    g: Graph,
    root: NodeId,
    nodes: Vec<NodeId>,
    kids: HashMap<NodeId, Vec<NodeId>>,
    parent: HashMap<NodeId, NodeId>,
}

impl Tree {
    fn random(rng: &mut Rng, n: usize) -> Self {
        let mut g = Graph::new();
        let root = g.add_root(Group);
        let mut t = Tree {
            g,
            root,
            nodes: vec![root],
            kids: HashMap::from([(root, Vec::new())]),
            parent: HashMap::new(),
        };
        for _ in 1..n {
            // Favour recent nodes a little, for depth.
            let len = t.nodes.len();
            let window = 1 + rng.below(len);
            let at = t.nodes[len - 1 - rng.below(window)];
            let id = t.g.append_child(at, Group).unwrap();
            t.kids.get_mut(&at).unwrap().push(id);
            t.kids.insert(id, Vec::new());
            t.parent.insert(id, at);
            t.nodes.push(id);
        }
        t
    }

    /// Nodes entered in breadth-first order, honouring prune and deactivation.
    fn bfs(&self, cut: &Cut) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut queue = VecDeque::from([self.root]);
        while let Some(n) = queue.pop_front() {
            out.push(n);
            if !cut.prune.contains(&n) {
                queue.extend(self.kids[&n].iter().filter(|k| !cut.deactivate.contains(k)));
            }
        }
        out
    }

    /// Enter and leave events of a depth-first walk with children in reverse order.
    fn reversed(&self, n: NodeId, cut: &Cut, out: &mut Vec<(bool, NodeId)>) {
        out.push((true, n));
        if !cut.prune.contains(&n) {
            for &k in self.kids[&n].iter().rev() {
                if !cut.deactivate.contains(&k) {
                    self.reversed(k, cut, out);
                }
            }
        }
        out.push((false, n));
    }
}

/// Prunes and deactivates; records the enter order.
#[derive(Default)]
struct Cut {
    prune: HashSet<NodeId>,
    deactivate: HashSet<NodeId>,
    stop_at: Option<usize>,
    events: Vec<(bool, NodeId)>,
}
impl UnorderedActor for Cut {
    const EVENTS: Events = Events::EnterLeave;
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.events.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.events.push((true, visit.id()));
        if Some(self.events.iter().filter(|e| e.0).count()) == self.stop_at {
            return Flow::Stop;
        }
        for i in 0..active.len() {
            let id = visit.graph().id_at(active.entries()[i].node()).unwrap();
            if self.deactivate.contains(&id) {
                active.deactivate(i);
            }
        }
        if self.prune.contains(&visit.id()) {
            Flow::Prune
        } else {
            Flow::Continue
        }
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.events.push((false, visit.id()));
    }
}

/// State: the list of changing ancestors (and the node) from the root down.
struct Path<const LEAVE: bool> {
    changers: HashSet<NodeId>,
    seen: HashMap<NodeId, (Vec<NodeId>, Vec<NodeId>)>,
    at_leave: HashMap<NodeId, Vec<NodeId>>,
}

impl<const LEAVE: bool> Path<LEAVE> {
    fn new(t: &Tree, rng: &mut Rng) -> Self {
        Path {
            changers: t
                .nodes
                .iter()
                .copied()
                .filter(|_| rng.below(3) == 0)
                .collect(),
            seen: HashMap::new(),
            at_leave: HashMap::new(),
        }
    }

    /// Every recorded state is the node's path; returns how many nodes changed it.
    fn check(&self, t: &Tree, complete: bool) -> u64 {
        for (id, (before, after)) in &self.seen {
            let mut path = Vec::new();
            let mut up = t.parent.get(id).copied();
            while let Some(p) = up {
                if self.changers.contains(&p) {
                    path.push(p);
                }
                up = t.parent.get(&p).copied();
            }
            path.reverse();
            assert_eq!(before, &path, "state seen by {id:?}");
            if self.changers.contains(id) {
                path.push(*id);
            }
            assert_eq!(after, &path, "state made by {id:?}");
            if LEAVE && complete {
                assert_eq!(
                    self.at_leave.get(id),
                    Some(&path),
                    "state at leave of {id:?}"
                );
            }
        }
        self.seen
            .keys()
            .filter(|id| self.changers.contains(id))
            .count() as u64
    }
}

impl<const LEAVE: bool> OrderedActor for Path<LEAVE> {
    type State = Vec<NodeId>;
    const EVENTS: Events = if LEAVE {
        Events::EnterLeave
    } else {
        Events::Enter
    };
    fn root_state(
        &mut self,
        _: &RunContext<'_>,
    ) -> Result<Vec<NodeId>, scenewalk_core::TraversalError> {
        self.seen.clear();
        self.at_leave.clear();
        Ok(Vec::new())
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, Vec<NodeId>>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        let before = state.get().clone();
        if self.changers.contains(&visit.id()) {
            state.make_mut().push(visit.id());
            let again = state.make_mut().len();
            assert_eq!(again, before.len() + 1);
        }
        self.seen.insert(visit.id(), (before, state.get().clone()));
        Flow::Continue
    }
    fn leave(&mut self, state: &Vec<NodeId>, visit: &Visit<'_>) {
        self.at_leave.insert(visit.id(), state.clone());
    }
}

fn cut(t: &Tree, rng: &mut Rng) -> Cut {
    let mut cut = Cut::default();
    for &n in &t.nodes[1..] {
        match rng.below(12) {
            0 => {
                cut.prune.insert(n);
            }
            1 => {
                cut.deactivate.insert(n);
            }
            _ => {}
        }
    }
    cut
}

// ----- tests ----------------------------------------------------------------------------------

#[test]
fn breadth_first_with_frames_gives_each_node_its_path_state() {
    let mut rng = Rng(0x5eed);
    for case in 0..40 {
        let n = 1 + rng.below(250);
        let t = Tree::random(&mut rng, n);
        let c = cut(&t, &mut rng);
        let want = t.bfs(&c);
        // Enter-only: the breadth-first iterator gives no leave events.
        struct EnterCut(Cut);
        impl UnorderedActor for EnterCut {
            fn begin(
                &mut self,
                run: &RunContext<'_>,
            ) -> Result<(), scenewalk_core::TraversalError> {
                self.0.begin(run)
            }
            fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
                self.0.enter(visit, active)
            }
        }
        let mut action = Action::new(
            Fifo::default(),
            (
                Unordered::new(EnterCut(c)),
                Ordered::new(Path::<false>::new(&t, &mut rng)),
                Ordered::new(Path::<false>::new(&t, &mut rng)),
            ),
        )
        .unwrap();
        for round in 0..2 {
            let stats = action.run(&t.g, t.root).unwrap();
            let got: Vec<NodeId> = action
                .actor::<EnterCut>()
                .unwrap()
                .0
                .events
                .iter()
                .map(|e| e.1)
                .collect();
            assert_eq!(got, want, "case {case} round {round}");
            let (_, first, second) = action.actors();
            let copies = first.get().check(&t, true) + second.get().check(&t, true);
            assert_eq!(first.get().seen.len(), want.len());
            assert_eq!(stats.state_copies, copies, "case {case}");
            assert_eq!(action.live_frames(), 0, "case {case}: frames leaked");
        }
    }
}

#[test]
fn reversed_depth_first_with_frames_and_leaves() {
    let mut rng = Rng(0xfeed);
    for case in 0..40 {
        let n = 1 + rng.below(250);
        let t = Tree::random(&mut rng, n);
        let c = cut(&t, &mut rng);
        let mut want = Vec::new();
        t.reversed(t.root, &c, &mut want);
        let mut action = Action::new(
            Reversed::default(),
            (
                Unordered::new(c),
                Ordered::new(Path::<true>::new(&t, &mut rng)),
                Ordered::new(Path::<false>::new(&t, &mut rng)),
            ),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        assert_eq!(action.actor::<Cut>().unwrap().events, want, "case {case}");
        let copies = action.actor::<Path<true>>().unwrap().check(&t, true)
            + action.actor::<Path<false>>().unwrap().check(&t, true);
        assert_eq!(stats.state_copies, copies, "case {case}");
        assert_eq!(action.live_frames(), 0, "case {case}: frames leaked");

        // Stop part-way, then a full run: nothing of the stopped run remains.
        let entered = want.len() / 2;
        let stop = 1 + rng.below(entered);
        action.actor_mut::<Cut>().unwrap().stop_at = Some(stop);
        let stats = action.run(&t.g, t.root).unwrap();
        assert!(stats.stopped);
        assert_eq!(stats.entered, stop as u64);
        action.actor::<Path<true>>().unwrap().check(&t, false);
        action.actor_mut::<Cut>().unwrap().stop_at = None;
        let stats = action.run(&t.g, t.root).unwrap();
        assert!(!stats.stopped);
        assert_eq!(
            action.actor::<Cut>().unwrap().events,
            want,
            "case {case} after stop"
        );
        let copies = action.actor::<Path<true>>().unwrap().check(&t, true)
            + action.actor::<Path<false>>().unwrap().check(&t, true);
        assert_eq!(stats.state_copies, copies, "case {case} after stop");
        assert_eq!(
            action.live_frames(),
            0,
            "case {case}: frames leaked after stop"
        );
    }
}

#[test]
fn depth_stack_and_frames_agree_on_every_state() {
    let mut rng = Rng(0xbeef);
    for case in 0..20 {
        let n = 1 + rng.below(250);
        let t = Tree::random(&mut rng, n);
        let path = Path::<true>::new(&t, &mut rng);
        let changers = path.changers.clone();
        let mut stack = Action::new(DepthFirst::new(), (Ordered::new(path),)).unwrap();
        let mut frames = Action::new(
            Reversed::default(),
            (Ordered::new(Path::<true> {
                changers,
                seen: HashMap::new(),
                at_leave: HashMap::new(),
            }),),
        )
        .unwrap();
        let a = stack.run(&t.g, t.root).unwrap();
        let b = frames.run(&t.g, t.root).unwrap();
        assert_eq!(
            (a.entered, a.left, a.state_copies),
            (b.entered, b.left, b.state_copies)
        );
        let (x, y) = (
            stack.actor::<Path<true>>().unwrap(),
            frames.actor::<Path<true>>().unwrap(),
        );
        assert_eq!(x.seen, y.seen, "case {case}");
        assert_eq!(x.at_leave, y.at_leave, "case {case}");
        x.check(&t, true);
    }
}

/// Claims state copies but hands every node `Frame::ROOT` and stores nothing: a
/// broken third-party iterator. The run must not panic; states fall back to the
/// root's.
#[derive(Default)]
struct Forgetful(Fifo);

impl TraversalIterator for Forgetful {
    fn capabilities(&self) -> Capabilities {
        self.0.capabilities()
    }
    fn start(&mut self, graph: &Graph, root: NodeIndex, leave: bool) {
        self.0.start(graph, root, leave);
    }
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        match self.0.next(graph)? {
            Step::Enter { node, depth, .. } => Some(Step::Enter {
                node,
                depth,
                frame: Frame::ROOT,
            }),
            other => Some(other),
        }
    }
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        self.0.active(graph)
    }
    fn commit(&mut self, graph: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError> {
        self.0.commit(graph, flow, frame).map(|_| 0)
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}

#[test]
fn an_iterator_that_misuses_frames_cannot_make_a_run_panic() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut frontier = vec![root];
    for _ in 0..4 {
        let mut next = Vec::new();
        for &p in &frontier {
            next.push(graph.append_child(p, Group).unwrap());
            next.push(graph.append_child(p, Group).unwrap());
        }
        frontier = next;
    }
    // Every node changes the state, so every lookup goes through a released version.
    let everyone = Path::<false> {
        changers: (0..31u32)
            .filter_map(|i| graph.id_at(NodeIndex::new(i)))
            .collect(),
        seen: HashMap::new(),
        at_leave: HashMap::new(),
    };
    let mut action = Action::new(Forgetful::default(), (Ordered::new(everyone),)).unwrap();
    let stats = action.run(&graph, root).unwrap();
    assert_eq!(stats.entered, 31);
}

/// Ends the run at its `at`-th enter: with `Flow::Stop`, with a NaN key on the
/// children of the first node from there on that has some, or with a panic.
struct EndAt {
    at: usize,
    how: u8,
    seen: usize,
}

impl UnorderedActor for EndAt {
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.seen = 0;
        Ok(())
    }
    fn enter(&mut self, _: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.seen += 1;
        match self.how {
            0 if self.seen == self.at => Flow::Stop,
            1 if self.seen >= self.at && !active.is_empty() => {
                active.set_key(0, f32::NAN);
                Flow::Continue
            }
            2 if self.seen == self.at => panic!("an actor fails"),
            _ => Flow::Continue,
        }
    }
}

#[test]
fn every_frame_is_released_when_a_run_ends_in_any_way() {
    use scenewalk_iterators::{PriorityQueue, SwitchRule};
    let mut rng = Rng(0x5eed);
    for case in 0..30 {
        let n = 2 + rng.below(200);
        let t = Tree::random(&mut rng, n);
        for how in 0..3 {
            let at = 1 + rng.below(t.nodes.len());
            let chain = |rng: &mut Rng| {
                (
                    Unordered::new(EndAt { at, how, seen: 0 }),
                    Ordered::new(Path::<true>::new(&t, rng)),
                )
            };
            let mut pq = Action::new(PriorityQueue::new(), chain(&mut rng)).unwrap();
            let mut hybrid = Action::new(
                PriorityQueue::hybrid(SwitchRule::AtDepth(2)),
                chain(&mut rng),
            )
            .unwrap();
            let mut reversed = Action::new(Reversed::default(), chain(&mut rng)).unwrap();
            let ends = [
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pq.run(&t.g, t.root))),
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| hybrid.run(&t.g, t.root))),
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    reversed.run(&t.g, t.root)
                })),
            ];
            let live = [
                pq.live_frames(),
                hybrid.live_frames(),
                reversed.live_frames(),
            ];
            assert_eq!(live, [0; 3], "case {case}, end {how}: {ends:?}");
        }
    }
}
