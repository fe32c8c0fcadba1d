//! The extension proof: node types defined here, outside the library, handled by the
//! library's actors and actions with no change to core.
//!
//! ```text
//! cargo run --example custom_node
//! ```
//!
//! - `Spinner` extends `Transform` (it embeds one and names it as its parent type), so
//!   the world-transform and bounds actors compose it like any transform.
//! - `Light` is a brand-new type; the statistics actor counts it, and a dispatch actor
//!   gets a functor for it, with a default for every other type.

use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Quat, Vec3};
use scenewalk_core::{
    Aabb, Action, DispatchActor, Flow, Functor, Graph, NodeCore, Ordered, Unordered, Visit,
};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Geometry, Group, Transform};
use std::error::Error;

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
    /// A method of the node itself, called through a functor.
    fn add_power(&self, total: &mut Power) -> Flow {
        total.watts += self.watts;
        total.lights += 1;
        Flow::Continue
    }
}

/// What the dispatch actor sums.
#[derive(Debug, Default)]
struct Power {
    watts: f32,
    lights: u32,
    triangles: u64,
    others: u32,
}

fn main() {
    if let Err(err) = run() {
        eprintln!("custom_node: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut graph = Graph::new();
    graph.register_type_with_parent::<Spinner, Transform>()?;
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

    let power = DispatchActor::new(Power::default())
        .on::<Light>(Functor::node_method(Light::add_power))
        .on::<Geometry>(Functor::function(
            |geometry: &Geometry, _: &Visit<'_>, total: &mut Power| {
                total.triangles += u64::from(geometry.primitives());
                Flow::Continue
            },
        ))
        .otherwise(Functor::any(|_: &Visit<'_>, total: &mut Power| {
            total.others += 1;
            Flow::Continue
        }));

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
    println!("node types counted by the library's statistics actor:");
    for (name, count) in stats.counts_by_type() {
        println!("  {count:>3}  {name}");
    }
    let world = action
        .actor::<WorldTransforms>()
        .ok_or("no world transforms")?;
    let carousel_world = world
        .world(&graph, carousel)
        .ok_or("carousel not reached")?;
    let speed = graph.get::<Spinner>(carousel)?.speed;
    println!(
        "carousel (a Spinner turning at {speed} rad/s, handled as a Transform) sits at {}",
        carousel_world.translation
    );
    let bounds = action
        .actor::<Bounds>()
        .and_then(|b| b.world_bounds(&graph, root))
        .ok_or("no bounds")?;
    println!("world bounds {:?} .. {:?}", bounds.min, bounds.max);
    let power = &action
        .actor::<DispatchActor<Power>>()
        .ok_or("no dispatch actor")?
        .context;
    println!(
        "dispatch: {} lights with {} W, {} triangles, {} other nodes (by the default functor)",
        power.lights, power.watts, power.triangles, power.others
    );
    Ok(())
}
