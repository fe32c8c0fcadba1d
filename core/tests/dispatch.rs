//! Per-type dispatch through method tables of run-time functors (run by `Arms`):
//! functor kinds, fallback along parent types, the default, re-resolution when types
//! are added, and typed views.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, Arms, Flow, Functor, Graph, MethodTable, NodeCore, NodeId, NodeType, Typed, Unordered,
    Visit,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The root of the type chain.
#[derive(Clone, Debug)]
struct A(u32);
impl NodeCore for A {}

impl A {
    fn visit(&self, log: &mut Log) -> Flow {
        log.push(("A::visit", self.0));
        Flow::Continue
    }
}

/// Extends A.
#[derive(Clone, Debug)]
struct B {
    a: A,
    b: u32,
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
    c: u32,
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
struct D(u32);
impl NodeCore for D {}

/// Added later, extending A.
#[derive(Clone, Debug)]
struct E(A);
impl NodeCore for E {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<A>())
    }
}

/// Added later, with its own functor registered before the type exists.
#[derive(Clone, Debug)]
struct F(u32);
impl NodeCore for F {}

type Log = Vec<(&'static str, u32)>;

fn c(v: u32) -> C {
    C {
        b: B { a: A(v), b: v + 1 },
        c: v + 2,
    }
}

/// root(D 0) [A 10, B 20, C 30, D 40]; returns the graph and the nodes.
fn graph() -> (Graph, Vec<NodeId>) {
    let mut g = Graph::new();
    let root = g.add_root(D(0));
    let a = g.append_child(root, A(10)).unwrap();
    let b = g.append_child(root, B { a: A(20), b: 21 }).unwrap();
    let cc = g.append_child(root, c(30)).unwrap();
    let d = g.append_child(root, D(40)).unwrap();
    (g, vec![root, a, b, cc, d])
}

/// The dispatch actor of a method table alone: it can be named.
type Dynamic = Arms<Log, (), MethodTable<Log>>;

/// A dispatch actor running `table`.
fn dynamic(table: MethodTable<Log>) -> Dynamic {
    Arms::new(Log::new()).otherwise_table(table)
}

/// A table with `f` for `T`, built in one expression.
fn with<T: NodeCore>(mut table: MethodTable<Log>, f: Functor<Log>) -> MethodTable<Log> {
    table.add::<T>(f);
    table
}

/// A table with the default `f`, built in one expression.
fn with_default(mut table: MethodTable<Log>, f: Functor<Log>) -> MethodTable<Log> {
    table.set_default(f);
    table
}

/// Runs a method table over the graph and returns its log.
fn run(g: &Graph, root: NodeId, table: MethodTable<Log>) -> Log {
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(dynamic(table)),)).unwrap();
    action.run(g, root).unwrap();
    let (_, (actor,)) = action.into_parts();
    actor.into_inner().context
}

fn fa(a: &A, _: &Visit<'_>, log: &mut Log) -> Flow {
    log.push(("A", a.0));
    Flow::Continue
}
fn fb(b: &B, _: &Visit<'_>, log: &mut Log) -> Flow {
    log.push(("B", b.b));
    Flow::Continue
}
fn fc(c: &C, _: &Visit<'_>, log: &mut Log) -> Flow {
    log.push(("C", c.c));
    Flow::Continue
}
fn fd(d: &D, _: &Visit<'_>, log: &mut Log) -> Flow {
    log.push(("D", d.0));
    Flow::Continue
}

#[test]
fn exact_type_functors() {
    let (g, n) = graph();
    let mut table = MethodTable::new();
    table
        .add::<A>(Functor::function(fa))
        .add::<B>(Functor::function(fb))
        .add::<C>(Functor::function(fc))
        .add::<D>(Functor::function(fd));
    let log = run(&g, n[0], table);
    assert_eq!(log, [("D", 0), ("A", 10), ("B", 21), ("C", 32), ("D", 40)]);
}

