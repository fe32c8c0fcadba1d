//! Keyframe animation of [`Transform`] nodes, sampled as glTF 2.0 (Appendix C) says.

use crate::Transform;
use crate::transform::normalized;
use scenewalk_core::Invariant;
use scenewalk_core::glam::{Quat, Vec3};
use scenewalk_core::{Graph, GraphError, NodeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// A node's pose as an animation sees it: the matrix is translation × rotation × scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    /// The translation.
    pub translation: Vec3,
    /// The rotation (a unit quaternion).
    pub rotation: Quat,
    /// The scale, per axis.
    pub scale: Vec3,
}

impl Trs {
    /// No translation, no rotation, unit scale.
    pub const IDENTITY: Trs = Trs {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
    };
}

/// How a channel's value moves between two keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// The earlier key's value until the next key.
    Step,
    /// Straight-line interpolation; for rotations, slerp along the shorter arc.
    Linear,
    /// A cubic Hermite spline; each key stores an in-tangent, the value and an
    /// out-tangent (per second, scaled by the key interval).
    CubicSpline,
}

/// The property of a node a channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Property {
    /// The translation (3 values).
    Translation,
    /// The rotation quaternion, `x y z w` (4 values).
    Rotation,
    /// The scale (3 values).
    Scale,
    /// Morph target weights, one value per target: sampled, not applied (no node type
    /// of this crate has morph targets).
    Weights,
}

impl Property {
    /// How many values one key holds (`None` for weights: one per morph target).
    pub fn width(self) -> Option<usize> {
        match self {
            Property::Translation | Property::Scale => Some(3),
            Property::Rotation => Some(4),
            Property::Weights => None,
        }
    }
}

/// Why keyframe data was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnimationError {
    /// A channel without keys, or a cubic spline with a single key.
    #[error("{keys} keys: a channel needs at least {needed}")]
    TooFewKeys {
        /// The keys given.
        keys: usize,
        /// The least its interpolation needs (1, or 2 for cubic splines).
        needed: usize,
    },
    /// The number of values does not fit the number of keys.
    #[error("{values} values for {keys} keys: expected {expected}")]
    CountMismatch {
        /// The keys.
        keys: usize,
        /// The values given.
        values: usize,
        /// What the keys, property and interpolation call for (for weights: a multiple).
        expected: usize,
    },
    /// A key time is NaN or infinite.
    #[error("key {key}'s time is not finite")]
    TimeNotFinite {
        /// The key.
        key: usize,
    },
    /// A key time is not greater than the one before it.
    #[error("key {key}'s time is not greater than key {}'s", key - 1)]
    TimesNotIncreasing {
        /// The key.
        key: usize,
    },
    /// A value is NaN or infinite.
    #[error("value {index} is not finite")]
    ValueNotFinite {
        /// The index of the number in the flat value list.
        index: usize,
    },
    /// A rotation key is the zero quaternion, which is no rotation.
    #[error("key {key}'s rotation is zero")]
    ZeroRotation {
        /// The key.
        key: usize,
    },
}

/// One animated property of one node: key times and [`values`](Channel::values), shared
/// by clones.
#[derive(Clone)]
pub struct Channel {
    target: NodeId,
    keys: Arc<Keys>,
}

/// What a channel samples: everything but its target.
struct Keys {
    property: Property,
    interpolation: Interpolation,
    times: Arc<[f32]>,
    values: Arc<[f32]>,
    width: usize,
}

