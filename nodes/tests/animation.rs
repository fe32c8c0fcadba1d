//! Animation sampling against a direct evaluation of the glTF 2.0 formulas (Appendix C
//! of the specification, in f64), on small files the tests write; the player and its
//! change log; the per-channel cursor against binary search.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{Accessors, doc, import};
use proptest::prelude::*;
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{Change, Graph};
use scenewalk_nodes::gltf::Imported;
use scenewalk_nodes::{
    Animation, AnimationPlayer, Channel, Interpolation, Property, Transform, Trs,
};
use serde_json::{Value, json};

/// Output values of a sampler: floats, or integers of a GL component type stored
/// normalized.
#[derive(Clone)]
enum Output {
    Floats(Vec<f32>),
    Normalized(Vec<i32>, u32),
}

impl Output {
    /// The values as the specification decodes them.
    fn decoded(&self) -> Vec<f64> {
        match self {
            Output::Floats(v) => v.iter().map(|&x| f64::from(x)).collect(),
            Output::Normalized(v, component) => v
                .iter()
                .map(|&c| {
                    let c = f64::from(c);
                    match component {
                        5120 => (c / 127.0).max(-1.0),
                        5121 => c / 255.0,
                        5122 => (c / 32767.0).max(-1.0),
                        5123 => c / 65535.0,
                        _ => unreachable!(),
                    }
                })
                .collect(),
        }
    }
}

/// One channel of the test animation: path, interpolation, times, output.
struct Spec {
    path: &'static str,
    interpolation: &'static str,
    times: Vec<f32>,
    output: Output,
}

impl Spec {
    fn new(path: &'static str, interpolation: &'static str, times: &[f32], values: &[f32]) -> Spec {
        Spec {
            path,
            interpolation,
            times: times.to_vec(),
            output: Output::Floats(values.to_vec()),
        }
    }

    fn width(&self) -> usize {
        match self.path {
            "translation" | "scale" => 3,
            "rotation" => 4,
            _ => 1,
        }
    }
}

/// Node 0 with the rest pose `node` (and node 1, its child, unanimated), animated by
/// one animation with a sampler per spec, each channel targeting node 0.
fn animated(node: Value, specs: &[Spec]) -> Value {
    let mut nodes = json!([node, {"translation": [0, 1, 0]}]);
    nodes[0]["children"] = json!([1]);
    let mut doc = doc(nodes, json!([{"nodes": [0]}]));
    let mut accessors = Accessors::default();
    let (mut samplers, mut channels) = (vec![], vec![]);
    for (i, spec) in specs.iter().enumerate() {
        let input = accessors.times(&spec.times);
        let ty = match spec.width() {
            3 => "VEC3",
            4 => "VEC4",
            _ => "SCALAR",
        };
        let output = match &spec.output {
            Output::Floats(v) => accessors.floats(v, ty, spec.width()),
            Output::Normalized(v, component) => {
                let bytes: Vec<u8> = match component {
                    5120 | 5121 => v.iter().map(|&c| c as u8).collect(),
                    _ => v.iter().flat_map(|&c| (c as u16).to_le_bytes()).collect(),
                };
                accessors.raw(&bytes, *component, true, ty, v.len() / spec.width())
            }
        };
        samplers
            .push(json!({"input": input, "output": output, "interpolation": spec.interpolation}));
        channels.push(json!({"sampler": i, "target": {"node": 0, "path": spec.path}}));
    }
    accessors.finish(&mut doc);
    doc["animations"] = json!([{"name": "test", "samplers": samplers, "channels": channels}]);
    doc
}

