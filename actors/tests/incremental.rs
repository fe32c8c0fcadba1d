//! Incremental updates against full recomputation after random edit sequences.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod common;

use common::{Kind, build, kind, naive_bounds, naive_world, tetrahedron, tree};
use proptest::prelude::*;
use scenewalk_actors::{Bounds, BoundsTable, IncrementalUpdate, WorldTransforms};
use scenewalk_core::glam::{Affine3A, EulerRot, Quat, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, Ordered};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Geometry, Group, Skin, SkinnedMesh, Transform};
use std::sync::Arc;

#[derive(Clone, Debug)]
enum Edit {
    /// A new local transform for the picked node, if it is a transform.
    SetTransform(prop::sample::Index, Vec3, f32),
    /// A new box for the picked node, if it is geometry.
    SetBox(prop::sample::Index, Vec3, Vec3),
    Append(prop::sample::Index, Kind),
    Remove(prop::sample::Index),
    RemoveSubtree(prop::sample::Index),
    /// Move the first under the second (a cycle is refused and ignored).
    Reparent(prop::sample::Index, prop::sample::Index),
    /// Make the node a root: it leaves the update's subtree.
    Detach(prop::sample::Index),
    /// A skinned mesh under the first node (if it is no geometry), posed by the two
    /// others (any nodes, in the update's subtree or not).
    AppendSkinned(
        prop::sample::Index,
        prop::sample::Index,
        prop::sample::Index,
    ),
    Update,
}

