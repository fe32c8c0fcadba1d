//! Collision queries, driven by the dual-tree iterator.

use crate::{Bounds, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, GraphError, NodeId, NodeIndex, ResultsError};
use scenewalk_iterators::DualTree;
use scenewalk_nodes::{Geometry, Mesh, triangles_intersect};

/// Whether a query stops at the first contact or finds them all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ContactMode {
    /// Stop at the first contact found (which one is unspecified): "do they touch?".
    First,
    /// Every contact.
    #[default]
    All,
}

/// A pair of intersecting triangles: index `a` of the first mesh, `b` of the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TriangleContact {
    /// The triangle of the first mesh.
    pub a: u32,
    /// The triangle of the second mesh.
    pub b: u32,
}

/// A contact between two scene nodes, `a` from the first subtree and `b` the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeContact {
    /// The node of the first subtree.
    pub a: NodeId,
    /// The node of the second subtree.
    pub b: NodeId,
    /// For two meshes, the intersecting triangles (one contact per pair); `None` for
    /// a box contact (two geometry nodes, not both meshes, whose world boxes overlap).
    pub triangles: Option<TriangleContact>,
}

/// Why a subtree collision query was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CollideError {
    /// A root's id is stale ([`ResultsError::Graph`]), or the world transforms or bounds
    /// passed are not from a run over this graph as it is now, or the run did not reach
    /// a node.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// One subtree contains the other; use [`Collide::within`] for one subtree.
    #[error("the subtrees of {a} and {b} overlap: one contains the other")]
    Overlapping {
        /// The first root.
        a: NodeId,
        /// The second root.
        b: NodeId,
    },
}

/// `b` grown by a few dozen ulps of its magnitude, so the rounding of a transformed box
/// never hides a contact the exact triangle test finds at the box's face.
pub(crate) fn padded(b: &Aabb) -> Aabb {
    b.padded(4e-6 * b.min.abs().max(b.max.abs()).max_element())
}

/// Runs the mesh query on `dual`, reporting each contact to `found`; returns the count.
fn collide_meshes(
    dual: &mut DualTree,
    (a, world_a): (&Mesh, &Affine3A),
    (b, world_b): (&Mesh, &Affine3A),
    mode: ContactMode,
    mut found: impl FnMut(TriangleContact),
) -> usize {
    // In B's frame (`to_b` none) when `world_b⁻¹ · world_a` is finite, else the world's.
    let relative = world_b.inverse() * *world_a;
    let finite = relative.is_finite();
    let to_a = if finite { relative } else { *world_a };
    let to_b = (!finite).then_some(*world_b);
    let (bvh_a, bvh_b) = (a.bvh(), b.bvh());
    let (graph_a, graph_b) = (bvh_a.graph(), bvh_b.graph());
    if dual
        .reset(graph_a, bvh_a.root(), graph_b, bvh_b.root())
        .is_err()
    {
        return 0;
    }
    // A's node box moved into the common frame overlaps B's (both padded).
    let (boxes_a, boxes_b) = (bvh_a.boxes(), bvh_b.boxes());
    let mut filter = |x: NodeIndex, y: NodeIndex| {
        let (Some(bx), Some(by)) = (boxes_a.get(x.get()), boxes_b.get(y.get())) else {
            return false;
        };
        let bx = padded(&bx.transformed(&to_a));
        match &to_b {
            None => bx.overlaps(by),
            Some(m) => bx.overlaps(&padded(&by.transformed(m))),
        }
    };
    let mut count = 0;
    while let Some((x, y)) = dual.next(graph_a, graph_b, &mut filter) {
        for &ta in bvh_a.leaf_triangles(x) {
            let Some(corners_a) = a.triangle(ta) else {
                continue;
            };
            let corners_a = corners_a.map(|p| to_a.transform_point3(p));
            // The exact test only for triangles whose (padded) boxes overlap: it costs
            // ten times the box test, and most pairs of a leaf pair are apart.
            let box_a = padded(&Aabb::from_points(corners_a));
            for &tb in bvh_b.leaf_triangles(y) {
                let Some(mut corners_b) = b.triangle(tb) else {
                    continue;
                };
                if let Some(m) = &to_b {
                    corners_b = corners_b.map(|p| m.transform_point3(p));
                }
                if box_a.overlaps(&Aabb::from_points(corners_b))
                    && triangles_intersect(&corners_a, &corners_b)
                {
                    found(TriangleContact { a: ta, b: tb });
                    count += 1;
                    if mode == ContactMode::First {
                        dual.clear();
                        return count;
                    }
                }
            }
        }
    }
    count
}

/// A reusable collision query: two meshes ([`meshes`](Collide::meshes)), two disjoint
/// scene subtrees ([`subtrees`](Collide::subtrees)) or the leaves of one subtree
/// against each other ([`within`](Collide::within)).
///
/// Not an actor: a query driven by [`DualTree`], which descends both hierarchies pair
/// by pair under a box-overlap filter, with the exact [`triangles_intersect`] test at
/// pairs of BVH leaves. Its buffers are kept: once grown, a call allocates nothing.
///
/// ```
/// use scenewalk_actors::{Collide, ContactMode};
/// use scenewalk_core::glam::{Affine3A, Vec3};
/// use scenewalk_nodes::Mesh;
///
/// let ball = Mesh::uv_sphere(1.0, 16, 8)?;
/// let here = Affine3A::IDENTITY;
/// let near = Affine3A::from_translation(Vec3::X * 1.5);
/// let far = Affine3A::from_translation(Vec3::X * 5.0);
///
/// let mut collide = Collide::new();
/// assert!(!collide.meshes(&ball, &here, &ball, &near, ContactMode::All).is_empty());
/// assert_eq!(collide.meshes(&ball, &here, &ball, &near, ContactMode::First).len(), 1);
/// assert!(collide.meshes(&ball, &here, &ball, &far, ContactMode::All).is_empty());
/// # Ok::<(), scenewalk_nodes::MeshError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Collide {
    /// The scene-level descent, and the mesh-level one nested inside it.
    outer: DualTree,
    inner: DualTree,
    triangles: Vec<TriangleContact>,
    nodes: Vec<NodeContact>,
}

