//! Case h: the frame on the tour's city with 1 % of its transforms moved per frame,
//! viewed from the overview camera (the whole city): edit, incremental update,
//! hand-over of its results and the view, against the same frame from scratch (a full
//! update, the results copied as a handle-less design must, and the view); and each
//! phase alone, for the hand-over's share of the frame and the frame against the
//! update and the view run alone.

use crate::Config;
use scenewalk_actors::{Bounds, IncrementalUpdate, RenderList, WorldTransforms};
use scenewalk_core::Results;
use scenewalk_examples::frame::{Mover, movers};
use scenewalk_examples::passes::{UpdateAction, ViewAction, update_action, view_action};
use scenewalk_examples::report::{Contender, Row, round_robin};
use scenewalk_examples::{CityMeshes, CityScene};
use scenewalk_nodes::Transform;
use std::cell::RefCell;
use std::sync::Arc;

/// One graph and its passes.
struct Side<U> {
    city: CityScene,
    movers: Vec<Mover>,
    update: U,
    view: ViewAction,
    t: f32,
}

impl<U> Side<U> {
    /// Moves this frame's 1 %.
    fn edit(&mut self) {
        self.t += 1.0 / 30.0;
        for mover in &self.movers {
            if let Ok(t) = self.city.graph.get_mut::<Transform>(mover.node) {
                t.set_local(mover.at(self.t));
            }
        }
    }

    fn checksum(&self) -> u64 {
        self.view
            .actor::<RenderList>()
            .map_or(0, |l| l.items().len() as u64)
    }
}

/// Runs case h.
pub fn run(config: &Config) -> Vec<Row> {
    let blocks = if config.quick { 16 } else { 48 };
    let meshes = CityMeshes::generated().expect("the meshes build");
    let city = CityScene::build(blocks, 11, &meshes).expect("the city builds");
    let nodes = city.graph.len() as u64;
    let (camera, placed) = city.overview().expect("the overview camera is valid");
    let frustum = camera.frustum(&placed);
    let moving = movers(&city.graph, city.root, 0.01, None);
    let case = format!("h. frame city {:.0}k", nodes as f64 / 1e3);

    let mut incremental = Side {
        city: CityScene {
            graph: city.graph.clone(),
            ..city
        },
        movers: moving.clone(),
        update: IncrementalUpdate::new(),
        view: view_action(&frustum, &placed).expect("compatible"),
        t: 0.0,
    };
    incremental
        .update
        .run(&incremental.city.graph, incremental.city.root)
        .expect("root is live");
    let mut scratch: Side<UpdateAction> = Side {
        city: CityScene::build(blocks, 11, &meshes).expect("the city builds"),
        movers: moving,
        update: update_action().expect("compatible"),
        view: view_action(&frustum, &placed).expect("compatible"),
        t: 0.0,
    };
    let incremental = RefCell::new(incremental);

    let frame = |s: &mut Side<IncrementalUpdate>, edit: bool, update: bool, view: bool| {
        if edit {
            s.edit();
        }
        let (graph, root) = (&s.city.graph, s.city.root);
        if update {
            s.update.run(graph, root).expect("root is live");
        }
        let results = s.update.results();
        if view {
            s.view.run_with(graph, root, &results).expect("fresh");
        }
        s.checksum()
    };
    let mut contenders = vec![
        Contender::new("from_scratch_full_update_copies_view", nodes, || {
            scratch.edit();
            let (graph, root) = (&scratch.city.graph, scratch.city.root);
            scratch.update.run(graph, root).expect("root is live");
            // The results copied whole, as every reader's own copy.
            let world = scratch.update.actor::<WorldTransforms>().expect("there");
            let bounds = scratch.update.actor::<Bounds>().expect("there");
            let results = Results::new()
                .with(Arc::new(world.table().as_ref().clone()))
                .with(Arc::new(bounds.table().as_ref().clone()));
            scratch.view.run_with(graph, root, &results).expect("fresh");
            scratch.checksum()
        }),
        Contender::new("frame_incremental_hand_over_view", nodes, || {
            frame(&mut incremental.borrow_mut(), true, true, true)
        }),
        Contender::new("phase_edit_and_update", nodes, || {
            frame(&mut incremental.borrow_mut(), true, true, false)
        }),
        Contender::new("phase_view", nodes, || {
            frame(&mut incremental.borrow_mut(), false, false, true)
        }),
        Contender::new("phase_hand_over", nodes, || {
            frame(&mut incremental.borrow_mut(), false, false, false)
        }),
    ];
    let measured = round_robin(&mut contenders, config.reps());
    drop(contenders);
    let mut rows = Row::from_measured(&case, &measured, "from_scratch_full_update_copies_view");
    let time = |name: &str| {
        measured
            .iter()
            .find(|m| m.name == name)
            .map_or((f64::NAN, f64::NAN), |m| (m.median, m.min))
    };
    let frame_time = time("frame_incremental_hand_over_view");
    let parts = [time("phase_edit_and_update"), time("phase_view")];
    let (hand_over, alone) = (
        time("phase_hand_over"),
        (parts[0].0 + parts[1].0, parts[0].1 + parts[1].1),
    );
    let derived = |contender: &str, (num, num_min): (f64, f64), (den, den_min): (f64, f64)| Row {
        case: case.clone(),
        contender: contender.to_string(),
        ns_per_node: num / nodes as f64,
        ratio: num / den,
        min_ratio: num_min / den_min,
        bytes_per_node: None,
    };
    rows.push(derived("share:_hand_over/frame", hand_over, frame_time));
    rows.push(derived("frame/(update+view_alone)", frame_time, alone));
    rows
}
