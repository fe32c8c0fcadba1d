//! An actor that panics in the middle of a run: the panic leaves the action's own
//! run (caught here with `catch_unwind`), the graph is untouched (a run only borrows
//! it), and the same `Action` then runs correctly: the same enters, leaves, ordered
//! states and counts as a fresh action, and no live state frames, under every
//! iterator. Panics are tried in `enter`, in `leave` and in ordered state code, at
//! the root, in the middle and at the last node.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Events, Flow, Graph, NodeId, NodeIndex, Ordered, OrderedActor, RunContext,
    RunStats, StateCell, Static, StaticActor, TraversalIterator, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{BreadthFirst, Flattened, PriorityQueue, SwitchRule};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU32, Ordering};

#[derive(Clone, Debug)]
struct Group;
impl scenewalk_core::NodeCore for Group {}

/// Where the [`Bomb`] goes off: never, or at the enter or leave of one slot.
const NEVER: u32 = u32::MAX;

/// Panics at the chosen enter or leave. Static, so it can sit in any chain; its
/// trigger is atomic because static actors are shared.
struct Bomb<const LEAVES: bool> {
    enter_at: AtomicU32,
    leave_at: AtomicU32,
}

impl<const LEAVES: bool> Bomb<LEAVES> {
    fn new() -> Self {
        Self {
            enter_at: AtomicU32::new(NEVER),
            leave_at: AtomicU32::new(NEVER),
        }
    }
    fn arm(&self, enter: u32, leave: u32) {
        self.enter_at.store(enter, Ordering::Relaxed);
        self.leave_at.store(leave, Ordering::Relaxed);
    }
}

impl<const LEAVES: bool> StaticActor for Bomb<LEAVES> {
    const EVENTS: Events = if LEAVES {
        Events::EnterLeave
    } else {
        Events::Enter
    };
    const BATCHES: bool = true;
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        if visit.node().get() as u32 == self.enter_at.load(Ordering::Relaxed) {
            panic!("bomb at the enter of {:?}", visit.node());
        }
        Flow::Continue
    }
    fn leave(&self, visit: &Visit<'_>) {
        if visit.node().get() as u32 == self.leave_at.load(Ordering::Relaxed) {
            panic!("bomb at the leave of {:?}", visit.node());
        }
    }
    fn enter_batch(&self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        let at = self.enter_at.load(Ordering::Relaxed);
        if batch.entries().iter().any(|e| e.node().get() as u32 == at) {
            panic!("bomb in a batch");
        }
        Flow::Continue
    }
}

/// Records every event, in order (leaves only with `LEAVES`, as breadth-first has
/// none).
#[derive(Default)]
struct Trace<const LEAVES: bool> {
    events: Vec<(bool, NodeIndex, u32)>,
}

impl<const LEAVES: bool> UnorderedActor for Trace<LEAVES> {
    const EVENTS: Events = if LEAVES {
        Events::EnterLeave
    } else {
        Events::Enter
    };
    const BATCHES: bool = true;
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.events.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.events.push((true, visit.node(), visit.depth()));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.events.push((false, visit.node(), visit.depth()));
    }
    fn enter_batch(&mut self, _: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        for e in batch.entries() {
            self.events.push((true, e.node(), depth));
        }
        Flow::Continue
    }
}

/// Ordered state: the path from the root as a sum of slot numbers, written at every
/// third node (so some nodes share their parent's state). Records what each node saw.
#[derive(Default)]
struct PathSum {
    seen: Vec<(NodeIndex, u64)>,
}

impl OrderedActor for PathSum {
    type State = u64;
    const EVENTS: Events = Events::EnterLeave;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u64, scenewalk_core::TraversalError> {
        self.seen.clear();
        Ok(0)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u64>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        if visit.node().get() % 3 == 0 {
            *state.make_mut() += visit.node().get() as u64 + 1;
        }
        self.seen.push((visit.node(), *state.get()));
        Flow::Continue
    }
    fn leave(&mut self, state: &u64, visit: &Visit<'_>) {
        self.seen.push((visit.node(), *state + 1_000_000));
    }
}

/// A random tree: node `i > 0` under an earlier node; slot `i` holds node `i`.
fn tree(parents: &[usize]) -> (Graph, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut ids = vec![root];
    for (i, &p) in parents.iter().enumerate() {
        ids.push(graph.append_child(ids[p % (i + 1)], Group).unwrap());
    }
    (graph, root)
}

