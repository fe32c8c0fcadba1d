//! Every benchmark of the examples in one command and one table: each contender of
//! each case, measured in the same process in round-robin rounds.
//!
//! ```text
//! cargo run --release -p scenewalk-examples --example bench_report -- \
//!     [--quick | --big] [--threads 1,2,4,8,16] [--only a,b,…] [--no-write] [--scale]
//! ```
//!
//! (`--help` prints the options and runs nothing; an unknown option is an error, exit
//! status 2.) Each case builds its data once, then runs its contenders in alternation
//! (round robin, warm-up rounds first, then the median and the best of several
//! measured rounds) and prints one line per contender:
//! `case contender ns_per_node ratio_to_baseline best_ratio bytes_per_node`. Bytes per
//! node are counted by a counting global allocator (`allocation-counter`), not
//! estimated: the bytes the contender's data holds after it is built, plus the most one
//! run allocates (cases that measure them). After the table comes a speed-up summary of
//! the parallel case (case × thread count → sequential median / parallel median). The
//! table and the summary then replace the marked section of `docs/benchmarks.md`
//! (`bench_report:full`; `--scale` writes `bench_report:scale`; `--quick` prints only)
//! with the machine, the command and the date; the rest of that file stays
//! hand-written. `--quick`, `--only` and `--no-write` leave the file alone.
//!
//! The cases: a. plain visit, b. world transforms, c. dispatch, d. priority order,
//! e. dual tree, f. the tour's passes, g. compaction, h. the frame, i. incremental
//! update against a full one, j. parallel traversal by thread count (`--threads`,
//! default 1 and 2; `--big` adds 10M-node trees), k. a crowd of skinned characters
//! animated (the shared sample CesiumMan; skipped without it), t. 3D Tiles selection
//! over the procedural planet (feature `tiles`).
//!
//! `--quick` uses 10-level trees and smaller cases and ends in under a minute.
//! `--scale` builds a 100M-node group tree and reports its peak memory and the time of
//! one counting traversal instead.
//!
//! A case is one function `fn(&Config) -> Vec<Row>` in its own file; adding one is a
//! file and a line in [`CASES`].

use scenewalk_examples::report::{Command, Options, Row, USAGE, replace_marked, speed_ups, table};

mod bytes;
mod case_compaction;
mod case_crowd;
mod case_dispatch;
mod case_dual_tree;
mod case_frame;
mod case_incremental;
mod case_parallel;
mod case_priority;
mod case_scene;
#[cfg(feature = "tiles")]
mod case_tiles;
mod case_visit;
mod case_world;
mod machine;
mod scale;

/// What the command line asked for (the cases read `quick`, `big`, `threads` and
/// `reps()`).
pub use scenewalk_examples::report::Options as Config;

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
    ("i", case_incremental::run),
    ("j", case_parallel::run),
    ("k", case_crowd::run),
    #[cfg(feature = "tiles")]
    ("t", case_tiles::run),
];

// Linking `allocation-counter` installs its counting global allocator: `bytes.rs`
// reads it.
use allocation_counter as _;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let letters: Vec<&str> = CASES.iter().map(|(letter, _)| *letter).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let config = match Options::parse(args.iter().cloned(), &letters, cores) {
        Ok(Command::Run(config)) => config,
        Ok(Command::Help) => {
            print!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("bench_report: {e}\n\n{USAGE}");
            std::process::exit(2);
        }
    };
    let command = format!(
        "cargo run --release --example bench_report --{}",
        args.iter().map(|a| format!(" {a}")).collect::<String>()
    );
    let load_before = machine::load_average();

    let (tag, body) = if config.scale {
        ("bench_report:scale", scale::run())
    } else {
        println!(
            "{:<26} {:<40} {:>9} {:>7} {:>7} {:>7}",
            "case", "contender", "ns/node", "ratio", "best", "B/node"
        );
        let mut rows = Vec::new();
        for (letter, case) in CASES {
            if config
                .only
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
        let tag = "bench_report:full";
        let mut body = table(&rows);
        if let Some(summary) = speed_ups(&rows) {
            println!("\n{summary}");
            body.push_str(&format!("\n```text\n{summary}```\n"));
        }
        (tag, body)
    };

    let header = machine::header(&command, &load_before, &machine::load_average());
    println!("\n{header}");
    if config.write {
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
