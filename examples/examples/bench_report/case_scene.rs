//! Case f: the tour's passes on its 55,706-node city against hand-written monolithic
//! loops doing the same work (`scenewalk_examples::scene_baseline`): the update
//! (world transforms, statistics, bounds) and the view (cull + LOD + switch + render
//! list) from the city's street camera and from a camera high above seeing it all.

use crate::Config;
use scenewalk_actors::{Bounds, RenderList, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_examples::CityScene;
use scenewalk_examples::passes::{self, update_action, view_action};
use scenewalk_examples::report::{Contender, Row, checksums, round_robin};
use scenewalk_examples::scene_baseline::{HandUpdate, HandView};
use scenewalk_nodes::Camera;

/// A checksum both sides compute the same way: count, then the slots of the draw
/// items in order.
fn list_checksum(entered: u64, items: &[scenewalk_actors::DrawItem]) -> u64 {
    items.iter().fold(entered, |h, i| {
        h.wrapping_mul(31).wrapping_add(i.node.get() as u64)
    })
}

/// Runs case f.
pub fn run(config: &Config) -> Vec<Row> {
    let city = CityScene::default_city().expect("the default city builds");
    let (graph, root) = (&city.graph, city.root);
    let nodes = graph.len() as u64;
    let mut rows = Vec::new();

    let mut update = update_action().expect("compatible");
    update.run(graph, root).expect("root is live");
    let mut hand_update = HandUpdate::default();
    hand_update.run(graph, root.index());
    let hand_bounds = hand_update.bounds.clone();
    {
        let case = format!("f. update city {:.1}k", nodes as f64 / 1e3);
        let mut contenders = vec![
            Contender::new("hand_loop_update", nodes, || {
                hand_update.run(graph, root.index());
                let b = hand_update.bounds[root.index().get()];
                u64::from(b.max.x.to_bits()) + hand_update.per_type.iter().sum::<u64>()
            }),
            Contender::new("action_transforms_stats_bounds", nodes, || {
                update.run(graph, root).expect("root is live");
                let b = update
                    .actor::<Bounds>()
                    .and_then(|b| b.table().at(root.index()))
                    .unwrap_or_default();
                u64::from(b.max.x.to_bits()) + update.actor::<Statistics>().map_or(0, |s| s.nodes())
            }),
        ];
        let measured = round_robin(&mut contenders, config.reps());
        rows.extend(Row::from_measured(&case, &measured, "hand_loop_update"));
    }

    let street = update
        .actor::<WorldTransforms>()
        .expect("there")
        .table()
        .world(graph, city.camera)
        .expect("the camera is reached");
    let results = passes::results(&update);
    let lens = *graph.get::<Camera>(city.camera).expect("a camera");
    let (wide, above) = city.overview().expect("the overview camera is valid");
    for (name, camera, placed) in [("street", lens, street), ("overview", wide, above)] {
        let frustum = camera.frustum(&placed);
        let eye = Vec3::from(placed.translation);
        let view: Affine3A = placed.inverse();
        let mut action = view_action(&frustum, &placed).expect("compatible");
        let entered = action
            .run_with(graph, root, &results)
            .expect("root is live")
            .entered;
        let mut hand = HandView::default();
        let case = format!("f. view {name} ({entered} entered)");
        let mut contenders = vec![
            Contender::new("hand_loop_view", entered, || {
                hand.run(graph, root.index(), &frustum, &hand_bounds, eye, &view);
                list_checksum(hand.entered, &hand.items)
            }),
            Contender::new("action_cull_lod_switch_render", entered, || {
                let stats = action
                    .run_with(graph, root, &results)
                    .expect("root is live");
                let items = action
                    .actor::<RenderList>()
                    .map_or(&[][..], RenderList::items);
                list_checksum(stats.entered, items)
            }),
        ];
        let measured = round_robin(&mut contenders, config.reps());
        assert!(
            measured.windows(2).all(|w| w[0].checksum == w[1].checksum),
            "{case}: the contenders disagree: {}",
            checksums(&measured)
        );
        rows.extend(Row::from_measured(&case, &measured, "hand_loop_view"));
    }
    rows
}
