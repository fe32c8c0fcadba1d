//! `DepthFirst` and `PriorityQueue` override `TraversalIterator::drive` with their own
//! loops; this runs the same iterator through the provided, pull-based `drive` (next /
//! active / commit) and checks both give the same steps, with actors that build, cull,
//! key and clear active lists, leave them alone, prune, and keep ordered state.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{
    Action, ActiveList, Capabilities, Events, Flow, Frame, Graph, NodeId, NodeIndex, Ordered,
    OrderedActor, RunContext, StateCell, Step, TraversalError, TraversalIterator, Unordered,
    UnorderedActor, Visit,
};
use scenewalk_iterators::{DepthFirst, Flattened, PriorityQueue, SwitchRule};
use scenewalk_nodes::Group;

mod common;
use common::Rng;

/// An iterator with every method but `drive` forwarded, so the provided `drive` runs.
struct Pull<I>(I);

impl<I: TraversalIterator> TraversalIterator for Pull<I> {
    fn capabilities(&self) -> Capabilities {
        self.0.capabilities()
    }
    fn start(&mut self, graph: &Graph, root: NodeIndex, leave_events: bool) {
        self.0.start(graph, root, leave_events);
    }
    fn next(&mut self, graph: &Graph) -> Option<Step> {
        self.0.next(graph)
    }
    fn active<'a>(&'a mut self, graph: &'a Graph) -> ActiveList<'a> {
        self.0.active(graph)
    }
    fn commit(&mut self, graph: &Graph, flow: Flow, frame: Frame) -> Result<u32, TraversalError> {
        self.0.commit(graph, flow, frame)
    }
    fn clear(&mut self) {
        self.0.clear();
    }
}

fn hash(node: NodeIndex, salt: u64) -> u64 {
    ((node.raw() as u64) ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58
}

/// Records enter/leave, and by a hash of the node: culls some children, clears all,
/// prunes, gives keys, or leaves the list alone.
struct Meddle {
    salt: u64,
    events: Vec<(bool, NodeIndex, u32)>,
}

impl UnorderedActor for Meddle {
    const EVENTS: Events = Events::EnterLeave;
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.events.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.events.push((true, visit.node(), visit.depth()));
        let salt = self.salt;
        match hash(visit.node(), salt) % 8 {
            0 => active.retain(|n| !hash(n, salt).is_multiple_of(3)),
            1 => active.deactivate_all(),
            2 => return Flow::Prune,
            3 => {
                for mut c in active.iter_mut() {
                    c.set_key(hash(c.node(), salt) as f32);
                }
            }
            4 if !active.is_empty() => active.deactivate(active.len() - 1),
            _ => {}
        }
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.events.push((false, visit.node(), visit.depth()));
    }
}

/// Depth along the path, as ordered state.
#[derive(Default)]
struct Depths(Vec<(NodeIndex, u32)>);

impl OrderedActor for Depths {
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
        if visit.depth() > 0 {
            *state.make_mut() += 1;
        }
        self.0.push((visit.node(), *state.get()));
        Flow::Continue
    }
}

fn random_tree(n: usize, seed: u64) -> (Graph, NodeId) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut ids = vec![root];
    for _ in 1..n {
        let parent = ids[rng.below(ids.len())];
        ids.push(graph.append_child(parent, Group).unwrap());
    }
    (graph, root)
}

type Trace = (Vec<(bool, NodeIndex, u32)>, Vec<(NodeIndex, u32)>);

fn trace<I: TraversalIterator>(iterator: I, graph: &Graph, root: NodeId, salt: u64) -> Trace {
    let mut action = Action::new(
        iterator,
        (
            Unordered::new(Meddle {
                salt,
                events: Vec::new(),
            }),
            Ordered::new(Depths::default()),
        ),
    )
    .unwrap();
    action.run(graph, root).unwrap();
    let events = action.actor::<Meddle>().unwrap().events.clone();
    let depths = action.actor::<Depths>().unwrap().0.clone();
    (events, depths)
}

