//! The project's own glTF file, `scene.gltf` at the workspace root (the file the
//! README's `inspect` and `tour` commands read), imported and inspected: its nodes,
//! their world places and boxes against the values worked out by hand from the file.

use scenewalk_core::glam::Vec3;
use scenewalk_examples::inspect::{inspect, inspect_at};
use scenewalk_nodes::gltf::{ImportOptions, Imported, import};
use std::path::Path;

fn scene() -> Imported {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scene.gltf");
    import(&path, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e} (the README's scene)", path.display()))
}

fn near(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() <= 1e-5
}

#[test]
fn the_readme_scene_has_its_nodes_in_place() {
    let imported = scene();
    let report = inspect(&imported).unwrap();
    let names: Vec<_> = report.nodes.iter().map(|n| n.name.as_deref()).collect();
    assert_eq!(
        names,
        [
            Some("scene root"),
            Some("floor"),
            Some("turntable"),
            Some("moon"),
            Some("camera")
        ]
    );
    let depths: Vec<_> = report.nodes.iter().map(|n| n.depth).collect();
    assert_eq!(depths, [0, 1, 1, 2, 1]);
    // The moon: (2, 0.5, 0) on the turntable at (0, 0.5, 0), half the unit cube's size.
    let moon = &report.nodes[3];
    assert!(near(moon.world.w_axis.truncate(), Vec3::new(2.0, 1.0, 0.0)));
    let b = moon.mesh_aabb.unwrap();
    assert!(near(b.min, Vec3::new(1.75, 0.75, -0.25)) && near(b.max, Vec3::new(2.25, 1.25, 0.25)));
    // The floor: the unit cube scaled to 6 × 0.2 × 6, its top at y = -0.4.
    let all = report.world_aabb().unwrap();
    assert!(near(all.min, Vec3::new(-3.0, -0.6, -3.0)) && near(all.max, Vec3::new(3.0, 1.25, 3.0)));
    assert_eq!(report.mesh_node_count(), 3);
    let camera = imported.node(4).unwrap();
    assert!(camera.camera.is_some() && camera.primitives.is_empty());
    assert_eq!(imported.animations.len(), 1);
    assert_eq!(imported.animations[0].name(), Some("spin"));
    assert_eq!(imported.animations[0].duration(), 2.0);
}

#[test]
fn the_readme_scene_turns_its_moon_a_quarter_turn_in_half_a_second() {
    let mut imported = scene();
    // The turntable turns 180° about y per second: at 0.5 s the moon's (2, 0, 0)
    // offset points down -z.
    let report = inspect_at(&mut imported, 0, 0.5).unwrap();
    let moon = &report.nodes[3];
    assert!(
        near(moon.world.w_axis.truncate(), Vec3::new(0.0, 1.0, -2.0)),
        "{}",
        moon.world.w_axis
    );
    let report = inspect_at(&mut imported, 0, 1.5).unwrap();
    assert!(near(
        report.nodes[3].world.w_axis.truncate(),
        Vec3::new(0.0, 1.0, 2.0)
    ));
}

#[test]
fn the_readme_scene_is_small() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scene.gltf");
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    assert!(
        (100..8_000).contains(&bytes),
        "{} is {bytes} bytes",
        path.display()
    );
}
