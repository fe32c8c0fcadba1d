//! The tour: builds a city (or loads nothing: every scene is generated), runs the
//! main actions on it and prints a short report.
//!
//! ```text
//! cargo run --release --example tour                 # the built-in 5 × 5 block city
//! cargo run --release --example tour -- --blocks 40  # a bigger city
//! ```

use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{
    Aabb, Action, ActiveList, Flow, Graph, NodeId, NodeIndex, Ordered, Static, StaticActor,
    Unordered, UnorderedActor, Visit,
};
use scenewalk_examples::city;
use scenewalk_iterators::{BreadthFirst, DepthFirst, PriorityQueue, SwitchRule};
use scenewalk_nodes::Geometry;
use std::error::Error;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    if let Err(err) = run() {
        eprintln!("tour: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let blocks = parse_blocks()?;
    let started = Instant::now();
    let (graph, root) = city::city(blocks, blocks, city::DEFAULT_SEED);
    let built = started.elapsed();
    println!("scenewalk tour: a city of {blocks} × {blocks} blocks");
    println!(
        "  built {} nodes in {:.1} ms ({} node types)\n",
        graph.len(),
        built.as_secs_f64() * 1e3,
        graph.types().len()
    );

    // 1. Depth-first: world transforms (ordered), statistics (unordered), bounds (visit).
    let mut main = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Unordered::new(Statistics::new()),
            Ordered::new(Bounds::new()),
        ),
    )?;
    let stats = main.run(&graph, root)?;
    let statistics = main
        .actor::<Statistics>()
        .ok_or("statistics actor missing")?;
    println!("depth-first: world transforms + statistics + bounds");
    println!(
        "  entered {} nodes, {} leave events, {} state copies (one per transform, per ordered actor)",
        stats.entered, stats.left, stats.state_copies
    );
    for (name, count) in statistics.counts_by_type() {
        println!("  {count:>8}  {}", short(name));
    }
    println!(
        "  leaves {}, max depth {}, nodes per depth {:?}",
        statistics.leaves(),
        statistics.max_depth().unwrap_or(0),
        statistics.depth_histogram()
    );
    let bounds = main
        .actor::<Bounds>()
        .and_then(|b| b.world_bounds(&graph, root))
        .ok_or("no bounds for the root")?;
    println!(
        "  world bounds {} .. {} (size {})",
        fmt(bounds.min),
        fmt(bounds.max),
        fmt(bounds.size())
    );
    let per_node = time_per_node(&mut main, &graph, root, stats.entered)?;
    let mut bare = Action::new(DepthFirst::new(), (Unordered::new(Count(0)),))?;
    let bare_per_node = time_per_node(&mut bare, &graph, root, stats.entered)?;
    println!(
        "  time per node: {per_node:.1} ns with these three actors, {bare_per_node:.1} ns with one counting actor (best of 5 runs)\n"
    );

    // 2. Front to back: priority order by distance to a camera, ordered state intact.
    let camera = Vec3::new(-50.0, 30.0, -50.0);
    let world_bounds = Arc::new(
        main.actor::<Bounds>()
            .cloned()
            .ok_or("bounds actor missing")?,
    );
    let near_first = |iterator: PriorityQueue| {
        Action::new(
            iterator,
            (
                Ordered::new(WorldTransforms::new()),
                Static::new(NearFirst {
                    camera,
                    bounds: Arc::clone(&world_bounds),
                }),
                Unordered::new(FirstGeometry {
                    camera,
                    bounds: Arc::clone(&world_bounds),
                    limit: 5,
                    found: Vec::new(),
                }),
            ),
        )
    };
    let mut pure = near_first(PriorityQueue::new())?;
    let front = pure.run(&graph, root)?;
    println!(
        "front to back from a camera at {}: priority order by distance",
        fmt(camera)
    );
    println!(
        "  entered {} nodes, {} state copies",
        front.entered, front.state_copies
    );
    if let Some(first) = pure.actor::<FirstGeometry>() {
        let distances: Vec<String> = first.found.iter().map(|(_, d)| format!("{d:.1}")).collect();
        println!("  first geometry reached at {} m", distances.join(", "));
    }
    let nearest = nearest_geometry(&graph, camera, &world_bounds);
    println!("  nearest geometry by brute force over all nodes: {nearest:.1} m");
    let mut hybrid = near_first(PriorityQueue::hybrid(SwitchRule::AtDepth(2)))?;
    let mixed = hybrid.run(&graph, root)?;
    println!(
        "  hybrid (by distance down to buildings, depth-first inside): {} nodes, {} state copies",
        mixed.entered, mixed.state_copies
    );
    println!();

    // 3. Breadth-first: statistics in batches, one actor call per level.
    let mut levels = Action::new(BreadthFirst::new(), (Unordered::new(Statistics::new()),))?;
    let batched = levels.run(&graph, root)?;
    println!(
        "breadth-first: statistics in {} batches for {} nodes ({} actor calls instead of {})",
        batched.batches, batched.entered, batched.chain_calls, batched.entered
    );
    Ok(())
}

