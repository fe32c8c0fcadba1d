//! A city: the layered scene graph of a real application, with transforms at every
//! level and geometry at the leaves.

use crate::rng::SplitMix64;
use scenewalk_core::glam::{Quat, Vec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::{Geometry, Group, Transform};

/// Blocks along x in [`city_default`].
pub const DEFAULT_BLOCKS_X: usize = 5;
/// Blocks along z in [`city_default`].
pub const DEFAULT_BLOCKS_Y: usize = 5;
/// Seed of [`city_default`].
pub const DEFAULT_SEED: u64 = 0x5CE7_E0A1;

/// Side of a square city block, in metres.
pub const BLOCK_SIZE: f32 = 100.0;
/// Height of one floor, in metres.
pub const FLOOR_HEIGHT: f32 = 3.5;
/// Thickness of an outer wall, in metres.
const WALL: f32 = 0.3;
/// Triangles of one box.
const BOX_TRIANGLES: u32 = 12;

/// A city of `blocks_x × blocks_y` blocks:
///
/// ```text
/// Group (city)
/// └─ Transform (block: grid position)                 blocks_x × blocks_y
///    └─ Transform (building: position, turn about y)  2–6 per block
///       └─ Transform (floor: height)                  1–8 per building
///          └─ Geometry (4 outer walls, 1–3 rooms)     5–7 per floor
/// ```
///
/// Buildings stand inside their block (footprints of 8–20 m by 8–20 m, turned by
/// any angle) and every box is finite and non-empty; the same arguments always
/// give the same graph. Nodes are added depth-first, so records lie in depth-first
/// order. A block averages about 140 nodes.
///
/// ```
/// use scenewalk_nodes::Geometry;
/// let (graph, root) = scenewalk_examples::city(2, 3, 1);
/// assert_eq!(graph.children(root)?.count(), 6);
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
pub fn city(blocks_x: usize, blocks_y: usize, seed: u64) -> (Graph, NodeId) {
    let mut rng = SplitMix64::new(seed);
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    for bx in 0..blocks_x {
        for by in 0..blocks_y {
            let at = Vec3::new(bx as f32 * BLOCK_SIZE, 0.0, by as f32 * BLOCK_SIZE);
            let block = append(&mut graph, root, Transform::from_translation(at));
            for _ in 0..rng.between(2, 6) {
                add_building(&mut graph, block, &mut rng);
            }
        }
    }
    (graph, root)
}

/// The default city: 5 × 5 blocks, a few thousand nodes (see [`city`]).
///
/// ```
/// let (graph, _root) = scenewalk_examples::city_default();
/// assert!((2_000..6_000).contains(&graph.len()));
/// ```
pub fn city_default() -> (Graph, NodeId) {
    city(DEFAULT_BLOCKS_X, DEFAULT_BLOCKS_Y, DEFAULT_SEED)
}

pub(crate) fn append<T: scenewalk_core::NodeCore>(
    graph: &mut Graph,
    parent: NodeId,
    payload: T,
) -> NodeId {
    graph
        .append_child(parent, payload)
        .expect("the parent was just added to this graph")
}

/// A building's footprint: its size, and where it stands in its block.
pub(crate) struct Footprint {
    pub(crate) width: f32,
    pub(crate) depth: f32,
    /// Position and turn about y, in block coordinates.
    pub(crate) place: Transform,
}

/// A random footprint of 8–20 m by 8–20 m, turned by any angle, standing inside its
/// block with at least `gap` metres to spare.
pub(crate) fn footprint(rng: &mut SplitMix64, gap: f32) -> Footprint {
    let width = rng.range_f32(8.0, 20.0);
    let depth = rng.range_f32(8.0, 20.0);
    // A turned footprint fits in a circle of its half diagonal: keep that in the block.
    let reach = 0.5 * (width * width + depth * depth).sqrt();
    let margin = reach + gap;
    let x = rng.range_f32(margin, BLOCK_SIZE - margin);
    let z = rng.range_f32(margin, BLOCK_SIZE - margin);
    let turn = Quat::from_rotation_y(rng.range_f32(0.0, std::f32::consts::TAU));
    Footprint {
        width,
        depth,
        place: Transform::from_trs(Vec3::new(x, 0.0, z), turn, Vec3::ONE),
    }
}

fn add_building(graph: &mut Graph, block: NodeId, rng: &mut SplitMix64) {
    let Footprint {
        width,
        depth,
        place,
    } = footprint(rng, 2.0);
    let building = append(graph, block, place);
    for floor in 0..rng.between(1, 8) {
        let up = Vec3::new(0.0, floor as f32 * FLOOR_HEIGHT, 0.0);
        let level = append(graph, building, Transform::from_translation(up));
        add_floor(graph, level, width, depth, rng);
    }
}

/// Four outer walls and 1–3 rooms side by side along x, in floor coordinates
/// (footprint centred on the origin, floor at y = 0).
pub(crate) fn add_floor(
    graph: &mut Graph,
    level: NodeId,
    width: f32,
    depth: f32,
    rng: &mut SplitMix64,
) {
    let (hw, hd, h) = (0.5 * width, 0.5 * depth, FLOOR_HEIGHT);
    let walls = [
        (Vec3::new(-hw, 0.0, -hd), Vec3::new(hw, h, -hd + WALL)),
        (Vec3::new(-hw, 0.0, hd - WALL), Vec3::new(hw, h, hd)),
        (Vec3::new(-hw, 0.0, -hd), Vec3::new(-hw + WALL, h, hd)),
        (Vec3::new(hw - WALL, 0.0, -hd), Vec3::new(hw, h, hd)),
    ];
    for (a, b) in walls {
        append(
            graph,
            level,
            Geometry::with_primitives(Aabb::new(a, b), BOX_TRIANGLES),
        );
    }
    let rooms = rng.between(1, 3);
    let inner = width - 2.0 * WALL;
    for r in 0..rooms {
        let x0 = -hw + WALL + inner * r as f32 / rooms as f32;
        let x1 = -hw + WALL + inner * (r + 1) as f32 / rooms as f32;
        let room = Aabb::new(
            Vec3::new(x0, 0.0, -hd + WALL),
            Vec3::new(x1, h - 0.2, hd - WALL),
        );
        // Furniture and trim: a room holds more triangles than a wall.
        let triangles = BOX_TRIANGLES * rng.between(4, 40) as u32;
        append(graph, level, Geometry::with_primitives(room, triangles));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scenewalk_core::glam::Affine3A;

    /// (node, depth, world transform) for every node, in pre-order.
    fn walk(graph: &Graph, root: NodeId) -> Vec<(NodeId, usize, Affine3A)> {
        let mut out = Vec::new();
        let mut stack = vec![(root, 0usize, Affine3A::IDENTITY)];
        while let Some((id, depth, parent_world)) = stack.pop() {
            let world = match graph.get::<Transform>(id) {
                Ok(t) => parent_world * *t.local(),
                Err(_) => parent_world,
            };
            out.push((id, depth, world));
            let children: Vec<_> = graph.children(id).unwrap().collect();
            for &c in children.iter().rev() {
                stack.push((c, depth + 1, world));
            }
        }
        out
    }

    #[test]
    fn layers_have_the_right_types() {
        let (graph, root) = city(3, 2, 5);
        let nodes = walk(&graph, root);
        assert_eq!(nodes.len(), graph.len());
        for (k, &(id, depth, _)) in nodes.iter().enumerate() {
            assert_eq!(id.index().get(), k, "records lie in depth-first order");
            let children = graph.children(id).unwrap().count();
            match depth {
                0 => {
                    assert!(graph.get::<Group>(id).is_ok());
                    assert_eq!(children, 6);
                }
                1 => {
                    assert!(graph.get::<Transform>(id).is_ok());
                    assert!((2..=6).contains(&children));
                }
                2 => {
                    assert!(graph.get::<Transform>(id).is_ok());
                    assert!((1..=8).contains(&children));
                }
                3 => {
                    assert!(graph.get::<Transform>(id).is_ok());
                    assert!((5..=7).contains(&children));
                }
                4 => {
                    let g = graph.get::<Geometry>(id).unwrap();
                    assert!(g.local_bounds().is_finite() && !g.local_bounds().is_empty());
                    assert!(g.primitives() >= BOX_TRIANGLES);
                    assert_eq!(children, 0);
                }
                _ => panic!("too deep"),
            }
        }
    }

    #[test]
    fn buildings_stay_in_their_block() {
        let (graph, root) = city(2, 2, 9);
        for (id, depth, world) in walk(&graph, root) {
            if depth != 4 {
                continue;
            }
            let g = graph.get::<Geometry>(id).unwrap();
            let b = g.local_bounds().transformed(&world);
            assert!(b.min.x >= 0.0 && b.max.x <= 2.0 * BLOCK_SIZE, "{b:?}");
            assert!(b.min.z >= 0.0 && b.max.z <= 2.0 * BLOCK_SIZE, "{b:?}");
            assert!(b.min.y >= -1e-3 && b.max.y <= 8.0 * FLOOR_HEIGHT + 1e-3);
        }
    }

    #[test]
    fn default_city_size_and_determinism() {
        let (graph, root) = city_default();
        assert!((2_000..6_000).contains(&graph.len()), "{}", graph.len());
        assert_eq!(
            graph.children(root).unwrap().count(),
            DEFAULT_BLOCKS_X * DEFAULT_BLOCKS_Y
        );
        let (again, _) = city_default();
        assert_eq!(graph.len(), again.len());
        assert_ne!(city(5, 5, 1).0.len(), city(5, 5, 2).0.len());
    }
}
