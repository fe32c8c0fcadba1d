//! Every cell of docs/compatibility.md: each actor class under each iterator, either
//! refused with its reason or run on random trees with the promised behaviour checked.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{
    Action, ActiveList, Actor, Arms, Dispatch, Events, Flow, Functor, Graph, MethodTable, NodeCore,
    NodeId, NodeIndex, Ordered, OrderedActor, RunContext, RunStats, StateCell, Static, StaticActor,
    TraversalIterator, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{BreadthFirst, DepthFirst, Flattened, PriorityQueue, SwitchRule};
use std::collections::{BTreeMap, BTreeSet};

mod common;
use common::Rng;

#[derive(Clone, Debug)]
struct Plain;
impl NodeCore for Plain {}

#[derive(Clone, Debug)]
struct Mark;
impl NodeCore for Mark {}

/// Extends `Mark`, so single-type and per-type dispatch must treat it as one.
#[derive(Clone, Debug)]
struct SubMark(Mark);
impl NodeCore for SubMark {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<Mark>())
    }
}

struct Scene {
    graph: Graph,
    root: NodeId,
    ids: Vec<NodeId>,
}

impl Scene {
    fn random(n: usize, seed: u64) -> Self {
        let mut rng = Rng(seed);
        let mut graph = Graph::new();
        let root = graph.add_root(Plain);
        let mut ids = vec![root];
        for _ in 1..n {
            let parent = ids[rng.below(ids.len())];
            let id = match rng.below(4) {
                0 => graph.append_child(parent, Mark),
                1 => graph.append_child(parent, SubMark(Mark)),
                _ => graph.append_child(parent, Plain),
            };
            ids.push(id.unwrap());
        }
        Scene { graph, root, ids }
    }

    fn is_mark(&self, id: NodeId) -> bool {
        self.graph.get::<Mark>(id).is_ok()
    }

    /// Marks on the path from the root down to `id`, both included: what the ordered
    /// actor must see.
    fn marks_on_path(&self, id: NodeId) -> u32 {
        let mut n = 0;
        let mut at = Some(id);
        while let Some(node) = at {
            n += u32::from(self.is_mark(node));
            at = self.graph.parent(node).unwrap();
        }
        n
    }

    fn all(&self) -> BTreeSet<NodeIndex> {
        self.ids.iter().map(|id| id.index()).collect()
    }
}

/// Keys children pseudo-randomly so priority orders differ from document order.
struct Keys;
impl StaticActor for Keys {
    const BATCHES: bool = true;
    fn enter(&self, _: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        for mut entry in active.iter_mut() {
            entry.set_key(((entry.node().raw() * 7919) % 101) as f32);
        }
        Flow::Continue
    }
}

/// Enter-only, unordered, uniform, batching: records what it sees.
#[derive(Default)]
struct Seen {
    nodes: Vec<NodeIndex>,
    batch_calls: u64,
}
impl UnorderedActor for Seen {
    const BATCHES: bool = true;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.nodes.push(visit.node());
        Flow::Continue
    }
    fn enter_batch(&mut self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        self.batch_calls += 1;
        self.nodes.extend(batch.entries().iter().map(|e| e.node()));
        Flow::Continue
    }
    fn fork(&self) -> Option<Self> {
        Some(Self::default())
    }
    fn merge(&mut self, worker: Self) {
        self.nodes.extend(worker.nodes);
        self.batch_calls += worker.batch_calls;
    }
}

/// The same as `Seen`, but static: counts through a cell it only reads during a run.
#[derive(Default)]
struct StaticSeen {
    seen: std::sync::Mutex<Vec<NodeIndex>>,
}
impl StaticActor for StaticSeen {
    const BATCHES: bool = true;
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.seen.lock().unwrap().push(visit.node());
        Flow::Continue
    }
    fn enter_batch(&self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        let nodes: Vec<_> = batch.entries().iter().map(|e| e.node()).collect();
        self.seen.lock().unwrap().extend(nodes);
        Flow::Continue
    }
}

