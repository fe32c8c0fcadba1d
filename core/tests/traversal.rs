//! Traversals with `DepthFirst`, compared with a recursive reference walk of a model
//! built alongside random trees: order, nesting, flow control, active lists, actor
//! chains, type filters and ordered state.

use scenewalk_core::{
    Action, ActiveList, Actor, Dispatch, Events, Flow, Graph, GraphError, NodeCore, NodeId,
    NodeIndex, Ordered, OrderedActor, RunContext, StateCell, Static, StaticActor, TraversalError,
    Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::DepthFirst;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

// ----- node types ------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

#[derive(Clone, Debug)]
struct Item(u32);
impl NodeCore for Item {}

#[derive(Clone, Debug)]
struct Base(u32);
impl NodeCore for Base {}

/// Extends `Base` (registered with it as parent type).
#[derive(Clone, Debug)]
struct Derived(Base);
impl NodeCore for Derived {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
}

#[derive(Clone, Debug)]
struct Other(u32);
impl NodeCore for Other {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Group,
    Item,
    Base,
    Derived,
    Other,
}

// ----- seeded random trees and their reference model ---------------------------------

/// xorshift64*: small, seeded, no dependency.
struct Rng(u64);
impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A graph with one tree and a plain model of it.
struct Tree {
    g: Graph,
    root: NodeId,
    nodes: Vec<NodeId>,
    kids: HashMap<NodeId, Vec<NodeId>>,
    parent: HashMap<NodeId, Option<NodeId>>,
    kind: HashMap<NodeId, Kind>,
    value: HashMap<NodeId, u32>,
}

impl Tree {
    fn new() -> Self {
        let mut g = Graph::new();
        g.register_type_with_parent::<Derived, Base>().unwrap();
        let root = g.add_root(Group);
        let mut t = Tree {
            g,
            root,
            nodes: vec![root],
            kids: HashMap::new(),
            parent: HashMap::new(),
            kind: HashMap::new(),
            value: HashMap::new(),
        };
        t.note(root, None, Kind::Group);
        t
    }

    fn note(&mut self, id: NodeId, parent: Option<NodeId>, kind: Kind) {
        self.kids.insert(id, Vec::new());
        self.parent.insert(id, parent);
        self.kind.insert(id, kind);
    }

    fn random(rng: &mut Rng, n: usize) -> Self {
        let mut t = Tree::new();
        for _ in 1..n {
            t.add_random(rng);
        }
        for _ in 0..n / 4 {
            t.move_random(rng);
        }
        t
    }

    fn add_random(&mut self, rng: &mut Rng) -> NodeId {
        let at = self.nodes[rng.below(self.nodes.len())];
        let kind = [
            Kind::Group,
            Kind::Item,
            Kind::Base,
            Kind::Derived,
            Kind::Other,
        ][rng.below(5)];
        let v = rng.below(1000) as u32;
        let before = at != self.root && rng.chance(30);
        let g = &mut self.g;
        let id = match (kind, before) {
            (Kind::Group, false) => g.append_child(at, Group),
            (Kind::Item, false) => g.append_child(at, Item(v)),
            (Kind::Base, false) => g.append_child(at, Base(v)),
            (Kind::Derived, false) => g.append_child(at, Derived(Base(v))),
            (Kind::Other, false) => g.append_child(at, Other(v)),
            (Kind::Group, true) => g.insert_before(at, Group),
            (Kind::Item, true) => g.insert_before(at, Item(v)),
            (Kind::Base, true) => g.insert_before(at, Base(v)),
            (Kind::Derived, true) => g.insert_before(at, Derived(Base(v))),
            (Kind::Other, true) => g.insert_before(at, Other(v)),
        }
        .unwrap();
        if before {
            let p = self.parent[&at].unwrap();
            let kids = self.kids.get_mut(&p).unwrap();
            let pos = kids.iter().position(|&k| k == at).unwrap();
            kids.insert(pos, id);
            self.note(id, Some(p), kind);
        } else {
            self.kids.get_mut(&at).unwrap().push(id);
            self.note(id, Some(at), kind);
        }
        if kind != Kind::Group {
            self.value.insert(id, v);
        }
        self.nodes.push(id);
        id
    }

    fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = vec![id];
        let mut i = 0;
        while i < out.len() {
            out.extend(self.kids[&out[i]].iter().copied());
            i += 1;
        }
        out
    }

    /// Moves a random non-root node under a random node outside its subtree.
    fn move_random(&mut self, rng: &mut Rng) {
        if self.nodes.len() < 3 {
            return;
        }
        let x = self.nodes[1 + rng.below(self.nodes.len() - 1)];
        let sub: HashSet<NodeId> = self.subtree(x).into_iter().collect();
        let candidates: Vec<NodeId> = self
            .nodes
            .iter()
            .copied()
            .filter(|n| !sub.contains(n))
            .collect();
        let p = candidates[rng.below(candidates.len())];
        let before = match self.kids[&p].len() {
            0 => None,
            len if rng.chance(50) => Some(self.kids[&p][rng.below(len)]),
            _ => None,
        };
        self.g.set_parent(x, Some(p), before).unwrap();
        if before == Some(x) {
            return;
        }
        let old = self.parent[&x].unwrap();
        self.kids.get_mut(&old).unwrap().retain(|&k| k != x);
        let kids = self.kids.get_mut(&p).unwrap();
        let pos = before.map_or(kids.len(), |b| kids.iter().position(|&k| k == b).unwrap());
        kids.insert(pos, x);
        self.parent.insert(x, Some(p));
    }

    /// Removes a random non-root node's subtree.
    fn remove_random(&mut self, rng: &mut Rng) {
        if self.nodes.len() < 2 {
            return;
        }
        let x = self.nodes[1 + rng.below(self.nodes.len() - 1)];
        let sub = self.subtree(x);
        assert_eq!(self.g.remove_subtree(x), Ok(sub.len()));
        let p = self.parent[&x].unwrap();
        self.kids.get_mut(&p).unwrap().retain(|&k| k != x);
        let gone: HashSet<NodeId> = sub.into_iter().collect();
        self.nodes.retain(|n| !gone.contains(n));
    }

    /// The reference: a recursive walk of the model honouring `opts`.
    fn reference(&self, node: NodeId, depth: u32, opts: &Opts, out: &mut Vec<Ev>) {
        out.push(Ev::Enter(node, depth));
        if !opts.prune.contains(&node) {
            for &k in &self.kids[&node] {
                if !opts.deactivate.contains(&k) {
                    self.reference(k, depth + 1, opts, out);
                }
            }
        }
        if opts.leaves {
            out.push(Ev::Leave(node, depth));
        }
    }

    fn expected(&self, from: NodeId, opts: &Opts) -> Vec<Ev> {
        let mut out = Vec::new();
        self.reference(from, 0, opts, &mut out);
        if let Some(k) = opts.stop_at {
            let cut = out
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, Ev::Enter(..)))
                .nth(k - 1)
                .map_or(out.len(), |(i, _)| i + 1);
            out.truncate(cut);
        }
        out
    }
}

