//! Case a: a plain visit of every node of a full quad tree, by every public path and
//! by other crates, against note 000's hand-written loop.

use crate::Config;
use crate::bytes::{held, same_checksums};
use scenewalk_core::{Action, ActiveList, Flow, RunContext, Unordered, UnorderedActor, Visit};
use scenewalk_examples::TreeShape;
use scenewalk_examples::baseline::graph_preorder_links;
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_iterators::{DepthFirst, DfsWalker, Flattened, Walk};

/// Counts the nodes it enters.
pub struct Count(pub u64);

impl UnorderedActor for Count {
    fn begin(&mut self, _run: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.0 = 0;
        Ok(())
    }
    #[inline]
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

/// The same tree as a petgraph graph: one edge from each parent to each child.
fn petgraph_tree(parents: &[u32]) -> petgraph::graph::DiGraph<(), (), u32> {
    let mut g = petgraph::graph::DiGraph::with_capacity(parents.len(), parents.len());
    for _ in parents {
        g.add_node(());
    }
    for (i, &p) in parents.iter().enumerate().skip(1) {
        g.add_edge(
            petgraph::graph::NodeIndex::new(p as usize),
            petgraph::graph::NodeIndex::new(i),
            (),
        );
    }
    g
}

/// The same tree as an indextree arena, nodes in the same (depth-first) order.
fn indextree_tree(parents: &[u32]) -> (indextree::Arena<()>, indextree::NodeId) {
    let mut arena = indextree::Arena::with_capacity(parents.len());
    let ids: Vec<indextree::NodeId> = parents.iter().map(|_| arena.new_node(())).collect();
    for (i, &p) in parents.iter().enumerate().skip(1) {
        ids[p as usize].append(ids[i], &mut arena);
    }
    (arena, ids[0])
}

/// Runs case a.
pub fn run(config: &Config) -> Vec<Row> {
    let depth = if config.quick { 10 } else { 12 };
    let shape = TreeShape::full(depth, 4);
    let n = shape.len() as u64;
    let case = format!("a. visit {:.1}M", n as f64 / 1e6);

    let (links, links_bytes) = held(|| shape.to_links());
    let ((graph, root), graph_bytes) = held(|| shape.to_graph());
    let (flat, flat_bytes) = held(|| {
        let mut flat = Flattened::new();
        flat.rebuild(&graph, root).expect("root is live");
        flat
    });
    let (pg, pg_bytes) = held(|| petgraph_tree(shape.parents()));
    let ((arena, iroot), it_bytes) = held(|| indextree_tree(shape.parents()));
    drop(shape);
    let mut action = Action::new(DepthFirst::new(), (Unordered::new(Count(0)),))
        .expect("an unordered actor runs depth-first");
    let (graph, flat) = (&graph, &flat);

    let mut contenders = vec![
        (
            Contender::new("hand_loop_links", n, || {
                let mut c = 0;
                links.preorder(0, |_| c += 1);
                c
            }),
            links_bytes,
        ),
        (
            Contender::new("hand_loop_graph", n, move || {
                let mut c = 0;
                graph_preorder_links(graph, root.index(), |_| c += 1);
                c
            }),
            graph_bytes,
        ),
        (
            Contender::new("action_depth_first_count", n, move || {
                action.run(graph, root).expect("root is live");
                action.actor::<Count>().map_or(0, |c| c.0)
            }),
            graph_bytes,
        ),
        (
            Contender::new("dfs_walker_next_enter", n, move || {
                let mut walker = DfsWalker::new(root);
                let mut c = 0;
                while walker.next_enter(graph).is_some() {
                    c += 1;
                }
                c
            }),
            graph_bytes,
        ),
        (
            Contender::new("dfs_walker_next_enters", n, move || {
                let mut walker = DfsWalker::new(root);
                let mut c = 0;
                while let Some(event) = walker.next(graph) {
                    c += u64::from(event.is_enter());
                }
                c
            }),
            graph_bytes,
        ),
        (
            Contender::new("graph.preorder(root)", n, move || {
                graph.preorder(root).expect("root is live").count() as u64
            }),
            graph_bytes,
        ),
        (
            Contender::new("graph.depth_first(root)_enters", n, move || {
                graph
                    .depth_first(root)
                    .expect("root is live")
                    .filter(|e| e.is_enter())
                    .count() as u64
            }),
            graph_bytes,
        ),
        (
            Contender::new("graph.breadth_first(root)", n, move || {
                graph.breadth_first(root).expect("root is live").count() as u64
            }),
            graph_bytes,
        ),
        (
            Contender::new("flattened_iter", n, move || {
                // `count` would be the length: read every node, as the others do.
                flat.iter()
                    .fold(0, |c, node| c + u64::from(node.raw() != u32::MAX))
            }),
            graph_bytes + flat_bytes,
        ),
        (
            Contender::new("petgraph_dfs", n, || {
                let mut dfs = petgraph::visit::Dfs::new(&pg, petgraph::graph::NodeIndex::new(0));
                let mut c = 0;
                while dfs.next(&pg).is_some() {
                    c += 1;
                }
                c
            }),
            pg_bytes,
        ),
        (
            Contender::new("indextree_descendants", n, || {
                iroot.descendants(&arena).count() as u64
            }),
            it_bytes,
        ),
    ];
    same_checksums(&case, &mut contenders);
    let mut contenders: Vec<Contender<'_>> = contenders.into_iter().map(|(c, _)| c).collect();
    let measured = round_robin(&mut contenders, config.reps());
    Row::from_measured(&case, &measured, "hand_loop_links")
}
