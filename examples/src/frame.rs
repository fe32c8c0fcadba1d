//! A frame, the way a scene-graph application runs one: edit, incremental update,
//! hand-over of the update's results, view (cull, level of detail, switches, render
//! list) and picks, timed phase by phase. The `frame_loop` example, the tour's glTF
//! playback and `bench_report` case h run it; [`from_scratch`] computes the same frame
//! with fresh actions, as the reference the loop is checked against.

use crate::passes::{ViewAction, view_action};
use crate::text::TimeUnit;
use scenewalk_actors::{
    DrawItem, FrustumCull, IncrementalUpdate, LodSelect, Pick, PickHit, RenderList,
};
use scenewalk_core::glam::{Affine3A, Mat4, Vec3};
use scenewalk_core::{Action, ActionError, Graph, NodeId, Results, TraversalError, Unordered};
use scenewalk_iterators::PriorityQueue;
use scenewalk_nodes::{BadRay, Camera, Ray, Transform};
use std::time::{Duration, Instant};

/// Screen points the example frames' picks go through (x right, y up, -1..1 across
/// the view).
pub const PICKS: [(f32, f32); 5] = [
    (0.0, -0.2),
    (-0.5, -0.3),
    (0.5, -0.3),
    (-0.2, -0.6),
    (0.3, -0.1),
];

/// The pick pass: one ray, nearest box first.
pub type PickAction = Action<PriorityQueue, (Unordered<Pick>,)>;

/// Why a frame failed.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    /// A pass refused its actors.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// A run failed (a stale root, or results that do not describe the graph).
    #[error(transparent)]
    Traversal(#[from] TraversalError),
    /// The camera node is not a camera, or the update did not reach it.
    #[error("the camera {0} has no camera or no world transform")]
    Camera(NodeId),
    /// A pick ray could not be made (a degenerate camera).
    #[error(transparent)]
    Ray(#[from] BadRay),
}

/// Milliseconds spent in each phase of a frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameTimes {
    /// Writing the frame's edits into the graph (the caller's, timed by it).
    pub edit: Duration,
    /// The incremental update.
    pub update: Duration,
    /// Handing the update's results to the readers.
    pub hand_over: Duration,
    /// The view pass.
    pub view: Duration,
    /// The picks.
    pub pick: Duration,
}

impl FrameTimes {
    /// The whole frame.
    pub fn total(&self) -> Duration {
        self.edit + self.update + self.hand_over + self.view + self.pick
    }
}

/// The median of `durations` (the upper one of an even count; zero for none).
///
/// ```
/// use scenewalk_examples::frame::median;
/// use std::time::Duration;
/// let ms = |n| Duration::from_millis(n);
/// assert_eq!(median([ms(5), ms(1), ms(9)].into_iter()), ms(5));
/// ```
pub fn median(durations: impl Iterator<Item = Duration>) -> Duration {
    let mut all: Vec<Duration> = durations.collect();
    all.sort_unstable();
    all.get(all.len() / 2).copied().unwrap_or_default()
}

/// A table of frames' phase times, as `frame_loop` and the tour print it: by default a
/// summary (each phase's fastest, median and slowest frame), with `every_row` first a
/// row per frame. One unit serves the whole table: the one that fits the shortest
/// phase's median ([`TimeUnit::fitting`]), so every figure shows its digits.
#[derive(Clone, Copy, Debug)]
pub struct FrameTable<'a> {
    /// What the edit phase is called (`edit`, `animate`).
    pub edit: &'a str,
    /// Printed before every line.
    pub indent: &'a str,
    /// A row per frame before the summary.
    pub every_row: bool,
}

/// A phase's name and how to read its time.
type Phase<'a> = (&'a str, fn(&FrameTimes) -> Duration);

