//! The tour: scenewalk's main job on a built-in city of about 56,000 nodes (or on a
//! glTF file): update, view (cull + LOD + switch + render list), picking and
//! collision, with a short report and an SVG top view. Run `tour --help`.

use scenewalk_actors::{
    Bounds, Collide, ContactMode, FrustumCull, LodSelect, Pick, RenderList, Statistics,
    SwitchSelect, WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, NodeIndex, Ordered, Static, Unordered};
use scenewalk_examples::passes::{self, update_action, view_action};
use scenewalk_examples::scene_baseline::{HandUpdate, HandView};
use scenewalk_examples::svg::{Style, TopView};
use scenewalk_examples::{CityMeshes, CityScene, Reached, city_scene};
use scenewalk_iterators::{DepthFirst, PriorityQueue};
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{Camera, Geometry, Group, Mesh, Ray, load_obj, ray_aabb, ray_triangle};
use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

const HELP: &str = "\
tour: scenewalk's main job on a built-in scene, or on a glTF file

usage: tour [--blocks N] [--obj FILE.obj] [--svg FILE.svg]
       tour FILE.gltf|FILE.glb [--scene N] [--svg FILE.svg]

Without a file it builds a city of N × N blocks (default 16: about 55,000 nodes of
nine node types: buildings with levels of detail, materials and glass, switched
rooftop signs, street lights, shared meshes, a sun and a camera). With a glTF file it
imports the file's scene (the default one, or --scene N) instead, viewed from the
file's first camera or, without one, from a camera placed over the scene's box.
On the scene it runs:

  1. update   world transforms + statistics + bounds (one depth-first action)
  2. view     frustum cull + level of detail + switch + render list from the camera
  3. pick     five rays through the camera, nearest hit first (priority order)
  4. collide  the city's sculpture: a ring against the ball lodged in it (BVH
              against BVH); for a file: every pair of touching geometry in the scene

It prints counts, checks results against brute-force or hand-written computations
(a failed check exits with 1), times each action per node against a hand-written
loop doing the same work, and writes an SVG top view (visible and culled objects,
the frustum, the pick rays and their hits) whose path it prints.

  --blocks N     city size (1..=200)
  --obj FILE     use the first mesh of an OBJ file for the lodged ball (scaled to fit)
  --scene N      the glTF scene to import
  --svg FILE     where to write the top view (default: target/tour.svg)
";

struct Options {
    blocks: usize,
    obj: Option<PathBuf>,
    gltf: Option<PathBuf>,
    scene: Option<usize>,
    svg: PathBuf,
}

/// What the tour runs on.
struct Scene {
    graph: Graph,
    root: NodeId,
    /// The camera node, if the scene has one.
    camera: Option<NodeId>,
    /// Two meshes known to touch (the city's sculpture).
    sculpture: Option<(NodeId, NodeId)>,
}

