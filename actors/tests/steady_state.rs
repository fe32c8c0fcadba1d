//! A reused action allocates nothing once its buffers are large enough, on a changed
//! graph too (issue: "no allocation in steady state").

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Aabb, Action, Graph, NodeId, Ordered, Unordered};
use scenewalk_iterators::{DepthFirst, PriorityQueue};
use scenewalk_nodes::{Geometry, Group, Transform};

fn scene(levels: usize) -> (Graph, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut frontier = vec![root];
    for level in 0..levels {
        let mut next = Vec::new();
        for &parent in &frontier {
            for i in 0..3 {
                let id = if level + 1 == levels {
                    graph.append_child(parent, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))
                } else {
                    graph.append_child(parent, Transform::from_translation(Vec3::X * i as f32))
                };
                next.push(id.unwrap());
            }
        }
        frontier = next;
    }
    (graph, root)
}

#[test]
fn the_counter_counts() {
    let info = allocation_counter::measure(|| {
        std::hint::black_box(Vec::<u64>::with_capacity(10));
    });
    assert_eq!(info.count_total, 1);
}

#[test]
fn depth_first_runs_allocate_nothing_in_steady_state() {
    let (mut graph, root) = scene(6);
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Unordered::new(Statistics::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    action.run(&graph, root).unwrap(); // sizes the buffers
    let first = allocation_counter::measure(|| {
        action.run(&graph, root).unwrap();
    });
    assert_eq!(first.count_total, 0, "a second run allocated");

    // Edit the graph (fewer nodes, other shape): the buffers still fit.
    let doomed = graph.first_child(root).unwrap().unwrap();
    graph.remove_subtree(doomed).unwrap();
    graph.append_child(root, Group).unwrap();
    let edited = allocation_counter::measure(|| {
        action.run(&graph, root).unwrap();
    });
    assert_eq!(edited.count_total, 0, "a run on the edited graph allocated");
}

#[test]
fn priority_runs_allocate_nothing_in_steady_state() {
    let (graph, root) = scene(5);
    let mut action = Action::new(
        PriorityQueue::new(),
        (Ordered::new(WorldTransforms::new()),),
    )
    .unwrap();
    action.run(&graph, root).unwrap();
    let info = allocation_counter::measure(|| {
        action.run(&graph, root).unwrap();
    });
    assert_eq!(info.count_total, 0);
}

#[test]
fn payload_only_incremental_updates_allocate_nothing_in_steady_state() {
    use scenewalk_actors::IncrementalUpdate;
    use scenewalk_core::glam::Affine3A;
    let (mut graph, root) = scene(5);
    let mut transforms = Vec::new();
    let mut next = Some(root);
    while let Some(node) = next {
        if graph.get::<Transform>(node).is_ok() {
            transforms.push(node);
        }
        next = graph.next_preorder(node, root).unwrap();
    }
    let mut update = IncrementalUpdate::new();
    assert!(update.run(&graph, root).unwrap().full);
    // One, then several changed transforms per update, each also as the first and
    // last sibling (whose boxes define their parent's faces or not).
    let sets: Vec<Vec<NodeId>> = vec![
        vec![transforms[0]],
        vec![*transforms.last().unwrap()],
        transforms.iter().step_by(7).copied().collect(),
        transforms.iter().skip(3).step_by(5).copied().collect(),
    ];
    let edit = |graph: &mut Graph, k: usize| {
        let m = Affine3A::from_translation(Vec3::new(k as f32 * 0.25, (k % 3) as f32, -1.0));
        for &node in &sets[k % sets.len()] {
            graph.get_mut::<Transform>(node).unwrap().set_local(m);
        }
    };
    // Warm up: the buffers grow, and the patch plan is built once the patches have
    // re-walked a third of the tree.
    for k in 0..64 {
        edit(&mut graph, k);
        assert!(!update.run(&graph, root).unwrap().full);
    }
    for k in 64..128 {
        edit(&mut graph, k);
        let info = allocation_counter::measure(|| {
            assert!(!update.run(&graph, root).unwrap().full);
        });
        assert_eq!(info.count_total, 0, "a payload-only update allocated ({k})");
    }
    // Right after a full run the patches walk the graph's links (no plan yet); the
    // first grows that walk's stack.
    update.run_full(&graph, root).unwrap();
    let leaf = &sets[1];
    for k in 0..4 {
        let m = Affine3A::from_translation(Vec3::splat(k as f32));
        graph.get_mut::<Transform>(leaf[0]).unwrap().set_local(m);
        let info = allocation_counter::measure(|| {
            assert_eq!(update.run(&graph, root).unwrap().entered, 4);
        });
        assert!(
            k == 0 || info.count_total == 0,
            "a patch without the plan allocated ({k})"
        );
    }
}
