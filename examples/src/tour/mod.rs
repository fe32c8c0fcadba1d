//! The tour: scenewalk's main job on the built-in city or on a glTF file, as the
//! `tour` example runs it. A file with an animation is first played as frames of the
//! frame loop ([`crate::frame`]); then the update, the view, picks and collisions run
//! on the scene as it stands, each checked against a brute-force or hand-written
//! computation, and an SVG picture ([`crate::svg`]) is written. See [`HELP`].

mod options;
mod picture;
mod play;
pub mod skinned;
mod surface;

pub use options::{Command, DEFAULT_FRAMES, HELP, Options, Source, default_svg_path, parse_args};

use crate::frame::{FrameTimes, PICKS, pick_ray};
use crate::passes::{self, update_action, view_action};
use crate::scene_baseline::{HandUpdate, HandView};
use crate::svg::{Projection, View};
use crate::text::{Decimals, counted, duration};
use crate::{CityMeshes, CityScene, city_scene};
use scenewalk_actors::{
    Bounds, BoundsTable, Collide, ContactMode, FrustumCull, Pick, RenderList, Statistics,
    WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, NodeIndex, Unordered};
use scenewalk_iterators::PriorityQueue;
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{
    Animation, AnimationPlayer, Camera, Geometry, Group, Mesh, Ray, SkinnedMesh, Transform,
};
use skinned::update_and_exact_box;
use std::collections::HashMap;
use std::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use surface::Surface;

/// What a tour did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The checks that failed, in words (empty when all passed).
    pub failed: Vec<String>,
    /// The frames played of the file's animation (empty without one).
    pub frames: Vec<PlayedFrame>,
    /// The scene's box as the jobs and the picture saw it (skinned meshes boxed from
    /// their joints by the update); `None` for a scene without geometry.
    pub scene_box: Option<Aabb>,
    /// Where the picture was written (`None`: nothing to draw).
    pub svg: Option<PathBuf>,
}

/// One frame of the animation played.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayedFrame {
    /// The animation time, in seconds.
    pub time: f32,
    /// The frame's phases; `edit` is the animation player's writes (the update
    /// boxes the skinned meshes from their joints).
    pub times: FrameTimes,
}

/// What the tour runs on.
struct Scene {
    graph: Graph,
    root: NodeId,
    /// The camera node, if the scene has one.
    camera: Option<NodeId>,
    /// Two meshes known to touch (the city's sculpture).
    sculpture: Option<(NodeId, NodeId)>,
    /// The file's first animation.
    animation: Option<Animation>,
    /// By primitive node, the name of the glTF node that holds it.
    names: HashMap<NodeId, String>,
}

/// A geometry node and its world box.
#[derive(Clone, Copy, Debug)]
struct Drawable {
    node: NodeId,
    /// Where it is drawn: the update's box (a skinned mesh's from its joints).
    world_box: Aabb,
    /// For a skinned mesh, its bind pose placed by its own node, which skinning
    /// ignores.
    bind_pose: Option<Aabb>,
}

/// Runs the tour, printing its report to `out`, and writes the picture.
///
/// Errors: the scene cannot be read or built, a pass fails, or `out` cannot be
/// written. Failed checks are not errors: they are in [`Outcome::failed`].
///
/// ```no_run
/// use scenewalk_examples::tour::{Options, Source, run};
/// let options = Options {
///     source: Source::File { path: "scene.gltf".into(), scene: None, frames: 30, time: None },
///     svg: Some(std::env::temp_dir().join("scene.svg")),
///     view: Default::default(),
///     rows: false,
/// };
/// let outcome = run(&options, &mut std::io::stdout())?;
/// assert_eq!(outcome.frames.len(), 30);
/// assert!(outcome.failed.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run(options: &Options, out: &mut dyn Write) -> Result<Outcome, Box<dyn Error>> {
    let mut outcome = Outcome::default();
    let mut section = 1;
    let mut scene = match &options.source {
        Source::City { blocks, obj } => city(*blocks, obj.as_deref(), out)?,
        Source::File {
            path,
            scene,
            frames,
            time,
        } => {
            let mut scene = gltf_scene(path, *scene, out)?;
            let mut player = scene.animation.take().map(AnimationPlayer::new);
            if time.is_some() && player.is_none() {
                return Err(
                    format!("--time poses an animation, and {} has none", path.display()).into(),
                );
            }
            if let Some(player) = &mut player {
                player.apply(&mut scene.graph, 0.0)?;
            }
            let has_geometry = aim(&mut scene, out)?;
            match player {
                Some(mut player) if has_geometry => {
                    play::play(
                        &mut scene,
                        &mut player,
                        play::Playing {
                            frames: *frames,
                            time: *time,
                            every_row: options.rows,
                        },
                        section,
                        out,
                        &mut outcome,
                    )?;
                    section += 1;
                }
                Some(_) => writeln!(
                    out,
                    "the scene has no geometry: its animation is not played\n"
                )?,
                None => {}
            }
            scene
        }
    };
    jobs(&mut scene, section, options, out, &mut outcome)?;
    Ok(outcome)
}

