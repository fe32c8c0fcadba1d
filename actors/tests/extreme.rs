//! Extreme shapes under every iterator: a chain as deep as the graph is large and a
//! fan as wide. Every order must visit every node exactly once in its promised order,
//! the update pass must give the exact world transforms and boxes, and dropping must
//! not recurse. The tests run on the harness's threads (2 MiB stacks), so any
//! recursion over the depth would overflow.
//!
//! `cargo test` runs 200,000-node shapes (the million-deep chain under depth-first
//! stays in `core/tests/deep.rs`). The 10,000,000-node runs are `#[ignore]`d; run them
//! one at a time in release mode, each in its own process so the peak memory read
//! from `/proc/self/status` is its own (figures in `docs/reliability.md`):
//!
//! ```text
//! cargo test --release -p scenewalk-actors --test extreme -- --ignored --test-threads=1 chain_10m
//! cargo test --release -p scenewalk-actors --test extreme -- --ignored --test-threads=1 fan_10m
//! ```

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::{Bounds, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    Aabb, Action, ActiveList, Events, Flow, Graph, NodeId, Ordered, TraversalIterator, Unordered,
    UnorderedActor, Visit,
};
use scenewalk_iterators::{
    BreadthFirst, DepthFirst, DfsWalker, Flattened, PriorityQueue, SwitchRule, Walk,
};
use scenewalk_nodes::{Geometry, Group, Transform};
use std::time::Instant;

/// A transform every this many chain nodes: enough to propagate, few enough that the
/// 10M chain's matrices do not dominate its memory.
const TRANSFORM_EVERY: usize = 8;

/// Checks in O(1) memory that nodes are entered in increasing slot order, each once.
/// Both shapes are built so that every order here (pre-order, priority with equal
/// keys, level order) is the slot order.
#[derive(Default)]
struct InSlotOrder {
    entered: u64,
    next: usize,
    in_order: bool,
}

impl InSlotOrder {
    fn see(&mut self, slot: usize) {
        self.in_order &= slot == self.next;
        self.next = slot + 1;
        self.entered += 1;
    }
}

impl UnorderedActor for InSlotOrder {
    const BATCHES: bool = true;
    fn begin(
        &mut self,
        _: &scenewalk_core::RunContext<'_>,
    ) -> Result<(), scenewalk_core::TraversalError> {
        *self = InSlotOrder {
            in_order: true,
            ..InSlotOrder::default()
        };
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.see(visit.node().get());
        Flow::Continue
    }
    fn enter_batch(&mut self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        for e in batch.entries() {
            self.see(e.node().get());
        }
        Flow::Continue
    }
}

/// Checks that leaves nest: a node at depth `d` is entered with `d` open ancestors
/// and left as the innermost open node.
#[derive(Default)]
struct Nesting {
    open: u32,
    left: u64,
    ok: bool,
}

impl UnorderedActor for Nesting {
    const EVENTS: Events = Events::EnterLeave;
    fn begin(
        &mut self,
        _: &scenewalk_core::RunContext<'_>,
    ) -> Result<(), scenewalk_core::TraversalError> {
        *self = Nesting {
            ok: true,
            ..Nesting::default()
        };
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        // Priority orders enter a sibling after the previous one's leave, like
        // depth-first, but may leave several levels at once; both keep this.
        self.ok &= visit.depth() <= self.open;
        self.open = visit.depth() + 1;
        Flow::Continue
    }
    fn leave(&mut self, visit: &Visit<'_>) {
        self.left += 1;
        self.ok &= visit.depth() < self.open;
        self.open = visit.depth();
    }
}

/// A shape and what the update pass must give on it.
struct Shape {
    graph: Graph,
    root: NodeId,
    /// A node and its exact world translation.
    probe: (NodeId, Vec3),
    /// The root's exact world box.
    root_box: Aabb,
    /// Whether leave events nest strictly (a chain) or siblings interleave (a fan).
    deepest: u32,
}