/// Enter + leave: records the event sequence.
#[derive(Default)]
struct Trace(Vec<(bool, NodeIndex)>);
impl UnorderedActor for Trace {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push((true, visit.node()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.0.push((false, visit.node()));
    }
    fn fork(&self) -> Option<Self> {
        Some(Self::default())
    }
    fn merge(&mut self, worker: Self) {
        self.0.extend(worker.0);
    }
}

/// Ordered: counts marks along the path; records what each node sees.
#[derive(Default)]
struct PathMarks(BTreeMap<NodeIndex, u32>);
impl OrderedActor for PathMarks {
    type State = u32;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, scenewalk_core::TraversalError> {
        self.0.clear();
        Ok(0)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        if visit.get::<Mark>().is_some() {
            *state.make_mut() += 1;
        }
        self.0.insert(visit.node(), *state.get());
        Flow::Continue
    }
}

/// `PathMarks` with a fork/merge hook: its state is a count, a value, so a fork
/// starts from it as it is; a map merges by union.
#[cfg(feature = "parallel")]
#[derive(Default)]
struct ForkedPathMarks(PathMarks);
#[cfg(feature = "parallel")]
impl OrderedActor for ForkedPathMarks {
    type State = u32;
    const FORKS: bool = true;
    fn root_state(&mut self, run: &RunContext<'_>) -> Result<u32, scenewalk_core::TraversalError> {
        self.0.root_state(run)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        visit: &Visit<'_>,
        active: &mut ActiveList<'_>,
    ) -> Flow {
        self.0.enter(state, visit, active)
    }
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        Some((Self::default(), *state))
    }
    fn merge(&mut self, worker: Self) {
        self.0.0.extend(worker.0.0);
    }
}

/// Single-type dispatch on `Mark`.
#[derive(Default)]
struct MarksOnly(Vec<NodeIndex>);
impl UnorderedActor for MarksOnly {
    fn dispatch(&self) -> Dispatch {
        Dispatch::single::<Mark>()
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push(visit.node());
        Flow::Continue
    }
    fn fork(&self) -> Option<Self> {
        Some(Self::default())
    }
    fn merge(&mut self, worker: Self) {
        self.0.extend(worker.0);
    }
}

