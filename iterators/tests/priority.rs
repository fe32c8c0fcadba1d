//! The priority-queue iterator in an action: keys, ties, inherited keys and NaN,
//! against a naive best-first model.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{
    Action, ActiveList, Flow, Graph, NodeCore, NodeId, NodeIndex, Static, StaticActor,
    TraversalError, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{PriorityQueue, SwitchRule};

mod common;
use common::Rng;

/// A node with the key its parent's actor gives it (`None`: no key, inherit).
#[derive(Clone, Debug)]
struct Item(Option<f32>);
impl NodeCore for Item {}

/// Sets each child's key from its payload.
struct KeyFromPayload;
impl StaticActor for KeyFromPayload {
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        let graph = visit.graph();
        for mut entry in active.iter_mut() {
            if let Some(key) = graph.get_at::<Item>(entry.node()).and_then(|item| item.0) {
                entry.set_key(key);
            }
        }
        Flow::Continue
    }
}

#[derive(Default)]
struct Order(Vec<NodeIndex>);
impl UnorderedActor for Order {
    fn begin(
        &mut self,
        _: &scenewalk_core::RunContext<'_>,
    ) -> Result<(), scenewalk_core::TraversalError> {
        self.0.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push(visit.node());
        Flow::Continue
    }
}

/// Keys drawn from a few values (many ties), some children unkeyed.
fn random_tree(n: usize, seed: u64) -> (Graph, NodeId) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Item(None));
    let mut ids = vec![root];
    for _ in 1..n {
        let parent = ids[rng.below(ids.len())];
        let key = match rng.below(5) {
            0 => None,
            k => Some(k as f32 - 2.0),
        };
        ids.push(graph.append_child(parent, Item(key)).unwrap());
    }
    (graph, root)
}

/// The naive model: a list of pending (key, arrival, node); take the largest key,
/// the earliest arrival among equal keys; children without a key take their parent's.
fn best_first(graph: &Graph, root: NodeId) -> Vec<NodeIndex> {
    let mut pending = vec![(0.0f32, 0u64, root)];
    let mut arrivals = 1;
    let mut order = Vec::new();
    while !pending.is_empty() {
        let best = (0..pending.len())
            .max_by(|&a, &b| {
                let (ka, sa, _) = pending[a];
                let (kb, sb, _) = pending[b];
                ka.total_cmp(&kb).then(sb.cmp(&sa))
            })
            .unwrap();
        let (key, _, node) = pending.remove(best);
        order.push(node.index());
        for child in graph.children(node).unwrap() {
            let own = graph.get::<Item>(child).unwrap().0;
            pending.push((own.unwrap_or(key), arrivals, child));
            arrivals += 1;
        }
    }
    order
}

fn priority_order(iterator: PriorityQueue, graph: &Graph, root: NodeId) -> Vec<NodeIndex> {
    let mut action = Action::new(
        iterator,
        (
            Static::new(KeyFromPayload),
            Unordered::new(Order::default()),
        ),
    )
    .unwrap();
    action.run(graph, root).unwrap();
    action.actor::<Order>().unwrap().0.clone()
}

#[test]
fn keys_ties_and_inherited_keys_follow_the_model() {
    for seed in 1..40 {
        let (graph, root) = random_tree(200, seed);
        assert_eq!(
            priority_order(PriorityQueue::new(), &graph, root),
            best_first(&graph, root),
            "seed {seed}"
        );
    }
}

#[test]
fn equal_keys_go_in_arrival_order() {
    // With no keys at all every node inherits 0: first come, first served is level order.
    let mut graph = Graph::new();
    let root = graph.add_root(Item(None));
    let a = graph.append_child(root, Item(None)).unwrap();
    let b = graph.append_child(root, Item(None)).unwrap();
    let a1 = graph.append_child(a, Item(None)).unwrap();
    let b1 = graph.append_child(b, Item(None)).unwrap();
    let a2 = graph.append_child(a, Item(None)).unwrap();
    let got = priority_order(PriorityQueue::new(), &graph, root);
    let want: Vec<_> = [root, a, b, a1, a2, b1]
        .iter()
        .map(|id| id.index())
        .collect();
    assert_eq!(got, want);
}

#[test]
fn an_unkeyed_child_inherits_its_parents_key() {
    let mut graph = Graph::new();
    let root = graph.add_root(Item(None));
    let high = graph.append_child(root, Item(Some(5.0))).unwrap();
    let low = graph.append_child(root, Item(Some(3.0))).unwrap();
    let inherits = graph.append_child(high, Item(None)).unwrap(); // key 5 > 3
    let got = priority_order(PriorityQueue::new(), &graph, root);
    let want: Vec<_> = [root, high, inherits, low]
        .iter()
        .map(|id| id.index())
        .collect();
    assert_eq!(got, want);
}

