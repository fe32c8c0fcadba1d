//! Case b: world transforms of 1M nodes of random depth, every third a transform.

use crate::Config;
use crate::bytes::{held, same_checksums};
use scenewalk_actors::WorldTransforms;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Action, Graph, NodeId, NodeIndex, Ordered, Typed};
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{random_dfs_parents, random_transform};
use scenewalk_iterators::{DepthFirst, Flattened};
use scenewalk_nodes::{Group, Transform};

/// Depth bound of the random tree.
const MAX_DEPTH: usize = 24;

/// The practical limit: a bare loop over prebuilt parent indices and locals.
#[inline(never)]
fn raw_linear_loop(parents: &[u32], locals: &[Affine3A], out: &mut Vec<Affine3A>) {
    out.clear();
    out.push(locals[0]);
    for (&parent, local) in parents[1..].iter().zip(&locals[1..]) {
        let above = out[parent as usize];
        out.push(above * *local);
    }
}

/// Note 003's naive way: each node multiplies the locals of all its ancestors,
/// O(N·depth).
#[inline(never)]
fn naive_ancestor_product(graph: &Graph, out: &mut Vec<Affine3A>) {
    out.clear();
    for slot in 0..graph.capacity() {
        let mut node = Some(NodeIndex::new(slot as u32));
        let mut world = Affine3A::IDENTITY;
        while let Some(n) = node {
            if let Some(t) = graph.get_at::<Transform>(n) {
                world = *t.local() * world;
            }
            node = graph.parent_at(n);
        }
        out.push(world);
    }
}

fn close(a: &Affine3A, b: &Affine3A) -> bool {
    a.abs_diff_eq(*b, 1e-2 * (1.0 + a.translation.abs().max_element()))
}

/// Runs case b.
pub fn run(config: &Config) -> Vec<Row> {
    let n = if config.quick { 200_000 } else { 1_000_000 };
    let case = format!("b. world {:.1}M", n as f64 / 1e6);
    let mut rng = SplitMix64::new(0x5EED);
    let parents = random_dfs_parents(n, MAX_DEPTH, &mut rng);
    let mut locals = Vec::with_capacity(n);
    let ((graph, root), graph_bytes) = held(|| {
        let mut graph = Graph::with_capacity(n);
        let mut ids: Vec<NodeId> = Vec::with_capacity(n);
        for (i, &p) in parents.iter().enumerate() {
            let id = if i % 3 == 0 {
                let t = random_transform(&mut rng);
                locals.push(*t.local());
                match p {
                    u32::MAX => graph.add_root(t),
                    p => graph
                        .append_child(ids[p as usize], t)
                        .expect("parent is live"),
                }
            } else {
                locals.push(Affine3A::IDENTITY);
                graph
                    .append_child(ids[p as usize], Group)
                    .expect("parent is live")
            };
            ids.push(id);
        }
        (graph, ids[0])
    });
    let (flat, flat_bytes) = held(|| {
        let mut flat = Flattened::new();
        flat.rebuild(&graph, root).expect("root is live");
        flat
    });
    let (gathered, gathered_bytes) = held(|| {
        flat.gather(|node| {
            graph
                .get_at::<Transform>(node)
                .map_or(Affine3A::IDENTITY, |t| *t.local())
        })
    });
    assert_eq!(flat.parents(), parents, "built in depth-first order");
    let raw_bytes = (parents.len() * 4 + locals.len() * 48) as f64;
    let out_bytes = (n * 48) as f64;

    // Every way must compute the same matrices before any is timed.
    let mut reference = Vec::with_capacity(n);
    raw_linear_loop(&parents, &locals, &mut reference);
    let mut naive = Vec::with_capacity(n);
    naive_ancestor_product(&graph, &mut naive);
    let mut action = Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),))
        .expect("ordered actors run depth-first");
    // The first run sizes the actor's per-node tables: count them with the graph.
    let (_, action_bytes) = held(|| action.run(&graph, root).expect("root is live"));
    let world = action.actor::<WorldTransforms>().expect("in the chain");
    for i in (0..n).step_by(97) {
        let node = NodeIndex::new(i as u32);
        assert!(close(&naive[i], &reference[i]), "naive differs at {i}");
        let by_action = world.table().at(node).expect("every node reached");
        assert!(close(&by_action, &reference[i]), "action differs at {i}");
    }

    let (graph, flat, gathered) = (&graph, &flat, &gathered);
    let (parents, locals) = (&parents, &locals);
    let mut out_raw = Vec::with_capacity(n);
    let mut out_flat = Vec::with_capacity(n);
    let mut out_gather = Vec::with_capacity(n);
    let mut regathered = Vec::with_capacity(n);
    let mut transforms = Typed::<Transform>::new();
    let mut out_naive = Vec::with_capacity(n);
    let mut contenders = vec![
        (
            Contender::new("raw_linear_loop", n as u64, move || {
                raw_linear_loop(parents, locals, &mut out_raw);
                out_raw.len() as u64
            }),
            raw_bytes + out_bytes,
        ),
        (
            Contender::new("flattened_propagate", n as u64, move || {
                flat.propagate(Affine3A::IDENTITY, gathered, &mut out_flat, |p, l| *p * *l)
                    .expect("one local per position");
                out_flat.len() as u64
            }),
            graph_bytes + flat_bytes + gathered_bytes + out_bytes,
        ),
        (
            Contender::new("flattened_gather+propagate", n as u64, move || {
                transforms.keep(graph);
                flat.gather_into(&mut regathered, |node| {
                    transforms
                        .get_at(graph, node)
                        .map_or(Affine3A::IDENTITY, |t| *t.local())
                });
                transforms.release();
                flat.propagate(Affine3A::IDENTITY, &regathered, &mut out_gather, |p, l| {
                    *p * *l
                })
                .expect("one local per position");
                out_gather.len() as u64
            }),
            graph_bytes + flat_bytes + gathered_bytes + out_bytes,
        ),
        (
            Contender::new("action_depth_first_world", n as u64, move || {
                action.run(graph, root).expect("root is live").entered
            }),
            graph_bytes + action_bytes,
        ),
        (
            Contender::new("naive_ancestor_product", n as u64, move || {
                naive_ancestor_product(graph, &mut out_naive);
                out_naive.len() as u64
            }),
            graph_bytes + out_bytes,
        ),
    ];
    same_checksums(&case, &mut contenders);
    let mut contenders: Vec<Contender<'_>> = contenders.into_iter().map(|(c, _)| c).collect();
    let measured = round_robin(&mut contenders, config.reps());
    Row::from_measured(&case, &measured, "raw_linear_loop")
}
