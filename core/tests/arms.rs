//! Typed arms (`Arms`): results against a match over the same node kinds and against
//! a method table of run-time functors, fallback to a base type's arm and to the
//! default, arms and a table together, unregistered types, hand-driven enters on
//! another graph, the context found by its type, and the refusals.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Actor, Arms, Flow, Functor, Graph, MethodTable, NodeCore, NodeId,
    RunContext, TraversalIterator, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::Walk;

/// The root of a type chain.
#[derive(Clone, Debug)]
struct A(u64);
impl NodeCore for A {}

/// Extends A.
#[derive(Clone, Debug)]
struct B {
    a: A,
    b: u64,
}
impl NodeCore for B {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.a)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<A>())
    }
}

/// Extends B (and so A).
#[derive(Clone, Debug)]
struct C {
    b: B,
    c: u64,
}
impl NodeCore for C {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.b)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<B>())
    }
}

/// Unrelated.
#[derive(Clone, Debug)]
struct D(u64);
impl NodeCore for D {}

/// Unrelated, zero-sized: every node shares one payload slot.
#[derive(Clone, Debug)]
struct E;
impl NodeCore for E {}

/// The node kinds as an enum: the brute-force side.
#[derive(Clone, Copy, Debug)]
enum Kind {
    A(u64),
    B(u64),
    C(u64),
    D(u64),
    E,
}

fn kind(k: u8, v: u64) -> Kind {
    match k % 5 {
        0 => Kind::A(v),
        1 => Kind::B(v),
        2 => Kind::C(v),
        3 => Kind::D(v),
        _ => Kind::E,
    }
}

/// A graph whose nodes, in pre-order, are `kinds`: each node's parent is an earlier
/// node chosen by `parents`, children appended in order. Returns the graph, its root,
/// and the kinds in the graph's pre-order.
fn build(kinds: &[Kind], parents: &[usize]) -> (Graph, NodeId, Vec<Kind>) {
    let mut g = Graph::new();
    let mut ids: Vec<NodeId> = Vec::new();
    for (i, &k) in kinds.iter().enumerate() {
        let parent = (i > 0).then(|| ids[parents.get(i).copied().unwrap_or(0) % i]);
        macro_rules! add {
            ($t:expr) => {
                match parent {
                    None => g.add_root($t),
                    Some(p) => g.append_child(p, $t).unwrap(),
                }
            };
        }
        ids.push(match k {
            Kind::A(v) => add!(A(v)),
            Kind::B(v) => add!(B { a: A(v), b: v + 1 }),
            Kind::C(v) => add!(C {
                b: B { a: A(v), b: v + 1 },
                c: v + 2
            }),
            Kind::D(v) => add!(D(v)),
            Kind::E => add!(E),
        });
    }
    let root = ids[0];
    let mut order = Vec::new();
    let mut node = Some(root);
    while let Some(n) = node {
        order.push(kinds[ids.iter().position(|&id| id == n).unwrap()]);
        node = g.next_preorder(n, root).unwrap();
    }
    (g, root, order)
}

/// Runs `arms` over the graph and returns its context.
fn run_arms<L, Dflt>(g: &Graph, root: NodeId, arms: Arms<Vec<u64>, L, Dflt>) -> Vec<u64>
where
    Arms<Vec<u64>, L, Dflt>: UnorderedActor,
{
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(arms),)).unwrap();
    action.run(g, root).unwrap();
    let (_, (arms,)) = action.into_parts();
    arms.into_inner().context
}

/// Every arm, so each type takes its own: log a number per node saying which.
fn full_arms(g: &Graph, root: NodeId) -> Vec<u64> {
    let arms = Arms::new(Vec::new())
        .on::<A>(|a, _, log| {
            log.push(1000 + a.0);
            Flow::Continue
        })
        .on::<B>(|b, _, log| {
            log.push(2000 + b.b);
            Flow::Continue
        })
        .on::<C>(|c, _, log| {
            log.push(3000 + c.c);
            Flow::Continue
        })
        .on::<D>(|d, _, log| {
            log.push(4000 + d.0);
            Flow::Continue
        })
        .on::<E>(|_, _, log| {
            log.push(5000);
            Flow::Continue
        });
    run_arms(g, root, arms)
}

