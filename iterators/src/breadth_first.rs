use scenewalk_core::Invariant;
use scenewalk_core::{
    ActiveEntry, ActiveList, Capabilities, Flow, Frame, Graph, NodeIndex, OrderedState, Step,
    TraversalError, TraversalIterator,
};

/// Level order, each actor called once per batch of nodes, not per node (paper 3.3.3).
///
/// A batch, an active list, is a level (at most [`with_max_batch`](Self::with_max_batch)
/// of it): an entry an actor deactivates is neither entered nor expanded; [`Flow::Prune`]
/// expands none. With no current node, leave events or single path, the action refuses
/// enter + leave, ordered-state, type-dispatching and non-batch actors.
///
/// ```
/// use scenewalk_core::{Action, ActiveList, Flow, Graph, Unordered, UnorderedActor, Visit};
/// use scenewalk_iterators::BreadthFirst;
/// use scenewalk_nodes::Group;
/// #[derive(Default)]
/// struct LevelSizes(Vec<usize>);
/// impl UnorderedActor for LevelSizes {
///     const BATCHES: bool = true;
///     fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow { Flow::Continue }
///     fn enter_batch(&mut self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
///         self.0.push(batch.len());
///         Flow::Continue
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// for _ in 0..3 {
///     let child = graph.append_child(root, Group)?;
///     graph.append_child(child, Group)?;
/// }
/// let mut action = Action::new(BreadthFirst::new(), (Unordered::new(LevelSizes::default()),))?;
/// assert_eq!(action.run(&graph, root)?.batches, 3);
/// assert_eq!(action.actor::<LevelSizes>().unwrap().0, [1, 3, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct BreadthFirst {
    level: Vec<ActiveEntry>,
    next_level: Vec<ActiveEntry>,
    /// The batch being handed out: `level[cursor..batch_end]`.
    cursor: usize,
    batch_end: usize,
    depth: u32,
    /// The most nodes in a batch (`None`: whole levels).
    max_batch: Option<usize>,
}

impl BreadthFirst {
    /// Whole levels as batches.
    pub fn new() -> Self {
        Self::default()
    }

    /// Hands a level over in batches of at most `max` nodes (at least 1).
    #[must_use]
    pub fn with_max_batch(mut self, max: usize) -> Self {
        self.max_batch = Some(max.max(1));
        self
    }
}

impl TraversalIterator for BreadthFirst {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "BreadthFirst",
            leave_events: false,
            current_node: false,
            ordered_state: OrderedState::Unsupported,
        }
    }

    fn start(&mut self, _graph: &Graph, root: NodeIndex, _leave_events: bool) {
        self.clear();
        self.level.push(ActiveEntry::new(root, 0));
    }

    fn next(&mut self, _graph: &Graph) -> Option<Step> {
        if self.cursor >= self.level.len() {
            if self.next_level.is_empty() {
                return None;
            }
            std::mem::swap(&mut self.level, &mut self.next_level);
            self.next_level.clear();
            self.cursor = 0;
            self.depth += 1;
        }
        let max = self.max_batch.unwrap_or(usize::MAX);
        self.batch_end = self.level.len().min(self.cursor.saturating_add(max));
        Some(Step::Batch { depth: self.depth })
    }

    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        let batch = self.level.get_mut(self.cursor..self.batch_end);
        ActiveList::new(batch.invariant("the batch"))
    }

    fn commit(&mut self, graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        let batch = self.cursor..self.batch_end;
        self.cursor = self.batch_end;
        if flow == Flow::Continue {
            let depth = self.depth + 1;
            let batch = self.level.get(batch).invariant("the batch");
            for entry in batch.iter().filter(|e| e.is_active()) {
                let children = graph.children_at(entry.node());
                self.next_level
                    .extend(children.map(|c| ActiveEntry::new(c, depth)));
            }
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.level.clear();
        self.next_level.clear();
        self.cursor = 0;
        self.batch_end = 0;
        self.depth = 0;
    }
}
