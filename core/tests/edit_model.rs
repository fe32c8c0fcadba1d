//! Model-based test of graph edits: random edit sequences run on `Graph` and on a plain
//! reference model must give the same results (the same `Ok` or the same error) and the
//! same structure after every step, and every traversal order visits the model's nodes
//! in the model's order.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Events, Flow, Graph, GraphError, NodeCore, NodeId, NodeIndex, RunContext,
    Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{BreadthFirst, DfsWalker, Flattened, PriorityQueue, Walk};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
struct P(u32);
impl NodeCore for P {}

#[derive(Clone, Debug, PartialEq)]
struct Q(u32);
impl NodeCore for Q {}

/// Zero-sized: its column stores a single value.
#[derive(Clone, Debug, PartialEq)]
struct Z;
impl NodeCore for Z {}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Pay {
    P(u32),
    Q(u32),
    Z,
}

/// Chooses a node: a live one (most of the time) or any id ever made, stale ones too.
#[derive(Clone, Copy, Debug)]
struct Pick {
    live: bool,
    i: usize,
}

/// Where `set_parent` should move a node.
#[derive(Clone, Debug)]
enum Target {
    /// `None`: make it a root.
    Root,
    /// Any node.
    Any(Pick),
    /// A node of the moved node's own subtree (itself included): must be a cycle.
    InOwnSubtree(usize),
}

#[derive(Clone, Debug)]
enum Before {
    None,
    /// Any node.
    Any(Pick),
    /// A child of the new parent, when it has one.
    ChildOfParent(usize),
}

#[derive(Clone, Debug)]
enum Op {
    AddRoot(Pay),
    Append(Pick, Pay),
    InsertBefore(Pick, Pay),
    SetParent(Pick, Target, Before),
    Detach(Pick),
    Remove(Pick),
    RemoveSubtree(Pick),
    SetPayload(Pick, u32),
}