/// The specification's value of `spec` at time `t`.
fn reference(spec: &Spec, t: f64) -> Vec<f64> {
    let (times, values, w) = (&spec.times, spec.output.decoded(), spec.width());
    let cubic = spec.interpolation == "CUBICSPLINE";
    let per = if cubic { 3 } else { 1 };
    let part = |k: usize, p: usize| -> Vec<f64> {
        let start = (k * per + if cubic { p } else { 0 }) * w;
        values[start..start + w].to_vec()
    };
    let n = times.len();
    let time = |k: usize| f64::from(times[k]);
    let mut v = if t <= time(0) {
        part(0, 1)
    } else if t >= time(n - 1) {
        part(n - 1, 1)
    } else {
        let k = (0..n - 1)
            .find(|&k| time(k) <= t && t < time(k + 1))
            .unwrap();
        let (td, s) = (
            time(k + 1) - time(k),
            (t - time(k)) / (time(k + 1) - time(k)),
        );
        let (v0, v1) = (part(k, 1), part(k + 1, 1));
        match spec.interpolation {
            _ if t == time(k) => v0,
            "STEP" => v0,
            "LINEAR" if spec.path == "rotation" => {
                let dot: f64 = v0.iter().zip(&v1).map(|(a, b)| a * b).sum();
                let a = dot.abs().min(1.0).acos();
                let sign = dot.signum();
                // Where the angle is zero, the formula's limit: linear.
                let (w0, w1) = match a {
                    0.0 => (1.0 - s, s),
                    _ => ((a * (1.0 - s)).sin() / a.sin(), (a * s).sin() / a.sin()),
                };
                (0..4).map(|i| w0 * v0[i] + sign * w1 * v1[i]).collect()
            }
            "LINEAR" => (0..w).map(|i| (1.0 - s) * v0[i] + s * v1[i]).collect(),
            "CUBICSPLINE" => {
                let (b0, a1) = (part(k, 2), part(k + 1, 0));
                let (s2, s3) = (s * s, s * s * s);
                (0..w)
                    .map(|i| {
                        (2.0 * s3 - 3.0 * s2 + 1.0) * v0[i]
                            + td * (s3 - 2.0 * s2 + s) * b0[i]
                            + (-2.0 * s3 + 3.0 * s2) * v1[i]
                            + td * (s3 - s2) * a1[i]
                    })
                    .collect()
            }
            other => panic!("no interpolation {other}"),
        }
    };
    if spec.path == "rotation" {
        let length = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        v.iter_mut().for_each(|c| *c /= length);
    }
    v
}

/// Times to check: before the first key, every key, points between keys (a quarter,
/// half, an odd fraction), after the last key.
fn probe_times(times: &[f32]) -> Vec<f32> {
    let mut out = vec![times[0] - 1.0, times[times.len() - 1] + 0.5, 1e9, -1e9];
    for pair in times.windows(2) {
        out.push(pair[0]);
        for f in [0.25, 0.5, 0.8137] {
            out.push(pair[0] + f * (pair[1] - pair[0]));
        }
    }
    out.push(times[times.len() - 1]);
    out
}

/// Checks every channel of animation 0 of `doc` against the reference at the probe
/// times, to `tolerance` (relative to the values' size).
fn check(doc: &Value, specs: &[Spec], tolerance: f64) -> Imported {
    let imported = import(doc).unwrap();
    let animation = &imported.animations[0];
    assert_eq!(animation.channels().len(), specs.len());
    for (channel, spec) in animation.channels().iter().zip(specs) {
        assert_eq!(channel.width(), spec.width());
        let mut out = vec![0.0f32; spec.width()];
        for t in probe_times(&spec.times) {
            channel.sample_from(t, &mut 0, &mut out);
            let expected = reference(spec, f64::from(t));
            for (got, want) in out.iter().zip(&expected) {
                assert!(
                    (f64::from(*got) - want).abs() <= tolerance * (1.0 + want.abs()),
                    "{} {} at t = {t}: got {out:?}, expected {expected:?}",
                    spec.path,
                    spec.interpolation
                );
            }
        }
    }
    imported
}

#[test]
fn linear_translation_and_scale() {
    let specs = [
        Spec::new(
            "translation",
            "LINEAR",
            &[0.5, 1.0, 3.0],
            &[0.0, 0.0, 0.0, 2.0, -4.0, 1.0, 2.0, 6.0, -1.0],
        ),
        Spec::new(
            "scale",
            "LINEAR",
            &[0.0, 2.0],
            &[1.0, 1.0, 1.0, 3.0, 0.5, -2.0],
        ),
    ];
    let imported = check(&animated(json!({}), &specs), &specs, 1e-6);
    let mut out = [0.0; 3];
    // At a key, the stored value as is; halfway, the mean.
    imported.animations[0].channels()[0].sample_from(1.0, &mut 0, &mut out);
    assert_eq!(out, [2.0, -4.0, 1.0]);
    imported.animations[0].channels()[0].sample_from(2.0, &mut 0, &mut out);
    assert_eq!(out, [2.0, 1.0, 0.0]);
}