// ----- the recording actor ---------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    Enter(NodeId, u32),
    Leave(NodeId, u32),
}

/// What the recording actor does besides recording.
#[derive(Clone, Debug, Default)]
struct Opts {
    leaves: bool,
    prune: HashSet<NodeId>,
    deactivate: HashSet<NodeId>,
    /// Stop when entering the k-th node (1-based).
    stop_at: Option<usize>,
    /// Look at the active list only where a child is to be deactivated (so iterators
    /// that build the list lazily skip it elsewhere); otherwise look at every node.
    lazy: bool,
    /// The parents of the nodes in `deactivate`.
    deactivate_parents: HashSet<NodeId>,
}

impl Opts {
    fn random(t: &Tree, rng: &mut Rng, leaves: bool) -> Self {
        let mut opts = Opts {
            leaves,
            ..Opts::default()
        };
        for &n in &t.nodes {
            if rng.chance(10) {
                opts.prune.insert(n);
            }
            if rng.chance(10)
                && let Some(p) = t.parent[&n]
            {
                opts.deactivate.insert(n);
                opts.deactivate_parents.insert(p);
            }
        }
        opts
    }

    fn lazy(self, lazy: bool) -> Self {
        Opts { lazy, ..self }
    }
}

/// What the recording actor saw when entering a node.
#[derive(Clone, Debug)]
struct Shown {
    id: NodeId,
    /// The active list's nodes and whether all were active, if the actor looked.
    active: Option<(Vec<NodeIndex>, bool)>,
    is_leaf: bool,
    parent: Option<NodeIndex>,
    /// The payload's value, read through `Visit::get` (a `Derived` as its `Base`).
    value: Option<u32>,
}

/// Records events and what it sees of each node.
#[derive(Default)]
struct Trace {
    opts: Opts,
    events: Vec<Ev>,
    /// What each entered node looked like.
    shown: Vec<Shown>,
    entered: usize,
}

impl Trace {
    fn new(opts: Opts) -> Self {
        Trace {
            opts,
            ..Trace::default()
        }
    }

