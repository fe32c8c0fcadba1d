//! Picking against brute force over every triangle and box of random scenes.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod common;

use common::{build_with, naive_world, tree};
use proptest::prelude::*;
use scenewalk_actors::{Bounds, Pick, WorldTransforms};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Action, Graph, NodeId, Ordered, Results, TraversalIterator, Unordered};
use scenewalk_iterators::{DepthFirst, PriorityQueue, SwitchRule};
use scenewalk_nodes::{Geometry, Mesh, Ray, ray_aabb, ray_triangle};

/// The nearest hit by testing every triangle of every mesh (corners moved to world
/// space by the naive product of ancestors) and every plain geometry's world box.
fn brute_force(graph: &Graph, ids: &[NodeId], ray: &Ray) -> Option<(f32, NodeId)> {
    let mut best: Option<(f32, NodeId)> = None;
    for &id in ids {
        let world = naive_world(graph, id);
        let hit = if let Ok(mesh) = graph.get::<Mesh>(id) {
            (0..mesh.geometry().primitives())
                .filter_map(|k| {
                    let corners = mesh.triangle(k)?.map(|p| world.transform_point3(p));
                    ray_triangle(ray, &corners).map(|(t, _, _)| t)
                })
                .reduce(f32::min)
        } else if let Ok(g) = graph.get::<Geometry>(id) {
            ray_aabb(ray, &g.local_bounds().transformed(&world), f32::INFINITY)
        } else {
            None
        };
        if let Some(t) = hit
            && best.is_none_or(|(b, _)| t < b)
        {
            best = Some((t, id));
        }
    }
    best
}

fn picked<I: TraversalIterator>(
    iterator: I,
    graph: &Graph,
    root: NodeId,
    ray: Ray,
) -> (Option<scenewalk_actors::PickHit>, bool) {
    let mut update = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    update.run(graph, root).unwrap();
    let results = Results::new()
        .with(update.actor::<WorldTransforms>().unwrap().table())
        .with(update.actor::<Bounds>().unwrap().table());
    let mut action = Action::new(iterator, (Unordered::new(Pick::new(ray)),)).unwrap();
    let stats = action.run_with(graph, root, &results).unwrap();
    (action.actor::<Pick>().unwrap().hit(), stats.stopped)
}

fn ray() -> impl Strategy<Value = Ray> {
    (
        prop::array::uniform3(-25.0f32..25.0),
        prop::array::uniform3(-8.0f32..8.0),
    )
        .prop_filter_map("a direction", |(origin, target)| {
            let origin = Vec3::from(origin);
            Ray::new(origin, Vec3::from(target) - origin).ok()
        })
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-3 * (1.0 + a.abs().max(b.abs()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn picking_equals_brute_force_under_every_order(spec in tree(), ray in ray()) {
        let (graph, ids) = build_with(&spec, true);
        let root = ids[0];
        let want = brute_force(&graph, &ids, &ray);
        for (name, (got, _)) in [
            ("depth-first", picked(DepthFirst::new(), &graph, root, ray)),
            ("priority", picked(PriorityQueue::new(), &graph, root, ray)),
            ("hybrid", picked(PriorityQueue::hybrid(SwitchRule::AtDepth(2)), &graph, root, ray)),
        ] {
            match (want, got) {
                (None, None) => {}
                (Some((t, id)), Some(hit)) => {
                    prop_assert!(close(t, hit.distance), "{name}: {t} vs {hit:?}");
                    prop_assert!(close(ray.at(hit.distance).distance(hit.point), 0.0));
                    // The same node unless another one is hit at (nearly) the same distance.
                    if hit.node != id.index() {
                        let other = graph.id_at(hit.node).unwrap();
                        let theirs = brute_force(&graph, &[other], &ray).unwrap().0;
                        prop_assert!(close(theirs, t), "{name}: picked {other:?} at {theirs}, nearest {id:?} at {t}");
                    }
                }
                (want, got) => prop_assert!(false, "{name}: brute force {want:?}, pick {got:?}"),
            }
        }
    }
}

#[test]
fn priority_order_stops_once_no_box_can_be_nearer() {
    use scenewalk_core::glam::Affine3A;
    use scenewalk_nodes::{Group, Transform};
    // A row of spheres along -z; the ray hits the first one.
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let ball = Mesh::uv_sphere(1.0, 12, 6).unwrap();
    let mut first = None;
    for k in 0..50 {
        let at = graph
            .append_child(
                root,
                Transform::from_affine(Affine3A::from_translation(Vec3::new(
                    0.0,
                    0.0,
                    -5.0 - 3.0 * k as f32,
                ))),
            )
            .unwrap();
        let node = graph.append_child(at, ball.clone()).unwrap();
        first.get_or_insert(node);
    }
    let ray = Ray::new(Vec3::ZERO, -Vec3::Z).unwrap();
    let (hit, stopped) = picked(PriorityQueue::new(), &graph, root, ray);
    let hit = hit.unwrap();
    assert_eq!(hit.node, first.unwrap().index());
    assert!((hit.distance - 4.0).abs() < 1e-3);
    assert!(stopped, "the run stops after the nearest sphere");
    let (same, stopped) = picked(DepthFirst::new(), &graph, root, ray);
    assert_eq!(same.map(|h| h.node), Some(hit.node));
    assert!(!stopped, "depth-first cannot know and prunes instead");
}

#[test]
fn another_actor_setting_keys_turns_the_early_stop_off_when_told() {
    use scenewalk_actors::NearFirst;
    use scenewalk_core::{Aabb, Static};
    use scenewalk_nodes::Group;
    // Boxes the ray enters at 10, 20 and 5; NearFirst (from a viewer at z = -14)
    // keys them in another order than Pick would.
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for z in [-10.0f32, -20.0, -5.0] {
        let b = Aabb::new(Vec3::new(-1.0, -1.0, z - 1.0), Vec3::new(1.0, 1.0, z));
        graph.append_child(root, Geometry::new(b)).unwrap();
    }
    let mut update = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    update.run(&graph, root).unwrap();
    let results = Results::new()
        .with(update.actor::<WorldTransforms>().unwrap().table())
        .with(update.actor::<Bounds>().unwrap().table());
    let ray = Ray::new(Vec3::ZERO, -Vec3::Z).unwrap();
    let mut action = Action::new(
        PriorityQueue::new(),
        (
            Unordered::new(Pick::new(ray).assume_key_order(false)),
            Static::new(NearFirst::new(Vec3::new(0.0, 0.0, -14.0))),
        ),
    )
    .unwrap();
    action.run_with(&graph, root, &results).unwrap();
    let hit = action.actor::<Pick>().unwrap().hit().unwrap();
    assert_eq!(hit.distance, 5.0, "the nearest box, whatever the keys");
}
