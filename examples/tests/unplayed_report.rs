//! `inspect` (text and JSON) and the tour say which animation channels they do not
//! play: morph target weights and `KHR_animation_pointer` channels to a material, on
//! a file that uses the pointer extension (which loads); a file whose channels all
//! play says nothing of it.

use base64::Engine;
use scenewalk_examples::inspect::inspect;
use scenewalk_examples::tour::{Command, parse_args, run};
use scenewalk_nodes::gltf::{ImportOptions, import_slice};
use serde_json::{Value, json};
use std::time::Duration;

const MATERIAL: &str = "/materials/0/pbrMetallicRoughness/baseColorFactor";

/// A triangle on node 0, animated: its translation (channel 0), its morph weights
/// (channel 1, when `unplayed`) and a material's colour through a pointer (channel 2).
fn file(unplayed: bool) -> Value {
    let floats: Vec<f32> = [
        [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0].as_slice(), // positions
        &[0.0, 1.0],                                              // times
        &[0.0, 0.0, 0.0, 0.0, 0.0, -1.0],                         // translations
        &[0.0, 1.0],                                              // weights
        &[1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0],                // colours
    ]
    .concat();
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let view = |offset: usize, length: usize| json!({"buffer": 0, "byteOffset": 4 * offset, "byteLength": 4 * length});
    let mut channels = vec![json!({"sampler": 0, "target": {"node": 0, "path": "translation"}})];
    if unplayed {
        channels.push(json!({"sampler": 1, "target": {"node": 0, "path": "weights"}}));
        channels.push(json!({"sampler": 2, "target": {"path": "pointer",
            "extensions": {"KHR_animation_pointer": {"pointer": MATERIAL}}}}));
    }
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_animation_pointer"],
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}], "weights": [0.0]}],
        "buffers": [{"byteLength": bytes.len(), "uri": format!("data:application/octet-stream;base64,{data}")}],
        "bufferViews": [view(0, 9), view(9, 2), view(11, 6), view(17, 2), view(19, 8)],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"},
            {"bufferView": 3, "componentType": 5126, "count": 2, "type": "SCALAR"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "VEC4"}
        ],
        "animations": [{
            "samplers": [{"input": 1, "output": 2}, {"input": 1, "output": 3}, {"input": 1, "output": 4}],
            "channels": channels
        }]
    })
}

#[test]
fn inspect_lists_the_channels_it_does_not_play() {
    let bytes = serde_json::to_vec(&file(true)).unwrap();
    let imported = import_slice(&bytes, None, &ImportOptions::default()).unwrap();
    let report = inspect(&imported).unwrap();
    let text = report.summary(Duration::ZERO);
    assert!(
        text.contains("2 animation channels are not played"),
        "{text}"
    );
    assert!(
        text.contains("animation 0, channel 1: morph target weights of node 0"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "animation 0, channel 2: KHR_animation_pointer to \"{MATERIAL}\""
        )),
        "{text}"
    );
    let json = report.to_json();
    let listed = json["unplayed_channels"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(
        (
            &listed[0]["kind"],
            &listed[0]["node"],
            &listed[0]["channel"]
        ),
        (&json!("morph_weights"), &json!(0), &json!(1))
    );
    assert_eq!(
        (
            &listed[1]["kind"],
            &listed[1]["pointer"],
            &listed[1]["channel"]
        ),
        (&json!("pointer"), &json!(MATERIAL), &json!(2))
    );

    // Every channel plays: nothing said, no key in the JSON.
    let bytes = serde_json::to_vec(&file(false)).unwrap();
    let imported = import_slice(&bytes, None, &ImportOptions::default()).unwrap();
    let report = inspect(&imported).unwrap();
    assert!(!report.summary(Duration::ZERO).contains("not played"));
    assert!(report.to_json().get("unplayed_channels").is_none());
}

#[test]
fn the_tour_says_which_channels_it_does_not_play() {
    let dir = std::env::temp_dir().join(format!("scenewalk-unplayed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for unplayed in [true, false] {
        let path = dir.join(format!("morph-{unplayed}.gltf"));
        std::fs::write(&path, serde_json::to_vec(&file(unplayed)).unwrap()).unwrap();
        let svg = dir.join(format!("morph-{unplayed}.svg"));
        let args = [
            path.to_str().unwrap(),
            "--frames",
            "3",
            "--svg",
            svg.to_str().unwrap(),
        ];
        let Ok(Command::Run(options)) = parse_args(args.iter().map(|s| s.to_string())) else {
            panic!("the tour refused {args:?}");
        };
        let mut out = Vec::new();
        let outcome = run(&options, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert!(outcome.unwrap().failed.is_empty(), "{text}");
        let said = text.contains("2 animation channels are not played")
            && text.contains("animation 0, channel 1: morph target weights of node 0")
            && text.contains("animation 0, channel 2: KHR_animation_pointer");
        assert_eq!(said, unplayed, "{text}");
        assert_eq!(text.contains("not played"), unplayed, "{text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