    fn on_enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let id = visit.id();
        assert_eq!(id.index(), visit.node());
        self.entered += 1;
        self.events.push(Ev::Enter(id, visit.depth()));
        let look = !self.opts.lazy || self.opts.deactivate_parents.contains(&id);
        let seen = look.then(|| {
            let nodes = active.entries().iter().map(|e| e.node()).collect();
            (nodes, active.active_count() == active.len())
        });
        self.shown.push(Shown {
            id,
            active: seen,
            is_leaf: visit.is_leaf(),
            parent: visit.parent(),
            value: (visit.get::<Item>().map(|x| x.0))
                .or_else(|| visit.get::<Base>().map(|x| x.0))
                .or_else(|| visit.get::<Other>().map(|x| x.0)),
        });
        if self.opts.stop_at == Some(self.entered) {
            return Flow::Stop;
        }
        if look {
            for i in 0..active.len() {
                let child = visit.graph().id_at(active.node(i).unwrap()).unwrap();
                if self.opts.deactivate.contains(&child) {
                    active.deactivate(i);
                }
            }
        }
        if self.opts.prune.contains(&id) {
            Flow::Prune
        } else {
            Flow::Continue
        }
    }
}

impl UnorderedActor for Trace {
    const EVENTS: Events = Events::EnterLeave;
    fn begin(&mut self, _: &RunContext<'_>) {
        self.events.clear();
        self.shown.clear();
        self.entered = 0;
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.on_enter(visit, active)
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.events.push(Ev::Leave(visit.id(), visit.depth()));
    }
}

/// The same, enter-only (so the iterator produces no leave events at all).
#[derive(Default)]
struct EnterTrace(Trace);
impl UnorderedActor for EnterTrace {
    fn begin(&mut self, run: &RunContext<'_>) {
        self.0.begin(run);
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.0.on_enter(visit, active)
    }
}

/// Checks the trace is properly nested: every leave closes the innermost open enter.
fn assert_nested(events: &[Ev]) {
    let mut open = Vec::new();
    for ev in events {
        match *ev {
            Ev::Enter(id, depth) => {
                assert_eq!(
                    depth as usize,
                    open.len(),
                    "{id:?} entered at the wrong depth"
                );
                open.push(id);
            }
            Ev::Leave(id, _) => assert_eq!(open.pop(), Some(id), "leave out of order"),
        }
    }
    assert!(open.is_empty(), "unclosed enters: {open:?}");
}

fn count_enters(events: &[Ev]) -> u64 {
    events.iter().filter(|e| matches!(e, Ev::Enter(..))).count() as u64
}

// ----- order, nesting, active lists --------------------------------------------------------

#[test]
fn preorder_and_nesting_match_reference_on_random_trees() {
    let mut rng = Rng::new(1);
    let mut enter_only =
        Action::new(DepthFirst::new(), (Unordered::new(EnterTrace::default()),)).unwrap();
    let mut with_leave =
        Action::new(DepthFirst::new(), (Unordered::new(Trace::default()),)).unwrap();
    for case in 0..60 {
        let n = 1 + rng.below(300);
        let t = Tree::random(&mut rng, n);
        // From the root, and from a random inner node.
        for from in [t.root, t.nodes[rng.below(t.nodes.len())]] {
            let stats = enter_only.run(&t.g, from).unwrap();
            let want = t.expected(from, &Opts::default());
            let got = &enter_only.actor::<EnterTrace>().unwrap().0;
            assert_eq!(got.events, want, "case {case}");
            assert_eq!(
                (stats.entered, stats.left, stats.pruned),
                (want.len() as u64, 0, 0)
            );

            // Odd cases never look at the active list.
            let lazy = case % 2 == 1;
            with_leave.actor_mut::<Trace>().unwrap().opts.lazy = lazy;
            let stats = with_leave.run(&t.g, from).unwrap();
            let opts = Opts {
                leaves: true,
                ..Opts::default()
            };
            let want = t.expected(from, &opts);
            let trace = with_leave.actor::<Trace>().unwrap();
            assert_eq!(trace.events, want, "case {case}");
            assert_nested(&trace.events);
            assert_eq!(stats.entered, count_enters(&want));
            assert_eq!(stats.left, stats.entered);
            // Each node's active list is its children, in document order, all active.
            for shown in &trace.shown {
                let id = shown.id;
                let kids: Vec<NodeIndex> = t.kids[&id].iter().map(|k| k.index()).collect();
                let want_shown = (!lazy).then_some((kids.clone(), true));
                assert_eq!(shown.active, want_shown, "active list of {id:?}");
                assert_eq!(shown.is_leaf, kids.is_empty());
                assert_eq!(shown.parent, t.parent[&id].map(NodeId::index));
                assert_eq!(shown.value, t.value.get(&id).copied(), "payload of {id:?}");
            }
        }
    }
}

