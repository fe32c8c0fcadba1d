//! A `DispatchActor`'s typed functors keep their type's column for a run. Across runs
//! on clones, edits, removals, compaction and appends, every run must still read the
//! payloads as they are (checked against a walk that reads each node with `get`).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, DispatchActor, Flow, Functor, Graph, NodeId, RunContext, TraversalIterator,
    Unordered, UnorderedActor, Visit,
};

#[derive(Clone, Debug)]
struct G;
impl scenewalk_core::NodeCore for G {}

#[derive(Clone, Debug)]
struct M(u64);
impl scenewalk_core::NodeCore for M {}

#[derive(Clone, Debug)]
struct L;
impl scenewalk_core::NodeCore for L {}

type Summing = Action<DepthFirst, (Unordered<DispatchActor<u64>>,)>;

fn weight(m: &M) -> u64 {
    m.0 * 1000 + 1
}

fn by_action(action: &mut Summing, graph: &Graph, root: NodeId) -> u64 {
    action.actor_mut::<DispatchActor<u64>>().unwrap().context = 0;
    action.run(graph, root).unwrap();
    action.actor::<DispatchActor<u64>>().unwrap().context
}

fn by_get(graph: &Graph, root: NodeId) -> u64 {
    let mut sum = 0;
    let mut node = Some(root);
    while let Some(n) = node {
        if let Ok(m) = graph.get::<M>(n) {
            sum += weight(m);
        }
        node = graph.next_preorder(n, root).unwrap();
    }
    sum
}

#[test]
fn kept_columns_never_read_stale_payloads() {
    let mut a = Graph::new();
    let root = a.add_root(G);
    let mut ids = vec![];
    for i in 0..50u64 {
        let parent = if i % 3 == 0 {
            root
        } else {
            *ids.last().unwrap_or(&root)
        };
        ids.push(a.append_child(parent, M(i)).unwrap());
    }
    let actor = DispatchActor::new(0u64).on::<M>(Functor::function(|m: &M, _, sum| {
        *sum += weight(m);
        Flow::Continue
    }));
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(actor),)).unwrap();
    assert_eq!(by_action(&mut action, &a, root), by_get(&a, root));

    let mut b = a.clone();
    b.get_mut::<M>(ids[5]).unwrap().0 = 999;
    assert_eq!(by_action(&mut action, &b, root), by_get(&b, root));
    assert_eq!(by_action(&mut action, &a, root), by_get(&a, root));
    assert_ne!(by_get(&a, root), by_get(&b, root));

    a.remove(ids[2]).unwrap();
    a.remove(ids[7]).unwrap();
    assert_eq!(by_action(&mut action, &a, root), by_get(&a, root));

    let b_root = root;
    let remap = a.compact().unwrap();
    let root = remap.get(root).unwrap();
    assert_eq!(by_action(&mut action, &a, root), by_get(&a, root));
    assert_eq!(by_action(&mut action, &b, b_root), by_get(&b, b_root));
    drop(b);
    a.append_child(root, M(77)).unwrap();
    assert_eq!(by_action(&mut action, &a, root), by_get(&a, root));
}

/// Entered by hand on a graph other than the one `begin` saw, whose type indices mean
/// other types, the actor dispatches by the visited graph's types.
#[test]
fn a_dispatch_actor_entered_on_another_graph_dispatches_by_its_types() {
    let mut a = Graph::new();
    let ra = a.add_root(G);
    a.append_child(ra, L).unwrap(); // in a: G is type 0, L type 1
    let mut b = Graph::new();
    let rb = b.add_root(L);
    let g_in_b = b.append_child(rb, G).unwrap(); // in b: L is type 0, G type 1
    let mut actor = DispatchActor::new(Vec::<&'static str>::new()).on::<L>(Functor::any(
        |visit, seen: &mut Vec<&'static str>| {
            let types = visit.graph().types();
            seen.push(types.info(visit.node_type()).map_or("?", |i| i.name));
            Flow::Continue
        },
    ));
    actor
        .begin(&RunContext {
            graph: &a,
            root: ra.index(),
            capabilities: DepthFirst::new().capabilities(),
            results: &scenewalk_core::Results::new(),
        })
        .unwrap();
    let visit = Visit::new(&b, g_in_b.index(), 1).unwrap();
    actor.enter(&visit, &mut ActiveList::new(&mut []));
    assert!(
        actor.context.is_empty(),
        "L's functor ran for {:?}",
        actor.context
    );
    let visit = Visit::new(&b, rb.index(), 0).unwrap();
    actor.enter(&visit, &mut ActiveList::new(&mut []));
    assert_eq!(actor.context.len(), 1);
}
