//! Imports a glTF 2.0 scene and reports its nodes' world transforms and mesh boxes.
//!
//! ```text
//! cargo run --release --example inspect -- FILE [--scene N] [--json]
//! ```
//!
//! Without `--json`: a readable summary. With `--json`: one JSON object on stdout
//! (see `scenewalk_examples::inspect::Report::to_json`). Errors go to stderr, exit 1.

use scenewalk_examples::inspect::inspect;
use scenewalk_nodes::gltf::{ImportOptions, import};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: inspect FILE [--scene N] [--json]";

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
    let mut file = None;
    let mut options = ImportOptions::default();
    let mut as_json = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => as_json = true,
            "--scene" => {
                let n = args.next().ok_or(USAGE)?;
                let n = n
                    .parse()
                    .map_err(|_| format!("--scene needs a number, not {n:?}"))?;
                options.scene = Some(n);
            }
            _ if arg.starts_with("--") || file.is_some() => return Err(USAGE.into()),
            _ => file = Some(PathBuf::from(arg)),
        }
    }
    let file = file.ok_or(USAGE)?;
    let start = Instant::now();
    let imported = import(&file, &options).map_err(|e| format!("{}: {e}", file.display()))?;
    let import_time = start.elapsed();
    let report = inspect(&imported).map_err(|e| e.to_string())?;
    let text = match as_json {
        true => report.to_json().to_string(),
        false => report.summary(import_time),
    };
    // `writeln!`, not `println!`: a closed pipe (`inspect ... | head`) is an error to
    // report, not a panic.
    match writeln!(std::io::stdout().lock(), "{text}") {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}