/// The update, view, pick and collide jobs on the scene as it stands, and the
/// picture.
fn jobs(
    scene: &mut Scene,
    section: usize,
    options: &Options,
    out: &mut dyn Write,
    outcome: &mut Outcome,
) -> Result<(), Box<dyn Error>> {
    let (graph, root) = (&scene.graph, scene.root);
    let failed = &mut outcome.failed;

    // Update.
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
    let drawables = drawables(graph, root, world, &bounds.table())?;
    let extent = drawables
        .iter()
        .fold(Aabb::EMPTY, |all, d| all.union(&d.world_box));
    writeln!(
        out,
        "{section}. update: world transforms + statistics + bounds, depth-first"
    )?;
    let counts: Vec<String> = statistics
        .counts_by_type()
        .into_iter()
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    writeln!(out, "   nodes by type: {}", counts.join(", "))?;
    let timing = format!(
        "   {update_ns:.1} ns/node; the same three jobs in one hand-written loop: \
         {hand_update_ns:.1} ns/node ({:.2}×){}\n",
        update_ns / hand_update_ns,
        fixed_costs(stats.entered)
    );
    if extent.is_empty() {
        writeln!(
            out,
            "   the scene has no geometry: nothing to view, pick, collide or draw\n{timing}"
        )?;
        return Ok(());
    }
    if !extent.is_finite() {
        return Err("the scene's box is not finite (a transform scales it out of range)".into());
    }
    outcome.scene_box = Some(extent);
    let units = Decimals::for_box(&extent);
    writeln!(out, "   world box {}", units.aabb(&extent))?;
    for d in &drawables {
        let Some(bind_pose) = d.bind_pose else {
            continue;
        };
        let joints = graph.get::<SkinnedMesh>(d.node)?.skin().joints().len();
        let (posed, exact) = update_and_exact_box(graph, d.node, &world.table(), &bounds.table())?;
        let holds = posed.union(&exact) == posed;
        writeln!(
            out,
            "   skinned mesh {}: boxed by the update from its {} at {} (its bind pose, \
             placed by its node, lies at {}); holds its exact skinned box {}: {}",
            scene.names.get(&d.node).map_or("(unnamed)", String::as_str),
            counted(joints, "joint", "joints"),
            units.aabb(&posed),
            units.aabb(&bind_pose),
            units.aabb(&exact),
            yes(holds)
        )?;
        if !holds {
            failed.push("the update's box of a skinned mesh does not hold its exact box".into());
        }
    }
    writeln!(out, "{timing}")?;

    // View.
    let camera = scene.camera.ok_or("the scene has no camera")?;
    let lens = *graph.get::<Camera>(camera)?;
    let placed = world.table().world(graph, camera)?;
    let frustum = lens.frustum(&placed);
    let eye = Vec3::from(placed.translation);
    let view_matrix = placed.inverse();
    let mut view = view_action(&frustum, &placed)?;
    let seen = view.run_with(graph, root, &results)?;
    let view_ns = per_node(
        || Ok(view.run_with(graph, root, &results).map(drop)?),
        seen.entered,
    )?;
    let mut hand_view = HandView::default();
    let hand_view_ns = per_node(
        || {
            let b = &hand_update.bounds;
            hand_view.run(graph, root.index(), &frustum, b, eye, &view_matrix);
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
    writeln!(
        out,
        "{}. view from the camera at {}: cull + LOD + switch + render list",
        section + 1,
        units.point(eye)
    )?;
    writeln!(
        out,
        "   {} of {} entered; {} tested, {}",
        seen.entered,
        counted(graph.len(), "node", "nodes"),
        counted(cull.tested(), "child box", "child boxes"),
        counted(
            cull.culled(),
            "culled with its subtree",
            "culled with their subtrees"
        )
    )?;
    writeln!(
        out,
        "   {} ({} opaque front to back, {} transparent back to front), {}, {}",
        counted(list.items().len(), "draw item", "draw items"),
        list.opaque().len(),
        list.transparent().len(),
        counted(triangles, "triangle", "triangles"),
        counted(list.lights().len(), "light", "lights")
    )?;
    let same = hand_view.items == list.items();
    writeln!(
        out,
        "   the hand-written loop draws the same list: {}",
        yes(same)
    )?;
    if !same {
        failed.push("the view's draw list differs from the hand-written loop's".into());
    }
    writeln!(
        out,
        "   {view_ns:.1} ns per entered node ({} a frame); hand-written loop \
         {hand_view_ns:.1} ns ({:.2}×){}\n",
        duration(Duration::from_secs_f64(view_ns * seen.entered as f64 / 1e9)),
        view_ns / hand_view_ns,
        fixed_costs(seen.entered)
    )?;

    // Pick.
    writeln!(
        out,
        "{}. pick: rays from the camera aimed at points on drawn triangles, priority order \
         by box entry distance (skinned meshes hit on their posed triangles)",
        section + 2
    )?;
    let surfaces = drawables
        .iter()
        .map(|d| Surface::of(graph, d.node, &world.table()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut pick = Action::new(
        PriorityQueue::new(),
        (Unordered::new(Pick::new(Ray::new(eye, Vec3::Z)?)),),
    )?;
    let forward = -Vec3::from(placed.z_axis);
    let aimed = aim_rays(&drawables, &surfaces, list.items(), &lens, &placed)?;
    let mut rays = Vec::new();
    let mut agreed = 0;
    for (k, ray) in aimed.into_iter().enumerate() {
        pick.actor_mut::<Pick>().ok_or("no pick")?.set_ray(ray);
        let started = Instant::now();
        let run = pick.run_with(graph, root, &results)?;
        let took = duration(started.elapsed());
        let hit = pick.actor::<Pick>().and_then(Pick::hit);
        let entered = counted(run.entered, "node", "nodes");
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
                writeln!(
                    out,
                    "   ray {k}: {ty} at {}{triangle}; {entered} entered, {how}, {took}",
                    units.length(hit.distance)
                )?;
            }
            None => writeln!(out, "   ray {k}: no hit; {entered} entered")?,
        }
        rays.push((ray, hit.map(|h| h.point)));
        let brute = surfaces
            .iter()
            .filter_map(|s| s.ray_hit(&ray))
            .reduce(f32::min);
        let agrees = match (brute, hit) {
            (None, None) => true,
            (Some(t), Some(h)) => (t - h.distance).abs() <= 1e-3 * (1.0 + t),
            _ => false,
        };
        agreed += usize::from(agrees);
    }
    let tested: usize = surfaces.iter().map(Surface::parts).sum();
    let hits = rays.iter().filter(|(_, hit)| hit.is_some()).count();
    writeln!(
        out,
        "   {hits} of {} hit; against brute force over {} (skinned meshes posed): {}",
        rays.len(),
        counted(tested, "triangle and box", "triangles and boxes"),
        if agreed == rays.len() {
            "all agree".to_string()
        } else {
            format!("{} of {} DIFFER", rays.len() - agreed, rays.len())
        }
    )?;
    if agreed != rays.len() {
        failed.push("a pick differs from brute force".into());
    }
    writeln!(out)?;

    // Collide.
    let mut collide = Collide::new();
    let contact = match scene.sculpture {
        Some((ring, ball)) => {
            let (a, b) = (graph.get::<Mesh>(ring)?, graph.get::<Mesh>(ball)?);
            let wa = world.table().world(graph, ring)?;
            let wb = world.table().world(graph, ball)?;
            let started = Instant::now();
            let all = collide.meshes(a, &wa, b, &wb, ContactMode::All).len();
            let all_took = duration(started.elapsed());
            let started = Instant::now();
            let first = collide
                .meshes(a, &wa, b, &wb, ContactMode::First)
                .first()
                .copied();
            let first_took = duration(started.elapsed());
            writeln!(
                out,
                "{}. collide: ring ({}) against ball ({}), dual-tree over their BVHs",
                section + 3,
                counted(a.geometry().primitives(), "triangle", "triangles"),
                counted(b.geometry().primitives(), "triangle", "triangles"),
            )?;
            let first_text = match first {
                Some(c) => format!("ring triangle {} against ball triangle {}", c.a, c.b),
                None => "none".into(),
            };
            writeln!(
                out,
                "   {} touch ({all_took}); first contact: {first_text} ({first_took})",
                counted(all, "triangle pair", "triangle pairs")
            )?;
            if all == 0 {
                failed.push("the lodged ball does not touch the ring".into());
            }
            first
                .and_then(|c| a.triangle(c.a))
                .map(|tri| wa.transform_point3((tri[0] + tri[1] + tri[2]) / 3.0))
        }
        None => {
            let started = Instant::now();
            let contacts = collide.within(graph, root, world, bounds, ContactMode::All)?;
            let triangle_pairs = contacts.iter().filter(|c| c.triangles.is_some()).count();
            let boxes = contacts.len() - triangle_pairs;
            writeln!(
                out,
                "{}. collide: every pair of geometry in the scene, dual-tree over the scene",
                section + 3
            )?;
            writeln!(
                out,
                "   {} between meshes, {} ({})",
                counted(
                    triangle_pairs,
                    "touching triangle pair",
                    "touching triangle pairs"
                ),
                counted(boxes, "box contact", "box contacts"),
                duration(started.elapsed())
            )?;
            contacts
                .first()
                .and_then(|c| world.table().world(graph, c.a).ok())
                .map(|w| Vec3::from(w.translation))
        }
    };
    writeln!(out)?;

    // The picture.
    let drawn: std::collections::HashSet<NodeIndex> =
        list.items().iter().map(|item| item.node).collect();
    let projection = match options.view {
        View::Camera => Projection::through(&lens, &placed),
        view => Projection::orthographic(view),
    };
    // With a model of the user's, the picture shows it: framed around the ball.
    let focus = match (&options.source, scene.sculpture) {
        (Source::City { obj: Some(_), .. }, Some((_, ball))) => {
            Some(bounds.table().world_bounds(graph, ball)?)
        }
        _ => None,
    };
    let title = format!(
        "scenewalk tour: {}, {}{}",
        counted(graph.len(), "node", "nodes"),
        projection.axes(),
        if focus.is_some() {
            ", framed around the OBJ model (the ball lodged in the sculpture's ring)"
        } else {
            ""
        }
    );
    let corners = lens.corners(&placed);
    let extras = picture::Extras {
        eye,
        forward,
        corners: corners.as_ref(),
        rays: &rays,
        contact,
        focus,
    };
    let picture = picture::draw(title, projection, &drawables, &surfaces, &drawn, &extras);
    let path = options.svg.clone().unwrap_or_else(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR");
        let folder = default_svg_path(target.as_deref(), std::env::current_exe().ok().as_deref());
        folder.with_file_name(picture_name(&options.source, options.view))
    });
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the folder {}: {e}", dir.display()))?;
    }
    std::fs::write(&path, picture.finish())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    writeln!(
        out,
        "picture ({} view) written to {}",
        options.view,
        path.display()
    )?;
    outcome.svg = Some(path);
    Ok(())
}

