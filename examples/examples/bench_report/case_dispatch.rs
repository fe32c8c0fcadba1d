//! Case c: dispatch on 8 node types in random order, each functor reading its node's
//! payload, against a `match` on an enum, the same `match` on the type index over the
//! graph's own links and columns (what the actors read), and a `HashMap<TypeId, _>`
//! lookup; and the floor of dispatch in an action: a `match` on the node's type index,
//! directly and through a per-type table, against a hand loop matching the enum's tag
//! (no payload).

use crate::Config;
use crate::bytes::{held, same_checksums};
use scenewalk_core::{
    Action, ActiveList, Arms, Flow, Functor, Graph, MethodTable, NodeCore, NodeId, NodeIndex,
    Typed, Unordered, UnorderedActor, Visit,
};
use scenewalk_examples::TreeShape;
use scenewalk_examples::baseline::graph_preorder_links;
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_iterators::DepthFirst;
use std::any::TypeId;
use std::collections::HashMap;

macro_rules! node_types {
    ($($name:ident),*) => {
        $(
            /// A node type of the dispatch case; its payload is one number.
            #[derive(Clone, Debug)]
            pub struct $name(pub u64);
            impl NodeCore for $name {}
        )*
    };
}

node_types!(T0, T1, T2, T3, T4, T5, T6, T7);

/// Each type does a different small job with its payload, so no two arms merge.
#[inline]
fn work(ty: u8, v: u64) -> u64 {
    match ty {
        0 => v,
        1 => v * 3,
        2 => v ^ 0x55,
        3 => v + 7,
        4 => v >> 1,
        5 => v.wrapping_mul(v),
        6 => v | 1,
        _ => v.rotate_left(3),
    }
}

/// The hand-written side: the payloads as one enum.
#[derive(Clone, Copy, Debug)]
enum Node8 {
    T0(u64),
    T1(u64),
    T2(u64),
    T3(u64),
    T4(u64),
    T5(u64),
    T6(u64),
    T7(u64),
}

#[inline]
fn match_work(node: Node8) -> u64 {
    match node {
        Node8::T0(v) => work(0, v),
        Node8::T1(v) => work(1, v),
        Node8::T2(v) => work(2, v),
        Node8::T3(v) => work(3, v),
        Node8::T4(v) => work(4, v),
        Node8::T5(v) => work(5, v),
        Node8::T6(v) => work(6, v),
        Node8::T7(v) => work(7, v),
    }
}

/// The enum's tag as the type number, payload unread: the floor's hand side.
#[inline]
fn tag(node: Node8) -> u8 {
    match node {
        Node8::T0(_) => 0,
        Node8::T1(_) => 1,
        Node8::T2(_) => 2,
        Node8::T3(_) => 3,
        Node8::T4(_) => 4,
        Node8::T5(_) => 5,
        Node8::T6(_) => 6,
        Node8::T7(_) => 7,
    }
}

/// The floor's action side: each type's `work` on the node's slot number, the type
/// number taken from the node's type index itself (`TABLE = false`: the graph
/// registers `T0`..`T7` first, so index `k` is `Tk`) or through a per-type table as
/// `Arms` keeps one (`TABLE = true`). No payload is read.
#[derive(Default)]
pub struct TypeMatch<const TABLE: bool> {
    sum: u64,
    table: Vec<u8>,
}

impl<const TABLE: bool> UnorderedActor for TypeMatch<TABLE> {
    #[inline(always)]
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        let ty = visit.node_type().get();
        let k = if TABLE {
            self.table.get(ty).copied().unwrap_or(u8::MAX)
        } else {
            ty as u8
        };
        // A `match` with one arm per type, as the hand loop's.
        let k = match k {
            0 => 0,
            1 => 1,
            2 => 2,
            3 => 3,
            4 => 4,
            5 => 5,
            6 => 6,
            _ => 7,
        };
        self.sum = self
            .sum
            .wrapping_add(work(k, u64::from(visit.node().raw())));
        Flow::Continue
    }
}

/// Runs a floor action once from a zero sum and returns the sum.
fn floor_run<const TABLE: bool>(
    action: &mut Action<DepthFirst, (Unordered<TypeMatch<TABLE>>,)>,
    graph: &Graph,
    root: NodeId,
) -> u64 {
    if let Some(actor) = action.actor_mut::<TypeMatch<TABLE>>() {
        actor.sum = 0;
    }
    action.run(graph, root).expect("root is live");
    action.actor::<TypeMatch<TABLE>>().map_or(0, |a| a.sum)
}

