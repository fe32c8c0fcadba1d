//! `inspect --json` without `--time` prints the same bytes as before skins and
//! animations were imported: the length and FNV-1a hash of each sample's JSON,
//! recorded from that code (commit 5730fdc), on the samples kept in `testdata/gltf`
//! (all 13 shared samples in `scenes.rs`, feature `scenes`). Skinned samples
//! included: at rest a skinned mesh is still boxed as its bind-pose mesh placed by
//! its node.

mod samples;

#[test]
fn json_at_rest_is_byte_for_byte_what_it_was() {
    let folder = samples::data::testdata_gltf();
    samples::json_at_rest_is_byte_for_byte_what_it_was(&folder, &samples::KEPT);
}
