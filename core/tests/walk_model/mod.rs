//! The random trees of the traversal tests, their plain model (a recursive reference
//! walk), and the recording actor whose events the tests compare with it.

#![allow(dead_code)] // each test crate uses a part

use scenewalk_core::{
    ActiveList, Events, Flow, Graph, NodeCore, NodeId, NodeIndex, OrderedActor, RunContext,
    StateCell, StaticActor, UnorderedActor, Visit,
};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

// ----- node types ------------------------------------------------------------------

#[derive(Clone, Debug)]
pub struct Group;
impl NodeCore for Group {}

#[derive(Clone, Debug)]
pub struct Item(pub u32);
impl NodeCore for Item {}

#[derive(Clone, Debug)]
pub struct Base(pub u32);
impl NodeCore for Base {}

/// Extends `Base` (declared as its parent type).
#[derive(Clone, Debug)]
pub struct Derived(pub Base);
impl NodeCore for Derived {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<Base>())
    }
}

#[derive(Clone, Debug)]
pub struct Other(pub u32);
impl NodeCore for Other {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Group,
    Item,
    Base,
    Derived,
    Other,
}

// ----- seeded random trees and their reference model ---------------------------------

/// xorshift64*: small, seeded, no dependency.
pub struct Rng(pub u64);
impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// A graph with one tree and a plain model of it.
pub struct Tree {
    pub g: Graph,
    pub root: NodeId,
    pub nodes: Vec<NodeId>,
    pub kids: HashMap<NodeId, Vec<NodeId>>,
    pub parent: HashMap<NodeId, Option<NodeId>>,
    pub kind: HashMap<NodeId, Kind>,
    pub value: HashMap<NodeId, u32>,
}

