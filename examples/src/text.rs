//! Small helpers for the examples' human output: counts with their noun in the right
//! number, and coordinates printed with as many decimals as the scene's size needs;
//! and the one value their command lines share, a time in seconds.

use scenewalk_actors::UpdateStats;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use std::fmt::Display;

/// `n` and its noun: `one` for exactly 1, else `many`.
///
/// ```
/// use scenewalk_examples::text::counted;
/// assert_eq!(counted(1usize, "node", "nodes"), "1 node");
/// assert_eq!(counted(0u64, "box", "boxes"), "0 boxes");
/// ```
pub fn counted<N: Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

/// How many decimals coordinates get (the field): for a scene, three significant
/// digits of its size, at least one decimal ([`Decimals::for_box`]).
///
/// ```
/// use scenewalk_core::{Aabb, glam::Vec3};
/// use scenewalk_examples::text::Decimals;
/// let city = Decimals::for_box(&Aabb::new(Vec3::ZERO, Vec3::splat(1600.0)));
/// assert_eq!(city.point(Vec3::new(1.25, 0.0, -3.0)), "(1.2, 0.0, -3.0)");
/// let spheres = Decimals::for_box(&Aabb::new(Vec3::ZERO, Vec3::splat(0.007)));
/// assert_eq!(spheres.length(0.00125), "0.00125");
/// assert_eq!(city.length(-0.01), "0.0");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimals(pub usize);

impl Decimals {
    /// One decimal: for scenes a few units to thousands of units across.
    pub const ONE: Decimals = Decimals(1);

    /// The decimals for a scene of box `b` (one decimal for an empty or non-finite
    /// box).
    pub fn for_box(b: &Aabb) -> Decimals {
        let size = b.size().max_element();
        if b.is_empty() || !size.is_finite() || size <= 0.0 {
            return Decimals::ONE;
        }
        let digits = 2.0 - f64::from(size).log10().floor();
        Decimals(digits.clamp(1.0, 12.0) as usize)
    }

    /// A length or a coordinate (no sign on a value that rounds to zero).
    pub fn length(self, x: f32) -> String {
        let text = format!("{x:.*}", self.0);
        match text.strip_prefix('-') {
            Some(zero) if zero.chars().all(|c| c == '0' || c == '.') => zero.to_string(),
            _ => text,
        }
    }

    /// A point, `(x, y, z)`.
    pub fn point(self, p: Vec3) -> String {
        format!(
            "({}, {}, {})",
            self.length(p.x),
            self.length(p.y),
            self.length(p.z)
        )
    }

    /// A box, `(min) .. (max)`.
    pub fn aabb(self, b: &Aabb) -> String {
        format!("{} .. {}", self.point(b.min), self.point(b.max))
    }
}

/// What an [`IncrementalUpdate`](scenewalk_actors::IncrementalUpdate) run did, in
/// words: `a full run: 3 nodes entered`, or `a patch: 1 change, 1 subtree walked again
/// (2 nodes entered), 0 ancestor boxes recomputed`.
pub fn update_stats(stats: &UpdateStats) -> String {
    let entered = counted(stats.entered, "node entered", "nodes entered");
    if stats.full {
        return format!("a full run: {entered}");
    }
    format!(
        "a patch: {}, {} walked again ({entered}), {} recomputed",
        counted(stats.changes, "change", "changes"),
        counted(stats.subtrees, "subtree", "subtrees"),
        counted(stats.ancestors, "ancestor box", "ancestor boxes"),
    )
}

/// The value of a command-line option that takes a time in seconds: a finite number.
///
/// Errors: a message naming `option`.
///
/// ```
/// use scenewalk_examples::text::seconds;
/// assert_eq!(seconds("--time", "1.5"), Ok(1.5));
/// assert!(seconds("--time", "inf").unwrap_err().contains("--time"));
/// ```
pub fn seconds(option: &str, value: &str) -> Result<f32, String> {
    match value.parse::<f32>() {
        Ok(t) if t.is_finite() => Ok(t),
        Ok(t) => Err(format!(
            "{option} needs a finite number of seconds, not {t}"
        )),
        Err(_) => Err(format!("{option} needs seconds, not {value:?}")),
    }
}