/// The same numbers from a match on the kinds in pre-order.
fn full_match(order: &[Kind]) -> Vec<u64> {
    order
        .iter()
        .map(|k| match *k {
            Kind::A(v) => 1000 + v,
            Kind::B(v) => 2000 + v + 1,
            Kind::C(v) => 3000 + v + 2,
            Kind::D(v) => 4000 + v,
            Kind::E => 5000,
        })
        .collect()
}

/// Only A's arm and a default: B and C fall back to A's arm with their A view.
fn fallback_arms(g: &Graph, root: NodeId) -> Vec<u64> {
    let arms = Arms::new(Vec::new())
        .on::<A>(|a, _, log| {
            log.push(1000 + a.0);
            Flow::Continue
        })
        .otherwise(|visit, log| {
            log.push(9000 + visit.depth() as u64);
            Flow::Continue
        });
    run_arms(g, root, arms)
}

/// The same as `fallback_arms`, by a method table of run-time functors.
fn fallback_dynamic(g: &Graph, root: NodeId) -> Vec<u64> {
    let mut table = MethodTable::new();
    table
        .add::<A>(Functor::function(|a: &A, _, log: &mut Vec<u64>| {
            log.push(1000 + a.0);
            Flow::Continue
        }))
        .set_default(Functor::any(|visit, log: &mut Vec<u64>| {
            log.push(9000 + visit.depth() as u64);
            Flow::Continue
        }));
    run_arms(g, root, Arms::new(Vec::new()).otherwise_table(table))
}

/// The actor of a one-actor action, whose type (closures inside) cannot be written.
fn inner_mut<I, A: 'static>(action: &mut Action<I, (Unordered<A>,)>) -> &mut A
where
    I: scenewalk_core::TraversalIterator,
    (Unordered<A>,): scenewalk_core::ActorChain,
{
    action.actor_mut::<A>().unwrap()
}

fn sample() -> (Graph, NodeId, Vec<Kind>) {
    let kinds = [
        Kind::D(0),
        Kind::A(10),
        Kind::B(20),
        Kind::C(30),
        Kind::E,
        Kind::D(40),
        Kind::E,
        Kind::C(50),
    ];
    build(&kinds, &[0, 0, 1, 2, 0, 3, 5, 6])
}

#[test]
fn each_type_takes_its_own_arm() {
    let (g, root, order) = sample();
    assert_eq!(full_arms(&g, root), full_match(&order));
}

#[test]
fn a_type_without_an_arm_takes_its_base_types_arm_else_the_default() {
    let (g, root, order) = sample();
    let log = fallback_arms(&g, root);
    assert_eq!(log, fallback_dynamic(&g, root));
    // By hand: A, B and C through A's arm (their A view), the rest the default.
    let a_views = order
        .iter()
        .filter_map(|k| match *k {
            Kind::A(v) | Kind::B(v) | Kind::C(v) => Some(1000 + v),
            _ => None,
        })
        .collect::<Vec<_>>();
    assert_eq!(
        log.iter()
            .filter(|&&x| x < 9000)
            .copied()
            .collect::<Vec<_>>(),
        a_views
    );
    assert_eq!(log.iter().filter(|&&x| x >= 9000).count(), 4);

    // B's arm: C takes it (its parent's), not A's; without a default, D and E run
    // nothing.
    let arms = Arms::new(Vec::new())
        .on::<A>(|a, _, log| {
            log.push(1000 + a.0);
            Flow::Continue
        })
        .on::<B>(|b, _, log| {
            log.push(2000 + b.b);
            Flow::Continue
        });
    assert_eq!(run_arms(&g, root, arms), [1010, 2021, 2031, 2051]);
}

#[test]
fn a_later_arm_for_the_same_type_replaces_the_earlier() {
    let (g, root, _) = sample();
    let arms = Arms::new(Vec::new())
        .on::<D>(|d, _, log| {
            log.push(d.0);
            Flow::Continue
        })
        .on::<D>(|d, _, log| {
            log.push(100 + d.0);
            Flow::Continue
        });
    assert_eq!(run_arms(&g, root, arms), [100, 140]);
    let arms = Arms::new(Vec::new())
        .on::<D>(|_, _, log| {
            log.push(1);
            Flow::Continue
        })
        .on::<E>(|_, _, log| {
            log.push(2);
            Flow::Continue
        });
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(arms),)).unwrap();
    action.run(&g, root).unwrap();
    let arms = action.actors().0.get();
    let ty = |t: Option<scenewalk_core::NodeType>| t.unwrap();
    assert_eq!(arms.arm_for(ty(g.types().index_of::<D>())), Some(0));
    assert_eq!(arms.arm_for(ty(g.types().index_of::<E>())), Some(1));
    assert_eq!(arms.arm_for(ty(g.types().index_of::<A>())), None);
}

