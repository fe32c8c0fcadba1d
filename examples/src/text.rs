//! Small helpers for the examples' human output: counts with their noun in the right
//! number, coordinates printed with as many decimals as the scene's size needs, and
//! durations in the unit that fits them.

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

/// A unit of time for printed durations: the one in which a duration shows three to
/// four significant digits (ns, µs, ms or s), so no value reads `0.0008 ms`.
///
/// ```
/// use scenewalk_examples::text::TimeUnit;
/// use std::time::Duration;
/// assert_eq!(TimeUnit::fitting(Duration::from_nanos(800)).show(Duration::from_nanos(800)), "800 ns");
/// let us = TimeUnit::fitting(Duration::from_micros(81));
/// assert_eq!((us.name(), us.value(Duration::from_nanos(81_350))), ("µs", 81.35));
/// assert_eq!(TimeUnit::fitting(Duration::from_millis(5)).show(Duration::from_micros(5_250)), "5.25 ms");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    /// Nanoseconds.
    Nanos,
    /// Microseconds.
    Micros,
    /// Milliseconds.
    Millis,
    /// Seconds.
    Seconds,
}

impl TimeUnit {
    /// The unit for durations about as long as `typical`: the largest in which it is
    /// at least 1.
    pub fn fitting(typical: std::time::Duration) -> Self {
        match typical.as_nanos() {
            0..1_000 => TimeUnit::Nanos,
            1_000..1_000_000 => TimeUnit::Micros,
            1_000_000..1_000_000_000 => TimeUnit::Millis,
            _ => TimeUnit::Seconds,
        }
    }

    /// The unit's symbol.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Nanos => "ns",
            TimeUnit::Micros => "µs",
            TimeUnit::Millis => "ms",
            TimeUnit::Seconds => "s",
        }
    }

    /// `d` in this unit.
    pub fn value(self, d: std::time::Duration) -> f64 {
        let scale = match self {
            TimeUnit::Nanos => 1e9,
            TimeUnit::Micros => 1e6,
            TimeUnit::Millis => 1e3,
            TimeUnit::Seconds => 1.0,
        };
        d.as_secs_f64() * scale
    }

    /// `d` in this unit with its symbol and three significant digits (at least none
    /// after the point): `81.4 µs`, `5.25 ms`, `800 ns`.
    pub fn show(self, d: std::time::Duration) -> String {
        format!("{} {}", self.number(d), self.name())
    }

    /// `d` in this unit, without the symbol, as [`TimeUnit::show`] prints it.
    pub fn number(self, d: std::time::Duration) -> String {
        let v = self.value(d);
        let decimals = match v.abs() {
            x if x >= 100.0 => 0,
            x if x >= 10.0 => 1,
            _ => 2,
        };
        format!("{v:.decimals$}")
    }
}

/// A duration in the unit that fits it: `duration(Duration::from_nanos(812))` is
/// `812 ns`, a 5.25 ms one `5.25 ms`.
///
/// ```
/// use scenewalk_examples::text::duration;
/// use std::time::Duration;
/// assert_eq!(duration(Duration::from_micros(1_500)), "1.50 ms");
/// ```
pub fn duration(d: std::time::Duration) -> String {
    TimeUnit::fitting(d).show(d)
}
