//! Animations: every channel checked, mapped to the graph node it targets, its keys read
//! once per accessor and shared.

use super::accessor::{FLOAT, read_numbers};
use super::import::{cached, trs};
use super::{AnimationFault, GltfError, ImportedNode};
use crate::transform::normalized;
use crate::{Animation, Channel, Interpolation, Property, Trs};
use gltf::json;
use gltf::json::accessor::{ComponentType, Type};
use gltf::json::animation::{Interpolation as JsonInterpolation, Property as JsonProperty};
use gltf::json::validation::Checked;
use scenewalk_core::NodeId;
use scenewalk_core::glam::Quat;
use std::collections::HashMap;
use std::sync::Arc;

/// Floats or normalized integers (rotations, weights).
const FLOAT_OR_NORMALIZED: &[(ComponentType, bool)] = &[
    (ComponentType::F32, false),
    (ComponentType::I8, true),
    (ComponentType::U8, true),
    (ComponentType::I16, true),
    (ComponentType::U16, true),
];

/// Accessors already read, by index and the property read for (`None`: key times).
type Read = HashMap<(usize, Option<Property>), Arc<[f32]>>;

/// Every animation of the file, in order. Channels whose node is not in the imported
/// scene are dropped (after the checks that need no keys).
pub(crate) fn animations(
    root: &json::Root,
    buffers: &[Vec<u8>],
    nodes: &[Option<ImportedNode>],
) -> Result<Vec<Animation>, GltfError> {
    let mut read = Read::new();
    let mut out = Vec::with_capacity(root.animations.len());
    for (a, animation) in root.animations.iter().enumerate() {
        let mut channels = Vec::with_capacity(animation.channels.len());
        let mut rest = HashMap::new();
        let mut seen = HashMap::new();
        for (c, channel) in animation.channels.iter().enumerate() {
            let fault = |fault| GltfError::BadAnimation {
                animation: a,
                channel: c,
                fault,
            };
            if let Checked::Valid(path) = channel.target.path
                && let Some(first) = seen.insert((channel.target.node.value(), path as u8), c)
            {
                return Err(fault(AnimationFault::DuplicateTarget { first }));
            }
            if let Some((read_channel, pose)) =
                read_channel(root, buffers, nodes, animation, channel, &mut read).map_err(fault)?
            {
                rest.insert(read_channel.target(), pose);
                channels.push(read_channel);
            }
        }
        let rest = |id: NodeId| rest.get(&id).copied().unwrap_or(Trs::IDENTITY);
        out.push(Animation::new(animation.name.clone(), channels, rest));
    }
    Ok(out)
}

/// One channel with its target's rest pose; `None` when the target is not in the
/// imported scene.
fn read_channel(
    root: &json::Root,
    buffers: &[Vec<u8>],
    nodes: &[Option<ImportedNode>],
    animation: &json::Animation,
    channel: &json::animation::Channel,
    read: &mut Read,
) -> Result<Option<(Channel, Trs)>, AnimationFault> {
    let s = channel.sampler.value();
    let count = animation.samplers.len();
    let sampler = (animation.samplers.get(s))
        .ok_or(AnimationFault::SamplerOutOfRange { sampler: s, count })?;
    let n = channel.target.node.value();
    let count = root.nodes.len();
    let node = root
        .nodes
        .get(n)
        .ok_or(AnimationFault::NodeOutOfRange { node: n, count })?;
    if node.matrix.is_some() {
        return Err(AnimationFault::TargetsMatrix { node: n });
    }
    let (property, ty, allowed) = match channel.target.path {
        Checked::Valid(JsonProperty::Translation) => (Property::Translation, Type::Vec3, FLOAT),
        Checked::Valid(JsonProperty::Rotation) => {
            (Property::Rotation, Type::Vec4, FLOAT_OR_NORMALIZED)
        }
        Checked::Valid(JsonProperty::Scale) => (Property::Scale, Type::Vec3, FLOAT),
        Checked::Valid(JsonProperty::MorphTargetWeights) => {
            (Property::Weights, Type::Scalar, FLOAT_OR_NORMALIZED)
        }
        Checked::Invalid => return Err(AnimationFault::UnknownPath),
    };
    let interpolation = match sampler.interpolation {
        Checked::Valid(JsonInterpolation::Linear) => Interpolation::Linear,
        Checked::Valid(JsonInterpolation::Step) => Interpolation::Step,
        Checked::Valid(JsonInterpolation::CubicSpline) => Interpolation::CubicSpline,
        Checked::Invalid => return Err(AnimationFault::UnknownInterpolation { sampler: s }),
    };
    let Some(id) = nodes.get(n).and_then(Option::as_ref).map(|node| node.id) else {
        return Ok(None);
    };
    let mut numbers = |a: usize, key: Option<Property>, ty, allowed| {
        cached(read, (a, key), || {
            let side = if key.is_some() { "output" } else { "input" };
            let at = format!("samplers[{s}].{side}");
            let numbers = read_numbers(root, buffers, a, &at, ty, allowed);
            numbers
                .map(Arc::from)
                .map_err(|e| AnimationFault::Accessor {
                    accessor: a,
                    source: Box::new(e),
                })
        })
    };
    let times = numbers(sampler.input.value(), None, Type::Scalar, FLOAT)?;
    let values = numbers(sampler.output.value(), Some(property), ty, allowed)?;
    let channel = Channel::new(id, property, interpolation, times, values)?;
    Ok(Some((channel, rest_pose(node))))
}

/// The node's translation, rotation (normalized as [`Transform`](crate::Transform)
/// normalizes it) and scale.
fn rest_pose(node: &json::Node) -> Trs {
    let pose = trs(node);
    let rotation = normalized(pose.rotation).unwrap_or(Quat::IDENTITY);
    Trs { rotation, ..pose }
}