#[test]
fn arms_for_unregistered_types_and_a_flow_are_honoured() {
    let (g, root, _) = sample();
    /// Never added to the graph.
    #[derive(Clone, Debug)]
    struct Never;
    impl NodeCore for Never {}
    // An arm for a type the graph does not know never runs; the rest still does.
    let arms = Arms::new(Vec::new())
        .on::<Never>(|_, _, log| {
            log.push(7);
            Flow::Continue
        })
        .on::<D>(|d, _, log| {
            log.push(d.0);
            Flow::Continue
        });
    assert_eq!(run_arms(&g, root, arms), [0, 40]);
    // Pruning at A skips its subtree, as a flow from any actor does.
    let arms = Arms::new(Vec::new())
        .on::<A>(|a, _, log| {
            log.push(a.0);
            if a.0 == 10 {
                Flow::Prune
            } else {
                Flow::Continue
            }
        })
        .otherwise(|visit, log| {
            log.push(100 + visit.depth() as u64);
            Flow::Continue
        });
    // The root D, A (its subtree holds every other node but the root's last child),
    // that child E.
    assert_eq!(run_arms(&g, root, arms), [100, 10, 101]);
}

#[test]
fn hand_driven_enter_on_a_second_graph_dispatches_by_its_types() {
    // In `a`, D is type 0 and E type 1; in `b` the other way round.
    let mut a = Graph::new();
    let ra = a.add_root(D(1));
    a.append_child(ra, E).unwrap();
    let mut b = Graph::new();
    let rb = b.add_root(E);
    let d_in_b = b.append_child(rb, D(2)).unwrap();
    let mut arms = Arms::new(Vec::<u64>::new()).on::<D>(|d, _, log| {
        log.push(d.0);
        Flow::Continue
    });
    arms.begin(&RunContext {
        graph: &a,
        root: ra.index(),
        capabilities: DepthFirst::new().capabilities(),
        results: &scenewalk_core::Results::new(),
    })
    .unwrap();
    let visit = Visit::new(&a, ra.index(), 0).unwrap();
    arms.enter(&visit, &mut ActiveList::new(&mut []));
    let visit = Visit::new(&b, rb.index(), 0).unwrap();
    arms.enter(&visit, &mut ActiveList::new(&mut []));
    assert_eq!(arms.context, [1], "D's arm ran for b's E");
    let visit = Visit::new(&b, d_in_b.index(), 1).unwrap();
    arms.enter(&visit, &mut ActiveList::new(&mut []));
    // Back on `a`, after `a`'s D changed: the kept column is not `a`'s any more.
    *a.get_mut::<D>(ra).unwrap() = D(3);
    let visit = Visit::new(&a, ra.index(), 0).unwrap();
    arms.enter(&visit, &mut ActiveList::new(&mut []));
    arms.end();
    assert_eq!(arms.context, [1, 2, 3]);
}

#[test]
fn one_action_sees_edits_and_other_graphs_between_runs() {
    let (mut g, root, _) = sample();
    let summing = Arms::new(0u64).on::<D>(|d, _, s| {
        *s += d.0;
        Flow::Continue
    });
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(summing),)).unwrap();
    let mut total = |g: &Graph| {
        action.run(g, root).unwrap();
        std::mem::take(&mut inner_mut(&mut action).context)
    };
    assert_eq!(total(&g), 40);
    let extra = g.append_child(root, D(5)).unwrap();
    assert_eq!(total(&g), 45);
    let mut copy = g.clone();
    g.get_mut::<D>(extra).unwrap().0 = 6;
    copy.get_mut::<D>(extra).unwrap().0 = 7;
    assert_eq!(total(&g), 46);
    assert_eq!(total(&copy), 47);
    assert_eq!(total(&g), 46);
}

