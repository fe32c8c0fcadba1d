//! Case i: the incremental update (`IncrementalUpdate::run`) against the full update
//! it replaces (`IncrementalUpdate::run_full`: world transforms and bounds over every
//! node), on the first 1,000,000 nodes of a complete 4-ary tree in depth-first order
//! (200,000 with `--quick`), every third node a `Transform` (random TRS), the other
//! inner nodes `Group`s and the other leaves `Geometry` (random boxes).
//!
//! - `full`: the full update, after 1 % of the transforms got a new local matrix;
//! - `incremental_1pct`: the patch after 1 % of the transforms (picked at random, one
//!   of 32 sets in turn) got a new local matrix;
//! - `incremental_1pct_clustered`: as many changed transforms, but consecutive ones in
//!   slot (= document) order, as when one region of a scene moves;
//! - `incremental_root`: the patch after one change of the transform just below the
//!   root (a quarter of the tree below it);
//! - `incremental_leaf`: the patch after one change of the last transform in slot
//!   order, a leaf: the fixed cost of a patch.
//!
//! Only the update is timed: the edits run before each run, untimed
//! ([`Contender::before_each`]). The full update has its own copy of the graph and its
//! own `IncrementalUpdate`, so it does not reset the patches' state; the patches share
//! one graph and one `IncrementalUpdate`, as an application that patches every frame
//! does, and each must stay a patch (a fallback to a full run stops the case). Times
//! are per tree node, so the ratio is the cost of a patch over a full update. What
//! each patch touched is printed to standard error after the case.

use crate::Config;
use scenewalk_actors::IncrementalUpdate;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Graph, NodeId};
use scenewalk_examples::TreeShape;
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{mixed_graph, random_transform};
use scenewalk_examples::text::update_stats;
use scenewalk_nodes::Transform;
use std::cell::RefCell;

/// Sets of changed transforms each contender cycles through.
const SETS: usize = 32;

/// A graph, its update and the edit count (each edit writes a new matrix).
struct Side {
    graph: Graph,
    update: IncrementalUpdate,
    edits: u64,
}

impl Side {
    /// Gives each of `nodes` a new local matrix.
    fn edit(&mut self, nodes: &[NodeId]) {
        self.edits += 1;
        let m = Affine3A::from_translation(Vec3::new(self.edits as f32 * 1e-3, 0.5, -0.25));
        for &node in nodes {
            self.graph
                .get_mut::<Transform>(node)
                .expect("a transform")
                .set_local(m);
        }
    }
}

/// Runs case i.
pub fn run(config: &Config) -> Vec<Row> {
    let n = if config.quick { 200_000 } else { 1_000_000 };
    let case = format!("i. incremental {:.1}M", n as f64 / 1e6);
    let (graph, root, transforms) = mixed_graph(
        &TreeShape::complete(n, 4),
        &mut SplitMix64::new(9),
        random_transform,
    );
    let count = transforms.len() / 100;
    let mut rng = SplitMix64::new(17);
    let random: Vec<Vec<NodeId>> = (0..SETS)
        .map(|_| {
            (0..count)
                .map(|_| transforms[rng.below(transforms.len())])
                .collect()
        })
        .collect();
    let clustered: Vec<Vec<NodeId>> = (0..SETS)
        .map(|_| {
            let first = rng.below(transforms.len() - count);
            transforms[first..first + count].to_vec()
        })
        .collect();
    let near_root = vec![transforms[0]];
    let near_leaf = vec![*transforms.last().expect("transforms")];

    let new_side = |graph: Graph| {
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).expect("root is live");
        RefCell::new(Side {
            graph,
            update,
            edits: 0,
        })
    };
    let full = new_side(graph.clone());
    let patched = new_side(graph);

    let mut contenders = vec![{
        let (full, random) = (&full, &random);
        let mut k = 0;
        Contender::new("full", n as u64, move || {
            let side = &mut *full.borrow_mut();
            side.update
                .run_full(&side.graph, root)
                .expect("root is live")
                .entered
        })
        .before_each(move || {
            full.borrow_mut().edit(&random[k % SETS]);
            k += 1;
        })
    }];
    let patterns: [(&str, &[Vec<NodeId>]); 4] = [
        ("incremental_1pct", &random),
        ("incremental_1pct_clustered", &clustered),
        ("incremental_root", std::slice::from_ref(&near_root)),
        ("incremental_leaf", std::slice::from_ref(&near_leaf)),
    ];
    for (name, sets) in patterns {
        let patched = &patched;
        let mut k = 0;
        contenders.push(
            Contender::new(name, n as u64, move || {
                let side = &mut *patched.borrow_mut();
                let stats = side.update.run(&side.graph, root).expect("root is live");
                assert!(!stats.full, "{name}: a full run, not a patch");
                stats.entered
            })
            .before_each(move || {
                patched.borrow_mut().edit(&sets[k % sets.len()]);
                k += 1;
            }),
        );
    }
    let measured = round_robin(&mut contenders, config.reps());
    drop(contenders);

    // What each patch touches, and a check that the patched results equal a full
    // update's of the same graph.
    let side = &mut *patched.borrow_mut();
    for (name, sets) in patterns {
        side.edit(&sets[0]);
        let stats = side.update.run(&side.graph, root).expect("root is live");
        eprintln!("{case}: {name}: {}", update_stats(&stats));
    }
    let mut fresh = IncrementalUpdate::new();
    fresh.run(&side.graph, root).expect("root is live");
    for &node in transforms.iter().step_by(97).chain([&root]) {
        assert_eq!(
            side.update.world_bounds(&side.graph, node).ok(),
            fresh.world_bounds(&side.graph, node).ok(),
            "{case}: the patched box of {node} differs from a full update's"
        );
    }
    Row::from_measured(&case, &measured, "full")
}
