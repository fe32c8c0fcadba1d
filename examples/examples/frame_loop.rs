//! Frames of the tour's city, the way an application runs them: each frame moves
//! about 1 % of the transforms (swinging rooftop signs, trees and lamps) and the camera
//! along a street-level flight over the city, then runs the incremental update, hands its results
//! to the view (cull, level of detail, switches, render list) and to five picks.
//! Prints each frame's milliseconds by phase; every tenth frame it checks the draw list
//! and the pick hits against the same frame computed from scratch, and exits with 1 on
//! any difference. Run `frame_loop --help`.

use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_examples::frame::{Frame, FrameTimes, PICKS, Seen, from_scratch, median, movers};
use scenewalk_examples::text::counted;
use scenewalk_examples::{CityMeshes, CityScene, city_scene};
use scenewalk_nodes::{Camera, Transform};
use std::error::Error;
use std::time::{Duration, Instant};

const HELP: &str = "\
frame_loop: frames of the tour's city, timed by phase and checked against from-scratch

usage: frame_loop [--frames N] [--blocks N]

  --frames N   how many frames (default 100)
  --blocks N   city size in blocks per side (default 16: about 55,700 nodes;
               48: about 500,000)
";

fn main() {
    if let Err(err) = run() {
        eprintln!("frame_loop: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let (frames, blocks) = parse()?;
    let mut city = CityScene::build(blocks, 11, &CityMeshes::generated()?)?;
    let root = city.root;
    let eye = city
        .graph
        .parent(city.camera)?
        .ok_or("the camera has no transform")?;
    let movers = movers(&city.graph, root, 0.01, Some(eye));
    println!(
        "{}; each frame moves {} and the camera, then runs the incremental update, the \
         view and {}",
        counted(city.graph.len(), "node", "nodes"),
        counted(movers.len(), "transform", "transforms"),
        counted(PICKS.len(), "pick", "picks")
    );
    println!("frame   edit  update  hand-over   view   pick   total (ms)");
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
        println!(
            "{k:>5} {:>6.2} {:>7.2} {:>10.3} {:>6.2} {:>6.2} {:>7.2}",
            ms(times.edit),
            ms(times.update),
            ms(times.hand_over),
            ms(times.view),
            ms(times.pick),
            ms(times.total())
        );
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
        all.push(times);
    }
    let phase = |f: fn(&FrameTimes) -> Duration| ms(median(all.iter().map(f)));
    println!(
        "median: edit {:.2}, update {:.2}, hand-over {:.3}, view {:.2}, pick {:.2}, \
         frame {:.2} ms; {} against from-scratch frames passed",
        phase(|t| t.edit),
        phase(|t| t.update),
        phase(|t| t.hand_over),
        phase(|t| t.view),
        phase(|t| t.pick),
        phase(FrameTimes::total),
        counted(frames.div_ceil(10), "check", "checks")
    );
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn parse() -> Result<(usize, usize), Box<dyn Error>> {
    let (mut frames, mut blocks) = (100, city_scene::DEFAULT_BLOCKS);
    let mut args = std::env::args().skip(1);
    let number = |name: &str, value: Option<String>, range: std::ops::RangeInclusive<usize>| {
        let value = value.ok_or(format!("{name} needs a number"))?;
        let n: usize = value
            .parse()
            .map_err(|_| format!("{name} needs a whole number, not {value:?}"))?;
        if range.contains(&n) {
            Ok::<usize, String>(n)
        } else {
            Err(format!(
                "{name} must be between {} and {}",
                range.start(),
                range.end()
            ))
        }
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--frames" => frames = number("--frames", args.next(), 1..=100_000)?,
            "--blocks" => blocks = number("--blocks", args.next(), 1..=200)?,
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)").into()),
        }
    }
    Ok((frames, blocks))
}