impl Tree {
    pub fn new() -> Self {
        let mut g = Graph::new();
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

    pub fn note(&mut self, id: NodeId, parent: Option<NodeId>, kind: Kind) {
        self.kids.insert(id, Vec::new());
        self.parent.insert(id, parent);
        self.kind.insert(id, kind);
    }

    pub fn random(rng: &mut Rng, n: usize) -> Self {
        let mut t = Tree::new();
        for _ in 1..n {
            t.add_random(rng);
        }
        for _ in 0..n / 4 {
            t.move_random(rng);
        }
        t
    }

    pub fn add_random(&mut self, rng: &mut Rng) -> NodeId {
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

    pub fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = vec![id];
        let mut i = 0;
        while i < out.len() {
            out.extend(self.kids[&out[i]].iter().copied());
            i += 1;
        }
        out
    }

    /// Moves a random non-root node under a random node outside its subtree.
    pub fn move_random(&mut self, rng: &mut Rng) {
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
    pub fn remove_random(&mut self, rng: &mut Rng) {
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
    pub fn reference(&self, node: NodeId, depth: u32, opts: &Opts, out: &mut Vec<Ev>) {
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

    pub fn expected(&self, from: NodeId, opts: &Opts) -> Vec<Ev> {
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
pub enum Ev {
    Enter(NodeId, u32),
    Leave(NodeId, u32),
}

/// What the recording actor does besides recording.
#[derive(Clone, Debug, Default)]
pub struct Opts {
    pub leaves: bool,
    pub prune: HashSet<NodeId>,
    pub deactivate: HashSet<NodeId>,
    /// Stop when entering the k-th node (1-based).
    pub stop_at: Option<usize>,
    /// Look at the active list only where a child is to be deactivated (so iterators
    /// that build the list lazily skip it elsewhere); otherwise look at every node.
    pub lazy: bool,
    /// The parents of the nodes in `deactivate`.
    pub deactivate_parents: HashSet<NodeId>,
}

impl Opts {
    pub fn random(t: &Tree, rng: &mut Rng, leaves: bool) -> Self {
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

    pub fn lazy(self, lazy: bool) -> Self {
        Opts { lazy, ..self }
    }
}

/// What the recording actor saw when entering a node.
#[derive(Clone, Debug)]
pub struct Shown {
    pub id: NodeId,
    /// The active list's nodes and whether all were active, if the actor looked.
    pub active: Option<(Vec<NodeIndex>, bool)>,
    pub is_leaf: bool,
    pub parent: Option<NodeIndex>,
    /// The payload's value, read through `Visit::get` (a `Derived` as its `Base`).
    pub value: Option<u32>,
}

/// Records events and what it sees of each node.
#[derive(Default)]
pub struct Trace {
    pub opts: Opts,
    pub events: Vec<Ev>,
    /// What each entered node looked like.
    pub shown: Vec<Shown>,
    pub entered: usize,
}

impl Trace {
    pub fn new(opts: Opts) -> Self {
        Trace {
            opts,
            ..Trace::default()
        }
    }

    pub fn on_enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let id = visit.id();
        assert_eq!(id.index(), visit.node());
        self.entered += 1;
        self.events.push(Ev::Enter(id, visit.depth()));
        let look = !self.opts.lazy || self.opts.deactivate_parents.contains(&id);
        let seen = look.then(|| {
            let nodes = active.entries().iter().map(|e| e.node()).collect();
            (nodes, active.active_nodes().count() == active.len())
        });
        self.shown.push(Shown {
            id,
            active: seen,
            is_leaf: visit.graph().first_child_at(visit.node()).is_none(),
            parent: visit.graph().parent_at(visit.node()),
            value: (visit.get::<Item>().map(|x| x.0))
                .or_else(|| visit.get::<Base>().map(|x| x.0))
                .or_else(|| visit.get::<Other>().map(|x| x.0)),
        });
        if self.opts.stop_at == Some(self.entered) {
            return Flow::Stop;
        }
        if look {
            for i in 0..active.len() {
                let child = visit.graph().id_at(active.entries()[i].node()).unwrap();
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
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.events.clear();
        self.shown.clear();
        self.entered = 0;
        Ok(())
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
pub struct EnterTrace(pub Trace);
impl UnorderedActor for EnterTrace {
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.0.begin(run)
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.0.on_enter(visit, active)
    }
}

/// Checks the trace is properly nested: every leave closes the innermost open enter.
pub fn assert_nested(events: &[Ev]) {
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

pub fn count_enters(events: &[Ev]) -> u64 {
    events.iter().filter(|e| matches!(e, Ev::Enter(..))).count() as u64
}

// ----- logging actors of each class ---------------------------------------------------

pub type Log = Arc<Mutex<Vec<String>>>;

pub struct StaticLog(pub &'static str, pub Log);
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

pub struct UnorderedLog(pub &'static str, pub Log);
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

pub struct OrderedLog(pub &'static str, pub Log);
impl OrderedActor for OrderedLog {
    type State = ();
    const EVENTS: Events = Events::EnterLeave;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        Ok(())
    }
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

/// Sees, at each node, how many of the active entries are still active.
#[derive(Default)]
pub struct SeesActive {
    pub seen: Vec<(NodeId, usize, usize)>,
    pub left: Vec<NodeId>,
}
impl UnorderedActor for SeesActive {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.seen
            .push((visit.id(), active.active_nodes().count(), active.len()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.left.push(visit.id());
    }
}

// ----- ordered state ---------------------------------------------------------------------

/// Ordered state: the sum of the values of the ancestors (and the node) that changed it.
/// Nodes in `changers` add their value, some through `make_mut` twice, some through
/// `set`; records what each node saw.
pub struct PathSum<const LEAVE: bool> {
    pub changers: HashMap<NodeId, (u64, u8)>,
    /// (node, state before the change, state after, own state at leave)
    pub seen: Vec<(NodeId, u64, u64)>,
    pub at_leave: HashMap<NodeId, u64>,
}

impl<const LEAVE: bool> PathSum<LEAVE> {
    pub fn new(t: &Tree, rng: &mut Rng) -> Self {
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

    pub fn own(&self, id: NodeId) -> u64 {
        self.changers.get(&id).map_or(0, |c| c.0)
    }

    /// Every recorded state equals the sum over the node's path in the model;
    /// `complete`: the run was not stopped, so every entered node was left.
    pub fn check(&self, t: &Tree, complete: bool) {
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
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u64, scenewalk_core::TraversalError> {
        self.seen.clear();
        self.at_leave.clear();
        Ok(0)
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