proptest::proptest! {
    /// An unkeyed child inherits exactly its parent's key, whatever the key (a zero of
    /// either sign ranking as `0.0`): it comes after an equal key that arrived earlier
    /// and before the next smaller float.
    #[test]
    fn an_unkeyed_child_inherits_any_key_exactly(bits in proptest::prelude::any::<u32>()) {
        let key = f32::from_bits(bits);
        proptest::prop_assume!(!key.is_nan() && key != f32::NEG_INFINITY);
        let mut graph = Graph::new();
        let root = graph.add_root(Item(None));
        let a = graph.append_child(root, Item(Some(key))).unwrap();
        let b = graph.append_child(root, Item(Some(key))).unwrap();
        let c = graph.append_child(root, Item(Some(key.next_down()))).unwrap();
        let a1 = graph.append_child(a, Item(None)).unwrap();
        let want = [root, a, b, a1, c].map(|id| id.index());
        proptest::prop_assert_eq!(priority_order(PriorityQueue::new(), &graph, root), want);
    }
}

#[test]
fn a_nan_key_is_an_error_and_the_next_run_is_clean() {
    let mut graph = Graph::new();
    let root = graph.add_root(Item(None));
    graph.append_child(root, Item(Some(1.0))).unwrap();
    let bad = graph.append_child(root, Item(Some(f32::NAN))).unwrap();
    let mut action = Action::new(
        PriorityQueue::new(),
        (
            Static::new(KeyFromPayload),
            Unordered::new(Order::default()),
        ),
    )
    .unwrap();
    assert_eq!(
        action.run(&graph, root),
        Err(TraversalError::NanKey { node: bad })
    );
    graph.get_mut::<Item>(bad).unwrap().0 = Some(2.0);
    let stats = action.run(&graph, root).unwrap();
    assert_eq!(stats.entered, 3);
    assert_eq!(action.actor::<Order>().unwrap().0[1], bad.index());
}

#[test]
fn hybrid_takes_subtrees_whole_below_the_switch_depth() {
    for seed in 1..20 {
        let (graph, root) = random_tree(150, seed);
        let order = priority_order(PriorityQueue::hybrid(SwitchRule::AtDepth(2)), &graph, root);
        assert_eq!(order.len(), graph.len());
        // Below depth 2 a subtree is contiguous in the order: once a depth-1 node's
        // child is entered, all of that child's descendants follow before anything else.
        let position = |n: NodeIndex| order.iter().position(|&m| m == n).unwrap();
        for id in graph
            .children(root)
            .unwrap()
            .flat_map(|c| graph.children(c).unwrap().collect::<Vec<_>>())
        {
            let mut size = 0;
            let mut stack = vec![id];
            while let Some(n) = stack.pop() {
                size += 1;
                stack.extend(graph.children(n).unwrap());
            }
            let start = position(id.index());
            let mut inside = vec![id];
            let mut set = std::collections::BTreeSet::new();
            while let Some(n) = inside.pop() {
                set.insert(n.index());
                inside.extend(graph.children(n).unwrap());
            }
            let window: std::collections::BTreeSet<_> =
                order[start..start + size].iter().copied().collect();
            assert_eq!(window, set, "seed {seed}: subtree of {id:?} is contiguous");
        }
    }
}

#[test]
fn hybrid_orders_by_key_down_to_the_switch_depth() {
    // root -> A(1), B(5); A -> a1(9); B -> b1(2) -> b11(7), b12(0); B -> b2(8).
    let mut graph = Graph::new();
    let root = graph.add_root(Item(None));
    let a = graph.append_child(root, Item(Some(1.0))).unwrap();
    let a1 = graph.append_child(a, Item(Some(9.0))).unwrap();
    let b = graph.append_child(root, Item(Some(5.0))).unwrap();
    let b1 = graph.append_child(b, Item(Some(2.0))).unwrap();
    let b11 = graph.append_child(b1, Item(Some(7.0))).unwrap();
    let b12 = graph.append_child(b1, Item(Some(0.0))).unwrap();
    let b2 = graph.append_child(b, Item(Some(8.0))).unwrap();
    let ix = |ids: &[NodeId]| ids.iter().map(|id| id.index()).collect::<Vec<_>>();
    // Depth 2 (a1, b1, b2) by key; below b1, document order (b11 before b12 even
    // though a1's 9 and b11's 7 would outrank it by key).
    assert_eq!(
        priority_order(PriorityQueue::hybrid(SwitchRule::AtDepth(2)), &graph, root),
        ix(&[root, b, b2, b1, b11, b12, a, a1])
    );
    // Pure priority for comparison: b11 (7) waits for nothing but its parent.
    assert_eq!(
        priority_order(PriorityQueue::new(), &graph, root),
        ix(&[root, b, b2, b1, b11, a, a1, b12])
    );
}
