//! `inspect --json` without `--time` prints the same bytes as before skins and
//! animations were imported: the length and FNV-1a hash of each shared sample's JSON,
//! recorded from that code (commit 5730fdc). Skinned samples included: at rest a
//! skinned mesh is still boxed as its bind-pose mesh placed by its node.

use scenewalk_examples::inspect::inspect;
use scenewalk_nodes::gltf::{ImportOptions, import};
use std::path::Path;

/// (sample, bytes, FNV-1a 64 of the bytes)
const RECORDED: [(&str, usize, u64); 13] = [
    ("AntiqueCamera", 913, 0xe4c0aa70ec2bc075),
    ("BoxAnimated", 808, 0x453da726b2ef03ec),
    ("CesiumMan", 6898, 0x6e999b68c58b6609),
    ("CesiumMilkTruck", 2197, 0x338f92acf6874618),
    ("Fox", 8383, 0x659979b83b41363a),
    ("Lantern", 1276, 0xb62289dc4efbd0e6),
    ("MetalRoughSpheresNoTextures", 36130, 0x6472bdbc6a21cdef),
    ("MultipleScenes", 287, 0xeaa1cc0594a8f021),
    ("OrientationTest", 4039, 0xe210b45daa9506b7),
    ("RiggedFigure", 7246, 0x1b3c5b746e473d07),
    ("RiggedSimple", 1283, 0xe8aab8f100fffb13),
    ("SimpleMeshes", 463, 0xdf5a4fc881913e82),
    ("SimpleSkin", 564, 0x9fb82779e5029ddf),
];

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn json_at_rest_is_byte_for_byte_what_it_was() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes/gltf");
    assert!(
        folder.is_dir(),
        "the shared samples are missing: expected them at {}",
        folder.display()
    );
    for (name, length, hash) in RECORDED {
        let path = folder.join(name).join(format!("{name}.gltf"));
        let imported = import(&path, &ImportOptions::default()).unwrap();
        let text = inspect(&imported).unwrap().to_json().to_string();
        assert_eq!(
            (text.len(), fnv1a(text.as_bytes())),
            (length, hash),
            "{name}: {text}"
        );
    }
}
