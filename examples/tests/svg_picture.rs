//! The pictures: they keep a model's proportions at any scale, are framed around the
//! model (not rays or the frustum), draw what covers every projected triangle of the
//! model in every view, stay under about 2 MB for large meshes, and list in their
//! legend only what they show.

mod pictures;

use pictures::{area, covers, drawn, legend};
use scenewalk_actors::WorldTransforms;
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{Aabb, Action, Ordered};
use scenewalk_examples::svg::{MAX_TRIANGLES, Picture, Projection, Style, View};
use scenewalk_examples::tour::{Options, Source, run};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{Camera, Mesh};
use std::path::Path;

fn top(title: &str) -> Picture {
    Picture::new(title, Projection::orthographic(View::Top))
}

/// Where box `inner`'s min corner and size land, as fractions of box `outer`'s.
fn placed(picture: &Picture, outer: &Aabb, inner: &Aabb) -> [f64; 4] {
    let at = |p: Vec3| picture.pixel(p).unwrap();
    let (o0, o1) = (at(outer.min), at(outer.max));
    let (i0, i1) = (at(inner.min), at(inner.max));
    let size = o1 - o0;
    let f = (i0 - o0) / size;
    let s = (i1 - i0) / size;
    [f.x, f.y, s.x, s.y]
}

fn close(a: [f64; 4], b: [f64; 4]) -> bool {
    a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-3)
}

#[test]
fn a_model_seven_thousandths_of_a_unit_across_keeps_its_proportions() {
    let outer = Aabb::new(Vec3::ZERO, Vec3::new(0.007, 0.001, 0.007));
    let inner = Aabb::new(
        Vec3::new(0.0035, 0.0, 0.00175),
        Vec3::new(0.007, 0.001, 0.0035),
    );
    let mut picture = top("tiny");
    picture.cuboid(&outer, Style::Visible);
    picture.cuboid(&inner, Style::Culled);
    let got = placed(&picture, &outer, &inner);
    assert!(close(got, [0.5, 0.25, 0.5, 0.25]), "{got:?}");
    let svg = picture.finish();
    // The outer box's top fills the picture but for its margin.
    let (_, size) = area(&svg);
    let span = picture.pixel(outer.max).unwrap() - picture.pixel(outer.min).unwrap();
    assert!(span.x > 0.9 * size.x, "{span} of {size}");
}

#[test]
fn a_model_far_from_the_origin_keeps_its_proportions() {
    let at = Vec3::new(1.0e6, 0.0, -1.0e6);
    let outer = Aabb::new(at, at + Vec3::ONE);
    let inner = Aabb::new(at + Vec3::new(0.5, 0.0, 0.5), at + Vec3::ONE);
    let mut picture = top("far");
    picture.cuboid(&outer, Style::Visible);
    picture.cuboid(&inner, Style::Culled);
    let got = placed(&picture, &outer, &inner);
    assert!(close(got, [0.5, 0.5, 0.5, 0.5]), "{got:?}");
}

#[test]
fn the_picture_is_framed_around_the_model_not_the_rays_or_the_frustum() {
    let model = Aabb::new(Vec3::ZERO, Vec3::splat(2.0));
    let mut picture = top("framed");
    picture.cuboid(&model, Style::Visible);
    let far = [
        Vec3::new(-5.0, 0.0, 10.0),
        Vec3::new(-2000.0, 0.0, -2000.0),
        Vec3::new(2000.0, 0.0, -2000.0),
    ];
    picture.outline(&far, Style::Frustum);
    picture.line(
        Vec3::new(1.0, 0.0, 10.0),
        Vec3::new(1.0, 0.0, -3000.0),
        Style::Ray,
    );
    let span = picture.pixel(model.max).unwrap() - picture.pixel(model.min).unwrap();
    let svg = picture.finish();
    let (_, size) = area(&svg);
    assert!(span.x >= 0.8 * size.x, "the model spans {span} of {size}");
    // The frustum is an outline, not a filled background.
    assert!(svg.contains(".frustum{fill:none"), "{svg}");
}