fn v() -> impl Strategy<Value = Vec3> {
    (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn edit() -> impl Strategy<Value = Edit> {
    let i = any::<prop::sample::Index>;
    prop_oneof![
        4 => (i(), v(), 0.5f32..2.0).prop_map(|(n, t, s)| Edit::SetTransform(n, t, s)),
        2 => (i(), v(), v()).prop_map(|(n, a, b)| Edit::SetBox(n, a, b)),
        2 => (i(), kind()).prop_map(|(n, k)| Edit::Append(n, k)),
        1 => i().prop_map(Edit::Remove),
        1 => i().prop_map(Edit::RemoveSubtree),
        2 => (i(), i()).prop_map(|(a, b)| Edit::Reparent(a, b)),
        1 => i().prop_map(Edit::Detach),
        3 => Just(Edit::Update),
    ]
}

fn payload(kind: &Kind) -> Result<Transform, Geometry> {
    match kind {
        Kind::Transform(t, r, s) => Ok(Transform::from_trs(
            *t,
            Quat::from_euler(EulerRot::XYZ, r.x, r.y, r.z),
            Vec3::splat(*s),
        )),
        Kind::Geometry(a, b) => Err(Geometry::new(Aabb::new(*a, *b))),
        Kind::Group => Ok(Transform::IDENTITY),
    }
}

/// Applies one edit to a random live node (never removing or moving `root` itself).
fn apply(graph: &mut Graph, root: NodeId, edit: &Edit) {
    let live: Vec<NodeId> = all_nodes(graph);
    if live.is_empty() {
        return;
    }
    let pick = |i: &prop::sample::Index| live[i.index(live.len())];
    match edit {
        Edit::SetTransform(n, t, s) => {
            if let Ok(tr) = graph.get_mut::<Transform>(pick(n)) {
                tr.set_local(Affine3A::from_scale_rotation_translation(
                    Vec3::splat(*s),
                    Quat::from_rotation_y(t.x),
                    *t,
                ));
            }
        }
        Edit::SetBox(n, a, b) => {
            if let Ok(g) = graph.get_mut::<Geometry>(pick(n)) {
                *g = Geometry::new(Aabb::new(*a, *b));
            }
        }
        Edit::Append(n, k) => {
            let parent = pick(n);
            if graph.get::<Geometry>(parent).is_err() {
                match (k, payload(k)) {
                    (Kind::Group, _) => graph.append_child(parent, Group).map(drop),
                    (_, Ok(t)) => graph.append_child(parent, t).map(drop),
                    (_, Err(g)) => graph.append_child(parent, g).map(drop),
                }
                .unwrap();
            }
        }
        Edit::Remove(n) if pick(n) != root => graph.remove(pick(n)).unwrap(),
        Edit::RemoveSubtree(n) if pick(n) != root => drop(graph.remove_subtree(pick(n)).unwrap()),
        Edit::Reparent(a, b) if pick(a) != root => {
            let _ = graph.set_parent(pick(a), Some(pick(b)), None);
        }
        Edit::Detach(n) if pick(n) != root => graph.set_parent(pick(n), None, None).unwrap(),
        Edit::AppendSkinned(n, a, b) if graph.get::<Geometry>(pick(n)).is_err() => {
            let binds = vec![
                Affine3A::from_translation(Vec3::new(1.0, -2.0, 0.5)),
                Affine3A::from_rotation_z(0.7),
            ];
            let skin = Skin::new(vec![pick(a), pick(b)], Some(binds), None).unwrap();
            let mesh = tetrahedron(Vec3::splat(-1.0), Vec3::new(2.0, 1.0, 3.0));
            let joints = vec![[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [1, 1, 0, 0]];
            let w = [1.0, 0.0, 0.0, 0.0];
            let weights = vec![w, w, [0.25, 0.75, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0]];
            let skinned = SkinnedMesh::new(mesh, Arc::new(skin), joints, weights).unwrap();
            graph.append_child(pick(n), skinned).unwrap();
        }
        _ => {}
    }
}

/// Every live node of every tree.
fn all_nodes(graph: &Graph) -> Vec<NodeId> {
    let mut out = Vec::new();
    for r in graph.roots() {
        let mut next = Some(r);
        while let Some(n) = next {
            out.push(n);
            next = graph.next_preorder(n, r).unwrap();
        }
    }
    out
}

/// Checks the incremental results against a full run and the naive products.
fn check(graph: &Graph, root: NodeId, update: &IncrementalUpdate) -> Result<(), TestCaseError> {
    let mut full = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .unwrap();
    full.run(graph, root).unwrap();
    let (world, bounds) = (
        full.actor::<WorldTransforms>().unwrap(),
        full.actor::<Bounds>().unwrap(),
    );
    let results = update.results();
    let patched = results
        .get::<BoundsTable>("check", graph, root.index())
        .unwrap();
    let want = bounds.table();
    prop_assert_eq!(patched.skinned(), want.skinned());
    for id in all_nodes(graph) {
        let got = update.world(graph, id).ok();
        prop_assert_eq!(
            got,
            world.table().world(graph, id).ok(),
            "world of {:?}",
            id
        );
        prop_assert_eq!(
            update.world_bounds(graph, id).ok(),
            bounds.table().world_bounds(graph, id).ok(),
            "box of {:?}",
            id
        );
        let inside = graph.is_ancestor_or_self(root, id).unwrap();
        prop_assert_eq!(got.is_some(), inside);
        if let Some(got) = got {
            let naive = naive_world(graph, id);
            prop_assert!(
                got.abs_diff_eq(naive, 1e-3 * (1.0 + naive.translation.abs().max_element()))
            );
            let naive_box = naive_bounds(graph, id);
            let got_box = update.world_bounds(graph, id).ok().unwrap();
            prop_assert_eq!(got_box.is_empty(), naive_box.is_empty());
            if !naive_box.is_empty() {
                let scale = 1.0 + naive_box.max.abs().max(naive_box.min.abs()).max_element();
                prop_assert!((got_box.min - naive_box.min).abs().max_element() <= 1e-3 * scale);
                prop_assert!((got_box.max - naive_box.max).abs().max_element() <= 1e-3 * scale);
            }
        }
    }
    Ok(())
}

/// Applies `edits` in order; at each `Edit::Update`, updates and checks the result
/// against a full run (and, with `patches`, that the update was a patch).
fn play(
    graph: &mut Graph,
    root: NodeId,
    update: &mut IncrementalUpdate,
    edits: &[Edit],
    patches: bool,
) -> Result<(), TestCaseError> {
    for edit in edits {
        if let Edit::Update = edit {
            let stats = update.run(graph, root).unwrap();
            prop_assert!(!(patches && stats.full));
            check(graph, root, update)?;
        } else {
            apply(graph, root, edit);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn incremental_updates_equal_full_runs(spec in tree(), edits in prop::collection::vec(edit(), 0..40)) {
        let (mut graph, ids) = build(&spec);
        let root = ids[0];
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        check(&graph, root, &update)?;
        // The root is never edited, moved or removed, the transforms are finite and
        // the log is short: every update is a patch.
        play(&mut graph, root, &mut update, &edits, true)?;
        prop_assert!(!update.run(&graph, root).unwrap().full);
        check(&graph, root, &update)?;
    }

    #[test]
    fn a_subtree_root_below_the_graph_root_is_updated_too(spec in tree(), pick in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..30)) {
        let (mut graph, ids) = build(&spec);
        let root = ids[pick.index(ids.len())];
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        for edit in &edits {
            if let Edit::Update = edit {
                update.run(&graph, root).unwrap();
                check(&graph, root, &update)?;
            } else {
                apply(&mut graph, root, edit);
            }
            if !graph.contains(root) {
                // Removed with an ancestor: a stale root is an error, not a panic.
                prop_assert!(update.run(&graph, root).is_err());
                return Ok(());
            }
        }
        if graph.contains(root) {
            update.run(&graph, root).unwrap();
            check(&graph, root, &update)?;
        }
    }
}

/// A chain root → a → b → leaf box, and a sibling box under the root.
fn chain() -> (Graph, [NodeId; 5]) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph
        .append_child(root, Transform::from_translation(Vec3::X))
        .unwrap();
    let b = graph
        .append_child(a, Transform::from_translation(Vec3::Y))
        .unwrap();
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let leaf = graph.append_child(b, Geometry::new(unit)).unwrap();
    let side = graph.append_child(root, Geometry::new(unit)).unwrap();
    (graph, [root, a, b, leaf, side])
}

#[test]
fn an_edit_deep_down_reruns_only_its_subtree() {
    let (mut graph, [root, _a, b, leaf, _]) = chain();
    let mut update = IncrementalUpdate::new();
    assert!(update.run(&graph, root).unwrap().full);
    graph
        .get_mut::<Transform>(b)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::Z * 3.0));
    let stats = update.run(&graph, root).unwrap();
    assert!(!stats.full);
    assert_eq!((stats.subtrees, stats.entered, stats.ancestors), (1, 2, 2));
    assert_eq!(
        update.world(&graph, leaf).ok().unwrap().translation,
        Vec3::new(1.0, 0.0, 3.0).into()
    );
    assert_eq!(
        update.world_bounds(&graph, root).ok().unwrap(),
        Aabb::new(Vec3::ZERO, Vec3::new(2.0, 1.0, 4.0))
    );
    // Nothing changed: nothing is done.
    let stats = update.run(&graph, root).unwrap();
    assert_eq!(
        (stats.full, stats.changes, stats.entered, stats.ancestors),
        (false, 0, 0, 0)
    );
    // A borrow that changes nothing reruns the subtree, whose box comes out as it
    // was, so no ancestor is recomputed.
    graph.get_mut::<Transform>(b).unwrap();
    let stats = update.run(&graph, root).unwrap();
    assert_eq!((stats.subtrees, stats.entered, stats.ancestors), (1, 2, 0));
    // A changed transform overwrites its own matrix, so edits can go on for ever
    // without a full run to drop superseded matrices.
    for k in 0..5_000 {
        let m = Affine3A::from_translation(Vec3::Z * k as f32);
        graph.get_mut::<Transform>(b).unwrap().set_local(m);
        assert!(!update.run(&graph, root).unwrap().full, "update {k}");
    }
    assert_eq!(
        update.world(&graph, leaf).ok().unwrap().translation.z,
        4_999.0
    );
}

#[test]
fn a_removal_shrinks_the_ancestors_boxes_without_a_traversal() {
    let (mut graph, [root, a, _, leaf, side]) = chain();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    graph.remove(leaf).unwrap();
    let stats = update.run(&graph, root).unwrap();
    // One node entered: `side`, whose payload took the removed one's place in the
    // geometry column (the graph records that as a payload change).
    assert_eq!((stats.full, stats.entered, stats.ancestors), (false, 1, 3));
    assert!(update.world_bounds(&graph, a).ok().unwrap().is_empty());
    assert_eq!(
        update.world_bounds(&graph, root).ok(),
        Some(*graph.get::<Geometry>(side).unwrap().local_bounds())
    );
    assert_eq!(update.world(&graph, leaf).ok(), None);
}

#[test]
fn another_root_a_cleared_log_or_a_clone_mean_a_full_run() {
    let (mut graph, [root, a, ..]) = chain();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    assert!(update.run(&graph, a).unwrap().full);
    assert!(!update.run(&graph, a).unwrap().full);
    graph.clear_changes();
    assert!(update.run(&graph, a).unwrap().full);
    let copy = graph.clone();
    assert!(update.run(&copy, a).unwrap().full);
    let other = graph.add_root(Group);
    assert!(update.run(&graph, other).unwrap().full);
    let stale = graph.append_child(a, Group).unwrap();
    graph.remove(stale).unwrap();
    assert!(update.run(&graph, stale).is_err());
}

#[test]
fn a_change_above_the_root_reaches_below_it() {
    let (mut graph, [_, a, b, leaf, _]) = chain();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, b).unwrap();
    graph
        .get_mut::<Transform>(a)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::X * 7.0));
    assert!(update.run(&graph, b).unwrap().full);
    assert_eq!(update.world(&graph, leaf).ok().unwrap().translation.x, 7.0);
}

