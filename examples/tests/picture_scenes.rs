//! On the shared set (`SCENEWALK_SCENES`, else `../shared/scenes` beside the
//! workspace): pictures of Fox and CesiumMan posed at several times, of Lantern and
//! of the Stanford bunny cover every projected triangle in every orthographic view
//! and stay under 2 MB; the tour's pictures of every glTF sample list no empty
//! legend line, and its rays, aimed at drawn triangles, hit and agree with brute
//! force over the posed triangles.

mod pictures;

use pictures::{covers, legend};
use scenewalk_actors::{IncrementalUpdate, WorldTable};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Graph, NodeId};
use scenewalk_examples::svg::{Picture, Projection, Style, View};
use scenewalk_examples::tour::{Options, Source, run};
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{AnimationPlayer, Group, Mesh, SkinnedMesh, load_obj};
use std::path::PathBuf;

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "../../nodes/tests/common/data.rs"]
mod data;
use data::scenes;

fn sample(name: &str) -> PathBuf {
    scenes()
        .join("gltf")
        .join(name)
        .join(format!("{name}.gltf"))
}

/// Every mesh triangle under `root` in world space, skinned meshes posed.
fn world_triangles(graph: &Graph, root: NodeId, world: &WorldTable) -> Vec<[Vec3; 3]> {
    let mut all = Vec::new();
    let mut next = Some(root);
    while let Some(node) = next {
        if let Ok(skinned) = graph.get::<SkinnedMesh>(node) {
            let mut matrices = Vec::new();
            (skinned.skin())
                .joint_matrices(|j| world.world(graph, j).ok(), &mut matrices)
                .unwrap();
            let posed: Vec<Vec3> = skinned.posed_positions(&matrices).unwrap().collect();
            for t in skinned.mesh().triangles() {
                all.push(t.map(|v| posed[v as usize]));
            }
        } else if let Ok(mesh) = graph.get::<Mesh>(node) {
            let placed = world.world(graph, node).unwrap();
            for k in 0..mesh.geometry().primitives() {
                all.push(
                    mesh.triangle(k)
                        .unwrap()
                        .map(|p| placed.transform_point3(p)),
                );
            }
        }
        next = graph.next_preorder(node, root).unwrap();
    }
    all
}

/// Draws `model` in every orthographic view; each picture covers it and stays
/// under 2 MB.
fn check_views(name: &str, model: &[[Vec3; 3]]) {
    for view in [View::Top, View::Front, View::Side] {
        let mut picture = Picture::new(name, Projection::orthographic(view));
        for &t in model {
            picture.triangle(t, Style::Visible);
        }
        let svg = picture.finish();
        assert!(svg.len() <= 2_000_000, "{name} {view}: {} bytes", svg.len());
        let checked = covers(&svg, &picture, model, 1.0);
        assert!(checked * 10 > model.len() * 9, "{name} {view}: {checked}");
    }
}

fn posed_views(name: &str, times: usize) {
    let imported = import(&sample(name), &ImportOptions::default()).unwrap();
    let mut graph = imported.graph;
    let root = graph.add_root(Group);
    for &r in &imported.roots {
        graph.set_parent(r, Some(root), None).unwrap();
    }
    let animation = imported.animations.first().cloned();
    let mut player = animation.map(AnimationPlayer::new);
    let mut update = IncrementalUpdate::new();
    for step in 0..times {
        if let Some(player) = &mut player {
            let t = player.animation().duration() * step as f32 / times.max(2) as f32;
            player.apply(&mut graph, t).unwrap();
        }
        update.run(&graph, root).unwrap();
        let world = update
            .results()
            .get::<WorldTable>("test", &graph, root.index())
            .unwrap();
        let model = world_triangles(&graph, root, &world);
        assert!(!model.is_empty(), "{name}");
        check_views(name, &model);
    }
}

#[test]
fn fox_and_cesium_man_posed_are_covered_in_every_view() {
    posed_views("Fox", 3);
    posed_views("CesiumMan", 3);
}

#[test]
fn lantern_is_covered_in_every_view() {
    posed_views("Lantern", 1);
}

#[test]
fn the_stanford_bunny_is_covered_in_every_view_under_two_megabytes() {
    let path = scenes().join("mesh/stanford-bunny.obj");
    let (_, mesh) = load_obj(&path).unwrap().into_iter().next().unwrap();
    let model: Vec<[Vec3; 3]> = (0..mesh.geometry().primitives())
        .map(|k| mesh.triangle(k).unwrap())
        .collect();
    assert!(model.len() > 60_000);
    check_views("bunny", &model);
}

#[test]
fn the_tours_of_every_sample_hit_what_they_aim_at_and_list_no_empty_legend_line() {
    let folder = scenes().join("gltf");
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 13, "{names:?}");
    for name in names {
        let svg_path = std::env::temp_dir().join(format!(
            "scenewalk-samples-{}-{name}.svg",
            std::process::id()
        ));
        let options = Options {
            source: Source::File {
                path: sample(&name),
                scene: None,
                frames: 3,
                time: None,
            },
            svg: Some(svg_path.clone()),
            rows: false,
            view: View::Top,
        };
        let mut text = Vec::new();
        let outcome = run(&options, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            outcome.failed.is_empty(),
            "{name}: {:?}\n{text}",
            outcome.failed
        );
        assert!(text.contains("5 of 5 hit;"), "{name}:\n{text}");
        assert!(text.contains("all agree"), "{name}:\n{text}");
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        let _ = std::fs::remove_file(&svg_path);
        assert!(svg.len() <= 2_000_000, "{name}: {} bytes", svg.len());
        let lines = legend(&svg);
        assert!(
            lines.iter().all(|l| !l.starts_with("0 ")),
            "{name}: {lines:?}"
        );
    }
}
