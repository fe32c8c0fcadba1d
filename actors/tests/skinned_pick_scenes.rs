//! On the shared animated samples (`SCENEWALK_SCENES`, else `../shared/scenes` beside
//! the workspace): Pick hits Fox and CesiumMan on their posed triangles, at several
//! times of every animation, exactly as brute force over the posed triangles does.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod posed;

use scenewalk_actors::{IncrementalUpdate, Pick};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Action, Unordered};
use scenewalk_iterators::PriorityQueue;
use scenewalk_nodes::gltf::{ImportOptions, import};
use scenewalk_nodes::{AnimationPlayer, Group, Ray};

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "../../nodes/tests/common/data.rs"]
mod data;
use data::scenes;

fn check(name: &str) {
    let path = scenes()
        .join("gltf")
        .join(name)
        .join(format!("{name}.gltf"));
    let imported = import(&path, &ImportOptions::default()).unwrap();
    let mut graph = imported.graph;
    let root = graph.add_root(Group);
    for &r in &imported.roots {
        graph.set_parent(r, Some(root), None).unwrap();
    }
    let mut update = IncrementalUpdate::new();
    let mut pick = Action::new(
        PriorityQueue::new(),
        (Unordered::new(Pick::new(
            Ray::new(Vec3::ZERO, Vec3::Z).unwrap(),
        )),),
    )
    .unwrap();
    let (mut rays, mut hits) = (0, 0);
    for animation in &imported.animations {
        let mut player = AnimationPlayer::new(animation.clone());
        for step in 0..5 {
            let time = animation.duration() * step as f32 / 4.0;
            player.apply(&mut graph, time).unwrap();
            update.run(&graph, root).unwrap();
            let triangles = posed::triangles(&graph, root);
            let extent = triangles
                .iter()
                .flat_map(|(_, _, c)| c.iter())
                .fold(Aabb::EMPTY, |b, &p| b.including(p));
            let size = extent.size().length();
            // From two sides, through centroids of posed triangles (so most hit), and
            // through points beside the figure (some miss).
            for eye in [Vec3::new(0.6, 0.5, 0.9), Vec3::new(-0.9, 0.2, -0.4)] {
                let eye = extent.center() + eye * 1.5 * size;
                let stride = triangles.len() / 40 + 1;
                let centroids = triangles
                    .iter()
                    .step_by(stride)
                    .map(|(_, _, [a, b, c])| (*a + *b + *c) / 3.0);
                let beside = (0..8).map(|k| {
                    let a = k as f32 * 0.8;
                    extent.center() + Vec3::new(a.cos(), 0.3 * a.sin(), a.sin()) * 0.45 * size
                });
                for at in centroids.chain(beside) {
                    let ray = Ray::new(eye, at - eye).unwrap();
                    pick.actor_mut::<Pick>().unwrap().set_ray(ray);
                    pick.run_with(&graph, root, &update.results()).unwrap();
                    let hit = pick.actor::<Pick>().unwrap().hit();
                    rays += 1;
                    hits += usize::from(posed::agrees(&graph, &triangles, &ray, hit));
                }
            }
        }
    }
    // Rays through triangle centroids hit unless the triangle is degenerate or
    // seen edge-on; most of them are neither.
    assert!(
        rays > 0 && hits * 2 > rays,
        "{name}: {hits} of {rays} rays hit"
    );
    println!("{name}: {hits} of {rays} rays hit, each as brute force");
}

#[test]
fn fox_is_picked_by_its_posed_triangles() {
    check("Fox");
}

#[test]
fn cesium_man_is_picked_by_its_posed_triangles() {
    check("CesiumMan");
}
