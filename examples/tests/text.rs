//! The human-output helpers: an incremental update's statistics in words.

use scenewalk_actors::IncrementalUpdate;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Graph};
use scenewalk_examples::text::update_stats;
use scenewalk_nodes::{Geometry, Group, Transform};

#[test]
fn update_statistics_read_as_words() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let arm = graph
        .append_child(root, Transform::from_translation(Vec3::X))
        .unwrap();
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    graph.append_child(arm, Geometry::new(unit)).unwrap();
    let mut update = IncrementalUpdate::new();
    let full = update_stats(&update.run(&graph, root).unwrap());
    assert_eq!(full, "a full run: 3 nodes entered");
    graph
        .get_mut::<Transform>(arm)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::Y));
    let patch = update_stats(&update.run(&graph, root).unwrap());
    assert_eq!(
        patch,
        "a patch: 1 change, 1 subtree walked again (2 nodes entered), 1 ancestor box recomputed"
    );
}