/// A log of `(arm, value)`: which functor ran, with what.
type Tagged = Vec<(&'static str, u64)>;

#[test]
fn arms_take_their_types_and_the_table_takes_the_rest() {
    let (g, root, order) = sample();
    // B's arm takes B and C; the table's A functor is for A only (B and C reach B's
    // arm first), its default takes D and E.
    let mut table = MethodTable::new();
    table
        .add::<A>(Functor::function(|a: &A, _, log: &mut Tagged| {
            log.push(("table A", a.0));
            Flow::Continue
        }))
        .add::<C>(Functor::function(|c: &C, _, log: &mut Tagged| {
            log.push(("table C", c.c));
            Flow::Continue
        }))
        .set_default(Functor::any(|visit, log: &mut Tagged| {
            log.push(("table default", u64::from(visit.depth())));
            Flow::Continue
        }));
    let arms = Arms::new(Tagged::new())
        .on::<B>(|b, _, log| {
            log.push(("arm B", b.b));
            Flow::Continue
        })
        .otherwise_table(table);
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(arms),)).unwrap();
    action.run(&g, root).unwrap();
    let depths: Vec<u64> = g
        .preorder(root)
        .unwrap()
        .map(|n| g.depth(g.id_at(n).unwrap()).unwrap() as u64)
        .collect();
    let expected: Tagged = order
        .iter()
        .zip(&depths)
        .map(|(k, &depth)| match *k {
            Kind::A(v) => ("table A", v),
            Kind::B(v) | Kind::C(v) => ("arm B", v + 1),
            Kind::D(_) | Kind::E => ("table default", depth),
        })
        .collect();
    assert_eq!(action.context::<Tagged>().unwrap(), &expected);
}

#[test]
fn a_table_changed_between_hand_driven_enters_answers_at_the_next_node() {
    let (g, root, _) = sample();
    let d = g.preorder(root).unwrap().next().unwrap(); // the root, a D
    let mut arms = Arms::new(Tagged::new()).otherwise_table(MethodTable::new());
    arms.begin(&RunContext {
        graph: &g,
        root: root.index(),
        capabilities: DepthFirst::new().capabilities(),
        results: &scenewalk_core::Results::new(),
    })
    .unwrap();
    let visit = Visit::new(&g, d, 0).unwrap();
    arms.enter(&visit, &mut ActiveList::new(&mut []));
    arms.table_mut()
        .add::<D>(Functor::function(|d: &D, _, log: &mut Tagged| {
            log.push(("D", d.0));
            Flow::Continue
        }));
    arms.enter(&visit, &mut ActiveList::new(&mut []));
    assert_eq!(arms.context, [("D", 0)]);
    assert!(arms.table().handles(visit.node_type()));
}