impl FrameTable<'_> {
    /// Writes the table of `frames` (each with its animation time in seconds, if it
    /// has one) to `out`.
    ///
    /// ```
    /// use scenewalk_examples::frame::{FrameTable, FrameTimes};
    /// use std::time::Duration;
    /// let us = Duration::from_micros;
    /// let frame = |k: u64| FrameTimes { edit: us(2), update: us(10 * k), hand_over: us(1), view: us(20), pick: us(50) };
    /// let frames = [(None, frame(1)), (None, frame(2)), (None, frame(9))];
    /// let mut out = Vec::new();
    /// FrameTable { edit: "edit", indent: "", every_row: false }.write(&frames, &mut out)?;
    /// let text = String::from_utf8(out)?;
    /// assert!(text.starts_with("phase"), "{text}");
    /// assert!(text.contains("(µs, over 3 frames)") && text.lines().count() == 7, "{text}");
    /// assert!(text.contains("update         10.0      20.0      90.0"), "{text}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(
        &self,
        frames: &[(Option<f32>, FrameTimes)],
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let phases: [Phase<'_>; 6] = [
            (self.edit, |t| t.edit),
            ("update", |t| t.update),
            ("hand-over", |t| t.hand_over),
            ("view", |t| t.view),
            ("pick", |t| t.pick),
            ("frame", FrameTimes::total),
        ];
        let medians = phases.map(|(_, f)| median(frames.iter().map(|(_, t)| f(t))));
        let shortest = medians.iter().filter(|d| !d.is_zero()).min();
        let unit = TimeUnit::fitting(shortest.copied().unwrap_or_default());
        let indent = self.indent;
        let cell = |d: Duration| format!("{:>9}", unit.number(d));
        if self.every_row {
            let timed = frames.iter().any(|(t, _)| t.is_some());
            let mut head = format!("{indent}frame");
            if timed {
                head += "    time s";
            }
            for (name, _) in &phases {
                head += &format!(" {name:>9}");
            }
            writeln!(out, "{head} ({})", unit.name())?;
            for (k, (time, times)) in frames.iter().enumerate() {
                let mut row = format!("{indent}{k:>5}");
                if let Some(t) = time.filter(|_| timed) {
                    row += &format!(" {t:>9.3}");
                }
                for (_, f) in &phases {
                    row += &format!(" {}", cell(f(times)));
                }
                writeln!(out, "{row}")?;
            }
        }
        writeln!(
            out,
            "{indent}{:<9} {:>9} {:>9} {:>9} ({}, over {})",
            "phase",
            "min",
            "median",
            "max",
            unit.name(),
            crate::text::counted(frames.len(), "frame", "frames")
        )?;
        for ((name, f), median) in phases.iter().zip(medians) {
            let all = frames.iter().map(|(_, t)| f(t));
            let (min, max) = (all.clone().min(), all.max());
            writeln!(
                out,
                "{indent}{name:<9} {} {} {}",
                cell(min.unwrap_or_default()),
                cell(median),
                cell(max.unwrap_or_default())
            )?;
        }
        Ok(())
    }
}

/// What a frame shows: the draw list and each pick's nearest hit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Seen {
    /// The view's draw items, in draw order.
    pub items: Vec<DrawItem>,
    /// The nearest hit of each pick ray (`None`: the ray hit nothing).
    pub hits: Vec<Option<PickHit>>,
}

/// The passes of a frame, kept from frame to frame so that each reuses its buffers
/// and the update patches only what the edits reached.
#[derive(Debug)]
pub struct Frame {
    update: IncrementalUpdate,
    view: Option<ViewAction>,
    pick: PickAction,
}

impl Frame {
    /// Passes with no results yet.
    pub fn new() -> Result<Self, FrameError> {
        Ok(Self {
            update: IncrementalUpdate::new(),
            view: None,
            pick: Action::new(
                PriorityQueue::new(),
                (Unordered::new(Pick::new(Ray::new(Vec3::ZERO, Vec3::Z)?)),),
            )?,
        })
    }

    /// The update pass.
    pub fn update(&self) -> &IncrementalUpdate {
        &self.update
    }

    /// Runs the frame after the caller's edits: the incremental update of `root`'s
    /// subtree, the hand-over, the view from the camera node `camera` (placed by the
    /// update), and a pick through each of `points` (x and y in -1..1 across the
    /// view). Adds the phases' times to `times`, and writes what the frame shows to
    /// `seen`.
    pub fn run(
        &mut self,
        graph: &Graph,
        root: NodeId,
        camera: NodeId,
        points: &[(f32, f32)],
        times: &mut FrameTimes,
        seen: &mut Seen,
    ) -> Result<(), FrameError> {
        let started = Instant::now();
        self.update.run(graph, root)?;
        let updated = Instant::now();
        times.update += updated - started;

        // The hand-over: handles to the update's tables, nothing copied.
        let results = self.update.results();
        let (lens, placed) = camera_at(graph, camera, &results, root)?;
        let handed = Instant::now();
        times.hand_over += handed - updated;

        let view = match &mut self.view {
            Some(view) => {
                aim(view, &lens, &placed);
                view
            }
            None => self
                .view
                .insert(view_action(&lens.frustum(&placed), &placed)?),
        };
        view.run_with(graph, root, &results)?;
        let viewed = Instant::now();
        times.view += viewed - handed;
        seen.items.clear();
        if let Some(list) = view.actor::<RenderList>() {
            seen.items.extend_from_slice(list.items());
        }

        seen.hits.clear();
        for &(x, y) in points {
            if let Some(pick) = self.pick.actor_mut::<Pick>() {
                pick.set_ray(pick_ray(&lens, &placed, x, y)?);
            }
            self.pick.run_with(graph, root, &results)?;
            seen.hits
                .push(self.pick.actor::<Pick>().and_then(Pick::hit));
        }
        times.pick += viewed.elapsed();
        Ok(())
    }
}