#[test]
fn linear_rotation_is_slerp_along_the_shorter_arc() {
    let half = std::f32::consts::FRAC_1_SQRT_2;
    // Key 1 is the negated form of a 90° turn about z: the shorter arc is 90°, not 270°.
    let q1 = [0.0, 0.0, -half, -half];
    let q2 = Quat::from_rotation_x(2.5).to_array();
    let values: Vec<f32> = [[0.0, 0.0, 0.0, 1.0], q1, q2].concat();
    let specs = [Spec::new("rotation", "LINEAR", &[0.0, 1.0, 1.5], &values)];
    let imported = check(&animated(json!({}), &specs), &specs, 2e-6);
    let mut out = [0.0; 4];
    imported.animations[0].channels()[0].sample_from(0.5, &mut 0, &mut out);
    let halfway = Quat::from_array(out);
    let expected = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    assert!(halfway.angle_between(expected) < 1e-5, "{halfway:?}");
}

#[test]
fn step_holds_the_earlier_key() {
    let specs = [
        Spec::new(
            "translation",
            "STEP",
            &[0.0, 1.0, 2.0],
            &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0],
        ),
        Spec::new(
            "rotation",
            "STEP",
            &[0.0, 1.0],
            &[0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0],
        ),
    ];
    let imported = check(&animated(json!({}), &specs), &specs, 0.0);
    let mut out = [0.0; 3];
    imported.animations[0].channels()[0].sample_from(1.999, &mut 0, &mut out);
    assert_eq!(out, [4.0, 5.0, 6.0]);
}

#[test]
fn cubic_spline_scales_tangents_by_the_key_interval() {
    // Intervals of 2.5 and 0.5 seconds: a tangent unscaled by the interval is off.
    let times = [0.0, 2.5, 3.0];
    #[rustfmt::skip]
    let translation = [
        9.0, 9.0, 9.0,   0.0, 1.0, 2.0,   1.0, -2.0, 0.5, // key 0: in-tangent (unused), value, out-tangent
        3.0, 0.0, -1.0,  4.0, 0.0, 1.0,   -2.0, 1.0, 1.0, // key 1
        0.5, 0.5, 0.5,   1.0, 1.0, 1.0,   7.0, 7.0, 7.0,  // key 2: out-tangent unused
    ];
    #[rustfmt::skip]
    let rotation = [
        0.0, 0.0, 0.0, 0.0,   0.0, 0.0, 0.0, 1.0,   0.3, 0.0, 0.0, 0.0,
        0.0, 0.2, 0.0, 0.0,   0.0, 0.6, 0.0, 0.8,   0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0,   0.6, 0.0, 0.0, 0.8,   0.0, 0.0, 0.0, 0.0,
    ];
    let specs = [
        Spec::new("translation", "CUBICSPLINE", &times, &translation),
        Spec::new("rotation", "CUBICSPLINE", &times, &rotation),
    ];
    let imported = check(&animated(json!({}), &specs), &specs, 2e-6);
    // Halfway through the first interval, the tangents' share is 2.5 × 1/8.
    let mut out = [0.0; 3];
    imported.animations[0].channels()[0].sample_from(1.25, &mut 0, &mut out);
    let expected = [
        0.5 * 0.0 + 0.5 * 4.0 + 2.5 * 0.125 * (1.0 - 3.0),
        0.5 + 2.5 * 0.125 * -2.0,
        1.5 + 2.5 * 0.125 * (0.5 + 1.0),
    ];
    for (got, want) in out.iter().zip(expected) {
        assert!((got - want).abs() < 1e-6, "{out:?} vs {expected:?}");
    }
}