#[test]
fn prune_and_deactivate_skip_exactly_those_subtrees() {
    let mut rng = Rng::new(2);
    for case in 0..60 {
        let n = 1 + rng.below(300);
        let t = Tree::random(&mut rng, n);
        let opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let mut action = Action::new(
            DepthFirst::new(),
            (Unordered::new(Trace::new(opts.clone())),),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        let trace = action.actor::<Trace>().unwrap();
        assert_eq!(trace.events, want, "case {case}");
        assert_nested(&trace.events);
        let pruned = want
            .iter()
            .filter(|e| matches!(e, Ev::Enter(id, _) if opts.prune.contains(id)))
            .count() as u64;
        assert_eq!(stats.pruned, pruned);
        assert_eq!(
            (stats.entered, stats.left),
            (count_enters(&want), count_enters(&want))
        );

        // The same under an enter-only actor.
        let mut action = Action::new(
            DepthFirst::new(),
            (Unordered::new(EnterTrace(Trace::new(opts.clone()))),),
        )
        .unwrap();
        action.run(&t.g, t.root).unwrap();
        let want = t.expected(
            t.root,
            &Opts {
                leaves: false,
                ..opts
            },
        );
        assert_eq!(
            action.actor::<EnterTrace>().unwrap().0.events,
            want,
            "case {case}"
        );
    }
}

#[test]
fn stop_ends_at_once_and_the_next_run_is_clean() {
    let mut rng = Rng::new(3);
    for case in 0..40 {
        let n = 1 + rng.below(200);
        let t = Tree::random(&mut rng, n);
        let mut opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let full = count_enters(&t.expected(t.root, &opts)) as usize;
        let k = 1 + rng.below(full);
        opts.stop_at = Some(k);
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Unordered::new(Trace::new(opts.clone())),
                Ordered::new(PathSum::<true>::new(&t, &mut rng)),
            ),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        let trace = action.actor::<Trace>().unwrap();
        assert_eq!(trace.events, want, "case {case}: stop at {k}");
        assert!(stats.stopped);
        assert_eq!(stats.entered, k as u64);
        assert_eq!(
            stats.left,
            want.iter().filter(|e| matches!(e, Ev::Leave(..))).count() as u64
        );
        // The ordered actor was not called for the node that stopped.
        let sums = action.actor::<PathSum<true>>().unwrap();
        assert_eq!(sums.seen.len(), k - 1);
        sums.check(&t, false);

        // Same action, no stop: a complete, correct run.
        action.actor_mut::<Trace>().unwrap().opts.stop_at = None;
        let stats = action.run(&t.g, t.root).unwrap();
        opts.stop_at = None;
        let want = t.expected(t.root, &opts);
        assert_eq!(
            action.actor::<Trace>().unwrap().events,
            want,
            "case {case}: rerun"
        );
        assert!(!stats.stopped);
        assert_eq!(stats.entered, count_enters(&want));
        let sums = action.actor::<PathSum<true>>().unwrap();
        assert_eq!(sums.seen.len(), want.len() / 2);
        sums.check(&t, true);
    }
}

// ----- actor chains ----------------------------------------------------------------------

type Log = Arc<Mutex<Vec<String>>>;

struct StaticLog(&'static str, Log);
impl StaticActor for StaticLog {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.1
            .lock()
            .unwrap()
            .push(format!("+{}{}", self.0, visit.node().get()));
        Flow::Continue
    }
    fn leave(&self, visit: &Visit<'_>) {
        self.1
            .lock()
            .unwrap()
            .push(format!("-{}{}", self.0, visit.node().get()));
    }
}