/// Counts nodes: the cheapest actor, to show what the framework itself costs.
struct Count(u64);

impl UnorderedActor for Count {
    fn enter(&mut self, _visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

/// Keys each child by its closeness to the camera (nearer is a larger key).
struct NearFirst {
    camera: Vec3,
    bounds: Arc<Bounds>,
}

impl StaticActor for NearFirst {
    fn enter(&self, _visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        for i in 0..active.len() {
            let Some(node) = active.node(i) else { continue };
            active.set_key(i, -distance(self.camera, &self.bounds, node));
        }
        Flow::Continue
    }
}

/// Distance from `p` to the world box of `node`'s subtree (far away if it has none).
fn distance(p: Vec3, bounds: &Bounds, node: NodeIndex) -> f32 {
    bounds
        .world_bounds_at(node)
        .filter(|b| !b.is_empty())
        .map_or(f32::MAX, |b: Aabb| (p.clamp(b.min, b.max) - p).length())
}

/// The smallest distance from `camera` to any geometry node's world box, by checking
/// every node: what the front-to-back order should find first.
fn nearest_geometry(graph: &Graph, camera: Vec3, bounds: &Bounds) -> f32 {
    (0..graph.capacity() as u32)
        .map(NodeIndex::new)
        .filter(|&n| graph.get_at::<Geometry>(n).is_some())
        .map(|n| distance(camera, bounds, n))
        .fold(f32::MAX, f32::min)
}

/// Notes the first `limit` geometry nodes entered, with their distance to the camera.
struct FirstGeometry {
    camera: Vec3,
    bounds: Arc<Bounds>,
    limit: usize,
    found: Vec<(NodeId, f32)>,
}

impl UnorderedActor for FirstGeometry {
    fn begin(&mut self, _run: &scenewalk_core::RunContext<'_>) {
        self.found.clear();
    }
    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        if self.found.len() < self.limit && visit.get::<Geometry>().is_some() {
            let distance = distance(self.camera, &self.bounds, visit.node());
            self.found.push((visit.id(), distance));
        }
        Flow::Continue
    }
}

fn time_per_node<I, C>(
    action: &mut Action<I, C>,
    graph: &Graph,
    root: NodeId,
    nodes: u64,
) -> Result<f64, Box<dyn Error>>
where
    I: scenewalk_core::TraversalIterator,
    C: scenewalk_core::ActorChain,
{
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        action.run(graph, root)?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best * 1e9 / nodes.max(1) as f64)
}

fn parse_blocks() -> Result<usize, Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let mut blocks = city::DEFAULT_BLOCKS_X;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--blocks" => {
                let value = args.next().ok_or("--blocks needs a number")?;
                blocks = value
                    .parse()
                    .map_err(|_| format!("--blocks needs a whole number, not {value:?}"))?;
                if !(1..=1000).contains(&blocks) {
                    return Err("--blocks must be between 1 and 1000".into());
                }
            }
            "-h" | "--help" => {
                println!("usage: tour [--blocks N]   (a city of N × N blocks; default {blocks})");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)").into()),
        }
    }
    Ok(blocks)
}

fn short(type_name: &str) -> &str {
    type_name.rsplit("::").next().unwrap_or(type_name)
}

fn fmt(v: Vec3) -> String {
    format!("({:.1}, {:.1}, {:.1})", v.x, v.y, v.z)
}
