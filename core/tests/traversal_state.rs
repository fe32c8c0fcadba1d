//! Traversals with `DepthFirst`, compared with the reference walk of `walk_model`:
//! single-type dispatch filters, ordered state, finding actors, errors and reuse.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod walk_model;

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Actor, Dispatch, Events, Flow, Graph, GraphError, NodeCore, NodeId,
    Ordered, OrderedActor, RunContext, StateCell, Static, StaticActor, TraversalError, Unordered,
    UnorderedActor, Visit,
};
use std::collections::HashMap;
use std::sync::Mutex;
use walk_model::*;

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
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, scenewalk_core::TraversalError> {
        Ok(0)
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