#[test]
fn quantized_rotations_are_dequantized_as_the_specification_says() {
    // i8: -128 decodes to -1, as -127 does; i16 likewise; u8 and u16 unsigned.
    for (component, values) in [
        (5120, vec![0, 0, 0, 127, -128, 0, 0, 0, 90, 0, 0, -90]),
        (
            5122,
            vec![0, 0, 0, 32767, -32768, 0, 0, 0, 0, 23170, 0, 23170],
        ),
        (5121, vec![0, 0, 0, 255, 180, 0, 0, 180]),
        (5123, vec![0, 0, 0, 65535, 0, 46341, 0, 46341]),
    ] {
        let keys = values.len() / 4;
        let times: Vec<f32> = (0..keys).map(|k| k as f32).collect();
        let spec = Spec {
            path: "rotation",
            interpolation: "LINEAR",
            times,
            output: Output::Normalized(values, component),
        };
        let imported = check(
            &animated(json!({}), std::slice::from_ref(&spec)),
            std::slice::from_ref(&spec),
            2e-6,
        );
        // Key 1 of the signed cases holds the type's minimum, which decodes to -1
        // (not a little less): halfway from the identity lies a quarter turn about x.
        let mut out = [0.0; 4];
        imported.animations[0].channels()[0].sample_from(0.5, &mut 0, &mut out);
        if component == 5120 || component == 5122 {
            let h = std::f32::consts::FRAC_1_SQRT_2;
            // Compared by component: `angle_between` cannot resolve angles below about
            // 3e-4 (the acos of a dot product rounded near 1).
            let (got, want) = (Quat::from_array(out), Quat::from_xyzw(-h, 0.0, 0.0, h));
            let same = got.abs_diff_eq(want, 1e-6) || got.abs_diff_eq(-want, 1e-6);
            assert!(same, "component type {component}: {out:?}");
        }
    }
}

#[test]
fn every_sampled_rotation_is_unit_length() {
    // Keys off unit length by 2% (worse than any exporter writes) in every mode.
    let values: Vec<f32> = [
        [0.0, 0.0, 0.0, 1.02],
        [0.0, 0.714, 0.0, 0.714],
        [0.51, 0.0, 0.0, 0.85],
    ]
    .concat();
    for interpolation in ["LINEAR", "STEP"] {
        let specs = [Spec::new(
            "rotation",
            interpolation,
            &[0.0, 1.0, 2.0],
            &values,
        )];
        let imported = check(&animated(json!({}), &specs), &specs, 2e-6);
        let mut out = [0.0f32; 4];
        for t in probe_times(&specs[0].times) {
            imported.animations[0].channels()[0].sample_from(t, &mut 0, &mut out);
            let length = out.iter().map(|c| c * c).sum::<f32>().sqrt();
            assert!(
                (length - 1.0).abs() < 1e-6,
                "{interpolation} at {t}: {out:?}"
            );
        }
    }
}

#[test]
fn weights_are_read_and_kept_not_applied() {
    // Two morph targets, three keys.
    let specs = [Spec::new(
        "weights",
        "LINEAR",
        &[0.0, 1.0, 2.0],
        &[0.0, 1.0, 0.5, 0.5, 1.0, 0.0],
    )];
    let doc = animated(json!({"translation": [1, 2, 3]}), &specs);
    let imported = import(&doc).unwrap();
    let channel = &imported.animations[0].channels()[0];
    assert_eq!(
        (channel.property(), channel.width()),
        (Property::Weights, 2)
    );
    let mut out = [0.0; 2];
    channel.sample_from(1.5, &mut 0, &mut out);
    assert_eq!(out, [0.75, 0.25]);
    // The player writes no node for a weights channel.
    let mut graph = imported.graph.clone();
    let seen = graph.change_cursor();
    AnimationPlayer::new(imported.animations[0].clone())
        .apply(&mut graph, 1.5)
        .unwrap();
    assert_eq!(graph.changes_since(seen), Some(&[][..]));
    assert_eq!(imported.animations[0].targets().count(), 0);
}