#[test]
fn the_pull_loop_gives_the_same_steps_as_the_fused_loop() {
    for seed in 0..60 {
        let (graph, root) = random_tree(200, seed);
        let fused = trace(DepthFirst::new(), &graph, root, seed);
        assert_eq!(
            trace(Pull(DepthFirst::new()), &graph, root, seed),
            fused,
            "seed {seed}"
        );
        assert_eq!(
            trace(Flattened::new(), &graph, root, seed),
            fused,
            "seed {seed}"
        );
        assert_eq!(
            trace(Pull(Flattened::new()), &graph, root, seed),
            fused,
            "seed {seed}"
        );
        // Every ordered state equals the node's depth.
        for (node, depth) in &fused.1 {
            let (_, _, d) = fused
                .0
                .iter()
                .find(|(enter, n, _)| *enter && n == node)
                .unwrap();
            assert_eq!(depth, d);
        }
    }
}

/// Each ordered state equals the depth the node was entered at.
fn assert_states_are_depths(trace: &Trace) {
    for (node, depth) in &trace.1 {
        let entered = trace.0.iter().find(|(enter, n, _)| *enter && n == node);
        assert_eq!(entered.map(|e| e.2), Some(*depth), "node {node:?}");
    }
}

#[test]
fn the_priority_queues_pull_loop_gives_the_same_steps_as_its_fused_loop() {
    let queues = [
        PriorityQueue::new,
        || PriorityQueue::hybrid(SwitchRule::AtDepth(2)),
        || PriorityQueue::hybrid(SwitchRule::FrontierAbove(6)),
    ];
    for seed in 0..60 {
        let (graph, root) = random_tree(200, seed);
        for queue in queues {
            let fused = trace(queue(), &graph, root, seed);
            assert_eq!(
                trace(Pull(queue()), &graph, root, seed),
                fused,
                "seed {seed}"
            );
            assert_states_are_depths(&fused);
            // Every entered node leaves once, after each of its entered descendants.
            let entered = fused.0.iter().filter(|e| e.0).count();
            assert_eq!(fused.0.len(), 2 * entered, "seed {seed}");
            for (i, (enter, node, _)) in fused.0.iter().enumerate() {
                if !enter {
                    continue;
                }
                let mut below = graph.parent_at(*node);
                while let Some(ancestor) = below {
                    let left = fused.0.iter().position(|e| !e.0 && e.1 == ancestor);
                    if let Some(left) = left {
                        assert!(left > i, "seed {seed}: {ancestor:?} left before {node:?}");
                    }
                    below = graph.parent_at(ancestor);
                }
            }
        }
    }
}

/// Enter events only, so one pulled step may climb several levels; culls, clears,
/// prunes, and stops the run at a hashed node.
struct EnterStop {
    salt: u64,
    entered: Vec<(NodeIndex, u32)>,
}

impl UnorderedActor for EnterStop {
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.entered.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.entered.push((visit.node(), visit.depth()));
        let salt = self.salt;
        if hash(visit.node(), salt ^ 0x5555).is_multiple_of(48) && visit.depth() > 0 {
            return Flow::Stop;
        }
        match hash(visit.node(), salt) % 8 {
            0 => active.retain(|n| !hash(n, salt).is_multiple_of(3)),
            1 => active.deactivate_all(),
            2 => return Flow::Prune,
            _ => {}
        }
        Flow::Continue
    }
}

#[test]
fn the_pulled_depth_first_walk_without_leaves_stops_where_the_fused_one_does() {
    let mut stopped = 0;
    for seed in 0..80 {
        let (graph, root) = random_tree(300, seed);
        let fused = enter_stop(DepthFirst::new(), &graph, root, seed);
        assert_eq!(
            enter_stop(Pull(DepthFirst::new()), &graph, root, seed),
            fused,
            "seed {seed}"
        );
        stopped += usize::from(fused.0.len() < 300);
    }
    assert!(
        stopped > 10,
        "the stop and the prunes cut some runs short: {stopped}"
    );
}

/// The nodes `EnterStop` entered, with the run's entered and pruned counts.
fn enter_stop<I: TraversalIterator>(
    iterator: I,
    graph: &Graph,
    root: NodeId,
    salt: u64,
) -> (Vec<(NodeIndex, u32)>, u64, u64) {
    let actor = EnterStop {
        salt,
        entered: Vec::new(),
    };
    let mut action = Action::new(iterator, (Unordered::new(actor),)).unwrap();
    let stats = action.run(graph, root).unwrap();
    let entered = action.actor::<EnterStop>().unwrap().entered.clone();
    (entered, stats.entered, stats.pruned)
}