fn main() {
    if let Err(err) = run() {
        eprintln!("tour: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    run_with(&parse()?)
}

/// Runs the tour; a failed check is an error.
fn run_with(options: &Options) -> Result<(), Box<dyn Error>> {
    let mut failed = Vec::new();
    let scene = match &options.gltf {
        Some(path) => gltf_scene(path, options.scene)?,
        None => city(options)?,
    };
    let (graph, root) = (&scene.graph, scene.root);

    // 1. Update.
    let mut update = update_action()?;
    let stats = update.run(graph, root)?;
    let update_ns = per_node(|| Ok(update.run(graph, root).map(drop)?), stats.entered)?;
    let mut hand_update = HandUpdate::default();
    let hand_update_ns = per_node(
        || {
            hand_update.run(graph, root.index());
            Ok(())
        },
        stats.entered,
    )?;
    let statistics = update.actor::<Statistics>().ok_or("no statistics")?;
    let world = update.actor::<WorldTransforms>().ok_or("no transforms")?;
    let bounds = update.actor::<Bounds>().ok_or("no bounds")?;
    let results = passes::results(&update);
    let extent = bounds.world_bounds(graph, root)?;
    println!("1. update: world transforms + statistics + bounds, depth-first");
    let counts: Vec<String> = statistics
        .counts_by_type()
        .into_iter()
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    println!("   {}", counts.join(", "));
    println!("   world box {} .. {}", fmt(extent.min), fmt(extent.max));
    println!(
        "   {update_ns:.1} ns/node; the same three jobs in one hand-written loop: \
         {hand_update_ns:.1} ns/node ({:.2}×)\n",
        update_ns / hand_update_ns
    );
    if extent.is_empty() || !extent.is_finite() {
        return Err("the scene has no finite geometry to look at".into());
    }

    // 2. View.
    let (camera, camera_world) = match scene.camera {
        Some(node) => (*graph.get::<Camera>(node)?, world.world(graph, node)?),
        None => overview_camera(&extent)?,
    };
    let frustum = camera.frustum(&camera_world);
    let eye = Vec3::from(camera_world.translation);
    let view_matrix = camera_world.inverse();
    let mut view = view_action(&frustum, &camera_world)?;
    let seen = view.run_with(graph, root, &results)?;
    let view_ns = per_node(
        || Ok(view.run_with(graph, root, &results).map(drop)?),
        seen.entered,
    )?;
    let mut hand_view = HandView::default();
    let hand_view_ns = per_node(
        || {
            hand_view.run(
                graph,
                root.index(),
                &frustum,
                &hand_update.bounds,
                eye,
                &view_matrix,
            );
            Ok(())
        },
        seen.entered,
    )?;
    let cull = view.actor::<FrustumCull>().ok_or("no cull")?;
    let list = view.actor::<RenderList>().ok_or("no render list")?;
    let triangles: u64 = list
        .items()
        .iter()
        .map(|i| u64::from(i.geometry.primitives()))
        .sum();
    println!(
        "2. view from the camera at {}: cull + LOD + switch + render list",
        fmt(eye)
    );
    println!(
        "   {} of {} nodes entered; {} child boxes tested, {} culled with their subtrees",
        seen.entered,
        graph.len(),
        cull.tested(),
        cull.culled()
    );
    println!(
        "   {} draw items ({} opaque front to back, {} transparent back to front), \
         {triangles} triangles, {} lights",
        list.items().len(),
        list.opaque().len(),
        list.transparent().len(),
        list.lights().len()
    );
    let same = hand_view.items == list.items();
    println!(
        "   the hand-written loop draws the same list: {}",
        yes(same)
    );
    if !same {
        failed.push("the view's draw list differs from the hand-written loop's");
    }
    println!(
        "   {view_ns:.1} ns per entered node ({:.0} µs a frame); hand-written loop \
         {hand_view_ns:.1} ns ({:.2}×)\n",
        view_ns * seen.entered as f64 / 1e3,
        view_ns / hand_view_ns
    );

    // 3. Pick.
    let mut top = TopView::new(format!(
        "scenewalk tour: {} nodes, top view (x right, z down)",
        graph.len()
    ));
    let dot = 0.005 * extent.size().max_element();
    println!("3. pick: rays through the camera, priority order by box entry distance");
    let inverse = (camera.projection_matrix() * Camera::view_matrix(&camera_world)).inverse();
    let far = camera
        .corners(&camera_world)
        .map_or(extent.size().length(), |c| (c[4] - eye).length());
    let mut pick = Action::new(
        PriorityQueue::new(),
        (Unordered::new(Pick::new(Ray::new(eye, Vec3::Z)?)),),
    )?;
    let points = [
        (0.0, -0.2),
        (-0.5, -0.3),
        (0.5, -0.3),
        (-0.2, -0.6),
        (0.3, -0.1),
    ];
    for (k, (x, y)) in points.into_iter().enumerate() {
        let near = inverse.project_point3(Vec3::new(x, y, 0.0));
        let ray = Ray::new(near, inverse.project_point3(Vec3::new(x, y, 0.5)) - near)?;
        pick.actor_mut::<Pick>().ok_or("no pick")?.set_ray(ray);
        let started = Instant::now();
        let run = pick.run_with(graph, root, &results)?;
        let took = ms(started);
        let hit = pick.actor::<Pick>().and_then(Pick::hit);
        match hit {
            Some(hit) => {
                let ty = graph
                    .type_at(hit.node)
                    .map_or("?", |t| graph.types().name(t));
                let triangle = hit
                    .triangle
                    .map_or(String::new(), |t| format!(", triangle {t}"));
                let how = if run.stopped {
                    "stopped early"
                } else {
                    "ran to the end"
                };
                println!(
                    "   ray {k}: {ty} at {:.2}{triangle}; {} nodes entered, {how}, {took:.2} ms",
                    hit.distance, run.entered
                );
                top.line(ray.origin(), hit.point, Style::Ray);
                top.dot(hit.point, dot, Style::Hit);
            }
            None => {
                println!("   ray {k}: no hit; {} nodes entered", run.entered);
                top.line(ray.origin(), ray.at(far), Style::Ray);
            }
        }
        if k == 0 {
            let (brute, tested) = brute_force_pick(graph, world, &ray);
            let agrees = match (brute, hit) {
                (None, None) => true,
                (Some(t), Some(h)) => (t - h.distance).abs() <= 1e-3 * (1.0 + t),
                _ => false,
            };
            println!(
                "   ray 0 against brute force over {tested} triangles and boxes: {}",
                yes(agrees)
            );
            if !agrees {
                failed.push("the first pick differs from brute force");
            }
        }
    }
    println!();

    // 4. Collide.
    let mut collide = Collide::new();
    match scene.sculpture {
        Some((ring, ball)) => {
            let (a, b) = (graph.get::<Mesh>(ring)?, graph.get::<Mesh>(ball)?);
            let wa = world.world(graph, ring)?;
            let wb = world.world(graph, ball)?;
            let started = Instant::now();
            let all = collide.meshes(a, &wa, b, &wb, ContactMode::All).len();
            let all_ms = ms(started);
            let started = Instant::now();
            let first = collide
                .meshes(a, &wa, b, &wb, ContactMode::First)
                .first()
                .copied();
            let first_ms = ms(started);
            println!(
                "4. collide: ring ({} triangles) against ball ({} triangles), dual-tree over their BVHs",
                a.triangle_count(),
                b.triangle_count()
            );
            println!(
                "   {all} triangle pairs touch ({all_ms:.2} ms); first contact {first:?} \
                 ({first_ms:.3} ms)"
            );
            if all == 0 {
                failed.push("the lodged ball does not touch the ring");
            }
            if let Some(tri) = first.and_then(|c| a.triangle(c.a)) {
                let at = wa.transform_point3((tri[0] + tri[1] + tri[2]) / 3.0);
                top.dot(at, 1.5 * dot, Style::Contact);
            }
        }
        None => {
            let started = Instant::now();
            let contacts = collide.within(graph, root, world, bounds, ContactMode::All)?;
            let triangle_pairs = contacts.iter().filter(|c| c.triangles.is_some()).count();
            let boxes = contacts.len() - triangle_pairs;
            println!("4. collide: every pair of geometry in the scene, dual-tree over the scene");
            println!(
                "   {triangle_pairs} touching triangle pairs between meshes, {boxes} box contacts \
                 ({:.2} ms)",
                ms(started)
            );
            if let Some(c) = contacts.first() {
                let at = world.world(graph, c.a).map(|w| Vec3::from(w.translation));
                top.dot(at.unwrap_or(eye), 1.5 * dot, Style::Contact);
            }
        }
    }
    println!();

    // The top view.
    let mut marked = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(FrustumCull::new(frustum)),
            Static::new(LodSelect::new(eye)),
            Static::new(SwitchSelect),
            Unordered::new(Reached::default()),
        ),
    )?;
    marked.run_with(graph, root, &results)?;
    let entered = marked.actor::<Reached>().ok_or("no record")?;
    for object in objects(graph, root, 4_000) {
        if let Ok(b) = bounds.world_bounds(graph, object) {
            let style = if entered.contains(object) {
                Style::Visible
            } else {
                Style::Culled
            };
            top.rect(&b, style);
        }
    }
    if let Some(corners) = camera.corners(&camera_world) {
        top.hull(&corners, Style::Frustum);
    }
    top.legend(Style::Visible, "objects the view pass entered");
    top.legend(
        Style::Culled,
        "objects culled (outside the frustum, or LOD beyond draw distance)",
    );
    top.legend(Style::Frustum, "the camera's view frustum");
    top.legend(Style::Hit, "pick rays and their nearest hits");
    top.legend(Style::Contact, "a collision contact");
    if let Some(dir) = options.svg.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&options.svg, top.finish())
        .map_err(|e| format!("cannot write {}: {e}", options.svg.display()))?;
    println!("top view written to {}", options.svg.display());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("checks failed: {}", failed.join("; ")).into())
    }
}

