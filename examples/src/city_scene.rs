//! The tour's city: every node type of the scene vocabulary in a layered scene graph —
//! blocks, buildings with levels of detail and materials, switched rooftop signs,
//! street lights, shared meshes, a sun and a camera.

use crate::city::{BLOCK_SIZE, FLOOR_HEIGHT, Footprint, add_floor, append, footprint};
use crate::rng::SplitMix64;
use scenewalk_core::glam::{Affine3A, Quat, Vec3, Vec4};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::{
    BadCamera, BadLod, Camera, Geometry, Group, Light, LightKind, Lod, Material, Mesh, MeshError,
    Selection, Switch, Transform,
};

/// Why a city could not be built (only from values out of range, which the
/// built-in constants are not).
#[derive(Debug, thiserror::Error)]
pub enum CityError {
    /// A mesh could not be made.
    #[error("city mesh: {0}")]
    Mesh(#[from] MeshError),
    /// The camera's values are out of range.
    #[error("city camera: {0}")]
    Camera(#[from] BadCamera),
    /// A level-of-detail range is out of range.
    #[error("city level of detail: {0}")]
    Lod(#[from] BadLod),
}

/// Blocks along each side of [`CityScene::default_city`]: about 56,000 nodes.
pub const DEFAULT_BLOCKS: usize = 16;
/// Seed of [`CityScene::default_city`].
pub const DEFAULT_SEED: u64 = 0x5CE7_E0A1;
/// Below this distance a building shows its floors, rooms and windows.
pub const DETAIL_DISTANCE: f32 = 120.0;
/// Between [`DETAIL_DISTANCE`] and this a building is one box; beyond, nothing.
pub const DRAW_DISTANCE: f32 = 600.0;

/// The meshes a city places: shared by every node that shows them (cloning a [`Mesh`]
/// shares its data), so a thousand trees cost one tree's triangles.
#[derive(Clone, Debug)]
pub struct CityMeshes {
    /// A tree crown, one per block.
    pub tree: Mesh,
    /// A rooftop water tank, one of the switched signs.
    pub tank: Mesh,
    /// The sculpture of the first block: a ring...
    pub ring: Mesh,
    /// ...with a ball lodged in its tube, so the two meshes touch.
    pub ball: Mesh,
}

impl CityMeshes {
    /// Procedural meshes, so the city needs no file.
    pub fn generated() -> Result<CityMeshes, MeshError> {
        Ok(CityMeshes {
            tree: Mesh::uv_sphere(2.5, 16, 10)?,
            tank: Mesh::torus(1.2, 0.6, 16, 8)?,
            ring: Mesh::torus(4.0, 0.8, 64, 24)?,
            ball: Mesh::uv_sphere(1.2, 32, 16)?,
        })
    }
}

/// A generated city and the nodes the tour needs by name.
#[derive(Clone, Debug)]
pub struct CityScene {
    /// The scene graph.
    pub graph: Graph,
    /// Its root.
    pub root: NodeId,
    /// The camera node (a [`Camera`] under a transform placing it).
    pub camera: NodeId,
    /// The sculpture's ring and ball: two mesh nodes that collide.
    pub sculpture: (NodeId, NodeId),
    /// Side of the city in metres (it spans `0..size` along x and z).
    pub size: f32,
}

impl CityScene {
    /// The default city: [`DEFAULT_BLOCKS`]² blocks with generated meshes.
    ///
    /// ```
    /// let city = scenewalk_examples::CityScene::default_city()?;
    /// assert!((40_000..60_000).contains(&city.graph.len()), "{}", city.graph.len());
    /// # Ok::<(), scenewalk_examples::CityError>(())
    /// ```
    pub fn default_city() -> Result<CityScene, CityError> {
        CityScene::build(DEFAULT_BLOCKS, DEFAULT_SEED, &CityMeshes::generated()?)
    }

    /// A second view for measuring: a wide camera high above the city's south edge,
    /// looking at its centre, that sees all of it (levels of detail then at their
    /// coarse level). Returns the camera and its world transform.
    ///
    /// ```
    /// let city = scenewalk_examples::CityScene::default_city()?;
    /// let (camera, placed) = city.overview()?;
    /// assert!(camera.frustum(&placed).contains_point(scenewalk_core::glam::Vec3::new(800.0, 0.0, 800.0)));
    /// # Ok::<(), scenewalk_examples::CityError>(())
    /// ```
    pub fn overview(&self) -> Result<(Camera, Affine3A), CityError> {
        let middle = Vec3::new(0.5 * self.size, 0.0, 0.5 * self.size);
        let eye = Vec3::new(0.5 * self.size, 900.0, -300.0);
        let placed = Camera::look_at(eye, middle, Vec3::Y).unwrap_or(Affine3A::IDENTITY);
        Ok((Camera::perspective(1.2, 16.0 / 9.0, 1.0, 4000.0)?, placed))
    }

    /// A city of `blocks × blocks` blocks, the same for the same arguments:
    ///
    /// ```text
    /// Group (city)
    /// ├─ Transform → Light (sun)
    /// ├─ Transform (look-at) → Camera
    /// └─ Transform (block)                                blocks²
    ///    ├─ Transform (lamp) → Light (point), Geometry (pole)   1–2
    ///    ├─ Transform (tree) → Mesh (shared crown)              1
    ///    └─ Transform (building)                                2–6
    ///       ├─ Lod (0–120 m: detailed, 120–600 m: one box, then nothing)
    ///       │  ├─ Material (facade) → floors: Transform → walls, rooms,
    ///       │  │                       Material (glass, transparent) → window
    ///       │  └─ Geometry (the whole building as one box)
    ///       └─ Transform (roof) → Switch (one of: antenna, tank mesh, nothing)
    /// ```
    ///
    /// The first block also holds the sculpture (a ring mesh with a ball mesh lodged
    /// in its tube). The camera stands 30 m up over the first third of the city,
    /// looking across it. Nodes are added depth-first, so the arena
    /// records lie in depth-first order.
    pub fn build(blocks: usize, seed: u64, meshes: &CityMeshes) -> Result<CityScene, CityError> {
        let mut rng = SplitMix64::new(seed);
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let size = blocks as f32 * BLOCK_SIZE;

        let sun = append(
            &mut graph,
            root,
            Transform::from_trs(
                Vec3::new(0.0, 500.0, 0.0),
                Quat::from_rotation_x(-1.0),
                Vec3::ONE,
            ),
        );
        append(
            &mut graph,
            sun,
            Light::new(LightKind::Directional, Vec3::ONE, 100_000.0),
        );

        let eye = Vec3::new(0.3 * size, 30.0, 0.25 * size);
        let target = Vec3::new(0.6 * size, 0.0, 0.55 * size);
        let placed = Camera::look_at(eye, target, Vec3::Y)
            .map_or(Transform::IDENTITY, Transform::from_affine);
        let camera_at = append(&mut graph, root, placed);
        let lens = Camera::perspective(1.0, 16.0 / 9.0, 0.5, DRAW_DISTANCE)?;
        let camera = append(&mut graph, camera_at, lens);

        let mut sculpture = None;
        for bx in 0..blocks {
            for bz in 0..blocks {
                let at = Vec3::new(bx as f32 * BLOCK_SIZE, 0.0, bz as f32 * BLOCK_SIZE);
                let block = append(&mut graph, root, Transform::from_translation(at));
                add_lamps(&mut graph, block, &mut rng);
                let tree = Vec3::new(rng.range_f32(3.0, 97.0), 4.0, 1.5);
                let tree = append(&mut graph, block, Transform::from_translation(tree));
                append(&mut graph, tree, meshes.tree.clone());
                if sculpture.is_none() {
                    sculpture = Some(add_sculpture(&mut graph, block, meshes));
                }
                for _ in 0..rng.between(2, 6) {
                    add_building(&mut graph, block, meshes, &mut rng)?;
                }
            }
        }
        let sculpture = sculpture.unwrap_or_else(|| {
            let ring = append(&mut graph, root, meshes.ring.clone());
            let ball = append(&mut graph, root, meshes.ball.clone());
            (ring, ball)
        });
        Ok(CityScene {
            graph,
            root,
            camera,
            sculpture,
            size,
        })
    }
}

fn add_lamps(graph: &mut Graph, block: NodeId, rng: &mut SplitMix64) {
    for _ in 0..rng.between(1, 2) {
        let at = Vec3::new(rng.range_f32(2.0, 98.0), 0.0, 98.5);
        let lamp = append(graph, block, Transform::from_translation(at));
        let light = Light::new(
            LightKind::Point { range: Some(25.0) },
            Vec3::new(1.0, 0.9, 0.7),
            800.0,
        );
        let bulb = append(
            graph,
            lamp,
            Transform::from_translation(Vec3::new(0.0, 6.0, 0.0)),
        );
        append(graph, bulb, light);
        let pole = Aabb::new(Vec3::new(-0.1, 0.0, -0.1), Vec3::new(0.1, 6.0, 0.1));
        append(graph, lamp, Geometry::with_primitives(pole, 12));
    }
}

fn add_sculpture(graph: &mut Graph, block: NodeId, meshes: &CityMeshes) -> (NodeId, NodeId) {
    let plinth = append(
        graph,
        block,
        Transform::from_translation(Vec3::new(50.0, 5.0, 1.5)),
    );
    let ring = append(graph, plinth, meshes.ring.clone());
    // On the ring's core circle, bigger than its tube: the surfaces cross.
    let lodged = append(
        graph,
        plinth,
        Transform::from_translation(Vec3::new(4.0, 0.3, 0.0)),
    );
    let ball = append(graph, lodged, meshes.ball.clone());
    (ring, ball)
}

fn add_building(
    graph: &mut Graph,
    block: NodeId,
    meshes: &CityMeshes,
    rng: &mut SplitMix64,
) -> Result<(), BadLod> {
    let Footprint {
        width,
        depth,
        place,
    } = footprint(rng, 4.0);
    let building = append(graph, block, place);
    let floors = rng.between(1, 8);
    let height = floors as f32 * FLOOR_HEIGHT;
    let lod = Lod::new(
        Vec3::new(0.0, 0.5 * height, 0.0),
        vec![0.0..DETAIL_DISTANCE, DETAIL_DISTANCE..DRAW_DISTANCE],
    )?;
    let lod = append(graph, building, lod);

    let grey = rng.range_f32(0.4, 0.9);
    let facade = Material::new("facade", Vec4::new(grey, grey, grey * 0.9, 1.0));
    let detailed = append(graph, lod, facade);
    for floor in 0..floors {
        let up = Vec3::new(0.0, floor as f32 * FLOOR_HEIGHT, 0.0);
        let level = append(graph, detailed, Transform::from_translation(up));
        add_floor(graph, level, width, depth, rng);
        let glass = append(
            graph,
            level,
            Material::new("glass", Vec4::new(0.5, 0.7, 0.9, 0.35)),
        );
        let (hw, hd) = (0.5 * width, 0.5 * depth);
        let window = Aabb::new(
            Vec3::new(-0.6 * hw, 1.0, -hd - 0.05),
            Vec3::new(0.6 * hw, 2.6, -hd),
        );
        append(graph, glass, Geometry::with_primitives(window, 2));
    }
    let whole = Aabb::new(
        Vec3::new(-0.5 * width, 0.0, -0.5 * depth),
        Vec3::new(0.5 * width, height, 0.5 * depth),
    );
    append(graph, lod, Geometry::with_primitives(whole, 12));

    let roof = append(
        graph,
        building,
        Transform::from_translation(Vec3::new(0.0, height, 0.0)),
    );
    let sign = append(graph, roof, Switch::new(Selection::One(rng.below(3))));
    let antenna = Aabb::new(Vec3::new(-0.1, 0.0, -0.1), Vec3::new(0.1, 4.0, 0.1));
    append(graph, sign, Geometry::with_primitives(antenna, 12));
    let tank = append(
        graph,
        sign,
        Transform::from_translation(Vec3::new(0.0, 0.6, 0.0)),
    );
    append(graph, tank, meshes.tank.clone());
    append(graph, sign, Group);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_node_type_appears_and_records_lie_in_depth_first_order() {
        let city = CityScene::build(3, 7, &CityMeshes::generated().unwrap()).unwrap();
        let graph = &city.graph;
        let mut seen = std::collections::BTreeSet::new();
        let mut slot = 0;
        let mut stack = vec![city.root];
        while let Some(n) = stack.pop() {
            assert_eq!(n.index().get(), slot, "depth-first layout");
            slot += 1;
            seen.insert(graph.types().name(graph.node_type(n).unwrap()));
            let children: Vec<_> = graph.children(n).unwrap().collect();
            stack.extend(children.into_iter().rev());
        }
        assert_eq!(slot, graph.len());
        for ty in [
            "Group",
            "Transform",
            "Geometry",
            "Mesh",
            "Lod",
            "Switch",
            "Light",
            "Camera",
            "Material",
        ] {
            assert!(
                seen.iter().any(|s| s.ends_with(ty)),
                "{ty} missing: {seen:?}"
            );
        }
        assert!(graph.get::<Camera>(city.camera).is_ok());
        assert!(graph.get::<Mesh>(city.sculpture.0).is_ok());
        assert!(graph.get::<Mesh>(city.sculpture.1).is_ok());
    }

    #[test]
    fn the_same_arguments_give_the_same_city() {
        let meshes = CityMeshes::generated().unwrap();
        let a = CityScene::build(4, 3, &meshes).unwrap();
        let b = CityScene::build(4, 3, &meshes).unwrap();
        assert_eq!(a.graph.len(), b.graph.len());
        assert_ne!(
            a.graph.len(),
            CityScene::build(4, 4, &meshes).unwrap().graph.len()
        );
    }
}
