//! The change log records every edit and mutable borrow, for incremental updates.

use scenewalk_core::{Change, Graph};

#[derive(Clone, Debug)]
struct Group;
impl scenewalk_core::NodeCore for Group {}

#[derive(Clone, Debug)]
struct Other;
impl scenewalk_core::NodeCore for Other {}

#[test]
fn every_edit_is_recorded_with_what_it_changed() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph.append_child(root, Group).unwrap();
    let b = graph.append_child(root, Group).unwrap();
    let c = graph.append_child(a, Group).unwrap();
    let d = graph.append_child(c, Group).unwrap();
    let seen = graph.change_cursor();
    let (r, a_, b_, c_, d_) = (root.index(), a.index(), b.index(), c.index(), d.index());

    let e = graph.insert_before(b, Group).unwrap();
    graph.set_parent(c, Some(b), None).unwrap();
    graph.set_parent(b, Some(root), Some(b)).unwrap(); // before itself: no edit
    graph.payload_mut(a).unwrap();
    graph.mark_changed(d).unwrap();
    graph.get_mut::<Group>(d).unwrap();
    graph.get_mut::<Group>(d).unwrap(); // a second borrow is recorded again
    graph.remove(c).unwrap(); // d moves up under b
    graph.set_parent(a, None, None).unwrap();
    graph.remove_subtree(b).unwrap();
    assert!(
        graph.get_mut::<Other>(d).is_err(),
        "wrong type: no borrow, nothing recorded"
    );

    use Change::*;
    assert_eq!(
        graph.changes_since(seen).unwrap(),
        [
            Placed(e.index()),
            Children(a_),
            Placed(c_),
            Payload(a_),
            Payload(d_),
            Payload(d_),
            Payload(d_),
            Placed(d_),
            Children(b_),
            Children(r),
            Placed(a_),
            Children(r),
        ]
    );
    assert_eq!(Children(r).node(), r);
}

#[test]
fn a_removed_root_places_its_children_as_roots() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph.append_child(root, Group).unwrap();
    let seen = graph.change_cursor();
    graph.remove(root).unwrap();
    assert_eq!(
        graph.changes_since(seen).unwrap(),
        [Change::Placed(a.index())]
    );
}

#[test]
fn the_log_is_bounded_and_old_cursors_then_read_none() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let seen = graph.change_cursor();
    for _ in 0..5_000 {
        graph.get_mut::<Group>(root).unwrap();
    }
    assert_eq!(graph.changes_since(seen), None, "the window was dropped");
    let later = graph.change_cursor();
    for _ in 0..2_000 {
        graph.get_mut::<Group>(root).unwrap();
    }
    assert_eq!(
        graph.changes_since(later).unwrap().len(),
        2_000,
        "a reader that keeps up survives the window's slides"
    );
    assert_eq!(
        graph.changes_since(Graph::new().change_cursor()),
        None,
        "another graph"
    );
}