/// The built-in city.
fn city(options: &Options) -> Result<Scene, Box<dyn Error>> {
    let mut meshes = CityMeshes::generated()?;
    if let Some(path) = &options.obj {
        let (name, mesh) = load_obj(path)?
            .into_iter()
            .next()
            .ok_or_else(|| format!("{} holds no mesh", path.display()))?;
        println!(
            "using {name:?} from {} ({} triangles) as the ball",
            path.display(),
            mesh.triangle_count()
        );
        meshes.ball = fit(&mesh, 2.4)?;
    }
    let started = Instant::now();
    let city = CityScene::build(options.blocks, city_scene::DEFAULT_SEED, &meshes)?;
    println!(
        "scenewalk tour: a city of {0} × {0} blocks, {1} nodes of {2} types, built in {3:.1} ms\n",
        options.blocks,
        city.graph.len(),
        city.graph.types().len(),
        ms(started)
    );
    Ok(Scene {
        graph: city.graph,
        root: city.root,
        camera: Some(city.camera),
        sculpture: Some(city.sculpture),
    })
}

/// A glTF file's scene, its roots gathered under one group so one action covers it.
fn gltf_scene(path: &std::path::Path, scene: Option<usize>) -> Result<Scene, Box<dyn Error>> {
    let started = Instant::now();
    let imported = import(path, &ImportOptions::default().with_scene(scene))?;
    let took = ms(started);
    let camera = imported
        .order
        .iter()
        .find_map(|&i| imported.node(i).and_then(|n| n.camera));
    let mut graph = imported.graph;
    let root = graph.add_root(Group);
    for &r in &imported.roots {
        graph.set_parent(r, Some(root), None)?;
    }
    println!(
        "scenewalk tour: {} (scene {}), {} nodes of {} types, imported in {took:.1} ms\n",
        path.display(),
        imported.scene.map_or("none".into(), |s| s.to_string()),
        graph.len(),
        graph.types().len()
    );
    Ok(Scene {
        graph,
        root,
        camera,
        sculpture: None,
    })
}

