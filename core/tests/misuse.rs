//! Public calls in an order or with arguments they were not made for: each gives an
//! error or a documented outcome, never a panic.

use scenewalk_core::{
    AboveActor, ActiveList, Actor, Flow, Graph, NodeCore, Ordered, OrderedActor, ParallelActor,
    RunContext, StateCell, Visit,
};

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

/// Counts its enters and leaves, reading and writing its state at each.
#[derive(Clone, Debug, Default)]
struct Depths {
    enters: u32,
    leaves: u32,
}

impl OrderedActor for Depths {
    type State = u32;
    const EVENTS: scenewalk_core::Events = scenewalk_core::Events::EnterLeave;
    const FORKS: bool = true;
    fn root_state(&mut self, _: &RunContext<'_>) -> u32 {
        0
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        _: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        self.enters += 1;
        *state.make_mut() += 1;
        Flow::Continue
    }
    fn leave(&mut self, state: &u32, _: &Visit<'_>) {
        self.leaves += *state;
    }
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        Some((Self::default(), *state))
    }
    fn merge(&mut self, _: Self) {}
}

#[test]
fn an_ordered_actor_called_before_begin_skips_the_node() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let child = graph.append_child(root, Group).unwrap();
    let mut actor = Ordered::new(Depths::default());
    for (id, depth) in [(root, 0), (child, 1)] {
        let visit = Visit::new(&graph, id.index(), depth).unwrap();
        let mut entries = [];
        let mut active = ActiveList::new(&mut entries);
        assert_eq!(actor.enter(&visit, &mut active), Flow::Continue);
        actor.leave(&visit);
    }
    assert_eq!((actor.get().enters, actor.get().leaves), (0, 0));

    // The walk above the split points of a parallel run, before any begin: no state
    // to fork from, so it ends with an error.
    let mut above = actor.above();
    let visit = Visit::new(&graph, root.index(), 0).unwrap();
    let mut entries = [];
    AboveActor::enter(&mut above, &visit, &mut ActiveList::new(&mut entries));
    above.split(0, 1, true);
    AboveActor::leave(&mut above, &visit);
    assert!(<Ordered<Depths> as ParallelActor>::finish_above(above).is_err());
}

#[test]
fn a_huge_capacity_is_a_hint_not_a_panic() {
    for nodes in [usize::MAX, usize::MAX / 2, u32::MAX as usize + 1] {
        let mut graph = Graph::with_capacity(nodes);
        let root = graph.add_root(Group);
        assert!(graph.append_child(root, Group).is_ok());
        assert_eq!(graph.len(), 2);
    }
}
