//! Results one pass hands to the next, stamped with the graph state they describe.

use crate::error::{ResultsError, Staleness};
use crate::graph::{Graph, NodeIndex};
use crate::run::RunContext;
use std::any::{Any, TypeId};
use std::fmt;
use std::sync::Arc;

/// Which state of which graph, from which root, a run's results describe: the graph's
/// [`uid`](Graph::uid), its structure ([`revision`](Graph::revision)), its payloads (the
/// end of its change log) and the run's root. A reader checks it once per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stamp {
    graph: u64,
    revision: u64,
    changes: u64,
    root: NodeIndex,
}

impl Stamp {
    /// The stamp of results made now over `graph` from `root`.
    pub fn new(graph: &Graph, root: NodeIndex) -> Self {
        Self {
            graph: graph.uid(),
            revision: graph.revision(),
            changes: graph.changes.end(),
            root,
        }
    }

    /// The root the results were made from.
    pub fn root(&self) -> NodeIndex {
        self.root
    }

    /// Whether results stamped `self` describe `graph` as it is now (whatever the root).
    pub fn check_graph(&self, graph: &Graph) -> Result<(), Staleness> {
        if self.graph != graph.uid() {
            Err(Staleness::OtherGraph)
        } else if self.revision != graph.revision() {
            Err(Staleness::Structure)
        } else if self.changes != graph.changes.end() {
            Err(Staleness::Payloads)
        } else {
            Ok(())
        }
    }

    /// Whether results stamped `self` describe `graph` as it is now, for a run from
    /// `root`: the results' root or one of its descendants (results made from a root
    /// hold nothing for the nodes above it). O(depth of `root`).
    pub fn check(&self, graph: &Graph, root: NodeIndex) -> Result<(), Staleness> {
        self.check_graph(graph)?;
        let inside = graph.path_up(root).any(|node| node == self.root);
        inside.then_some(()).ok_or(Staleness::OutsideRoot)
    }

    /// Whether `reader` may read the results `results` stamped `stamp`: refused as
    /// [`ResultsError::Missing`] if never made (`None`), as [`ResultsError::Stale`] if
    /// `check` ([`check`](Self::check) or [`check_graph`](Self::check_graph)) says why.
    pub fn checked(
        stamp: Option<Self>,
        reader: &'static str,
        results: &'static str,
        check: impl FnOnce(&Self) -> Result<(), Staleness>,
    ) -> Result<Self, ResultsError> {
        let stamp = stamp.ok_or(ResultsError::Missing { reader, results })?;
        check(&stamp).map_err(|why| ResultsError::Stale {
            reader,
            results,
            why,
        })?;
        Ok(stamp)
    }
}

/// Per-node results that know what they describe, to be handed to later passes
/// through [`Results`], whose example implements it.
///
/// ```
/// use scenewalk_core::{Graph, Stamp, Stamped};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// struct Heights(Option<Stamp>); // and the heights, by slot
/// impl Stamped for Heights {
///     fn stamp(&self) -> Option<Stamp> { self.0 }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let heights = Heights(Some(Stamp::new(&graph, root.index())));
/// assert!(heights.stamp().is_some_and(|s| s.check(&graph, root.index()).is_ok()));
/// graph.append_child(root, Group)?;
/// assert!(heights.stamp().is_some_and(|s| s.check(&graph, root.index()).is_err()));
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
pub trait Stamped: Any + Send + Sync {
    /// What the results describe; `None` before any run.
    fn stamp(&self) -> Option<Stamp>;
}

/// The results of earlier passes that a run reads: shared handles, one per kind, each
/// with its [`Stamp`]. A reader takes its input in `begin` with [`RunContext::read`],
/// which refuses results that are missing or stale, and lets go of it in `end`, so the
/// pass that made them can write its next run in place.
///
/// ```
/// use std::sync::Arc;
/// use scenewalk_core::{Graph, Results, ResultsError, Stamp, Stamped};
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// struct Heights(Stamp);
/// impl Stamped for Heights {
///     fn stamp(&self) -> Option<Stamp> { Some(self.0) }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let results = Results::new().with(Arc::new(Heights(Stamp::new(&graph, root.index()))));
/// assert!(results.get::<Heights>("reader", &graph, root.index()).is_ok());
/// graph.append_child(root, Group)?;
/// assert!(matches!(
///     results.get::<Heights>("reader", &graph, root.index()),
///     Err(ResultsError::Stale { .. })
/// ));
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Default)]
pub struct Results {
    entries: Vec<(TypeId, Arc<dyn Any + Send + Sync>, Option<Stamp>)>,
}

impl fmt::Debug for Results {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Results")
            .field("kinds", &self.entries.len())
            .finish()
    }
}

/// The empty set of results, for runs that read none.
pub(crate) static NO_RESULTS: Results = Results {
    entries: Vec::new(),
};

impl Results {
    /// No results.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) the results of one kind.
    #[must_use]
    pub fn with<T: Stamped>(mut self, results: Arc<T>) -> Self {
        self.insert(results);
        self
    }

    /// Adds (or replaces) the results of one kind.
    pub fn insert<T: Stamped>(&mut self, results: Arc<T>) {
        let stamp = results.stamp();
        let entry = (
            TypeId::of::<T>(),
            results as Arc<dyn Any + Send + Sync>,
            stamp,
        );
        match self.entries.iter_mut().find(|e| e.0 == entry.0) {
            Some(slot) => *slot = entry,
            None => self.entries.push(entry),
        }
    }

    /// The results of kind `T`, checked for a run from `root` over `graph`; `reader`
    /// names who asks, for the error.
    pub fn get<T: Stamped>(
        &self,
        reader: &'static str,
        graph: &Graph,
        root: NodeIndex,
    ) -> Result<Arc<T>, ResultsError> {
        let results = crate::graph::short_type_name::<T>();
        let found = self.entries.iter().find(|e| e.0 == TypeId::of::<T>());
        let stamp = found.and_then(|e| e.2);
        Stamp::checked(stamp, reader, results, |s| s.check(graph, root))?;
        let shared = found.and_then(|e| Arc::clone(&e.1).downcast::<T>().ok());
        shared.ok_or(ResultsError::Missing { reader, results })
    }
}

impl RunContext<'_> {
    /// The results of kind `T` this run was given ([`Action::run_with`](crate::Action::run_with)),
    /// checked to describe the graph as it is now and a root at or above this run's;
    /// `reader` names the caller in the error. Call it in `begin`, keep it until `end`.
    pub fn read<T: Stamped>(&self, reader: &'static str) -> Result<Arc<T>, ResultsError> {
        self.results.get::<T>(reader, self.graph, self.root)
    }
}
