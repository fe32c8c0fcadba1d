//! Typed payload access by column: `Typed::keep`, `Typed::get_at` and `Typed::kept`,
//! against the payloads the nodes were given.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{Graph, NodeCore, ParentType, Typed};

#[derive(Clone, Debug, PartialEq)]
struct Mass(f32);
impl NodeCore for Mass {}

#[derive(Clone, Debug, PartialEq)]
struct Group;
impl NodeCore for Group {}

/// Extends `Mass`: read through the graph, not the kept column.
#[derive(Clone, Debug, PartialEq)]
struct Ball(Mass);
impl NodeCore for Ball {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Mass>())
    }
}

#[test]
fn get_at_reads_as_the_graph_does_with_or_without_a_kept_column() {
    let mut graph = Graph::new();
    let mut masses = Typed::<Mass>::new();
    assert!(!masses.keep(&graph), "no Mass node yet");
    assert!(masses.kept(&graph).is_empty());
    let a = graph.add_root(Mass(2.0));
    let g = graph.append_child(a, Group).unwrap();
    let b = graph.append_child(a, Mass(3.0)).unwrap();
    let c = graph.append_child(a, Ball(Mass(4.0))).unwrap();
    let nodes = [a, g, b, c];
    let expected: Vec<_> = nodes
        .iter()
        .map(|id| graph.get_at::<Mass>(id.index()))
        .collect();
    let expected: Vec<_> = expected.into_iter().map(|m| m.cloned()).collect();
    let read = |masses: &Typed<Mass>| -> Vec<Option<Mass>> {
        let read = |id: &scenewalk_core::NodeId| masses.get_at(&graph, id.index()).cloned();
        nodes.iter().map(read).collect()
    };
    assert_eq!(read(&masses), expected, "nothing kept: the graph's lookup");
    assert!(masses.keep(&graph));
    assert_eq!(read(&masses), expected, "exact types from the kept column");
    assert_eq!(
        masses.get_at(&graph, g.index()),
        None,
        "a Group is not a Mass"
    );
    assert_eq!(masses.get_at(&graph, c.index()), Some(&Mass(4.0)));
    masses.release();
    assert!(masses.kept(&graph).is_empty());
}

#[test]
fn kept_reads_the_position_payload_slot_at_gives() {
    let mut graph = Graph::new();
    let root = graph.add_root(Mass(1.0));
    let child = graph.append_child(root, Mass(4.0)).unwrap();
    let mut masses = Typed::<Mass>::new();
    assert!(masses.keep(&graph));
    for (id, mass) in [(root, 1.0), (child, 4.0)] {
        let slot = graph.payload_slot_at(id.index()).unwrap();
        assert_eq!(masses.kept(&graph).get(slot as usize), Some(&Mass(mass)));
    }
    assert_eq!(graph.payload_count(graph.node_type(root).unwrap()), 2);
    assert_eq!(masses.kept(&graph).len(), 2);
}

/// A kept column is a share: an edit copies the graph's column, and reads by node
/// after it go to the graph (the kept column is no longer its column), also for a type
/// the graph registered since.
#[test]
fn get_at_after_an_edit_reads_the_edited_payload() {
    let mut graph = Graph::new();
    let root = graph.add_root(Mass(1.0));
    let mut masses = Typed::<Mass>::new();
    assert!(masses.keep(&graph));
    graph.get_mut::<Mass>(root).unwrap().0 = 9.0;
    assert_eq!(masses.get_at(&graph, root.index()), Some(&Mass(9.0)));
    assert!(
        masses.kept(&graph).is_empty(),
        "the kept share is no longer the graph's"
    );
    assert!(masses.keep(&graph));
    let ball = graph.append_child(root, Ball(Mass(5.0))).unwrap();
    assert_eq!(masses.get_at(&graph, ball.index()), Some(&Mass(5.0)));
}
