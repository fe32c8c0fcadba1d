//! An animation player's writes and the incremental update: after each frame, the
//! incremental update (which re-walks only the nodes the change log names) equals a
//! full update of the same graph, world matrix by world matrix and box by box
//! (skinned meshes' own boxes included); and the update's box of each skinned mesh
//! holds every vertex skinned by brute force at random times. On the animated samples
//! kept in `testdata/gltf`; on every animated shared sample in `scenes.rs` (feature
//! `scenes`).

mod samples;

#[test]
fn incremental_updates_after_the_player_equal_full_updates() {
    samples::incremental_updates_after_the_player_equal_full_updates(
        &samples::data::testdata_gltf(),
        &["BoxAnimated", "RiggedSimple", "SimpleSkin"],
    );
}

#[test]
fn the_updates_skinned_boxes_hold_every_skinned_vertex_of_the_samples() {
    samples::the_updates_skinned_boxes_hold_every_skinned_vertex(
        &samples::data::testdata_gltf(),
        &["RiggedSimple", "SimpleSkin"],
    );
}