struct UnorderedLog(&'static str, Log);
impl UnorderedActor for UnorderedLog {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.1
            .lock()
            .unwrap()
            .push(format!("+{}{}", self.0, visit.node().get()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.1
            .lock()
            .unwrap()
            .push(format!("-{}{}", self.0, visit.node().get()));
    }
}

struct OrderedLog(&'static str, Log);
impl OrderedActor for OrderedLog {
    type State = ();
    const EVENTS: Events = Events::EnterLeave;
    fn root_state(&mut self, _: &RunContext<'_>) {}
    fn enter(
        &mut self,
        _: &mut StateCell<'_, ()>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        self.1
            .lock()
            .unwrap()
            .push(format!("+{}{}", self.0, visit.node().get()));
        Flow::Continue
    }
    fn leave(&mut self, _: &(), visit: &Visit<'_>) {
        self.1
            .lock()
            .unwrap()
            .push(format!("-{}{}", self.0, visit.node().get()));
    }
}

#[test]
fn chain_calls_in_order_at_enter_and_in_reverse_at_leave() {
    let mut rng = Rng::new(4);
    let t = Tree::random(&mut rng, 120);
    let mut want = Vec::new();
    let opts = Opts {
        leaves: true,
        ..Opts::default()
    };
    for ev in t.expected(t.root, &opts) {
        match ev {
            Ev::Enter(id, _) => {
                want.extend(["a", "b", "c"].map(|a| format!("+{a}{}", id.index().get())))
            }
            Ev::Leave(id, _) => {
                want.extend(["c", "b", "a"].map(|a| format!("-{a}{}", id.index().get())))
            }
        }
    }

    let log = Log::default();
    let mut tuple = Action::new(
        DepthFirst::new(),
        (
            Static::new(StaticLog("a", log.clone())),
            Unordered::new(UnorderedLog("b", log.clone())),
            Ordered::new(OrderedLog("c", log.clone())),
        ),
    )
    .unwrap();
    let stats = tuple.run(&t.g, t.root).unwrap();
    assert_eq!(*log.lock().unwrap(), want);

    let boxed = Arc::new(Mutex::new(Vec::new()));
    let chain: Vec<Box<dyn Actor>> = vec![
        Box::new(Static::new(StaticLog("a", boxed.clone()))),
        Box::new(Unordered::new(UnorderedLog("b", boxed.clone()))),
        Box::new(Ordered::new(OrderedLog("c", boxed.clone()))),
    ];
    let mut dynamic = Action::new(DepthFirst::new(), chain).unwrap();
    assert_eq!(dynamic.run(&t.g, t.root).unwrap(), stats);
    assert_eq!(*boxed.lock().unwrap(), want);
}

/// Sees, at each node, how many of the active entries are still active.
#[derive(Default)]
struct SeesActive {
    seen: Vec<(NodeId, usize, usize)>,
    left: Vec<NodeId>,
}
impl UnorderedActor for SeesActive {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.seen
            .push((visit.id(), active.active_count(), active.len()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.left.push(visit.id());
    }
}

#[test]
fn prune_from_first_actor_still_enters_second_with_no_active_children() {
    let mut rng = Rng::new(5);
    for case in 0..30 {
        let n = 1 + rng.below(150);
        let t = Tree::random(&mut rng, n);
        let opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Unordered::new(Trace::new(opts.clone())),
                Unordered::new(SeesActive::default()),
            ),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        let second = action.actor::<SeesActive>().unwrap();
        let entered: Vec<NodeId> = want
            .iter()
            .filter_map(|e| match e {
                Ev::Enter(id, _) => Some(*id),
                _ => None,
            })
            .collect();
        let seen: Vec<NodeId> = second.seen.iter().map(|s| s.0).collect();
        assert_eq!(seen, entered, "case {case}");
        for &(id, active, len) in &second.seen {
            let kids = &t.kids[&id];
            assert_eq!(len, kids.len());
            let want_active = if opts.prune.contains(&id) {
                0
            } else {
                kids.iter().filter(|k| !opts.deactivate.contains(k)).count()
            };
            assert_eq!(active, want_active, "case {case}: node {id:?}");
        }
        // Leaves come in reverse-chain order, so the second actor's are the same nodes.
        let mut left = second.left.clone();
        left.sort();
        let mut entered = entered;
        entered.sort();
        assert_eq!(left, entered);
        assert_eq!(
            stats.pruned as usize,
            second
                .seen
                .iter()
                .filter(|s| opts.prune.contains(&s.0))
                .count()
        );
    }
}

// ----- single-type dispatch ----------------------------------------------------------------

/// Records the nodes it is called for; its dispatch is a field, to change between runs.
struct Only {
    dispatch: Dispatch,
    entered: Mutex<Vec<NodeId>>,
    left: Mutex<Vec<NodeId>>,
}
impl Only {
    fn new(dispatch: Dispatch) -> Self {
        Only {
            dispatch,
            entered: Mutex::default(),
            left: Mutex::default(),
        }
    }
    fn take(&self) -> (Vec<NodeId>, Vec<NodeId>) {
        let e = std::mem::take(&mut *self.entered.lock().unwrap());
        let l = std::mem::take(&mut *self.left.lock().unwrap());
        (e, l)
    }
}
impl StaticActor for Only {
    const EVENTS: Events = Events::EnterLeave;
    fn dispatch(&self) -> Dispatch {
        self.dispatch
    }
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.entered.lock().unwrap().push(visit.id());
        Flow::Continue
    }
    fn leave(&self, visit: &Visit<'_>) {
        self.left.lock().unwrap().push(visit.id());
    }
}

/// The unordered and ordered forms, counting per node.
struct OnlyUnordered(Dispatch, Vec<NodeId>);
impl UnorderedActor for OnlyUnordered {
    fn dispatch(&self) -> Dispatch {
        self.0
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.1.push(visit.id());
        Flow::Continue
    }
}
struct OnlyOrdered(Dispatch, Vec<NodeId>);
impl OrderedActor for OnlyOrdered {
    type State = u32;
    fn dispatch(&self) -> Dispatch {
        self.0
    }
    fn root_state(&mut self, _: &RunContext<'_>) -> u32 {
        0
    }
    fn enter(
        &mut self,
        _: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        self.1.push(visit.id());
        Flow::Continue
    }
}

#[test]
fn single_type_dispatch_sees_only_its_type_and_extensions() {
    let mut rng = Rng::new(6);
    let t = Tree::random(&mut rng, 400);
    let preorder: Vec<NodeId> = t
        .expected(t.root, &Opts::default())
        .into_iter()
        .map(|e| match e {
            Ev::Enter(id, _) | Ev::Leave(id, _) => id,
        })
        .collect();
    let of = |kinds: &[Kind]| -> Vec<NodeId> {
        preorder
            .iter()
            .copied()
            .filter(|id| kinds.contains(&t.kind[id]))
            .collect()
    };
    let cases = [
        (Dispatch::single::<Base>(), of(&[Kind::Base, Kind::Derived])),
        (Dispatch::single::<Derived>(), of(&[Kind::Derived])),
        (Dispatch::single::<Other>(), of(&[Kind::Other])),
        (Dispatch::single::<Group>(), of(&[Kind::Group])),
        (Dispatch::Uniform, preorder.clone()),
    ];
    assert!(
        cases.iter().all(|(_, want)| !want.is_empty()),
        "tree too uniform"
    );
    for (dispatch, want) in cases {
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Static::new(Only::new(dispatch)),
                Unordered::new(OnlyUnordered(dispatch, Vec::new())),
                Ordered::new(OnlyOrdered(dispatch, Vec::new())),
            ),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        assert_eq!(
            stats.entered as usize,
            preorder.len(),
            "all nodes are traversed"
        );
        let (entered, mut left) = action.actor::<Only>().unwrap().take();
        assert_eq!(entered, want, "{dispatch:?}");
        left.sort();
        let mut sorted = want.clone();
        sorted.sort();
        assert_eq!(left, sorted, "{dispatch:?} leaves");
        assert_eq!(action.actor::<OnlyUnordered>().unwrap().1, want);
        assert_eq!(action.actor::<OnlyOrdered>().unwrap().1, want);
    }

    // A type no node has (not even registered) reaches the actor for no node.
    #[derive(Clone, Debug)]
    struct Unused;
    impl NodeCore for Unused {}
    let mut action = Action::new(
        DepthFirst::new(),
        (Static::new(Only::new(Dispatch::single::<Unused>())),),
    )
    .unwrap();
    action.run(&t.g, t.root).unwrap();
    assert_eq!(action.actor::<Only>().unwrap().take(), (vec![], vec![]));
}

#[test]
fn single_type_filter_follows_a_changed_dispatch_between_runs() {
    let mut rng = Rng::new(7);
    let t = Tree::random(&mut rng, 200);
    let preorder: Vec<NodeId> = t
        .expected(t.root, &Opts::default())
        .into_iter()
        .map(|e| match e {
            Ev::Enter(id, _) | Ev::Leave(id, _) => id,
        })
        .collect();
    let of = |kind: Kind| -> Vec<NodeId> {
        preorder
            .iter()
            .copied()
            .filter(|id| t.kind[id] == kind)
            .collect()
    };
    let mut action = Action::new(
        DepthFirst::new(),
        (Static::new(Only::new(Dispatch::single::<Item>())),),
    )
    .unwrap();
    action.run(&t.g, t.root).unwrap();
    assert_eq!(action.actor::<Only>().unwrap().take().0, of(Kind::Item));
    action.actor_mut::<Only>().unwrap().dispatch = Dispatch::single::<Other>();
    action.run(&t.g, t.root).unwrap();
    assert_eq!(action.actor::<Only>().unwrap().take().0, of(Kind::Other));
    action.actor_mut::<Only>().unwrap().dispatch = Dispatch::Uniform;
    action.run(&t.g, t.root).unwrap();
    assert_eq!(action.actor::<Only>().unwrap().take().0, preorder);
}

// ----- ordered state --------------------------------------------------------------------------

/// Ordered state: the sum of the values of the ancestors (and the node) that changed it.
/// Nodes in `changers` add their value, some through `make_mut` twice, some through
/// `set`; records what each node saw.
struct PathSum<const LEAVE: bool> {
    changers: HashMap<NodeId, (u64, u8)>,
    /// (node, state before the change, state after, own state at leave)
    seen: Vec<(NodeId, u64, u64)>,
    at_leave: HashMap<NodeId, u64>,
}

impl<const LEAVE: bool> PathSum<LEAVE> {
    fn new(t: &Tree, rng: &mut Rng) -> Self {
        let mut changers = HashMap::new();
        for &n in &t.nodes {
            if rng.chance(30) {
                changers.insert(n, (1 + rng.below(100) as u64, rng.below(3) as u8));
            }
        }
        PathSum {
            changers,
            seen: Vec::new(),
            at_leave: HashMap::new(),
        }
    }

    fn own(&self, id: NodeId) -> u64 {
        self.changers.get(&id).map_or(0, |c| c.0)
    }

    /// Every recorded state equals the sum over the node's path in the model;
    /// `complete`: the run was not stopped, so every entered node was left.
    fn check(&self, t: &Tree, complete: bool) {
        for &(id, before, after) in &self.seen {
            let mut sum = 0;
            let mut up = t.parent[&id];
            while let Some(p) = up {
                sum += self.own(p);
                up = t.parent[&p];
            }
            assert_eq!(before, sum, "state seen by {id:?}");
            assert_eq!(after, sum + self.own(id), "state made by {id:?}");
            if LEAVE && complete {
                assert_eq!(
                    self.at_leave.get(&id),
                    Some(&after),
                    "state at leave of {id:?}"
                );
            }
        }
    }
}

impl<const LEAVE: bool> OrderedActor for PathSum<LEAVE> {
    type State = u64;
    const EVENTS: Events = if LEAVE {
        Events::EnterLeave
    } else {
        Events::Enter
    };
    fn root_state(&mut self, _: &RunContext<'_>) -> u64 {
        self.seen.clear();
        self.at_leave.clear();
        0
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u64>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        let id = visit.id();
        let before = *state.get();
        assert!(!state.is_own());
        if let Some(&(value, how)) = self.changers.get(&id) {
            match how {
                0 => *state.make_mut() += value,
                1 => {
                    *state.make_mut() += value - 1;
                    *state.make_mut() += 1;
                }
                _ => state.set(before + value),
            }
            assert!(state.is_own());
        }
        self.seen.push((id, before, *state.get()));
        Flow::Continue
    }
    fn leave(&mut self, state: &u64, visit: &Visit<'_>) {
        self.at_leave.insert(visit.id(), *state);
    }
}

#[test]
fn ordered_state_follows_the_path_and_copies_only_where_changed() {
    let mut rng = Rng::new(8);
    for case in 0..40 {
        let n = 1 + rng.below(300);
        let t = Tree::random(&mut rng, n);
        let opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Unordered::new(Trace::new(opts.clone())),
                Ordered::new(PathSum::<true>::new(&t, &mut rng)),
                Ordered::new(PathSum::<false>::new(&t, &mut rng)),
            ),
        )
        .unwrap();
        // Twice: the second run must not see anything of the first.
        for _ in 0..2 {
            let stats = action.run(&t.g, t.root).unwrap();
            let entered = count_enters(&t.expected(t.root, &opts)) as usize;
            let with = action.actor::<PathSum<true>>().unwrap();
            let without = action.actor::<PathSum<false>>().unwrap();
            assert_eq!(
                (with.seen.len(), without.seen.len()),
                (entered, entered),
                "case {case}"
            );
            with.check(&t, true);
            without.check(&t, true);
            // One copy per entered node that changed the state, however often it wrote.
            let changed = |seen: &[(NodeId, u64, u64)], changers: &HashMap<NodeId, (u64, u8)>| {
                seen.iter().filter(|x| changers.contains_key(&x.0)).count()
            };
            let want =
                changed(&with.seen, &with.changers) + changed(&without.seen, &without.changers);
            assert_eq!(stats.state_copies as usize, want, "case {case}");
        }
    }
}

