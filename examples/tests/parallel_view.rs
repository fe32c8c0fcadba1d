//! The tour's culling pass as one parallel traversal: static culling, LOD and switch
//! actors shared by the workers, statistics forked and merged, with the sequential
//! run's results (the PAR cells of the library actors in docs/compatibility.md).

use scenewalk_actors::{Bounds, FrustumCull, LodSelect, Statistics, SwitchSelect, WorldTransforms};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{
    Action, ActiveList, Flow, NodeIndex, Ordered, Results, RunContext, Static, Unordered,
    UnorderedActor, Visit,
};
use scenewalk_examples::{CityMeshes, CityScene};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::Camera;
use std::sync::Arc;

/// The nodes entered, in order; forks and merges by appending.
#[derive(Default)]
struct Seen {
    nodes: Vec<NodeIndex>,
    workers: usize,
}

impl UnorderedActor for Seen {
    fn begin(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        self.nodes.clear();
        self.workers = 0;
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.nodes.push(visit.node());
        Flow::Continue
    }
    fn fork(&self) -> Option<Self> {
        Some(Self {
            nodes: Vec::new(),
            workers: 1,
        })
    }
    fn merge(&mut self, worker: Self) {
        self.nodes.extend(worker.nodes);
        self.workers += worker.workers;
    }
}

#[test]
fn the_culling_pass_in_parallel_equals_the_sequential_one() {
    let city = CityScene::build(8, 11, &CityMeshes::generated().unwrap()).unwrap();
    let (graph, root) = (&city.graph, city.root);
    let mut update = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    update.run(graph, root).unwrap();
    let world = update.actor::<WorldTransforms>().unwrap();
    let results = Results::new()
        .with(world.table())
        .with(update.actor::<Bounds>().unwrap().table());
    let camera_world = world.table().world(graph, city.camera).unwrap();
    let frustum = graph
        .get::<Camera>(city.camera)
        .unwrap()
        .frustum(&camera_world);
    let eye = Vec3::from(camera_world.translation);

    let chain = || {
        (
            Static::new(FrustumCull::new(frustum)),
            Static::new(LodSelect::new(eye)),
            Static::new(SwitchSelect),
            Unordered::new(Statistics::new()),
            Unordered::new(Seen::default()),
        )
    };
    let mut sequential = Action::new(DepthFirst::new(), chain()).unwrap();
    let expect = sequential.run_with(graph, root, &results).unwrap();
    assert!(
        expect.entered < graph.len() as u64 / 2,
        "the camera culls most of the city"
    );
    let cull = sequential.actor::<FrustumCull>().unwrap();
    let (tested, culled) = (cull.tested(), cull.culled());
    let counts = |a: &Action<DepthFirst, _>| {
        let s: &Statistics = a.actor::<Statistics>().unwrap();
        (
            s.nodes(),
            s.leaves(),
            s.depth_histogram().to_vec(),
            s.counts_by_type(),
        )
    };
    let expect_counts = counts(&sequential);
    let expect_nodes = sequential.actor::<Seen>().unwrap().nodes.clone();

    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut parallel = Action::new(DepthFirst::new(), chain()).unwrap();
        let got = pool
            .install(|| parallel.run_parallel_with(graph, root, &results))
            .unwrap();
        assert_eq!(
            (got.entered, got.pruned, got.stopped),
            (expect.entered, expect.pruned, expect.stopped)
        );
        assert_eq!(counts(&parallel), expect_counts, "{threads} threads");
        let cull = parallel.actor::<FrustumCull>().unwrap();
        assert_eq!((cull.tested(), cull.culled()), (tested, culled));
        let seen = parallel.actor::<Seen>().unwrap();
        assert_eq!(
            seen.nodes, expect_nodes,
            "document order, {threads} threads"
        );
        // One thread walks the city in one piece; more split it.
        assert!(
            threads == 1 || seen.workers > 1,
            "the city was split: {}",
            seen.workers
        );
    }
}

