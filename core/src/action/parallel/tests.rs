//! The parallel glue where no public call reaches it.

use crate::action::parallel::fork::{Fork, Share};
use crate::actor::{ActiveList, Flow, Ordered, OrderedActor, StateCell, Visit};
use crate::error::TraversalError;
use crate::graph::{Graph, NodeCore};
use crate::run::RunContext;

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

#[derive(Default)]
struct Depths;

impl OrderedActor for Depths {
    type State = u32;
    const FORKS: bool = true;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, TraversalError> {
        Ok(0)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, u32>,
        _: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        *state.make_mut() += 1;
        Flow::Continue
    }
    fn fork(&self, state: &u32) -> Option<(Self, u32)> {
        Some((Self, *state))
    }
}

/// The walk above the split points of an ordered actor that was never begun (a run
/// always begins its actors first) has no state to fork from: it ends with an error,
/// not a panic.
#[test]
fn an_ordered_walk_above_before_begin_is_an_error() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    graph.append_child(root, Group).unwrap();
    let mut actor = Ordered::new(Depths);
    let mut above = actor.above();
    let visit = Visit::new(&graph, root.index(), 0).unwrap();
    above.enter(&visit, &mut ActiveList::new(&mut []));
    above.split(0, 1, true);
    above.note_leave(&visit);
    assert!(<Ordered<Depths> as Fork>::finish_above(above).is_err());
}
