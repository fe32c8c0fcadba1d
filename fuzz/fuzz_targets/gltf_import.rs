//! libFuzzer target: arbitrary bytes through the glTF importer and the update pass.
#![no_main]

#[path = "../harness/gltf.rs"]
mod gltf;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gltf::run(data);
});
