//! Animations: channels checked and mapped to graph nodes, keys read once per accessor.

use super::accessor::{FLOAT, read_numbers};
use super::error::get;
use super::import::{cached, trs};
use super::{GltfError, ImportedNode};
use crate::transform::normalized;
use crate::{Animation, Channel, Interpolation, Property, Trs};
use gltf::json;
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::animation::{Interpolation as JsonInterpolation, Property as JsonProperty};
use gltf::json::validation::Checked;
use scenewalk_core::NodeId;
use scenewalk_core::glam::Quat;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Floats or normalized integers (rotations, weights).
const FLOAT_OR_NORMALIZED: &[(ComponentType, bool)] = &[
    (ComponentType::F32, false),
    (ComponentType::I8, true),
    (ComponentType::U8, true),
    (ComponentType::I16, true),
    (ComponentType::U16, true),
];

/// An animation channel of the file that imports but does not move the scene
/// ([`Imported::unplayed`](super::Imported::unplayed)).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("animation {animation}, channel {channel}: {reason}")]
pub struct UnplayedChannel {
    /// The animation's glTF index.
    pub animation: usize,
    /// The channel's index in that animation.
    pub channel: usize,
    /// Why it is not played.
    pub reason: Unplayed,
}

/// Why an animation channel is not played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Unplayed {
    /// It animates a node's morph target `weights`: read and kept in its
    /// [`Animation`] (as [`Property::Weights`]), not applied, since no node type of this
    /// crate has morph targets.
    #[error("morph target weights of node {node} (morph targets are not applied)")]
    MorphWeights {
        /// The glTF node.
        node: usize,
    },
    /// A `KHR_animation_pointer` channel to something other than a node's
    /// translation, rotation, scale or weights (a material, a camera, a light, an
    /// extension's value): not read.
    #[error(
        "KHR_animation_pointer to {pointer:?} (only nodes' translation, rotation, scale and \
         weights are read)"
    )]
    Pointer {
        /// Its JSON pointer, as the file gives it (empty if it gives none).
        pointer: String,
    },
}

/// Accessors already read, by index and the property read for (`None`: key times).
type Read = HashMap<(usize, Option<Property>), Arc<[f32]>>;

/// Every animation, channels whose node is not in the scene dropped (after the checks
/// that need no keys) and those `set_aside` skipped; rest poses are the nodes',
/// rotations normalized. With them, the channels not played: `set_aside` and the
/// morph weights channels of the scene's nodes, by animation and channel.
pub(crate) fn animations(
    root: &json::Root,
    buffers: &[Vec<u8>],
    nodes: &[Option<ImportedNode>],
    mut set_aside: Vec<UnplayedChannel>,
) -> Result<(Vec<Animation>, Vec<UnplayedChannel>), GltfError> {
    let mut read = Read::new();
    let mut out = Vec::with_capacity(root.animations.len());
    let skipped: HashSet<(usize, usize)> =
        set_aside.iter().map(|u| (u.animation, u.channel)).collect();
    let mut unplayed = Vec::new();
    for (a, animation) in root.animations.iter().enumerate() {
        let mut channels = Vec::with_capacity(animation.channels.len());
        let (mut rest, mut seen) = (HashMap::new(), HashMap::new());
        for (c, channel) in animation.channels.iter().enumerate() {
            if skipped.contains(&(a, c)) {
                continue;
            }
            let at = |field: &str| format!("animations[{a}].channels[{c}].{field}");
            let n = channel.target.node.value();
            if let Checked::Valid(path) = channel.target.path
                && let Some(first) = seen.insert((n, path as u8), c)
            {
                let reason = format!("channel {first} already animates the same node and path");
                return Err(GltfError::invalid(at("target"), reason));
            }
            let s = channel.sampler.value();
            let sampler = get(&animation.samplers, s, "sampler", || at("sampler"))?;
            let node = get(&root.nodes, n, "node", || at("target.node"))?;
            if node.matrix.is_some() {
                let reason =
                    "has a matrix: animated nodes must use translation, rotation and scale";
                return Err(GltfError::invalid(
                    at("target.node"),
                    format!("node {n} {reason}"),
                ));
            }
            let (property, ty, allowed) = match channel.target.path {
                Checked::Valid(JsonProperty::Translation) => {
                    (Property::Translation, Type::Vec3, FLOAT)
                }
                Checked::Valid(JsonProperty::Rotation) => {
                    (Property::Rotation, Type::Vec4, FLOAT_OR_NORMALIZED)
                }
                Checked::Valid(JsonProperty::Scale) => (Property::Scale, Type::Vec3, FLOAT),
                Checked::Valid(JsonProperty::MorphTargetWeights) => {
                    (Property::Weights, Type::Scalar, FLOAT_OR_NORMALIZED)
                }
                Checked::Invalid => {
                    let reason = "not translation, rotation, scale or weights";
                    return Err(GltfError::invalid(at("target.path"), reason));
                }
            };
            let sampler_at = |field: &str| format!("animations[{a}].samplers[{s}].{field}");
            let interpolation = match sampler.interpolation {
                Checked::Valid(JsonInterpolation::Linear) => Interpolation::Linear,
                Checked::Valid(JsonInterpolation::Step) => Interpolation::Step,
                Checked::Valid(JsonInterpolation::CubicSpline) => Interpolation::CubicSpline,
                Checked::Invalid => {
                    let reason = "not LINEAR, STEP or CUBICSPLINE";
                    return Err(GltfError::invalid(sampler_at("interpolation"), reason));
                }
            };
            let Some(id) = nodes.get(n).and_then(Option::as_ref).map(|node| node.id) else {
                continue;
            };
            let mut numbers = |accessor: usize, key: Option<Property>, ty, allowed| {
                cached(&mut read, (accessor, key), || {
                    let at = sampler_at(if key.is_some() { "output" } else { "input" });
                    read_numbers(root, buffers, accessor, &at, ty, allowed).map(Arc::from)
                })
            };
            let times = numbers(sampler.input.value(), None, Type::Scalar, FLOAT)?;
            let values = numbers(sampler.output.value(), Some(property), ty, allowed)?;
            let channel =
                Channel::new(id, property, interpolation, times, values).map_err(|source| {
                    GltfError::BadAnimation {
                        animation: a,
                        channel: c,
                        source,
                    }
                })?;
            if property == Property::Weights {
                let reason = Unplayed::MorphWeights { node: n };
                unplayed.push(UnplayedChannel {
                    animation: a,
                    channel: c,
                    reason,
                });
            }
            let pose = trs(node);
            let rotation = normalized(pose.rotation).unwrap_or(Quat::IDENTITY);
            rest.insert(id, Trs { rotation, ..pose });
            channels.push(channel);
        }
        let rest = |id: NodeId| rest.get(&id).copied().unwrap_or(Trs::IDENTITY);
        out.push(Animation::new(animation.name.clone(), channels, rest));
    }
    unplayed.append(&mut set_aside);
    unplayed.sort_by_key(|u| (u.animation, u.channel));
    Ok((out, unplayed))
}
