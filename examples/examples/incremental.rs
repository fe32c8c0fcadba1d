//! Keeping world transforms and bounds up to date while a scene is edited: edit through
//! the graph, then run the same `IncrementalUpdate` again; it re-traverses only what
//! the edits reached. Checks every result against a full run at the end.
//!
//! ```text
//! cargo run --release -p scenewalk-examples --example incremental
//! ```

use scenewalk_actors::IncrementalUpdate;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_examples::args::{no_arguments, run_main};
use scenewalk_examples::random_tree;
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::text::{Decimals, duration, update_stats};
use scenewalk_nodes::{Geometry, Transform};
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "\
incremental: world transforms and bounds kept up to date while a 200,000-node scene
is edited, checked against a full update

usage: incremental

It takes no options. Exit status: 0; 1 when a result differs from the full update's;
2 for any argument.
";

fn main() -> ExitCode {
    run_main("incremental", HELP, no_arguments, run)
}

fn run((): (), out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let (mut graph, root) = random_tree(200_000, 3);
    let transforms: Vec<NodeId> = graph
        .roots()
        .flat_map(|r| subtree(&graph, r))
        .filter(|&id| graph.get::<Transform>(id).is_ok())
        .collect();

    let mut update = IncrementalUpdate::new();
    let start = Instant::now();
    let stats = update.run(&graph, root)?;
    writeln!(
        out,
        "first update: {} in {}",
        update_stats(&stats),
        duration(start.elapsed())
    )?;

    // A frame of animation: a few transforms move, a part is added, one is removed.
    let mut rng = SplitMix64::new(5);
    for _ in 0..100 {
        let id = transforms[rng.below(transforms.len())];
        let m = Affine3A::from_translation(Vec3::new(rng.range_f32(-1.0, 1.0), 0.0, 0.0));
        graph.get_mut::<Transform>(id)?.set_local(m);
    }
    let arm = graph.append_child(root, Transform::from_translation(Vec3::Y * 50.0))?;
    graph.append_child(arm, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))?;
    let gone = transforms[rng.below(transforms.len())];
    if gone != root {
        graph.remove_subtree(gone)?;
    }

    let start = Instant::now();
    let stats = update.run(&graph, root)?;
    writeln!(
        out,
        "after the edits: {} in {}",
        update_stats(&stats),
        duration(start.elapsed())
    )?;
    if stats.full {
        return Err("the update after the edits ran in full, not as a patch".into());
    }

    let mut full = IncrementalUpdate::new();
    full.run_full(&graph, root)?;
    for id in subtree(&graph, root) {
        if update.world(&graph, id) != full.world(&graph, id)
            || update.world_bounds(&graph, id) != full.world_bounds(&graph, id)
        {
            return Err(format!("node {id:?}: the patched update differs from a full one").into());
        }
    }
    let top = update.world_bounds(&graph, root)?;
    writeln!(
        out,
        "every node equals a full run; scene box {}",
        Decimals::for_box(&top).aabb(&top)
    )?;
    Ok(())
}

/// Every node of `root`'s subtree, in pre-order.
fn subtree(graph: &Graph, root: NodeId) -> Vec<NodeId> {
    let mut out = vec![root];
    while let Some(&last) = out.last() {
        match graph.next_preorder(last, root) {
            Ok(Some(next)) => out.push(next),
            _ => break,
        }
    }
    out
}