#[test]
fn fallback_along_the_parent_chain() {
    let (g, n) = graph();
    // Only A: B and C fall back to it and get their A view.
    let only_a = || with::<A>(MethodTable::new(), Functor::function(fa));
    assert_eq!(run(&g, n[0], only_a()), [("A", 10), ("A", 20), ("A", 30)]);
    // A and B: C takes B's (its parent's), not A's.
    let table = with::<B>(only_a(), Functor::function(fb));
    assert_eq!(run(&g, n[0], table), [("A", 10), ("B", 21), ("B", 31)]);
    // Only C: its parents are not handled.
    let table = with::<C>(MethodTable::new(), Functor::function(fc));
    assert_eq!(run(&g, n[0], table), [("C", 32)]);
    // A later registration for the same type replaces the earlier one.
    let table = with::<A>(
        only_a(),
        Functor::function(|a: &A, _, log: &mut Log| {
            log.push(("A2", a.0));
            Flow::Continue
        }),
    );
    assert_eq!(run(&g, n[0], table), [("A2", 10), ("A2", 20), ("A2", 30)]);
}

#[test]
fn default_functor_and_no_default() {
    let (g, n) = graph();
    let default = || {
        Functor::any(|visit: &Visit<'_>, log: &mut Log| {
            log.push(("default", visit.node().raw()));
            Flow::Continue
        })
    };
    let table = with::<B>(MethodTable::new(), Functor::function(fb));
    let log = run(&g, n[0], with_default(table, default()));
    let slot = |i: usize| n[i].index().raw();
    assert_eq!(
        log,
        [
            ("default", slot(0)),
            ("default", slot(1)),
            ("B", 21),
            ("B", 31),
            ("default", slot(4))
        ]
    );

    // Without a default, unhandled types are not called at all.
    let mut table = MethodTable::<Log>::new();
    table.add::<B>(Functor::function(fb));
    table.resolve(g.types());
    let types = g.types();
    let ty = |id: NodeId| g.node_type(id).unwrap();
    assert!(!table.handles(ty(n[0])) && !table.handles(ty(n[1])));
    assert!(table.handles(ty(n[2])) && table.handles(ty(n[3])));
    assert_eq!(types.index_of::<B>(), Some(ty(n[2])));
    let mut log = Log::new();
    for &id in &n {
        let visit = Visit::new(&g, id.index(), 1).unwrap();
        assert_eq!(table.call(&visit, &mut log), Flow::Continue);
    }
    assert_eq!(log, [("B", 21), ("B", 31)]);
    table.set_default(default());
    table.resolve(g.types());
    assert!(table.handles(ty(n[0])));
}

/// An object whose method a closure functor calls.
struct Scaler {
    factor: u32,
    calls: Arc<AtomicU64>,
}
impl Scaler {
    fn apply(&mut self, a: &A, log: &mut Log) -> Flow {
        self.calls.fetch_add(1, Ordering::Relaxed);
        log.push(("scaled", a.0 * self.factor));
        Flow::Continue
    }
}

#[test]
fn functor_kinds() {
    let (g, n) = graph();
    let calls = Arc::new(AtomicU64::new(0));
    let mut scaler = Scaler {
        factor: 3,
        calls: calls.clone(),
    };
    let mut table = MethodTable::new();
    table
        // A method of the node.
        .add::<A>(Functor::function(|a: &A, _, log| a.visit(log)))
        // A closure holding an object, calling its method.
        .add::<B>(Functor::closure(
            move |b: &B, _: &Visit<'_>, log: &mut Log| scaler.apply(&b.a, log),
        ))
        // A plain function.
        .add::<C>(Functor::function(fc))
        // Type-erased.
        .add::<D>(Functor::any(|visit: &Visit<'_>, log: &mut Log| {
            log.push(("any", visit.get::<D>().unwrap().0));
            Flow::Continue
        }));
    let log = run(&g, n[0], table);
    assert_eq!(
        log,
        [
            ("any", 0),
            ("A::visit", 10),
            ("scaled", 60),
            ("C", 32),
            ("any", 40)
        ]
    );
    assert_eq!(calls.load(Ordering::Relaxed), 1);
}

