//! `inspect --json` on the Khronos samples kept in `testdata/gltf/`, checked against
//! the reference reading of their raw JSON (every scene and the default). The same
//! check on all the shared samples is in `scenes.rs` (feature `scenes`).

mod samples;

#[test]
fn samples_match_the_reference() {
    samples::inspect_matches_the_reference(&samples::data::testdata_gltf());
}
