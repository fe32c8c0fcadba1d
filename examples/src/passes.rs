//! The tour's two passes as actions, built in one place for the tour, the tests and
//! the benchmarks.

use scenewalk_actors::{Bounds, FrustumCull, LodSelect, RenderList, Statistics, SwitchSelect};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Action, ActionError, Ordered, Results, Static, Unordered};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Frustum;

/// The update pass: world transforms (carried by `Bounds`, each matrix computed once),
/// world bounds and statistics, depth-first. Every actor forks, so
/// `Action::run_parallel` runs it on all cores with the sequential results.
pub type UpdateAction = Action<DepthFirst, (Ordered<Bounds>, Unordered<Statistics>)>;

/// The view pass: frustum culling, level of detail, switches and the render list;
/// like the update pass, it runs in parallel as is (`Action::run_parallel`).
pub type ViewAction = Action<
    DepthFirst,
    (
        Ordered<FrustumCull>,
        Static<LodSelect>,
        Static<SwitchSelect>,
        Ordered<RenderList>,
    ),
>;

/// A new update action.
pub fn update_action() -> Result<UpdateAction, ActionError> {
    Action::new(
        DepthFirst::new(),
        (
            Ordered::new(Bounds::new()),
            Unordered::new(Statistics::new()),
        ),
    )
}

/// The update pass's results, handed to the view and pick passes with
/// [`Action::run_with`]: handles to its world transforms and boxes, nothing copied.
pub fn results(update: &UpdateAction) -> Results {
    let bounds = update.actors().0.get();
    Results::new()
        .with(bounds.transforms().table())
        .with(bounds.table())
}

/// A new view action for a camera with world transform `placed` and view volume
/// `frustum`; each run reads an update pass's results ([`results`]).
///
/// ```
/// use scenewalk_actors::RenderList;
/// use scenewalk_examples::passes::{results, update_action, view_action};
///
/// let city = scenewalk_examples::CityScene::build(2, 1, &scenewalk_examples::CityMeshes::generated()?)?;
/// let mut update = update_action()?;
/// update.run(&city.graph, city.root)?;
/// let (camera, placed) = city.overview()?;
/// let mut view = view_action(&camera.frustum(&placed), &placed)?;
/// view.run_with(&city.graph, city.root, &results(&update))?;
/// assert!(!view.actor::<RenderList>().unwrap().items().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn view_action(frustum: &Frustum, placed: &Affine3A) -> Result<ViewAction, ActionError> {
    let eye = Vec3::from(placed.translation);
    Action::new(
        DepthFirst::new(),
        (
            Ordered::new(FrustumCull::new(*frustum)),
            Static::new(LodSelect::new(eye)),
            Static::new(SwitchSelect),
            Ordered::new(RenderList::new(placed.inverse())),
        ),
    )
}
