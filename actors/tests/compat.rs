//! Which of the library's actors each iterator accepts: the table in
//! `docs/compatibility.md`, cell by cell.

use scenewalk_actors::{
    Bounds, FrustumCull, LodSelect, NearFirst, Pick, RenderList, Statistics, SwitchSelect,
    WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Action, Actor, Ordered, Static, TraversalIterator, Unordered};
use scenewalk_iterators::{BreadthFirst, DepthFirst, Flattened, PriorityQueue, SwitchRule};
use scenewalk_nodes::{Camera, Ray};

fn accepts<A: Actor>(make: &dyn Fn() -> A) -> [bool; 5] {
    fn ok<I: TraversalIterator, A: Actor>(iterator: I, actor: A) -> bool {
        Action::new(iterator, (actor,)).is_ok()
    }
    [
        ok(DepthFirst::new(), make()),
        ok(PriorityQueue::new(), make()),
        ok(PriorityQueue::hybrid(SwitchRule::AtDepth(2)), make()),
        ok(BreadthFirst::new(), make()),
        ok(Flattened::new(), make()),
    ]
}

#[test]
fn the_library_actors_run_where_the_table_says() {
    let frustum = Camera::perspective(1.0, 1.0, 0.1, 10.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY);
    let ray = Ray::new(Vec3::ZERO, Vec3::X).unwrap();
    let all = [true; 5];
    let not_batched = [true, true, true, false, true];
    let cases: Vec<(&str, [bool; 5], [bool; 5])> = vec![
        (
            "WorldTransforms",
            accepts(&|| Ordered::new(WorldTransforms::new())),
            not_batched,
        ),
        (
            "Statistics",
            accepts(&|| Unordered::new(Statistics::new())),
            all,
        ),
        (
            "Bounds",
            accepts(&|| Ordered::new(Bounds::new())),
            not_batched,
        ),
        (
            "Ordered<FrustumCull>",
            accepts(&|| Ordered::new(FrustumCull::new(frustum))),
            not_batched,
        ),
        (
            "Static<FrustumCull>",
            accepts(&|| Static::new(FrustumCull::new(frustum))),
            all,
        ),
        (
            "LodSelect",
            accepts(&|| Static::new(LodSelect::new(Vec3::ZERO))),
            not_batched,
        ),
        (
            "SwitchSelect",
            accepts(&|| Static::new(SwitchSelect)),
            not_batched,
        ),
        (
            "RenderList",
            accepts(&|| Ordered::new(RenderList::new(Affine3A::IDENTITY))),
            not_batched,
        ),
        (
            "NearFirst",
            accepts(&|| Static::new(NearFirst::new(Vec3::ZERO))),
            not_batched,
        ),
        (
            "Pick",
            accepts(&|| Unordered::new(Pick::new(ray))),
            not_batched,
        ),
    ];
    for (name, got, want) in cases {
        assert_eq!(got, want, "{name}: DF PQ HY BF FL");
    }
}

/// The PAR column: which library actors `Action::run_parallel` takes.
#[cfg(feature = "parallel")]
#[test]
fn the_library_actors_in_parallel_runs() {
    fn par<A>(actor: A) -> Result<(), String>
    where
        (A,): scenewalk_core::ParallelChain,
    {
        let action = Action::new(DepthFirst::new(), (actor,)).unwrap();
        action.check_parallel().map_err(|e| e.to_string())
    }
    let frustum = Camera::perspective(1.0, 1.0, 0.1, 10.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY);
    let ray = Ray::new(Vec3::ZERO, Vec3::X).unwrap();
    let refused = |result: Result<(), String>, name: &str, reason: &str| {
        let message = result.unwrap_err();
        assert!(
            message.contains(name) && message.contains(reason),
            "{message}"
        );
    };
    // Ordered with a fork/merge hook: run by subtree from the state at its root.
    par(Ordered::new(WorldTransforms::new())).unwrap();
    par(Ordered::new(Bounds::new())).unwrap();
    par(Unordered::new(Statistics::new())).unwrap();
    par(Ordered::new(FrustumCull::new(frustum))).unwrap();
    par(Static::new(FrustumCull::new(frustum))).unwrap();
    par(Static::new(LodSelect::new(Vec3::ZERO))).unwrap();
    par(Static::new(SwitchSelect)).unwrap();
    par(Ordered::new(RenderList::new(Affine3A::IDENTITY))).unwrap();
    par(Static::new(NearFirst::new(Vec3::ZERO))).unwrap();
    refused(
        par(Unordered::new(Pick::new(ray))),
        "Pick",
        "fork/merge hook",
    );
}
