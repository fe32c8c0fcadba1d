//! The animated samples kept in the repository (`testdata/gltf`): each imports with
//! its animations and skins, plays every animation at several times with finite poses
//! and a change log naming exactly the animated nodes; skinned boxes against brute
//! force at random times and, at rest, where the bind pose puts them. The same checks
//! on every animated sample of the shared real-data set are in `scenes.rs` (feature
//! `scenes`).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::animated::{self, Animated};
use common::data::testdata_gltf;

/// (sample, animations, skinned primitives)
const ANIMATED: Animated = &[
    ("BoxAnimated", 1, 0),
    ("RiggedSimple", 1, 1),
    ("SimpleSkin", 1, 1),
];

#[test]
fn every_animated_sample_plays_with_finite_poses_and_logs_its_targets() {
    animated::every_animated_sample_plays_with_finite_poses_and_logs_its_targets(
        &testdata_gltf(),
        ANIMATED,
    );
}

#[test]
fn skinned_sample_boxes_match_brute_force_at_random_times() {
    animated::skinned_sample_boxes_match_brute_force_at_random_times(&testdata_gltf(), ANIMATED);
}

/// These samples are bound in their rest pose: unanimated, each skinned box equals
/// the bind-pose mesh box placed by the mesh's node (an independent check of the
/// inverse bind matrices and the skinning rule).
#[test]
fn skinned_samples_at_rest_sit_where_their_bind_pose_does() {
    animated::skinned_samples_at_rest_sit_where_their_bind_pose_does(&testdata_gltf(), ANIMATED);
}
