//! The tour: scenewalk's main job on a built-in city of about 56,000 nodes, or on a
//! glTF file (its animation played as frames first): update, view (cull + LOD +
//! switch + render list), picking and collision, with a short report and an SVG top
//! view. Run `tour --help`; the work is in `scenewalk_examples::tour`.
//!
//! Exit status (`scenewalk_examples::args`): 0; 1 when a check failed or the tour
//! could not run; 2 for a command line it does not understand.

use scenewalk_examples::args::run_main;
use scenewalk_examples::tour::{Command, HELP, parse_args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    run_main(
        "tour",
        HELP,
        |args| parse_args(args.into_iter()),
        |command, out| {
            let Command::Run(options) = command else {
                return Ok(out.write_all(HELP.as_bytes())?);
            };
            let outcome = run(&options, out)?;
            match outcome.failed.is_empty() {
                true => Ok(()),
                false => Err(format!("checks failed: {}", outcome.failed.join("; ")).into()),
            }
        },
    )
}
