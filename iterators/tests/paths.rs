//! The paths users name keep working when an item moves between crates.

use scenewalk_core::{Action, ActiveList, Flow, Graph, NodeCore, Static, StaticActor, Visit};

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

struct Nothing;
impl StaticActor for Nothing {
    fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

/// The depth-first iterator lives in core; this crate's name for it is the same type,
/// so an action built with either runs the same walk.
#[test]
fn depth_first_is_cores_under_both_names() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    graph.append_child(root, Group).unwrap();
    let iterator: scenewalk_core::DepthFirst = scenewalk_iterators::DepthFirst::new();
    let mut action = Action::new(iterator, (Static::new(Nothing),)).unwrap();
    assert_eq!(action.run(&graph, root).unwrap().entered, 2);
}