#[test]
fn siblings_see_the_parent_state_not_each_other() {
    // root [a [a1] b c [c1]]: a and c change the state, b and the leaves do not.
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let a = g.append_child(root, Item(1)).unwrap();
    let a1 = g.append_child(a, Item(0)).unwrap();
    let b = g.append_child(root, Item(0)).unwrap();
    let c = g.append_child(root, Item(10)).unwrap();
    let c1 = g.append_child(c, Item(0)).unwrap();
    let changers = [(root, (100, 0)), (a, (1, 0)), (c, (10, 2))]
        .into_iter()
        .collect();
    let mut action = Action::new(
        DepthFirst::new(),
        (Ordered::new(PathSum::<true> {
            changers,
            seen: Vec::new(),
            at_leave: HashMap::new(),
        }),),
    )
    .unwrap();
    let stats = action.run(&g, root).unwrap();
    let sums = action.actor::<PathSum<true>>().unwrap();
    assert_eq!(
        sums.seen,
        [
            (root, 0, 100),
            (a, 100, 101),
            (a1, 101, 101),
            (b, 100, 100),
            (c, 100, 110),
            (c1, 110, 110)
        ]
    );
    assert_eq!(sums.at_leave[&b], 100);
    assert_eq!(sums.at_leave[&a1], 101);
    assert_eq!(stats.state_copies, 3);
}