/// A torus and a sphere through it, turned, as world triangles.
fn sculpture() -> Vec<[Vec3; 3]> {
    let ring = Mesh::torus(3.0, 0.8, 48, 16).unwrap();
    let ball = Mesh::uv_sphere(1.5, 24, 12).unwrap();
    let turn = Affine3A::from_rotation_translation(Quat::from_rotation_x(0.7), Vec3::Y);
    let beside = Affine3A::from_translation(Vec3::new(2.5, 1.0, 0.5));
    let mut all = Vec::new();
    for (mesh, placed) in [(&ring, turn), (&ball, beside)] {
        for k in 0..mesh.geometry().primitives() {
            all.push(
                mesh.triangle(k)
                    .unwrap()
                    .map(|p| placed.transform_point3(p)),
            );
        }
    }
    all
}

#[test]
fn what_is_drawn_covers_every_projected_triangle_in_every_view() {
    let model = sculpture();
    let camera = Camera::perspective(0.9, 1.5, 0.1, 100.0).unwrap();
    let placed = Camera::look_at(Vec3::new(6.0, 5.0, 9.0), Vec3::ZERO, Vec3::Y).unwrap();
    let projections = View::ALL.map(|view| match view {
        View::Camera => Projection::through(&camera, &placed),
        view => Projection::orthographic(view),
    });
    for projection in projections {
        let mut picture = Picture::new("sculpture", projection);
        for &t in &model {
            picture.triangle(t, Style::Visible);
        }
        let svg = picture.finish();
        let checked = covers(&svg, &picture, &model, 1.0);
        assert!(checked > model.len() / 2, "{checked} of {}", model.len());
        // Hidden triangles are left out: fewer are drawn than the model has.
        let written = drawn(&svg).len();
        assert!(written < model.len(), "{:?}: {written}", projection.view());
    }
}

/// The meshes of the repository's `scene.gltf`, placed: world triangles.
fn readme_scene() -> (Vec<[Vec3; 3]>, Camera, Affine3A) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scene.gltf");
    let imported = import(&path, &ImportOptions::default()).unwrap();
    let graph = &imported.graph;
    let mut update =
        Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
    let mut triangles = Vec::new();
    let mut camera = None;
    for &root in &imported.roots {
        update.run(graph, root).unwrap();
        let table = update.actor::<WorldTransforms>().unwrap().table();
        let mut next = Some(root);
        while let Some(node) = next {
            let world = table.world(graph, node).unwrap();
            if let Ok(mesh) = graph.get::<Mesh>(node) {
                for k in 0..mesh.geometry().primitives() {
                    triangles.push(mesh.triangle(k).unwrap().map(|p| world.transform_point3(p)));
                }
            }
            if let Ok(lens) = graph.get::<Camera>(node) {
                camera = Some((*lens, world));
            }
            next = graph.next_preorder(node, root).unwrap();
        }
    }
    let (lens, world) = camera.expect("scene.gltf has a camera");
    (triangles, lens, world)
}

#[test]
fn the_readme_scene_is_covered_in_every_view_including_its_camera() {
    let (model, lens, placed) = readme_scene();
    assert!(!model.is_empty());
    for view in View::ALL {
        let projection = match view {
            View::Camera => Projection::through(&lens, &placed),
            view => Projection::orthographic(view),
        };
        let mut picture = Picture::new("scene.gltf", projection);
        for &t in &model {
            picture.triangle(t, Style::Visible);
        }
        let svg = picture.finish();
        let checked = covers(&svg, &picture, &model, 1.0);
        assert!(checked > 0, "{view}");
    }
}

