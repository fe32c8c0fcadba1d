//! World transforms and bounds against naive per-node computations on random trees.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod common;

use common::{Kind, build, naive_bounds, naive_world, tree};
use proptest::prelude::*;
use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeCore, Ordered, Unordered};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::{Geometry, Group, Transform};

fn close(a: Vec3, b: Vec3) -> bool {
    (a - b).abs().max_element() <= 1e-3 * (1.0 + a.abs().max_element().max(b.abs().max_element()))
}

fn affine_close(a: &Affine3A, b: &Affine3A) -> bool {
    close(a.translation.into(), b.translation.into())
        && close(a.matrix3.x_axis.into(), b.matrix3.x_axis.into())
        && close(a.matrix3.y_axis.into(), b.matrix3.y_axis.into())
        && close(a.matrix3.z_axis.into(), b.matrix3.z_axis.into())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn world_transforms_equal_naive_product(spec in tree()) {
        let (graph, ids) = build(&spec);
        let mut action = Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
        let stats = action.run(&graph, ids[0]).unwrap();
        let world = action.actor::<WorldTransforms>().unwrap();
        for &id in &ids {
            let got = world.table().world(&graph, id).ok().unwrap();
            prop_assert!(affine_close(&got, &naive_world(&graph, id)), "node {id:?}");
        }
        let transforms = spec.iter().skip(1).filter(|(_, k)| matches!(k, Kind::Transform(..))).count() as u64;
        prop_assert_eq!(stats.state_copies, transforms, "one state copy per transform node");
    }

    #[test]
    fn world_transforms_of_a_subtree_start_from_its_ancestors(spec in tree(), pick in any::<prop::sample::Index>()) {
        let (graph, ids) = build(&spec);
        let start = ids[pick.index(ids.len())];
        let mut action = Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
        action.run(&graph, start).unwrap();
        let world = action.actor::<WorldTransforms>().unwrap();
        for &id in &ids {
            let inside = graph.is_ancestor_or_self(start, id).unwrap();
            match world.table().world(&graph, id).ok() {
                Some(got) => {
                    prop_assert!(inside);
                    prop_assert!(affine_close(&got, &naive_world(&graph, id)));
                }
                None => prop_assert!(!inside),
            }
        }
    }

    #[test]
    fn bounds_equal_naive_union(spec in tree()) {
        let (graph, ids) = build(&spec);
        let mut action = Action::new(DepthFirst::new(), (Ordered::new(Bounds::new()),)).unwrap();
        action.run(&graph, ids[0]).unwrap();
        let bounds = action.actor::<Bounds>().unwrap();
        for &id in &ids {
            let got = bounds.table().world_bounds(&graph, id).ok().unwrap();
            let want = naive_bounds(&graph, id);
            prop_assert_eq!(got.is_empty(), want.is_empty());
            if !want.is_empty() {
                prop_assert!(close(got.min, want.min) && close(got.max, want.max), "{:?} vs {:?}", got, want);
            }
        }
    }

    /// `Bounds` carries the `WorldTransforms` the action finds, one state (one world
    /// matrix) per transform node; a chain with its own beside it gets the same tables
    /// bit for bit, and computes every matrix twice.
    #[test]
    fn bounds_carry_their_world_transforms(spec in tree()) {
        let (graph, ids) = build(&spec);
        let transforms = spec.iter().skip(1).filter(|(_, k)| matches!(k, Kind::Transform(..))).count() as u64;
        let chain = (Ordered::new(Bounds::new()), Unordered::new(Statistics::new()));
        let mut alone = Action::new(DepthFirst::new(), chain).unwrap();
        prop_assert_eq!(alone.run(&graph, ids[0]).unwrap().state_copies, transforms);
        let chain = (Ordered::new(WorldTransforms::new()), Ordered::new(Bounds::new()));
        let mut both = Action::new(DepthFirst::new(), chain).unwrap();
        prop_assert_eq!(both.run(&graph, ids[0]).unwrap().state_copies, 2 * transforms);
        let (a, b) = (alone.actor::<Bounds>().unwrap(), both.actor::<Bounds>().unwrap());
        prop_assert!(std::ptr::eq(alone.actor::<WorldTransforms>().unwrap(), a.transforms()));
        let own = both.actor::<WorldTransforms>().unwrap();
        prop_assert!(std::ptr::eq(own, both.actors().0.get()));
        let bits = |m: Affine3A| m.to_cols_array().map(f32::to_bits);
        for &id in &ids {
            let world = a.transforms().table().world(&graph, id).map(bits).ok();
            prop_assert!(world.is_some());
            prop_assert_eq!(world, own.table().world(&graph, id).map(bits).ok());
            prop_assert_eq!(world, b.transforms().table().world(&graph, id).map(bits).ok());
            let corners = |b: Aabb| [b.min, b.max].map(|v| v.to_array().map(f32::to_bits));
            let boxes = [a, b].map(|x| x.table().world_bounds(&graph, id).map(corners).ok());
            prop_assert_eq!(boxes[0], boxes[1]);
        }
    }

    #[test]
    fn statistics_count_every_node(spec in tree()) {
        let (graph, ids) = build(&spec);
        let mut action = Action::new(DepthFirst::new(), (Unordered::new(Statistics::new()),)).unwrap();
        action.run(&graph, ids[0]).unwrap();
        let stats = action.actor::<Statistics>().unwrap();
        prop_assert_eq!(stats.nodes(), ids.len() as u64);
        let leaves = ids.iter().filter(|&&id| graph.first_child(id).unwrap().is_none()).count() as u64;
        prop_assert_eq!(stats.leaves(), leaves);
        let geometry = spec.iter().skip(1).filter(|(_, k)| matches!(k, Kind::Geometry(..))).count() as u64;
        prop_assert_eq!(stats.count_of::<Geometry>(), geometry);
        let mut depths = vec![0u64; ids.len()];
        for &id in &ids { depths[graph.depth(id).unwrap()] += 1; }
        while depths.last() == Some(&0) { depths.pop(); }
        prop_assert_eq!(stats.depth_histogram(), &depths[..]);
    }
}

