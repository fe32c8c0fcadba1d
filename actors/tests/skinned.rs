//! Skinned meshes in the update, view and pick passes: the update's box of a skinned
//! mesh holds every vertex skinned by brute force (in f64) at random animation times,
//! whatever the order of mesh and joints; incremental and parallel updates give the
//! full sequential run's boxes; culling, picking and the render list see a skinned
//! mesh where its joints put it, not where its own node stands.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_actors::{
    Bounds, BoundsTable, FrustumCull, IncrementalUpdate, Pick, RenderList, WorldTable,
    WorldTransforms,
};
use scenewalk_core::glam::{Affine3A, DVec3, Quat, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, Ordered, Unordered};
use scenewalk_iterators::{DepthFirst, PriorityQueue, Walk};
use scenewalk_nodes::{
    Animation, AnimationPlayer, Camera, Channel, Group, Interpolation, Mesh, Property, Ray, Skin,
    SkinnedMesh, Transform, Trs,
};
use std::sync::Arc;

/// Two translation and rotation keys.
type Keys = ([f32; 3], [f32; 4], [f32; 3], [f32; 4]);

/// A generated character: joints in a random tree, each joint's translation and
/// rotation animated over one second; vertices following up to four random joints
/// with random (unnormalized, some zero) weights.
#[derive(Clone, Debug)]
struct Character {
    parents: Vec<usize>,
    /// Per joint: translation and rotation at time 0, then at time 1.
    keys: Vec<Keys>,
    vertices: Vec<([f32; 3], [u16; 4], [f32; 4])>,
    inverse_shift: [f32; 3],
    /// Whether the mesh comes before its joints in depth-first order.
    mesh_first: bool,
}

fn character() -> impl Strategy<Value = Character> {
    (1usize..8).prop_flat_map(|joints| {
        let v3 = || prop::array::uniform3(-3.0f32..3.0);
        let q = || {
            prop::array::uniform4(-1.0f32..1.0)
                .prop_filter("a rotation", |q| q.iter().map(|c| c * c).sum::<f32>() > 0.1)
        };
        let weight = prop_oneof![Just(0.0f32), 0.01f32..2.0];
        let vertex = (
            v3(),
            prop::array::uniform4(0..joints as u16),
            prop::array::uniform4(weight),
        )
            .prop_filter("a weight", |(_, _, w)| w.iter().sum::<f32>() > 0.01);
        (
            prop::collection::vec(0usize..100, joints),
            prop::collection::vec((v3(), q(), v3(), q()), joints),
            prop::collection::vec(vertex, 1..30),
            v3(),
            any::<bool>(),
        )
            .prop_map(
                |(parents, keys, vertices, inverse_shift, mesh_first)| Character {
                    parents,
                    keys,
                    vertices,
                    inverse_shift,
                    mesh_first,
                },
            )
    })
}

/// The character's nodes in a graph.
struct Built {
    joints: Vec<NodeId>,
    mesh: NodeId,
    channels: Vec<Channel>,
}