/// Uniform, but no `enter_batch`.
#[derive(Default)]
struct NoBatch(u64);
impl UnorderedActor for NoBatch {
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

fn per_type() -> Arms<(u64, u64), (), MethodTable<(u64, u64)>> {
    let mut table = MethodTable::new();
    table
        .add::<Mark>(Functor::function(|_: &Mark, _, c: &mut (u64, u64)| {
            c.0 += 1;
            Flow::Continue
        }))
        .set_default(Functor::any(|_, c: &mut (u64, u64)| {
            c.1 += 1;
            Flow::Continue
        }));
    Arms::new((0, 0)).otherwise_table(table)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Iter {
    DepthFirst,
    Priority,
    Hybrid,
    BreadthFirst,
    Flattened,
}

const ITERATORS: [Iter; 5] = [
    Iter::DepthFirst,
    Iter::Priority,
    Iter::Hybrid,
    Iter::BreadthFirst,
    Iter::Flattened,
];

/// Runs `(Keys, actor)` under the iterator `which`; `Err(reason)` if refused.
fn run<A: Actor>(which: Iter, actor: A, scene: &Scene) -> Result<(A, RunStats), String> {
    fn go<I: TraversalIterator, A: Actor>(
        it: I,
        actor: A,
        scene: &Scene,
    ) -> Result<(A, RunStats), String> {
        let mut action = Action::new(it, (Static::new(Keys), actor)).map_err(|e| e.to_string())?;
        let stats = action
            .run(&scene.graph, scene.root)
            .map_err(|e| e.to_string())?;
        assert_eq!(action.live_frames(), 0);
        let (_, (_, actor)) = action.into_parts();
        Ok((actor, stats))
    }
    match which {
        Iter::DepthFirst => go(DepthFirst::new(), actor, scene),
        Iter::Priority => go(PriorityQueue::new(), actor, scene),
        Iter::Hybrid => go(PriorityQueue::hybrid(SwitchRule::AtDepth(2)), actor, scene),
        Iter::BreadthFirst => go(BreadthFirst::new().with_max_batch(16), actor, scene),
        Iter::Flattened => go(Flattened::new(), actor, scene),
    }
}

fn refused<T>(result: Result<T, String>, reason: &str, actor: &str) {
    match result {
        Ok(_) => panic!("expected a refusal ({reason})"),
        Err(message) => {
            assert!(
                message.contains(reason),
                "{message:?} should say {reason:?}"
            );
            assert!(message.contains(actor), "{message:?} should name {actor:?}");
        }
    }
}

/// Parents come before children in `order`.
fn parents_first(scene: &Scene, order: &[NodeIndex]) {
    let position: BTreeMap<NodeIndex, usize> =
        order.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    for &id in &scene.ids[1..] {
        let parent = scene.graph.parent(id).unwrap().unwrap();
        assert!(position[&parent.index()] < position[&id.index()]);
    }
}

/// Leaves nest: each node is entered once, left once, and left after every
/// descendant was left.
fn leaves_nest(scene: &Scene, events: &[(bool, NodeIndex)]) {
    let mut entered = BTreeMap::new();
    let mut left = BTreeMap::new();
    for (i, &(enter, node)) in events.iter().enumerate() {
        let slot = if enter { &mut entered } else { &mut left };
        assert!(slot.insert(node, i).is_none(), "{node:?} twice");
    }
    assert_eq!(entered.len(), scene.ids.len());
    assert_eq!(left.len(), scene.ids.len());
    for &id in &scene.ids[1..] {
        let parent = scene.graph.parent(id).unwrap().unwrap().index();
        assert!(entered[&parent] < entered[&id.index()]);
        assert!(left[&id.index()] < left[&parent]);
        assert!(entered[&id.index()] < left[&id.index()]);
    }
}

#[test]
fn every_cell_of_the_table() {
    for seed in 0..6 {
        let scene = Scene::random(300, seed);
        let all = scene.all();
        let marks: BTreeSet<NodeIndex> = scene
            .ids
            .iter()
            .filter(|&&id| scene.is_mark(id))
            .map(|id| id.index())
            .collect();
        for which in ITERATORS {
            let batching = which == Iter::BreadthFirst;

            // events: enter only; state: unordered; dispatch: uniform.
            let (seen, stats) = run(which, Unordered::new(Seen::default()), &scene).unwrap();
            let seen = seen.into_inner();
            assert_eq!(
                seen.nodes.iter().copied().collect::<BTreeSet<_>>(),
                all,
                "{which:?}"
            );
            assert_eq!(seen.nodes.len(), all.len(), "{which:?}: each node once");
            if batching {
                assert_eq!(seen.batch_calls, stats.batches);
                assert_eq!(stats.chain_calls, stats.batches);
                assert!(stats.batches < all.len() as u64);
            } else {
                parents_first(&scene, &seen.nodes);
                assert_eq!(stats.chain_calls, all.len() as u64);
            }

            // state: static.
            let (seen, _) = run(which, Static::new(StaticSeen::default()), &scene).unwrap();
            let seen = seen.into_inner().seen.into_inner().unwrap();
            assert_eq!(
                seen.iter().copied().collect::<BTreeSet<_>>(),
                all,
                "{which:?}"
            );

            // events: enter + leave.
            let trace = run(which, Unordered::new(Trace::default()), &scene);
            if batching {
                refused(trace, "leave events", "Trace");
            } else {
                leaves_nest(&scene, &trace.unwrap().0.into_inner().0);
            }

            // state: ordered.
            let ordered = run(which, Ordered::new(PathMarks::default()), &scene);
            if batching {
                refused(ordered, "ordered state", "PathMarks");
            } else {
                let (actor, stats) = ordered.unwrap();
                let seen = actor.into_inner().0;
                for &id in &scene.ids {
                    assert_eq!(
                        seen[&id.index()],
                        scene.marks_on_path(id),
                        "{which:?} {id:?}"
                    );
                }
                assert_eq!(
                    stats.state_copies,
                    marks.len() as u64,
                    "copies follow writes"
                );
            }

            // dispatch: single type (Mark and SubMark only).
            let single = run(which, Unordered::new(MarksOnly::default()), &scene);
            if batching {
                refused(single, "current node's type", "MarksOnly");
            } else {
                let got: BTreeSet<_> = single.unwrap().0.into_inner().0.into_iter().collect();
                assert_eq!(got, marks, "{which:?}");
            }

            // dispatch: per type (Mark functor, default for the rest).
            let table = run(which, Unordered::new(per_type()), &scene);
            if batching {
                refused(table, "current node's type", "Arms");
            } else {
                let counts = table.unwrap().0.into_inner().context;
                assert_eq!(
                    counts,
                    (marks.len() as u64, (all.len() - marks.len()) as u64)
                );
            }

            // no enter_batch.
            let plain = run(which, Unordered::new(NoBatch::default()), &scene);
            if batching {
                refused(plain, "single current node", "NoBatch");
            } else {
                assert_eq!(plain.unwrap().0.into_inner().0, all.len() as u64);
            }
        }
    }
}

/// A uniform actor that can be switched to single-type dispatch between runs.
struct Switchable(bool);
impl UnorderedActor for Switchable {
    const BATCHES: bool = true;
    fn dispatch(&self) -> Dispatch {
        if self.0 {
            Dispatch::single::<Mark>()
        } else {
            Dispatch::Uniform
        }
    }
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

#[test]
fn a_dispatch_changed_after_building_is_checked_again_at_run() {
    let scene = Scene::random(30, 1);
    let mut action =
        Action::new(BreadthFirst::new(), (Unordered::new(Switchable(false)),)).unwrap();
    action.run(&scene.graph, scene.root).unwrap();
    action.actor_mut::<Switchable>().unwrap().0 = true;
    let err = action.run(&scene.graph, scene.root).unwrap_err();
    assert!(
        matches!(err, scenewalk_core::TraversalError::Incompatible(_)),
        "{err}"
    );
    assert!(err.to_string().contains("Switchable"));
}

/// Per-type dispatch in a static actor: counts nodes by type index through atomics.
#[cfg(feature = "parallel")]
#[derive(Default)]
struct PerTypeCount([std::sync::atomic::AtomicU64; 8]);
#[cfg(feature = "parallel")]
impl StaticActor for PerTypeCount {
    fn dispatch(&self) -> Dispatch {
        Dispatch::PerType
    }
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        if let Some(count) = self.0.get(visit.node_type().get()) {
            count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Flow::Continue
    }
}

/// Runs `(Keys, actor)` with `Action::run_parallel` on two threads.
#[cfg(feature = "parallel")]
fn run_parallel<A>(actor: A, scene: &Scene) -> Result<(A, RunStats), String>
where
    (Static<Keys>, A): scenewalk_core::ParallelChain + Send,
{
    let mut action =
        Action::new(DepthFirst::new(), (Static::new(Keys), actor)).map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let stats = pool
        .install(|| action.run_parallel(&scene.graph, scene.root))
        .map_err(|e| e.to_string())?;
    let (_, (_, actor)) = action.into_parts();
    Ok((actor, stats))
}

/// The PAR column: `Action::run_parallel`, on trees large enough to split.
#[cfg(feature = "parallel")]
#[test]
fn the_parallel_column() {
    for seed in 0..3 {
        // In depth-first slot order: a scattered tree runs on the calling thread.
        let mut scene = Scene::random(6000, seed);
        let remap = scene.graph.compact().unwrap();
        scene.root = remap.get(scene.root).unwrap();
        scene.ids = scene.ids.iter().map(|&id| remap.get(id).unwrap()).collect();
        let all = scene.all();
        let preorder: Vec<NodeIndex> = {
            let mut order = vec![scene.root];
            while let Some(next) = scene
                .graph
                .next_preorder(*order.last().unwrap(), scene.root)
                .unwrap()
            {
                order.push(next);
            }
            order.into_iter().map(NodeId::index).collect()
        };
        let marks: BTreeSet<NodeIndex> = scene
            .ids
            .iter()
            .filter(|&&id| scene.is_mark(id))
            .map(|id| id.index())
            .collect();

        // events: enter only; state: unordered with a fork/merge hook: document order.
        let (seen, stats) = run_parallel(Unordered::new(Seen::default()), &scene).unwrap();
        assert_eq!(seen.into_inner().nodes, preorder);
        assert_eq!(stats.chain_calls, all.len() as u64);
        assert!(stats.tasks > 1, "the run split: {stats:?}");

        // state: static, shared by the workers.
        let (seen, _) = run_parallel(Static::new(StaticSeen::default()), &scene).unwrap();
        let seen = seen.into_inner().seen.into_inner().unwrap();
        assert_eq!(seen.len(), all.len());
        assert_eq!(seen.into_iter().collect::<BTreeSet<_>>(), all);

        // events: enter + leave: nested.
        let (trace, stats) = run_parallel(Unordered::new(Trace::default()), &scene).unwrap();
        leaves_nest(&scene, &trace.into_inner().0);
        assert_eq!(stats.left, all.len() as u64);

        // state: unordered without a hook; state: ordered.
        refused(
            run_parallel(Unordered::new(NoBatch::default()), &scene),
            "fork/merge hook",
            "NoBatch",
        );
        // state: ordered with a fork/merge hook: each subtree starts from the state
        // at its root; copies follow writes, as in a sequential run.
        let (ordered, stats) =
            run_parallel(Ordered::new(ForkedPathMarks::default()), &scene).unwrap();
        let seen = ordered.into_inner().0.0;
        assert_eq!(seen.len(), all.len());
        for &id in &scene.ids {
            assert_eq!(seen[&id.index()], scene.marks_on_path(id), "{id:?}");
        }
        assert_eq!(stats.state_copies, marks.len() as u64);
        refused(
            run_parallel(Ordered::new(PathMarks::default()), &scene),
            "ordered state",
            "PathMarks",
        );

        // dispatch: single type, and no enter_batch (MarksOnly has none).
        let (single, _) = run_parallel(Unordered::new(MarksOnly::default()), &scene).unwrap();
        let single = single.into_inner().0;
        assert_eq!(single.len(), marks.len());
        assert_eq!(single.into_iter().collect::<BTreeSet<_>>(), marks);

        // dispatch: per type (a static actor; `Arms` has no hook).
        let (counts, _) = run_parallel(Static::new(PerTypeCount::default()), &scene).unwrap();
        let counts = counts.into_inner().0.map(|c| c.into_inner());
        for (ty, &count) in counts.iter().enumerate() {
            let expect = scene
                .ids
                .iter()
                .filter(|&&id| scene.graph.node_type(id).unwrap().get() == ty)
                .count() as u64;
            assert_eq!(count, expect, "type {ty}");
        }
        refused(
            run_parallel(Unordered::new(per_type()), &scene),
            "fork/merge hook",
            "Arms",
        );
    }
}