/// A camera over the scene's box, looking at its centre from above one corner.
fn overview_camera(extent: &Aabb) -> Result<(Camera, Affine3A), Box<dyn Error>> {
    let diagonal = extent.size().length().max(1e-3);
    let center = extent.center();
    let eye = center + Vec3::new(0.6, 0.5, 0.9).normalize() * 1.2 * diagonal;
    let placed = Camera::look_at(eye, center, Vec3::Y).ok_or("no view direction")?;
    let camera = Camera::perspective(0.9, 16.0 / 9.0, 1e-3 * diagonal, 10.0 * diagonal)?;
    Ok((camera, placed))
}

/// The nodes of the deepest level that has at most `most` nodes: objects to draw.
fn objects(graph: &Graph, root: NodeId, most: usize) -> Vec<NodeId> {
    let mut level = vec![root];
    loop {
        let next: Vec<NodeId> = level
            .iter()
            .flat_map(|&n| graph.children(n).into_iter().flatten())
            .collect();
        if next.is_empty() || next.len() > most {
            return level;
        }
        level = next;
    }
}

/// The nearest hit by testing every mesh triangle and plain geometry box of the
/// graph, placed by the update's world matrices; and how many it tested.
fn brute_force_pick(graph: &Graph, world: &WorldTransforms, ray: &Ray) -> (Option<f32>, u64) {
    let mut best: Option<f32> = None;
    let mut tested = 0;
    for slot in 0..graph.capacity() as u32 {
        let node = NodeIndex::new(slot);
        let Some(placed) = world.world_at(node) else {
            continue;
        };
        let hit = if let Some(mesh) = graph.get_at::<Mesh>(node) {
            tested += u64::from(mesh.triangle_count());
            (0..mesh.triangle_count())
                .filter_map(|k| {
                    let corners = mesh.triangle(k)?.map(|p| placed.transform_point3(p));
                    ray_triangle(ray, &corners).map(|(t, _, _)| t)
                })
                .reduce(f32::min)
        } else if let Some(g) = graph.get_at::<Geometry>(node) {
            tested += 1;
            ray_aabb(ray, &g.local_bounds().transformed(&placed), f32::INFINITY)
        } else {
            None
        };
        if let Some(t) = hit {
            best = Some(best.map_or(t, |b: f32| b.min(t)));
        }
    }
    (best, tested)
}

