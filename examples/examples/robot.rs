//! A URDF robot: its tree, its link poses at a configuration, its self-collision, a
//! timed sweep of random configurations and an SVG side view.
//!
//! ```text
//! cargo run --release --example robot -- \
//!     ../shared/scenes/urdf/example-robot-data/robots/panda_description/urdf/panda.urdf --random 1000
//! ```
//!
//! `--help` lists the options (`scenewalk_examples::robot::USAGE`).

use scenewalk_examples::robot::{Command, USAGE, parse_args, run};

fn main() {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Command::Help) => {
            print!("{USAGE}");
            return;
        }
        Ok(Command::Run(options)) => options,
        Err(e) => {
            eprintln!("robot: {e}");
            std::process::exit(e.exit_code());
        }
    };
    match run(&options) {
        Ok(outcome) => print!("{}", outcome.text),
        Err(e) => {
            eprintln!("robot: {e}");
            std::process::exit(e.exit_code());
        }
    }
}
