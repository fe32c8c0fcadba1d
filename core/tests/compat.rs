//! Building an action checks each actor's class against the iterator's capabilities;
//! third-party iterators (written here against the public trait) take part too.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActionError, ActiveEntry, ActiveList, Actor, ActorClass, Capabilities, Dispatch,
    Events, Flow, Frame, Graph, NodeCore, NodeId, NodeIndex, Ordered, OrderedActor, OrderedState,
    RunContext, StateCell, StateKind, Static, StaticActor, Step, TraversalError, TraversalIterator,
    Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::DfsWalker;
use std::collections::HashSet;

#[derive(Clone, Debug)]
struct Group;
impl NodeCore for Group {}

// ----- a stackless pre-order iterator: no leave events, no ordered state ------------------

/// Walks with a `DfsWalker`'s enter events alone (pre-order), so it reports no leave
/// events and keeps no state for ordered actors.
#[derive(Default)]
struct Stackless {
    walker: Option<DfsWalker>,
    current: Option<NodeIndex>,
    children: Vec<ActiveEntry>,
    /// Children the actors deactivated, skipped when the walk reaches them.
    skipped: HashSet<NodeIndex>,
}

impl TraversalIterator for Stackless {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "Stackless",
            leave_events: false,
            current_node: true,
            ordered_state: OrderedState::Unsupported,
        }
    }

    fn start(&mut self, graph: &Graph, root: NodeIndex, _leave_events: bool) {
        self.clear();
        self.walker = graph.id_at(root).map(DfsWalker::new);
    }

    fn next(&mut self, graph: &Graph) -> Option<Step> {
        let walker = self.walker.as_mut()?;
        let mut node = walker.next_enter(graph)?;
        while self.skipped.contains(&node) {
            walker.skip_subtree();
            node = walker.next_enter(graph)?;
        }
        let depth = walker.depth();
        self.current = Some(node);
        self.children.clear();
        let mut child = graph.first_child_at(node);
        while let Some(c) = child {
            self.children.push(ActiveEntry::new(c, depth + 1));
            child = graph.next_sibling_at(c);
        }
        Some(Step::Enter {
            node,
            depth,
            frame: Frame::ROOT,
        })
    }

    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        ActiveList::new(&mut self.children)
    }

    fn commit(&mut self, _graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        let (Some(walker), Some(_)) = (self.walker.as_mut(), self.current.take()) else {
            return Ok(0);
        };
        self.skipped.extend(
            self.children
                .iter()
                .filter(|e| !e.is_active())
                .map(|e| e.node()),
        );
        if flow != Flow::Continue {
            walker.skip_subtree();
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.walker = None;
        self.current = None;
        self.children.clear();
        self.skipped.clear();
    }
}

// ----- a batching iterator: whole levels, no current node ------------------------------------

/// Hands each level of the tree to the actors as one batch.
#[derive(Default)]
struct Levels {
    level: Vec<ActiveEntry>,
    depth: u32,
    started: bool,
}

impl TraversalIterator for Levels {
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            name: "Levels",
            leave_events: false,
            current_node: false,
            ordered_state: OrderedState::Unsupported,
        }
    }
    fn start(&mut self, _graph: &Graph, root: NodeIndex, _leave_events: bool) {
        self.level.clear();
        self.level.push(ActiveEntry::new(root, 0));
        self.depth = 0;
        self.started = false;
    }
    fn next(&mut self, _graph: &Graph) -> Option<Step> {
        if self.level.is_empty() {
            return None;
        }
        if self.started {
            self.depth += 1;
        }
        self.started = true;
        Some(Step::Batch { depth: self.depth })
    }
    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        ActiveList::new(&mut self.level)
    }
    fn commit(&mut self, graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        let mut next = Vec::new();
        if flow == Flow::Continue {
            for e in self.level.iter().filter(|e| e.is_active()) {
                let mut child = graph.first_child_at(e.node());
                while let Some(c) = child {
                    next.push(ActiveEntry::new(c, e.depth() + 1));
                    child = graph.next_sibling_at(c);
                }
            }
        }
        self.level = next;
        Ok(0)
    }
    fn clear(&mut self) {
        self.level.clear();
    }
}

// ----- actors -----------------------------------------------------------------------------------

/// Enter-only: fine under every iterator with a current node.
#[derive(Default)]
struct Preorder {
    seen: Vec<NodeId>,
    prune: HashSet<NodeId>,
    deactivate_first: HashSet<NodeId>,
}
impl UnorderedActor for Preorder {
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.seen.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        self.seen.push(visit.id());
        if self.deactivate_first.contains(&visit.id()) {
            active.deactivate(0);
        }
        if self.prune.contains(&visit.id()) {
            Flow::Prune
        } else {
            Flow::Continue
        }
    }
}