/// Adds the character under `parent`: its skinned mesh under a far-moved node of its
/// own (which skinning ignores), before or after the joints.
fn add(graph: &mut Graph, parent: NodeId, c: &Character, skinned: Option<&SkinnedMesh>) -> Built {
    let figure = graph.append_child(parent, Group).unwrap();
    let holder = |graph: &mut Graph| {
        graph
            .append_child(figure, Transform::from_translation(Vec3::splat(100.0)))
            .unwrap()
    };
    let early = c.mesh_first.then(|| holder(graph));
    let mut joints: Vec<NodeId> = Vec::new();
    for (j, &p) in c.parents.iter().enumerate() {
        let parent = if j == 0 { figure } else { joints[p % j] };
        joints.push(graph.append_child(parent, Transform::IDENTITY).unwrap());
    }
    let holder = early.unwrap_or_else(|| holder(graph));
    let skin = Arc::new(
        Skin::new(
            joints.clone(),
            Some(
                (0..joints.len())
                    .map(|j| {
                        Affine3A::from_scale_rotation_translation(
                            Vec3::splat(1.0 + j as f32 * 0.25),
                            Quat::from_rotation_y(j as f32),
                            Vec3::from(c.inverse_shift),
                        )
                    })
                    .collect(),
            ),
            None,
        )
        .unwrap(),
    );
    let mesh = match skinned {
        Some(s) => s.with_skin(skin).unwrap(),
        None => {
            let positions = c.vertices.iter().map(|v| Vec3::from(v.0)).collect();
            let mesh = Mesh::new(positions, vec![[0, 0, 0]]).unwrap();
            let (js, ws) = c.vertices.iter().map(|v| (v.1, v.2)).unzip();
            SkinnedMesh::new(mesh, skin, js, ws).unwrap()
        }
    };
    let mesh = graph.append_child(holder, mesh).unwrap();
    let times: Arc<[f32]> = vec![0.0, 1.0].into();
    let channels = joints
        .iter()
        .zip(&c.keys)
        .flat_map(|(&j, (t0, q0, t1, q1))| {
            [
                Channel::new(
                    j,
                    Property::Translation,
                    Interpolation::Linear,
                    times.clone(),
                    [*t0, *t1].concat().into(),
                )
                .unwrap(),
                Channel::new(
                    j,
                    Property::Rotation,
                    Interpolation::Linear,
                    times.clone(),
                    [*q0, *q1].concat().into(),
                )
                .unwrap(),
            ]
        })
        .collect();
    Built {
        joints,
        mesh,
        channels,
    }
}

/// Brute-force skinning in f64, shared with the nodes crate's tests.
#[path = "../../nodes/tests/common/skinning.rs"]
#[allow(dead_code)]
mod skinning;

/// The box of every vertex of the skinned mesh `node` skinned by brute force in f64:
/// Σ wᵢ · world(jointᵢ) · inverse_bindᵢ · v.
fn brute_force(graph: &Graph, node: NodeId) -> [DVec3; 2] {
    let (min, max) = skinning::brute_force(graph, graph.get::<SkinnedMesh>(node).unwrap());
    [min, max]
}

fn holds(b: &Aabb, p: DVec3) -> bool {
    b.min.as_dvec3().cmple(p).all() && b.max.as_dvec3().cmpge(p).all()
}

/// The update pass as an action.
fn full_update() -> Action<DepthFirst, (Ordered<WorldTransforms>, Ordered<Bounds>)> {
    Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap()
}

fn tables(
    action: &Action<DepthFirst, (Ordered<WorldTransforms>, Ordered<Bounds>)>,
) -> (Arc<WorldTable>, Arc<BoundsTable>) {
    (
        action.actor::<WorldTransforms>().unwrap().table(),
        action.actor::<Bounds>().unwrap().table(),
    )
}

/// Every node's box and every skinned mesh's own box agree.
fn same_boxes(graph: &Graph, root: NodeId, a: &BoundsTable, b: &BoundsTable) {
    for node in graph.preorder(root).unwrap() {
        assert_eq!(a.at(node), b.at(node), "box of {node:?}");
    }
    assert_eq!(a.skinned(), b.skinned());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// At random times, the update's own box of a skinned mesh is the conservative
    /// box posed by the joints' world matrices of the same update, holds every
    /// vertex skinned by brute force, and lies inside the mesh's and the root's
    /// subtree boxes, where the mesh comes before its joints or after them; the
    /// incremental update after the player's writes gives the full run's boxes.
    #[test]
    fn the_update_boxes_skinned_meshes_around_every_skinned_vertex(
        c in character(),
        times in prop::collection::vec(-0.5f32..1.5, 1..6),
    ) {
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let built = add(&mut graph, root, &c, None);
        let mut player =
            AnimationPlayer::new(Animation::new(None, built.channels, |_| Trs::IDENTITY));
        let mut update = IncrementalUpdate::new();
        let mut full = full_update();
        let mut matrices = Vec::new();
        for t in times {
            player.apply(&mut graph, t).unwrap();
            update.run(&graph, root).unwrap();
            full.run(&graph, root).unwrap();
            let (world, bounds) = tables(&full);
            let own = bounds.skinned_at(built.mesh.index()).unwrap();
            let skinned = graph.get::<SkinnedMesh>(built.mesh).unwrap();
            skinned
                .skin()
                .joint_matrices(|j| world.at(j.index()), &mut matrices)
                .unwrap();
            prop_assert_eq!(Some(own), skinned.conservative_bounds(&matrices));
            for p in brute_force(&graph, built.mesh) {
                prop_assert!(holds(&own, p), "{:?} misses {}", own, p);
            }
            for node in [built.mesh, root] {
                let b = bounds.at(node.index()).unwrap();
                prop_assert_eq!(b.union(&own), b);
            }
            let results = update.results();
            let patched = results.get::<BoundsTable>("test", &graph, root.index()).unwrap();
            same_boxes(&graph, root, &patched, &bounds);
        }
        prop_assert!(!built.joints.is_empty());
    }
}

