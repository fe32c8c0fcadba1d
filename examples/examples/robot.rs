//! A URDF robot: its tree, its link poses at a configuration, its self-collision, a
//! timed sweep of random configurations and an SVG side view.
//!
//! ```text
//! cargo run --release --example robot -- \
//!     ../shared/scenes/urdf/example-robot-data/robots/panda_description/urdf/panda.urdf --random 1000
//! ```
//!
//! `--help` lists the options (`scenewalk_examples::robot::USAGE`). Exit status
//! (`scenewalk_examples::args`): 0; 1 when a file or value could not be used; 2 for a
//! command line it does not understand.

use scenewalk_examples::args::{ArgError, run_main};
use scenewalk_examples::robot::{Command, RobotCliError, USAGE, parse_args, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    run_main(
        "robot",
        USAGE,
        |args| {
            parse_args(args).map_err(|e| match e {
                RobotCliError::Usage(m) => ArgError::Usage(m),
                RobotCliError::Failed(m) => ArgError::Value(m),
            })
        },
        |command, out| {
            let Command::Run(options) = command else {
                return Ok(out.write_all(USAGE.as_bytes())?);
            };
            Ok(out.write_all(run(&options)?.text.as_bytes())?)
        },
    )
}