#[test]
fn functor_flow_is_honoured() {
    let (mut g, n) = graph();
    let under_b = g.append_child(n[2], A(99)).unwrap();
    let under_a = g.append_child(n[1], A(98)).unwrap();
    let table = with::<B>(
        with::<A>(MethodTable::new(), Functor::function(fa)),
        Functor::function(|b: &B, _, log: &mut Log| {
            log.push(("B", b.b));
            Flow::Prune
        }),
    );
    let log = run(&g, n[0], table);
    assert_eq!(log, [("A", 10), ("A", 98), ("B", 21), ("B", 31)]);
    assert!(g.contains(under_b) && g.contains(under_a));
}

#[test]
fn table_re_resolves_when_types_are_added() {
    let (mut g, n) = graph();
    let table = with::<F>(
        with::<A>(MethodTable::new(), Functor::function(fa)),
        Functor::function(|f: &F, _, log: &mut Log| {
            log.push(("F", f.0));
            Flow::Continue
        }),
    );
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(dynamic(table)),)).unwrap();
    action.run(&g, n[0]).unwrap();
    let log = std::mem::take(action.context_mut::<Log>().unwrap());
    assert_eq!(log, [("A", 10), ("A", 20), ("A", 30)]);
    assert!(g.types().index_of::<F>().is_none());

    // New types after the table was resolved: E extends A, F has its own functor.
    g.append_child(n[0], E(A(50))).unwrap();
    g.append_child(n[0], F(60)).unwrap();
    action.run(&g, n[0]).unwrap();
    let log = std::mem::take(action.context_mut::<Log>().unwrap());
    assert_eq!(log, [("A", 10), ("A", 20), ("A", 30), ("A", 50), ("F", 60)]);

    // A functor added between runs takes effect at the next run.
    let methods = action.actor_mut::<Dynamic>().unwrap().table_mut();
    methods.add::<D>(Functor::function(fd));
    action.run(&g, n[0]).unwrap();
    let log = std::mem::take(action.context_mut::<Log>().unwrap());
    assert_eq!(
        log,
        [
            ("D", 0),
            ("A", 10),
            ("A", 20),
            ("A", 30),
            ("D", 40),
            ("A", 50),
            ("F", 60)
        ]
    );
}

#[test]
fn one_actor_on_graphs_with_different_type_indices() {
    // The same types registered in opposite orders get different indices.
    let mut g1 = Graph::new();
    let r1 = g1.add_root(D(1));
    g1.append_child(r1, A(2)).unwrap();
    let mut g2 = Graph::new();
    let r2 = g2.add_root(A(3));
    g2.append_child(r2, D(4)).unwrap();
    assert_ne!(g1.types().index_of::<A>(), g2.types().index_of::<A>());

    let actor = dynamic(with::<A>(MethodTable::new(), Functor::function(fa)));
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(actor),)).unwrap();
    for (g, root, want) in [
        (&g1, r1, ("A", 2)),
        (&g2, r2, ("A", 3)),
        (&g1, r1, ("A", 2)),
    ] {
        action.run(g, root).unwrap();
        let log = std::mem::take(action.context_mut::<Log>().unwrap());
        assert_eq!(log, [want]);
    }
    // A clone of a graph may diverge from it, so it is a registry of its own.
    let mut g3 = g1.clone();
    assert_ne!(g3.types().uid(), g1.types().uid());
    g3.append_child(r1, F(5)).unwrap();
    action.run(&g3, r1).unwrap();
    let log = std::mem::take(action.context_mut::<Log>().unwrap());
    assert_eq!(log, [("A", 2)]);
}

#[test]
fn table_resolved_for_another_graph_calls_nothing() {
    let mut g1 = Graph::new();
    g1.register_type::<D>().unwrap();
    g1.register_type::<A>().unwrap();
    let mut g2 = Graph::new();
    g2.register_type::<A>().unwrap();
    let d = g2.add_root(D(7));
    let mut table = MethodTable::<Log>::new();
    table.add::<A>(Functor::any(|visit: &Visit<'_>, log: &mut Log| {
        log.push(("A?", visit.node().raw()));
        Flow::Continue
    }));
    table.resolve(g1.types());
    let mut log = Log::new();
    let visit = Visit::new(&g2, d.index(), 0).unwrap();
    assert_eq!(table.call(&visit, &mut log), Flow::Continue);
    assert_eq!(
        log,
        [],
        "the A functor was called for a D node of another graph"
    );
}

