//! Extreme shapes: a 1,000,000-deep chain and a 1,000,000-wide fan. Nothing may
//! recurse: the tests run on the test harness's threads (2 MiB stacks by default).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActiveList, Events, Flow, Graph, GraphError, NodeCore, NodeId, Ordered, OrderedActor,
    RunContext, StateCell, Unordered, UnorderedActor, Visit,
};

const N: usize = 1_000_000;

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

#[derive(Clone, Debug, PartialEq)]
struct Mesh(u32);
impl NodeCore for Mesh {}

/// Counts enters and leaves and checks they nest, with O(1) memory: `open` is how many
/// nodes are entered and not yet left; a node at depth `d` is entered with exactly `d`
/// open ancestors and left as the innermost open node.
#[derive(Default)]
struct Counter {
    entered: u64,
    left: u64,
    max_depth: u32,
    open: u32,
    nesting_ok: bool,
}

impl UnorderedActor for Counter {
    const EVENTS: Events = Events::EnterLeave;
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        *self = Counter {
            nesting_ok: true,
            ..Counter::default()
        };
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.entered += 1;
        self.nesting_ok &= visit.depth() == self.open;
        self.open = visit.depth() + 1;
        self.max_depth = self.max_depth.max(visit.depth());
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.left += 1;
        self.nesting_ok &= visit.depth() + 1 == self.open;
        self.open = visit.depth();
    }
}

/// Ordered state at depth: each node copies its parent's count and adds one.
struct PathLength {
    deepest: u64,
}

impl OrderedActor for PathLength {
    type State = u64;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u64, scenewalk_core::TraversalError> {
        Ok(0)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u64>,
        _: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        let s = state.make_mut();
        *s += 1;
        self.deepest = self.deepest.max(*s);
        Flow::Continue
    }
}

/// root → … → deepest, `N` nodes.
fn chain() -> (Graph, NodeId, NodeId) {
    let mut g = Graph::with_capacity(N);
    let root = g.add_root(Group);
    let mut last = root;
    for i in 1..N {
        last = if i % 2 == 0 {
            g.append_child(last, Group).unwrap()
        } else {
            g.append_child(last, Mesh(i as u32)).unwrap()
        };
    }
    (g, root, last)
}

