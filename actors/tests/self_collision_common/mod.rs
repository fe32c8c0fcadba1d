//! What the self-collision tests share: random configurations, link poses, and the
//! brute-force answer (every triangle pair of every checked link pair, in world space).

#![allow(dead_code, reason = "each test target uses part of it")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::LinkPair;
use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_nodes::triangles_intersect;
use scenewalk_nodes::urdf::{CollisionMesh, JointKind, Robot, Srdf};
use std::collections::BTreeSet;

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..hi`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

/// One value per variable, within the joint's limits (continuous: −π..π; others ±1).
pub fn random_configuration(robot: &Robot, rng: &mut Rng) -> Vec<f32> {
    (robot.variables().iter())
        .map(|&(joint, _)| {
            let joint = &robot.joints()[joint];
            match (joint.kind, joint.limits) {
                (JointKind::Revolute | JointKind::Prismatic, Some(l)) if l.lower < l.upper => {
                    rng.range(l.lower, l.upper)
                }
                (JointKind::Continuous, _) => {
                    rng.range(-std::f32::consts::PI, std::f32::consts::PI)
                }
                _ => rng.range(-1.0, 1.0),
            }
        })
        .collect()
}

/// Every link's world pose at `q`: the joints parents first, `world[child] =
/// world[parent] · origin · motion`.
pub fn link_poses(robot: &Robot, q: &[f32]) -> Vec<Affine3A> {
    let mut world = vec![Affine3A::IDENTITY; robot.links().len()];
    for &j in robot.order() {
        let joint = &robot.joints()[j];
        world[joint.child] = world[joint.parent] * robot.joint_local(joint, q);
    }
    world
}

/// The link pairs to check, computed from the definition: both links have geometry,
/// neither is the other's nearest ancestor with geometry, the SRDF does not name them.
pub fn checked_pairs(
    robot: &Robot,
    meshes: &[CollisionMesh],
    srdf: Option<&Srdf>,
) -> Vec<LinkPair> {
    let with: BTreeSet<usize> = meshes.iter().map(|m| m.link).collect();
    let nearest = |mut link: usize| loop {
        match robot.parent_link(link) {
            Some(p) if with.contains(&p) => return Some(p),
            Some(p) => link = p,
            None => return None,
        }
    };
    let disabled: BTreeSet<(usize, usize)> = srdf
        .map(|s| {
            (s.disabled.iter())
                .map(|d| {
                    let (a, b) = (robot.link(&d.link1).unwrap(), robot.link(&d.link2).unwrap());
                    (a.min(b), a.max(b))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut pairs = Vec::new();
    for &a in &with {
        for &b in with.range(a + 1..) {
            let adjacent = nearest(a) == Some(b) || nearest(b) == Some(a);
            if !adjacent && !disabled.contains(&(a, b)) {
                pairs.push(LinkPair { a, b });
            }
        }
    }
    pairs
}

/// The world triangles of each link's elements, with their boxes.
fn world_triangles(meshes: &[CollisionMesh], poses: &[Affine3A]) -> Vec<Vec<([Vec3; 3], Aabb)>> {
    let mut per_link = vec![Vec::new(); poses.len()];
    for m in meshes {
        let to_world = poses[m.link] * m.placement;
        for i in 0..m.mesh.triangles().len() as u32 {
            let t = m
                .mesh
                .triangle(i)
                .unwrap()
                .map(|p| to_world.transform_point3(p));
            let b = Aabb::from_points(t);
            // Padded well beyond rounding: the box test only saves time.
            let pad = Vec3::splat(1e-4 * (1.0 + b.max.abs().max(b.min.abs()).max_element()));
            per_link[m.link].push((t, Aabb::new(b.min - pad, b.max + pad)));
        }
    }
    per_link
}

/// The pairs among `pairs` with a touching triangle pair, every pair of triangles of
/// the two links tried in world space.
pub fn brute_force(
    meshes: &[CollisionMesh],
    poses: &[Affine3A],
    pairs: &[LinkPair],
) -> Vec<LinkPair> {
    let triangles = world_triangles(meshes, poses);
    pairs
        .iter()
        .copied()
        .filter(|p| {
            triangles[p.a].iter().any(|(ta, ba)| {
                triangles[p.b]
                    .iter()
                    .any(|(tb, bb)| ba.overlaps(bb) && triangles_intersect(ta, tb))
            })
        })
        .collect()
}
