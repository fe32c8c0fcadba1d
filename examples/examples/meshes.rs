//! Meshes in a city: shared triangle meshes scattered over the streets, bounds and
//! statistics over them, mesh-against-mesh and subtree collision through the dual-tree
//! iterator, and a ray down onto a mesh.
//!
//! `cargo run --release -p scenewalk-examples --example meshes [-- --obj FILE.obj]`
//! (with `--obj`, the file's first model is scattered too).

use scenewalk_actors::prelude::*;
use scenewalk_actors::{Collide, ContactMode};
use scenewalk_examples::args::{Arg, ArgError, Args, run_main};
use scenewalk_examples::city;
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::text::{Decimals, counted, duration};
use scenewalk_examples::tour::first_mesh;
use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const HELP: &str = "\
meshes: shared triangle meshes in a small city: bounds and statistics, mesh against
mesh and subtree collision through the dual-tree iterator, and a ray onto a mesh

usage: meshes [--obj FILE.obj]

  --obj FILE   scatter the first mesh of an OBJ file too (it needs a triangle)

Exit status: 0; 1 for a file it cannot read or use; 2 for a command line it does
not understand.
";

fn main() -> ExitCode {
    run_main("meshes", HELP, parse, run)
}

/// The OBJ file given with `--obj`, if any.
fn parse(given: Vec<String>) -> Result<Option<PathBuf>, ArgError> {
    let mut obj = None;
    let mut args = Args::new(given);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Option(option) if option == "--obj" => obj = Some(args.path("--obj")?),
            Arg::Option(option) => return Err(ArgError::unknown(&option)),
            Arg::Help => {}
            Arg::Operand(operand) => {
                return Err(ArgError::Usage(format!(
                    "unexpected argument {operand:?}: give an OBJ file with --obj"
                )));
            }
        }
    }
    Ok(obj)
}

fn run(obj: Option<PathBuf>, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let (mut graph, root) = city::city(3, 3, city::DEFAULT_SEED);
    // Before the first mesh: meshes are geometry to every geometry actor.

    let mut pool = vec![
        ("sphere", Mesh::uv_sphere(4.0, 48, 24)?),
        ("torus", Mesh::torus(5.0, 1.5, 48, 16)?),
        ("box", Mesh::cuboid(Vec3::new(3.0, 2.0, 4.0))?),
    ];
    if let Some(path) = obj {
        let started = Instant::now();
        let (name, mesh) = first_mesh(&path)?;
        writeln!(
            out,
            "loaded {name:?} from {}: {}, a BVH of {}, in {}",
            path.display(),
            counted(mesh.geometry().primitives(), "triangle", "triangles"),
            counted(mesh.bvh().graph().len(), "node", "nodes"),
            duration(started.elapsed())
        )?;
        pool.push(("obj", mesh));
    }

    // A park of meshes along the streets (every node shares its mesh's data).
    let park = graph.append_child(root, Group)?;
    let mut rng = SplitMix64::new(7);
    for k in 0..60 {
        let (_, mesh) = &pool[k % pool.len()];
        let at = Vec3::new(rng.range_f32(0.0, 300.0), 5.0, 100.0 * rng.below(3) as f32);
        let spin = Quat::from_rotation_y(rng.range_f32(0.0, 6.3));
        let place = graph.append_child(park, Transform::from_trs(at, spin, Vec3::ONE))?;
        graph.append_child(place, mesh.clone())?;
    }
    // Two meshes put through each other on purpose, in two separate subtrees.
    let (ring, ball) = (&pool[1].1, &pool[0].1);
    let left = graph.append_child(
        root,
        Transform::from_translation(Vec3::new(50.0, 5.0, 50.0)),
    )?;
    graph.append_child(left, ring.clone())?;
    let right = graph.append_child(
        root,
        Transform::from_trs(
            Vec3::new(54.0, 5.0, 50.0),
            Quat::from_rotation_x(1.2),
            Vec3::splat(0.8),
        ),
    )?;
    graph.append_child(right, ball.clone())?;

    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Unordered::new(Statistics::new()),
            Ordered::new(Bounds::new()),
        ),
    )?;
    action.run(&graph, root)?;
    let world = action.actor::<WorldTransforms>().ok_or("no transforms")?;
    let bounds = action.actor::<Bounds>().ok_or("no bounds")?;
    let stats = action.actor::<Statistics>().ok_or("no statistics")?;
    writeln!(
        out,
        "city with {} nodes, {} of them meshes; world box {}",
        stats.nodes(),
        stats.count_of::<Mesh>(),
        Decimals::ONE.aabb(&bounds.table().world_bounds(&graph, root)?)
    )?;

    let mut collide = Collide::new();
    let line = report(
        "ring against ball",
        &mut collide,
        &graph,
        left,
        right,
        world,
        bounds,
    )?;
    writeln!(out, "{line}")?;
    let started = Instant::now();
    let contacts = collide.within(&graph, park, world, bounds, ContactMode::All)?;
    let touching: std::collections::BTreeSet<_> = contacts.iter().map(|c| (c.a, c.b)).collect();
    writeln!(
        out,
        "park: {} between {} of its 60 meshes, in {}",
        counted(contacts.len(), "triangle contact", "triangle contacts"),
        counted(touching.len(), "pair", "pairs"),
        duration(started.elapsed())
    )?;

    // A ray straight down onto the ring, in world coordinates.
    let ring_world = world
        .table()
        .world(&graph, graph.first_child(left)?.ok_or("no ring")?)?;
    let ray = Ray::new(Vec3::new(55.0, 50.0, 50.0), -Vec3::Y)?;
    match ring.ray_hit_world(&ray, &ring_world, f32::INFINITY) {
        Some(hit) => writeln!(
            out,
            "ray down at x = 55: hits ring triangle {} at {:.2} m, point {}",
            hit.triangle,
            hit.distance,
            Decimals(2).point(hit.point)
        )?,
        None => writeln!(out, "ray down at x = 55: misses the ring")?,
    }
    Ok(())
}

/// A line on the contacts between the subtrees `a` and `b`: the first, and all.
fn report(
    what: &str,
    collide: &mut Collide,
    graph: &scenewalk_core::Graph,
    a: NodeId,
    b: NodeId,
    world: &WorldTransforms,
    bounds: &Bounds,
) -> Result<String, Box<dyn Error>> {
    let started = Instant::now();
    let first = collide
        .subtrees(graph, a, b, world, bounds, ContactMode::First)?
        .first()
        .copied();
    let first_time = started.elapsed();
    let started = Instant::now();
    let all = collide
        .subtrees(graph, a, b, world, bounds, ContactMode::All)?
        .len();
    Ok(format!(
        "{what}: first contact: {} in {}; {} in {}",
        match first.and_then(|c| c.triangles) {
            Some(c) => format!("triangle {} against triangle {}", c.a, c.b),
            None => "none".into(),
        },
        duration(first_time),
        counted(all, "triangle contact", "triangle contacts"),
        duration(started.elapsed())
    ))
}
