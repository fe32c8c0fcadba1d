//! What the iterator tests share: a seeded generator, so every run builds the same
//! trees.

#![allow(dead_code)] // each test file uses a different part

use scenewalk_core::glam::{EulerRot, Quat, Vec3};
use scenewalk_core::{Graph, NodeId};
use scenewalk_nodes::{Group, Transform};

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u32 << 24) as f32
    }

    /// A number in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// A random finite transform.
pub fn random_transform(rng: &mut Rng) -> Transform {
    let t = Vec3::new(
        rng.range(-5.0, 5.0),
        rng.range(-5.0, 5.0),
        rng.range(-5.0, 5.0),
    );
    let r = Quat::from_euler(
        EulerRot::XYZ,
        rng.range(0.0, 6.3),
        rng.range(0.0, 6.3),
        rng.range(0.0, 6.3),
    );
    Transform::from_trs(t, r, Vec3::splat(rng.range(0.8, 1.25)))
}

/// A random tree of `n` nodes (groups and transforms) under a root, grown by appends,
/// inserts before siblings and moves, so slots are not in depth-first order; plus a
/// second small tree beside it that no walk of the first may reach.
pub fn random_graph(n: usize, seed: u64) -> (Graph, NodeId, Vec<NodeId>) {
    let mut rng = Rng(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let other = graph.add_root(Group);
    graph.append_child(other, Group).unwrap();
    let mut ids = vec![root];
    while ids.len() < n {
        let anchor = ids[rng.below(ids.len())];
        let id = match (rng.below(8), rng.below(2)) {
            (0, _) if anchor != root => graph
                .insert_before(anchor, random_transform(&mut rng))
                .unwrap(),
            (1, _) if ids.len() > 2 => {
                // Move a random subtree under a node outside it.
                let node = ids[1 + rng.below(ids.len() - 1)];
                let _ = graph.set_parent(node, Some(anchor), None); // a cycle is refused
                continue;
            }
            (_, 0) => graph.append_child(anchor, Group).unwrap(),
            _ => graph
                .append_child(anchor, random_transform(&mut rng))
                .unwrap(),
        };
        ids.push(id);
    }
    (graph, root, ids)
}