// ----- finding actors, errors, reuse --------------------------------------------------------

#[test]
fn action_actor_finds_actors_by_type() {
    let log = Log::default();
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Static::new(StaticLog("s", log.clone())),
            Unordered::new(SeesActive::default()),
            Unordered::new(UnorderedLog("u", log.clone())),
            Unordered::new(UnorderedLog("second", log.clone())),
            Ordered::new(OrderedLog("o", log)),
        ),
    )
    .unwrap();
    assert_eq!(action.actor::<StaticLog>().map(|a| a.0), Some("s"));
    assert_eq!(
        action.actor::<UnorderedLog>().map(|a| a.0),
        Some("u"),
        "the first of a type"
    );
    assert_eq!(action.actor::<OrderedLog>().map(|a| a.0), Some("o"));
    assert!(action.actor::<SeesActive>().is_some());
    assert!(action.actor::<Trace>().is_none());
    assert!(action.actor::<u32>().is_none());
    action.actor_mut::<UnorderedLog>().unwrap().0 = "changed";
    assert_eq!(action.actor::<UnorderedLog>().map(|a| a.0), Some("changed"));

    let chain: Vec<Box<dyn Actor>> = vec![
        Box::new(Unordered::new(SeesActive::default())),
        Box::new(Unordered::new(Trace::default())),
    ];
    let mut dynamic = Action::new(DepthFirst::new(), chain).unwrap();
    assert!(dynamic.actor::<Trace>().is_some());
    assert!(dynamic.actor::<StaticLog>().is_none());
    dynamic.actor_mut::<Trace>().unwrap().opts.stop_at = Some(1);
    let mut g = Graph::new();
    let root = g.add_root(Group);
    g.append_child(root, Group).unwrap();
    let stats = dynamic.run(&g, root).unwrap();
    assert!(stats.stopped);
    assert_eq!(dynamic.stats(), &stats);
}

