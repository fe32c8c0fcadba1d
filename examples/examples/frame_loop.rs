//! Frames of the tour's city, the way an application runs them: each frame moves
//! about 1 % of the transforms (swinging rooftop signs, trees and lamps) and the camera
//! along a street-level flight over the city, then runs the incremental update, hands its results
//! to the view (cull, level of detail, switches, render list) and to five picks.
//! Prints each phase's fastest, median and slowest frame (every frame with `--rows`);
//! every tenth frame it checks the draw list and the pick hits against the same frame
//! computed from scratch, and exits with 1 on any difference. Run `frame_loop --help`.

use scenewalk_actors::prelude::*;
use scenewalk_examples::args::{Arg, ArgError, Args, run_main};
use scenewalk_examples::frame::{Frame, FrameTable, FrameTimes, PICKS, Seen, from_scratch, movers};
use scenewalk_examples::text::counted;
use scenewalk_examples::{CityMeshes, CityScene, city_scene};
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "\
frame_loop: frames of the tour's city, timed by phase and checked against from-scratch

usage: frame_loop [--frames N] [--blocks N] [--rows]

  --frames N   how many frames (1 to 10000, default 100)
  --blocks N   city size in blocks per side (1 to 200; default 16: about 55,700
               nodes; 48: about 487,000)
  --rows       print every frame's times, not only each phase's fastest, median
               and slowest

Exit status: 0; 1 when a frame differs from the frame computed from scratch or a
value cannot be used; 2 for a command line it does not understand.
";

/// What the command line asks for.
struct Options {
    frames: usize,
    blocks: usize,
    rows: bool,
}

fn main() -> ExitCode {
    run_main("frame_loop", HELP, parse, run)
}

fn parse(given: Vec<String>) -> Result<Options, ArgError> {
    let mut options = Options {
        frames: 100,
        blocks: city_scene::DEFAULT_BLOCKS,
        rows: false,
    };
    let mut args = Args::new(given);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Option(option) => match option.as_str() {
                "--frames" => options.frames = args.number("--frames", 1..=10_000)?,
                "--blocks" => options.blocks = args.number("--blocks", 1..=200)?,
                "--rows" => options.rows = true,
                other => return Err(ArgError::unknown(other)),
            },
            Arg::Help => {}
            Arg::Operand(operand) => {
                return Err(ArgError::Usage(format!(
                    "unexpected argument {operand:?}: frame_loop takes no file"
                )));
            }
        }
    }
    Ok(options)
}

fn run(options: Options, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let Options {
        frames,
        blocks,
        rows,
    } = options;
    let mut city = CityScene::build(blocks, city_scene::DEFAULT_SEED, &CityMeshes::generated()?)?;
    let root = city.root;
    let eye = city
        .graph
        .parent(city.camera)?
        .ok_or("the camera has no transform")?;
    let movers = movers(&city.graph, root, 0.01, Some(eye));
    writeln!(
        out,
        "{}; each frame moves {} and the camera, then runs the incremental update, the \
         view and {}",
        counted(city.graph.len(), "node", "nodes"),
        counted(movers.len(), "transform", "transforms"),
        counted(PICKS.len(), "pick", "picks")
    )?;
    let mut frame = Frame::new()?;
    let mut seen = Seen::default();
    let mut all = Vec::with_capacity(frames);
    for k in 0..frames {
        let t = k as f32 / 30.0;
        let mut times = FrameTimes::default();
        let started = Instant::now();
        for mover in &movers {
            city.graph
                .get_mut::<Transform>(mover.node)?
                .set_local(mover.at(t));
        }
        city.graph
            .get_mut::<Transform>(eye)?
            .set_local(camera_path(city.size, t));
        times.edit = started.elapsed();
        frame.run(
            &city.graph,
            root,
            city.camera,
            &PICKS,
            &mut times,
            &mut seen,
        )?;
        if k % 10 == 0 {
            let want = from_scratch(&city.graph, root, city.camera, &PICKS)?;
            if want != seen {
                return Err(format!(
                    "frame {k}: the draw list or the picks differ from the frame computed \
                     from scratch ({} against {} draw items)",
                    seen.items.len(),
                    want.items.len()
                )
                .into());
            }
        }
        all.push((None, times));
    }
    let table = FrameTable {
        edit: "edit",
        indent: "",
        every_row: rows,
    };
    table.write(&all, out)?;
    writeln!(
        out,
        "{} against frames computed from scratch passed",
        counted(frames.div_ceil(10), "check", "checks")
    )?;
    Ok(())
}

/// The camera's world transform at time `t` (seconds): flying 30 m up along the city's
/// diagonal at 20 m/s, there and back, looking ahead and down.
fn camera_path(size: f32, t: f32) -> Affine3A {
    let span = 0.8 * size * std::f32::consts::SQRT_2;
    let travelled = (20.0 * t) % (2.0 * span);
    let (along, ahead) = if travelled < span {
        (travelled, 1.0)
    } else {
        (2.0 * span - travelled, -1.0)
    };
    let diagonal = Vec3::new(1.0, 0.0, 1.0).normalize();
    let eye = Vec3::new(0.1 * size, 30.0, 0.1 * size) + diagonal * along;
    let target = eye + diagonal * (ahead * 200.0) - Vec3::Y * 30.0;
    Camera::look_at(eye, target, Vec3::Y).unwrap_or(Affine3A::IDENTITY)
}