/// The tour's update pass (`passes::update_action`: ordered world transforms and
/// bounds, statistics) in parallel: every node's world matrix and box bit for bit,
/// and the ordered culling pass from those boxes, with the sequential runs' results.
#[test]
fn the_update_pass_and_ordered_culling_in_parallel_equal_the_sequential_ones() {
    use scenewalk_examples::passes::update_action;
    let city = CityScene::build(8, 11, &CityMeshes::generated().unwrap()).unwrap();
    let (graph, root) = (&city.graph, city.root);
    let slots: Vec<NodeIndex> = (0..graph.capacity() as u32).map(NodeIndex::new).collect();
    let bits = |a: &Action<DepthFirst, _>| {
        let world: &WorldTransforms = a.actor().unwrap();
        let bounds: &Bounds = a.actor().unwrap();
        let stats: &Statistics = a.actor().unwrap();
        let per_node: Vec<_> = slots
            .iter()
            .map(|&n| {
                let w = world
                    .table()
                    .at(n)
                    .map(|m| m.to_cols_array().map(f32::to_bits));
                let b = bounds
                    .table()
                    .at(n)
                    .map(|b| [b.min.to_array(), b.max.to_array()].concat());
                let b = b.map(|b| b.into_iter().map(f32::to_bits).collect::<Vec<_>>());
                (w, b)
            })
            .collect();
        (per_node, stats.nodes(), stats.counts_by_type())
    };
    let mut sequential = update_action().unwrap();
    let expect_stats = sequential.run(graph, root).unwrap();
    let expect = bits(&sequential);
    let results = scenewalk_examples::passes::results(&sequential);
    let camera_world = sequential
        .actor::<WorldTransforms>()
        .unwrap()
        .table()
        .world(graph, city.camera)
        .unwrap();
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut parallel = update_action().unwrap();
        // The second run reuses the first one's spare pages and lists.
        for run in 0..2 {
            let got = pool.install(|| parallel.run_parallel(graph, root)).unwrap();
            assert_eq!(
                (got.entered, got.left, got.state_copies),
                (
                    expect_stats.entered,
                    expect_stats.left,
                    expect_stats.state_copies
                )
            );
            assert!(bits(&parallel) == expect, "{threads} threads, run {run}");
        }
    }

    // The view pass's culling as an ordered actor (plane masks handed to subtrees).
    let frustum = graph
        .get::<Camera>(city.camera)
        .unwrap()
        .frustum(&camera_world);
    let eye = Vec3::from(camera_world.translation);
    let chain = || {
        (
            Ordered::new(FrustumCull::new(frustum)),
            Static::new(LodSelect::new(eye)),
            Static::new(SwitchSelect),
            Unordered::new(Seen::default()),
        )
    };
    let mut sequential = Action::new(DepthFirst::new(), chain()).unwrap();
    let expect = sequential.run_with(graph, root, &results).unwrap();
    let expect_nodes = sequential.actor::<Seen>().unwrap().nodes.clone();
    let cull = sequential.actor::<FrustumCull>().unwrap();
    let expect_counts = (cull.tested(), cull.culled());
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut parallel = Action::new(DepthFirst::new(), chain()).unwrap();
        let got = pool
            .install(|| parallel.run_parallel_with(graph, root, &results))
            .unwrap();
        assert_eq!((got.entered, got.pruned), (expect.entered, expect.pruned));
        let seen = parallel.actor::<Seen>().unwrap();
        assert_eq!(seen.nodes, expect_nodes, "{threads} threads");
        // One thread walks the city in one piece; more split it.
        assert!(
            threads == 1 || seen.workers > 1,
            "the city was split: {}",
            seen.workers
        );
        let cull = parallel.actor::<FrustumCull>().unwrap();
        assert_eq!((cull.tested(), cull.culled()), expect_counts);
    }
}

/// The tour's view pass (`passes::view_action`: ordered culling and render list) in
/// parallel: the same draw items, lights and cameras in the same order, with both
/// sortings; a render list with a closure functor is refused by name.
#[test]
fn the_view_pass_in_parallel_gives_the_sequential_render_list() {
    use scenewalk_actors::{RenderList, Sorting};
    use scenewalk_core::{Functor, TraversalError};
    use scenewalk_examples::passes::update_action;
    use scenewalk_nodes::Geometry;
    let city = CityScene::build(8, 11, &CityMeshes::generated().unwrap()).unwrap();
    let (graph, root) = (&city.graph, city.root);
    let mut update = update_action().unwrap();
    update.run(graph, root).unwrap();
    let results = scenewalk_examples::passes::results(&update);
    let (camera, placed) = city.overview().unwrap();
    let frustum = camera.frustum(&placed);
    for sorting in [Sorting::ByDepth, Sorting::Arrival] {
        // The view pass's chain (`view_action`), and `Seen` to see the run split.
        let new = || {
            let eye = Vec3::from(placed.translation);
            Action::new(
                DepthFirst::new(),
                (
                    Ordered::new(FrustumCull::new(frustum)),
                    Static::new(LodSelect::new(eye)),
                    Static::new(SwitchSelect),
                    Ordered::new(RenderList::new(placed.inverse()).with_sorting(sorting)),
                    Unordered::new(Seen::default()),
                ),
            )
            .unwrap()
        };
        let mut sequential = new();
        let expect = sequential.run_with(graph, root, &results).unwrap();
        let list = |a: &Action<DepthFirst, _>| {
            let l: &RenderList = a.actor().unwrap();
            (
                l.items().to_vec(),
                l.opaque().len(),
                l.lights().to_vec(),
                l.cameras().to_vec(),
            )
        };
        let expect_list = list(&sequential);
        assert!(
            expect_list.0.len() > 100,
            "the camera sees part of the city"
        );
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut parallel = new();
            // The second run reuses the first one's workers' lists.
            for run in 0..2 {
                let got = pool
                    .install(|| parallel.run_parallel_with(graph, root, &results))
                    .unwrap();
                assert_eq!((got.entered, got.pruned), (expect.entered, expect.pruned));
                assert!(
                    list(&parallel) == expect_list,
                    "{sorting:?}, {threads} threads, run {run}"
                );
            }
            let seen = parallel.actor::<Seen>().unwrap();
            assert!(
                threads == 1 || seen.workers > 1,
                "the city was split: {}",
                seen.workers
            );
        }
    }

    // A closure functor holds state a worker cannot copy: the run is refused.
    let drawn = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counter = Arc::clone(&drawn);
    let counting = RenderList::new(placed.inverse()).on::<Geometry>(Functor::closure(
        move |g: &Geometry, _, cx: &mut scenewalk_actors::RenderContext| {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            cx.draw(*g);
            Flow::Continue
        },
    ));
    let mut action = Action::new(DepthFirst::new(), (Ordered::new(counting),)).unwrap();
    // Two threads, so the run splits (a single thread walks sequentially, forking
    // nothing) whatever the machine's core count.
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let err = two
        .install(|| action.run_parallel_with(graph, root, &results))
        .unwrap_err();
    assert!(
        matches!(&err, TraversalError::Incompatible(e) if e.to_string().contains("RenderList")),
        "{err}"
    );
    assert!(err.to_string().contains("declined"), "{err}");
    // Nothing was drawn by the refused run; sequentially it runs.
    assert_eq!(drawn.load(std::sync::atomic::Ordering::Relaxed), 0);
    action.run_with(graph, root, &results).unwrap();
    assert!(drawn.load(std::sync::atomic::Ordering::Relaxed) > 0);
}