#[test]
fn run_on_a_stale_root_is_an_error_and_the_action_stays_usable() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let kid = g.append_child(root, Item(1)).unwrap();
    let gone = g.add_root(Group);
    g.remove(gone).unwrap();
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(Trace::default()),)).unwrap();
    assert_eq!(
        action.run(&g, gone),
        Err(TraversalError::Graph(GraphError::StaleNode(gone)))
    );
    // Even after the slot is reused, the old id stays refused.
    let reuse = g.add_root(Group);
    assert_eq!(reuse.index(), gone.index());
    assert_eq!(
        action.run(&g, gone),
        Err(TraversalError::Graph(GraphError::StaleNode(gone)))
    );
    action.run(&g, root).unwrap();
    assert_eq!(
        action.actor::<Trace>().unwrap().events,
        [
            Ev::Enter(root, 0),
            Ev::Enter(kid, 1),
            Ev::Leave(kid, 1),
            Ev::Leave(root, 0)
        ]
    );
}

#[test]
fn reused_action_follows_graph_edits() {
    let mut rng = Rng::new(9);
    let mut t = Tree::random(&mut rng, 100);
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Unordered::new(Trace::default()),
            Ordered::new(PathSum::<true>::new(&t, &mut rng)),
        ),
    )
    .unwrap();
    let opts = Opts {
        leaves: true,
        ..Opts::default()
    };
    for round in 0..30 {
        let rev = t.g.revision();
        for _ in 0..5 {
            match rng.below(4) {
                0 => t.move_random(&mut rng),
                1 => t.remove_random(&mut rng),
                _ => {
                    let id = t.add_random(&mut rng);
                    if rng.chance(50) {
                        action
                            .actor_mut::<PathSum<true>>()
                            .unwrap()
                            .changers
                            .insert(id, (7, 0));
                    }
                }
            }
        }
        assert!(t.g.revision() > rev);
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        assert_eq!(
            action.actor::<Trace>().unwrap().events,
            want,
            "round {round}"
        );
        assert_eq!(stats.entered, count_enters(&want));
        action.actor::<PathSum<true>>().unwrap().check(&t, true);
    }
}
