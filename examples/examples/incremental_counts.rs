//! Instruction and miss counts of the incremental update, for `valgrind --tool=callgrind`:
//! bench_report's case i (the first 1,000,000 nodes of a complete 4-ary tree, every
//! third node a `Transform`), one kind of pass per process, each in its own
//! `#[inline(never)]` function so that `--toggle-collect` counts it alone.
//!
//! ```text
//! cargo build --release -p scenewalk-examples --example incremental_counts
//! valgrind --tool=callgrind --cache-sim=yes --branch-sim=yes --LL=33554432,16,64 \
//!     --toggle-collect='incremental_counts::measured' \
//!     target/release/examples/incremental_counts patch
//! callgrind_annotate --inclusive=yes callgrind.out.*
//! ```
//!
//! Passes: `full` (`run_full`), `patch` (the patch after 1 % random transform changes,
//! plan built), `clustered` (1 % consecutive transforms), `rewalk` (the same patches
//! right after a full run, before the plan is built), `chain` (the update's chain,
//! `Bounds` carrying its `WorldTransforms`, under `Action<DepthFirst>`, over the whole tree;
//! collect `measured_chain`), `engine` (that action run from each topmost changed node
//! of the `patch` sets; collect `measured_engine`), `time` (not for valgrind: least and
//! median times of full runs and patches). The nodes each pass touched go to standard
//! output: divide the counts by them.

use scenewalk_actors::{Bounds, IncrementalUpdate, UpdateStats};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Action, Graph, NodeId, Ordered};
use scenewalk_examples::TreeShape;
use scenewalk_examples::args::{Arg, ArgError, Args, run_main};
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{mixed_graph, random_transform};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Transform;
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

/// Passes measured per process.
const PASSES: usize = 8;

/// The passes, as named on the command line.
const PASS_NAMES: [&str; 7] = [
    "full",
    "patch",
    "clustered",
    "rewalk",
    "chain",
    "engine",
    "time",
];

const HELP: &str = "\
incremental_counts: the incremental update's passes on bench_report's case i tree, one
kind per process, for counting instructions and cache misses under valgrind

usage: incremental_counts [--nodes N] [PASS]

PASS is full, patch (the default), clustered, rewalk, chain, engine or time (see the
source's first lines); --nodes sets the tree's size (default 1000000). It prints the
nodes the passes touched. Exit status: 0; 2 for a bad argument.
";

fn main() -> ExitCode {
    run_main("incremental_counts", HELP, parse, run)
}

fn parse(given: Vec<String>) -> Result<(String, usize), ArgError> {
    let (mut pass, mut nodes) = ("patch".to_string(), 1_000_000);
    let mut args = Args::new(given);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Option(option) if option == "--nodes" => {
                nodes = args.number(&option, 1_000..=100_000_000)?;
            }
            Arg::Option(option) => return Err(ArgError::unknown(&option)),
            Arg::Operand(name) if PASS_NAMES.contains(&name.as_str()) => pass = name,
            Arg::Operand(name) => return Err(ArgError::Usage(format!("unknown pass {name}"))),
            Arg::Help => {}
        }
    }
    Ok((pass, nodes))
}

fn edit(graph: &mut Graph, nodes: &[NodeId], k: usize) {
    let m = Affine3A::from_translation(Vec3::new(k as f32 * 1e-3, 0.5, -0.25));
    for &node in nodes {
        graph
            .get_mut::<Transform>(node)
            .expect("a transform")
            .set_local(m);
    }
}

#[inline(never)]
fn measured(
    update: &mut IncrementalUpdate,
    graph: &Graph,
    root: NodeId,
    full: bool,
) -> UpdateStats {
    let stats = if full {
        update.run_full(graph, root)
    } else {
        update.run(graph, root)
    };
    stats.expect("root is live")
}

#[inline(never)]
fn measured_chain(
    action: &mut Action<DepthFirst, (Ordered<Bounds>,)>,
    graph: &Graph,
    root: NodeId,
) -> u64 {
    action.run(graph, root).expect("root is live").entered
}

/// A fresh `(Ordered<Bounds>,)` action run over each changed subtree from its top
/// (`Action::run` starts from the world matrix above the top, walking up): `Bounds`'
/// whole set-up per run, which the update's own patches, resuming its tables, skip.
#[inline(never)]
fn measured_engine(
    action: &mut Action<DepthFirst, (Ordered<Bounds>,)>,
    graph: &Graph,
    tops: &[NodeId],
) -> u64 {
    let run = |top: &NodeId| action.run(graph, *top).expect("live").entered;
    tops.iter().map(run).sum()
}

