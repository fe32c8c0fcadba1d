//! Bad numbers in a scene: NaN and infinite transforms, huge and inverted boxes (NaN
//! boxes come from NaN transforms: `Geometry::new` refuses a NaN corner), zero and negative
//! scales, degenerate frustums, NaN priority keys. The behaviour this checks is the one
//! `docs/reliability.md` documents:
//!
//! - nothing panics, under any iterator;
//! - the update pass gives the same results under every order (NaN compared as NaN);
//! - culling stays conservative: a geometry node whose world box, computed here
//!   independently (naive matrix product, eight corners), reaches inside every
//!   frustum plane by more than rounding is entered, with all its ancestors; a box or
//!   plane holding a NaN counts as visible;
//! - `NearFirst` over NaN boxes keys them last instead of with a NaN, so the priority
//!   run visits every node, twice in a row (a NaN key itself is `TraversalError::NanKey`,
//!   tested with the priority iterator).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::{Bounds, FrustumCull, NearFirst, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3, Vec4};
use scenewalk_core::{
    Aabb, Action, ActiveList, Flow, Graph, NodeId, NodeIndex, Ordered, Results, Static,
    TraversalIterator, Unordered, UnorderedActor, Visit,
};
use scenewalk_iterators::{BreadthFirst, DepthFirst, Flattened, PriorityQueue, SwitchRule};
use scenewalk_nodes::{Camera, Frustum, Geometry, Group, Transform};
use std::collections::HashSet;

/// Numbers that break arithmetic, among ordinary ones.
// Strategies are boxed: nested `prop_oneof!` types overflow the 2 MiB test stack in
// debug builds.
fn number() -> BoxedStrategy<f32> {
    prop_oneof![
        4 => (-8i32..8).prop_map(|v| v as f32 * 0.5),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(0.0),
        1 => Just(-0.0),
        1 => Just(1e30),
        1 => Just(-1e-30),
    ]
    .boxed()
}

#[derive(Clone, Debug)]
enum Kind {
    Group,
    /// Scale (zero, negative, NaN allowed), then translation.
    Transform(Vec3, Vec3),
    Geometry(Aabb),
}

fn vec3() -> BoxedStrategy<Vec3> {
    (number(), number(), number())
        .prop_map(|(x, y, z)| Vec3::new(x, y, z))
        .boxed()
}

fn kind() -> BoxedStrategy<Kind> {
    let ordinary = (-4i32..4, -4i32..4, -4i32..4)
        .prop_map(|(x, y, z)| Vec3::new(x as f32, y as f32, z as f32));
    prop_oneof![
        1 => Just(Kind::Group),
        3 => (vec3(), vec3()).prop_map(|(s, t)| Kind::Transform(s, t)),
        2 => (ordinary.clone(), ordinary).prop_map(|(s, t)| Kind::Transform(s + Vec3::splat(5.0), t)),
        // Boxes taken as given (`Geometry::new`): huge and inverted corners; it refuses
        // NaN and infinite ones, so those become zero here.
        3 => (vec3(), vec3()).prop_map(|(a, b)| {
            let finite = |v: Vec3| Vec3::select(v.is_finite_mask(), v, Vec3::ZERO);
            Kind::Geometry(Aabb { min: finite(a), max: finite(b) })
        }),
        2 => Just(Kind::Geometry(Aabb::new(Vec3::splat(-1.0), Vec3::ONE))),
        1 => Just(Kind::Geometry(Aabb::EMPTY)),
    ]
    .boxed()
}

/// Frustums: cameras with odd poses, and degenerate plane sets.
fn frustum() -> BoxedStrategy<Frustum> {
    prop_oneof![
        3 => (vec3(), -3i32..3).prop_map(|(at, turn)| {
            let camera = Camera::perspective(1.0, 1.5, 0.1, 50.0).unwrap();
            let pose = Affine3A::from_rotation_y(turn as f32) * Affine3A::from_translation(at);
            camera.frustum(&pose)
        }),
        2 => (-3i32..3, -3i32..3).prop_map(|(x, turn)| {
            let camera = Camera::perspective(1.0, 1.5, 0.1, 50.0).unwrap();
            let pose = Affine3A::from_rotation_y(turn as f32)
                * Affine3A::from_translation(Vec3::new(x as f32, 0.0, 10.0));
            camera.frustum(&pose)
        }),
        1 => prop::array::uniform6(plane()).prop_map(Frustum::from_planes),
        // All six planes the same: a half space.
        1 => plane().prop_map(|p| Frustum::from_planes([p; 6])),
        // A zero-size view volume: two opposite planes through the origin.
        1 => Just(Frustum::from_planes([Vec4::X, -Vec4::X, Vec4::Y, -Vec4::Y, Vec4::Z, -Vec4::Z])),
    ]
    .boxed()
}

