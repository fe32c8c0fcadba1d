//! `Stamp::check`: each kind of staleness, in the order the check reports them.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{Graph, NodeCore, Staleness, Stamp};

#[derive(Clone, Debug)]
struct Mass(f32);
impl NodeCore for Mass {}

#[test]
fn a_stamp_names_what_changed_since() {
    let mut graph = Graph::new();
    let root = graph.add_root(Mass(1.0));
    let child = graph.append_child(root, Mass(1.0)).unwrap();
    let stamp = Stamp::new(&graph, root.index());
    assert_eq!(stamp.root(), root.index());
    assert_eq!(stamp.check(&graph, root.index()), Ok(()));
    assert_eq!(
        stamp.check(&graph, child.index()),
        Ok(()),
        "a descendant's run"
    );
    let other = graph.add_root(Mass(0.0));
    let stamp = Stamp::new(&graph, root.index());
    assert_eq!(
        stamp.check(&graph, other.index()),
        Err(Staleness::OutsideRoot)
    );
    assert_eq!(stamp.check_graph(&graph), Ok(()));
    assert_eq!(
        stamp.check(&graph.clone(), root.index()),
        Err(Staleness::OtherGraph)
    );
    graph.get_mut::<Mass>(child).unwrap().0 = 2.0;
    assert_eq!(stamp.check(&graph, root.index()), Err(Staleness::Payloads));
    graph.remove(other).unwrap();
    assert_eq!(stamp.check(&graph, root.index()), Err(Staleness::Structure));
    // The reason reads as the end of a reader's refusal.
    let why = Staleness::Structure.to_string();
    assert_eq!(why, "the graph's structure changed since they were made");
}
