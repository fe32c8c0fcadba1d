//! The frame's hand-over copies nothing: a steady-state frame (edit, incremental
//! update, hand-over, view, picks) allocates a small, fixed number of bytes whatever
//! the size of the scene, while a reader that keeps the update's results past the
//! frame makes the next update copy its tables, which the same count sees.

use scenewalk_examples::frame::{Frame, FrameTimes, Seen, movers};
use scenewalk_examples::{CityMeshes, CityScene};
use scenewalk_nodes::Transform;

const PICKS: [(f32, f32); 5] = [
    (0.0, -0.2),
    (-0.5, -0.3),
    (0.5, -0.3),
    (-0.2, -0.6),
    (0.3, -0.1),
];

/// Bytes allocated by one steady-state frame of a city of `blocks`² blocks with ten
/// moving transforms, and by the same frame while a handle to the results is held.
fn frame_bytes(blocks: usize) -> (u64, u64, usize) {
    let mut city = CityScene::build(blocks, 3, &CityMeshes::generated().unwrap()).unwrap();
    let every = movers(&city.graph, city.root, 1.0, None);
    let moving: Vec<_> = every.iter().step_by(every.len() / 10).take(10).collect();
    let mut frame = Frame::new().unwrap();
    let mut seen = Seen::default();
    let mut step = |city: &mut CityScene, frame: &mut Frame, t: f32| {
        for mover in &moving {
            city.graph
                .get_mut::<Transform>(mover.node)
                .unwrap()
                .set_local(mover.at(t));
        }
        let mut times = FrameTimes::default();
        frame
            .run(
                &city.graph,
                city.root,
                city.camera,
                &PICKS,
                &mut times,
                &mut seen,
            )
            .unwrap();
    };
    // Warm up: buffers grow, and the update builds its patch plan once patches have
    // re-walked a third of the tree.
    for k in 0..40 {
        step(&mut city, &mut frame, k as f32);
    }
    let steady = allocation_counter::measure(|| step(&mut city, &mut frame, 40.0));
    let held = frame.update().results();
    let holding = allocation_counter::measure(|| step(&mut city, &mut frame, 41.0));
    drop(held);
    (steady.bytes_total, holding.bytes_total, city.graph.len())
}

#[test]
fn a_frame_allocates_the_same_few_bytes_at_any_scene_size() {
    let (small, small_held, small_nodes) = frame_bytes(2);
    let (large, large_held, large_nodes) = frame_bytes(8);
    assert!(
        large_nodes > 12 * small_nodes,
        "{small_nodes} and {large_nodes} nodes"
    );
    // The results list and the patch's scratch: a fixed amount (336 bytes when
    // written).
    let bound = 1024;
    assert!(
        small <= bound && large <= bound,
        "{small} and {large} bytes a frame"
    );
    // Holding the results makes the next update copy its tables: O(n) bytes, which
    // the count sees (so the bound above is not met by a counter that sees nothing).
    assert!(
        large_held > 50 * bound,
        "{large_held} bytes while a handle was held"
    );
    assert!(large_held > 4 * small_held, "{small_held} / {large_held}");
}
