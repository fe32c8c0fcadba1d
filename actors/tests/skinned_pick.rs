//! Pick hits a skinned mesh on its posed triangles, exactly: against brute force over
//! every posed triangle (skinned by hand) for a bending tube at random poses and rays,
//! and a ray through the empty part of the mesh's box from its joints misses.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod posed;

use proptest::prelude::*;
use scenewalk_actors::{IncrementalUpdate, Pick};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{Action, Graph, NodeId, Unordered};
use scenewalk_iterators::PriorityQueue;
use scenewalk_nodes::{Group, Mesh, Ray, Skin, SkinnedMesh, Transform};
use std::f32::consts::FRAC_PI_2;
use std::sync::Arc;

/// Joints of the tube, one unit apart along x.
const JOINTS: usize = 3;
/// The tube's sides and its rings per unit.
const SIDES: u32 = 8;
const RINGS_PER_UNIT: u32 = 4;
const RADIUS: f32 = 0.2;

/// A tube along x from 0 to `JOINTS`, each vertex weighted between the two joints
/// nearest it; its skinned mesh under a node moved far off (skinning ignores it), its
/// joints a chain from the root, and a plain mesh (a quad) beside it.
struct Tube {
    graph: Graph,
    root: NodeId,
    joints: Vec<NodeId>,
    quad: NodeId,
}