/// root → … → leaf: `n` nodes; every `TRANSFORM_EVERY`-th a translation by +x, the
/// leaf a unit box. Built in pre-order, so slot order is pre-order.
fn chain(n: usize) -> Shape {
    let mut graph = Graph::with_capacity(n);
    let root = graph.add_root(Transform::from_translation(Vec3::X));
    let mut last = root;
    let mut transforms = 1usize;
    for i in 1..n - 1 {
        last = if i % TRANSFORM_EVERY == 0 {
            transforms += 1;
            graph.append_child(last, Transform::from_translation(Vec3::X))
        } else {
            graph.append_child(last, Group)
        }
        .unwrap();
    }
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let leaf = graph.append_child(last, Geometry::new(unit)).unwrap();
    // Sums of 1.0 are exact in f32 up to 2^24, beyond every count here.
    let at = Vec3::X * transforms as f32;
    Shape {
        graph,
        root,
        probe: (leaf, at),
        root_box: Aabb::new(at, at + Vec3::ONE),
        deepest: (n - 1) as u32,
    }
}

/// A transform root with `n - 1` box children in a row along x.
fn fan(n: usize) -> Shape {
    let mut graph = Graph::with_capacity(n);
    let root = graph.add_root(Transform::from_translation(Vec3::X));
    let mut last = root;
    for i in 0..n - 1 {
        let x = i as f32;
        let b = Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0));
        last = graph.append_child(root, Geometry::new(b)).unwrap();
    }
    Shape {
        graph,
        root,
        probe: (last, Vec3::X),
        root_box: Aabb::new(Vec3::X, Vec3::new(n as f32, 1.0, 1.0)),
        deepest: 1,
    }
}

/// Peak resident memory of this process so far, in bytes (Linux; 0 elsewhere).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn orders<I: TraversalIterator>(name: &str, iterator: I, s: &Shape) {
    let n = s.graph.len() as u64;
    let t = Instant::now();
    let mut action = Action::new(iterator, (Unordered::new(InSlotOrder::default()),)).unwrap();
    let stats = action.run(&s.graph, s.root).unwrap();
    let seen = action.actor::<InSlotOrder>().unwrap();
    assert_eq!((stats.entered, seen.entered), (n, n), "{name}");
    assert!(seen.in_order, "{name}: slot order");
    eprintln!("  {name}: {:?}, peak {} MiB", t.elapsed(), peak_rss() >> 20);
}

fn nesting<I: TraversalIterator>(name: &str, iterator: I, s: &Shape) {
    let n = s.graph.len() as u64;
    let mut action = Action::new(iterator, (Unordered::new(Nesting::default()),)).unwrap();
    let stats = action.run(&s.graph, s.root).unwrap();
    let nest = action.actor::<Nesting>().unwrap();
    assert_eq!((stats.entered, stats.left, nest.left), (n, n, n), "{name}");
    assert!(nest.ok && nest.open == 0, "{name}: leaves nest");
}