fn pay() -> impl Strategy<Value = Pay> {
    prop_oneof![
        (0..1000u32).prop_map(Pay::P),
        (0..1000u32).prop_map(Pay::Q),
        Just(Pay::Z),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let pick = (prop::bool::weighted(0.85), 0..10_000usize).prop_map(|(live, i)| Pick { live, i });
    let target = prop_oneof![
        1 => Just(Target::Root),
        4 => pick.clone().prop_map(Target::Any),
        2 => (0..10_000usize).prop_map(Target::InOwnSubtree),
    ];
    let before = prop_oneof![
        2 => Just(Before::None),
        1 => pick.clone().prop_map(Before::Any),
        3 => (0..10_000usize).prop_map(Before::ChildOfParent),
    ];
    prop_oneof![
        2 => pay().prop_map(Op::AddRoot),
        8 => (pick.clone(), pay()).prop_map(|(p, v)| Op::Append(p, v)),
        3 => (pick.clone(), pay()).prop_map(|(s, v)| Op::InsertBefore(s, v)),
        6 => (pick.clone(), target, before).prop_map(|(n, t, b)| Op::SetParent(n, t, b)),
        1 => pick.clone().prop_map(Op::Detach),
        2 => pick.clone().prop_map(Op::Remove),
        1 => pick.clone().prop_map(Op::RemoveSubtree),
        1 => (pick, 0..1000u32).prop_map(|(n, v)| Op::SetPayload(n, v)),
    ]
}

#[derive(Clone, Debug)]
struct MNode {
    parent: Option<usize>,
    children: Vec<usize>,
    pay: Pay,
}

/// The reference: nodes by key (the position of their id in `ids`).
#[derive(Default)]
struct Model {
    nodes: HashMap<usize, MNode>,
}

impl Model {
    fn subtree(&self, key: usize) -> Vec<usize> {
        let mut out = vec![key];
        let mut i = 0;
        while i < out.len() {
            out.extend(self.nodes[&out[i]].children.iter().copied());
            i += 1;
        }
        out
    }

    fn preorder(&self, key: usize, out: &mut Vec<usize>) {
        out.push(key);
        for &c in &self.nodes[&key].children {
            self.preorder(c, out);
        }
    }

    fn events(&self, key: usize, out: &mut Vec<(bool, usize)>) {
        out.push((true, key));
        for &c in &self.nodes[&key].children {
            self.events(c, out);
        }
        out.push((false, key));
    }

    fn level_order(&self, key: usize) -> Vec<usize> {
        let mut out = vec![key];
        let mut i = 0;
        while i < out.len() {
            out.extend(self.nodes[&out[i]].children.iter().copied());
            i += 1;
        }
        out
    }

    fn unlink(&mut self, key: usize) {
        if let Some(p) = self.nodes.get_mut(&key).unwrap().parent.take() {
            self.nodes
                .get_mut(&p)
                .unwrap()
                .children
                .retain(|&c| c != key);
        }
    }

    /// Links an unlinked node under `parent`, before `before` or last.
    fn link(&mut self, key: usize, parent: usize, before: Option<usize>) {
        let kids = &mut self.nodes.get_mut(&parent).unwrap().children;
        let at = before.map_or(kids.len(), |b| kids.iter().position(|&c| c == b).unwrap());
        kids.insert(at, key);
        self.nodes.get_mut(&key).unwrap().parent = Some(parent);
    }

    fn add(&mut self, key: usize, pay: Pay) {
        self.nodes.insert(
            key,
            MNode {
                parent: None,
                children: Vec::new(),
                pay,
            },
        );
    }
}

fn add<T: NodeCore>(g: &mut Graph, at: Option<(NodeId, bool)>, v: T) -> Result<NodeId, GraphError> {
    match at {
        None => Ok(g.add_root(v)),
        Some((parent, false)) => g.append_child(parent, v),
        Some((sibling, true)) => g.insert_before(sibling, v),
    }
}

/// `at`: `None` for a root, `(id, false)` to append under `id`, `(id, true)` to insert
/// before `id`.
fn add_pay(g: &mut Graph, at: Option<(NodeId, bool)>, pay: Pay) -> Result<NodeId, GraphError> {
    match pay {
        Pay::P(v) => add(g, at, P(v)),
        Pay::Q(v) => add(g, at, Q(v)),
        Pay::Z => add(g, at, Z),
    }
}

struct Run {
    graph: Graph,
    model: Model,
    /// Every id ever made, live or stale; a node's key is its position here.
    ids: Vec<NodeId>,
}

impl Run {
    fn key_of(&self, pick: Pick) -> Option<usize> {
        if pick.live && !self.model.nodes.is_empty() {
            let mut live: Vec<usize> = self.model.nodes.keys().copied().collect();
            live.sort_unstable();
            return Some(live[pick.i % live.len()]);
        }
        (!self.ids.is_empty()).then(|| pick.i % self.ids.len())
    }

    fn live(&self, key: usize) -> Result<(), GraphError> {
        if self.model.nodes.contains_key(&key) {
            Ok(())
        } else {
            Err(GraphError::StaleNode(self.ids[key]))
        }
    }

    fn new_node(&mut self, got: Result<NodeId, GraphError>, pay: Pay) -> Result<usize, String> {
        let id = got.map_err(|e| format!("unexpected error {e}"))?;
        if self.ids.contains(&id) {
            return Err(format!("new id {id:?} equals an earlier id"));
        }
        self.ids.push(id);
        let key = self.ids.len() - 1;
        self.model.add(key, pay);
        Ok(key)
    }

    /// Applies `op` to both; returns whether the graph's revision must have grown.
    fn apply(&mut self, op: &Op) -> Result<Bump, String> {
        let expect_err = |got: Result<(), GraphError>, want: GraphError| match got {
            Err(e) if e == want => Ok(Bump::No),
            other => Err(format!("expected {want:?}, got {other:?}")),
        };
        match *op {
            Op::AddRoot(pay) => {
                let got = add_pay(&mut self.graph, None, pay);
                self.new_node(got, pay)?;
                Ok(Bump::Yes)
            }
            Op::Append(pick, pay) => {
                let Some(p) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let got = add_pay(&mut self.graph, Some((self.ids[p], false)), pay);
                if let Err(want) = self.live(p) {
                    return expect_err(got.map(|_| ()), want);
                }
                let key = self.new_node(got, pay)?;
                self.model.link(key, p, None);
                Ok(Bump::Yes)
            }
            Op::InsertBefore(pick, pay) => {
                let Some(s) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let sibling = self.ids[s];
                let got = add_pay(&mut self.graph, Some((sibling, true)), pay);
                if let Err(want) = self.live(s) {
                    return expect_err(got.map(|_| ()), want);
                }
                let Some(parent) = self.model.nodes[&s].parent else {
                    return expect_err(got.map(|_| ()), GraphError::NoParent(sibling));
                };
                let key = self.new_node(got, pay)?;
                self.model.link(key, parent, Some(s));
                Ok(Bump::Yes)
            }
            Op::SetParent(pick, ref target, ref before) => {
                let Some(n) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let parent = match *target {
                    Target::Root => None,
                    Target::Any(p) => self.key_of(p),
                    Target::InOwnSubtree(i) if self.model.nodes.contains_key(&n) => {
                        let sub = self.model.subtree(n);
                        Some(sub[i % sub.len()])
                    }
                    Target::InOwnSubtree(i) => Some(i % self.ids.len()),
                };
                let before = match *before {
                    Before::None => None,
                    Before::Any(p) => self.key_of(p),
                    Before::ChildOfParent(i) => parent
                        .and_then(|p| self.model.nodes.get(&p))
                        .filter(|p| !p.children.is_empty())
                        .map(|p| p.children[i % p.children.len()]),
                };
                self.set_parent(n, parent, before)
            }
            Op::Detach(pick) => {
                let Some(n) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let got = self.graph.set_parent(self.ids[n], None, None);
                if let Err(want) = self.live(n) {
                    return expect_err(got, want);
                }
                got.map_err(|e| format!("detach: {e}"))?;
                let changed = self.model.nodes[&n].parent.is_some();
                self.model.unlink(n);
                Ok(if changed { Bump::Yes } else { Bump::Maybe })
            }
            Op::Remove(pick) => {
                let Some(n) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let got = self.graph.remove(self.ids[n]);
                if let Err(want) = self.live(n) {
                    return expect_err(got, want);
                }
                got.map_err(|e| format!("remove: {e}"))?;
                let node = self.model.nodes[&n].clone();
                if let Some(p) = node.parent {
                    let kids = &mut self.model.nodes.get_mut(&p).unwrap().children;
                    let at = kids.iter().position(|&c| c == n).unwrap();
                    kids.splice(at..=at, node.children.iter().copied());
                }
                for c in &node.children {
                    self.model.nodes.get_mut(c).unwrap().parent = node.parent;
                }
                self.model.nodes.remove(&n);
                Ok(Bump::Yes)
            }
            Op::RemoveSubtree(pick) => {
                let Some(n) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let got = self.graph.remove_subtree(self.ids[n]);
                if let Err(want) = self.live(n) {
                    return expect_err(got.map(|_| ()), want);
                }
                let sub = self.model.subtree(n);
                if got != Ok(sub.len()) {
                    return Err(format!("remove_subtree: {got:?}, want Ok({})", sub.len()));
                }
                self.model.unlink(n);
                for k in sub {
                    self.model.nodes.remove(&k);
                }
                Ok(Bump::Yes)
            }
            Op::SetPayload(pick, v) => {
                let Some(n) = self.key_of(pick) else {
                    return Ok(Bump::No);
                };
                let id = self.ids[n];
                if let Err(want) = self.live(n) {
                    let got = self.graph.get_mut::<P>(id).map(|_| ());
                    return expect_err(got, want);
                }
                let pay = &mut self.model.nodes.get_mut(&n).unwrap().pay;
                let got = match pay {
                    Pay::P(old) => self
                        .graph
                        .get_mut::<P>(id)
                        .map(|x| x.0 = v)
                        .map(|()| *old = v),
                    Pay::Q(old) => self
                        .graph
                        .get_mut::<Q>(id)
                        .map(|x| x.0 = v)
                        .map(|()| *old = v),
                    Pay::Z => self.graph.get_mut::<Z>(id).map(|_| ()),
                };
                got.map_err(|e| format!("get_mut: {e}"))?;
                Ok(Bump::No)
            }
        }
    }

    fn set_parent(
        &mut self,
        n: usize,
        parent: Option<usize>,
        before: Option<usize>,
    ) -> Result<Bump, String> {
        let ids = &self.ids;
        let got = self
            .graph
            .set_parent(ids[n], parent.map(|p| ids[p]), before.map(|b| ids[b]));
        let want = (|| {
            self.live(n)?;
            if let Some(p) = parent {
                self.live(p)?;
            }
            if let Some(b) = before {
                self.live(b)?;
                let Some(p) = parent else {
                    return Err(GraphError::BeforeWithoutParent {
                        node: self.ids[n],
                        before: self.ids[b],
                    });
                };
                if self.model.nodes[&b].parent != Some(p) {
                    return Err(GraphError::NotAChild {
                        parent: self.ids[p],
                        before: self.ids[b],
                    });
                }
            }
            if let Some(p) = parent
                && self.model.subtree(n).contains(&p)
            {
                return Err(GraphError::Cycle {
                    node: self.ids[n],
                    new_parent: self.ids[p],
                });
            }
            Ok(())
        })();
        match (got, want) {
            (Err(g), Err(w)) if g == w => return Ok(Bump::No),
            (Ok(()), Ok(())) => {}
            (g, w) => {
                return Err(format!(
                    "set_parent({n}, {parent:?}, {before:?}): got {g:?}, want {w:?}"
                ));
            }
        }
        if before == Some(n) {
            return Ok(Bump::Maybe);
        }
        let old = self.model.nodes[&n].parent;
        let old_pos = old.map(|p| self.model.nodes[&p].children.clone());
        self.model.unlink(n);
        if let Some(p) = parent {
            self.model.link(n, p, before);
        }
        let new_pos = parent.map(|p| self.model.nodes[&p].children.clone());
        let changed = old != parent || old_pos != new_pos;
        Ok(if changed { Bump::Yes } else { Bump::Maybe })
    }

    /// The whole structure and every payload agree with the model.
    fn check(&self) -> Result<(), String> {
        let g = &self.graph;
        let id = |k: usize| self.ids[k];
        if g.len() != self.model.nodes.len() {
            return Err(format!("len {} != {}", g.len(), self.model.nodes.len()));
        }
        for (key, &nid) in self.ids.iter().enumerate() {
            let Some(node) = self.model.nodes.get(&key) else {
                if g.contains(nid) || g.parent(nid) != Err(GraphError::StaleNode(nid)) {
                    return Err(format!("{nid:?} should be stale"));
                }
                continue;
            };
            let kids: Vec<NodeId> = node.children.iter().map(|&c| id(c)).collect();
            let got_kids: Vec<NodeId> = g.children(nid).map_err(|e| e.to_string())?.collect();
            let (prev, next) = match node.parent {
                Some(p) => {
                    let sibs = &self.model.nodes[&p].children;
                    let at = sibs.iter().position(|&c| c == key).unwrap();
                    (
                        at.checked_sub(1).map(|i| id(sibs[i])),
                        sibs.get(at + 1).map(|&c| id(c)),
                    )
                }
                None => (None, None),
            };
            let checks = [
                ("parent", g.parent(nid), Ok(node.parent.map(id))),
                ("first_child", g.first_child(nid), Ok(kids.first().copied())),
                ("last_child", g.last_child(nid), Ok(kids.last().copied())),
                ("prev_sibling", g.prev_sibling(nid), Ok(prev)),
                ("next_sibling", g.next_sibling(nid), Ok(next)),
            ];
            for (what, got, want) in checks {
                if got != want {
                    return Err(format!("{what} of {nid:?}: {got:?} != {want:?}"));
                }
            }
            if got_kids != kids {
                return Err(format!("children of {nid:?}: {got_kids:?} != {kids:?}"));
            }
            let pay_ok = match node.pay {
                Pay::P(v) => g.get::<P>(nid) == Ok(&P(v)) && g.get::<Q>(nid).is_err(),
                Pay::Q(v) => g.get::<Q>(nid) == Ok(&Q(v)) && g.get::<Z>(nid).is_err(),
                Pay::Z => g.get::<Z>(nid) == Ok(&Z) && g.get::<P>(nid).is_err(),
            };
            if !pay_ok {
                return Err(format!("payload of {nid:?} should be {:?}", node.pay));
            }
        }
        let mut roots: Vec<NodeId> = g.roots().collect();
        let mut want: Vec<NodeId> = (self.model.nodes.iter())
            .filter(|(_, n)| n.parent.is_none())
            .map(|(&k, _)| id(k))
            .collect();
        roots.sort();
        want.sort();
        if roots != want {
            return Err(format!("roots {roots:?} != {want:?}"));
        }
        Ok(())
    }

    /// Every traversal order from every root visits exactly the model's nodes in the
    /// model's order: pre-order (the stackless step, the walkers, the flattened
    /// arrays, a depth-first action), enter/leave events (the walker and the action),
    /// level order (the walker, a breadth-first action with batches, a priority
    /// action whose keys all tie, so arrival order decides).
    fn check_orders(&self) -> Result<(), String> {
        let idx = |k: usize| self.ids[k].index();
        let mut depth_first = Action::new(
            DepthFirst::new(),
            (Unordered::new(Record::<true>::default()),),
        )
        .map_err(|e| e.to_string())?;
        let mut breadth_first = Action::new(
            BreadthFirst::new(),
            (Unordered::new(Record::<false>::default()),),
        )
        .map_err(|e| e.to_string())?;
        let mut priority = Action::new(
            PriorityQueue::new(),
            (Unordered::new(Record::<false>::default()),),
        )
        .map_err(|e| e.to_string())?;
        for (&key, node) in &self.model.nodes {
            if node.parent.is_some() {
                continue;
            }
            let mut keys = Vec::new();
            self.model.preorder(key, &mut keys);
            let want: Vec<NodeId> = keys.iter().map(|&k| self.ids[k]).collect();
            let pre: Vec<NodeIndex> = keys.iter().map(|&k| idx(k)).collect();
            let mut events = Vec::new();
            self.model.events(key, &mut events);
            let events: Vec<(bool, NodeIndex)> =
                events.into_iter().map(|(e, k)| (e, idx(k))).collect();
            let level: Vec<NodeIndex> = self.model.level_order(key).into_iter().map(idx).collect();

            let root = self.ids[key];
            let mut got = vec![root];
            while let Some(next) = self
                .graph
                .next_preorder(*got.last().unwrap(), root)
                .unwrap()
            {
                got.push(next);
                if got.len() > want.len() {
                    break;
                }
            }
            if got != want {
                return Err(format!("pre-order from {root:?}: {got:?} != {want:?}"));
            }
            let g = &self.graph;
            let walked: Vec<NodeIndex> = g.preorder(root).map_err(|e| e.to_string())?.collect();
            let mut walker = DfsWalker::new(root);
            let stackless: Vec<NodeIndex> = std::iter::from_fn(|| walker.next_enter(g)).collect();
            let mut flat = Flattened::new();
            flat.rebuild(g, root).map_err(|e| e.to_string())?;
            let walked_events: Vec<(bool, NodeIndex)> = g
                .depth_first(root)
                .map_err(|e| e.to_string())?
                .map(|e| (e.is_enter(), e.node()))
                .collect();
            let walked_level: Vec<NodeIndex> = g
                .breadth_first(root)
                .map_err(|e| e.to_string())?
                .map(|(n, _)| n)
                .collect();
            let run = |e: Result<_, scenewalk_core::TraversalError>| e.map_err(|e| e.to_string());
            run(depth_first.run(g, root))?;
            run(breadth_first.run(g, root))?;
            run(priority.run(g, root))?;
            let record = |events: &[(bool, NodeIndex)]| -> Vec<NodeIndex> {
                events.iter().filter(|e| e.0).map(|e| e.1).collect()
            };
            let checks: [(&str, Trace, Trace); 8] = [
                (
                    "preorder walker",
                    walked.iter().map(|&n| (true, n)).collect(),
                    pre.iter().map(|&n| (true, n)).collect(),
                ),
                (
                    "DfsWalker::next_enter",
                    stackless.iter().map(|&n| (true, n)).collect(),
                    pre.iter().map(|&n| (true, n)).collect(),
                ),
                (
                    "flattened",
                    flat.nodes().iter().map(|&n| (true, n)).collect(),
                    pre.iter().map(|&n| (true, n)).collect(),
                ),
                ("depth-first walker events", walked_events, events.clone()),
                (
                    "depth-first action events",
                    depth_first.actor::<Record<true>>().unwrap().0.clone(),
                    events,
                ),
                (
                    "breadth-first walker",
                    walked_level.iter().map(|&n| (true, n)).collect(),
                    level.iter().map(|&n| (true, n)).collect(),
                ),
                (
                    "breadth-first action",
                    breadth_first.actor::<Record<false>>().unwrap().0.clone(),
                    level.iter().map(|&n| (true, n)).collect(),
                ),
                (
                    "priority action, keys tied",
                    priority.actor::<Record<false>>().unwrap().0.clone(),
                    level.iter().map(|&n| (true, n)).collect(),
                ),
            ];
            for (name, got, want) in checks {
                if got != want {
                    return Err(format!(
                        "{name} from {root:?}: {:?} != {:?}",
                        record(&got),
                        record(&want)
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Enter (`true`) and leave events, in order.
type Trace = Vec<(bool, NodeIndex)>;

/// Records enter (`true`) and, with `LEAVES`, leave events in order; breadth-first
/// batches as enters.
#[derive(Default)]
struct Record<const LEAVES: bool>(Trace);

impl<const LEAVES: bool> UnorderedActor for Record<LEAVES> {
    const EVENTS: Events = if LEAVES {
        Events::EnterLeave
    } else {
        Events::Enter
    };
    const BATCHES: bool = true;
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.0.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push((true, visit.node()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.0.push((false, visit.node()));
    }
    fn enter_batch(&mut self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        self.0
            .extend(batch.entries().iter().map(|e| (true, e.node())));
        Flow::Continue
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bump {
    /// The edit changed the structure: the revision must grow.
    Yes,
    /// A successful edit that left the structure as it was: the revision may grow.
    Maybe,
    /// An error or a payload edit: the revision must stay.
    No,
}

fn run_ops(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut run = Run {
        graph: Graph::new(),
        model: Model::default(),
        ids: Vec::new(),
    };
    for (step, op) in ops.iter().enumerate() {
        let rev = run.graph.revision();
        let bump = run
            .apply(op)
            .map_err(|e| TestCaseError::fail(format!("step {step} {op:?}: {e}")))?;
        let now = run.graph.revision();
        let rev_ok = match bump {
            Bump::Yes => now > rev,
            Bump::Maybe => now >= rev,
            Bump::No => now == rev,
        };
        prop_assert!(
            rev_ok,
            "step {step} {op:?}: revision {rev} -> {now}, {bump:?}"
        );
        run.check()
            .map_err(|e| TestCaseError::fail(format!("after step {step} {op:?}: {e}")))?;
        run.check_orders()
            .map_err(|e| TestCaseError::fail(format!("after step {step} {op:?}: {e}")))?;
    }
    Ok(())
}

proptest! {
    // 1,000 cases of 50 edits; `EDIT_MODEL_CASES` sets another count for a soak run
    // (docs/reliability.md).
    #![proptest_config(ProptestConfig {
        cases: std::env::var("EDIT_MODEL_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn graph_matches_reference_model(ops in prop::collection::vec(op(), 50)) {
        run_ops(&ops)?;
    }
}

/// A fixed sequence through every kind of edit, so the model itself is exercised even
/// if the random cases were to miss a branch.
#[test]
fn fixed_sequence_matches_model() {
    use Op::*;
    let live = |i| Pick { live: true, i };
    let any = |i| Pick { live: false, i };
    let ops = [
        AddRoot(Pay::Z),
        Append(any(0), Pay::P(1)),
        Append(any(0), Pay::Q(2)),
        Append(any(1), Pay::P(3)),
        InsertBefore(any(2), Pay::P(4)),
        InsertBefore(any(0), Pay::P(5)), // NoParent
        SetParent(any(1), Target::InOwnSubtree(1), Before::None), // cycle via child 3
        SetParent(any(1), Target::Any(any(4)), Before::None),
        SetParent(any(3), Target::Any(any(0)), Before::ChildOfParent(0)),
        SetParent(any(2), Target::Root, Before::Any(any(0))), // NotAChild
        Detach(any(4)),
        Remove(any(4)),
        Append(any(4), Pay::Z), // stale
        AddRoot(Pay::Q(6)),     // reuses a slot
        SetPayload(any(1), 70),
        SetPayload(live(1), 80),
        RemoveSubtree(any(0)),
        SetParent(any(0), Target::Any(any(5)), Before::None), // stale node
        Remove(live(0)),
    ];
    run_ops(&ops).unwrap();
}