/// The changed nodes of `set` with no changed ancestor.
fn topmost(graph: &Graph, set: &[NodeId]) -> Vec<NodeId> {
    let changed: std::collections::HashSet<NodeId> = set.iter().copied().collect();
    let mut tops: Vec<NodeId> = changed
        .iter()
        .copied()
        .filter(|&node| {
            let mut up = graph.parent(node).expect("live");
            while let Some(p) = up {
                if changed.contains(&p) {
                    return false;
                }
                up = graph.parent(p).expect("live");
            }
            true
        })
        .collect();
    tops.sort_unstable_by_key(|n| n.index());
    tops
}

fn run((pass, n): (String, usize), out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let (mut graph, root, transforms) = mixed_graph(
        &TreeShape::complete(n, 4),
        &mut SplitMix64::new(9),
        random_transform,
    );
    let count = transforms.len() / 100;
    let mut rng = SplitMix64::new(17);
    let sets: Vec<Vec<NodeId>> = (0..32)
        .map(|_| {
            if pass == "clustered" {
                let first = rng.below(transforms.len() - count);
                transforms[first..first + count].to_vec()
            } else {
                (0..count)
                    .map(|_| transforms[rng.below(transforms.len())])
                    .collect()
            }
        })
        .collect();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).expect("root is live");
    let chain = (Ordered::new(Bounds::new()),);
    let mut action = Action::new(DepthFirst::new(), chain).expect("depth-first");
    if pass == "engine" {
        let tops: Vec<Vec<NodeId>> = sets.iter().map(|s| topmost(&graph, s)).collect();
        measured_engine(&mut action, &graph, &tops[0]);
        let (mut entered, mut runs) = (0, 0);
        for tops in tops.iter().take(PASSES) {
            entered += measured_engine(&mut action, &graph, tops);
            runs += tops.len();
        }
        writeln!(
            out,
            "engine: {PASSES} passes, {runs} subtree runs, {entered} nodes"
        )?;
        return Ok(());
    }
    if pass == "chain" {
        action.run(&graph, root).expect("root is live");
        let mut entered = 0;
        for _ in 0..PASSES {
            entered += measured_chain(&mut action, &graph, root);
        }
        writeln!(out, "chain: {PASSES} passes, {entered} nodes")?;
        return Ok(());
    }
    if pass == "time" {
        // Not for callgrind: the least and the median time of 20 full runs and of 200
        // patches (1 % random), to compare builds on a loaded machine.
        let mut timed = |full: bool, runs: usize, k0: usize| {
            let mut times: Vec<f64> = (k0..k0 + runs)
                .map(|k| {
                    edit(&mut graph, &sets[k % sets.len()], k);
                    let t = std::time::Instant::now();
                    measured(&mut update, &graph, root, full);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            (times[0], times[runs / 2])
        };
        let full = timed(true, 20, 0);
        timed(false, 16, 20);
        let patch = timed(false, 200, 36);
        writeln!(
            out,
            "time: full {:.3} / {:.3} ms, patch {:.4} / {:.4} ms (least / median), least ratio {:.4}",
            full.0,
            full.1,
            patch.0,
            patch.1,
            patch.0 / full.0
        )?;
        return Ok(());
    }
    // Warm up: buffers grown, the plan built (unless `rewalk`).
    for k in 0..16 {
        edit(&mut graph, &sets[k % sets.len()], k);
        update.run(&graph, root).expect("root is live");
    }
    let (mut entered, mut ancestors, mut subtrees) = (0, 0, 0);
    for k in 16..16 + PASSES {
        edit(&mut graph, &sets[k % sets.len()], k);
        if pass == "rewalk" {
            update.run_full(&graph, root).expect("root is live");
            edit(&mut graph, &sets[(k + 1) % sets.len()], k);
        }
        let stats = measured(&mut update, &graph, root, pass == "full");
        assert_eq!(stats.full, pass == "full", "{pass}: the wrong kind of run");
        entered += stats.entered;
        ancestors += stats.ancestors;
        subtrees += stats.subtrees;
    }
    writeln!(
        out,
        "{pass}: {PASSES} passes, {entered} entered, {ancestors} ancestors, {subtrees} subtrees; per pass: {:.0} entered + {:.0} ancestors = {:.2} % of {n}",
        entered as f64 / PASSES as f64,
        ancestors as f64 / PASSES as f64,
        (entered + ancestors as u64) as f64 / PASSES as f64 / n as f64 * 100.0
    )?;
    Ok(())
}
