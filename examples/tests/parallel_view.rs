//! The tour's culling pass as one parallel traversal: static culling, LOD and switch
//! actors shared by the workers, statistics forked and merged, with the sequential
//! run's results (the PAR cells of the library actors in docs/compatibility.md).

use scenewalk_actors::{Bounds, FrustumCull, LodSelect, Statistics, SwitchSelect, WorldTransforms};
use scenewalk_core::glam::Vec3;
use scenewalk_core::{
    Action, ActiveList, Flow, NodeIndex, Ordered, RunContext, Static, Unordered, UnorderedActor,
    Visit,
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
    fn begin(&mut self, _: &RunContext<'_>) {
        self.nodes.clear();
        self.workers = 0;
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
    let world = Arc::new(update.actor::<WorldTransforms>().unwrap().clone());
    let bounds = Arc::new(update.actor::<Bounds>().unwrap().clone());
    let camera_world = world.world(graph, city.camera).unwrap();
    let frustum = graph
        .get::<Camera>(city.camera)
        .unwrap()
        .frustum(&camera_world);
    let eye = Vec3::from(camera_world.translation);

    let chain = || {
        (
            Static::new(FrustumCull::new(frustum, Arc::clone(&bounds))),
            Static::new(LodSelect::new(eye, Arc::clone(&world))),
            Static::new(SwitchSelect),
            Unordered::new(Statistics::new()),
            Unordered::new(Seen::default()),
        )
    };
    let mut sequential = Action::new(DepthFirst::new(), chain()).unwrap();
    let expect = sequential.run(graph, root).unwrap();
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
        let got = pool.install(|| parallel.run_parallel(graph, root)).unwrap();
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
        assert!(seen.workers > 1, "the city was split: {}", seen.workers);
    }
}
