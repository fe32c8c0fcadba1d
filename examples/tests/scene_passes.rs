//! The tour's update and view actions give the same results as the hand-written
//! monolithic loops they are benchmarked against.

use scenewalk_actors::{
    Bounds, FrustumCull, LodSelect, RenderList, Statistics, SwitchSelect, WorldTransforms,
};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{Action, Ordered, Static};
use scenewalk_examples::passes::update_action;
use scenewalk_examples::scene_baseline::{HandUpdate, HandView};
use scenewalk_examples::{CityMeshes, CityScene};
use scenewalk_iterators::{DepthFirst, PriorityQueue};
use scenewalk_nodes::Camera;

#[test]
fn actions_and_hand_loops_agree_on_a_city() {
    let city = CityScene::build(5, 11, &CityMeshes::generated().unwrap()).unwrap();
    let (graph, root) = (&city.graph, city.root);

    let mut update = update_action().unwrap();
    update.run(graph, root).unwrap();
    let mut hand = HandUpdate::default();
    hand.run(graph, root.index());

    let world = update.actor::<WorldTransforms>().unwrap();
    let bounds = update.actor::<Bounds>().unwrap();
    let results = scenewalk_examples::passes::results(&update);
    let stats = update.actor::<Statistics>().unwrap();
    for (ty, _) in graph.types().iter() {
        assert_eq!(stats.count_of_type(ty), hand.per_type[ty.get()]);
    }
    for slot in 0..graph.capacity() {
        let node = scenewalk_core::NodeIndex::new(slot as u32);
        assert_eq!(
            world.table().at(node),
            Some(hand.world[slot]),
            "world of {slot}"
        );
        assert_eq!(
            bounds.table().at(node),
            Some(hand.bounds[slot]),
            "box of {slot}"
        );
    }

    let camera_world = world.table().world(graph, city.camera).unwrap();
    let camera = graph.get::<Camera>(city.camera).unwrap();
    let frustum = camera.frustum(&camera_world);
    let eye = Vec3::from(camera_world.translation);
    let view = camera_world.inverse();

    let chain = || {
        (
            Ordered::new(FrustumCull::new(frustum)),
            Static::new(LodSelect::new(eye)),
            Static::new(SwitchSelect),
            Ordered::new(RenderList::new(view)),
        )
    };
    let mut depth_first = Action::new(DepthFirst::new(), chain()).unwrap();
    let entered = depth_first.run_with(graph, root, &results).unwrap().entered;
    let mut by_key = Action::new(PriorityQueue::new(), chain()).unwrap();
    by_key.run_with(graph, root, &results).unwrap();

    let mut hand_view = HandView::default();
    hand_view.run(graph, root.index(), &frustum, &hand.bounds, eye, &view);

    let items = depth_first.actor::<RenderList>().unwrap().items();
    assert!(
        items.len() > 100,
        "the camera sees part of the city: {}",
        items.len()
    );
    assert!(
        entered < graph.len() as u64 / 2,
        "and culls most of it: {entered}"
    );
    assert_eq!(entered, hand_view.entered);
    assert_eq!(items, &hand_view.items[..]);
    assert_eq!(by_key.actor::<RenderList>().unwrap().items(), items);
}