/// A node type from "another crate": a transform that also spins. It extends
/// `Transform`, so the world-transform and statistics actors handle it unchanged.
#[derive(Clone, Debug)]
struct Spinner {
    transform: Transform,
    #[allow(dead_code)]
    speed: f32,
}

impl NodeCore for Spinner {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.transform)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<Transform>())
    }
}

#[test]
fn custom_node_type_is_handled_by_existing_actors() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let spin = graph
        .append_child(
            root,
            Spinner {
                transform: Transform::from_translation(Vec3::Y * 3.0),
                speed: 1.0,
            },
        )
        .unwrap();
    let leaf = graph
        .append_child(spin, Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE)))
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
        .world(&graph, leaf)
        .ok()
        .unwrap();
    assert_eq!(Vec3::from(world.translation), Vec3::Y * 3.0);
    let stats = action.actor::<Statistics>().unwrap();
    assert_eq!(stats.count_of::<Spinner>(), 1);
    assert_eq!(
        stats.counts_by_type(),
        [("Group", 1), ("Spinner", 1), ("Geometry", 1)],
        "bare type names, in type index order (Transform, registered with Spinner, is unreached)"
    );
    let bounds = action
        .actor::<Bounds>()
        .unwrap()
        .table()
        .world_bounds(&graph, root)
        .ok()
        .unwrap();
    assert_eq!(
        bounds,
        Aabb::new(Vec3::new(0.0, 3.0, 0.0), Vec3::new(1.0, 4.0, 1.0))
    );
}

/// Views a `Transform` through `base` but declares no parent type.
#[derive(Clone, Debug)]
struct HalfDeclared(Transform);

impl NodeCore for HalfDeclared {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
}

#[test]
fn a_transform_view_without_a_declared_parent_is_refused() {
    // Accepted, such a node would be a `Transform` to `Graph::get` but not to
    // `WorldTransforms`, so its subtree's world matrices would depend on where a run
    // starts.
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let half = HalfDeclared(Transform::from_translation(Vec3::X * 5.0));
    assert!(graph.append_child(root, half.clone()).is_err());
    assert!(graph.try_add_root(half).is_err());
    assert_eq!(graph.len(), 1);
}

#[test]
fn world_transforms_before_any_run_skip_the_node() {
    let mut graph = Graph::new();
    let root = graph.add_root(Transform::from_translation(Vec3::X));
    let mut actor = Ordered::new(WorldTransforms::new());
    let visit = scenewalk_core::Visit::new(&graph, root.index(), 0).unwrap();
    let mut entries = [];
    let mut active = scenewalk_core::ActiveList::new(&mut entries);
    let flow = scenewalk_core::Actor::enter(&mut actor, &visit, &mut active);
    assert_eq!(flow, scenewalk_core::Flow::Continue);
    assert!(
        actor.get().table().world(&graph, root).is_err(),
        "nothing recorded"
    );
}