#[test]
fn the_player_writes_sampled_and_rest_properties_and_logs_exactly_the_targets() {
    // Node 0 rests at a rotation and scale; only its translation is animated.
    let rest = json!({"translation": [5, 5, 5], "rotation": [0, 0.6, 0, 0.8], "scale": [2, 2, 2]});
    let specs = [Spec::new(
        "translation",
        "LINEAR",
        &[0.0, 4.0],
        &[0.0, 0.0, 0.0, 8.0, 4.0, 0.0],
    )];
    let imported = import(&animated(rest, &specs)).unwrap();
    let mut graph = imported.graph.clone();
    let (target, child) = (imported.node(0).unwrap().id, imported.node(1).unwrap().id);
    let mut player = AnimationPlayer::new(imported.animations[0].clone());
    assert_eq!(player.animation().duration(), 4.0);
    assert_eq!(player.animation().name(), Some("test"));
    let seen = graph.change_cursor();
    player.apply(&mut graph, 1.0).unwrap();
    assert_eq!(
        graph.changes_since(seen),
        Some(&[Change::Payload(target.index())][..])
    );
    let expected = Affine3A::from_scale_rotation_translation(
        Vec3::splat(2.0),
        Quat::from_xyzw(0.0, 0.6, 0.0, 0.8),
        Vec3::new(2.0, 1.0, 0.0),
    );
    assert!(
        graph
            .get::<Transform>(target)
            .unwrap()
            .local()
            .abs_diff_eq(expected, 1e-6)
    );
    // The child keeps its transform.
    assert_eq!(
        graph.get::<Transform>(child).unwrap(),
        imported.graph.get::<Transform>(child).unwrap()
    );
}

#[test]
fn two_animations_on_one_node_apply_in_call_order() {
    let mut graph = Graph::new();
    let node = graph.add_root(Transform::IDENTITY);
    let channel = |values: Vec<f32>| {
        Channel::new(
            node,
            Property::Translation,
            Interpolation::Step,
            vec![0.0].into(),
            values.into(),
        )
        .unwrap()
    };
    let a = Animation::new(None, vec![channel(vec![1.0, 0.0, 0.0])], |_| Trs::IDENTITY);
    let b = Animation::new(None, vec![channel(vec![0.0, 2.0, 0.0])], |_| Trs::IDENTITY);
    let (mut pa, mut pb) = (AnimationPlayer::new(a), AnimationPlayer::new(b));
    pa.apply(&mut graph, 0.0).unwrap();
    pb.apply(&mut graph, 0.0).unwrap();
    assert_eq!(
        graph.get::<Transform>(node).unwrap().local().translation,
        Vec3::new(0.0, 2.0, 0.0).into()
    );
    pa.apply(&mut graph, 0.0).unwrap();
    assert_eq!(
        graph.get::<Transform>(node).unwrap().local().translation,
        Vec3::X.into()
    );
}

#[test]
fn a_player_whose_target_is_gone_or_no_transform_writes_nothing() {
    let mut graph = Graph::new();
    let (a, b) = (
        graph.add_root(Transform::IDENTITY),
        graph.add_root(scenewalk_nodes::Group),
    );
    let channel = |node| {
        Channel::new(
            node,
            Property::Scale,
            Interpolation::Linear,
            vec![0.0].into(),
            vec![2.0, 2.0, 2.0].into(),
        )
        .unwrap()
    };
    let mut player =
        AnimationPlayer::new(Animation::new(None, vec![channel(a), channel(b)], |_| {
            Trs::IDENTITY
        }));
    let seen = graph.change_cursor();
    assert!(matches!(
        player.apply(&mut graph, 0.0),
        Err(scenewalk_core::GraphError::WrongType { .. })
    ));
    assert_eq!(graph.changes_since(seen), Some(&[][..]));
    assert_eq!(*graph.get::<Transform>(a).unwrap(), Transform::IDENTITY);

    // A player that played once checks its targets again after a structural edit:
    // a target removed since is refused, nothing written.
    let c = graph.add_root(Transform::IDENTITY);
    let mut player =
        AnimationPlayer::new(Animation::new(None, vec![channel(a), channel(c)], |_| {
            Trs::IDENTITY
        }));
    player.apply(&mut graph, 0.0).unwrap();
    *graph.get_mut::<Transform>(a).unwrap() = Transform::IDENTITY;
    graph.remove(c).unwrap();
    let seen = graph.change_cursor();
    assert!(matches!(
        player.apply(&mut graph, 0.0),
        Err(scenewalk_core::GraphError::StaleNode(_))
    ));
    assert_eq!(graph.changes_since(seen), Some(&[][..]));
    assert_eq!(*graph.get::<Transform>(a).unwrap(), Transform::IDENTITY);
    // A slot reused by a node of another type is refused as well.
    let d = graph.add_root(Transform::IDENTITY);
    let mut player =
        AnimationPlayer::new(Animation::new(None, vec![channel(d)], |_| Trs::IDENTITY));
    player.apply(&mut graph, 0.0).unwrap();
    graph.remove(d).unwrap();
    let e = graph.add_root(scenewalk_nodes::Group);
    assert_eq!(e.index(), d.index(), "the slot is reused");
    assert!(player.apply(&mut graph, 0.0).is_err());
}

