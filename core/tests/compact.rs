//! `Graph::compact` after random edit sequences: every traversal order sees the same
//! payloads before and after, structure survives the remap, the arena is dense and in
//! pre-order, and no old id ever names another node (before or after further edits).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Events, Flow, Graph, GraphError, NodeCore, NodeId, NodeIndex, Remap,
    Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{BreadthFirst, Event, Flattened, Walk};

#[derive(Clone, Debug, PartialEq)]
struct A(u32);
impl NodeCore for A {}

#[derive(Clone, Debug, PartialEq)]
struct B(u32, [u64; 3]);
impl NodeCore for B {}

/// Zero-sized: its column stores one value for all its nodes.
#[derive(Clone, Debug, PartialEq)]
struct Z;
impl NodeCore for Z {}

/// What a traversal saw at a node: its type and tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Desc {
    A(u32),
    B(u32),
    Z,
}

fn desc(graph: &Graph, node: NodeIndex) -> Desc {
    if let Some(a) = graph.get_at::<A>(node) {
        Desc::A(a.0)
    } else if let Some(b) = graph.get_at::<B>(node) {
        assert_eq!(b.1, [u64::from(b.0); 3], "payload torn apart");
        Desc::B(b.0)
    } else {
        assert!(graph.get_at::<Z>(node).is_some());
        Desc::Z
    }
}

/// Records (payload, depth, enter?) of every event, as the action sees it.
#[derive(Default)]
struct Record(Vec<(Desc, u32, bool)>);
impl UnorderedActor for Record {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0
            .push((desc(visit.graph(), visit.node()), visit.depth(), true));
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.0
            .push((desc(visit.graph(), visit.node()), visit.depth(), false));
    }
}

/// Same, for the breadth-first action (enter events only, in level order).
#[derive(Default)]
struct Levels(Vec<(Desc, u32)>);
impl UnorderedActor for Levels {
    const BATCHES: bool = true;
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0
            .push((desc(visit.graph(), visit.node()), visit.depth()));
        Flow::Continue
    }
    fn enter_batch(&mut self, graph: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        let nodes: Vec<NodeIndex> = batch.active_nodes().collect();
        self.0
            .extend(nodes.into_iter().map(|n| (desc(graph, n), depth)));
        Flow::Continue
    }
}

fn key(d: Desc) -> f32 {
    match d {
        Desc::A(v) => (v % 7) as f32,
        Desc::B(v) => (v % 5) as f32,
        Desc::Z => 3.0,
    }
}

/// Everything every traversal order sees from every root, roots in slot order.
#[derive(Debug, PartialEq)]
struct Seen {
    action_depth_first: Vec<Vec<(Desc, u32, bool)>>,
    action_breadth_first: Vec<Vec<(Desc, u32)>>,
    preorder: Vec<Vec<Desc>>,
    events: Vec<Vec<(Desc, bool)>>,
    breadth_first: Vec<Vec<(Desc, usize)>>,
    by_priority: Vec<Vec<Desc>>,
    flattened: Vec<Vec<Desc>>,
}

fn seen(graph: &Graph) -> Seen {
    let roots: Vec<NodeId> = graph.roots().collect();
    let mut dfs = Action::new(DepthFirst::new(), (Unordered::new(Record::default()),)).unwrap();
    let mut bfs = Action::new(BreadthFirst::new(), (Unordered::new(Levels::default()),)).unwrap();
    let mut s = Seen {
        action_depth_first: vec![],
        action_breadth_first: vec![],
        preorder: vec![],
        events: vec![],
        breadth_first: vec![],
        by_priority: vec![],
        flattened: vec![],
    };
    for &root in &roots {
        dfs.run(graph, root).unwrap();
        s.action_depth_first
            .push(std::mem::take(&mut dfs.actor_mut::<Record>().unwrap().0));
        bfs.run(graph, root).unwrap();
        s.action_breadth_first
            .push(std::mem::take(&mut bfs.actor_mut::<Levels>().unwrap().0));
        s.preorder.push(
            graph
                .preorder(root)
                .unwrap()
                .map(|n| desc(graph, n))
                .collect(),
        );
        s.events.push(
            graph
                .depth_first(root)
                .unwrap()
                .map(|e: Event| (desc(graph, e.node()), e.is_enter()))
                .collect(),
        );
        s.breadth_first.push(
            graph
                .breadth_first(root)
                .unwrap()
                .map(|(n, d)| (desc(graph, n), d as usize))
                .collect(),
        );
        s.by_priority.push(
            graph
                .by_priority(root, |n| key(desc(graph, n)))
                .unwrap()
                .map(|n| desc(graph, n.unwrap()))
                .collect(),
        );
        let mut flat = Flattened::new();
        flat.rebuild(graph, root).unwrap();
        s.flattened
            .push(flat.nodes().iter().map(|&n| desc(graph, n)).collect());
    }
    s
}

