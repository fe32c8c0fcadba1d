//! Random scenes and naive per-node computations shared by the actor tests.
#![allow(dead_code)]

use proptest::prelude::*;
use scenewalk_actors::{Bounds, BoundsTable, WorldTable, WorldTransforms};
use scenewalk_core::glam::{Affine3A, EulerRot, Quat, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, NodeIndex, Ordered, Results};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{
    Camera, Containment, Frustum, Geometry, Group, Mesh, PlaneMask, SkinnedMesh, Transform,
};
use std::collections::BTreeSet;
use std::sync::Arc;

/// One node of a generated tree: which earlier node is its parent, and its kind.
#[derive(Clone, Debug)]
pub enum Kind {
    Group,
    Transform(Vec3, Vec3, f32),
    Geometry(Vec3, Vec3),
}

pub fn kind() -> impl Strategy<Value = Kind> {
    let v = || {
        (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
    };
    prop_oneof![
        Just(Kind::Group),
        (v(), v(), 0.5f32..2.0).prop_map(|(t, r, s)| Kind::Transform(t, r, s)),
        (v(), v()).prop_map(|(a, b)| Kind::Geometry(a, b)),
    ]
}

/// A random tree: node `i > 0` hangs under a node `< i`.
pub fn tree() -> impl Strategy<Value = Vec<(usize, Kind)>> {
    prop::collection::vec((any::<prop::sample::Index>(), kind()), 1..200).prop_map(|nodes| {
        nodes
            .into_iter()
            .enumerate()
            .map(|(i, (parent, kind))| (if i == 0 { 0 } else { parent.index(i) }, kind))
            .collect()
    })
}

pub fn build(spec: &[(usize, Kind)]) -> (Graph, Vec<NodeId>) {
    build_with(spec, false)
}

/// A tetrahedron spanning the box from `a` to `b`: a mesh whose hits differ from the box's.
pub fn tetrahedron(a: Vec3, b: Vec3) -> Mesh {
    let positions = vec![
        a,
        Vec3::new(b.x, a.y, a.z),
        Vec3::new(a.x, b.y, a.z),
        Vec3::new(a.x, a.y, b.z),
    ];
    Mesh::new(positions, vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]).unwrap()
}

/// As [`build`], with every other geometry node a [`tetrahedron`] mesh when `meshes`.
pub fn build_with(spec: &[(usize, Kind)], meshes: bool) -> (Graph, Vec<NodeId>) {
    let mut graph = Graph::new();
    let mut ids: Vec<NodeId> = Vec::new();
    for (i, (parent, kind)) in spec.iter().enumerate() {
        let id = match (i, kind) {
            (0, _) => graph.add_root(Group),
            (_, Kind::Group) => graph.append_child(ids[*parent], Group).unwrap(),
            (_, Kind::Transform(t, r, s)) => {
                let rotation = Quat::from_euler(EulerRot::XYZ, r.x, r.y, r.z);
                graph
                    .append_child(
                        ids[*parent],
                        Transform::from_trs(*t, rotation, Vec3::splat(*s)),
                    )
                    .unwrap()
            }
            (i, Kind::Geometry(a, b)) if meshes && i % 2 == 0 => graph
                .append_child(ids[*parent], tetrahedron(*a, *b))
                .unwrap(),
            (_, Kind::Geometry(a, b)) => graph
                .append_child(ids[*parent], Geometry::new(Aabb::new(*a, *b)))
                .unwrap(),
        };
        ids.push(id);
    }
    (graph, ids)
}

/// The naive world transform: the product of every ancestor's local transform.
pub fn naive_world(graph: &Graph, node: NodeId) -> Affine3A {
    let mut world = Affine3A::IDENTITY;
    let mut current = Some(node);
    while let Some(n) = current {
        if let Ok(t) = graph.get::<Transform>(n) {
            world = *t.local() * world;
        }
        current = graph.parent(n).unwrap();
    }
    world
}

/// The naive world box: every geometry in the subtree transformed by its naive world,
/// a skinned mesh's per-joint boxes posed by its joints' naive worlds (empty when a
/// joint is gone).
pub fn naive_bounds(graph: &Graph, node: NodeId) -> Aabb {
    let mut result = Aabb::EMPTY;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if let Ok(skinned) = graph.get::<SkinnedMesh>(n) {
            let mut matrices = Vec::new();
            let world = |j| graph.contains(j).then(|| naive_world(graph, j));
            if skinned.skin().joint_matrices(world, &mut matrices).is_ok() {
                result = result.union(&skinned.conservative_bounds(&matrices).unwrap());
            }
        } else if let Ok(g) = graph.get::<Geometry>(n) {
            result = result.union(&g.local_bounds().transformed(&naive_world(graph, n)));
        }
        stack.extend(graph.children(n).unwrap());
    }
    result
}

/// The update pass (world transforms and bounds) over the tree under `root`: its two
/// tables, and both as the results a view run is handed.
pub fn update(graph: &Graph, root: NodeId) -> (Arc<WorldTable>, Arc<BoundsTable>, Results) {
    let mut action = Action::new(DepthFirst::new(), (Ordered::new(Bounds::new()),)).unwrap();
    action.run(graph, root).unwrap();
    let world = action.actor::<WorldTransforms>().unwrap().table();
    let bounds = action.actor::<Bounds>().unwrap().table();
    let results = Results::new()
        .with(Arc::clone(&world))
        .with(Arc::clone(&bounds));
    (world, bounds, results)
}

pub fn camera() -> impl Strategy<Value = (Camera, Affine3A)> {
    (
        prop::array::uniform3(-25.0f32..25.0),
        prop::array::uniform3(-10.0f32..10.0),
        0.3f32..2.0,
        0.5f32..2.0,
        3.0f32..60.0,
    )
        .prop_filter_map("a view direction", |(eye, target, fov, aspect, far)| {
            let world = Camera::look_at(Vec3::from(eye), Vec3::from(target), Vec3::Y)?;
            Some((Camera::perspective(fov, aspect, 0.1, far).ok()?, world))
        })
}

/// The nodes a correct cull enters: the root, and every node none of whose
/// ancestors-or-self (below the root's children included) lies outside the frustum by
/// a plain per-node test against all six planes.
pub fn brute_force_entered(
    graph: &Graph,
    root: NodeId,
    frustum: &Frustum,
    bounds: &BoundsTable,
) -> BTreeSet<NodeIndex> {
    let outside = |n: NodeIndex| {
        bounds
            .at(n)
            .is_some_and(|b| frustum.classify(&b, PlaneMask::ALL) == Containment::Outside)
    };
    let mut entered = BTreeSet::from([root.index()]);
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        // A node that is itself outside prunes its children even as the root.
        if outside(n.index()) {
            continue;
        }
        for c in graph.children(n).unwrap() {
            if !outside(c.index()) {
                entered.insert(c.index());
                stack.push(c);
            }
        }
    }
    entered
}