impl Collide {
    /// A query with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// The intersecting triangle pairs of mesh `a` placed by `world_a` and mesh `b`
    /// placed by `world_b` (any affine transforms, scaled and sheared included): every
    /// pair [`triangles_intersect`] accepts in B's local frame, A's corners mapped by
    /// `world_b⁻¹ · world_a` (in the world frame if `world_b` is singular), in the order
    /// the descent finds them ([`ContactMode::First`]: one such pair, or none).
    pub fn meshes(
        &mut self,
        a: &Mesh,
        world_a: &Affine3A,
        b: &Mesh,
        world_b: &Affine3A,
        mode: ContactMode,
    ) -> &[TriangleContact] {
        self.triangles.clear();
        let Self {
            inner, triangles, ..
        } = self;
        collide_meshes(inner, (a, world_a), (b, world_b), mode, |c| {
            triangles.push(c)
        });
        &self.triangles
    }

    /// The contacts between the leaves of two disjoint subtrees of `graph`, rooted at
    /// `a` and `b`.
    ///
    /// The descent prunes with the world boxes of the latest [`Bounds`] run and places
    /// meshes with the [`WorldTransforms`] run (both over `graph` as it is now). At a
    /// pair of leaves (geometry on a node with children is not tested): two [`Mesh`]es
    /// give one contact per intersecting triangle pair (as [`meshes`](Collide::meshes));
    /// two other [`Geometry`] nodes whose world boxes overlap give a box contact.
    /// Errors: any [`CollideError`].
    pub fn subtrees(
        &mut self,
        graph: &Graph,
        a: NodeId,
        b: NodeId,
        world: &WorldTransforms,
        bounds: &Bounds,
        mode: ContactMode,
    ) -> Result<&[NodeContact], CollideError> {
        for id in [a, b] {
            check(graph, id, world, bounds)?;
        }
        let nested = |x, y| graph.is_ancestor_or_self(x, y).unwrap_or(true);
        if nested(a, b) || nested(b, a) {
            return Err(CollideError::Overlapping { a, b });
        }
        self.outer
            .reset(graph, a, graph, b)
            .map_err(ResultsError::from)?;
        self.leaf_pairs(graph, world, bounds, mode)
    }

    /// The contacts between distinct leaves of `root`'s subtree (each unordered pair
    /// once), found as [`subtrees`](Collide::subtrees) finds them between two. Errors:
    /// [`CollideError::Results`].
    pub fn within(
        &mut self,
        graph: &Graph,
        root: NodeId,
        world: &WorldTransforms,
        bounds: &Bounds,
        mode: ContactMode,
    ) -> Result<&[NodeContact], CollideError> {
        check(graph, root, world, bounds)?;
        self.outer
            .reset_self(graph, root)
            .map_err(ResultsError::from)?;
        self.leaf_pairs(graph, world, bounds, mode)
    }

    /// Runs the (already reset) scene-level descent, testing each leaf pair.
    fn leaf_pairs(
        &mut self,
        graph: &Graph,
        world: &WorldTransforms,
        bounds: &Bounds,
        mode: ContactMode,
    ) -> Result<&[NodeContact], CollideError> {
        let Self {
            outer,
            inner,
            nodes,
            ..
        } = self;
        nodes.clear();
        let (world, bounds) = (world.table(), bounds.table());
        let boxes = |x, y| bounds.at(x).zip(bounds.at(y));
        // Padded, so meshes touching at a world box's face are still compared; box
        // contacts are decided on the exact boxes below.
        let mut filter = |x, y| boxes(x, y).is_some_and(|(p, q)| padded(&p).overlaps(&q));
        while let Some((x, y)) = outer.next(graph, graph, &mut filter) {
            let (Some(a), Some(b)) = (graph.id_at(x), graph.id_at(y)) else {
                continue;
            };
            if graph.get_at::<Geometry>(x).is_none() || graph.get_at::<Geometry>(y).is_none() {
                continue;
            }
            let contact = |triangles| NodeContact { a, b, triangles };
            let found = match (graph.get_at::<Mesh>(x), graph.get_at::<Mesh>(y)) {
                (Some(mesh_a), Some(mesh_b)) => {
                    let world_a = world.at(x).ok_or(ResultsError::NotReached(a))?;
                    let world_b = world.at(y).ok_or(ResultsError::NotReached(b))?;
                    collide_meshes(inner, (mesh_a, &world_a), (mesh_b, &world_b), mode, |c| {
                        nodes.push(contact(Some(c)));
                    })
                }
                _ => {
                    let overlap = boxes(x, y).is_some_and(|(p, q)| p.overlaps(&q));
                    if overlap {
                        nodes.push(contact(None));
                    }
                    usize::from(overlap)
                }
            };
            if found > 0 && mode == ContactMode::First {
                outer.clear();
                break;
            }
        }
        Ok(&self.nodes)
    }
}

/// A subtree root must be live and have results in both runs.
fn check(
    graph: &Graph,
    id: NodeId,
    world: &WorldTransforms,
    bounds: &Bounds,
) -> Result<(), CollideError> {
    if !graph.contains(id) {
        return Err(ResultsError::from(GraphError::StaleNode(id)).into());
    }
    world.table().world(graph, id)?;
    bounds.table().world_bounds(graph, id)?;
    Ok(())
}