/// Every geometry node under `root` and where it is drawn: its box from the update
/// (a skinned mesh's own box, from its joints).
fn drawables(
    graph: &Graph,
    root: NodeId,
    world: &WorldTransforms,
    bounds: &BoundsTable,
) -> Result<Vec<Drawable>, Box<dyn Error>> {
    let mut found = Vec::new();
    let mut next = Some(root);
    while let Some(node) = next {
        if graph.get::<Geometry>(node).is_ok() {
            found.push(match graph.get::<SkinnedMesh>(node) {
                Ok(mesh) => Drawable {
                    node,
                    world_box: bounds
                        .skinned_at(node.index())
                        .ok_or("the update did not box a skinned mesh")?,
                    bind_pose: Some(
                        mesh.mesh()
                            .geometry()
                            .local_bounds()
                            .transformed(&world.table().world(graph, node)?),
                    ),
                },
                Err(_) => Drawable {
                    node,
                    world_box: bounds.world_bounds(graph, node)?,
                    bind_pose: None,
                },
            });
        }
        next = graph.next_preorder(node, root)?;
    }
    Ok(found)
}

/// Gives a scene without a camera one over its box, and says whether the scene has
/// geometry (without, there is nothing to aim at).
fn aim(scene: &mut Scene, out: &mut dyn Write) -> Result<bool, Box<dyn Error>> {
    let mut update = update_action()?;
    update.run(&scene.graph, scene.root)?;
    let world = update.actor::<WorldTransforms>().ok_or("no transforms")?;
    let bounds = update.actor::<Bounds>().ok_or("no bounds")?;
    let extent = drawables(&scene.graph, scene.root, world, &bounds.table())?
        .iter()
        .fold(Aabb::EMPTY, |all, d| all.union(&d.world_box));
    if extent.is_empty() || scene.camera.is_some() {
        return Ok(!extent.is_empty());
    }
    let (lens, placed) = overview_camera(&extent)?;
    let rig = scene
        .graph
        .append_child(scene.root, Transform::from_affine(placed))?;
    scene.camera = Some(scene.graph.append_child(rig, lens)?);
    writeln!(
        out,
        "no camera in the file: the tour adds one (a Transform and a Camera) looking at \
         the scene's box from above a corner\n"
    )?;
    Ok(true)
}