/// The mesh scaled and centred to fit a cube of side `size`.
fn fit(mesh: &Mesh, size: f32) -> Result<Mesh, Box<dyn Error>> {
    let b = mesh.local_bounds();
    let scale = size / b.size().max_element().max(f32::MIN_POSITIVE);
    let to = Affine3A::from_scale(Vec3::splat(scale)) * Affine3A::from_translation(-b.center());
    let positions = mesh
        .positions()
        .iter()
        .map(|&p| to.transform_point3(p))
        .collect();
    Ok(Mesh::new(positions, mesh.triangles().to_vec())?)
}

/// The best of five runs, in ns per node.
fn per_node(
    mut run: impl FnMut() -> Result<(), Box<dyn Error>>,
    nodes: u64,
) -> Result<f64, Box<dyn Error>> {
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        run()?;
        best = best.min(start.elapsed().as_secs_f64());
    }
    Ok(best * 1e9 / nodes.max(1) as f64)
}

fn parse() -> Result<Options, Box<dyn Error>> {
    let mut options = Options {
        blocks: city_scene::DEFAULT_BLOCKS,
        obj: None,
        gltf: None,
        scene: None,
        svg: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/tour.svg"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--blocks" => {
                let value = args.next().ok_or("--blocks needs a number")?;
                options.blocks = value
                    .parse()
                    .map_err(|_| format!("--blocks needs a whole number, not {value:?}"))?;
                if !(1..=200).contains(&options.blocks) {
                    return Err("--blocks must be between 1 and 200".into());
                }
            }
            "--scene" => {
                let value = args.next().ok_or("--scene needs a number")?;
                let scene = value
                    .parse()
                    .map_err(|_| format!("--scene needs a whole number, not {value:?}"))?;
                options.scene = Some(scene);
            }
            "--obj" => options.obj = Some(args.next().ok_or("--obj needs a file")?.into()),
            "--svg" => options.svg = args.next().ok_or("--svg needs a file")?.into(),
            "-h" | "--help" => {
                print!("{HELP}");
                std::process::exit(0);
            }
            other if other.starts_with('-') => {
                return Err(format!("unknown option {other:?} (try --help)").into());
            }
            file if options.gltf.is_none() => options.gltf = Some(file.into()),
            extra => return Err(format!("one scene file at a time, not also {extra:?}").into()),
        }
    }
    if options.scene.is_some() && options.gltf.is_none() {
        return Err("--scene chooses a scene of a glTF file; give the file too".into());
    }
    Ok(options)
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn yes(ok: bool) -> &'static str {
    if ok { "yes" } else { "NO" }
}

fn fmt(v: Vec3) -> String {
    format!("({:.1}, {:.1}, {:.1})", v.x, v.y, v.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(svg: &std::path::Path) -> Options {
        Options {
            blocks: 3,
            obj: None,
            gltf: None,
            scene: None,
            svg: svg.to_path_buf(),
        }
    }

    #[test]
    fn the_tour_runs_and_its_checks_pass_on_a_small_city() {
        let svg = std::env::temp_dir().join(format!("scenewalk-tour-{}.svg", std::process::id()));
        run_with(&options(&svg)).unwrap();
        let written = std::fs::read_to_string(&svg).unwrap();
        assert!(written.contains("<polygon") && written.contains("<rect"));
        let _ = std::fs::remove_file(svg);
    }

    #[test]
    fn the_tour_runs_on_a_gltf_file_without_a_camera() {
        let dir = std::env::temp_dir();
        let gltf = dir.join(format!("scenewalk-tour-{}.gltf", std::process::id()));
        let svg = dir.join(format!("scenewalk-tour-gltf-{}.svg", std::process::id()));
        // Two unit boxes' worth of POSITION bounds (no buffer data needed for a
        // point primitive's declared box), one moved by a TRS node.
        let json = r#"{
          "asset": {"version": "2.0"},
          "scene": 0,
          "scenes": [{"nodes": [0, 1]}],
          "nodes": [
            {"mesh": 0},
            {"mesh": 0, "translation": [3, 0, 0]}
          ],
          "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 0}]}],
          "accessors": [{"componentType": 5126, "count": 1, "type": "VEC3",
                         "min": [0, 0, 0], "max": [1, 1, 1]}]
        }"#;
        std::fs::write(&gltf, json).unwrap();
        let mut options = options(&svg);
        options.gltf = Some(gltf.clone());
        run_with(&options).unwrap();
        let _ = std::fs::remove_file(gltf);
        let _ = std::fs::remove_file(svg);
    }
}
