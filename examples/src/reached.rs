//! Which nodes a run entered: for drawing and checking, not for speed.

use scenewalk_core::{ActiveList, Flow, NodeId, RunContext, UnorderedActor, Visit};

/// Records every node a run enters, by slot (an unordered actor).
///
/// ```
/// use scenewalk_core::{Action, Graph, Unordered};
/// use scenewalk_examples::Reached;
/// use scenewalk_iterators::DepthFirst;
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let child = graph.append_child(root, Group)?;
/// let mut action = Action::new(DepthFirst::new(), (Unordered::new(Reached::default()),))?;
/// action.run(&graph, child)?;
/// let reached = action.actor::<Reached>().unwrap();
/// assert!(reached.contains(child) && !reached.contains(root));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Reached {
    entered: Vec<bool>,
}

impl Reached {
    /// Whether the latest run entered `node`.
    pub fn contains(&self, node: NodeId) -> bool {
        self.entered
            .get(node.index().get())
            .copied()
            .unwrap_or(false)
    }
}

impl UnorderedActor for Reached {
    fn begin(&mut self, run: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.entered.clear();
        self.entered.resize(run.graph.capacity(), false);
        Ok(())
    }

    fn enter(&mut self, visit: &Visit<'_>, _active: &mut ActiveList<'_>) -> Flow {
        if let Some(seen) = self.entered.get_mut(visit.node().get()) {
            *seen = true;
        }
        Flow::Continue
    }
}
