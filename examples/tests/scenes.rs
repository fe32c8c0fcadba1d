//! The examples' checks on the shared real-data set (`../shared/scenes` beside the
//! workspace root, or `$SCENEWALK_SCENES`), run with the feature `scenes`:
//! `cargo test -p scenewalk-examples --features scenes --test scenes`. Each fails,
//! naming the folder, when the set is missing. The same checks run on the samples
//! kept in the repository in `inspect_samples.rs`, `inspect_unchanged.rs`,
//! `animation_incremental.rs` and `tour.rs`.

mod samples;

use samples::data::{sample, scenes};
use std::path::PathBuf;

fn gltf() -> PathBuf {
    scenes().join("gltf")
}

#[test]
fn inspect_matches_the_reference_on_every_sample() {
    samples::inspect_matches_the_reference(&gltf());
}

#[test]
fn inspect_json_at_rest_is_byte_for_byte_what_it_was() {
    let names = samples::RECORDED.map(|r| r.0);
    samples::json_at_rest_is_byte_for_byte_what_it_was(&gltf(), &names);
}

#[test]
fn incremental_updates_after_the_player_equal_full_updates() {
    let animated = [
        "BoxAnimated",
        "CesiumMilkTruck",
        "Fox",
        "CesiumMan",
        "RiggedSimple",
        "RiggedFigure",
        "SimpleSkin",
    ];
    samples::incremental_updates_after_the_player_equal_full_updates(&gltf(), &animated);
}

#[test]
fn the_updates_skinned_boxes_hold_every_skinned_vertex_of_the_samples() {
    let skinned = [
        "CesiumMan",
        "Fox",
        "RiggedSimple",
        "RiggedFigure",
        "SimpleSkin",
    ];
    samples::the_updates_skinned_boxes_hold_every_skinned_vertex(&gltf(), &skinned);
}

#[test]
fn the_tour_draws_the_fox_where_its_joints_put_it() {
    samples::the_tour_draws_a_skinned_model_where_its_joints_put_it(&sample(&gltf(), "Fox"), "fox");
}