fn tube() -> Tube {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let holder = graph
        .append_child(root, Transform::from_translation(Vec3::splat(50.0)))
        .unwrap();
    let mut joints = Vec::new();
    let mut parent = root;
    for j in 0..JOINTS {
        let at = if j == 0 { Vec3::ZERO } else { Vec3::X };
        parent = graph
            .append_child(parent, Transform::from_translation(at))
            .unwrap();
        joints.push(parent);
    }
    let binds = (0..JOINTS)
        .map(|j| Affine3A::from_translation(-Vec3::X * j as f32))
        .collect();
    let skin = Arc::new(Skin::new(joints.clone(), Some(binds), None).unwrap());
    let rings = JOINTS as u32 * RINGS_PER_UNIT + 1;
    let (mut positions, mut influences, mut weights) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rings {
        let x = r as f32 / RINGS_PER_UNIT as f32;
        // Between joint ⌊x - ½⌋ and the next, by how far past the joint's middle.
        let s = (x - 0.5).clamp(0.0, JOINTS as f32 - 1.0);
        let j = (s.floor() as u16).min(JOINTS as u16 - 2);
        let w = (s - f32::from(j)).clamp(0.0, 1.0);
        for k in 0..SIDES {
            let a = k as f32 / SIDES as f32 * std::f32::consts::TAU;
            positions.push(Vec3::new(x, RADIUS * a.sin(), RADIUS * a.cos()));
            influences.push([j, j + 1, 0, 0]);
            weights.push([1.0 - w, w, 0.0, 0.0]);
        }
    }
    let mut triangles = Vec::new();
    for r in 0..rings - 1 {
        for k in 0..SIDES {
            let (a, b) = (r * SIDES + k, r * SIDES + (k + 1) % SIDES);
            triangles.push([a, b, a + SIDES]);
            triangles.push([b, b + SIDES, a + SIDES]);
        }
    }
    let mesh = Mesh::new(positions, triangles).unwrap();
    let skinned = SkinnedMesh::new(mesh, skin, influences, weights).unwrap();
    graph.append_child(holder, skinned).unwrap();
    let quad_at = graph.append_child(root, Transform::IDENTITY).unwrap();
    let quad = Mesh::new(
        vec![
            Vec3::new(-0.5, -0.5, 0.0),
            Vec3::new(0.5, -0.5, 0.0),
            Vec3::new(0.5, 0.5, 0.0),
            Vec3::new(-0.5, 0.5, 0.0),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )
    .unwrap();
    let quad = graph.append_child(quad_at, quad).unwrap();
    Tube {
        graph,
        root,
        joints,
        quad,
    }
}

impl Tube {
    /// Bends joint `j` by `angles[j]` about z (the first also turns about y).
    fn pose(&mut self, angles: &[(f32, f32)]) {
        for (j, (&joint, &(bend, turn))) in self.joints.iter().zip(angles).enumerate() {
            let at = if j == 0 { Vec3::ZERO } else { Vec3::X };
            let spin = Quat::from_rotation_z(bend) * Quat::from_rotation_y(turn);
            let local = Affine3A::from_rotation_translation(spin, at);
            self.graph
                .get_mut::<Transform>(joint)
                .unwrap()
                .set_local(local);
        }
    }

    fn place_quad(&mut self, at: Vec3) {
        let holder = self.graph.parent(self.quad).unwrap().unwrap();
        let local = Affine3A::from_translation(at);
        self.graph
            .get_mut::<Transform>(holder)
            .unwrap()
            .set_local(local);
    }
}

type PickAction = Action<PriorityQueue, (Unordered<Pick>,)>;

fn pick_action() -> PickAction {
    Action::new(
        PriorityQueue::new(),
        (Unordered::new(Pick::new(
            Ray::new(Vec3::ZERO, -Vec3::Z).unwrap(),
        )),),
    )
    .unwrap()
}

fn pick(
    action: &mut PickAction,
    update: &IncrementalUpdate,
    tube: &Tube,
    ray: Ray,
) -> Option<scenewalk_actors::PickHit> {
    action.actor_mut::<Pick>().unwrap().set_ray(ray);
    action
        .run_with(&tube.graph, tube.root, &update.results())
        .unwrap();
    action.actor::<Pick>().unwrap().hit()
}

#[test]
fn a_ray_through_the_empty_corner_of_a_bent_tube_misses_it() {
    let mut tube = tube();
    // The second joint turns the tube up: an L whose box spans the empty corner.
    tube.pose(&[(0.0, 0.0), (FRAC_PI_2, 0.0), (0.0, 0.0)]);
    tube.place_quad(Vec3::new(0.0, 0.0, -40.0));
    let mut update = IncrementalUpdate::new();
    update.run(&tube.graph, tube.root).unwrap();
    let mut action = pick_action();
    let triangles = posed::triangles(&tube.graph, tube.root);

    // Through the corner, inside the box from the joints, where nothing is drawn.
    let corner = Ray::new(Vec3::new(0.3, 1.0, 10.0), -Vec3::Z).unwrap();
    let skinned_box = update
        .results()
        .get::<scenewalk_actors::BoundsTable>("test", &tube.graph, tube.root.index())
        .unwrap()
        .skinned()[0]
        .1;
    assert!(scenewalk_nodes::ray_aabb(&corner, &skinned_box, f32::INFINITY).is_some());
    let hit = pick(&mut action, &update, &tube, corner);
    assert!(!posed::agrees(&tube.graph, &triangles, &corner, hit));

    // Down onto the tube's first unit: its top, 9.8 units down (the ring's top vertex
    // stands at z = 0.2; rings have a vertex there).
    let down = Ray::new(Vec3::new(0.5, 0.0, 10.0), -Vec3::Z).unwrap();
    let hit = pick(&mut action, &update, &tube, down).unwrap();
    assert!((hit.distance - 9.8).abs() < 1e-4, "{hit:?}");
    assert!(posed::agrees(&tube.graph, &triangles, &down, Some(hit)));
    // The upright part, hit from the side: there, not at the bind pose (along x).
    let side = Ray::new(Vec3::new(10.0, 1.5, 0.0), -Vec3::X).unwrap();
    let hit = pick(&mut action, &update, &tube, side).unwrap();
    assert!((hit.point.x - 1.2).abs() < 0.05, "{hit:?}");
    assert!(posed::agrees(&tube.graph, &triangles, &side, Some(hit)));
    let bind = Ray::new(Vec3::new(2.5, 0.0, 10.0), -Vec3::Z).unwrap();
    let hit = pick(&mut action, &update, &tube, bind);
    assert!(!posed::agrees(&tube.graph, &triangles, &bind, hit));
}

fn angle() -> impl Strategy<Value = (f32, f32)> {
    (-1.6f32..1.6, -0.8f32..0.8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn pick_agrees_with_brute_force_over_the_posed_triangles(
        angles in prop::collection::vec(angle(), JOINTS),
        quad in prop::array::uniform3(-3.0f32..3.0),
        rays in prop::collection::vec(
            (prop::array::uniform3(-8.0f32..8.0), prop::array::uniform3(-1.0f32..3.5)),
            8,
        ),
    ) {
        let mut tube = tube();
        tube.pose(&angles);
        tube.place_quad(Vec3::from(quad));
        let mut update = IncrementalUpdate::new();
        update.run(&tube.graph, tube.root).unwrap();
        let mut action = pick_action();
        let triangles = posed::triangles(&tube.graph, tube.root);
        // Aimed at points around the tube's first joints: some hit, some miss.
        for (from, to) in rays {
            let Ok(ray) = Ray::new(Vec3::from(from), Vec3::from(to) - Vec3::from(from)) else {
                continue;
            };
            let hit = pick(&mut action, &update, &tube, ray);
            posed::agrees(&tube.graph, &triangles, &ray, hit);
        }
    }
}

#[test]
fn most_aimed_rays_hit_the_posed_tube() {
    // Through the centroids of posed triangles: Pick hits there or nearer, always.
    let mut tube = tube();
    tube.pose(&[(0.4, 0.3), (-1.0, 0.0), (1.2, 0.0)]);
    tube.place_quad(Vec3::new(0.0, 0.0, -30.0));
    let mut update = IncrementalUpdate::new();
    update.run(&tube.graph, tube.root).unwrap();
    let mut action = pick_action();
    let triangles = posed::triangles(&tube.graph, tube.root);
    let eye = Vec3::new(1.0, 2.0, 8.0);
    let mut hits = 0;
    for (_, _, [a, b, c]) in triangles.iter().step_by(7) {
        let ray = Ray::new(eye, (*a + *b + *c) / 3.0 - eye).unwrap();
        let hit = pick(&mut action, &update, &tube, ray);
        hits += usize::from(posed::agrees(&tube.graph, &triangles, &ray, hit));
    }
    assert_eq!(hits, triangles.iter().step_by(7).count());
}