#[test]
fn results_of_unreached_and_removed_nodes_are_none() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph
        .append_child(root, Transform::from_translation(Vec3::X))
        .unwrap();
    let other_root = graph.add_root(Group);
    let mut action =
        Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
    action.run(&graph, root).unwrap();
    assert!(
        action
            .actor::<WorldTransforms>()
            .unwrap()
            .table()
            .world(&graph, other_root)
            .ok()
            .is_none()
    );
    graph.remove(a).unwrap();
    assert!(
        action
            .actor::<WorldTransforms>()
            .unwrap()
            .table()
            .world(&graph, a)
            .ok()
            .is_none()
    );
    action.run(&graph, other_root).unwrap();
    assert!(
        action
            .actor::<WorldTransforms>()
            .unwrap()
            .table()
            .world(&graph, root)
            .ok()
            .is_none(),
        "earlier run's values are forgotten"
    );
}

#[test]
fn a_reused_slot_does_not_show_the_old_nodes_value() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let moved = graph
        .append_child(root, Transform::from_translation(Vec3::X * 7.0))
        .unwrap();
    let mut action =
        Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
    action.run(&graph, root).unwrap();
    assert!(
        action
            .actor::<WorldTransforms>()
            .unwrap()
            .table()
            .world(&graph, moved)
            .ok()
            .is_some()
    );
    graph.remove(moved).unwrap();
    let newcomer = graph.add_root(Group);
    assert_eq!(newcomer.index(), moved.index(), "the slot is reused");
    let world = action.actor::<WorldTransforms>().unwrap();
    assert_eq!(world.table().world(&graph, newcomer).ok(), None);
    assert_eq!(
        world.table().world(&graph, root).ok(),
        None,
        "the structure changed since the run"
    );
    action.run(&graph, root).unwrap();
    let world = action.actor::<WorldTransforms>().unwrap();
    assert_eq!(
        world.table().world(&graph, root).ok(),
        Some(Affine3A::IDENTITY)
    );
    assert_eq!(
        world.table().world(&graph, newcomer).ok(),
        None,
        "not under the traversal root"
    );
}

#[test]
fn non_finite_world_matrices_are_listed_once() {
    let mut graph = Graph::new();
    let top = graph.add_root(Transform::from_translation(Vec3::NAN));
    let inner = graph
        .append_child(top, Transform::from_translation(Vec3::X))
        .unwrap();
    let leaf = graph.append_child(inner, Group).unwrap();
    let fine = graph.add_root(Transform::from_translation(Vec3::X));
    let mut action =
        Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
    action.run(&graph, inner).unwrap();
    assert_eq!(
        action.actor::<WorldTransforms>().unwrap().non_finite(),
        [inner.index()]
    );
    action.run(&graph, leaf).unwrap();
    assert_eq!(
        action.actor::<WorldTransforms>().unwrap().non_finite(),
        [leaf.index()]
    );
    action.run(&graph, top).unwrap();
    assert_eq!(
        action.actor::<WorldTransforms>().unwrap().non_finite(),
        [top.index(), inner.index()]
    );
    action.run(&graph, fine).unwrap();
    assert!(
        action
            .actor::<WorldTransforms>()
            .unwrap()
            .non_finite()
            .is_empty()
    );
}

fn any_affine() -> impl Strategy<Value = Affine3A> {
    // Every class of f32, NaN and infinities included, in any of the 12 places.
    proptest::array::uniform12(any::<f32>()).prop_map(|m| Affine3A::from_cols_array(&m))
}

fn bits(m: &Affine3A) -> [u32; 12] {
    m.to_cols_array().map(f32::to_bits)
}

proptest! {
    /// Each world matrix is glam's `parent * local` bit for bit, and a transform is
    /// listed as non-finite exactly where glam's product is not finite, for every
    /// class of f32.
    #[test]
    fn world_matrices_are_glams_products_bit_for_bit(
        a in any_affine(),
        b in any_affine(),
        c in any_affine(),
    ) {
        // Three levels: the third's parent is a product, so it may hold infinities and
        // signed zeros that no single local matrix times the identity gives.
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let first = graph.append_child(root, Transform::from_affine(a)).unwrap();
        let second = graph.append_child(first, Transform::from_affine(b)).unwrap();
        let third = graph.append_child(second, Transform::from_affine(c)).unwrap();
        let mut action = Action::new(DepthFirst::new(), (Ordered::new(WorldTransforms::new()),)).unwrap();
        action.run(&graph, root).unwrap();
        let world = action.actor::<WorldTransforms>().unwrap();
        let (wa, wb) = (Affine3A::IDENTITY * a, Affine3A::IDENTITY * a * b);
        let expected = [(first, wa), (second, wb), (third, wb * c)];
        for (node, product) in expected {
            prop_assert_eq!(bits(&world.table().at(node.index()).unwrap()), bits(&product));
        }
        let bad = expected.iter().filter(|(_, m)| !m.is_finite()).map(|(n, _)| n.index());
        prop_assert_eq!(world.non_finite(), &bad.collect::<Vec<_>>()[..]);
    }
}
