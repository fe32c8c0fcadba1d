//! One import line is enough for the common case: a node type of one's own, an actor
//! of each kind, an action.

use scenewalk_core::prelude::*;

/// A node of this test's own type, extending another of its own.
#[derive(Clone, Debug)]
struct Mass(f32);
impl NodeCore for Mass {}

#[derive(Clone, Debug)]
struct Heavy(Mass);
impl NodeCore for Heavy {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Mass>())
    }
}

/// Prunes below heavy nodes.
struct StopAtHeavy;
impl StaticActor for StopAtHeavy {
    fn dispatch(&self) -> Dispatch {
        Dispatch::single::<Heavy>()
    }
    fn enter(&self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Prune
    }
}

/// Total mass of the nodes entered.
#[derive(Default)]
struct Total(f32);
impl UnorderedActor for Total {
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), TraversalError> {
        self.0 = 0.0;
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0 += visit.get::<Mass>().map_or(0.0, |m| m.0);
        Flow::Continue
    }
}

/// Each node's position: its depth along x, accumulated as a transform.
#[derive(Default)]
struct Positions(Vec<Vec3>);
impl OrderedActor for Positions {
    type State = Affine3A;
    const EVENTS: Events = Events::Enter;
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<Affine3A, TraversalError> {
        self.0.clear();
        Ok(Affine3A::IDENTITY)
    }
    fn enter(
        &mut self,
        state: &mut StateCell<'_, Affine3A>,
        visit: &Visit<'_>,
        _: &mut ActiveList<'_>,
    ) -> Flow {
        if visit.depth() > 0 {
            *state.make_mut() = *state.get() * Affine3A::from_translation(Vec3::X);
        }
        self.0.push(state.get().translation.into());
        Flow::Continue
    }
}

#[test]
fn a_custom_node_and_three_actors_need_only_the_prelude() -> Result<(), TraversalError> {
    let mut graph = Graph::new();
    let root: NodeId = graph.add_root(Mass(1.0));
    let heavy = graph.append_child(root, Heavy(Mass(10.0)))?;
    graph.append_child(heavy, Mass(100.0))?;
    let light = graph.append_child(root, Mass(2.0))?;
    graph.append_child(light, Mass(3.0))?;

    let chain = (
        Static::new(StopAtHeavy),
        Unordered::new(Total::default()),
        Ordered::new(Positions::default()),
    );
    let mut action = Action::new(DepthFirst::new(), chain)?;
    let stats: RunStats = action.run(&graph, root)?;

    // The heavy node is entered (and weighed) but its child is not.
    assert_eq!((stats.entered, stats.pruned), (4, 1));
    assert_eq!(action.actor::<Total>().map(|t| t.0), Some(16.0));
    let depths = [0.0, 1.0, 1.0, 2.0].map(|x| x * Vec3::X);
    assert_eq!(
        action.actor::<Positions>().map(|p| p.0.clone()),
        Some(depths.to_vec())
    );
    // The rest of the vocabulary resolves through the prelude too.
    let _names = (
        Aabb::EMPTY,
        Quat::IDENTITY,
        Mat4::IDENTITY,
        Results::new(),
        GraphError::Full(0),
    );
    Ok(())
}