#[test]
fn the_context_is_found_by_its_type() {
    let (g, root, _) = sample();
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Ds(u64);
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Nodes(u64);
    let ds = || {
        Arms::new(Ds::default()).on::<D>(|d, _, cx| {
            cx.0 += 1 + d.0;
            Flow::Continue
        })
    };
    let nodes = Arms::new(Nodes::default()).otherwise(|_, cx| {
        cx.0 += 1;
        Flow::Continue
    });
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Unordered::new(ds()),
            Unordered::new(nodes),
            Unordered::new(ds()),
        ),
    )
    .unwrap();
    action.run(&g, root).unwrap();
    assert_eq!(action.context::<Ds>(), Some(&Ds(42)));
    assert_eq!(action.context::<Nodes>(), Some(&Nodes(8)));
    assert_eq!(action.context::<u64>(), None);
    // The first of two with the same type of context.
    action.context_mut::<Ds>().unwrap().0 = 7;
    assert_eq!(action.actors().0.get().context, Ds(7));
    assert_eq!(action.actors().2.get().context, Ds(42));

    // A chain chosen at run time finds it too.
    let chain: Vec<Box<dyn Actor>> = vec![Box::new(Unordered::new(ds()))];
    let mut action = Action::new(DepthFirst::new(), chain).unwrap();
    action.run(&g, root).unwrap();
    assert_eq!(action.context::<Ds>(), Some(&Ds(42)));
    assert_eq!(action.context_mut::<Ds>(), Some(&mut Ds(42)));
    assert_eq!(action.context::<Nodes>(), None);
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_runs_and_batches_are_refused_by_name() {
    use scenewalk_core::{ActionError, TraversalError};
    let (g, root, _) = sample();
    let arms = Arms::new(0u64).on::<D>(|d, _, s| {
        *s += d.0;
        Flow::Continue
    });
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(arms),)).unwrap();
    match action.run_parallel(&g, root) {
        Err(TraversalError::Incompatible(ActionError::Incompatible { actor, reason, .. })) => {
            assert!(actor.contains("Arms"), "{actor}");
            assert!(reason.contains("fork"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

proptest! {
    #[test]
    fn arms_agree_with_a_match_and_with_the_dynamic_actor(
        nodes in prop::collection::vec((0u8..5, 0u64..1000, 0usize..1000), 1..200)
    ) {
        let kinds: Vec<Kind> = nodes.iter().map(|&(k, v, _)| kind(k, v)).collect();
        let parents: Vec<usize> = nodes.iter().map(|&(_, _, p)| p).collect();
        let (g, root, order) = build(&kinds, &parents);
        prop_assert_eq!(full_arms(&g, root), full_match(&order));
        prop_assert_eq!(fallback_arms(&g, root), fallback_dynamic(&g, root));
    }
}

/// The ids of `root`'s subtree in pre-order.
fn live_ids(g: &Graph, root: NodeId) -> Vec<NodeId> {
    g.preorder(root)
        .unwrap()
        .map(|n| g.id_at(n).unwrap())
        .collect()
}

/// What the arms of `edit_sequences_between_hand_driven_enters` log for one node,
/// found the general way: A's arm for an A or a B (registered as extending A, with
/// no arm of its own: its A view), C's arm for a C, the default otherwise.
fn expected_log(visit: &Visit<'_>) -> u64 {
    if let Some(c) = visit.get::<C>() {
        2_000_000 + c.c
    } else if let Some(a) = visit.get::<A>() {
        1_000_000 + a.0
    } else {
        7
    }
}

proptest! {
    /// Arms keep their columns and table between enters and re-resolve only when a
    /// graph's column key changes: hand-driven enters between appends, payload writes,
    /// removals, compactions and clones (whose columns are shared until written)
    /// always read the payload `Visit::get` reads now.
    #[test]
    fn edit_sequences_between_hand_driven_enters(
        ops in prop::collection::vec((0u8..7, 0u8..5, 0u64..1000, any::<usize>()), 1..120)
    ) {
        let mut graphs = vec![Graph::new()];
        let first_root = graphs[0].add_root(A(0));
        let mut roots = vec![first_root];
        let mut arms = Arms::new(Vec::<u64>::new())
            .on::<A>(|a, _, log| { log.push(1_000_000 + a.0); Flow::Continue })
            .on::<C>(|c, _, log| { log.push(2_000_000 + c.c); Flow::Continue })
            .otherwise(|_, log| { log.push(7); Flow::Continue });
        let mut expected = Vec::new();
        let mut current = 0;
        for (op, k, v, pick) in ops {
            let (g, root) = (&mut graphs[current], roots[current]);
            let ids = live_ids(g, root);
            let id = ids[pick % ids.len()];
            match op {
                0 | 1 => {
                    let _ = match kind(k, v) {
                        Kind::A(v) => g.append_child(id, A(v)),
                        Kind::B(v) => g.append_child(id, B { a: A(v), b: v }),
                        Kind::C(v) => g.append_child(id, C { b: B { a: A(v), b: v }, c: v + 1 }),
                        Kind::D(v) => g.append_child(id, D(v)),
                        Kind::E => g.append_child(id, E),
                    };
                }
                2 => {
                    if let Ok(a) = g.get_mut::<A>(id) { a.0 = v; }
                    if let Ok(c) = g.get_mut::<C>(id) { c.c = v; }
                }
                3 if id != root => { g.remove(id).unwrap(); }
                4 => {
                    let remap = g.compact().unwrap();
                    roots[current] = remap.get(root).unwrap();
                }
                5 => {
                    let copy = g.clone();
                    graphs.push(copy);
                    roots.push(root);
                    current = graphs.len() - 1;
                }
                _ => current = pick % graphs.len(),
            }
            let g = &graphs[current];
            let ids = live_ids(g, roots[current]);
            let id = ids[(pick / 7) % ids.len()];
            let visit = Visit::new(g, id.index(), 0).unwrap();
            expected.push(expected_log(&visit));
            arms.enter(&visit, &mut ActiveList::new(&mut []));
            if op == 6 {
                arms.end();
            }
        }
        prop_assert_eq!(&arms.context, &expected);
    }
}