fn plane() -> BoxedStrategy<Vec4> {
    (number(), number(), number(), number())
        .prop_map(|(a, b, c, d)| Vec4::new(a, b, c, d))
        .boxed()
}

/// A random tree: node `i > 0` hangs under an earlier node.
fn scene() -> impl Strategy<Value = Vec<(usize, Kind)>> {
    prop::collection::vec((any::<prop::sample::Index>(), kind()), 1..40).prop_map(|nodes| {
        nodes
            .into_iter()
            .enumerate()
            .map(|(i, (p, k))| (if i == 0 { 0 } else { p.index(i) }, k))
            .collect()
    })
}

struct Scene {
    graph: Graph,
    ids: Vec<NodeId>,
    parent: Vec<usize>,
    kinds: Vec<Kind>,
}

fn build(nodes: &[(usize, Kind)]) -> Scene {
    let mut graph = Graph::new();
    let mut ids: Vec<NodeId> = Vec::new();
    for (i, (p, kind)) in nodes.iter().enumerate() {
        let put = |g: &mut Graph| -> NodeId {
            let at = (i > 0).then(|| ids[*p]);
            macro_rules! add {
                ($v:expr) => {
                    match at {
                        None => g.add_root($v),
                        Some(parent) => g.append_child(parent, $v).unwrap(),
                    }
                };
            }
            match kind {
                Kind::Group => add!(Group),
                Kind::Transform(s, t) => add!(Transform::from_trs(*t, Default::default(), *s)),
                Kind::Geometry(b) => add!(Geometry::new(*b)),
            }
        };
        let id = put(&mut graph);
        ids.push(id);
    }
    Scene {
        graph,
        ids,
        parent: nodes.iter().map(|(p, _)| *p).collect(),
        kinds: nodes.iter().map(|(_, k)| k.clone()).collect(),
    }
}

/// Records the slots entered (breadth-first batches too).
#[derive(Default)]
struct Entered(HashSet<NodeIndex>);

impl UnorderedActor for Entered {
    const BATCHES: bool = true;
    fn begin(
        &mut self,
        _: &scenewalk_core::RunContext<'_>,
    ) -> Result<(), scenewalk_core::TraversalError> {
        self.0.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.insert(visit.node());
        Flow::Continue
    }
    fn enter_batch(&mut self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        // The actor before this one may have deactivated entries.
        self.0.extend(batch.active_nodes());
        Flow::Continue
    }
}

/// Equality of boxes with NaN equal to NaN in the same place (and `-0.0` equal to
/// `0.0`: which zero a merge keeps depends on the merge order).
fn same_box(a: Option<Aabb>, b: Option<Aabb>) -> bool {
    let same = |x: Vec3, y: Vec3| {
        x.to_array()
            .iter()
            .zip(y.to_array())
            .all(|(&u, v)| u == v || (u.is_nan() && v.is_nan()))
    };
    match (a, b) {
        (Some(a), Some(b)) => same(a.min, b.min) && same(a.max, b.max),
        (a, b) => a.is_none() && b.is_none(),
    }
}