/// The update pass split across threads.
#[cfg(feature = "parallel")]
mod parallel {
    use super::*;

    /// A fixed character of eight joints in a chain and a branch.
    fn figure() -> Character {
        let k = |i: usize| {
            let f = i as f32;
            (
                [f * 0.3, 1.0, -0.5 * f],
                [0.1 * f, 0.2, 0.0, 1.0],
                [-f * 0.2, 0.5, f],
                [0.0, 0.3 * f, 0.1, 1.0],
            )
        };
        Character {
            parents: vec![0, 0, 1, 2, 1, 4, 0, 6],
            keys: (0..8).map(k).collect(),
            vertices: (0..24)
                .map(|v| {
                    let f = v as f32;
                    let j = (v % 8) as u16;
                    (
                        [f.sin(), f.cos(), f * 0.1],
                        [j, (j + 3) % 8, 0, 0],
                        [1.0, 0.5, 0.0, 0.0],
                    )
                })
                .collect(),
            inverse_shift: [0.5, -1.0, 0.25],
            mesh_first: true,
        }
    }

    /// A crowd of `n` copies of [`figure`] under one root, each posed at its own time,
    /// compacted.
    fn crowd(n: usize) -> (Graph, NodeId, Vec<NodeId>) {
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let c = figure();
        let mut meshes = Vec::new();
        let mut shared: Option<SkinnedMesh> = None;
        for i in 0..n {
            let mut c = c.clone();
            c.mesh_first = i % 2 == 0;
            let built = add(&mut graph, root, &c, shared.as_ref());
            shared.get_or_insert_with(|| graph.get::<SkinnedMesh>(built.mesh).unwrap().clone());
            let animation = Animation::new(None, built.channels, |_| Trs::IDENTITY);
            AnimationPlayer::new(animation)
                .apply(&mut graph, (i % 17) as f32 / 17.0)
                .unwrap();
            meshes.push(built.mesh);
        }
        // In depth-first slot order, which a split run wants.
        let remap = graph.compact().unwrap();
        let root = remap.get(root).unwrap();
        let meshes = meshes.iter().map(|&m| remap.get(m).unwrap()).collect();
        (graph, root, meshes)
    }

    #[test]
    fn a_parallel_update_boxes_skinned_meshes_as_the_sequential_one() {
        let (graph, root, meshes) = crowd(700);
        assert!(graph.len() > 7_000);
        let mut sequential = full_update();
        sequential.run(&graph, root).unwrap();
        let mut parallel = Action::new(
            DepthFirst::new(),
            (
                Ordered::new(WorldTransforms::new()),
                Ordered::new(Bounds::new()),
            ),
        )
        .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let stats = pool
            .install(|| parallel.run_parallel(&graph, root))
            .unwrap();
        assert!(stats.tasks > 1, "the run was not split: {stats:?}");
        let (_, want) = tables(&sequential);
        let got = parallel.actor::<Bounds>().unwrap().table();
        same_boxes(&graph, root, &got, &want);
        assert_eq!(got.skinned().len(), meshes.len());
        for mesh in meshes {
            let own = got.skinned_at(mesh.index()).unwrap();
            for p in brute_force(&graph, mesh) {
                assert!(holds(&own, p));
            }
        }
    }
}

