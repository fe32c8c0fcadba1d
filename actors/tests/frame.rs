//! The frame: the update's results reach the view and pick passes by handle, and
//! every reader refuses results that no longer describe the graph it runs on.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::{
    Bounds, FrustumCull, IncrementalUpdate, LodSelect, NearFirst, Pick, RenderList, WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    Aabb, Action, Actor, Graph, NodeId, Ordered, Results, ResultsError, Staleness, Static,
    TraversalError, Unordered,
};
use scenewalk_iterators::{DepthFirst, PriorityQueue};
use scenewalk_nodes::{Camera, Geometry, Group, Lod, Ray, Transform};

/// A box one unit wide around `(0, 0, z)`.
fn unit(z: f32) -> Geometry {
    Geometry::new(Aabb::new(
        Vec3::new(-0.5, -0.5, z - 0.5),
        Vec3::new(0.5, 0.5, z + 0.5),
    ))
}

/// A root with a transform holding a box ahead of the camera (at -z), a box behind it,
/// and a level-of-detail node.
fn scene() -> (Graph, NodeId, NodeId, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let moved = graph
        .append_child(
            root,
            Transform::from_translation(Vec3::new(0.0, 0.0, -10.0)),
        )
        .unwrap();
    graph.append_child(moved, unit(0.0)).unwrap();
    let behind = graph.append_child(root, unit(10.0)).unwrap();
    let lod = graph
        .append_child(root, Lod::from_thresholds(Vec3::ZERO, &[5.0]).unwrap())
        .unwrap();
    graph.append_child(lod, Group).unwrap();
    graph.append_child(lod, Group).unwrap();
    (graph, root, moved, behind)
}

fn frustum() -> scenewalk_nodes::Frustum {
    Camera::perspective(1.0, 1.0, 0.1, 100.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY)
}

fn ray() -> Ray {
    Ray::new(Vec3::ZERO, -Vec3::Z).unwrap()
}

/// An action run with results, boxed so that actions of different types sit in a list.
type Run = Box<dyn FnMut(&Graph, NodeId, &Results) -> Result<(), TraversalError>>;

/// Every library actor that reads another pass's results, in an action, with its name.
fn readers() -> Vec<(&'static str, Run)> {
    fn reader<A: Actor, I: scenewalk_core::TraversalIterator + 'static>(
        iterator: I,
        actor: A,
    ) -> Run {
        let mut action = Action::new(iterator, (actor,)).unwrap();
        Box::new(move |graph, root, results| action.run_with(graph, root, results).map(drop))
    }
    vec![
        (
            "FrustumCull",
            reader(DepthFirst::new(), Ordered::new(FrustumCull::new(frustum()))),
        ),
        (
            "FrustumCull",
            reader(DepthFirst::new(), Static::new(FrustumCull::new(frustum()))),
        ),
        (
            "LodSelect",
            reader(DepthFirst::new(), Static::new(LodSelect::new(Vec3::ZERO))),
        ),
        (
            "NearFirst",
            reader(
                PriorityQueue::new(),
                Static::new(NearFirst::new(Vec3::ZERO)),
            ),
        ),
        (
            "Pick",
            reader(PriorityQueue::new(), Unordered::new(Pick::new(ray()))),
        ),
    ]
}

/// The update pass's results over `graph` from `root`.
fn update(graph: &Graph, root: NodeId) -> Results {
    let mut update = IncrementalUpdate::new();
    update.run(graph, root).unwrap();
    update.results()
}

fn assert_refused(
    outcome: Result<(), TraversalError>,
    reader: &str,
    why: Staleness,
) -> Result<(), String> {
    match outcome {
        Err(TraversalError::Results(ResultsError::Stale {
            reader: r, why: w, ..
        })) if r == reader && w == why => Ok(()),
        other => Err(format!(
            "{reader}: expected a refusal for {why:?}, got {other:?}"
        )),
    }
}

#[test]
fn every_reader_runs_on_fresh_results() {
    let (graph, root, ..) = scene();
    let results = update(&graph, root);
    for (name, mut run) in readers() {
        assert_eq!(run(&graph, root, &results), Ok(()), "{name}");
    }
}

#[test]
fn every_reader_refuses_results_after_a_structural_edit() {
    let (mut graph, root, ..) = scene();
    let results = update(&graph, root);
    graph.append_child(root, unit(-20.0)).unwrap();
    for (name, mut run) in readers() {
        assert_refused(run(&graph, root, &results), name, Staleness::Structure).unwrap();
    }
}

#[test]
fn every_reader_refuses_results_after_a_payload_edit() {
    let (mut graph, root, moved, _) = scene();
    let results = update(&graph, root);
    graph
        .get_mut::<Transform>(moved)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::new(0.0, 0.0, 10.0)));
    for (name, mut run) in readers() {
        assert_refused(run(&graph, root, &results), name, Staleness::Payloads).unwrap();
    }
}