// ----- the type registry ------------------------------------------------------------------------

#[test]
fn a_typed_view_holds_a_type_and_its_extensions() {
    let (mut g, _) = graph();
    let mut set = Typed::<B>::new();
    set.resolve(g.types());
    let types = g.types();
    let idx = |t: Option<NodeType>| t.unwrap();
    assert!(set.contains(idx(types.index_of::<B>())));
    assert!(set.contains(idx(types.index_of::<C>())));
    assert!(!set.contains(idx(types.index_of::<A>())));
    assert!(!set.contains(idx(types.index_of::<D>())));
    // A type registered later is found after resolving again.
    #[derive(Clone, Debug)]
    struct G(B);
    impl NodeCore for G {
        fn base(&self) -> Option<&dyn NodeCore> {
            Some(&self.0)
        }
        fn parent_type() -> Option<scenewalk_core::ParentType> {
            Some(scenewalk_core::ParentType::of::<B>())
        }
    }
    let gt = g.register_type::<G>().unwrap();
    set.resolve(g.types());
    assert!(set.contains(gt));
}

mod declared_parents {
    use scenewalk_core::{Flow, Functor, Graph, MethodTable, NodeCore, ParentType, Visit};

    #[derive(Clone, Debug)]
    struct Shape;
    impl NodeCore for Shape {}

    #[derive(Clone, Debug)]
    struct Ball(Shape);
    impl NodeCore for Ball {
        fn base(&self) -> Option<&dyn NodeCore> {
            Some(&self.0)
        }
        fn parent_type() -> Option<ParentType> {
            Some(ParentType::of::<Shape>())
        }
    }

    #[derive(Clone, Debug)]
    struct Marble(Ball);
    impl NodeCore for Marble {
        fn base(&self) -> Option<&dyn NodeCore> {
            Some(&self.0)
        }
        fn parent_type() -> Option<ParentType> {
            Some(ParentType::of::<Ball>())
        }
    }

    #[test]
    fn adding_a_node_registers_its_declared_parents_first() {
        let mut graph = Graph::new();
        let marble = graph.add_root(Marble(Ball(Shape)));
        let types = graph.types();
        let (shape, ball) = (
            types.index_of::<Shape>().unwrap(),
            types.index_of::<Ball>().unwrap(),
        );
        let ty = graph.node_type(marble).unwrap();
        assert_eq!(types.chain(ty).collect::<Vec<_>>(), [ty, ball, shape]);
        assert!(shape < ball && ball < ty, "parents get smaller indices");

        let mut table = MethodTable::<Vec<&str>>::new();
        table.add::<Shape>(Functor::function(|_: &Shape, _, log| {
            log.push("shape");
            Flow::Continue
        }));
        table.resolve(graph.types());
        let mut log = Vec::new();
        table.call(&Visit::new(&graph, marble.index(), 0).unwrap(), &mut log);
        assert_eq!(log, ["shape"], "falls back two levels and views the base");
    }
}

#[test]
fn default_set_first_replaced_and_functors_added_between_runs() {
    let (g, n) = graph();
    let slot = |i: usize| n[i].index().raw();
    let default = |name: &'static str| {
        Functor::any(move |visit: &Visit<'_>, log: &mut Log| {
            log.push((name, visit.node().raw()));
            Flow::Continue
        })
    };
    // The default registered before a typed functor, then replaced: the typed functor
    // keeps its place and the replacement answers for every other type.
    let mut table = MethodTable::new();
    table
        .set_default(default("first"))
        .add::<D>(Functor::function(fd))
        .set_default(default("second"));
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(dynamic(table)),)).unwrap();
    action.run(&g, n[0]).unwrap();
    let expected = [
        ("D", 0),
        ("second", slot(1)),
        ("second", slot(2)),
        ("second", slot(3)),
        ("D", 40),
    ];
    assert_eq!(action.context::<Log>().unwrap(), &expected);

    // A functor added to the actor between runs takes effect in the next run.
    let actor = action.actor_mut::<Dynamic>().unwrap();
    actor.context.clear();
    actor.table_mut().add::<B>(Functor::function(fb));
    action.run(&g, n[0]).unwrap();
    let expected = [
        ("D", 0),
        ("second", slot(1)),
        ("B", 21),
        ("B", 31),
        ("D", 40),
    ];
    assert_eq!(action.context::<Log>().unwrap(), &expected);
}

