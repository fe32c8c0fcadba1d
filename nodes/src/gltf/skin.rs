//! Skins, and the per-vertex joints and weights of the primitives they pose.

use super::ImportedNode;
use super::accessor::{FLOAT, read_numbers};
use super::error::{GltfError, get};
use super::mesh::PrimitiveNode;
use crate::{Skin, SkinError, SkinnedMesh, Transform};
use gltf::json;
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::mesh::Semantic;
use gltf::json::validation::Checked;
use scenewalk_core::glam::Mat4;
use std::sync::Arc;

/// The component types `JOINTS_0` may have: unsigned bytes or shorts.
const JOINTS: &[(ComponentType, bool)] = &[(ComponentType::U8, false), (ComponentType::U16, false)];

/// The component types `WEIGHTS_0` may have: floats, normalized unsigned bytes or shorts.
const WEIGHTS: &[(ComponentType, bool)] = &[
    (ComponentType::F32, false),
    (ComponentType::U8, true),
    (ComponentType::U16, true),
];

/// Skin `s`, its joints (and skeleton) nodes of the imported scene.
pub(crate) fn skin(
    root: &json::Root,
    buffers: &[Vec<u8>],
    s: usize,
    nodes: &[Option<ImportedNode>],
) -> Result<Arc<Skin>, GltfError> {
    let at = format!("skins[{s}]");
    let skin = get(&root.skins, s, "skin", || at.clone())?;
    let id = |n: usize, at: String| match get(nodes, n, "node", || at.clone())? {
        Some(node) => Ok(node.id),
        None => Err(GltfError::invalid(
            at,
            format!("node {n} is not in the imported scene"),
        )),
    };
    let joints = (skin.joints.iter().enumerate())
        .map(|(k, j)| id(j.value(), format!("{at}.joints[{k}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let skeleton = (skin.skeleton)
        .map(|n| id(n.value(), format!("{at}.skeleton")))
        .transpose()?;
    let bad = |source| GltfError::BadSkin {
        skin: s,
        at: at.clone(),
        source,
    };
    let inverse_binds = skin.inverse_bind_matrices.map(|a| {
        let at = format!("{at}.inverseBindMatrices");
        let numbers = read_numbers(root, buffers, a.value(), &at, Type::Mat4, FLOAT)?;
        let matrices = numbers.chunks_exact(16).enumerate().map(|(joint, m)| {
            let affine = Transform::from_mat4(Mat4::from_cols_slice(m));
            affine
                .map(|t| *t.local())
                .map_err(|_| bad(SkinError::BadInverseBind { joint }))
        });
        matrices.collect::<Result<Vec<_>, _>>()
    });
    Skin::new(joints, inverse_binds.transpose()?, skeleton)
        .map(Arc::new)
        .map_err(bad)
}

/// Mesh `m`'s primitives posed by skin `s`: each triangle mesh becomes a [`SkinnedMesh`]
/// with its `JOINTS_0` and `WEIGHTS_0`; other primitives stay unskinned.
pub(crate) fn skinned(
    root: &json::Root,
    buffers: &[Vec<u8>],
    m: usize,
    primitives: Vec<PrimitiveNode>,
    skin: &Arc<Skin>,
    s: usize,
) -> Result<Vec<PrimitiveNode>, GltfError> {
    let listed = root.meshes.get(m).map_or(&[][..], |mesh| &mesh.primitives);
    let posed = primitives.into_iter().zip(listed).enumerate();
    posed
        .map(|(p, (node, primitive))| {
            let PrimitiveNode::Mesh(mesh) = node else {
                return Ok(node);
            };
            let at = format!("meshes[{m}].primitives[{p}]");
            let read = |semantic: Semantic, name: &str, allowed| {
                let Some(a) = primitive.attributes.get(&Checked::Valid(semantic)) else {
                    let reason = format!("it is skinned by skin {s} but has no {name}");
                    return Err(GltfError::invalid(format!("{at}.attributes"), reason));
                };
                let at = format!("{at}.attributes.{name}");
                let numbers = read_numbers(root, buffers, a.value(), &at, Type::Vec4, allowed)?;
                let fours = numbers
                    .chunks_exact(4)
                    .filter_map(|v| <[f32; 4]>::try_from(v).ok());
                Ok(fours.collect::<Vec<_>>())
            };
            let joints = read(Semantic::Joints(0), "JOINTS_0", JOINTS)?;
            let weights = read(Semantic::Weights(0), "WEIGHTS_0", WEIGHTS)?;
            // Unsigned bytes and shorts are exact in f32.
            let joints = joints.into_iter().map(|j| j.map(|x| x as u16)).collect();
            let skinned = SkinnedMesh::new(mesh, Arc::clone(skin), joints, weights);
            skinned
                .map(PrimitiveNode::Skinned)
                .map_err(|source| GltfError::BadSkin {
                    skin: s,
                    at,
                    source,
                })
        })
        .collect()
}
