//! Linear blend skinning: [`Skin`] and the [`SkinnedMesh`] node it poses.

use crate::Mesh;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, NodeCore, NodeId, ParentType, Remap};
use std::fmt;
use std::slice::ChunksExact;
use std::sync::Arc;

/// Why a skin or a skinned mesh was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SkinError {
    /// A skin without joints.
    #[error("a skin needs at least one joint")]
    NoJoints,
    /// Fewer inverse bind matrices than joints.
    #[error("{matrices} inverse bind matrices for {joints} joints")]
    TooFewInverseBinds {
        /// The joints.
        joints: usize,
        /// The matrices given.
        matrices: usize,
    },
    /// An inverse bind matrix holds a NaN or an infinity, or is not affine.
    #[error("joint {joint}'s inverse bind matrix is not a finite affine matrix")]
    BadInverseBind {
        /// The joint.
        joint: usize,
    },
    /// The per-vertex joints or weights do not match the positions.
    #[error("{positions} positions, but {joints} joint sets and {weights} weight sets")]
    LengthMismatch {
        /// The mesh's positions.
        positions: usize,
        /// The joint sets given.
        joints: usize,
        /// The weight sets given.
        weights: usize,
    },
    /// A vertex names a joint the skin does not have.
    #[error("vertex {vertex} names joint {joint}, but the skin has {joints} joints")]
    JointOutOfRange {
        /// The vertex.
        vertex: usize,
        /// The joint index.
        joint: u16,
        /// The skin's joints.
        joints: usize,
    },
    /// A vertex has a negative, NaN or infinite weight, or only zero weights.
    #[error("vertex {vertex}'s weights are not non-negative finite numbers with a positive sum")]
    BadWeights {
        /// The vertex.
        vertex: usize,
    },
}

/// The joints that pose a skinned mesh: graph nodes (usually
/// [`Transform`](crate::Transform)s), each with the inverse of its world matrix at bind
/// time. A vertex `v` lands at Σ wᵢ · (world(jointᵢ) × inverse_bindᵢ) · v; the skinned
/// mesh's own node transform plays no part (glTF's rule).
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    joints: Vec<NodeId>,
    inverse_binds: Vec<Affine3A>,
    skeleton: Option<NodeId>,
}

impl Skin {
    /// A skin of `joints`, with their inverse bind matrices (`None`: identities; extra
    /// matrices are dropped) and the optional common root of the joints.
    pub fn new(
        joints: Vec<NodeId>,
        inverse_binds: Option<Vec<Affine3A>>,
        skeleton: Option<NodeId>,
    ) -> Result<Skin, SkinError> {
        if joints.is_empty() {
            return Err(SkinError::NoJoints);
        }
        let mut inverse_binds =
            inverse_binds.unwrap_or_else(|| vec![Affine3A::IDENTITY; joints.len()]);
        if inverse_binds.len() < joints.len() {
            return Err(SkinError::TooFewInverseBinds {
                joints: joints.len(),
                matrices: inverse_binds.len(),
            });
        }
        inverse_binds.truncate(joints.len());
        if let Some(joint) = inverse_binds.iter().position(|m| !m.is_finite()) {
            return Err(SkinError::BadInverseBind { joint });
        }
        Ok(Skin {
            joints,
            inverse_binds,
            skeleton,
        })
    }

    /// The joint nodes, in the order vertices name them.
    pub fn joints(&self) -> &[NodeId] {
        &self.joints
    }

    /// Each joint's inverse bind matrix.
    pub fn inverse_binds(&self) -> &[Affine3A] {
        &self.inverse_binds
    }

    /// The common root of the joints, if given (it plays no part in skinning).
    pub fn skeleton(&self) -> Option<NodeId> {
        self.skeleton
    }

    /// The same skin on other nodes: each joint (and the skeleton) `j` becomes
    /// `map(j)`, inverse binds kept (for [`SkinnedMesh::with_skin`]).
    #[must_use]
    pub fn retarget(&self, mut map: impl FnMut(NodeId) -> NodeId) -> Skin {
        Skin {
            joints: self.joints.iter().map(|&j| map(j)).collect(),
            inverse_binds: self.inverse_binds.clone(),
            skeleton: self.skeleton.map(map),
        }
    }

