//! The tour: scenewalk's main job on a built-in city of about 56,000 nodes, or on a
//! glTF file (its animation played as frames first): update, view (cull + LOD +
//! switch + render list), picking and collision, with a short report and an SVG top
//! view. Run `tour --help`; the work is in `scenewalk_examples::tour`.
//!
//! Exit status: 0, 1 when a check failed or the tour could not run, 2 for a command
//! line it refuses.

use scenewalk_examples::tour::{Command, HELP, parse_args, run};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Run(options)) => options,
        Err(message) => {
            eprintln!("tour: {message}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let result = run(&options, &mut out);
    let _ = out.flush();
    match result {
        Ok(outcome) if outcome.failed.is_empty() => ExitCode::SUCCESS,
        Ok(outcome) => {
            eprintln!("tour: checks failed: {}", outcome.failed.join("; "));
            ExitCode::FAILURE
        }
        // `tour | head`: the reader left; nothing to report.
        Err(err)
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("tour: {err}");
            ExitCode::FAILURE
        }
    }
}
