//! Every benchmark of the examples in one command and one table: each contender of
//! each case, measured in the same process in round-robin rounds.
//!
//! ```text
//! cargo run --release -p scenewalk-examples --example bench_report -- \
//!     [--quick | --big] [--threads 1,2,4,8,16] [--only a,b,…] [--no-write] [--scale]
//! ```
//!
//! (`--help` prints the options and runs nothing; the command line and the exit status
//! follow `scenewalk_examples::args`: an unknown option is named, exit status 2.) Each case builds its data once, then runs its contenders in alternation
//! (round robin, warm-up rounds first, then the median and the best of several
//! measured rounds) and prints one line per contender:
//! `case contender ns_per_node ratio_to_baseline best_ratio bytes_per_node`. Bytes per
//! node are counted by a counting global allocator (`allocation-counter`), not
//! estimated: the bytes the contender's data holds after it is built, plus the most one
//! run allocates (cases that measure them). After the table it prints a speed-up summary
//! of the parallel case (case × thread count → sequential median / parallel median). The
//! table then replaces the marked section of `docs/benchmarks.md`
//! (`bench_report:full`; `--scale` writes `bench_report:scale`; `--quick` prints only)
//! with the machine, the command and the date; the rest of that file stays
//! hand-written. `--quick`, `--only` and `--no-write` leave the file alone.
//!
//! The cases: a. plain visit, b. world transforms, c. dispatch, d. priority order,
//! e. dual tree, f. the tour's passes, g. compaction, h. the frame, i. incremental
//! update against a full one, j. parallel traversal by thread count (`--threads`,
//! default 1 and 2; `--big` adds 10M-node trees), k. a crowd of skinned characters
//! animated (the shared sample CesiumMan; skipped without it), l. kinematic trees: URDF
//! robots' forward kinematics, Jacobian, batch FK and self-collision (the shared
//! robots; skipped without them), t. 3D Tiles selection over the procedural planet
//! (feature `tiles`).
//!
//! `--quick` uses 10-level trees and smaller cases and ends in under a minute.
//! `--scale` builds a 100M-node group tree and reports its peak memory and the time of
//! one counting traversal instead.
//!
//! A case is one function `fn(&Config) -> Vec<Row>` in its own file; adding one is a
//! file and a line in [`CASES`].

use scenewalk_examples::args::{ArgError, run_main};
use scenewalk_examples::report::{Command, Options, Row, USAGE, replace_marked, speed_ups, table};
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

mod bytes;
mod case_compaction;
mod case_crowd;
mod case_dispatch;
mod case_dual_tree;
mod case_frame;
mod case_incremental;
mod case_parallel;
mod case_priority;
mod case_robot;
mod case_scene;
#[cfg(feature = "tiles")]
mod case_tiles;
mod case_visit;
mod case_world;
mod machine;
mod pool_bytes;
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
    ("l", case_robot::run),
    #[cfg(feature = "tiles")]
    ("t", case_tiles::run),
];

// Linking `allocation-counter` installs its counting global allocator: `bytes.rs`
// reads it.
use allocation_counter as _;

fn main() -> ExitCode {
    let letters: Vec<&str> = CASES.iter().map(|(letter, _)| *letter).collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let parse = |args: Vec<String>| match Options::parse(args.iter().cloned(), &letters, cores) {
        Ok(Command::Run(config)) => Ok((config, args)),
        // `run_main` answers `--help` before it parses.
        Ok(Command::Help) => Err(ArgError::Usage("--help comes alone".into())),
        Err(e) => Err(ArgError::from(e)),
    };
    run_main("bench_report", USAGE, parse, |(config, args), out| {
        measure(&config, &args, out)
    })
}

/// Runs the cases `config` asks for (`args` is the command line, for the report),
/// prints their rows, and rewrites the marked section of `docs/benchmarks.md`.
fn measure(config: &Config, args: &[String], out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let command = format!(
        "cargo run --release --example bench_report --{}",
        args.iter().map(|a| format!(" {a}")).collect::<String>()
    );
    let load_before = machine::load_average();

    let (tag, body) = if config.scale {
        ("bench_report:scale", scale::run())
    } else {
        writeln!(
            out,
            "{:<26} {:<40} {:>9} {:>7} {:>7} {:>7}",
            "case", "contender", "ns/node", "ratio", "best", "B/node"
        )?;
        let mut rows = Vec::new();
        for (letter, case) in CASES {
            if config
                .only
                .as_ref()
                .is_some_and(|o| !o.iter().any(|l| l == letter))
            {
                continue;
            }
            let case_rows = case(config);
            for row in &case_rows {
                writeln!(out, "{}", row.line())?;
            }
            rows.extend(case_rows);
        }
        let tag = "bench_report:full";
        // The speed-ups repeat the table's parallel ratios: printed, not written.
        if let Some(summary) = speed_ups(&rows) {
            writeln!(out, "\n{summary}")?;
        }
        (tag, table(&rows))
    };

    let header = machine::header(&command, &load_before, &machine::load_average());
    writeln!(out, "\n{header}")?;
    if config.write {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/benchmarks.md");
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        let new = replace_marked(&doc, tag, &format!("{header}\n{body}"))
            .map_err(|e| format!("{path}: {e}"))?;
        std::fs::write(path, new).map_err(|e| format!("cannot write {path}: {e}"))?;
        writeln!(out, "rewrote the `{tag}` section of {path}")?;
    }
    Ok(())
}