    /// Each joint's world(joint) × inverse_bind into `out` (cleared first), for the
    /// [`SkinnedMesh`] bounds. Errors: the first joint `world_of` does not know.
    pub fn joint_matrices(
        &self,
        mut world_of: impl FnMut(NodeId) -> Option<Affine3A>,
        out: &mut Vec<Affine3A>,
    ) -> Result<(), NodeId> {
        out.clear();
        for (&joint, inverse_bind) in self.joints.iter().zip(&self.inverse_binds) {
            out.push(world_of(joint).ok_or(joint)? * *inverse_bind);
        }
        Ok(())
    }
}

/// One set of influences (glTF's `JOINTS_n` with `WEIGHTS_n`): per vertex, four joint
/// indices into the skin and their weights.
pub type InfluenceSet = (Vec<[u16; 4]>, Vec<[f32; 4]>);

/// A triangle mesh posed by a [`Skin`]: the bind-pose [`Mesh`] (its
/// [`base`](NodeCore::base), so actors that know no skins see that mesh) with one or
/// more sets of four joints and weights per vertex (glTF's `JOINTS_n` / `WEIGHTS_n`: a
/// vertex's influences are all its sets together), the weights divided by their sum.
///
/// ```
/// use std::sync::Arc;
/// use scenewalk_core::{Aabb, Graph, glam::{Affine3A, Vec3}};
/// use scenewalk_nodes::{Mesh, Skin, SkinnedMesh, Transform};
/// let mut graph = Graph::new();
/// let (a, b) = (graph.add_root(Transform::IDENTITY), graph.add_root(Transform::IDENTITY));
/// let skin = Arc::new(Skin::new(vec![a, b], None, None)?);
/// let mesh = Mesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]])?;
/// // Vertex 1 follows joint 1 alone, vertex 2 half of each (weights summing to 2).
/// let joints = vec![[0, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0]];
/// let weights = vec![[2.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]];
/// let skinned = SkinnedMesh::new(mesh, skin, joints, weights)?;
/// let up = Affine3A::from_translation(Vec3::Z * 2.0);
/// let exact = skinned.exact_bounds(&[Affine3A::IDENTITY, up]).unwrap();
/// assert_eq!(exact, Aabb::new(Vec3::ZERO, Vec3::new(1.0, 1.0, 2.0)));
/// let posed: Vec<Vec3> = skinned.posed_positions(&[Affine3A::IDENTITY, up]).unwrap().collect();
/// assert_eq!(posed, [Vec3::ZERO, Vec3::new(1.0, 0.0, 2.0), Vec3::new(0.0, 1.0, 1.0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct SkinnedMesh {
    mesh: Mesh,
    skin: Arc<Skin>,
    influences: Arc<Influences>,
}

/// What a skinned mesh adds to its mesh, shared by clones and [`SkinnedMesh::with_skin`].
struct Influences {
    /// Per vertex, `per_vertex` joint indices (its sets one after another).
    joints: Vec<u16>,
    /// Per vertex, the weights of its `joints`, summing to 1.
    weights: Vec<f32>,
    /// Joints (and weights) per vertex: 4 per set, never 0 (`chunks_exact` needs that).
    per_vertex: usize,
    /// See [`SkinnedMesh::joint_bounds`].
    joint_bounds: Vec<Aabb>,
}

impl SkinnedMesh {
    /// `mesh` posed by `skin`, with one set of four joint indices and weights per
    /// vertex ([`from_sets`](SkinnedMesh::from_sets) with that one set).
    pub fn new(
        mesh: Mesh,
        skin: Arc<Skin>,
        joints: Vec<[u16; 4]>,
        weights: Vec<[f32; 4]>,
    ) -> Result<SkinnedMesh, SkinError> {
        Self::from_sets(mesh, skin, vec![(joints, weights)])
    }