#[test]
fn a_long_edit_sequence_overflows_the_log_into_a_full_run() {
    let (mut graph, [root, a, b, ..]) = chain();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    for k in 0..10_000 {
        let node = if k % 2 == 0 { a } else { b };
        graph
            .get_mut::<Transform>(node)
            .unwrap()
            .set_local(Affine3A::from_translation(Vec3::X * k as f32));
    }
    assert!(update.run(&graph, root).unwrap().full);
    check(&graph, root, &update).unwrap();
}

proptest! {
    // Many small cases: they shrink to readable counterexamples.
    #![proptest_config(ProptestConfig::with_cases(1000))]
    #[test]
    fn small_trees_and_short_edit_sequences(spec in prop::collection::vec((any::<prop::sample::Index>(), kind()), 1..8).prop_map(|nodes| {
        nodes.into_iter().enumerate().map(|(i, (parent, kind))| (if i == 0 { 0 } else { parent.index(i) }, kind)).collect::<Vec<_>>()
    }), edits in prop::collection::vec(edit(), 0..6)) {
        let (mut graph, ids) = build(&spec);
        let root = ids[0];
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        play(&mut graph, root, &mut update, &edits, true)?;
        prop_assert!(!update.run(&graph, root).unwrap().full);
        check(&graph, root, &update)?;
    }
}

