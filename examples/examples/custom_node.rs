//! The extension proof: node types defined here, outside the library, handled by the
//! library's actors and actions with no change to core.
//!
//! ```text
//! cargo run --example custom_node
//! ```
//!
//! - `Spinner` extends `Transform` (it embeds one and declares it as its parent type),
//!   so the world-transform and bounds actors compose it like any transform.
//! - `Light` is a brand-new type; the statistics actor counts it, and a dispatch actor
//!   (`Arms`) gets an arm for it, with a default for every other type.
//! - `Emitter`, a particle emitter, extends `Geometry` (its particles' box): bounds,
//!   statistics and frustum culling handle it as they are, and one registered functor
//!   makes the render list draw its particles.

use scenewalk_actors::{
    Bounds, FrustumCull, RenderContext, RenderList, Statistics, WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{
    Aabb, Action, Arms, Flow, Functor, Graph, NodeCore, Ordered, ParentType, Results, Unordered,
    Visit,
};
use scenewalk_examples::args::{no_arguments, run_main};
use scenewalk_examples::text::{Decimals, counted};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Camera, Geometry, Group, Transform};
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

/// A transform that turns about y at `speed` radians per second.
#[derive(Clone, Debug)]
struct Spinner {
    transform: Transform,
    speed: f32,
}

impl NodeCore for Spinner {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.transform)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Transform>())
    }
}

/// A particle emitter: `particles` sprites (two triangles each) inside its box.
#[derive(Clone, Debug)]
struct Emitter {
    volume: Geometry,
    particles: u32,
}

impl NodeCore for Emitter {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.volume)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Geometry>())
    }
}

impl Emitter {
    fn new(half: f32, particles: u32) -> Self {
        let volume = Aabb::new(Vec3::splat(-half), Vec3::splat(half));
        Self {
            volume: Geometry::with_primitives(volume, 2 * particles),
            particles,
        }
    }

    /// How the render list draws it: one item for the whole particle system.
    fn draw(&self, _: &Visit<'_>, list: &mut RenderContext) -> Flow {
        list.draw(Geometry::with_primitives(
            *self.volume.local_bounds(),
            2 * self.particles,
        ));
        Flow::Continue
    }
}

impl Spinner {
    /// Where the spinner stands after `seconds`.
    fn at(offset: Vec3, speed: f32, seconds: f32) -> Self {
        let transform =
            Transform::from_trs(offset, Quat::from_rotation_y(speed * seconds), Vec3::ONE);
        Self { transform, speed }
    }
}

/// A point light.
#[derive(Clone, Debug)]
struct Light {
    watts: f32,
}

impl NodeCore for Light {}

impl Light {
    /// A method of the node itself, called from the dispatch actor's arm.
    fn add_power(&self, total: &mut Power) -> Flow {
        total.watts += self.watts;
        total.lights += 1;
        Flow::Continue
    }
}

/// What the dispatch actor sums.
#[derive(Clone, Debug, Default)]
struct Power {
    watts: f32,
    lights: u32,
    triangles: u64,
    others: u32,
}

const HELP: &str = "\
custom_node: node types defined outside the library (a spinning transform, a light,
a particle emitter that the render list draws), handled by the library's actors

usage: custom_node

It takes no options. Exit status: 0; 1 when a result differs from what the types
should give; 2 for any argument.
";

fn main() -> ExitCode {
    run_main("custom_node", HELP, no_arguments, run)
}