#[derive(Clone, Copy, Debug)]
enum Pay {
    A,
    B,
    Z,
}

#[derive(Clone, Debug)]
enum Op {
    AddRoot(Pay),
    Append(usize, Pay),
    InsertBefore(usize, Pay),
    SetParent(usize, Option<usize>),
    Remove(usize),
    RemoveSubtree(usize),
    Compact,
}

fn pay() -> impl Strategy<Value = Pay> {
    prop_oneof![Just(Pay::A), Just(Pay::B), Just(Pay::Z)]
}

fn op() -> impl Strategy<Value = Op> {
    let pick = 0..10_000usize;
    prop_oneof![
        2 => pay().prop_map(Op::AddRoot),
        10 => (pick.clone(), pay()).prop_map(|(p, v)| Op::Append(p, v)),
        3 => (pick.clone(), pay()).prop_map(|(p, v)| Op::InsertBefore(p, v)),
        5 => (pick.clone(), prop::option::weighted(0.9, pick.clone()))
            .prop_map(|(n, p)| Op::SetParent(n, p)),
        3 => pick.clone().prop_map(Op::Remove),
        1 => pick.prop_map(Op::RemoveSubtree),
        1 => Just(Op::Compact),
    ]
}

/// The graph under test, with every id it ever handed out.
struct Run {
    graph: Graph,
    /// Ids of live nodes, current (remapped through every compaction).
    live: Vec<NodeId>,
    /// Ids known to be stale: they must never name a node again.
    dead: Vec<NodeId>,
    next_tag: u32,
}

impl Run {
    fn pick(&self, i: usize) -> Option<NodeId> {
        (!self.live.is_empty()).then(|| self.live[i % self.live.len()])
    }

    fn add(&mut self, at: Option<(NodeId, bool)>, pay: Pay) {
        let tag = self.next_tag;
        self.next_tag += 1;
        let g = &mut self.graph;
        let id = match (pay, at) {
            (Pay::A, None) => Ok(g.add_root(A(tag))),
            (Pay::B, None) => Ok(g.add_root(B(tag, [u64::from(tag); 3]))),
            (Pay::Z, None) => Ok(g.add_root(Z)),
            (Pay::A, Some((p, false))) => g.append_child(p, A(tag)),
            (Pay::B, Some((p, false))) => g.append_child(p, B(tag, [u64::from(tag); 3])),
            (Pay::Z, Some((p, false))) => g.append_child(p, Z),
            (Pay::A, Some((s, true))) => g.insert_before(s, A(tag)),
            (Pay::B, Some((s, true))) => g.insert_before(s, B(tag, [u64::from(tag); 3])),
            (Pay::Z, Some((s, true))) => g.insert_before(s, Z),
        };
        match id {
            Ok(id) => self.live.push(id),
            Err(GraphError::NoParent(_)) => {}
            Err(e) => panic!("unexpected {e}"),
        }
    }

    fn forget(&mut self) {
        let graph = &self.graph;
        let (live, dead): (Vec<_>, Vec<_>) = self.live.iter().partition(|&&id| graph.contains(id));
        self.live = live;
        self.dead.extend(dead);
    }