impl Channel {
    /// A channel of `property` of node `target`; the first bad key or value is refused.
    pub fn new(
        target: NodeId,
        property: Property,
        interpolation: Interpolation,
        times: Arc<[f32]>,
        values: Arc<[f32]>,
    ) -> Result<Channel, AnimationError> {
        let keys = times.len();
        // Values per key, and the least keys.
        let (per_key, needed) = match interpolation {
            Interpolation::CubicSpline => (3, 2),
            Interpolation::Step | Interpolation::Linear => (1, 1),
        };
        if keys < needed {
            return Err(AnimationError::TooFewKeys { keys, needed });
        }
        let width = property.width().unwrap_or(values.len() / (keys * per_key));
        let expected = keys * per_key * width.max(1);
        if values.len() != expected || width == 0 {
            return Err(AnimationError::CountMismatch {
                keys,
                values: values.len(),
                expected,
            });
        }
        if let Some(key) = times.iter().position(|t| !t.is_finite()) {
            return Err(AnimationError::TimeNotFinite { key });
        }
        if let Some(k) = times.windows(2).position(|w| w.first() >= w.last()) {
            return Err(AnimationError::TimesNotIncreasing { key: k + 1 });
        }
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(AnimationError::ValueNotFinite { index });
        }
        let channel = Channel {
            target,
            keys: Arc::new(Keys {
                property,
                interpolation,
                times,
                values,
                width,
            }),
        };
        if property == Property::Rotation
            && let Some(key) = (0..keys).find(|&k| channel.part(k, 1).iter().all(|&c| c == 0.0))
        {
            return Err(AnimationError::ZeroRotation { key });
        }
        Ok(channel)
    }

    /// The node it animates.
    pub fn target(&self) -> NodeId {
        self.target
    }

    /// The property it animates.
    pub fn property(&self) -> Property {
        self.keys.property
    }

    /// How it interpolates between keys.
    pub fn interpolation(&self) -> Interpolation {
        self.keys.interpolation
    }

    /// The key times, strictly increasing.
    pub fn times(&self) -> &[f32] {
        &self.keys.times
    }

    /// The values, [`width`](Channel::width) numbers each (for a cubic spline,
    /// in-tangent, value and out-tangent per key).
    pub fn values(&self) -> &[f32] {
        &self.keys.values
    }

    /// Numbers per value: [`Property::width`], or the morph target count for weights.
    pub fn width(&self) -> usize {
        self.keys.width
    }

    /// The value at `time` into the first `width` numbers of `out` (or all of a shorter
    /// `out`). Times outside the keys clamp (NaN to the first key), a time on a key gives
    /// the stored value, and a rotation sampled whole is normalized. Key `*key` and the
    /// next are tried before a binary search (O(1) while time moves forward, else
    /// O(log keys)), and the key found is left there; any `*key` gives the same value.
    pub fn sample_from(&self, time: f32, key: &mut usize, out: &mut [f32]) {
        let n = self.keys.width.min(out.len());
        let out = out.get_mut(..n).invariant("a clamped range");
        match self.locate(time, key) {
            (k, Some(s)) if self.keys.interpolation != Interpolation::Step => {
                self.interpolate(k, s, out);
            }
            (k, _) => out.copy_from_slice(self.part(k, 1).get(..n).invariant("key values")),
        }
        if self.keys.property == Property::Rotation
            && let Ok(q) = <&mut [f32; 4]>::try_from(out)
        {
            *q = normalized(Quat::from_array(*q))
                .unwrap_or(Quat::IDENTITY)
                .to_array();
        }
    }

    /// Where `time` falls: on (or clamped to) key `k`, or at fraction `s` from key `k`
    /// to `k + 1`. Key `hint` and the next are tried before a binary search; updated.
    fn locate(&self, time: f32, hint: &mut usize) -> (usize, Option<f32>) {
        let times: &[f32] = &self.keys.times;
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
            return (0, None);
        };
        if time.is_nan() || time <= first {
            return (0, None);
        }
        if time >= last {
            return (times.len() - 1, None);
        }
        // first < time < last: exactly one k has times[k] <= time < times[k + 1].
        let fits = |k: usize| matches!(times.get(k..k.wrapping_add(2)), Some(&[a, b]) if a <= time && time < b);
        let next = hint.wrapping_add(1);
        let k = if fits(*hint) {
            *hint
        } else if fits(next) {
            next
        } else {
            times.partition_point(|&t| t <= time).saturating_sub(1)
        };
        *hint = k;
        match times.get(k..k + 2) {
            Some(&[a, b]) if a != time => (k, Some((time - a) / (b - a))),
            _ => (k, None),
        }
    }

    /// The numbers of key `k`'s value (cubic splines: `part` 0 in-tangent, 1 value, 2
    /// out-tangent).
    fn part(&self, k: usize, part: usize) -> &[f32] {
        let w = self.keys.width;
        let start = match self.keys.interpolation {
            Interpolation::CubicSpline => (3 * k + part) * w,
            Interpolation::Step | Interpolation::Linear => k * w,
        };
        self.keys
            .values
            .get(start..start + w)
            .invariant("key values")
    }

    /// The value at fraction `s` between keys `k` and `k + 1`: values and tangents, weighted.
    fn interpolate(&self, k: usize, s: f32, out: &mut [f32]) {
        let (v0, v1) = (self.part(k, 1), self.part(k + 1, 1));
        let weights = match self.keys.interpolation {
            Interpolation::CubicSpline => {
                let d = match self.keys.times.get(k..k + 2) {
                    Some(&[a, b]) => b - a,
                    _ => 0.0,
                };
                let (s2, s3) = (s * s, s * s * s);
                [
                    2.0 * s3 - 3.0 * s2 + 1.0,
                    d * (s3 - 2.0 * s2 + s),
                    -2.0 * s3 + 3.0 * s2,
                    d * (s3 - s2),
                ]
            }
            _ if self.keys.property == Property::Rotation => {
                let (w0, w1) = slerp_weights(v0, v1, s);
                [w0, 0.0, w1, 0.0]
            }
            _ => [1.0 - s, 0.0, s, 0.0],
        };
        let terms = [v0, self.part(k, 2), v1, self.part(k + 1, 0)];
        for (i, o) in out.iter_mut().enumerate() {
            let at = |v: &[f32]| v.get(i).copied().unwrap_or(0.0);
            *o = terms.iter().zip(weights).map(|(v, w)| w * at(v)).sum();
        }
    }
}