    /// `mesh` posed by `skin`, with `sets` of four joint indices and weights per vertex,
    /// all of a vertex's sets together making its influences. A joint out of range is
    /// refused, weighted or not; so are no sets, a set whose length is not the
    /// positions', and a vertex whose weights (over all sets) are not non-negative
    /// finite numbers with a positive sum.
    pub fn from_sets(
        mesh: Mesh,
        skin: Arc<Skin>,
        sets: Vec<InfluenceSet>,
    ) -> Result<SkinnedMesh, SkinError> {
        let positions = mesh.positions();
        let wrong = sets
            .iter()
            .map(|(j, w)| (j.len(), w.len()))
            .find(|&lengths| lengths != (positions.len(), positions.len()));
        if let Some((joints, weights)) = wrong.or(sets.is_empty().then_some((0, 0))) {
            return Err(SkinError::LengthMismatch {
                positions: positions.len(),
                joints,
                weights,
            });
        }
        let per_vertex = 4 * sets.len();
        let mut joints = Vec::with_capacity(per_vertex * positions.len());
        let mut weights = Vec::with_capacity(per_vertex * positions.len());
        for vertex in 0..positions.len() {
            for (js, ws) in &sets {
                joints.extend(js.get(vertex).into_iter().flatten());
                weights.extend(ws.get(vertex).into_iter().flatten());
            }
        }
        check_joints(&joints, per_vertex, skin.joints.len())?;
        let mut joint_bounds: Vec<Aabb> = Vec::new();
        let vertices = (positions.iter())
            .zip(joints.chunks_exact(per_vertex))
            .zip(weights.chunks_exact_mut(per_vertex));
        for (vertex, ((&p, js), ws)) in vertices.enumerate() {
            let sum: f32 = ws.iter().sum();
            if ws.iter().any(|w| w.is_nan() || *w < 0.0) || !sum.is_finite() || sum <= 0.0 {
                return Err(SkinError::BadWeights { vertex });
            }
            ws.iter_mut().for_each(|w| *w /= sum);
            for (&joint, _) in js.iter().zip(ws.iter()).filter(|(_, w)| **w > 0.0) {
                let j = usize::from(joint);
                if joint_bounds.len() <= j {
                    joint_bounds.resize(j + 1, Aabb::EMPTY);
                }
                if let Some(b) = joint_bounds.get_mut(j) {
                    *b = b.including(p);
                }
            }
        }
        Ok(SkinnedMesh {
            mesh,
            skin,
            influences: Arc::new(Influences {
                joints,
                weights,
                per_vertex,
                joint_bounds,
            }),
        })
    }

    /// The same mesh and influences, shared, posed by another skin (checked as in
    /// [`new`](SkinnedMesh::new)).
    pub fn with_skin(&self, skin: Arc<Skin>) -> Result<SkinnedMesh, SkinError> {
        let influences = &self.influences;
        check_joints(&influences.joints, influences.per_vertex, skin.joints.len())?;
        Ok(SkinnedMesh {
            mesh: self.mesh.clone(),
            skin,
            influences: Arc::clone(&self.influences),
        })
    }

    /// The bind-pose mesh.
    pub fn mesh(&self) -> &Mesh {
        &self.mesh
    }

    /// The skin.
    pub fn skin(&self) -> &Arc<Skin> {
        &self.skin
    }

    /// How many joints (and weights) each vertex has: four per set.
    pub fn influences_per_vertex(&self) -> usize {
        self.influences.per_vertex
    }

