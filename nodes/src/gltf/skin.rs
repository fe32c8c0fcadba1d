//! Skins, and the per-vertex joints and weights of the primitives they pose.

use super::ImportedNode;
use super::accessor::{FLOAT, read_numbers};
use super::error::{GltfError, get};
use super::mesh::PrimitiveNode;
use crate::{InfluenceSet, Skin, SkinError, SkinnedMesh, Transform};
use gltf::json;
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::mesh::Semantic;
use gltf::json::validation::Checked;
use scenewalk_core::glam::Mat4;
use std::sync::Arc;

/// The component types `JOINTS_n` may have: unsigned bytes or shorts.
const JOINTS: &[(ComponentType, bool)] = &[(ComponentType::U8, false), (ComponentType::U16, false)];

/// The component types `WEIGHTS_n` may have: floats, normalized unsigned bytes or shorts.
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

/// Mesh `m`'s primitives posed by skin `s`, as the [module](super) says; a primitive
/// without positions stays an empty box.
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
            let at = format!("meshes[{m}].primitives[{p}]");
            let attributes = &primitive.attributes;
            let mesh = match node {
                PrimitiveNode::Mesh(mesh) => mesh,
                PrimitiveNode::Geometry(_, Some(why)) => {
                    return Err(GltfError::invalid(at, format!("it is skinned, but {why}")));
                }
                PrimitiveNode::Geometry(_, None) | PrimitiveNode::Skinned(_) => return Ok(node),
            };
            let sets = influence_sets(root, buffers, attributes, &at, s)?;
            let skinned = SkinnedMesh::from_sets(mesh, Arc::clone(skin), sets);
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

/// Every `JOINTS_n` / `WEIGHTS_n` pair of a skinned primitive's `attributes`: `n` from 0
/// up without a gap, each joint set with its weight set.
fn influence_sets(
    root: &json::Root,
    buffers: &[Vec<u8>],
    attributes: &std::collections::BTreeMap<Checked<Semantic>, json::Index<json::Accessor>>,
    at: &str,
    s: usize,
) -> Result<Vec<InfluenceSet>, GltfError> {
    let numbered = |joints: bool| {
        let mut sets: Vec<u32> = (attributes.keys())
            .filter_map(|semantic| match semantic {
                Checked::Valid(Semantic::Joints(n)) if joints => Some(*n),
                Checked::Valid(Semantic::Weights(n)) if !joints => Some(*n),
                _ => None,
            })
            .collect();
        sets.sort_unstable();
        sets
    };
    let (joint_sets, weight_sets) = (numbered(true), numbered(false));
    let count = joint_sets.len() as u32;
    let bad = |reason: String| GltfError::invalid(format!("{at}.attributes"), reason);
    if count == 0 || weight_sets.is_empty() {
        let missing = if count == 0 { "JOINTS_0" } else { "WEIGHTS_0" };
        return Err(bad(format!(
            "it is skinned by skin {s} but has no {missing}"
        )));
    }
    if joint_sets != weight_sets || joint_sets.iter().copied().ne(0..count) {
        let name = |set: &[u32], kind: &str| {
            let names: Vec<String> = set.iter().map(|n| format!("{kind}_{n}")).collect();
            names.join(", ")
        };
        return Err(bad(format!(
            "joint and weight sets must pair up, numbered from 0 without a gap: it has {} \
             and {}",
            name(&joint_sets, "JOINTS"),
            name(&weight_sets, "WEIGHTS")
        )));
    }
    let read = |semantic: Semantic, name: String, allowed| {
        let Some(a) = attributes.get(&Checked::Valid(semantic)) else {
            return Err(bad(format!("it has no {name}")));
        };
        let at = format!("{at}.attributes.{name}");
        let numbers = read_numbers(root, buffers, a.value(), &at, Type::Vec4, allowed)?;
        let fours = numbers
            .chunks_exact(4)
            .filter_map(|v| <[f32; 4]>::try_from(v).ok());
        Ok(fours.collect::<Vec<_>>())
    };
    (0..count)
        .map(|n| {
            let joints = read(Semantic::Joints(n), format!("JOINTS_{n}"), JOINTS)?;
            let weights = read(Semantic::Weights(n), format!("WEIGHTS_{n}"), WEIGHTS)?;
            // Unsigned bytes and shorts are exact in f32.
            let joints = joints.into_iter().map(|j| j.map(|x| x as u16)).collect();
            Ok((joints, weights))
        })
        .collect()
}