/// The sum, reset at the start of every run.
#[derive(Clone, Default)]
pub struct Sum(u64);

/// One closure per type, as a user writes them: each reads its payload and does its
/// type's work (the same `work` as the `match` arm of the hand loop).
macro_rules! on_each {
    ($table:expr, $($ty:ident => $k:expr),*) => {
        $table$(.add::<$ty>(Functor::closure(|node: &$ty, _, sum: &mut Sum| {
            sum.0 = sum.0.wrapping_add(work($k, node.0));
            Flow::Continue
        })))*
    };
}

/// The dispatch actor of run-time functors: `Arms` with no arms and a method table of
/// the 8 closures as its default.
fn functor_table() -> Arms<Sum, (), MethodTable<Sum>> {
    let mut table = MethodTable::new();
    on_each!(table,
        T0 => 0, T1 => 1, T2 => 2, T3 => 3, T4 => 4, T5 => 5, T6 => 6, T7 => 7);
    Arms::new(Sum(0)).otherwise_table(table)
}

/// The same closures as typed arms ([`Arms`]): a `match` on the arm number.
macro_rules! arms_each {
    ($actor:expr, $($ty:ident => $k:expr),*) => {
        $actor$(.on::<$ty>(|node, _, sum: &mut Sum| {
            sum.0 = sum.0.wrapping_add(work($k, node.0));
            Flow::Continue
        }))*
    };
}

/// The hand loop over the graph's own storage, as the dispatch actors read it: its
/// links, a `match` on the node's type index (`Tk` is index `k`), the payload from the
/// type's column at the node's slot (the columns looked up once).
fn hand_graph_match(graph: &Graph, root: NodeIndex) -> u64 {
    let (t0, t1, t2, t3) = (
        kept::<T0>(graph),
        kept::<T1>(graph),
        kept::<T2>(graph),
        kept::<T3>(graph),
    );
    let (t4, t5, t6, t7) = (
        kept::<T4>(graph),
        kept::<T5>(graph),
        kept::<T6>(graph),
        kept::<T7>(graph),
    );
    let (p0, p1, p2, p3) = (
        t0.kept(graph),
        t1.kept(graph),
        t2.kept(graph),
        t3.kept(graph),
    );
    let (p4, p5, p6, p7) = (
        t4.kept(graph),
        t5.kept(graph),
        t6.kept(graph),
        t7.kept(graph),
    );
    let mut sum = 0u64;
    graph_preorder_links(graph, root, |node| {
        let (Some(ty), Some(slot)) = (graph.type_at(node), graph.payload_slot_at(node)) else {
            return;
        };
        let slot = slot as usize;
        let v = match ty.get() {
            0 => p0.get(slot).map(|n| work(0, n.0)),
            1 => p1.get(slot).map(|n| work(1, n.0)),
            2 => p2.get(slot).map(|n| work(2, n.0)),
            3 => p3.get(slot).map(|n| work(3, n.0)),
            4 => p4.get(slot).map(|n| work(4, n.0)),
            5 => p5.get(slot).map(|n| work(5, n.0)),
            6 => p6.get(slot).map(|n| work(6, n.0)),
            _ => p7.get(slot).map(|n| work(7, n.0)),
        };
        sum = sum.wrapping_add(v.unwrap_or(0));
    });
    sum
}

/// A `Typed` keeping the graph's column of `T`.
fn kept<T: NodeCore>(graph: &Graph) -> Typed<T> {
    let mut typed = Typed::new();
    typed.keep(graph);
    typed
}

type Erased = fn(&dyn NodeCore) -> u64;

/// The entry of type `T` (type number `ty`) in the `TypeId` table.
fn erased<T: NodeCore>(ty: u8) -> (TypeId, Erased) {
    (
        TypeId::of::<T>(),
        match ty {
            0 => |n| n.downcast_ref::<T0>().map_or(0, |n| work(0, n.0)),
            1 => |n| n.downcast_ref::<T1>().map_or(0, |n| work(1, n.0)),
            2 => |n| n.downcast_ref::<T2>().map_or(0, |n| work(2, n.0)),
            3 => |n| n.downcast_ref::<T3>().map_or(0, |n| work(3, n.0)),
            4 => |n| n.downcast_ref::<T4>().map_or(0, |n| work(4, n.0)),
            5 => |n| n.downcast_ref::<T5>().map_or(0, |n| work(5, n.0)),
            6 => |n| n.downcast_ref::<T6>().map_or(0, |n| work(6, n.0)),
            _ => |n| n.downcast_ref::<T7>().map_or(0, |n| work(7, n.0)),
        },
    )
}