/// The weights of quaternions `a` and `b` in their slerp at `s` along the shorter arc;
/// linear where the angle is too small for the sines.
fn slerp_weights(a: &[f32], b: &[f32], s: f32) -> (f32, f32) {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let sign = if dot < 0.0 { -1.0 } else { 1.0 };
    let angle = dot.abs().min(1.0).acos();
    if angle < 1e-4 {
        return (1.0 - s, sign * s);
    }
    let sin = angle.sin();
    (
        ((1.0 - s) * angle).sin() / sin,
        sign * (s * angle).sin() / sin,
    )
}

impl fmt::Debug for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keys can number in the thousands: show their count, not their values.
        f.debug_struct("Channel")
            .field("target", &self.target)
            .field("property", &self.keys.property)
            .field("interpolation", &self.keys.interpolation)
            .field("keys", &self.keys.times.len())
            .field("width", &self.keys.width)
            .finish()
    }
}

/// Channels played together (a glTF animation: "walk", "run"); a posed node takes the
/// properties no channel animates from its rest pose.
#[derive(Clone, Debug)]
pub struct Animation {
    name: Option<String>,
    channels: Vec<Channel>,
    /// The nodes it poses; how (rest pose, T/R/S channels) is shared by retargeted copies.
    targets: Vec<NodeId>,
    poses: Arc<[(Trs, [Option<usize>; 3])]>,
    duration: f32,
}

impl Animation {
    /// An animation of `channels`; `rest` gives the rest pose of each node it poses. Of
    /// two channels on one property of one node, the later plays.
    pub fn new(
        name: Option<String>,
        channels: Vec<Channel>,
        mut rest: impl FnMut(NodeId) -> Trs,
    ) -> Animation {
        let mut targets: Vec<NodeId> = Vec::new();
        let mut poses: Vec<(Trs, [Option<usize>; 3])> = Vec::new();
        let mut target_of = HashMap::new();
        for (c, channel) in channels.iter().enumerate() {
            let trs = [Property::Translation, Property::Rotation, Property::Scale];
            let Some(slot) = trs.iter().position(|&p| p == channel.keys.property) else {
                continue;
            };
            let t = *target_of.entry(channel.target).or_insert_with(|| {
                targets.push(channel.target);
                poses.push((rest(channel.target), [None; 3]));
                targets.len() - 1
            });
            if let Some(entry) = poses.get_mut(t).and_then(|p| p.1.get_mut(slot)) {
                *entry = Some(c);
            }
        }
        let ends = channels.iter().filter_map(|c| c.times().last());
        let duration = ends.fold(0.0, |d, &end| f32::max(d, end));
        Animation {
            name,
            channels,
            targets,
            poses: poses.into(),
            duration,
        }
    }

    /// Its name, if it has one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Its channels.
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// The nodes its translation, rotation and scale channels write, each once.
    pub fn targets(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        self.targets.iter().copied()
    }