#[test]
fn compaction_makes_the_next_update_a_full_one_with_the_new_ids() {
    use scenewalk_actors::IncrementalUpdate;
    use scenewalk_core::glam::{Affine3A, Vec3};
    use scenewalk_nodes::{Group, Transform};
    let mut graph = scenewalk_core::Graph::new();
    let root = graph.add_root(Group);
    let mut moved = Vec::new();
    for k in 0..20 {
        let t = graph
            .append_child(root, Transform::from_translation(Vec3::X * k as f32))
            .unwrap();
        moved.push(graph.append_child(t, Transform::IDENTITY).unwrap());
    }
    let mut update = IncrementalUpdate::new();
    assert!(update.run(&graph, root).unwrap().full);
    // Scatter the records, patch once, then compact.
    graph.remove(moved[3]).unwrap();
    graph
        .get_mut::<Transform>(moved[7])
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::Y));
    assert!(!update.run(&graph, root).unwrap().full);
    let remap = graph.compact().unwrap();
    let root = remap.get(root).unwrap();
    let stats = update.run(&graph, root).unwrap();
    assert!(
        stats.full,
        "slots were renumbered: the log cannot be trusted"
    );
    let seven = remap.get(moved[7]).unwrap();
    let world = update.world(&graph, seven).ok().unwrap();
    assert_eq!(world.translation, Vec3::new(7.0, 1.0, 0.0).into());
}

/// A node type that extends `Transform`, as a user's joint type would: the subtree
/// pass reads its local matrix through the base chain, not the exact-type column.
#[derive(Clone, Debug)]
struct Joint {
    transform: Transform,
}
impl scenewalk_core::NodeCore for Joint {
    fn base(&self) -> Option<&dyn scenewalk_core::NodeCore> {
        Some(&self.transform)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<Transform>())
    }
}