/// Needs leave events.
struct NeedsLeave;
impl UnorderedActor for NeedsLeave {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

/// A static actor that needs leave events.
struct StaticNeedsLeave;
impl StaticActor for StaticNeedsLeave {
    const EVENTS: Events = Events::EnterLeave;
    fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

/// Keeps ordered state, enter-only.
struct Depths;
impl OrderedActor for Depths {
    type State = u32;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<u32, scenewalk_core::TraversalError> {
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
}

/// Counts nodes in batches (and would count them one by one too).
#[derive(Default)]
struct BatchCounter {
    batches: Vec<(u32, usize)>,
}
impl UnorderedActor for BatchCounter {
    const BATCHES: bool = true;
    fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.batches.push((u32::MAX, 1));
        Flow::Continue
    }
    fn enter_batch(&mut self, _: &Graph, depth: u32, batch: &mut ActiveList<'_>) -> Flow {
        self.batches.push((depth, batch.len()));
        Flow::Continue
    }
}

/// root [a [a1 a2] b [b1 [b1x]] c]
fn sample() -> (Graph, Vec<NodeId>) {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let a = g.append_child(root, Group).unwrap();
    let a1 = g.append_child(a, Group).unwrap();
    let a2 = g.append_child(a, Group).unwrap();
    let b = g.append_child(root, Group).unwrap();
    let b1 = g.append_child(b, Group).unwrap();
    let b1x = g.append_child(b1, Group).unwrap();
    let c = g.append_child(root, Group).unwrap();
    // Scatter the layout a little: the walk must follow links, not slots.
    g.set_parent(a, Some(root), Some(c)).unwrap();
    (g, vec![root, b, b1, b1x, a, a1, a2, c])
}

/// The error of an action that must not build (`Action` is not `Debug`).
fn refused<I, C>(built: Result<Action<I, C>, ActionError>) -> ActionError {
    match built {
        Ok(_) => panic!("the action was built but should have been refused"),
        Err(err) => err,
    }
}

fn incompatible(err: ActionError) -> (&'static str, &'static str, String) {
    match err {
        ActionError::Incompatible {
            actor,
            iterator,
            reason,
        } => (actor, iterator, reason),
        #[allow(unreachable_patterns)]
        other => panic!("unexpected error {other:?}"),
    }
}

#[test]
fn third_party_iterator_runs_enter_only_actors() {
    let (g, order) = sample();
    let mut action =
        Action::new(Stackless::default(), (Unordered::new(Preorder::default()),)).unwrap();
    let stats = action.run(&g, order[0]).unwrap();
    assert_eq!(action.actor::<Preorder>().unwrap().seen, order);
    assert_eq!((stats.entered, stats.left), (8, 0));

    // Prune b, deactivate a's first child: same result as depth-first.
    let (b, a) = (order[1], order[4]);
    action.actor_mut::<Preorder>().unwrap().prune.insert(b);
    action
        .actor_mut::<Preorder>()
        .unwrap()
        .deactivate_first
        .insert(a);
    action.run(&g, order[0]).unwrap();
    let stackless = action.actor::<Preorder>().unwrap().seen.clone();
    let mut depth_first = Action::new(
        DepthFirst::new(),
        (Unordered::new(Preorder {
            prune: [b].into(),
            deactivate_first: [a].into(),
            ..Preorder::default()
        }),),
    )
    .unwrap();
    depth_first.run(&g, order[0]).unwrap();
    assert_eq!(stackless, depth_first.actor::<Preorder>().unwrap().seen);
    assert_eq!(stackless, [order[0], b, a, order[6], order[7]]);
}

#[test]
fn enter_leave_actor_needs_leave_events() {
    let err = refused(Action::new(
        Stackless::default(),
        (Unordered::new(NeedsLeave),),
    ));
    let text = err.to_string();
    let (actor, iterator, reason) = incompatible(err);
    assert_eq!(actor, scenewalk_core::short_type_name::<NeedsLeave>());
    assert_eq!(iterator, "Stackless");
    assert!(reason.contains("leave"), "{reason}");
    assert!(
        text.contains(scenewalk_core::short_type_name::<NeedsLeave>()),
        "{text}"
    );
    assert!(
        text.contains("NeedsLeave") && text.contains("Stackless"),
        "{text}"
    );

    let err = refused(Action::new(
        Stackless::default(),
        (Static::new(StaticNeedsLeave),),
    ));
    assert_eq!(
        incompatible(err).0,
        scenewalk_core::short_type_name::<StaticNeedsLeave>()
    );
    // Depth-first gives leave events.
    assert!(
        Action::new(
            DepthFirst::new(),
            (Unordered::new(NeedsLeave), Static::new(StaticNeedsLeave))
        )
        .is_ok()
    );
}

#[test]
fn ordered_actor_needs_ordered_state_support() {
    let err = refused(Action::new(Stackless::default(), (Ordered::new(Depths),)));
    let text = err.to_string();
    let (actor, iterator, reason) = incompatible(err);
    assert_eq!(actor, scenewalk_core::short_type_name::<Depths>());
    assert_eq!(iterator, "Stackless");
    assert!(reason.contains("ordered"), "{reason}");
    assert!(text.contains("Depths"), "{text}");
    assert!(Action::new(DepthFirst::new(), (Ordered::new(Depths),)).is_ok());
}

#[test]
fn the_refused_actor_is_named_in_a_chain() {
    // The first actor is fine; the second and third are not: the second is named.
    let err = refused(Action::new(
        Stackless::default(),
        (
            Unordered::new(Preorder::default()),
            Ordered::new(Depths),
            Unordered::new(NeedsLeave),
        ),
    ));
    assert_eq!(
        incompatible(err).0,
        scenewalk_core::short_type_name::<Depths>()
    );

    let chain: Vec<Box<dyn Actor>> = vec![
        Box::new(Unordered::new(Preorder::default())),
        Box::new(Unordered::new(NeedsLeave)),
    ];
    let err = refused(Action::new(Stackless::default(), chain));
    assert!(err.to_string().contains("NeedsLeave"), "{err}");
}

#[test]
fn check_table() {
    let caps = |leave_events, current_node, ordered_state| Capabilities {
        name: "Test",
        leave_events,
        current_node,
        ordered_state,
    };
    let class = |events, state, dispatch, batches| ActorClass {
        name: "actor",
        events,
        state,
        dispatch,
        batches,
    };
    use Events::*;
    use OrderedState::*;
    use StateKind::*;
    let single = Dispatch::single::<Group>();
    let cases = [
        // (class, capabilities, accepted)
        (
            class(Enter, Unordered, Dispatch::Uniform, false),
            caps(false, true, Unsupported),
            true,
        ),
        (
            class(EnterLeave, Unordered, Dispatch::Uniform, false),
            caps(false, true, DepthStack),
            false,
        ),
        (
            class(EnterLeave, Static, single, false),
            caps(true, true, Unsupported),
            true,
        ),
        (
            class(Enter, Ordered, Dispatch::Uniform, false),
            caps(false, true, Unsupported),
            false,
        ),
        (
            class(Enter, Ordered, Dispatch::Uniform, false),
            caps(false, true, DepthStack),
            true,
        ),
        (
            class(Enter, Ordered, Dispatch::Uniform, false),
            caps(false, true, Copies),
            true,
        ),
        (
            class(EnterLeave, Ordered, Dispatch::PerType, false),
            caps(true, true, Copies),
            true,
        ),
        // Batching iterators have no current node.
        (
            class(Enter, Ordered, Dispatch::Uniform, true),
            caps(false, false, DepthStack),
            false,
        ),
        (
            class(Enter, Unordered, single, true),
            caps(false, false, Unsupported),
            false,
        ),
        (
            class(Enter, Static, Dispatch::PerType, true),
            caps(false, false, Unsupported),
            false,
        ),
        (
            class(Enter, Static, Dispatch::Uniform, true),
            caps(false, false, Unsupported),
            true,
        ),
    ];
    for (i, (class, caps, accepted)) in cases.into_iter().enumerate() {
        let got = class.check(&caps);
        assert_eq!(
            got.is_ok(),
            accepted,
            "case {i}: {class:?} under {caps:?}: {got:?}"
        );
        if let Err(err) = got {
            let (actor, iterator, _) = incompatible(err);
            assert_eq!((actor, iterator), ("actor", "Test"));
        }
    }
}

#[test]
fn batching_actor_runs_under_a_batching_iterator() {
    let (g, order) = sample();
    let mut action = Action::new(
        Levels::default(),
        (Unordered::new(BatchCounter::default()),),
    )
    .unwrap();
    let stats = action.run(&g, order[0]).unwrap();
    // Levels: root; b, a, c; b1, a1, a2; b1x.
    assert_eq!(
        action.actor::<BatchCounter>().unwrap().batches,
        [(0, 1), (1, 3), (2, 3), (3, 1)]
    );
    assert_eq!((stats.entered, stats.batches, stats.chain_calls), (8, 4, 4));
}

#[test]
fn non_batching_actor_is_refused_by_a_batching_iterator() {
    let err = refused(Action::new(
        Levels::default(),
        (Unordered::new(Preorder::default()),),
    ));
    let (actor, iterator, _) = incompatible(err);
    assert_eq!(
        (actor, iterator),
        (scenewalk_core::short_type_name::<Preorder>(), "Levels")
    );
    let class = ActorClass {
        name: "actor",
        events: Events::Enter,
        state: StateKind::Unordered,
        dispatch: Dispatch::Uniform,
        batches: false,
    };
    let caps = Levels::default().capabilities();
    assert!(class.check(&caps).is_err());
}
