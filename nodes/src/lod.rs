//! The level-of-detail node: which children show at which distance.

use scenewalk_core::NodeCore;
use scenewalk_core::glam::Vec3;
use std::ops::Range;

/// Level of detail: child `i` shows while the viewer's world-space distance to the
/// node's centre (in node coordinates) lies in `ranges[i]`, start inclusive, end
/// exclusive; children without a range never show. Ranges may overlap or leave gaps.
///
/// ```
/// use scenewalk_core::glam::Vec3;
/// use scenewalk_nodes::Lod;
/// // Detailed below 50 m, coarse from 50 to 200 m, then nothing.
/// let lod = Lod::new(Vec3::ZERO, vec![0.0..50.0, 50.0..200.0])?;
/// assert!(lod.shows(0, 49.9) && !lod.shows(1, 49.9));
/// assert!(lod.shows(1, 50.0) && !lod.shows(0, 50.0));
/// assert!(!lod.shows(0, 200.0) && !lod.shows(1, 200.0));
/// # Ok::<(), scenewalk_nodes::BadLod>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Lod {
    center: Vec3,
    ranges: Vec<Range<f32>>,
}

impl Lod {
    /// A node showing child `i` in `ranges[i]`, checked (an end may be `f32::INFINITY`).
    pub fn new(center: Vec3, ranges: Vec<Range<f32>>) -> Result<Lod, BadLod> {
        if !center.is_finite() {
            return Err(BadLod::Center);
        }
        let bad = |r: &Range<f32>| !(r.start >= 0.0 && r.start.is_finite() && r.end >= r.start);
        if let Some(child) = ranges.iter().position(bad) {
            return Err(BadLod::Range(child));
        }
        Ok(Lod { center, ranges })
    }

    /// `n` rising thresholds for `n + 1` children: child `i` from threshold `i − 1`
    /// (0 for the first) to threshold `i`, the last one beyond (Coin3D's `SoLOD`).
    pub fn from_thresholds(center: Vec3, thresholds: &[f32]) -> Result<Lod, BadLod> {
        let starts = std::iter::once(0.0).chain(thresholds.iter().copied());
        let ends = thresholds.iter().copied().chain([f32::INFINITY]);
        Lod::new(
            center,
            starts.zip(ends).map(|(start, end)| start..end).collect(),
        )
    }

    /// The centre distances are measured from, in the node's coordinates.
    pub fn center(&self) -> Vec3 {
        self.center
    }

    /// The distance range of each child.
    pub fn ranges(&self) -> &[Range<f32>] {
        &self.ranges
    }

    /// Whether child `child` shows at `distance`; a NaN distance shows only child 0, the
    /// most detailed.
    #[inline]
    pub fn shows(&self, child: usize, distance: f32) -> bool {
        if distance.is_nan() {
            return child == 0;
        }
        // An infinite end takes an infinite distance too (huge coordinates overflow).
        self.ranges.get(child).is_some_and(|r| {
            r.contains(&distance) || (r.end == f32::INFINITY && distance >= r.start)
        })
    }
}

impl NodeCore for Lod {}

/// Why a level-of-detail node was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BadLod {
    /// The centre holds a NaN or an infinity.
    #[error("the level-of-detail centre holds a NaN or an infinity")]
    Center,
    /// A child's range has a NaN, a negative or infinite start, or ends before it starts.
    #[error(
        "the distance range of child {0} is not a range of distances (NaN, negative start, or end before start)"
    )]
    Range(usize),
}