fn run((): (), out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let carousel = graph.append_child(root, Spinner::at(Vec3::new(10.0, 0.0, 0.0), 0.5, 0.0))?;
    for i in 0..4 {
        let seat = graph.append_child(
            carousel,
            Transform::from_translation(Vec3::new(2.0, 0.0, i as f32)),
        )?;
        graph.append_child(
            seat,
            Geometry::with_primitives(Aabb::new(Vec3::ZERO, Vec3::ONE), 12),
        )?;
    }
    graph.append_child(carousel, Light { watts: 60.0 })?;
    graph.append_child(root, Light { watts: 100.0 })?;
    // Two fountains of particles: one ahead of the camera, one behind it.
    let ahead = graph.append_child(
        root,
        Transform::from_translation(Vec3::new(0.0, 0.0, -30.0)),
    )?;
    let front = graph.append_child(ahead, Emitter::new(2.0, 5_000))?;
    let behind =
        graph.append_child(root, Transform::from_translation(Vec3::new(0.0, 0.0, 30.0)))?;
    let back = graph.append_child(behind, Emitter::new(2.0, 5_000))?;

    let power = Arms::new(Power::default())
        .on::<Light>(|light, _, total| light.add_power(total))
        .on::<Geometry>(|geometry, _, total| {
            total.triangles += u64::from(geometry.primitives());
            Flow::Continue
        })
        .otherwise(|_, total| {
            total.others += 1;
            Flow::Continue
        });

    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Unordered::new(Statistics::new()),
            Ordered::new(Bounds::new()),
            Unordered::new(power),
        ),
    )?;
    action.run(&graph, root)?;

    let stats = action.actor::<Statistics>().ok_or("no statistics")?;
    writeln!(out, "node types counted by the library's statistics actor:")?;
    for (name, count) in stats.counts_by_type() {
        writeln!(out, "  {count:>3}  {name}")?;
    }
    let world = action
        .actor::<WorldTransforms>()
        .ok_or("no world transforms")?;
    let carousel_world = world.table().world(&graph, carousel)?;
    let speed = graph.get::<Spinner>(carousel)?.speed;
    writeln!(
        out,
        "carousel (a Spinner turning at {speed} rad/s, handled as a Transform) sits at {}",
        carousel_world.translation
    )?;
    let bounds = action
        .actor::<Bounds>()
        .ok_or("no bounds")?
        .table()
        .world_bounds(&graph, root)?;
    writeln!(
        out,
        "world bounds {}",
        Decimals::for_box(&bounds).aabb(&bounds)
    )?;
    // The dispatch actor's type holds its closures; its context is found by type.
    let power = action.context::<Power>().ok_or("no dispatch actor")?;
    writeln!(
        out,
        "dispatch: {} with {} W, {}, {} (by the default)",
        counted(power.lights, "light", "lights"),
        power.watts,
        counted(power.triangles, "triangle", "triangles"),
        counted(power.others, "other node", "other nodes")
    )?;

    // The view: a camera at the origin looking down -z. The emitters are culled by
    // their boxes like any geometry, and drawn by the one functor registered for them.
    // The view reads the update's results: world transforms and boxes.
    let results = Results::new()
        .with(world.table())
        .with(action.actor::<Bounds>().ok_or("no bounds")?.table());
    let frustum = Camera::perspective(1.0, 1.5, 0.1, 100.0)?.frustum(&Affine3A::IDENTITY);
    let render = RenderList::new(Affine3A::IDENTITY).on::<Emitter>(Functor::closure(
        |e: &Emitter, visit: &Visit<'_>, list: &mut RenderContext| e.draw(visit, list),
    ));
    let mut view = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(FrustumCull::new(frustum)),
            Ordered::new(render),
        ),
    )?;
    view.run_with(&graph, root, &results)?;
    let list = view.actor::<RenderList>().ok_or("no render list")?;
    let drawn = |node: scenewalk_core::NodeId| list.items().iter().any(|i| i.node == node.index());
    writeln!(
        out,
        "view: {}; the emitter ahead is drawn: {}, the one behind is culled: {}",
        counted(list.items().len(), "draw item", "draw items"),
        drawn(front),
        !drawn(back)
    )?;
    if !drawn(front) || drawn(back) {
        return Err("the emitters were not culled and drawn as expected".into());
    }
    Ok(())
}
