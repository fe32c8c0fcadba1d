//! Public calls in an order or with arguments they were not made for: each gives an
//! error or a documented outcome, never a panic.

use scenewalk_core::{
    ActiveList, Actor, Flow, Graph, NodeCore, Ordered, OrderedActor, RunContext, StateCell, Visit,
};

#[derive(Clone, Debug, PartialEq)]
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
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, scenewalk_core::TraversalError> {
        Ok(0)
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

#[test]
fn an_id_of_another_graph_is_refused() {
    use scenewalk_core::DepthFirst;
    use scenewalk_core::{Action, GraphError, Static, StaticActor};

    struct Nothing;
    impl StaticActor for Nothing {
        fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
            Flow::Continue
        }
    }

    // Two graphs of the same shape: every id of one names a live slot of the other.
    let build = || {
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let child = graph.append_child(root, Group).unwrap();
        (graph, root, child)
    };
    let (a, root_a, child_a) = build();
    let (mut b, root_b, _) = build();
    for id in [root_a, child_a] {
        assert!(a.contains(id));
        assert!(!b.contains(id), "{id} of graph a taken for a node of b");
        assert_eq!(b.get::<Group>(id), Err(GraphError::StaleNode(id)));
        assert!(b.parent(id).is_err() && b.children(id).is_err());
    }
    assert!(b.append_child(root_a, Group).is_err());
    assert!(b.remove(child_a).is_err());
    assert_eq!(b.len(), 2);
    let mut action = Action::new(DepthFirst::new(), (Static::new(Nothing),)).unwrap();
    assert!(action.run(&b, root_a).is_err());
    assert!(action.run(&b, root_b).is_ok());

    // A clone holds the same nodes, so it takes the same ids.
    let c = a.clone();
    assert_eq!(c.get::<Group>(child_a), Ok(&Group));
}