    fn apply(&mut self, op: &Op) {
        match *op {
            Op::AddRoot(p) => self.add(None, p),
            Op::Append(i, p) => {
                if let Some(parent) = self.pick(i) {
                    self.add(Some((parent, false)), p);
                }
            }
            Op::InsertBefore(i, p) => {
                if let Some(sibling) = self.pick(i) {
                    self.add(Some((sibling, true)), p);
                }
            }
            Op::SetParent(i, p) => {
                if let Some(node) = self.pick(i) {
                    let parent = p.and_then(|p| self.pick(p));
                    match self.graph.set_parent(node, parent, None) {
                        Ok(()) | Err(GraphError::Cycle { .. }) => {}
                        Err(e) => panic!("unexpected {e}"),
                    }
                }
            }
            Op::Remove(i) => {
                if let Some(node) = self.pick(i) {
                    self.graph.remove(node).unwrap();
                    self.forget();
                }
            }
            Op::RemoveSubtree(i) => {
                if let Some(node) = self.pick(i) {
                    self.graph.remove_subtree(node).unwrap();
                    self.forget();
                }
            }
            Op::Compact => {
                let remap = self.compact_and_check();
                self.live = self.live.iter().map(|&id| remap.get(id).unwrap()).collect();
            }
        }
        for &id in &self.dead {
            assert!(!self.graph.contains(id), "{id:?} came back to life");
        }
    }