fn run_update<I: TraversalIterator>(s: &Scene, iterator: I) -> Bounds {
    let mut action = Action::new(
        iterator,
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    action.run(&s.graph, s.ids[0]).unwrap();
    action.actor::<Bounds>().unwrap().clone()
}

/// The independent reference: world matrices by naive top-down products, and which
/// nodes must be entered under a conservative cull.
fn must_enter(s: &Scene, frustum: &Frustum) -> HashSet<NodeIndex> {
    let n = s.kinds.len();
    let mut world = vec![Affine3A::IDENTITY; n];
    for i in 0..n {
        let above = if i == 0 {
            Affine3A::IDENTITY
        } else {
            world[s.parent[i]]
        };
        world[i] = match &s.kinds[i] {
            Kind::Transform(sc, t) => {
                above * Affine3A::from_scale_rotation_translation(*sc, Default::default(), *t)
            }
            _ => above,
        };
    }
    let mut out = HashSet::new();
    for (i, (kind, m)) in s.kinds.iter().zip(&world).enumerate() {
        let Kind::Geometry(b) = kind else {
            continue;
        };
        if !visible(frustum, m, b) {
            continue;
        }
        let mut at = i;
        loop {
            out.insert(s.ids[at].index());
            if at == 0 {
                break;
            }
            at = s.parent[at];
        }
    }
    out
}

/// Whether a local box under `m` is clearly visible: for every plane, one of the eight
/// transformed corners lies inside it by more than a rounding margin (boxes that only
/// touch a plane may go either way); any NaN makes the box visible. An empty
/// (inverted) box has no points, so it is never required.
fn visible(frustum: &Frustum, m: &Affine3A, b: &Aabb) -> bool {
    if b.min.is_nan() || b.max.is_nan() {
        return true;
    }
    if b.min.cmpgt(b.max).any() {
        return false;
    }
    let corners: Vec<Vec3> = (0..8)
        .map(|k| {
            let pick = |bit: usize, lo: f32, hi: f32| if k & bit == 0 { lo } else { hi };
            m.transform_point3(Vec3::new(
                pick(1, b.min.x, b.max.x),
                pick(2, b.min.y, b.max.y),
                pick(4, b.min.z, b.max.z),
            ))
        })
        .collect();
    if corners.iter().any(|c| c.is_nan()) {
        return true;
    }
    frustum.planes().iter().all(|p| {
        if p.is_nan() {
            return true;
        }
        let n = p.truncate();
        // Margin: relative to the magnitudes involved, so rounding in either
        // computation cannot flip a box that touches the plane.
        corners.iter().any(|c| {
            let d = n.dot(*c) + p.w;
            // An infinite offset is no rounding matter: such a plane holds all
            // finite points or none.
            let scale = 1.0 + n.abs().dot(c.abs()) + p.w.abs();
            let margin = if scale.is_finite() { 1e-3 * scale } else { 0.0 };
            d.is_nan() || d >= margin
        })
    })
}

fn entered_by<I: TraversalIterator>(
    s: &Scene,
    iterator: I,
    cull: FrustumCull,
    ordered: bool,
    results: &Results,
) -> HashSet<NodeIndex> {
    let root = s.ids[0];
    if ordered {
        let mut action = Action::new(
            iterator,
            (Ordered::new(cull), Unordered::new(Entered::default())),
        )
        .unwrap();
        action.run_with(&s.graph, root, results).unwrap();
        action.actor::<Entered>().unwrap().0.clone()
    } else {
        let mut action = Action::new(
            iterator,
            (Static::new(cull), Unordered::new(Entered::default())),
        )
        .unwrap();
        action.run_with(&s.graph, root, results).unwrap();
        action.actor::<Entered>().unwrap().0.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn bad_numbers_never_panic_and_culling_stays_conservative(nodes in scene(), frustum in frustum()) {
        let s = build(&nodes);
        let by_depth = run_update(&s, DepthFirst::new());
        let by_priority = run_update(&s, PriorityQueue::new());
        let by_flat = run_update(&s, Flattened::new());
        for &id in &s.ids {
            let want = by_depth.table().world_bounds(&s.graph, id).ok();
            prop_assert!(want.is_some());
            prop_assert!(same_box(by_priority.table().world_bounds(&s.graph, id).ok(), want));
            prop_assert!(same_box(by_flat.table().world_bounds(&s.graph, id).ok(), want));
        }

        let results = Results::new().with(by_depth.table());
        let required = must_enter(&s, &frustum);
        let cull = || FrustumCull::new(frustum);
        for (name, got) in [
            ("ordered, depth-first", entered_by(&s, DepthFirst::new(), cull(), true, &results)),
            ("ordered, priority", entered_by(&s, PriorityQueue::new(), cull(), true, &results)),
            ("ordered, hybrid", entered_by(&s, PriorityQueue::hybrid(SwitchRule::AtDepth(1)), cull(), true, &results)),
            ("ordered, flattened", entered_by(&s, Flattened::new(), cull(), true, &results)),
            ("static, depth-first", entered_by(&s, DepthFirst::new(), cull(), false, &results)),
            ("static, breadth-first", entered_by(&s, BreadthFirst::new(), cull(), false, &results)),
        ] {
            let missed: Vec<_> = required.difference(&got).collect();
            prop_assert!(missed.is_empty(), "{}: visible nodes dropped: {:?}", name, missed);
        }

        // Near-first keys come from the boxes: a NaN distance is keyed last, never NaN,
        // so the run visits every node; the same action then runs again cleanly.
        let mut near = Action::new(
            PriorityQueue::new(),
            (Static::new(NearFirst::new(Vec3::ZERO)), Unordered::new(Entered::default())),
        ).unwrap();
        for _ in 0..2 {
            match near.run_with(&s.graph, s.ids[0], &results) {
                Ok(stats) => prop_assert_eq!(stats.entered as usize, s.ids.len()),
                Err(e) => prop_assert!(false, "unexpected {e}"),
            }
            prop_assert_eq!(near.live_frames(), 0);
        }
    }
}

/// The case the property found, written out: a NaN box (below a NaN transform), then
/// a finite one far outside the view. glam's `min`/`max` keep only a right-hand NaN, so
/// before `Aabb::union` kept NaN explicitly the parent's box came out finite and
/// outside, and the NaN subtree, which counts as visible, was culled with it.
#[test]
fn a_nan_box_beside_a_finite_one_is_not_culled() {
    let s = build(&[
        (0, Kind::Group),
        (0, Kind::Group),
        (1, Kind::Transform(Vec3::ONE, Vec3::NAN)),
        (2, Kind::Geometry(Aabb::new(Vec3::ZERO, Vec3::ONE))),
        (
            1,
            Kind::Geometry(Aabb::new(Vec3::splat(1000.0), Vec3::splat(1001.0))),
        ),
    ]);
    let camera = Camera::perspective(1.0, 1.0, 0.1, 10.0).unwrap();
    let frustum = camera.frustum(&Affine3A::IDENTITY);
    let results = Results::new().with(run_update(&s, DepthFirst::new()).table());
    let got = entered_by(
        &s,
        DepthFirst::new(),
        FrustumCull::new(frustum),
        true,
        &results,
    );
    assert!(
        got.contains(&s.ids[3].index()),
        "the NaN box counts as visible"
    );
    // Merged after the NaN box, the far box must not wash the NaN out of the parent.
    let parent = run_update(&s, DepthFirst::new())
        .table()
        .world_bounds(&s.graph, s.ids[1])
        .ok();
    assert!(parent.unwrap().min.is_nan());
}

/// A NaN transform: every world matrix below it is NaN, listed as non-finite, and the
/// boxes below it are NaN, so nothing below it is culled.
#[test]
fn a_nan_transform_poisons_its_subtree_only() {
    let s = build(&[
        (0, Kind::Group),
        (0, Kind::Transform(Vec3::ONE, Vec3::new(f32::NAN, 0.0, 0.0))),
        (1, Kind::Geometry(Aabb::new(Vec3::ZERO, Vec3::ONE))),
        (0, Kind::Transform(Vec3::ZERO, Vec3::ZERO)),
        (3, Kind::Geometry(Aabb::new(Vec3::ZERO, Vec3::ONE))),
    ]);
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    action.run(&s.graph, s.ids[0]).unwrap();
    let world = action.actor::<WorldTransforms>().unwrap();
    assert_eq!(world.non_finite(), [s.ids[1].index()]);
    assert!(
        world
            .table()
            .world(&s.graph, s.ids[2])
            .ok()
            .unwrap()
            .translation
            .x
            .is_nan()
    );
    let bounds = action.actor::<Bounds>().unwrap();
    assert!(
        bounds
            .table()
            .world_bounds(&s.graph, s.ids[2])
            .ok()
            .unwrap()
            .min
            .is_nan()
    );
    // Zero scale collapses the box to a point at the transform's origin.
    assert_eq!(
        bounds.table().world_bounds(&s.graph, s.ids[4]).ok(),
        Some(Aabb::new(Vec3::ZERO, Vec3::ZERO))
    );
}
