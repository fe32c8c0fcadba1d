//! Playing a file's animation as frames of the frame loop.

use super::skinned::{skinned_meshes, update_and_exact_box};
use super::{PlayedFrame, Scene, counted, yes};
use crate::frame::{Frame, FrameTable, FrameTimes, PICKS, Seen, from_scratch};
use scenewalk_actors::{BoundsTable, WorldTable};
use scenewalk_nodes::AnimationPlayer;
use std::error::Error;
use std::io::Write;
use std::time::Instant;

/// How to play a file's animation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Playing {
    /// Frames over the animation's duration.
    pub frames: usize,
    /// The time of one more frame after them.
    pub time: Option<f32>,
    /// A row per frame in the report, not only the summary.
    pub every_row: bool,
}

/// Plays `player`'s animation over its duration as `frames` frames (the first at 0 s,
/// the last at the end), then, with `time`, one more frame at that time. Prints a
/// summary of the frames' phase times (with `every_row`, first a row per frame); checks every tenth frame and the last against the frame
/// computed from scratch, and the update's boxes of the skinned meshes against their
/// exact boxes.
pub(super) fn play(
    scene: &mut Scene,
    player: &mut AnimationPlayer,
    Playing {
        frames,
        time,
        every_row,
    }: Playing,
    section: usize,
    out: &mut dyn Write,
    outcome: &mut super::Outcome,
) -> Result<(), Box<dyn Error>> {
    let (root, camera) = (scene.root, scene.camera.ok_or("the scene has no camera")?);
    let animation = player.animation();
    let duration = animation.duration();
    let name = animation
        .name()
        .map_or(String::new(), |name| format!(" {name:?}"));
    let skinned = skinned_meshes(&scene.graph, root);
    writeln!(
        out,
        "{section}. play: animation 0{name} ({duration:.3} s, {}) as {} of the frame loop: \
         the player's writes are the edit, then the incremental update{}, the hand-over, \
         the view and {}",
        counted(animation.channels().len(), "channel", "channels"),
        counted(frames, "frame", "frames"),
        match skinned.len() {
            0 => String::new(),
            n => format!(
                " (boxing {} from the joints)",
                counted(n, "skinned mesh", "skinned meshes")
            ),
        },
        counted(PICKS.len(), "pick", "picks"),
    )?;
    let mut frame = Frame::new()?;
    let mut seen = Seen::default();
    let mut checks = 0;
    let failed_before = outcome.failed.len();
    let last = frames.saturating_sub(1);
    let at = |k: usize| match last {
        0 => 0.0,
        _ => duration * k as f32 / last as f32,
    };
    let extra = time.map(|t| (frames, t));
    for (k, t) in (0..frames).map(|k| (k, at(k))).chain(extra) {
        let mut times = FrameTimes::default();
        let started = Instant::now();
        player.apply(&mut scene.graph, t)?;
        times.edit = started.elapsed();
        frame.run(&scene.graph, root, camera, &PICKS, &mut times, &mut seen)?;
        if k == frames {
            break; // The pose at `time`, for the jobs and the picture.
        }
        outcome.frames.push(PlayedFrame { time: t, times });
        if k % 10 == 0 || k == last {
            checks += 1;
            let want = from_scratch(&scene.graph, root, camera, &PICKS)?;
            if want != seen {
                outcome.failed.push(format!(
                    "frame {k}: the draw list or the picks differ from the frame computed from scratch"
                ));
            }
            let results = frame.update().results();
            let world = results.get::<WorldTable>("the tour", &scene.graph, root.index())?;
            let bounds = results.get::<BoundsTable>("the tour", &scene.graph, root.index())?;
            for &mesh in &skinned {
                let (posed, exact) = update_and_exact_box(&scene.graph, mesh, &world, &bounds)?;
                if posed.union(&exact) != posed {
                    outcome.failed.push(format!(
                        "frame {k}: a skinned mesh's box from its joints misses some of its vertices"
                    ));
                }
            }
        }
    }
    let played: Vec<_> = (outcome.frames.iter())
        .map(|f| (Some(f.time), f.times))
        .collect();
    let table = FrameTable {
        edit: "animate",
        indent: "   ",
        every_row,
    };
    table.write(&played, out)?;
    let passed = outcome.failed.len() == failed_before;
    writeln!(
        out,
        "   {} against frames computed from scratch (draw list, picks{}): {}",
        counted(checks, "check", "checks"),
        if skinned.is_empty() {
            ""
        } else {
            ", the update's skinned boxes holding every skinned vertex"
        },
        yes(passed)
    )?;
    if let Some(t) = time {
        writeln!(
            out,
            "   then posed at {t} s for the jobs and the picture below"
        )?;
    }
    writeln!(out)?;
    Ok(())
}