/// Runs `action` once (each run starts from a zero sum) and returns the sum, found by
/// its type: the dispatch actor's own type holds closures and cannot be written out.
fn summing_run<A: UnorderedActor>(
    action: &mut Action<DepthFirst, (Unordered<A>,)>,
    graph: &Graph,
    root: NodeId,
) -> u64 {
    action.run(graph, root).expect("root is live");
    action.context::<Sum>().map_or(0, |sum| sum.0)
}

/// Runs case c.
pub fn run(config: &Config) -> Vec<Row> {
    let n = if config.quick { 200_000 } else { 1_000_000 };
    let case = format!("c. dispatch {:.1}M", n as f64 / 1e6);
    let shape = TreeShape::complete(n, 4);
    let mut rng = SplitMix64::new(8);
    let kinds: Vec<(u8, u64)> = (0..n)
        .map(|_| (rng.below(8) as u8, rng.next_u64() >> 40))
        .collect();
    let (links, links_bytes) = held(|| shape.to_links());
    let (enums, enum_bytes) = held(|| {
        kinds
            .iter()
            .map(|&(ty, v)| match ty {
                0 => Node8::T0(v),
                1 => Node8::T1(v),
                2 => Node8::T2(v),
                3 => Node8::T3(v),
                4 => Node8::T4(v),
                5 => Node8::T5(v),
                6 => Node8::T6(v),
                _ => Node8::T7(v),
            })
            .collect::<Vec<_>>()
    });
    let ((graph, root), graph_bytes) = held(|| {
        let mut graph = Graph::with_capacity(n);
        // Type index k is Tk, for the floor's direct `match` on the index.
        for registered in [
            graph.register_type::<T0>(),
            graph.register_type::<T1>(),
            graph.register_type::<T2>(),
            graph.register_type::<T3>(),
            graph.register_type::<T4>(),
            graph.register_type::<T5>(),
            graph.register_type::<T6>(),
            graph.register_type::<T7>(),
        ] {
            registered.expect("a type with no parent type registers");
        }
        let mut ids: Vec<NodeId> = Vec::with_capacity(n);
        for (i, (&p, &(ty, v))) in shape.parents().iter().zip(&kinds).enumerate() {
            let parent = (i > 0).then(|| ids[p as usize]);
            let add = |g: &mut Graph| -> NodeId {
                macro_rules! add {
                    ($t:expr) => {
                        match parent {
                            None => g.add_root($t),
                            Some(p) => g.append_child(p, $t).expect("parent is live"),
                        }
                    };
                }
                match ty {
                    0 => add!(T0(v)),
                    1 => add!(T1(v)),
                    2 => add!(T2(v)),
                    3 => add!(T3(v)),
                    4 => add!(T4(v)),
                    5 => add!(T5(v)),
                    6 => add!(T6(v)),
                    _ => add!(T7(v)),
                }
            };
            ids.push(add(&mut graph));
        }
        (graph, ids[0])
    });
    let (table, table_bytes) = held(|| {
        [
            erased::<T0>(0),
            erased::<T1>(1),
            erased::<T2>(2),
            erased::<T3>(3),
            erased::<T4>(4),
            erased::<T5>(5),
            erased::<T6>(6),
            erased::<T7>(7),
        ]
        .into_iter()
        .collect::<HashMap<TypeId, Erased>>()
    });
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(functor_table()),))
        .expect("an unordered actor runs depth-first");
    let (_, action_bytes) = held(|| action.run(&graph, root).expect("root is live"));
    let arms = arms_each!(Arms::new(Sum(0)),
        T0 => 0, T1 => 1, T2 => 2, T3 => 3, T4 => 4, T5 => 5, T6 => 6, T7 => 7);
    let mut arms_action = Action::new(DepthFirst::new(), (Unordered::new(arms),))
        .expect("an unordered actor runs depth-first");
    let (_, arms_bytes) = held(|| arms_action.run(&graph, root).expect("root is live"));

    let graph = &graph;
    let mut contenders = vec![
        (
            Contender::new("hand_loop_match_enum", n as u64, || {
                let mut sum = 0u64;
                links.preorder(0, |i| sum = sum.wrapping_add(match_work(enums[i as usize])));
                sum
            }),
            links_bytes + enum_bytes,
        ),
        (
            Contender::new("hand_loop_graph_match_type", n as u64, || {
                hand_graph_match(graph, root.index())
            }),
            graph_bytes,
        ),
        (
            Contender::new("action_dispatch_functor_table_8", n as u64, move || {
                summing_run(&mut action, graph, root)
            }),
            graph_bytes + action_bytes,
        ),
        (
            Contender::new("action_dispatch_arms_8", n as u64, move || {
                summing_run(&mut arms_action, graph, root)
            }),
            graph_bytes + arms_bytes,
        ),
        (
            Contender::new("hand_loop_graph_hashmap_typeid", n as u64, || {
                let mut sum = 0u64;
                graph_preorder_links(graph, root.index(), |node| {
                    if let Some(payload) = graph.payload_at(node)
                        && let Some(f) = table.get(&(*payload).type_id())
                    {
                        sum = sum.wrapping_add(f(payload));
                    }
                });
                sum
            }),
            graph_bytes + table_bytes,
        ),
    ];
    same_checksums(&case, &mut contenders);
    let mut contenders: Vec<Contender<'_>> = contenders.into_iter().map(|(c, _)| c).collect();
    let measured = round_robin(&mut contenders, config.reps());
    let mut rows = Row::from_measured(&case, &measured, "hand_loop_match_enum");
    drop(contenders);
    let bytes = (links_bytes + enum_bytes, graph_bytes);
    rows.extend(floor(config, n, graph, root, (&links, &enums), bytes));
    rows
}

