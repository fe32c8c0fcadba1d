//! Keeping world transforms and bounds up to date while a scene is edited: edit through
//! the graph, then run the same `IncrementalUpdate` again; it re-traverses only what
//! the edits reached. Checks every result against a full run at the end.
//!
//! ```text
//! cargo run --release -p scenewalk-examples --example incremental
//! ```

use scenewalk_actors::prelude::*;
use scenewalk_examples::random_tree;
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::text::{Decimals, update_stats};
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut graph, root) = random_tree(200_000, 3);
    let transforms: Vec<NodeId> = graph
        .roots()
        .flat_map(|r| subtree(&graph, r))
        .filter(|&id| graph.get::<Transform>(id).is_ok())
        .collect();

    let mut update = IncrementalUpdate::new();
    let start = Instant::now();
    let stats = update.run(&graph, root)?;
    println!(
        "first update: {} in {:.2} ms",
        update_stats(&stats),
        ms(start.elapsed())
    );

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
    println!(
        "after the edits: {} in {:.2} ms",
        update_stats(&stats),
        ms(start.elapsed())
    );
    assert!(!stats.full);

    let mut full = IncrementalUpdate::new();
    full.run_full(&graph, root)?;
    for id in subtree(&graph, root) {
        assert_eq!(update.world(&graph, id), full.world(&graph, id));
        assert_eq!(
            update.world_bounds(&graph, id),
            full.world_bounds(&graph, id)
        );
    }
    let top = update.world_bounds(&graph, root)?;
    println!(
        "every node equals a full run; scene box {}",
        Decimals::for_box(&top).aabb(&top)
    );
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
