//! Typed views keep their type's column for a run: `Typed` itself, and the typed
//! functors of a method table run by `Arms`. Across runs on clones, edits, removals,
//! compaction and appends, every read must still give the payloads as they are
//! (checked against a walk that reads each node with `get`).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Arms, Flow, Functor, Graph, MethodTable, NodeCore, NodeId, ParentType,
    RunContext, TraversalIterator, Typed, Unordered, UnorderedActor, Visit,
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

type Summing = Action<DepthFirst, (Unordered<Arms<u64, (), MethodTable<u64>>>,)>;

fn weight(m: &M) -> u64 {
    m.0 * 1000 + 1
}

fn by_action(action: &mut Summing, graph: &Graph, root: NodeId) -> u64 {
    *action.context_mut::<u64>().unwrap() = 0;
    action.run(graph, root).unwrap();
    *action.context::<u64>().unwrap()
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
    let mut table = MethodTable::new();
    table.add::<M>(Functor::function(|m: &M, _, sum: &mut u64| {
        *sum += weight(m);
        Flow::Continue
    }));
    let actor = Arms::new(0u64).otherwise_table(table);
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
    let mut table = MethodTable::new();
    table.add::<L>(Functor::any(|visit, seen: &mut Vec<&'static str>| {
        let types = visit.graph().types();
        seen.push(types.info(visit.node_type()).map_or("?", |i| i.name));
        Flow::Continue
    }));
    let mut actor = Arms::new(Vec::<&'static str>::new()).otherwise_table(table);
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

/// A type extending `M`: its payloads live in a column of their own.
#[derive(Clone, Debug)]
struct Heavy(M);
impl NodeCore for Heavy {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<M>())
    }
}

/// A graph of `kinds.len()` nodes in a chain, each an M, a Heavy or an L.
fn chain(kinds: &[u8], salt: u64) -> (Graph, Vec<NodeId>) {
    let mut graph = Graph::new();
    let mut ids: Vec<NodeId> = Vec::new();
    for (i, &k) in kinds.iter().enumerate() {
        let value = i as u64 * 7 + salt;
        let id = match (ids.last(), k % 3) {
            (None, _) => graph.add_root(M(value)),
            (Some(&p), 0) => graph.append_child(p, M(value)).unwrap(),
            (Some(&p), 1) => graph.append_child(p, Heavy(M(value))).unwrap(),
            (Some(&p), _) => graph.append_child(p, L).unwrap(),
        };
        ids.push(id);
    }
    (graph, ids)
}

proptest! {
    /// Across two graphs, node types that extend `T`, and edits that copy the kept
    /// column, every read of a `Typed` is `Visit::get`'s, and it holds exactly the
    /// types the registry says are a `T` (resolved or not, reads are right).
    #[test]
    fn typed_reads_as_visit_get_and_holds_what_is_a_t(
        kinds in proptest::collection::vec(any::<u8>(), 1..40),
        reads in proptest::collection::vec((any::<bool>(), any::<usize>(), any::<bool>()), 1..80),
        resolved in any::<bool>(),
    ) {
        let (mut a, ids_a) = chain(&kinds, 0);
        let (b, ids_b) = chain(&kinds, 1000);
        let mut kept = Typed::<M>::new();
        for (i, (in_b, pick, edit)) in reads.into_iter().enumerate() {
            if edit && !in_b {
                // An edit while the column is kept: the graph copies it.
                let id = ids_a[pick % ids_a.len()];
                if let Ok(m) = a.get_mut::<M>(id) {
                    m.0 = 5000 + i as u64;
                }
            }
            let (graph, ids) = if in_b { (&b, &ids_b) } else { (&a, &ids_a) };
            let id = ids[pick % ids.len()];
            let visit = Visit::new(graph, id.index(), 0).unwrap();
            let expected = visit.get::<M>().map(|m| m.0);
            if resolved {
                kept.resolve(graph.types());
                let types = graph.types();
                let is_m = types.chain(visit.node_type()).any(|t| Some(t) == types.index_of::<M>());
                prop_assert_eq!(kept.contains(visit.node_type()), is_m);
                prop_assert_eq!(is_m, expected.is_some());
            }
            prop_assert_eq!(kept.get(&visit).map(|m| m.0), expected);
        }
        kept.release();
    }
}
