//! Typed payload access by column: `Graph::payloads`, `Payloads::get` and
//! `Payloads::at_slot`, against the payloads the nodes were given.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{Graph, NodeCore};

#[derive(Clone, Debug, PartialEq)]
struct Mass(f32);
impl NodeCore for Mass {}

#[derive(Clone, Debug, PartialEq)]
struct Group;
impl NodeCore for Group {}

#[test]
fn payloads_reads_exactly_its_type_by_slot() {
    let mut graph = Graph::new();
    assert!(graph.payloads::<Mass>().is_none(), "no Mass node yet");
    let a = graph.add_root(Mass(2.0));
    let g = graph.append_child(a, Group).unwrap();
    let b = graph.append_child(a, Mass(3.0)).unwrap();
    let masses = graph.payloads::<Mass>().unwrap();
    let total: f32 = [a, g, b]
        .iter()
        .filter_map(|id| masses.get(id.index()))
        .map(|m| m.0)
        .sum();
    assert_eq!(total, 5.0);
    assert_eq!(masses.get(g.index()), None, "a Group is not a Mass");
}

#[test]
fn at_slot_reads_the_position_payload_slot_at_gives() {
    let mut graph = Graph::new();
    let root = graph.add_root(Mass(1.0));
    let child = graph.append_child(root, Mass(4.0)).unwrap();
    let masses = graph.payloads::<Mass>().unwrap();
    for (id, mass) in [(root, 1.0), (child, 4.0)] {
        let slot = graph.payload_slot_at(id.index()).unwrap();
        assert_eq!(masses.at_slot(slot), Some(&Mass(mass)));
    }
    assert_eq!(graph.payload_count(graph.node_type(root).unwrap()), 2);
    assert_eq!(masses.at_slot(2), None);
}