/// The first mesh of an OBJ file, with its name; refused unless it has a triangle.
#[cfg(feature = "obj")]
pub fn first_mesh(path: &Path) -> Result<(String, Mesh), Box<dyn Error>> {
    let mut meshes = scenewalk_nodes::load_obj(path)?;
    if meshes.is_empty() {
        return Err(format!("{} holds no mesh", path.display()).into());
    }
    let (name, mesh) = meshes.swap_remove(0);
    if mesh.geometry().primitives() == 0 {
        let path = path.display();
        return Err(format!("{path}: its first mesh, {name:?}, has no triangles").into());
    }
    Ok((name, mesh))
}

/// Without the `obj` feature there is no OBJ loader.
#[cfg(not(feature = "obj"))]
pub fn first_mesh(path: &Path) -> Result<(String, Mesh), Box<dyn Error>> {
    Err(format!(
        "{}: reading OBJ files needs the cargo feature `obj`",
        path.display()
    )
    .into())
}

/// The built-in city.
fn city(blocks: usize, obj: Option<&Path>, out: &mut dyn Write) -> Result<Scene, Box<dyn Error>> {
    let mut meshes = CityMeshes::generated()?;
    if let Some(path) = obj {
        let (name, mesh) = first_mesh(path)?;
        writeln!(
            out,
            "using {name:?} from {} ({}) as the ball",
            path.display(),
            counted(mesh.geometry().primitives(), "triangle", "triangles")
        )?;
        meshes.ball = fit(&mesh, 2.4)?;
    }
    let started = Instant::now();
    let city = CityScene::build(blocks, city_scene::DEFAULT_SEED, &meshes)?;
    writeln!(
        out,
        "scenewalk tour: a city of {0} × {0} blocks, {1} of {2}, built in {3:.1} ms\n",
        blocks,
        counted(city.graph.len(), "node", "nodes"),
        counted(city.graph.types().len(), "type", "types"),
        ms(started.elapsed())
    )?;
    Ok(Scene {
        graph: city.graph,
        root: city.root,
        camera: Some(city.camera),
        sculpture: Some(city.sculpture),
        animation: None,
        names: HashMap::new(),
    })
}