/// A wavy sheet of `n` × `n` squares (2n² triangles) over 10 × 10 units.
fn sheet(n: usize) -> Vec<[Vec3; 3]> {
    let at = |i: usize, j: usize| {
        let (x, z) = (i as f32 / n as f32 * 10.0, j as f32 / n as f32 * 10.0);
        Vec3::new(x, (x * 1.3).sin() * (z * 0.7).cos(), z)
    };
    let mut all = Vec::with_capacity(2 * n * n);
    for i in 0..n {
        for j in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            all.push([a, b, c]);
            all.push([a, c, d]);
        }
    }
    all
}

#[test]
fn a_large_mesh_stays_under_two_megabytes_and_still_covers_its_outline() {
    let model = sheet(200); // 80,000 triangles, about 12 pixels each
    for view in [View::Top, View::Front] {
        let mut picture = Picture::new("sheet", Projection::orthographic(view));
        for &t in &model {
            picture.triangle(t, Style::Visible);
        }
        let svg = picture.finish();
        assert!(svg.len() <= 2_000_000, "{view}: {} bytes", svg.len());
        // Each triangle (or cell square) written starts with an M.
        let written: usize = (svg.split("<path class=\"").skip(1))
            .map(|p| p.split(" d=\"").nth(1).unwrap().matches('M').count())
            .sum();
        assert!(written <= MAX_TRIANGLES, "{view}: {written}");
        // Merged into cells a few pixels across: covered to within one such cell.
        assert!(pictures::cell(&svg) > 1.0);
        let checked = covers(&svg, &picture, &model, 1.0);
        assert!(checked > model.len() / 2, "{view}: {checked}");
    }
}

#[test]
fn the_legend_lists_only_what_the_picture_shows() {
    let mut picture = top("legend");
    picture.cuboid(&Aabb::new(Vec3::ZERO, Vec3::ONE), Style::Visible);
    // A dot far off the frame is not shown (the frame is around the triangles).
    picture.dot(Vec3::splat(1e4), Style::Contact);
    picture.legend(Style::Visible, "a box");
    picture.legend(Style::Culled, "0 objects it does not draw");
    picture.legend(Style::Contact, "a contact");
    picture.legend(Style::Hit, "hits");
    let svg = picture.finish();
    assert_eq!(legend(&svg), ["a box"]);
}

#[test]
fn the_tour_of_the_readme_scene_draws_an_outline_a_camera_and_no_empty_legend() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scene.gltf");
    for view in View::ALL {
        let svg_path =
            std::env::temp_dir().join(format!("scenewalk-svg-{}-{view}.svg", std::process::id()));
        let options = Options {
            source: Source::File {
                path: path.clone(),
                scene: None,
                frames: 2,
                time: None,
            },
            svg: Some(svg_path.clone()),
            rows: false,
            view,
        };
        let outcome = run(&options, &mut Vec::new()).unwrap();
        assert!(outcome.failed.is_empty(), "{:?}", outcome.failed);
        let svg = std::fs::read_to_string(&svg_path).unwrap();
        let _ = std::fs::remove_file(&svg_path);
        let lines = legend(&svg);
        assert!(
            lines.iter().all(|l| !l.starts_with("0 ")),
            "{view}: {lines:?}"
        );
        assert!(!drawn(&svg).is_empty(), "{view}: nothing drawn");
        assert!(svg.contains(".frustum{fill:none"));
        let (lo, size) = area(&svg);
        if view == View::Camera {
            assert!(
                !svg.contains("<circle class=\"camera\""),
                "not in its own view"
            );
            continue;
        }
        // The camera's marker lies inside the picture.
        let marker = svg
            .split("<circle class=\"camera\"")
            .nth(1)
            .expect("a camera marker");
        let number = |name: &str| -> f64 {
            let start = marker.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            let end = start + marker[start..].find('"').unwrap();
            marker[start..end].parse().unwrap()
        };
        let (x, y) = (number("cx"), number("cy"));
        assert!(
            x >= lo.x && y >= lo.y && x <= lo.x + size.x && y <= lo.y + size.y,
            "{view}: the camera at {x}, {y}"
        );
    }
}
