//! Imports a glTF 2.0 scene and reports its nodes' world transforms and mesh boxes, at
//! rest or posed by an animation.
//!
//! ```text
//! cargo run --release --example inspect -- FILE [--scene N] [--time T [--animation N]] [--json]
//! ```
//!
//! Without `--json`: a summary, then one line per node (index, name, depth, world
//! translation, mesh box). With `--json`: one JSON object on stdout (see
//! `scenewalk_examples::inspect::Report::to_json`). `--time T` poses the scene by
//! animation N (0 by default) at T seconds and boxes skinned meshes exactly. `--help`
//! prints the usage; the exit status follows `scenewalk_examples::args`.

use scenewalk_examples::args::{about_file, run_main};
use scenewalk_examples::inspect::{Command, USAGE, inspect, inspect_at, parse_args};
use scenewalk_nodes::gltf::import;
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    run_main("inspect", USAGE, |args| parse_args(args.into_iter()), run)
}

fn run(command: Command, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let Command::Run {
        file,
        options,
        json,
        posed,
    } = command
    else {
        return Ok(out.write_all(USAGE.as_bytes())?);
    };
    let start = Instant::now();
    let mut imported = import(&file, &options).map_err(|e| about_file(&file, e))?;
    let import_time = start.elapsed();
    let report = match posed {
        Some((animation, time)) => inspect_at(&mut imported, animation, time),
        None => inspect(&imported),
    };
    let report = report.map_err(|e| about_file(&file, e))?;
    let text = match json {
        true => report.to_json().to_string(),
        false => report.summary(import_time),
    };
    Ok(writeln!(out, "{text}")?)
}
