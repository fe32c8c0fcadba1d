//! Frames interleaved with random edits (moves, additions, removals, reparenting):
//! every frame's draw list and pick hits equal the same frame computed from scratch.

use proptest::prelude::*;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, NodeId};
use scenewalk_examples::frame::{Frame, FrameTimes, Seen, from_scratch};
use scenewalk_examples::{CityMeshes, CityScene};
use scenewalk_nodes::{Camera, Geometry, Transform};

const PICKS: [(f32, f32); 5] = [
    (0.0, -0.2),
    (-0.5, -0.3),
    (0.5, -0.3),
    (-0.2, -0.6),
    (0.3, 0.1),
];

#[derive(Clone, Debug)]
enum Edit {
    /// Turn the k-th live transform by an angle.
    Turn(usize, f32),
    /// A box under the k-th live node.
    Add(usize, [f32; 3]),
    /// Remove the k-th live node's subtree (never the root or the camera's path).
    Remove(usize),
    /// Move the k-th live node under the j-th.
    Reparent(usize, usize),
    /// Move the camera to look from a point at the city.
    Camera([f32; 3]),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = prop::array::uniform3(-50.0f32..250.0);
    prop_oneof![
        4 => (any::<usize>(), -3.0f32..3.0).prop_map(|(k, a)| Edit::Turn(k, a)),
        2 => (any::<usize>(), at.clone()).prop_map(|(k, p)| Edit::Add(k, p)),
        1 => any::<usize>().prop_map(Edit::Remove),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(k, j)| Edit::Reparent(k, j)),
        1 => at.prop_map(Edit::Camera),
    ]
}

fn live(city: &CityScene) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut next = Some(city.root);
    while let Some(n) = next {
        out.push(n);
        next = city.graph.next_preorder(n, city.root).ok().flatten();
    }
    out
}

/// Applies `edit`; edits that would cut the camera or its transform out of the tree
/// are skipped (the frame needs a camera).
fn apply(city: &mut CityScene, edit: &Edit) {
    let nodes = live(city);
    let eye = city.graph.parent(city.camera).unwrap().unwrap();
    let keeps_camera = |n: NodeId| n == city.root || n == eye || n == city.camera;
    let pick = |k: usize| nodes[k % nodes.len()];
    let graph = &mut city.graph;
    match *edit {
        Edit::Turn(k, angle) => {
            let transforms: Vec<_> = nodes
                .iter()
                .copied()
                .filter(|&n| n != eye && graph.get::<Transform>(n).is_ok())
                .collect();
            if let Some(&t) = transforms.get(k % transforms.len().max(1)) {
                let local = *graph.get::<Transform>(t).unwrap().local();
                graph
                    .get_mut::<Transform>(t)
                    .unwrap()
                    .set_local(local * Affine3A::from_rotation_y(angle));
            }
        }
        Edit::Add(k, p) => {
            let p = Vec3::from(p);
            let geometry = Geometry::new(Aabb::new(p, p + Vec3::splat(3.0)));
            graph.append_child(pick(k), geometry).unwrap();
        }
        Edit::Remove(k) => {
            let n = pick(k);
            if !keeps_camera(n) {
                graph.remove_subtree(n).unwrap();
            }
        }
        Edit::Reparent(k, j) => {
            let (n, to) = (pick(k), pick(j));
            if !keeps_camera(n) && !graph.is_ancestor_or_self(n, to).unwrap() {
                graph.set_parent(n, Some(to), None).unwrap();
            }
        }
        Edit::Camera(p) => {
            let centre = Vec3::new(100.0, 0.0, 100.0);
            let placed = Camera::look_at(Vec3::from(p) + Vec3::Y * 60.0, centre, Vec3::Y)
                .unwrap_or(Affine3A::IDENTITY);
            graph.get_mut::<Transform>(eye).unwrap().set_local(placed);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_frame_equals_the_frame_computed_from_scratch(
        frames in prop::collection::vec(prop::collection::vec(edit(), 0..6), 1..8),
    ) {
        let mut city = CityScene::build(2, 5, &CityMeshes::generated().unwrap()).unwrap();
        let mut frame = Frame::new().unwrap();
        let mut seen = Seen::default();
        for edits in &frames {
            for edit in edits {
                apply(&mut city, edit);
            }
            frame
                .run(&city.graph, city.root, city.camera, &PICKS, &mut FrameTimes::default(), &mut seen)
                .unwrap();
            let want = from_scratch(&city.graph, city.root, city.camera, &PICKS).unwrap();
            prop_assert_eq!(&seen, &want);
        }
    }
}