#[test]
fn every_reader_refuses_another_graphs_results() {
    let (graph, root, ..) = scene();
    let results = update(&graph, root);
    // A clone is another graph: equal today, free to differ tomorrow.
    let other = graph.clone();
    for (name, mut run) in readers() {
        assert_refused(run(&other, root, &results), name, Staleness::OtherGraph).unwrap();
    }
}

#[test]
fn every_reader_refuses_results_made_below_its_root_and_takes_those_made_above() {
    let (graph, root, moved, _) = scene();
    let below = update(&graph, moved);
    for (name, mut run) in readers() {
        assert_refused(run(&graph, root, &below), name, Staleness::OutsideRoot).unwrap();
    }
    let above = update(&graph, root);
    for (name, mut run) in readers() {
        assert_eq!(run(&graph, moved, &above), Ok(()), "{name}");
    }
}

#[test]
fn every_reader_refuses_a_run_without_results() {
    let (graph, root, ..) = scene();
    for (name, mut run) in readers() {
        match run(&graph, root, &Results::new()) {
            Err(TraversalError::Results(ResultsError::Missing { reader, .. })) => {
                assert_eq!(reader, name);
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// The case found from outside: a box behind the camera removed and a new box ahead
/// appended into its slot; the view with the old boxes culled the new, visible box.
#[test]
fn a_new_node_in_a_reused_slot_is_never_culled_by_the_old_nodes_box() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    graph.append_child(root, unit(-10.0)).unwrap();
    let behind = graph.append_child(root, unit(10.0)).unwrap();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    let results = update.results();
    graph.remove(behind).unwrap();
    let ahead = graph.append_child(root, unit(-5.0)).unwrap();
    assert_eq!(ahead.index(), behind.index(), "the slot is reused");

    let mut view = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(FrustumCull::new(frustum())),
            Ordered::new(RenderList::new(Affine3A::IDENTITY)),
        ),
    )
    .unwrap();
    assert_refused(
        view.run_with(&graph, root, &results).map(drop),
        "FrustumCull",
        Staleness::Structure,
    )
    .unwrap();
    drop(results);
    update.run(&graph, root).unwrap();
    let stats = view.run_with(&graph, root, &update.results()).unwrap();
    assert_eq!(stats.entered, 3);
    assert_eq!(view.actor::<FrustumCull>().unwrap().culled(), 0);
    assert_eq!(view.actor::<RenderList>().unwrap().items().len(), 2);
}

#[test]
fn the_checked_accessors_refuse_results_after_a_payload_edit() {
    let (mut graph, root, moved, _) = scene();
    let mut plain = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    plain.run(&graph, root).unwrap();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    assert_eq!(update.world(&graph, moved).unwrap().translation.z, -10.0);

    graph
        .get_mut::<Transform>(moved)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::new(0.0, 0.0, -30.0)));
    let stale = |e: Result<_, ResultsError>| {
        matches!(
            e,
            Err(ResultsError::Stale {
                why: Staleness::Payloads,
                ..
            })
        )
    };
    assert!(stale(
        plain
            .actor::<WorldTransforms>()
            .unwrap()
            .table()
            .world(&graph, moved)
            .map(drop)
    ));
    assert!(stale(
        plain
            .actor::<Bounds>()
            .unwrap()
            .table()
            .world_bounds(&graph, root)
            .map(drop)
    ));
    assert!(stale(update.world(&graph, moved).map(drop)));
    assert!(stale(update.world_bounds(&graph, root).map(drop)));

    update.run(&graph, root).unwrap();
    assert_eq!(update.world(&graph, moved).unwrap().translation.z, -30.0);
    assert_eq!(update.world_bounds(&graph, moved).unwrap().min.z, -30.5);
}

#[test]
fn the_update_gets_its_tables_back_unshared_once_readers_let_go() {
    let (mut graph, root, moved, _) = scene();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    let mut view = Action::new(
        DepthFirst::new(),
        (Ordered::new(FrustumCull::new(frustum())),),
    )
    .unwrap();
    let results = update.results();
    let before = results.get::<scenewalk_actors::BoundsTable>("test", &graph, root.index());
    let before = std::sync::Arc::as_ptr(&before.unwrap());
    view.run_with(&graph, root, &results).unwrap();
    drop(results);
    graph
        .get_mut::<Transform>(moved)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::X));
    update.run(&graph, root).unwrap();
    let results = update.results();
    let after = results.get::<scenewalk_actors::BoundsTable>("test", &graph, root.index());
    assert_eq!(
        std::sync::Arc::as_ptr(&after.unwrap()),
        before,
        "the same table, patched in place"
    );
}