/// Strictly increasing times from positive gaps.
fn keys() -> impl Strategy<Value = (Vec<f32>, Vec<f32>, Interpolation)> {
    let interpolation = prop_oneof![
        Just(Interpolation::Step),
        Just(Interpolation::Linear),
        Just(Interpolation::CubicSpline)
    ];
    (
        prop::collection::vec(0.01f32..2.0, 2..20),
        -1.0f32..1.0,
        interpolation,
    )
        .prop_flat_map(|(gaps, start, interpolation)| {
            let times: Vec<f32> = gaps
                .iter()
                .scan(start, |t, g| {
                    *t += g;
                    Some(*t)
                })
                .collect();
            let per = if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
            let values = prop::collection::vec(-1.0f32..1.0, times.len() * per * 4);
            (Just(times), values, Just(interpolation))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// The cursor gives bit for bit what binary search gives, for times that rise,
    /// fall and jump, in every mode (rotations, so normalization is included).
    #[test]
    fn the_cursor_equals_binary_search(
        (times, values, interpolation) in keys(),
        steps in prop::collection::vec(prop_oneof![-0.05f32..0.2, -30.0f32..30.0], 1..200),
        start in -3.0f32..3.0,
    ) {
        let node = Graph::new().add_root(Transform::IDENTITY);
        let channel = Channel::new(node, Property::Rotation, interpolation, times.into(), values.into()).unwrap();
        let (mut key, mut t) = (0, start);
        let (mut cursor, mut search) = ([0.0f32; 4], [0.0f32; 4]);
        for step in steps {
            t += step;
            channel.sample_from(t, &mut key, &mut cursor);
            channel.sample_from(t, &mut { usize::MAX }, &mut search);
            prop_assert_eq!(cursor.map(f32::to_bits), search.map(f32::to_bits), "at t = {}", t);
        }
    }
}

#[test]
fn a_retargeted_animation_moves_the_copy_only() {
    let specs = [Spec::new(
        "translation",
        "LINEAR",
        &[0.0, 2.0],
        &[0.0, 0.0, 0.0, 2.0, 0.0, 0.0],
    )];
    let imported = import(&animated(json!({"scale": [3, 3, 3]}), &specs)).unwrap();
    let mut graph = imported.graph.clone();
    let original = imported.node(0).unwrap().id;
    let copy = graph.add_root(Transform::IDENTITY);
    let animation = imported.animations[0].retarget(|n| if n == original { copy } else { n });
    assert_eq!(animation.targets().collect::<Vec<_>>(), [copy]);
    let keys = |a: &Animation| a.channels()[0].times().as_ptr();
    assert_eq!(
        keys(&animation),
        keys(&imported.animations[0]),
        "keys are shared"
    );
    let seen = graph.change_cursor();
    AnimationPlayer::new(animation)
        .apply(&mut graph, 1.0)
        .unwrap();
    assert_eq!(
        graph.changes_since(seen),
        Some(&[Change::Payload(copy.index())][..])
    );
    // The rest scale came along.
    let expected =
        Affine3A::from_scale_rotation_translation(Vec3::splat(3.0), Quat::IDENTITY, Vec3::X);
    assert_eq!(*graph.get::<Transform>(copy).unwrap().local(), expected);
}

/// `Channel`'s example: linear between two keys, the cursor starting anywhere.
#[test]
fn a_channel_interpolates_between_its_keys() {
    let node = Graph::new().add_root(Transform::IDENTITY);
    let times = vec![1.0, 3.0].into();
    let values = vec![0.0, 0.0, 0.0, 4.0, 2.0, 0.0].into();
    let (property, linear) = (Property::Translation, Interpolation::Linear);
    let channel = Channel::new(node, property, linear, times, values).unwrap();
    let mut at = [0.0; 3];
    channel.sample_from(2.0, &mut 0, &mut at);
    assert_eq!(at, [2.0, 1.0, 0.0]);
}
