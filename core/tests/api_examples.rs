//! The usage examples of the secondary public items (chains, stamped results,
//! method-table copies), kept as tests: each uses only the public API.

use scenewalk_core::{
    Action, ActiveList, ActorChain, DepthFirst, Flow, Functor, Graph, MethodTable, NodeId, Results,
    ResultsError, Stamp, Stamped, StateKind, Static, StaticActor, TraversalError, Visit,
};

#[derive(Clone, Debug)]
struct Group;
impl scenewalk_core::NodeCore for Group {}

#[derive(Clone, Debug)]
struct Light;
impl scenewalk_core::NodeCore for Light {}

struct Everything;
impl StaticActor for Everything {
    fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

fn root_and_child() -> Result<(Graph, NodeId), scenewalk_core::GraphError> {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    graph.append_child(root, Group)?;
    Ok((graph, root))
}

/// Code generic over any chain: `ActorChain` names it.
#[test]
fn a_function_generic_over_actor_chains() -> Result<(), Box<dyn std::error::Error>> {
    /// Runs any chain depth-first; returns how many nodes it entered.
    fn entered<C: ActorChain>(
        chain: C,
        graph: &Graph,
        root: NodeId,
    ) -> Result<u64, TraversalError> {
        let mut action = Action::new(DepthFirst::new(), chain)?;
        Ok(action.run(graph, root)?.entered)
    }
    let (graph, root) = root_and_child()?;
    let chain = (Static::new(Everything), Static::new(Everything));
    let statics = chain
        .classes()
        .iter()
        .filter(|c| c.state == StateKind::Static)
        .count();
    assert_eq!(statics, 2);
    assert_eq!(entered(chain, &graph, root)?, 2);
    Ok(())
}

/// Code generic over any splittable chain: `ParallelChain` names it.
#[cfg(feature = "parallel")]
#[test]
fn a_function_generic_over_parallel_chains() -> Result<(), Box<dyn std::error::Error>> {
    use scenewalk_core::ParallelChain;
    /// How many nodes any splittable chain enters in a parallel run.
    fn entered<C: ParallelChain>(
        chain: C,
        graph: &Graph,
        root: NodeId,
    ) -> Result<u64, TraversalError> {
        let mut action = Action::new(DepthFirst::new(), chain)?;
        Ok(action.run_parallel(graph, root)?.entered)
    }
    let (graph, root) = root_and_child()?;
    assert_eq!(entered((Static::new(Everything),), &graph, root)?, 2);
    Ok(())
}

/// Results with no stamp yet (no run made them) are refused as missing.
#[test]
fn unstamped_results_are_missing() -> Result<(), ResultsError> {
    /// Per-node heights, stamped by the run that made them (none yet).
    #[derive(Default)]
    struct Heights {
        stamp: Option<Stamp>,
        by_slot: Vec<u32>,
    }
    impl Stamped for Heights {
        fn stamp(&self) -> Option<Stamp> {
            self.stamp
        }
    }
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let none_yet = Results::new().with(std::sync::Arc::new(Heights::default()));
    let read = none_yet.get::<Heights>("reader", &graph, root.index());
    assert!(matches!(read, Err(ResultsError::Missing { .. })));

    let made = Heights {
        stamp: Some(Stamp::new(&graph, root.index())),
        by_slot: vec![0],
    };
    let results = Results::new().with(std::sync::Arc::new(made));
    assert_eq!(
        results
            .get::<Heights>("reader", &graph, root.index())?
            .by_slot,
        [0]
    );
    Ok(())
}

/// A table of functions copies; one holding a closure does not.
#[test]
fn only_tables_without_closures_copy() {
    let mut table = MethodTable::<u32>::new();
    table.add::<Light>(Functor::function(|_: &Light, _, n| {
        *n += 1;
        Flow::Continue
    }));
    assert!(table.try_clone().is_some());
    let step = 2;
    table.set_default(Functor::any(move |_, n| {
        *n += step;
        Flow::Continue
    }));
    assert!(table.try_clone().is_none());
}

/// A chain chosen at run time, `Vec<Box<dyn Actor>>`: with the cut, or without.
#[test]
fn a_chain_chosen_at_run_time() -> Result<(), Box<dyn std::error::Error>> {
    use scenewalk_core::Actor;
    struct Shallow;
    impl StaticActor for Shallow {
        fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
            if visit.depth() == 1 {
                Flow::Prune
            } else {
                Flow::Continue
            }
        }
    }
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let child = graph.append_child(root, Group)?;
    graph.append_child(child, Group)?;
    for (cut, entered) in [(true, 2), (false, 3)] {
        let mut chain: Vec<Box<dyn Actor>> = Vec::new();
        if cut {
            chain.push(Box::new(Static::new(Shallow)));
        }
        let mut action = Action::new(DepthFirst::new(), chain)?;
        assert_eq!(action.run(&graph, root)?.entered, entered);
        assert_eq!(action.actor::<Shallow>().is_some(), cut);
    }
    Ok(())
}

#[derive(Clone, Debug, PartialEq)]
struct Mesh(u32);
impl scenewalk_core::NodeCore for Mesh {}

/// `Graph::compact`: unmoved nodes keep their ids, moved ones map through the
/// `Remap`, and their old ids are stale.
#[test]
fn compaction_renumbers_in_pre_order() -> Result<(), scenewalk_core::GraphError> {
    use scenewalk_core::GraphError;
    let mut graph = Graph::new();
    let root = graph.add_root(Mesh(0));
    let a = graph.append_child(root, Mesh(1))?;
    let b = graph.append_child(root, Mesh(2))?;
    let c = graph.append_child(a, Mesh(3))?; // slot 3, but second in pre-order
    graph.remove(b)?;

    let remap = graph.compact()?;
    assert_eq!(graph.capacity(), graph.len());
    assert_eq!(remap.get(root), Some(root)); // unmoved: same id
    let c2 = remap.get(c).unwrap();
    assert_eq!(c2.index().get(), 2);
    assert_eq!(graph.get::<Mesh>(c2)?, &Mesh(3));
    assert!(matches!(
        graph.get::<Mesh>(c),
        Err(GraphError::StaleNode(_))
    ));
    assert_eq!(remap.get(b), None); // removed before
    Ok(())
}

/// `Graph::changes_since`: the edits after a cursor, in order; none after a fresh
/// cursor; `None` once the log is cleared.
#[test]
fn changes_since_a_cursor() -> Result<(), scenewalk_core::GraphError> {
    use scenewalk_core::Change;
    #[derive(Clone, Debug)]
    struct Mass(f32);
    impl scenewalk_core::NodeCore for Mass {}
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let ball = graph.append_child(root, Mass(1.0))?;
    let seen = graph.change_cursor();

    graph.get_mut::<Mass>(ball)?.0 = 2.0;
    let leaf = graph.append_child(ball, Group)?;
    graph.remove(leaf)?;
    assert_eq!(
        graph.changes_since(seen),
        Some(
            &[
                Change::Payload(ball.index()),
                Change::Placed(leaf.index()),
                Change::Children(ball.index())
            ][..]
        )
    );
    assert_eq!(graph.changes_since(graph.change_cursor()), Some(&[][..]));
    graph.clear_changes();
    assert_eq!(graph.changes_since(seen), None);
    Ok(())
}
