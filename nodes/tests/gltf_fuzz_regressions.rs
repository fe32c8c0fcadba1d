//! Inputs the `gltf_import` fuzz target (`fuzz/`) found to crash, each reduced to
//! what triggers it. The full inputs are replayed from `fuzz/seeds/gltf_import/` by
//! `examples/tests/fuzz_replay.rs`.

#![cfg(feature = "gltf")]

use scenewalk_nodes::gltf::{GltfError, ImportOptions, import_slice};

fn glb_header(version: u32, length: u32) -> Vec<u8> {
    let mut out = b"glTF".to_vec();
    out.extend(version.to_le_bytes());
    out.extend(length.to_le_bytes());
    out
}

/// A GLB header declaring a total length under its own 12 bytes: the gltf crate
/// computed `length - 12` unchecked (an overflow panic under overflow checks).
#[test]
fn a_glb_length_shorter_than_its_header_is_an_error() {
    for length in [0, 1, 11] {
        for tail in [0usize, 8, 100] {
            let mut file = glb_header(2, length);
            file.extend(std::iter::repeat_n(b' ', tail));
            let got = import_slice(&file, None, &ImportOptions::default());
            match got {
                Err(GltfError::Parse(msg)) => assert!(msg.contains("total length"), "{msg}"),
                other => panic!("length {length}: {other:?}"),
            }
        }
    }
    // The length checks apply to any version field (the crate reads it after).
    let got = import_slice(&glb_header(0x3fc02, 0), None, &ImportOptions::default());
    assert!(matches!(got, Err(GltfError::Parse(_))));
    // Exactly a header: the crate's own errors (no JSON chunk), not a panic.
    let got = import_slice(&glb_header(2, 12), None, &ImportOptions::default());
    assert!(matches!(got, Err(GltfError::Parse(_))), "{got:?}");
    // Shorter than a header: an error too.
    assert!(import_slice(b"glTF\x02\x00", None, &ImportOptions::default()).is_err());
}