/// Points the view pass at the camera `lens` placed at `placed`.
fn aim(view: &mut ViewAction, lens: &Camera, placed: &Affine3A) {
    if let Some(cull) = view.actor_mut::<FrustumCull>() {
        cull.set_frustum(lens.frustum(placed));
    }
    if let Some(lod) = view.actor_mut::<LodSelect>() {
        lod.set_viewer(Vec3::from(placed.translation));
    }
    if let Some(list) = view.actor_mut::<RenderList>() {
        list.set_view(placed.inverse());
    }
}

/// The camera of the camera node and its world transform, from the update's results.
fn camera_at(
    graph: &Graph,
    camera: NodeId,
    results: &Results,
    root: NodeId,
) -> Result<(Camera, Affine3A), FrameError> {
    let lens = *graph
        .get::<Camera>(camera)
        .map_err(|_| FrameError::Camera(camera))?;
    let world = results
        .get::<scenewalk_actors::WorldTable>("the frame's camera", graph, root.index())
        .map_err(TraversalError::from)?
        .world(graph, camera)
        .map_err(|_| FrameError::Camera(camera))?;
    Ok((lens, world))
}

/// The pick ray through the point (`x`, `y`) of the view (-1..1 across, -1..1 up)
/// of `lens` placed at `placed`.
pub fn pick_ray(lens: &Camera, placed: &Affine3A, x: f32, y: f32) -> Result<Ray, BadRay> {
    let inverse = (lens.projection_matrix() * Mat4::from(placed.inverse())).inverse();
    let near = inverse.project_point3(Vec3::new(x, y, 0.0));
    let far = inverse.project_point3(Vec3::new(x, y, 0.5));
    Ray::new(near, far - near)
}

/// The same frame computed from scratch: a fresh full update, view and picks.
pub fn from_scratch(
    graph: &Graph,
    root: NodeId,
    camera: NodeId,
    points: &[(f32, f32)],
) -> Result<Seen, FrameError> {
    let mut frame = Frame::new()?;
    let mut seen = Seen::default();
    frame.run(
        graph,
        root,
        camera,
        points,
        &mut FrameTimes::default(),
        &mut seen,
    )?;
    Ok(seen)
}

/// Transforms a frame loop moves: about `share` of the transform nodes under `root`
/// (every k-th in pre-order), each with its rest transform, skipping `keep` (the
/// camera's own transform, which the loop moves along its path).
pub fn movers(graph: &Graph, root: NodeId, share: f64, keep: Option<NodeId>) -> Vec<Mover> {
    let mut transforms = Vec::new();
    let mut next = Some(root);
    while let Some(node) = next {
        if Some(node) != keep
            && let Ok(t) = graph.get::<Transform>(node)
        {
            transforms.push(Mover {
                node,
                rest: *t.local(),
            });
        }
        next = graph.next_preorder(node, root).ok().flatten();
    }
    let every = (1.0 / share.clamp(1e-6, 1.0)).round().max(1.0) as usize;
    transforms.into_iter().step_by(every).collect()
}

/// A transform a frame loop moves, and where it rests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    /// The transform node.
    pub node: NodeId,
    /// Its local transform at rest.
    pub rest: Affine3A,
}

impl Mover {
    /// Its local transform at time `t` (seconds): swinging about its own up axis, each
    /// mover in its own phase.
    pub fn at(&self, t: f32) -> Affine3A {
        let phase = self.node.index().get() as f32 * 0.37;
        self.rest * Affine3A::from_rotation_y(0.4 * (1.7 * t + phase).sin())
    }
}