#[test]
fn types_extending_transform_and_geometry_are_patched_like_a_full_run() {
    use scenewalk_nodes::Mesh;
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut joints = Vec::new();
    let mut parent = root;
    for k in 0..4 {
        let joint = Joint {
            transform: Transform::from_translation(Vec3::X * (k as f32 + 1.0)),
        };
        let j = graph.append_child(parent, joint).unwrap();
        let t = graph
            .append_child(j, Transform::from_translation(Vec3::Y))
            .unwrap();
        let mesh = Mesh::uv_sphere(0.5 + k as f32, 6, 4).unwrap();
        graph.append_child(t, mesh).unwrap();
        graph
            .append_child(j, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))
            .unwrap();
        joints.push(j);
        parent = j;
    }
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    for (k, &j) in joints.iter().enumerate() {
        let m = Affine3A::from_scale_rotation_translation(
            Vec3::splat(1.5),
            Quat::from_rotation_z(k as f32),
            Vec3::Z * k as f32,
        );
        graph.get_mut::<Joint>(j).unwrap().transform.set_local(m);
        let stats = update.run(&graph, root).unwrap();
        assert!(!stats.full);
        assert_eq!(stats.subtrees, 1);
        check(&graph, root, &update).unwrap();
    }
    // The mesh's own box moved with its parent: not an empty or stale box.
    let top = update.world_bounds(&graph, root).ok().unwrap();
    assert!(!top.is_empty());
}

#[test]
fn a_non_finite_matrix_in_a_patch_falls_back_to_a_full_run_that_lists_it() {
    let (mut graph, [root, a, b, leaf, _]) = chain();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    graph
        .get_mut::<Transform>(b)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::NAN));
    let stats = update.run(&graph, root).unwrap();
    assert!(stats.full, "the subtree pass gives up on a NaN matrix");
    assert_eq!(update.non_finite(), [b.index()]);
    assert!(
        update
            .world(&graph, leaf)
            .ok()
            .unwrap()
            .translation
            .is_nan()
    );
    graph
        .get_mut::<Transform>(b)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::Y));
    // The bad list is rebuilt by one more full run, then patches resume.
    assert!(update.run(&graph, root).unwrap().full);
    assert!(update.non_finite().is_empty());
    graph
        .get_mut::<Transform>(a)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::Z));
    assert!(!update.run(&graph, root).unwrap().full);
    check(&graph, root, &update).unwrap();
    assert_eq!(
        update.world(&graph, leaf).ok().unwrap().translation,
        Vec3::new(0.0, 1.0, 1.0).into()
    );
}

#[test]
fn nested_and_sibling_changes_in_one_update_equal_a_full_run() {
    // Changes at several depths of one branch (nested: only the topmost is walked)
    // and in sibling branches, with a box edit and a removal in the same update.
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut transforms = Vec::new();
    let mut leaves = Vec::new();
    for k in 0..3 {
        let mut parent = root;
        for d in 0..4 {
            let t = graph
                .append_child(
                    parent,
                    Transform::from_translation(Vec3::X * (k + d) as f32),
                )
                .unwrap();
            leaves.push(
                graph
                    .append_child(t, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))
                    .unwrap(),
            );
            transforms.push(t);
            parent = t;
        }
    }
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    for &t in [transforms[1], transforms[3], transforms[2], transforms[9]].iter() {
        graph
            .get_mut::<Transform>(t)
            .unwrap()
            .set_local(Affine3A::from_translation(Vec3::new(0.0, 2.0, -1.0)));
    }
    *graph.get_mut::<Geometry>(leaves[6]).unwrap() =
        Geometry::new(Aabb::new(Vec3::splat(-5.0), Vec3::ZERO));
    graph.remove(leaves[11]).unwrap();
    let stats = update.run(&graph, root).unwrap();
    assert!(!stats.full);
    // transforms[1] covers [2] and [3]; [9] and the box edit are the others.
    assert_eq!(stats.subtrees, 3);
    check(&graph, root, &update).unwrap();
}

