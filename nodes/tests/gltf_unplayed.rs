//! Animation channels the player does not play are listed, never dropped in silence:
//! morph target weights, and `KHR_animation_pointer` channels to anything but a node's
//! transform; a pointer channel to a node's rotation plays as a plain one; a file that
//! uses the pointer extension loads (the gltf crate alone refuses its channels, which
//! have no `node`).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{Accessors, doc, import};
use scenewalk_core::glam::{Quat, Vec3};
use scenewalk_nodes::gltf::{GltfError, Unplayed, UnplayedChannel};
use scenewalk_nodes::{AnimationPlayer, Property, Transform};
use serde_json::{Value, json};
use std::f32::consts::FRAC_PI_2;

/// Node 0 a root with child node 1; one animation of `channels` over sampler 0
/// (translations), 1 (rotations: a quarter turn about z) and 2 (two weights).
fn animated(channels: Value, extensions: Option<(&str, Value)>) -> Value {
    let mut doc = doc(json!([{"children": [1]}, {}]), json!([{"nodes": [0]}]));
    let mut a = Accessors::default();
    let times = a.times(&[0.0, 1.0]);
    let moves = a.floats(&[0.0, 0.0, 0.0, 2.0, 0.0, 0.0], "VEC3", 3);
    let quarter = Quat::from_rotation_z(FRAC_PI_2).to_array();
    let turns = a.floats(&[[0.0, 0.0, 0.0, 1.0], quarter].concat(), "VEC4", 4);
    let weights = a.floats(&[0.0, 1.0, 1.0, 0.0], "SCALAR", 1);
    a.finish(&mut doc);
    doc["animations"] = json!([{
        "samplers": [
            {"input": times, "output": moves},
            {"input": times, "output": turns},
            {"input": times, "output": weights}
        ],
        "channels": channels
    }]);
    if let Some((field, list)) = extensions {
        doc[field] = list;
    }
    doc
}

/// A pointer channel over `sampler`.
fn pointer(sampler: usize, pointer: &str) -> Value {
    json!({"sampler": sampler, "target": {
        "path": "pointer",
        "extensions": {"KHR_animation_pointer": {"pointer": pointer}}
    }})
}

#[test]
fn morph_weights_channels_are_kept_and_listed_as_unplayed() {
    let channels = json!([
        {"sampler": 0, "target": {"node": 1, "path": "translation"}},
        {"sampler": 2, "target": {"node": 1, "path": "weights"}}
    ]);
    let imported = import(&animated(channels, None)).unwrap();
    let channels = imported.animations[0].channels();
    assert_eq!(channels.len(), 2);
    assert_eq!(channels[1].property(), Property::Weights);
    let want = UnplayedChannel {
        animation: 0,
        channel: 1,
        reason: Unplayed::MorphWeights { node: 1 },
    };
    assert_eq!(imported.unplayed, [want]);
    let text = imported.unplayed[0].to_string();
    assert!(
        text.contains("animation 0, channel 1") && text.contains("morph target weights of node 1"),
        "{text}"
    );
}

#[test]
fn a_file_that_uses_animation_pointers_loads_plays_node_pointers_and_lists_the_rest() {
    let material = "/materials/0/pbrMetallicRoughness/baseColorFactor";
    let channels = json!([
        {"sampler": 0, "target": {"node": 1, "path": "translation"}},
        pointer(1, "/nodes/1/rotation"),
        pointer(0, material),
        {"sampler": 1, "target": {"path": "pointer"}},
        pointer(2, "/nodes/0/weights")
    ]);
    for field in ["extensionsUsed", "extensionsRequired"] {
        let list = json!(["KHR_animation_pointer"]);
        let mut doc = animated(channels.clone(), Some(("extensionsUsed", list.clone())));
        doc[field] = list;
        let imported = import(&doc).unwrap_or_else(|e| panic!("{field}: {e}"));
        let unplayed: Vec<(usize, Unplayed)> = (imported.unplayed.iter())
            .map(|u| (u.channel, u.reason.clone()))
            .collect();
        let want = vec![
            (
                2,
                Unplayed::Pointer {
                    pointer: material.into(),
                },
            ),
            (
                3,
                Unplayed::Pointer {
                    pointer: String::new(),
                },
            ),
            (4, Unplayed::MorphWeights { node: 0 }),
        ];
        assert_eq!(unplayed, want, "{field}");
        let text = imported.unplayed[0].to_string();
        assert!(
            text.contains("KHR_animation_pointer") && text.contains(material),
            "{text}"
        );
        // Translation, the rotation pointer and the weights pointer import.
        let animation = &imported.animations[0];
        assert_eq!(animation.channels().len(), 3, "{field}");
        // Halfway, node 1 has moved by 1 and turned an eighth.
        let mut graph = imported.graph.clone();
        let node = imported.node(1).unwrap().id;
        AnimationPlayer::new(animation.clone())
            .apply(&mut graph, 0.5)
            .unwrap();
        let local = *graph.get::<Transform>(node).unwrap().local();
        let (_, rotation, translation) = local.to_scale_rotation_translation();
        assert!(translation.abs_diff_eq(Vec3::X, 1e-6), "{translation}");
        let eighth = Quat::from_rotation_z(FRAC_PI_2 / 2.0);
        assert!(rotation.abs_diff_eq(eighth, 1e-6), "{rotation}");
    }
}

#[test]
fn a_pointer_channel_is_checked_as_the_plain_channel_it_means() {
    // A pointer to a node that does not exist names the channel.
    let channels = json!([pointer(1, "/nodes/7/rotation")]);
    let e = import(&animated(channels, None)).unwrap_err();
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, index: 7, .. } if at == "animations[0].channels[0].target.node"),
        "{e:?}"
    );
    // A pointer to a property no node has, or not a number, is not played.
    for odd in [
        "/nodes/1/color",
        "/nodes/x/rotation",
        "/nodes/+1/rotation",
        "nodes/1/scale",
    ] {
        let imported = import(&animated(json!([pointer(1, odd)]), None)).unwrap();
        assert_eq!(imported.animations[0].channels().len(), 0, "{odd}");
        let reason = Unplayed::Pointer {
            pointer: odd.into(),
        };
        assert_eq!(imported.unplayed[0].reason, reason);
    }
    // A plain channel without a node is still refused, with the parser's position.
    let channels = json!([{"sampler": 0, "target": {"path": "translation"}}]);
    let e = import(&animated(channels, None)).unwrap_err();
    assert!(
        matches!(&e, GltfError::Parse(m) if m.contains("missing field `node`") && m.contains("line")),
        "{e:?}"
    );
}

#[test]
fn a_file_whose_every_channel_plays_lists_none() {
    let channels = json!([{"sampler": 1, "target": {"node": 1, "path": "rotation"}}]);
    assert!(
        import(&animated(channels, None))
            .unwrap()
            .unplayed
            .is_empty()
    );
}