fn update<I: TraversalIterator>(name: &str, iterator: I, s: &Shape) {
    let t = Instant::now();
    let mut action = Action::new(
        iterator,
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    action.run(&s.graph, s.root).unwrap();
    let (probe, at) = s.probe;
    let world = action.actor::<WorldTransforms>().unwrap();
    assert_eq!(
        world.table().world(&s.graph, probe).ok(),
        Some(Affine3A::from_translation(at)),
        "{name}"
    );
    let bounds = action.actor::<Bounds>().unwrap();
    assert_eq!(
        bounds.table().world_bounds(&s.graph, s.root).ok(),
        Some(s.root_box),
        "{name}"
    );
    eprintln!(
        "  update under {name}: {:?}, peak {} MiB",
        t.elapsed(),
        peak_rss() >> 20
    );
}

/// Every iterator, every walker, the update pass and the drop, on one shape.
fn suite(label: &str, s: Shape) {
    let n = s.graph.len();
    let built = peak_rss();
    eprintln!(
        "{label}: {n} nodes, peak after building {} MiB",
        built >> 20
    );
    let t = Instant::now();

    orders("depth-first", DepthFirst::new(), &s);
    orders("priority", PriorityQueue::new(), &s);
    orders(
        "hybrid",
        PriorityQueue::hybrid(SwitchRule::FrontierAbove(64)),
        &s,
    );
    orders("breadth-first", BreadthFirst::new(), &s);
    orders("flattened", Flattened::new(), &s);
    nesting("depth-first", DepthFirst::new(), &s);
    nesting("priority", PriorityQueue::new(), &s);
    nesting("hybrid", PriorityQueue::hybrid(SwitchRule::AtDepth(2)), &s);
    nesting("flattened", Flattened::new(), &s);

    // The walkers, against the slot order.
    let g = &s.graph;
    assert!(g.preorder(s.root).unwrap().map(|i| i.get()).eq(0..n));
    let (mut enters, mut leaves) = (0usize, 0usize);
    for e in g.depth_first(s.root).unwrap() {
        enters += usize::from(e.is_enter());
        leaves += usize::from(!e.is_enter());
    }
    assert_eq!((enters, leaves), (n, n), "depth_first events");
    let mut level_order = g.breadth_first(s.root).unwrap();
    assert!(
        level_order
            .by_ref()
            .map(|(i, _)| i.get())
            .take(n - 1)
            .eq(0..n - 1)
    );
    assert_eq!(
        level_order.next().map(|(i, d)| (i.get(), d)),
        Some((n - 1, s.deepest))
    );
    assert_eq!(level_order.next(), None);
    let by_priority: Result<Vec<_>, _> = g.by_priority(s.root, |_| 0.0).unwrap().collect();
    assert!(by_priority.unwrap().into_iter().map(|i| i.get()).eq(0..n));
    let mut walker = DfsWalker::new(s.root);
    assert_eq!(std::iter::from_fn(|| walker.next(g)).count(), 2 * n);
    walker = DfsWalker::new(s.root);
    assert!(
        std::iter::from_fn(|| walker.next_enter(g))
            .map(|i| i.get())
            .eq(0..n)
    );
    let mut flat = Flattened::new();
    flat.rebuild(g, s.root).unwrap();
    assert!(flat.iter().map(|i| i.get()).eq(0..n));
    assert_eq!(flat.depths().iter().max(), Some(&s.deepest));

    // World transforms by the flattened linear pass.
    let locals = flat.gather(|i| {
        g.get_at::<Transform>(i)
            .map_or(Affine3A::IDENTITY, |t| *t.local())
    });
    let mut world = Vec::new();
    flat.propagate(Affine3A::IDENTITY, &locals, &mut world, |p, l| *p * *l)
        .unwrap();
    let (probe, at) = s.probe;
    assert_eq!(world[probe.index().get()], Affine3A::from_translation(at));
    drop((flat, locals, world));

    update("depth-first", DepthFirst::new(), &s);
    update("priority", PriorityQueue::new(), &s);
    update("flattened", Flattened::new(), &s);

    let copy = s.graph.clone();
    drop(s);
    assert_eq!(copy.len(), n);
    drop(copy);
    let peak = peak_rss();
    eprintln!(
        "{label}: all passes {:?}; peak {} MiB = {} bytes/node",
        t.elapsed(),
        peak >> 20,
        peak / n as u64
    );
}

#[test]
fn chain_200k() {
    suite("chain", chain(200_000));
}

#[test]
fn fan_200k() {
    suite("fan", fan(200_000));
}

#[test]
#[ignore = "for the memory figures: run in release mode, see the file's doc"]
fn chain_1m() {
    suite("chain", chain(1_000_000));
}

#[test]
#[ignore = "for the memory figures: run in release mode, see the file's doc"]
fn fan_1m() {
    suite("fan", fan(1_000_000));
}

#[test]
#[ignore = "10M nodes, ~2 GB: run in release mode, see the file's doc"]
fn chain_10m() {
    suite("chain", chain(10_000_000));
}

#[test]
#[ignore = "10M nodes, ~2 GB: run in release mode, see the file's doc"]
fn fan_10m() {
    suite("fan", fan(10_000_000));
}