    /// Compacts and checks everything against the graph as it was.
    fn compact_and_check(&mut self) -> Remap {
        let before = self.graph.clone();
        let seen_before = seen(&before);
        let remap = self.graph.compact().unwrap();
        let g = &self.graph;
        assert!(g.revision() > before.revision());

        // Dense, and slot i is the i-th node in pre-order.
        assert_eq!(g.capacity(), g.len());
        assert_eq!(g.len(), before.len());
        assert!(g.is_compact());
        let preorder: Vec<usize> = g
            .roots()
            .flat_map(|r| g.preorder(r).unwrap())
            .map(NodeIndex::get)
            .collect();
        assert_eq!(preorder, (0..g.len()).collect::<Vec<_>>());

        // Every order sees the same payloads in the same order.
        assert_eq!(seen(g), seen_before);

        // Structure through the remap, and ids: kept in place or stale, never aliased.
        let map = |id: Option<NodeId>| id.map(|id| remap.get(id).unwrap());
        for &old in &self.dead {
            assert_eq!(remap.get(old), None, "a stale id was remapped");
        }
        let mut moved = 0;
        for &old in &self.live {
            let new = remap.get(old).unwrap();
            assert_eq!(remap.index(old.index()), Some(new.index()));
            assert_eq!(g.parent(new).unwrap(), map(before.parent(old).unwrap()));
            assert_eq!(
                g.children(new).unwrap().collect::<Vec<_>>(),
                before
                    .children(old)
                    .unwrap()
                    .map(|c| remap.get(c).unwrap())
                    .collect::<Vec<_>>()
            );
            assert_eq!(
                g.last_child(new).unwrap(),
                map(before.last_child(old).unwrap())
            );
            assert_eq!(
                g.prev_sibling(new).unwrap(),
                map(before.prev_sibling(old).unwrap())
            );
            assert_eq!(desc(g, new.index()), desc(&before, old.index()));
            if new == old {
                assert!(g.contains(old));
            } else {
                moved += 1;
                assert!(
                    !g.contains(old),
                    "{old:?} moved to {new:?} but still answers"
                );
                self.dead.push(old);
            }
        }
        assert_eq!(remap.moved(), moved);
        remap
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn compaction_keeps_orders_structure_and_ids(ops in prop::collection::vec(op(), 1..160)) {
        let mut run = Run { graph: Graph::new(), live: vec![], dead: vec![], next_tag: 0 };
        for op in &ops {
            run.apply(op);
        }
        run.apply(&Op::Compact);
        // Ids of the compacted graph work for edits, and growing the arena again
        // revives no old id (`apply` checks every dead id after each step).
        let live = run.live.clone();
        for &id in live.iter().step_by(3) {
            run.add(Some((id, false)), Pay::B);
        }
        for i in 0..50 {
            run.apply(&Op::AddRoot([Pay::A, Pay::B, Pay::Z][i % 3]));
        }
        run.apply(&Op::Compact);
    }
}

#[test]
fn compacting_a_compact_graph_changes_no_id() {
    let mut g = Graph::new();
    let root = g.add_root(A(0));
    let mut ids = vec![root];
    // Appending under a node of the rightmost path keeps slot order = pre-order.
    let mut path = vec![root];
    for i in 1..300u32 {
        let keep = 1 + (i as usize * 7919) % path.len();
        path.truncate(keep);
        let id = g.append_child(path[keep - 1], A(i)).unwrap();
        path.push(id);
        ids.push(id);
    }
    assert!(g.is_compact());
    let remap = g.compact().unwrap();
    assert_eq!(remap.moved(), 0);
    for &id in &ids {
        assert_eq!(remap.get(id), Some(id));
        assert!(g.contains(id));
    }
}

#[test]
fn scattered_ids_are_remapped_and_old_ones_go_stale() {
    let mut g = Graph::new();
    let root = g.add_root(A(0));
    let a = g.append_child(root, A(1)).unwrap();
    let b = g.append_child(root, A(2)).unwrap();
    let a1 = g.append_child(a, A(3)).unwrap(); // slot 3, pre-order position 2
    assert!(!g.is_compact());
    let remap = g.compact().unwrap();
    assert_eq!(remap.moved(), 2);
    assert_eq!(remap.get(root), Some(root));
    assert_eq!(remap.get(a), Some(a));
    let (b2, a12) = (remap.get(b).unwrap(), remap.get(a1).unwrap());
    assert_eq!((b2.index().get(), a12.index().get()), (3, 2));
    assert_eq!(g.get::<A>(a12).unwrap(), &A(3));
    assert_eq!(g.get::<A>(b2).unwrap(), &A(2));
    // The old ids of b and a1 name slots 2 and 3 with old generations: stale.
    assert!(matches!(g.get::<A>(b), Err(GraphError::StaleNode(_))));
    assert!(matches!(g.get::<A>(a1), Err(GraphError::StaleNode(_))));
}

#[test]
fn a_shrunk_arena_regrows_without_reviving_old_ids() {
    let mut g = Graph::new();
    let root = g.add_root(Z);
    let kids: Vec<NodeId> = (0..10)
        .map(|i| g.append_child(root, A(i)).unwrap())
        .collect();
    for &k in &kids[..5] {
        g.remove(k).unwrap();
    }
    let remap = g.compact().unwrap();
    assert_eq!(g.capacity(), 6);
    // Slots 6..11 were cut off; the ids that named them must stay stale when the
    // arena grows back over them.
    for i in 0..10 {
        g.append_child(root, A(100 + i)).unwrap();
    }
    for (i, &k) in kids.iter().enumerate() {
        match remap.get(k) {
            Some(new) => assert_eq!(g.get::<A>(new).unwrap(), &A(i as u32)),
            None => assert!(!g.contains(k)),
        }
        if remap.get(k) != Some(k) {
            assert!(!g.contains(k), "{k:?} revived");
        }
    }
}

#[test]
fn a_million_deep_chain_in_reverse_slot_order_compacts() {
    const N: usize = 1_000_000;
    let mut g = Graph::with_capacity(N);
    let ids: Vec<NodeId> = (0..N as u32).map(|i| g.add_root(A(i))).collect();
    // Node i under node i + 1: the root is the last slot and pre-order runs backwards.
    for i in 0..N - 1 {
        g.set_parent(ids[i], Some(ids[i + 1]), None).unwrap();
    }
    let remap = g.compact().unwrap();
    assert!(g.is_compact());
    assert_eq!(remap.moved(), N); // slot j goes to N - 1 - j: none stays
    let deepest = remap.get(ids[0]).unwrap();
    assert_eq!(deepest.index().get(), N - 1);
    assert_eq!(g.get::<A>(deepest).unwrap(), &A(0));
    assert_eq!(g.depth(deepest).unwrap(), N - 1);
}

#[test]
fn an_empty_graph_compacts() {
    let mut g = Graph::new();
    let root = g.add_root(A(0));
    g.remove(root).unwrap();
    let remap = g.compact().unwrap();
    assert_eq!((g.capacity(), g.len()), (0, 0));
    assert_eq!(remap.get(root), None);
    let again = g.add_root(A(1));
    assert_ne!(again, root, "a re-grown slot must not reuse the removed id");
    assert!(!g.contains(root));
}