#[test]
fn a_kept_column_never_hides_an_edit() {
    use scenewalk_core::{ActiveEntry, ActiveList, TraversalIterator, UnorderedActor};
    let (mut g, n) = graph();
    let mut actor = dynamic(with::<A>(MethodTable::new(), Functor::function(fa)));
    let run = scenewalk_core::RunContext {
        graph: &g,
        root: n[0].index(),
        capabilities: DepthFirst::new().capabilities(),
        results: &scenewalk_core::Results::new(),
    };
    actor.begin(&run).unwrap();
    let enter = |actor: &mut Dynamic, g: &Graph| {
        let visit = Visit::new(g, n[1].index(), 1).unwrap();
        let mut children: Vec<ActiveEntry> = Vec::new();
        let mut active = ActiveList::new(&mut children);
        actor.enter(&visit, &mut active);
    };
    // Entered outside a run that ends: the functor keeps A's column.
    enter(&mut actor, &g);
    let kept_before = g.clone();
    g.get_mut::<A>(n[1]).unwrap().0 = 11;
    enter(&mut actor, &g);
    assert_eq!(actor.context, [("A", 10), ("A", 11)]);
    // The clone taken before the edit still holds the old payload.
    assert_eq!(kept_before.get::<A>(n[1]).unwrap().0, 10);
    assert_eq!(g.get::<A>(n[1]).unwrap().0, 11);
    // Adding and removing nodes of the kept type is seen too.
    let added = g.append_child(n[0], A(12)).unwrap();
    g.remove(n[1]).unwrap();
    actor.context.clear();
    let visit = Visit::new(&g, added.index(), 1).unwrap();
    let mut children: Vec<ActiveEntry> = Vec::new();
    actor.enter(&visit, &mut ActiveList::new(&mut children));
    assert_eq!(actor.context, [("A", 12)]);
}

#[test]
fn graph_clones_are_independent_after_edits() {
    let (mut g, n) = graph();
    let copy = g.clone();
    g.get_mut::<A>(n[1]).unwrap().0 = 99;
    g.remove(n[2]).unwrap();
    g.append_child(n[0], A(7)).unwrap();
    assert_eq!(copy.get::<A>(n[1]).unwrap().0, 10);
    assert_eq!(copy.get::<B>(n[2]).unwrap().b, 21);
    assert_eq!(g.get::<A>(n[1]).unwrap().0, 99);
    let only_a = || with::<A>(MethodTable::new(), Functor::function(fa));
    let log = run(&copy, n[0], only_a());
    assert_eq!(log, [("A", 10), ("A", 20), ("A", 30)]);
    let log = run(&g, n[0], only_a());
    assert_eq!(log, [("A", 99), ("A", 30), ("A", 7)]);
}

#[test]
fn every_run_starts_from_the_context_the_actor_was_built_with() {
    let (g, n) = graph();
    let functors = dynamic(with::<A>(MethodTable::new(), Functor::function(fa)));
    let typed = Arms::new(Log::new()).on::<A>(|a: &A, visit, log: &mut Log| fa(a, visit, log));
    let mut action = Action::new(
        DepthFirst::new(),
        (Unordered::new(functors), Unordered::new(typed)),
    )
    .unwrap();
    let want: Log = vec![("A", 10), ("A", 20), ("A", 30)];
    for run in 0..2 {
        action.run(&g, n[0]).unwrap();
        let functors = &action.actor::<Dynamic>().unwrap().context;
        assert_eq!((run, functors), (run, &want));
        assert_eq!((run, &action.actors().1.get().context), (run, &want));
    }
    // Where runs start is the actor's `start`, which may change between runs.
    action.actor_mut::<Dynamic>().unwrap().start = vec![("start", 0)];
    action.run(&g, n[0]).unwrap();
    let dynamic = &action.actor::<Dynamic>().unwrap().context;
    assert_eq!(dynamic[..2], [("start", 0), ("A", 10)]);
    assert_eq!(dynamic.len(), 4);
}