fn skinned_edit() -> impl Strategy<Value = Edit> {
    let i = any::<prop::sample::Index>;
    prop_oneof![
        6 => edit(),
        1 => (i(), i(), i()).prop_map(|(n, a, b)| Edit::AppendSkinned(n, a, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Skinned meshes posed by joints anywhere (before or after the mesh, in other
    /// branches, moved out of the update's subtree, removed), among structural and
    /// payload edits and more skinned meshes added: every patch gives the full run's
    /// boxes, the skinned meshes' own boxes included.
    #[test]
    fn skinned_meshes_are_patched_like_a_full_run(
        spec in tree(),
        skins in prop::collection::vec(any::<(prop::sample::Index, prop::sample::Index, prop::sample::Index)>(), 1..4),
        edits in prop::collection::vec(skinned_edit(), 0..40),
    ) {
        let (mut graph, ids) = build(&spec);
        let root = ids[0];
        for (n, a, b) in skins {
            apply(&mut graph, root, &Edit::AppendSkinned(n, a, b));
        }
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        check(&graph, root, &update)?;
        play(&mut graph, root, &mut update, &edits, true)?;
        prop_assert!(!update.run(&graph, root).unwrap().full);
        check(&graph, root, &update)?;
    }
}

fn payload_edit() -> impl Strategy<Value = Edit> {
    let i = any::<prop::sample::Index>;
    prop_oneof![
        4 => (i(), v(), 0.5f32..2.0).prop_map(|(n, t, s)| Edit::SetTransform(n, t, s)),
        2 => (i(), v(), v()).prop_map(|(n, a, b)| Edit::SetBox(n, a, b)),
        2 => Just(Edit::Update),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Payload edits alone after a full run take the patch that reads the full run's
    /// pre-order spans instead of walking up (changes inside, outside and above a
    /// root that may lie below the graph's root, nested ones, repeated ones); then
    /// one structural edit switches to the walk up for good, which must agree too.
    #[test]
    fn payload_only_patches_equal_full_runs(spec in tree(), pick in any::<prop::sample::Index>(), edits in prop::collection::vec(payload_edit(), 0..30), tail in prop::collection::vec(payload_edit(), 0..10), append in any::<prop::sample::Index>()) {
        let (mut graph, ids) = build(&spec);
        let root = ids[pick.index(ids.len())];
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        play(&mut graph, root, &mut update, &edits, false)?;
        update.run(&graph, root).unwrap();
        check(&graph, root, &update)?;
        apply(&mut graph, root, &Edit::Append(append, Kind::Group));
        play(&mut graph, root, &mut update, &tail, false)?;
        update.run(&graph, root).unwrap();
        check(&graph, root, &update)?;
    }
}

#[test]
fn a_payload_change_above_the_root_is_a_full_run_outside_it_nothing() {
    let (mut graph, [root, a, b, leaf, side]) = chain();
    let mut update = IncrementalUpdate::new();
    update.run(&graph, b).unwrap();
    // Outside the update's subtree and not above it: nothing to do.
    *graph.get_mut::<Geometry>(side).unwrap() = Geometry::new(Aabb::new(Vec3::ZERO, Vec3::X));
    let stats = update.run(&graph, b).unwrap();
    assert_eq!((stats.full, stats.subtrees, stats.entered), (false, 0, 0));
    // Above it: everything below changes.
    graph
        .get_mut::<Transform>(a)
        .unwrap()
        .set_local(Affine3A::from_translation(Vec3::X * 7.0));
    assert!(update.run(&graph, b).unwrap().full);
    assert_eq!(update.world(&graph, leaf).ok().unwrap().translation.x, 7.0);
    check(&graph, b, &update).unwrap();
    let _ = root;
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Many payload edits in one update: more topmost changed nodes than the patch
    /// warms up in one batch, and boxes changing on several levels on the way up.
    #[test]
    fn many_payload_edits_in_one_update_equal_a_full_run(spec in tree(), edits in prop::collection::vec(payload_edit(), 20..150), rounds in 1usize..3) {
        let (mut graph, ids) = build(&spec);
        let root = ids[0];
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        for round in 0..rounds {
            for edit in edits.iter().skip(round) {
                apply(&mut graph, root, edit);
            }
            let stats = update.run(&graph, root).unwrap();
            prop_assert!(!stats.full);
            check(&graph, root, &update)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Structural and payload edits interleaved, with a full run between rounds:
    /// every full run writes a new plan (removals move payloads within their
    /// columns, appends and moves renumber the pre-order), and the payload-only
    /// patches after it follow that plan, not the one before.
    #[test]
    fn full_runs_between_structural_edits_renew_the_plan(spec in tree(), rounds in prop::collection::vec((prop::collection::vec(edit(), 0..12), prop::collection::vec(payload_edit(), 1..12)), 1..5)) {
        let (mut graph, ids) = build(&spec);
        let root = ids[0];
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        for (structural, payloads) in &rounds {
            play(&mut graph, root, &mut update, structural, true)?;
            prop_assert!(update.run_full(&graph, root).unwrap().full);
            play(&mut graph, root, &mut update, payloads, true)?;
            prop_assert!(!update.run(&graph, root).unwrap().full);
            check(&graph, root, &update)?;
        }
    }
}

/// Boxes on few distinct coordinates, so faces often coincide; sometimes empty.
fn coinciding_box() -> impl Strategy<Value = Aabb> {
    let c = || (-3i8..3).prop_map(|v| f32::from(v) * 0.5);
    let corner = || (c(), c(), c()).prop_map(|(x, y, z)| Vec3::new(x, y, z));
    prop_oneof![
        8 => (corner(), corner()).prop_map(|(a, b)| Aabb::new(a, b)),
        1 => Just(Aabb::EMPTY),
    ]
}

proptest! {
    /// When one child's box goes from `old` to `new`, the patch gives its parent (and
    /// the root) the union of the other contributors (the parent's own geometry, the
    /// other children) with `new`, whichever faces the child defined.
    #[test]
    fn a_changed_child_box_gives_the_union_of_the_other_contributors_and_the_new_box(
        own in coinciding_box(),
        others in prop::collection::vec(coinciding_box(), 0..4),
        old in coinciding_box(),
        new in coinciding_box(),
    ) {
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let parent = graph.append_child(root, Geometry::new(own)).unwrap();
        for b in &others {
            graph.append_child(parent, Geometry::new(*b)).unwrap();
        }
        let child = graph.append_child(parent, Geometry::new(old)).unwrap();
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        *graph.get_mut::<Geometry>(child).unwrap() = Geometry::new(new);
        prop_assert!(!update.run(&graph, root).unwrap().full);
        let want = others.iter().fold(own, |acc, b| acc.union(b)).union(&new);
        prop_assert_eq!(update.world_bounds(&graph, parent).unwrap(), want);
        prop_assert_eq!(update.world_bounds(&graph, root).unwrap(), want);
    }
}

/// A payload patch that re-walks a third of the tree builds the patch plan and
/// replays it: every node's world and box equal a full run's, for a root below the
/// graph's root and after removals moved payloads within their columns (each payload
/// distinct, so a step reading another node's payload or matrix place shows).
#[test]
fn the_plan_replays_each_nodes_own_payload_after_removals() {
    let mut graph = Graph::new();
    let top = graph.add_root(Group);
    let root = graph
        .append_child(top, Transform::from_translation(Vec3::X))
        .unwrap();
    let mut parents = vec![root];
    for i in 0..300u32 {
        let parent = parents[(i as usize * 7) % parents.len()];
        let node = match i % 3 {
            0 => graph.append_child(parent, Transform::from_translation(Vec3::Y)),
            1 => graph.append_child(parent, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE))),
            _ => graph.append_child(parent, Group),
        }
        .unwrap();
        parents.push(node);
    }
    for &gone in &parents[10..20] {
        if graph.contains(gone) {
            graph.remove_subtree(gone).unwrap();
        }
    }
    let mut update = IncrementalUpdate::new();
    update.run(&graph, root).unwrap();
    let nodes: Vec<NodeId> = all_nodes(&graph)
        .into_iter()
        .filter(|&n| n != root && graph.is_ancestor_or_self(root, n).unwrap())
        .collect();
    for (i, &node) in nodes.iter().enumerate() {
        let x = i as f32;
        if let Ok(t) = graph.get_mut::<Transform>(node) {
            t.set_local(Affine3A::from_translation(Vec3::new(x, 1.0, -x)));
        } else if let Ok(g) = graph.get_mut::<Geometry>(node) {
            *g = Geometry::new(Aabb::new(Vec3::splat(-x), Vec3::new(x, 1.0, 2.0)));
        }
    }
    let stats = update.run(&graph, root).unwrap();
    assert!(!stats.full);
    assert_eq!(stats.entered as usize, nodes.len());
    let mut fresh = IncrementalUpdate::new();
    fresh.run(&graph, root).unwrap();
    for id in all_nodes(&graph) {
        assert_eq!(update.world(&graph, id).ok(), fresh.world(&graph, id).ok());
        assert_eq!(
            update.world_bounds(&graph, id).ok(),
            fresh.world_bounds(&graph, id).ok()
        );
    }
}