    /// Per vertex, its [`influences_per_vertex`](SkinnedMesh::influences_per_vertex)
    /// indices into the skin's joints: its sets one after another.
    pub fn joints(&self) -> ChunksExact<'_, u16> {
        let influences = &*self.influences;
        influences.joints.chunks_exact(influences.per_vertex)
    }

    /// Per vertex, the weights of [`joints`](SkinnedMesh::joints), summing to 1.
    pub fn weights(&self) -> ChunksExact<'_, f32> {
        let influences = &*self.influences;
        influences.weights.chunks_exact(influences.per_vertex)
    }

    /// Per joint index, the bind-pose box of the vertices it moves (with a positive
    /// weight); empty for a joint that moves none. Ends at the highest joint used.
    pub fn joint_bounds(&self) -> &[Aabb] {
        &self.influences.joint_bounds
    }

    /// Each vertex skinned: Σ wᵢ · matricesᵢ · v over its influences, `matrices` from
    /// [`Skin::joint_matrices`]; `None` when it is shorter than the joints used.
    pub fn posed_positions<'a>(
        &'a self,
        matrices: &'a [Affine3A],
    ) -> Option<impl ExactSizeIterator<Item = Vec3> + 'a> {
        if matrices.len() < self.influences.joint_bounds.len() {
            return None;
        }
        let vertices = self.mesh.positions().iter().zip(self.joints());
        Some(vertices.zip(self.weights()).map(|((&p, js), ws)| {
            let weighted = js.iter().zip(ws).filter(|(_, w)| **w > 0.0);
            // Every joint with a positive weight is below `joint_bounds.len()`: the
            // `get` cannot miss.
            weighted
                .filter_map(|(&j, &w)| Some(w * matrices.get(usize::from(j))?.transform_point3(p)))
                .sum()
        }))
    }

    /// The exact world box of the skinned vertices ([`posed_positions`](Self::posed_positions)).
    pub fn exact_bounds(&self, matrices: &[Affine3A]) -> Option<Aabb> {
        Some(Aabb::from_points(self.posed_positions(matrices)?))
    }

    /// A box holding every skinned vertex in O(joints) (`None` as in `exact_bounds`): the
    /// [`joint_bounds`](SkinnedMesh::joint_bounds) boxes moved by their matrices (a
    /// skinned vertex is a convex combination of points in them), joined, widened by
    /// 4e-6 (about 64 ulps) of |M₃|·|v| + |t|.
    pub fn conservative_bounds(&self, matrices: &[Affine3A]) -> Option<Aabb> {
        let boxes = &self.influences.joint_bounds;
        if matrices.len() < boxes.len() {
            return None;
        }
        let mut bounds = Aabb::EMPTY;
        let mut magnitude = 0.0f32;
        for (b, m) in boxes.iter().zip(matrices).filter(|(b, _)| !b.is_empty()) {
            bounds = bounds.union(&b.transformed(m));
            let reach = b.min.abs().max(b.max.abs());
            magnitude = magnitude
                .max((m.matrix3.abs() * reach + Vec3::from(m.translation).abs()).max_element());
        }
        Some(bounds.padded(magnitude * 4e-6))
    }
}

/// Refuses the first vertex (of `per_vertex` joints each) that names a joint past the
/// skin's `count` joints.
fn check_joints(joints: &[u16], per_vertex: usize, count: usize) -> Result<(), SkinError> {
    // One flat pass, the vertex found by division: a search vertex by vertex
    // mispredicts its inner loop's exit once per vertex, for every retargeted copy.
    let bad = joints
        .iter()
        .enumerate()
        .find(|(_, j)| usize::from(**j) >= count);
    bad.map_or(Ok(()), |(at, &joint)| {
        Err(SkinError::JointOutOfRange {
            vertex: at / per_vertex,
            joint,
            joints: count,
        })
    })
}

impl NodeCore for SkinnedMesh {
    /// The skin's joints and skeleton follow their nodes through a compaction.
    fn remap_ids(&mut self, remap: &Remap) {
        let skin = self.skin.retarget(|id| remap.get(id).unwrap_or(id));
        if skin != *self.skin {
            self.skin = Arc::new(skin);
        }
    }
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.mesh)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Mesh>())
    }
}

impl fmt::Debug for SkinnedMesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SkinnedMesh")
            .field("mesh", &self.mesh)
            .field("joints", &self.skin.joints.len())
            .field("joints_used", &self.influences.joint_bounds.len())
            .field("influences_per_vertex", &self.influences.per_vertex)
            .finish()
    }
}