/// The floor of dispatch in an action (no payload read): a `match` on the node's type
/// index, directly and through a table, against the hand loop matching the tag.
fn floor(
    config: &Config,
    n: usize,
    graph: &Graph,
    root: NodeId,
    (links, enums): (&scenewalk_examples::baseline::Links, &[Node8]),
    (hand_bytes, graph_bytes): (f64, f64),
) -> Vec<Row> {
    let case = format!("c. dispatch floor {:.1}M", n as f64 / 1e6);
    let types = graph.types();
    let mut table = vec![u8::MAX; types.len()];
    for (k, ty) in [
        types.index_of::<T0>(),
        types.index_of::<T1>(),
        types.index_of::<T2>(),
        types.index_of::<T3>(),
        types.index_of::<T4>(),
        types.index_of::<T5>(),
        types.index_of::<T6>(),
        types.index_of::<T7>(),
    ]
    .into_iter()
    .enumerate()
    {
        if let Some(slot) = ty.and_then(|ty| table.get_mut(ty.get())) {
            *slot = k as u8;
        }
    }
    let mut direct = Action::new(
        DepthFirst::new(),
        (Unordered::new(TypeMatch::<false>::default()),),
    )
    .expect("an unordered actor runs depth-first");
    let mut tabled = Action::new(
        DepthFirst::new(),
        (Unordered::new(TypeMatch::<true> { sum: 0, table }),),
    )
    .expect("an unordered actor runs depth-first");
    let mut contenders = vec![
        (
            Contender::new("hand_loop_match_tag", n as u64, || {
                let mut sum = 0u64;
                links.preorder(0, |i| {
                    sum = sum.wrapping_add(work(tag(enums[i as usize]), u64::from(i)));
                });
                sum
            }),
            hand_bytes,
        ),
        (
            Contender::new("action_match_type_index", n as u64, move || {
                floor_run(&mut direct, graph, root)
            }),
            graph_bytes,
        ),
        (
            Contender::new("action_match_type_table", n as u64, move || {
                floor_run(&mut tabled, graph, root)
            }),
            graph_bytes,
        ),
    ];
    same_checksums(&case, &mut contenders);
    let mut contenders: Vec<Contender<'_>> = contenders.into_iter().map(|(c, _)| c).collect();
    let measured = round_robin(&mut contenders, config.reps());
    Row::from_measured(&case, &measured, "hand_loop_match_tag")
}