/// A glTF file's scene, its roots gathered under one group so one action covers it.
fn gltf_scene(
    path: &Path,
    scene: Option<usize>,
    out: &mut dyn Write,
) -> Result<Scene, Box<dyn Error>> {
    let started = Instant::now();
    let imported = import(path, &ImportOptions::default().with_scene(scene))
        .map_err(|e| crate::args::about_file(path, e))?;
    let took = ms(started.elapsed());
    let camera = imported
        .order
        .iter()
        .find_map(|&i| imported.node(i).and_then(|n| n.camera));
    let mut names = HashMap::new();
    for (index, node) in imported.nodes.iter().enumerate() {
        let Some(node) = node else { continue };
        let name = match &node.name {
            Some(name) => format!("{name:?} (glTF node {index})"),
            None => format!("of glTF node {index}"),
        };
        for &primitive in &node.primitives {
            names.insert(primitive, name.clone());
        }
    }
    let animation = imported.animations.first().cloned();
    let animations = imported.animations.len();
    let nodes = crate::inspect::node_counts(&imported);
    let mut graph = imported.graph;
    let root = graph.add_root(Group);
    for &r in &imported.roots {
        graph.set_parent(r, Some(root), None)?;
    }
    writeln!(
        out,
        "scenewalk tour: {} (scene {}), {nodes} (and a group over its roots), {}, \
         imported in {took:.1} ms\n",
        path.display(),
        imported.scene.map_or("none".into(), |s| s.to_string()),
        counted(animations, "animation", "animations"),
    )?;
    // Channels that import but do not move the scene, said under the header.
    let unplayed = crate::inspect::unplayed_lines(&imported.unplayed);
    if !unplayed.is_empty() {
        writeln!(out, "{}\n", unplayed.trim_start())?;
    }
    Ok(Scene {
        graph,
        root,
        camera,
        sculpture: None,
        animation,
        names,
    })
}

