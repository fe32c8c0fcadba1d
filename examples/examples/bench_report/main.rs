//! Every contender of issue 8, in one command and one table.
//!
//! ```text
//! cargo run --release --example bench_report -- [--quick] [--scale] [--only a,b,…] [--no-write]
//! ```
//!
//! Each case builds its data once, then runs its contenders in alternation (round
//! robin, warm-up rounds first, then the median and the best of several measured
//! rounds) and prints one line per contender:
//! `case contender ns_per_node ratio_to_baseline best_ratio bytes_per_node`. Bytes per
//! node are counted by a counting global allocator (`allocation-counter`), not
//! estimated: the bytes the contender's data holds after it is built, plus the most one
//! run allocates. The table then replaces the marked section of `docs/benchmarks.md`
//! (`bench_report:quick` or `bench_report:full`; `--scale` writes `bench_report:scale`)
//! with the machine, the command and the date; the rest of that file stays hand-written.
//!
//! `--quick` uses 10-level trees and smaller cases and ends in under a minute.
//! `--scale` builds a 100M-node group tree and reports its peak memory and the time of
//! one counting traversal instead.
//!
//! A case is one function `fn(&Config) -> Vec<Row>` in its own file; adding one is a
//! file and a line in [`CASES`].

use scenewalk_examples::report::{Row, replace_marked, table};

mod bytes;
mod case_compaction;
mod case_dispatch;
mod case_dual_tree;
mod case_frame;
mod case_priority;
mod case_scene;
mod case_visit;
mod case_world;
mod machine;
mod scale;

/// What the command line asked for.
pub struct Config {
    /// Smaller data and fewer rounds.
    pub quick: bool,
}

impl Config {
    /// Warm-up and measured rounds.
    pub fn reps(&self) -> scenewalk_examples::report::Reps {
        if self.quick {
            scenewalk_examples::report::Reps {
                warmup: 2,
                measured: 9,
            }
        } else {
            scenewalk_examples::report::Reps {
                warmup: 2,
                measured: 11,
            }
        }
    }
}

/// A case: its letter (for `--only`) and the function that measures it.
type Case = (&'static str, fn(&Config) -> Vec<Row>);

/// Every case, in report order.
const CASES: &[Case] = &[
    ("a", case_visit::run),
    ("b", case_world::run),
    ("c", case_dispatch::run),
    ("d", case_priority::run),
    ("e", case_dual_tree::run),
    ("f", case_scene::run),
    ("g", case_compaction::run),
    ("h", case_frame::run),
];

// Linking `allocation-counter` installs its counting global allocator: `bytes.rs`
// reads it.
use allocation_counter as _;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    let only: Option<Vec<String>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|list| list.split(',').map(str::to_string).collect());
    let config = Config {
        quick: has("--quick"),
    };
    let write = !has("--no-write") && only.is_none();
    let command = format!(
        "cargo run --release --example bench_report --{}",
        args.iter().map(|a| format!(" {a}")).collect::<String>()
    );
    let load_before = machine::load_average();

    let (tag, body) = if has("--scale") {
        ("bench_report:scale", scale::run())
    } else {
        println!(
            "{:<22} {:<40} {:>9} {:>7} {:>7} {:>7}",
            "case", "contender", "ns/node", "ratio", "best", "B/node"
        );
        let mut rows = Vec::new();
        for (letter, case) in CASES {
            if only
                .as_ref()
                .is_some_and(|o| !o.iter().any(|l| l == letter))
            {
                continue;
            }
            let case_rows = case(&config);
            for row in &case_rows {
                println!("{}", row.line());
            }
            rows.extend(case_rows);
        }
        let tag = if config.quick {
            "bench_report:quick"
        } else {
            "bench_report:full"
        };
        (tag, table(&rows))
    };

    let header = machine::header(&command, &load_before, &machine::load_average());
    println!("\n{header}");
    if write {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/benchmarks.md");
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        match replace_marked(&doc, tag, &format!("{header}\n{body}")) {
            Ok(new) => match std::fs::write(path, new) {
                Ok(()) => println!("rewrote the `{tag}` section of {path}"),
                Err(e) => eprintln!("could not write {path}: {e}"),
            },
            Err(e) => eprintln!("{path}: {e}"),
        }
    }
}