#[test]
fn deep_chain() {
    let (mut g, root, deepest) = chain();
    assert_eq!(g.len(), N);
    assert_eq!(g.depth(deepest), Ok(N - 1));
    assert_eq!(g.depth(root), Ok(0));
    assert_eq!(g.is_ancestor_or_self(root, deepest), Ok(true));
    assert_eq!(g.is_ancestor_or_self(deepest, root), Ok(false));

    // Enter + leave and ordered state all the way down.
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Unordered::new(Counter::default()),
            Ordered::new(PathLength { deepest: 0 }),
        ),
    )
    .unwrap();
    let stats = action.run(&g, root).unwrap();
    assert_eq!((stats.entered, stats.left), (N as u64, N as u64));
    assert_eq!(stats.state_copies, N as u64);
    assert!(!stats.stopped);
    let counter = action.actor::<Counter>().unwrap();
    assert_eq!((counter.entered, counter.left), (N as u64, N as u64));
    assert_eq!(counter.max_depth, (N - 1) as u32);
    assert!(counter.nesting_ok);
    assert_eq!(counter.open, 0);
    assert_eq!(action.actor::<PathLength>().unwrap().deepest, N as u64);

    // A run from the middle covers the lower half only.
    let mut mid = root;
    for _ in 0..N / 2 {
        mid = g.first_child(mid).unwrap().unwrap();
    }
    let stats = action.run(&g, mid).unwrap();
    assert_eq!(stats.entered, (N - N / 2) as u64);
    assert_eq!(
        action.actor::<Counter>().unwrap().max_depth,
        (N - N / 2 - 1) as u32
    );

    // The cycle check walks all the way up and refuses; nothing changes.
    let rev = g.revision();
    assert_eq!(
        g.set_parent(root, Some(deepest), None),
        Err(GraphError::Cycle {
            node: root,
            new_parent: deepest
        })
    );
    assert_eq!(
        g.set_parent(mid, Some(deepest), None),
        Err(GraphError::Cycle {
            node: mid,
            new_parent: deepest
        })
    );
    assert_eq!(g.revision(), rev);
    assert_eq!(g.depth(deepest), Ok(N - 1));

    let copy = g.clone();

    // Moving the lower half under the root halves the depth.
    g.set_parent(mid, Some(root), None).unwrap();
    assert_eq!(g.depth(deepest), Ok(N - N / 2));
    assert_eq!(g.children(root).unwrap().count(), 2);
    let stats = action.run(&g, root).unwrap();
    assert_eq!(stats.entered, N as u64);
    assert_eq!(
        action.actor::<Counter>().unwrap().max_depth,
        (N - N / 2) as u32
    );

    // Removing an inner node splices its child into place: one level less.
    let inner = g.first_child(mid).unwrap().unwrap();
    g.remove(inner).unwrap();
    assert_eq!(g.depth(deepest), Ok(N - N / 2 - 1));
    assert_eq!(g.len(), N - 1);

    // Removing the whole tree, iteratively.
    let other = g.add_root(Mesh(7));
    assert_eq!(g.remove_subtree(root), Ok(N - 1));
    assert_eq!(g.len(), 1);
    assert!(!g.contains(root) && !g.contains(deepest) && !g.contains(mid));
    assert_eq!(g.roots().collect::<Vec<_>>(), [other]);
    assert_eq!(g.get::<Mesh>(other), Ok(&Mesh(7)));
    // Every slot is reusable again.
    let capacity = g.capacity();
    let again = g.add_root(Group);
    let mut last = again;
    for _ in 1..1000 {
        last = g.append_child(last, Group).unwrap();
    }
    assert_eq!(g.capacity(), capacity);
    assert_eq!(g.depth(last), Ok(999));

    // The clone was unaffected, and dropping deep graphs does not recurse.
    drop(g);
    assert_eq!(copy.depth(deepest), Ok(N - 1));
    assert_eq!(
        copy.get::<Mesh>(copy.first_child(root).unwrap().unwrap()),
        Ok(&Mesh(1))
    );
    drop(copy);
}

#[test]
fn wide_fan() {
    let mut g = Graph::with_capacity(N + 1);
    let root = g.add_root(Group);
    let mut first = None;
    let mut last = root;
    for i in 0..N {
        last = g.append_child(root, Mesh(i as u32)).unwrap();
        first.get_or_insert(last);
    }
    let first = first.unwrap();
    assert_eq!(g.len(), N + 1);
    assert_eq!(g.children(root).unwrap().count(), N);
    assert_eq!(g.first_child(root), Ok(Some(first)));
    assert_eq!(g.last_child(root), Ok(Some(last)));
    assert_eq!(g.depth(last), Ok(1));

    let mut action = Action::new(DepthFirst::new(), (Unordered::new(Counter::default()),)).unwrap();
    let stats = action.run(&g, root).unwrap();
    assert_eq!(
        (stats.entered, stats.left),
        ((N + 1) as u64, (N + 1) as u64)
    );
    let counter = action.actor::<Counter>().unwrap();
    assert_eq!(counter.max_depth, 1);
    assert!(counter.nesting_ok);

    // Moving the last child to the front is O(1) and keeps everything else in order.
    g.set_parent(last, Some(root), Some(first)).unwrap();
    assert_eq!(g.first_child(root), Ok(Some(last)));
    assert_eq!(g.next_sibling(last), Ok(Some(first)));
    let values: Vec<u32> = g
        .children(root)
        .unwrap()
        .map(|c| g.get::<Mesh>(c).unwrap().0)
        .take(3)
        .collect();
    assert_eq!(values, [(N - 1) as u32, 0, 1]);

    // Removing the whole fan.
    let mut copy = g.clone();
    assert_eq!(copy.remove_subtree(root), Ok(N + 1));
    assert!(copy.is_empty());
    assert_eq!(copy.roots().count(), 0);
    drop(copy);

    // Removing the root makes every child a root.
    g.remove(root).unwrap();
    assert_eq!(g.len(), N);
    assert_eq!(g.roots().count(), N);
    assert_eq!(g.parent(first), Ok(None));
    assert_eq!(g.next_sibling(first), Ok(None));
    assert_eq!(g.prev_sibling(first), Ok(None));
}
