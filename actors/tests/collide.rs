//! Collision queries against brute force: every triangle pair of two meshes, every
//! leaf pair of two subtrees; plus meshes under the bounds and statistics actors.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::{
    Bounds, Collide, CollideError, ContactMode, NodeContact, Statistics, TriangleContact,
    WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{
    Aabb, Action, Graph, GraphError, NodeId, NodeIndex, Ordered, ResultsError, Staleness, Unordered,
};
use scenewalk_iterators::{DepthFirst, Walk};
use scenewalk_nodes::{Geometry, Group, Mesh, Transform, triangles_intersect};

/// The frame `Collide` compares in: B's, A moved by `world_b⁻¹ · world_a`.
fn relative(world_a: &Affine3A, world_b: &Affine3A) -> Affine3A {
    world_b.inverse() * *world_a
}

/// Every intersecting triangle pair, by testing all of them.
fn brute_pairs(a: &Mesh, world_a: &Affine3A, b: &Mesh, world_b: &Affine3A) -> Vec<TriangleContact> {
    let rel = relative(world_a, world_b);
    let mut out = Vec::new();
    for i in 0..a.geometry().primitives() {
        let ta = a.triangle(i).unwrap().map(|p| rel.transform_point3(p));
        for j in 0..b.geometry().primitives() {
            if triangles_intersect(&ta, &b.triangle(j).unwrap()) {
                out.push(TriangleContact { a: i, b: j });
            }
        }
    }
    out
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

fn soup() -> impl Strategy<Value = Mesh> {
    let corner = || (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0);
    prop::collection::vec([corner(), corner(), corner()], 1..30).prop_map(|tris| {
        let positions = tris
            .iter()
            .flatten()
            .map(|&(x, y, z)| Vec3::new(x, y, z))
            .collect();
        let triangles = (0..tris.len() as u32)
            .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
            .collect();
        Mesh::new(positions, triangles).unwrap()
    })
}

fn placement() -> impl Strategy<Value = Affine3A> {
    (
        (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0),
        (-1.0f32..1.0, -1.0f32..1.0, -1.0f32..1.0, 0.0f32..6.3),
        (0.3f32..2.0, 0.3f32..2.0, 0.3f32..2.0),
    )
        .prop_map(|(t, r, s)| {
            let axis = Vec3::new(r.0, r.1, r.2).try_normalize().unwrap_or(Vec3::Y);
            Affine3A::from_scale_rotation_translation(
                Vec3::new(s.0, s.1, s.2),
                Quat::from_axis_angle(axis, r.3),
                Vec3::new(t.0, t.1, t.2),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn all_contacts_equal_all_pairs(a in soup(), b in soup(), wa in placement(), wb in placement()) {
        let expected = brute_pairs(&a, &wa, &b, &wb);
        let mut collide = Collide::new();
        let all = sorted(collide.meshes(&a, &wa, &b, &wb, ContactMode::All));
        prop_assert_eq!(&all, &expected);
        let first = collide.meshes(&a, &wa, &b, &wb, ContactMode::First).to_vec();
        prop_assert_eq!(first.len(), usize::from(!expected.is_empty()));
        prop_assert!(first.iter().all(|c| expected.contains(c)));
    }
}

#[test]
fn touching_and_apart_spheres() {
    let ball = Mesh::uv_sphere(1.0, 24, 12).unwrap();
    let mut collide = Collide::new();
    let here = Affine3A::IDENTITY;
    for (dx, scale) in [(1.5, 1.0), (2.5, 2.0), (0.0, 0.5), (3.0, 1.0)] {
        let there = Affine3A::from_scale_rotation_translation(
            Vec3::splat(scale),
            Quat::from_rotation_z(0.3),
            Vec3::X * dx,
        );
        let expected = brute_pairs(&ball, &here, &ball, &there);
        assert_eq!(
            sorted(collide.meshes(&ball, &here, &ball, &there, ContactMode::All)),
            expected
        );
    }
    // Boxes touching face to face, one turned a quarter (rounding in the rotation):
    // the contacts on the shared face are found as brute force finds them.
    let cube = Mesh::cuboid(Vec3::ONE).unwrap();
    for turn in [0.0, std::f32::consts::FRAC_PI_2, 0.3] {
        let there = Affine3A::from_rotation_translation(Quat::from_rotation_x(turn), Vec3::X * 2.0);
        let expected = brute_pairs(&cube, &here, &cube, &there);
        assert!(!expected.is_empty());
        assert_eq!(
            sorted(collide.meshes(&cube, &here, &cube, &there, ContactMode::All)),
            expected
        );
    }
    // A singular placement of B: compared in the world frame instead.
    let flat = Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0));
    assert!(
        !collide
            .meshes(&ball, &here, &ball, &flat, ContactMode::All)
            .is_empty()
    );
}

/// A tiny deterministic generator for scenes.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
    fn transform(&mut self, reach: f32) -> Transform {
        let axis = Vec3::new(
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
            self.range(-1.0, 1.0),
        );
        let s = self.range(0.6, 1.4);
        Transform::from_trs(
            Vec3::new(
                self.range(-reach, reach),
                self.range(-reach, reach),
                self.range(-reach, reach),
            ),
            Quat::from_axis_angle(
                axis.try_normalize().unwrap_or(Vec3::Y),
                self.range(0.0, 6.3),
            ),
            Vec3::new(s, s * self.range(0.7, 1.3), s),
        )
    }
}

/// A root with two subtrees of meshes and plain geometry under random transforms.
fn scene(seed: u64) -> (Graph, NodeId, NodeId, NodeId) {
    let pool = [
        Mesh::uv_sphere(0.6, 6, 4).unwrap(),
        Mesh::cuboid(Vec3::new(0.4, 0.3, 0.5)).unwrap(),
        Mesh::torus(0.5, 0.15, 8, 4).unwrap(),
    ];
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut sides = Vec::new();
    for _ in 0..2 {
        let top = graph.append_child(root, rng.transform(0.5)).unwrap();
        sides.push(top);
        for _ in 0..1 + rng.next() % 5 {
            let t = graph.append_child(top, rng.transform(1.2)).unwrap();
            let mesh = pool[(rng.next() % 3) as usize].clone();
            let lo = Vec3::new(
                rng.range(-1.0, 0.5),
                rng.range(-1.0, 0.5),
                rng.range(-1.0, 0.5),
            );
            let boxed = Geometry::new(Aabb::new(lo, lo + Vec3::splat(rng.range(0.1, 0.8))));
            match rng.next() % 3 {
                0 => {
                    graph.append_child(t, mesh).unwrap();
                }
                1 => {
                    graph.append_child(t, boxed).unwrap();
                }
                _ => {
                    let g = graph.append_child(t, Group).unwrap();
                    graph.append_child(g, mesh).unwrap();
                    graph.append_child(g, boxed).unwrap();
                    graph.append_child(g, Group).unwrap();
                }
            }
        }
    }
    (graph, root, sides[0], sides[1])
}

fn leaves(graph: &Graph, root: NodeId) -> Vec<NodeIndex> {
    graph
        .preorder(root)
        .unwrap()
        .filter(|&i| graph.first_child_at(i).is_none())
        .collect()
}

/// The contact of one leaf pair, by brute force.
fn leaf_contacts(
    graph: &Graph,
    x: NodeIndex,
    y: NodeIndex,
    world: &WorldTransforms,
    bounds: &Bounds,
    out: &mut Vec<NodeContact>,
) {
    if graph.get_at::<Geometry>(x).is_none() || graph.get_at::<Geometry>(y).is_none() {
        return;
    }
    let (a, b) = (graph.id_at(x).unwrap(), graph.id_at(y).unwrap());
    match (graph.get_at::<Mesh>(x), graph.get_at::<Mesh>(y)) {
        (Some(ma), Some(mb)) => {
            let pairs = brute_pairs(
                ma,
                &world.table().at(x).unwrap(),
                mb,
                &world.table().at(y).unwrap(),
            );
            out.extend(pairs.into_iter().map(|c| NodeContact {
                a,
                b,
                triangles: Some(c),
            }));
        }
        _ => {
            let (p, q) = (bounds.table().at(x).unwrap(), bounds.table().at(y).unwrap());
            if p.overlaps(&q) {
                out.push(NodeContact {
                    a,
                    b,
                    triangles: None,
                });
            }
        }
    }
}

fn run(graph: &Graph, root: NodeId) -> (WorldTransforms, Bounds) {
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    action.run(graph, root).unwrap();
    (
        action.actor::<WorldTransforms>().unwrap().clone(),
        action.actor::<Bounds>().unwrap().clone(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn subtree_contacts_equal_all_leaf_pairs(seed in any::<u64>()) {
        let (graph, root, a, b) = scene(seed);
        let (world, bounds) = run(&graph, root);
        let mut expected = Vec::new();
        for &x in &leaves(&graph, a) {
            for &y in &leaves(&graph, b) {
                leaf_contacts(&graph, x, y, &world, &bounds, &mut expected);
            }
        }
        expected.sort();
        let mut collide = Collide::new();
        let all = sorted(collide.subtrees(&graph, a, b, &world, &bounds, ContactMode::All).unwrap());
        prop_assert_eq!(&all, &expected);
        let first = collide.subtrees(&graph, a, b, &world, &bounds, ContactMode::First).unwrap().to_vec();
        prop_assert_eq!(first.len(), usize::from(!expected.is_empty()));
        prop_assert!(first.iter().all(|c| expected.contains(c)));
    }

    #[test]
    fn within_contacts_equal_all_distinct_leaf_pairs(seed in any::<u64>()) {
        let (graph, root, _, _) = scene(seed);
        let (world, bounds) = run(&graph, root);
        let all_leaves = leaves(&graph, root);
        let mut expected = Vec::new();
        for (i, &x) in all_leaves.iter().enumerate() {
            for &y in &all_leaves[i + 1..] {
                leaf_contacts(&graph, x, y, &world, &bounds, &mut expected);
            }
        }
        expected.sort();
        let mut collide = Collide::new();
        let all = sorted(collide.within(&graph, root, &world, &bounds, ContactMode::All).unwrap());
        prop_assert_eq!(all, expected);
    }
}

#[test]
fn bad_queries_are_errors() {
    let (mut graph, root, a, b) = scene(7);
    let (world, bounds) = run(&graph, root);
    let mut collide = Collide::new();
    let child = graph.first_child(a).unwrap().unwrap();
    assert_eq!(
        collide.subtrees(&graph, a, child, &world, &bounds, ContactMode::All),
        Err(CollideError::Overlapping { a, b: child })
    );
    assert_eq!(
        collide.subtrees(&graph, root, b, &world, &bounds, ContactMode::All),
        Err(CollideError::Overlapping { a: root, b })
    );
    // Results of a run over the graph before an edit are refused.
    let extra = graph.append_child(root, Group).unwrap();
    assert!(matches!(
        collide.subtrees(&graph, a, b, &world, &bounds, ContactMode::All),
        Err(CollideError::Results(ResultsError::Stale {
            why: Staleness::Structure,
            ..
        }))
    ));
    graph.remove(extra).unwrap();
    let stale = Err(CollideError::Results(GraphError::StaleNode(extra).into()));
    assert_eq!(
        collide.subtrees(&graph, extra, b, &world, &bounds, ContactMode::All),
        stale
    );
    assert_eq!(
        collide.within(&graph, extra, &world, &bounds, ContactMode::All),
        stale
    );
    // A run over only one subtree has no results for the other.
    let (world, bounds) = run(&graph, a);
    assert_eq!(
        collide.subtrees(&graph, a, b, &world, &bounds, ContactMode::All),
        Err(CollideError::Results(ResultsError::NotReached(b)))
    );
}

#[test]
fn meshes_work_under_bounds_and_statistics() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let moved = graph
        .append_child(
            root,
            Transform::from_trs(
                Vec3::new(10.0, 0.0, 0.0),
                Quat::from_rotation_y(0.5),
                Vec3::splat(2.0),
            ),
        )
        .unwrap();
    let ball = Mesh::uv_sphere(1.0, 16, 8).unwrap();
    let node = graph.append_child(moved, ball.clone()).unwrap();
    let other = graph
        .append_child(root, Mesh::cuboid(Vec3::ONE).unwrap())
        .unwrap();
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Unordered::new(Statistics::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    action.run(&graph, root).unwrap();
    let world = action
        .actor::<WorldTransforms>()
        .unwrap()
        .table()
        .world(&graph, node)
        .ok()
        .unwrap();
    let bounds = action.actor::<Bounds>().unwrap();
    let expected = ball.geometry().local_bounds().transformed(&world);
    assert_eq!(
        bounds.table().world_bounds(&graph, node).ok(),
        Some(expected)
    );
    assert_eq!(
        bounds.table().world_bounds(&graph, moved).ok(),
        Some(expected)
    );
    assert_eq!(
        bounds.table().world_bounds(&graph, root).ok(),
        Some(expected.union(&Aabb::new(-Vec3::ONE, Vec3::ONE)))
    );
    // The box holds every vertex moved into the world.
    for p in ball.positions() {
        let w = world.transform_point3(*p);
        assert!(expected.min.cmple(w + 1e-4).all() && w.cmple(expected.max + 1e-4).all());
    }
    let stats = action.actor::<Statistics>().unwrap();
    assert_eq!(stats.count_of::<Mesh>(), 2);
    assert_eq!(stats.nodes(), 4);
    assert_eq!(graph.get::<Geometry>(other).unwrap().primitives(), 12);
}

#[test]
fn steady_state_queries_allocate_nothing() {
    let ball = Mesh::uv_sphere(1.0, 24, 12).unwrap();
    let there = Affine3A::from_translation(Vec3::new(1.2, 0.3, 0.0));
    let mut collide = Collide::new();
    let n = collide
        .meshes(&ball, &Affine3A::IDENTITY, &ball, &there, ContactMode::All)
        .len();
    assert!(n > 0);
    let info = allocation_counter::measure(|| {
        let found = collide
            .meshes(&ball, &Affine3A::IDENTITY, &ball, &there, ContactMode::All)
            .len();
        assert_eq!(found, n);
    });
    assert_eq!(info.count_total, 0);

    let (graph, root, a, b) = scene(3);
    let (world, bounds) = run(&graph, root);
    collide
        .subtrees(&graph, a, b, &world, &bounds, ContactMode::All)
        .unwrap();
    let info = allocation_counter::measure(|| {
        collide
            .subtrees(&graph, a, b, &world, &bounds, ContactMode::All)
            .unwrap();
    });
    assert_eq!(info.count_total, 0);
}