    /// The last key time of any channel (0 without channels).
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// The same animation moving other nodes: each target `t` becomes `map(t)`, rest
    /// poses kept and keys shared (for copies of a character, one player each).
    #[must_use]
    pub fn retarget(&self, mut map: impl FnMut(NodeId) -> NodeId) -> Animation {
        let mut copy = self.clone();
        copy.channels
            .iter_mut()
            .for_each(|c| c.target = map(c.target));
        copy.targets.iter_mut().for_each(|t| *t = map(*t));
        copy
    }
}

/// Plays an [`Animation`] on a graph, keeping a key index per channel
/// ([`Channel::sample_from`]). With one player per animation, a node two of them target
/// takes the pose of the last applied.
///
/// ```
/// use scenewalk_core::{Graph, glam::Vec3};
/// use scenewalk_nodes::{Animation, AnimationPlayer, Channel, Interpolation, Property, Transform, Trs};
/// let mut graph = Graph::new();
/// let node = graph.add_root(Transform::IDENTITY);
/// let lift = Channel::new(node, Property::Translation, Interpolation::Linear,
///     vec![0.0, 2.0].into(), vec![0.0, 0.0, 0.0, 0.0, 4.0, 0.0].into())?;
/// let rest = Trs { scale: Vec3::splat(2.0), ..Trs::IDENTITY };
/// let animation = Animation::new(Some("lift".into()), vec![lift], |_| rest);
/// AnimationPlayer::new(animation).apply(&mut graph, 0.5)?;
/// let local = graph.get::<Transform>(node)?.local();
/// assert_eq!(local.translation, Vec3::new(0.0, 1.0, 0.0).into());
/// assert_eq!(local.matrix3.x_axis.x, 2.0); // the scale comes from the rest pose
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct AnimationPlayer {
    animation: Animation,
    keys: Vec<usize>,
    /// The graph (uid, structural revision) whose targets were last found to be
    /// `Transform`s: a node's type changes only with the structure.
    checked: Option<(u64, u64)>,
}

impl AnimationPlayer {
    /// A player of `animation`.
    pub fn new(animation: Animation) -> Self {
        Self {
            keys: vec![0; animation.channels.len()],
            animation,
            checked: None,
        }
    }

    /// The animation it plays.
    pub fn animation(&self) -> &Animation {
        &self.animation
    }

    /// Writes the pose at `time` into every target through [`Graph::payload_mut`] (the
    /// change log names exactly those nodes). Errors: a target that is not a live
    /// [`Transform`] of `graph` ([`Graph::get_mut`]'s error); then nothing was written.
    pub fn apply(&mut self, graph: &mut Graph, time: f32) -> Result<(), GraphError> {
        let state = (graph.uid(), graph.revision());
        if self.checked != Some(state) {
            let transform = graph.types().index_of::<Transform>();
            for &target in &self.animation.targets {
                // `get_mut` refuses a wrong type before it records a change.
                if Some(graph.node_type(target)?) != transform {
                    graph.get_mut::<Transform>(target)?;
                }
            }
            self.checked = Some(state);
        }
        let mut value = [0.0; 4];
        let animation = &self.animation;
        for (&target, &(rest, slots)) in animation.targets.iter().zip(animation.poses.iter()) {
            let mut pose = rest;
            for &c in slots.iter().flatten() {
                let (Some(channel), Some(key)) = (animation.channels.get(c), self.keys.get_mut(c))
                else {
                    continue;
                };
                channel.sample_from(time, key, &mut value);
                let [x, y, z, w] = value;
                match channel.keys.property {
                    Property::Translation => pose.translation = Vec3::new(x, y, z),
                    Property::Rotation => pose.rotation = Quat::from_xyzw(x, y, z, w),
                    Property::Scale => pose.scale = Vec3::new(x, y, z),
                    Property::Weights => {}
                }
            }
            // Checked above to be exactly a `Transform`: the type-erased borrow spares
            // `get_mut`'s type lookup per node.
            if let Some(t) = graph.payload_mut(target)?.downcast_mut::<Transform>() {
                *t = Transform::from_trs(pose.translation, pose.rotation, pose.scale);
            }
        }
        Ok(())
    }
}
