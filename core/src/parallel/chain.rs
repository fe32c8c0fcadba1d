//! The public name of a chain that runs in parallel.

use crate::actor::ActorChain;
use crate::parallel::fork::Fork;

/// An [`ActorChain`] that [`Action::run_parallel`](crate::Action::run_parallel) can
/// split into workers: every tuple of up to eight adapters ([`Static`](crate::Static),
/// [`Unordered`](crate::Unordered), [`Ordered`](crate::Ordered)). Name it to write code
/// generic over such chains.
///
/// Sealed: how a chain is forked and merged back is the framework's business; actors
/// take part through the fork/merge hooks of their kind
/// ([`UnorderedActor::fork`](crate::UnorderedActor::fork),
/// [`OrderedActor::fork`](crate::OrderedActor::fork)), checked when the run starts
/// ([`check_parallel`](crate::check_parallel)). A `Vec<Box<dyn Actor>>` chain runs
/// sequentially only.
///
/// ```
/// use scenewalk_core::{
///     Action, ActiveList, DepthFirst, Flow, Graph, NodeId, ParallelChain, Static,
///     StaticActor, TraversalError, Visit,
/// };
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// /// How many nodes any splittable chain enters in a parallel run.
/// fn entered<C: ParallelChain>(chain: C, graph: &Graph, root: NodeId) -> Result<u64, TraversalError> {
///     let mut action = Action::new(DepthFirst::new(), chain)?;
///     Ok(action.run_parallel(graph, root)?.entered)
/// }
///
/// struct Everything;
/// impl StaticActor for Everything {
///     fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
///         Flow::Continue
///     }
/// }
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// graph.append_child(root, Group)?;
/// assert_eq!(entered((Static::new(Everything),), &graph, root)?, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The glue behind it is not public:
///
/// ```compile_fail
/// use scenewalk_core::{Fork, Walker};
/// ```
pub trait ParallelChain: ActorChain + Fork {}

impl<C: ActorChain + Fork> ParallelChain for C {}