/// A camera over the scene's box, looking at its centre from above one corner.
fn overview_camera(extent: &Aabb) -> Result<(Camera, Affine3A), Box<dyn Error>> {
    let diagonal = extent.size().length().max(1e-6);
    let center = extent.center();
    let eye = center + Vec3::new(0.6, 0.5, 0.9).normalize() * 1.2 * diagonal;
    let placed = Camera::look_at(eye, center, Vec3::Y).ok_or("no view direction")?;
    let camera = Camera::perspective(0.9, 16.0 / 9.0, 1e-3 * diagonal, 10.0 * diagonal)?;
    Ok((camera, placed))
}

/// The picture's file name without `--svg`: `tour-` and the scene (`city`, with the
/// OBJ file's stem after it; a file's stem), then the view unless it is the top one.
///
/// ```
/// # use scenewalk_examples::tour::{Source, picture_name};
/// # use scenewalk_examples::svg::View;
/// let fox = Source::File { path: "a/Fox.gltf".into(), scene: None, frames: 60, time: None };
/// assert_eq!(picture_name(&fox, View::Top), "tour-Fox.svg");
/// let city = Source::City { blocks: 16, obj: Some("m/bunny.obj".into()) };
/// assert_eq!(picture_name(&city, View::Camera), "tour-city-bunny-camera.svg");
/// ```
pub fn picture_name(source: &Source, view: View) -> String {
    let stem = |p: &Path| {
        p.file_stem()
            .map_or("scene".into(), |s| s.to_string_lossy().into_owned())
    };
    let scene = match source {
        Source::City { obj: None, .. } => "city".to_string(),
        Source::City { obj: Some(obj), .. } => format!("city-{}", stem(obj)),
        Source::File { path, .. } => stem(path),
    };
    match view {
        View::Top => format!("tour-{scene}.svg"),
        view => format!("tour-{scene}-{view}.svg"),
    }
}

/// Five pick rays from the camera, aimed at points on the drawn geometry: the
/// draw list's items spread over it, and on each a triangle facing the camera, spread
/// over its triangles; a screen point of [`PICKS`] where nothing is drawn.
fn aim_rays(
    drawables: &[Drawable],
    surfaces: &[Surface],
    items: &[scenewalk_actors::DrawItem],
    lens: &Camera,
    placed: &Affine3A,
) -> Result<Vec<Ray>, Box<dyn Error>> {
    let eye = Vec3::from(placed.translation);
    let forward = -Vec3::from(placed.z_axis);
    let by_node: HashMap<NodeIndex, usize> = (drawables.iter().enumerate())
        .map(|(k, d)| (d.node.index(), k))
        .collect();
    let mut rays = Vec::new();
    for (k, &(x, y)) in PICKS.iter().enumerate() {
        let spread = (2 * k + 1) as f64 / (2 * PICKS.len()) as f64;
        let item = items.get((spread * items.len() as f64) as usize);
        let surface = item
            .and_then(|i| by_node.get(&i.node))
            .and_then(|&d| surfaces.get(d));
        let target = surface.and_then(|s| s.aim(spread, eye, forward));
        let ray = match target.and_then(|t| Ray::new(eye, t - eye).ok()) {
            Some(ray) => ray,
            None => pick_ray(lens, placed, x, y)?,
        };
        rays.push(ray);
    }
    Ok(rays)
}

/// The mesh scaled and centred to fit a cube of side `size`.
fn fit(mesh: &Mesh, size: f32) -> Result<Mesh, Box<dyn Error>> {
    let b = mesh.geometry().local_bounds();
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

/// Below this many nodes a run's fixed costs outweigh its per-node work.
const TINY: u64 = 1_000;

/// For a run over fewer than [`TINY`] nodes, a line saying its per-node figures
/// measure the fixed cost of a run, not per-node work (empty otherwise).
fn fixed_costs(nodes: u64) -> String {
    if nodes >= TINY {
        return String::new();
    }
    format!(
        "\n   ({}: a scene this small measures a run's fixed costs, not per-node work)",
        counted(nodes, "node", "nodes")
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn yes(ok: bool) -> &'static str {
    if ok { "yes" } else { "NO" }
}