/// A skinned unit cube bound to one joint, whose own node stands ahead of a camera at
/// the origin looking down -z; the joint stands at `z`.
fn cube_on_a_joint(z: f32) -> (Graph, NodeId, NodeId, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let holder = graph
        .append_child(
            root,
            Transform::from_translation(Vec3::new(0.0, 0.0, -10.0)),
        )
        .unwrap();
    let joint = graph
        .append_child(root, Transform::from_translation(Vec3::new(0.0, 0.0, z)))
        .unwrap();
    let skin = Arc::new(Skin::new(vec![joint], None, None).unwrap());
    let cube = Mesh::cuboid(Vec3::splat(0.5)).unwrap();
    let n = cube.positions().len();
    let skinned =
        SkinnedMesh::new(cube, skin, vec![[0; 4]; n], vec![[1.0, 0.0, 0.0, 0.0]; n]).unwrap();
    let mesh = graph.append_child(holder, skinned).unwrap();
    (graph, root, joint, mesh)
}

#[test]
fn cull_pick_and_render_list_see_a_skinned_mesh_where_its_joint_puts_it() {
    let (mut graph, root, joint, mesh) = cube_on_a_joint(50.0);
    let frustum = Camera::perspective(1.0, 1.0, 0.1, 100.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY);
    let mut view = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(FrustumCull::new(frustum)),
            Ordered::new(RenderList::new(Affine3A::IDENTITY)),
        ),
    )
    .unwrap();
    let ray = Ray::new(Vec3::ZERO, -Vec3::Z).unwrap();
    let mut pick = Action::new(PriorityQueue::new(), (Unordered::new(Pick::new(ray)),)).unwrap();
    let mut update = IncrementalUpdate::new();

    // The joint stands behind the camera: the mesh's own node, ahead, does not count.
    update.run(&graph, root).unwrap();
    let results = update.results();
    view.run_with(&graph, root, &results).unwrap();
    assert!(view.actor::<RenderList>().unwrap().items().is_empty());
    assert_eq!(view.actor::<FrustumCull>().unwrap().culled(), 1);
    pick.run_with(&graph, root, &results).unwrap();
    assert_eq!(pick.actor::<Pick>().unwrap().hit(), None);
    drop(results);

    // The joint moves ahead, beyond the mesh's own node: drawn and hit there.
    graph
        .get_mut::<Transform>(joint)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::new(0.0, 0.0, -30.0)));
    update.run(&graph, root).unwrap();
    let results = update.results();
    view.run_with(&graph, root, &results).unwrap();
    let items = view.actor::<RenderList>().unwrap().items();
    assert_eq!(items.len(), 1);
    let drawn = items[0]
        .geometry
        .local_bounds()
        .transformed(&items[0].world);
    assert_eq!(items[0].world, Affine3A::IDENTITY);
    assert!(
        (drawn.center() - Vec3::new(0.0, 0.0, -30.0))
            .abs()
            .max_element()
            < 1e-3
    );
    assert!((items[0].depth - 30.0).abs() < 1e-3);
    assert_eq!(items[0].geometry.primitives(), 12);
    pick.run_with(&graph, root, &results).unwrap();
    let hit = pick.actor::<Pick>().unwrap().hit().unwrap();
    assert_eq!(hit.node, mesh.index());
    assert!((hit.distance - 29.5).abs() < 1e-3, "{hit:?}");
    assert!(hit.triangle.is_some(), "a posed triangle is hit: {hit:?}");
}

#[test]
fn a_skinned_mesh_whose_joint_is_gone_has_an_empty_box() {
    let (mut graph, root, joint, mesh) = cube_on_a_joint(-30.0);
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    assert!(!update.world_bounds(&graph, mesh).unwrap().is_empty());
    graph.remove(joint).unwrap();
    assert!(!update.run(&graph, root).unwrap().full);
    let mut full = full_update();
    full.run(&graph, root).unwrap();
    let results = update.results();
    let patched = results
        .get::<BoundsTable>("test", &graph, root.index())
        .unwrap();
    for bounds in [patched, tables(&full).1] {
        assert_eq!(bounds.skinned_at(mesh.index()), Some(Aabb::EMPTY));
        assert!(bounds.at(root.index()).unwrap().is_empty());
    }
}
