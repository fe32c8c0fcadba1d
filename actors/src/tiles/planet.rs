//! A procedural planet: an implicit quadtree over the whole globe whose subtrees and
//! contents are made on demand, for flights, tests and benchmarks at any size.

use super::{Fetched, Loader, TileView};
use scenewalk_nodes::tiles::{east_north_up, geodetic_to_ecef};
use std::sync::Arc;

/// A terrain quadtree over the WGS84 globe: `levels` levels (16 make about 1.4 billion
/// tiles), every tile available, REPLACE refinement, subtrees of `subtree_levels`
/// levels. Its [`loader`](Planet::loader) serves the tileset, constant-availability
/// subtree files and contents of a deterministic size between 16 and 64 KiB (what a
/// terrain tile weighs), returned as sizes: nothing is stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Planet {
    /// Levels of the quadtree.
    pub levels: u32,
    /// Levels per subtree file.
    pub subtree_levels: u32,
    /// The root's geometric error in metres (level `l` has `root_error / 2^l`).
    pub root_error: f64,
}

impl Planet {
    /// A planet of `levels` levels, subtrees of 4 levels, a 150 km root error.
    pub fn new(levels: u32) -> Self {
        Self {
            levels,
            subtree_levels: 4,
            root_error: 150_000.0,
        }
    }

    /// Tiles in the whole tree: (4^levels − 1) / 3.
    pub fn tile_count(&self) -> u64 {
        4u64.checked_pow(self.levels)
            .map_or(u64::MAX, |n| (n - 1) / 3)
    }

    /// The bytes of tile `(level, x, y)`'s content.
    pub fn content_bytes(level: u32, x: u32, y: u32) -> u64 {
        let h = (u64::from(level) << 58 ^ u64::from(x) << 29 ^ u64::from(y))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (16 << 10) + (h >> 40) % (48 << 10)
    }

    /// The root tileset (`tileset.json`).
    pub fn tileset_json(&self) -> String {
        let pi = std::f64::consts::PI;
        format!(
            r#"{{"asset": {{"version": "1.1"}}, "geometricError": {e},
  "root": {{"boundingVolume": {{"region": [{w}, {s}, {pi}, {n}, -500, 9000]}},
           "geometricError": {e}, "refine": "REPLACE",
           "content": {{"uri": "terrain/{{level}}/{{x}}/{{y}}.terrain"}},
           "implicitTiling": {{"subdivisionScheme": "QUADTREE", "subtreeLevels": {sl},
                               "availableLevels": {l},
                               "subtrees": {{"uri": "subtrees/{{level}}.{{x}}.{{y}}.json"}}}}}}}}"#,
            e = self.root_error,
            w = -pi,
            s = -pi / 2.0,
            n = pi / 2.0,
            sl = self.subtree_levels,
            l = self.levels,
        )
    }

    /// Serves `tileset.json`, `subtrees/L.X.Y.json` and `terrain/L/X/Y.terrain`; any
    /// other URI is an error.
    pub fn loader(&self) -> Loader {
        let planet = *self;
        let tileset = self.tileset_json().into_bytes();
        Arc::new(move |uri: &str| {
            if uri == "tileset.json" {
                return Ok(Fetched::Bytes(tileset.clone()));
            }
            let numbers = |rest: &str, sep: char| -> Option<[u32; 3]> {
                let mut it = rest.split(sep).map(|p| p.parse::<u32>().ok());
                Some([it.next()??, it.next()??, it.next()??])
            };
            if let Some(rest) = uri
                .strip_prefix("subtrees/")
                .and_then(|r| r.strip_suffix(".json"))
            {
                let [level, ..] =
                    numbers(rest, '.').ok_or_else(|| format!("{uri}: no such subtree"))?;
                let below = u32::from(level + planet.subtree_levels < planet.levels);
                let json = format!(
                    r#"{{"tileAvailability": {{"constant": 1}}, "contentAvailability": [{{"constant": 1}}],
                        "childSubtreeAvailability": {{"constant": {below}}}}}"#
                );
                return Ok(Fetched::Bytes(json.into_bytes()));
            }
            if let Some(rest) = uri
                .strip_prefix("terrain/")
                .and_then(|r| r.strip_suffix(".terrain"))
            {
                let [level, x, y] =
                    numbers(rest, '/').ok_or_else(|| format!("{uri}: no such tile"))?;
                return Ok(Fetched::Size(Planet::content_bytes(level, x, y)));
            }
            Err(format!("{uri}: no such file"))
        })
    }

    /// A camera path of `frames` views (1920 × 1080, 60° high): from 10 000 km above
    /// (0.3, 0.8) radians straight down, descending to 1 km while it drifts east and
    /// tilts to 50° off the vertical, looking north.
    pub fn flight(frames: usize) -> Vec<TileView> {
        let last = frames.saturating_sub(1).max(1) as f64;
        (0..frames)
            .map(|i| {
                let t = i as f64 / last;
                let height = 10f64.powf(7.0 - 4.0 * t);
                Planet::view(0.3 + 0.002 * t, 0.8, height, 50f64.to_radians() * t)
            })
            .collect()
    }

    /// A camera path of `frames` views at `height` metres, tilted 50° off the vertical
    /// and looking north, flying east from (0.3, 0.8) radians by `radians` of longitude.
    pub fn cruise(frames: usize, height: f64, radians: f64) -> Vec<TileView> {
        let last = frames.saturating_sub(1).max(1) as f64;
        (0..frames)
            .map(|i| {
                Planet::view(
                    0.3 + radians * i as f64 / last,
                    0.8,
                    height,
                    50f64.to_radians(),
                )
            })
            .collect()
    }

    /// A view from `height` metres above (`lon`, `lat`) radians, tilted `pitch` from
    /// straight down towards the north (1920 × 1080, 60° high).
    pub fn view(lon: f64, lat: f64, height: f64, pitch: f64) -> TileView {
        let axes = east_north_up(lon, lat);
        let (north, up) = (axes.y_axis, axes.z_axis);
        let eye = geodetic_to_ecef(lon, lat, height);
        let direction = -up * pitch.cos() + north * pitch.sin();
        TileView::look_at(eye, eye + direction, north)
    }
}
