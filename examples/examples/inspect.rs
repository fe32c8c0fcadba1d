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
//! prints the usage. Errors go to stderr, exit 1.

use scenewalk_examples::inspect::{Command, USAGE, inspect, inspect_at, parse_args};
use scenewalk_nodes::gltf::import;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("inspect: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let (file, options, as_json, posed) = match parse_args(std::env::args().skip(1))? {
        Command::Help => return print(USAGE),
        Command::Run {
            file,
            options,
            json,
            posed,
        } => (file, options, json, posed),
    };
    let start = Instant::now();
    let mut imported = import(&file, &options).map_err(|e| format!("{}: {e}", file.display()))?;
    let import_time = start.elapsed();
    let report = match posed {
        Some((animation, time)) => inspect_at(&mut imported, animation, time),
        None => inspect(&imported),
    };
    let report = report.map_err(|e| e.to_string())?;
    print(&match as_json {
        true => report.to_json().to_string(),
        false => report.summary(import_time),
    })
}

/// Prints `text` and a newline. `writeln!`, not `println!`: a closed pipe
/// (`inspect ... | head`) is an error to report, not a panic.
fn print(text: &str) -> Result<(), String> {
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}