/// The structure, to compare before and after.
fn snapshot(graph: &Graph, root: NodeId) -> (u64, usize, Vec<Vec<NodeId>>) {
    let mut all = Vec::new();
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        let kids: Vec<NodeId> = graph.children(n).unwrap().collect();
        stack.extend(kids.iter().copied());
        all.push(kids);
    }
    (graph.revision(), graph.len(), all)
}

type Outcome = (
    RunStats,
    Vec<(bool, NodeIndex, u32)>,
    Option<Vec<(NodeIndex, u64)>>,
);

fn outcome<I: TraversalIterator, C: scenewalk_core::ActorChain, const L: bool>(
    action: &Action<I, C>,
    stats: RunStats,
) -> Outcome {
    (
        stats,
        action.actor::<Trace<L>>().unwrap().events.clone(),
        action.actor::<PathSum>().map(|p| p.seen.clone()),
    )
}

/// Runs with the bomb at each place in turn; after each caught panic, a disarmed run
/// of the same action must equal a fresh action's run.
fn survive<I: TraversalIterator + Clone>(
    name: &str,
    iterator: I,
    ordered: bool,
    graph: &Graph,
    root: NodeId,
    places: &[(u32, u32)],
) -> Result<(), TestCaseError> {
    macro_rules! check {
        ($leaves:literal, $chain:expr) => {{
            let mut fresh = Action::new(iterator.clone(), $chain).unwrap();
            let stats = fresh.run(graph, root).unwrap();
            let want = outcome::<_, _, $leaves>(&fresh, stats);
            let mut action = Action::new(iterator.clone(), $chain).unwrap();
            let before = snapshot(graph, root);
            for &(enter, leave) in places {
                action.actor::<Bomb<$leaves>>().unwrap().arm(enter, leave);
                let run = catch_unwind(AssertUnwindSafe(|| action.run(graph, root)));
                prop_assert!(
                    run.is_err(),
                    "{}: the bomb at {:?} went off",
                    name,
                    (enter, leave)
                );
                prop_assert_eq!(
                    &snapshot(graph, root),
                    &before,
                    "{}: the graph is unchanged",
                    name
                );
                action.actor::<Bomb<$leaves>>().unwrap().arm(NEVER, NEVER);
                let stats = action.run(graph, root).unwrap();
                prop_assert_eq!(action.live_frames(), 0, "{}", name);
                let got = outcome::<_, _, $leaves>(&action, stats);
                prop_assert_eq!(
                    &got,
                    &want,
                    "{}: the run after a panic at {:?}",
                    name,
                    (enter, leave)
                );
            }
        }};
    }
    if ordered {
        check!(
            true,
            (
                Unordered::new(Trace::<true>::default()),
                Ordered::new(PathSum::default()),
                Static::new(Bomb::<true>::new()),
            )
        );
    } else {
        check!(
            false,
            (
                Unordered::new(Trace::<false>::default()),
                Static::new(Bomb::<false>::new()),
            )
        );
    }
    Ok(())
}

fn places(n: u32, picks: &[u32]) -> Vec<(u32, u32)> {
    let mut out = vec![(0, NEVER), (n - 1, NEVER), (NEVER, 0), (NEVER, n - 1)];
    for &p in picks {
        out.push((p % n, NEVER));
        out.push((NEVER, p % n));
    }
    out
}

/// Keeps the bombs' panic messages out of the test output; other panics (a failing
/// assertion) still print.
fn quiet_bombs() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = info.payload().downcast_ref::<String>().map(String::as_str);
            let msg = msg.or_else(|| info.payload().downcast_ref::<&str>().copied());
            if !msg.is_some_and(|m| m.starts_with("bomb")) {
                default(info);
            }
        }));
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_panicking_actor_leaves_graph_and_action_usable(
        parents in prop::collection::vec(0usize..1000, 1..80),
        picks in prop::collection::vec(0u32..1000, 1..4),
    ) {
        quiet_bombs();
        let (graph, root) = tree(&parents);
        let n = graph.len() as u32;
        let with_leaves = places(n, &picks);
        let enters_only: Vec<_> = with_leaves.iter().copied().filter(|&(e, _)| e != NEVER).collect();
        survive("depth-first", DepthFirst::new(), true, &graph, root, &with_leaves)?;
        survive("priority", PriorityQueue::new(), true, &graph, root, &with_leaves)?;
        survive("hybrid", PriorityQueue::hybrid(SwitchRule::AtDepth(2)), true, &graph, root, &with_leaves)?;
        survive("flattened", Flattened::new(), true, &graph, root, &with_leaves)?;
        // Breadth-first: no leaves and no ordered state; the bomb goes off in a batch.
        survive("breadth-first", BreadthFirst::new(), false, &graph, root, &enters_only)?;
    }
}
