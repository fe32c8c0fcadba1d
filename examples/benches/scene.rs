//! The tour's passes against hand-written monolithic loops doing the same work on the
//! same 55,706-node city (`CityScene::default_city`):
//!
//! - `update/action`: `Action<DepthFirst>` with `WorldTransforms`, `Statistics` and
//!   `Bounds`; `update/hand_loop`: `HandUpdate`, one explicit-stack walk doing the
//!   same three jobs;
//! - `view_<camera>/action`: `Action<DepthFirst>` with `FrustumCull` (ordered, plane
//!   masks), `LodSelect`, `SwitchSelect` and `RenderList` (per-type dispatch);
//!   `view_<camera>/hand_loop`: `HandView`, one walk doing culling, LOD, switch and
//!   the draw list with the same sort. Two cameras: `street`, the city's own (about
//!   1,400 nodes entered), and `overview`, high above, seeing the whole city with
//!   LODs at their coarse level.
//!
//! A test (`examples/tests/scene_passes.rs`) checks that each pair gives identical
//! results. Throughput is in scene nodes.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scenewalk_actors::{RenderList, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_examples::CityScene;
use scenewalk_examples::passes::{self, update_action, view_action};
use scenewalk_examples::scene_baseline::{HandUpdate, HandView};
use scenewalk_nodes::Camera;
use std::hint::black_box;
use std::time::Duration;

fn scene(c: &mut Criterion) {
    let city = CityScene::default_city().expect("the default city builds");
    let (graph, root) = (&city.graph, city.root);
    let nodes = graph.len() as u64;

    let mut update = update_action().expect("compatible");
    update.run(graph, root).expect("runs");
    let mut hand_update = HandUpdate::default();
    hand_update.run(graph, root.index());

    let mut group = c.benchmark_group("update");
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("action", |b| {
        b.iter(|| black_box(update.run(graph, root).expect("runs")))
    });
    group.bench_function("hand_loop", |b| {
        b.iter(|| {
            hand_update.run(graph, root.index());
            black_box(hand_update.bounds.len())
        })
    });
    group.finish();

    let results = passes::results(&update);
    let street = update
        .actor::<WorldTransforms>()
        .expect("there")
        .table()
        .world(graph, city.camera)
        .expect("reached");
    let lens = *graph.get::<Camera>(city.camera).expect("a camera");
    let (wide, above) = city.overview().expect("the overview camera is valid");

    for (name, camera, placed) in [
        ("view_street", lens, street),
        ("view_overview", wide, above),
    ] {
        let frustum = camera.frustum(&placed);
        let eye = Vec3::from(placed.translation);
        let view: Affine3A = placed.inverse();
        let mut action = view_action(&frustum, &placed).expect("compatible");
        let entered = action
            .run_with(graph, root, &results)
            .expect("runs")
            .entered;
        let mut hand = HandView::default();
        hand.run(
            graph,
            root.index(),
            &frustum,
            &hand_update.bounds,
            eye,
            &view,
        );
        assert_eq!(hand.entered, entered, "both passes enter the same nodes");
        assert_eq!(
            hand.items.len(),
            action.actor::<RenderList>().expect("there").items().len()
        );
        println!(
            "{name}: {entered} of {nodes} nodes entered, {} draw items",
            hand.items.len()
        );

        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Elements(entered));
        group.bench_function("action", |b| {
            b.iter(|| black_box(action.run_with(graph, root, &results).expect("runs")))
        });
        group.bench_function("hand_loop", |b| {
            b.iter(|| {
                hand.run(
                    graph,
                    root.index(),
                    &frustum,
                    &hand_update.bounds,
                    eye,
                    &view,
                );
                black_box(hand.items.len())
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    targets = scene
}
criterion_main!(benches);
