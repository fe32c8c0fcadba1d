//! A flight over the procedural planet of 16 levels (about 1.4 billion tiles): at every
//! frame, memory under the budget and no hole (a brute-force check with 64 × 64 rays).

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::tiles::*;
use scenewalk_core::glam::DVec3;
use scenewalk_core::{Graph, NodeId};
use scenewalk_nodes::tiles::{BoundingVolume, Tile, WGS84_A, WGS84_E2};
use std::collections::HashSet;

/// The first hit of a ray with the WGS84 ellipsoid, as (longitude, latitude).
fn hit(origin: DVec3, dir: DVec3) -> Option<(f64, f64)> {
    let b = WGS84_A * (1.0 - WGS84_E2).sqrt();
    let scale = DVec3::new(1.0 / WGS84_A, 1.0 / WGS84_A, 1.0 / b);
    let (o, d) = (origin * scale, dir * scale);
    let (a2, b2, c2) = (d.dot(d), 2.0 * o.dot(d), o.dot(o) - 1.0);
    let disc = b2 * b2 - 4.0 * a2 * c2;
    if disc < 0.0 {
        return None;
    }
    let t = (-b2 - disc.sqrt()) / (2.0 * a2);
    if t <= 0.0 {
        return None;
    }
    let p = origin + dir * t;
    let lat = p.z.atan2((1.0 - WGS84_E2) * p.x.hypot(p.y));
    Some((p.y.atan2(p.x), lat))
}

fn contains(tile: &Tile, lon: f64, lat: f64) -> bool {
    let BoundingVolume::Region(r) = tile.bounding_volume else {
        return false;
    };
    let e = 1e-12;
    let mut dl = lon - r.west;
    if dl < -e {
        dl += std::f64::consts::TAU;
    }
    dl <= r.width() + e && lat >= r.south - e && lat <= r.north + e
}

/// Whether the ground point lies under a rendered tile: down the quadtree from the
/// root along the tiles that hold it.
fn covered(graph: &Graph, root: NodeId, shown: &HashSet<NodeId>, lon: f64, lat: f64) -> bool {
    let mut node = Some(root);
    while let Some(n) = node {
        if shown.contains(&n) {
            return true;
        }
        node = graph
            .children(n)
            .unwrap()
            .find(|&c| contains(graph.get::<Tile>(c).unwrap(), lon, lat));
    }
    false
}

#[test]
fn the_flight_over_a_billion_tiles_never_shows_a_hole_and_stays_in_budget() {
    let planet = Planet::new(16);
    assert!(planet.tile_count() > 1_000_000_000);
    let options = SelectionOptions {
        budget_bytes: 256 << 20,
        threads: 0,
        ..SelectionOptions::default()
    };
    let mut s = TileSelection::open(planet.loader(), "tileset.json", options).unwrap();
    let flight = Planet::flight(48);
    let mut deepest = 0;
    let mut rays_hit = 0;
    for (frame, view) in flight.iter().enumerate() {
        let f = *s.update(view).unwrap();
        assert!(f.bytes_held <= options.budget_bytes, "frame {frame}: {f:?}");
        assert_eq!(f.failed, 0);
        // The root's subtree comes in the first frame, its contents in the second:
        // until then there is nothing to show.
        if frame < 2 {
            continue;
        }
        let shown: HashSet<NodeId> = s.rendered().iter().copied().collect();
        assert_eq!(shown.len(), s.rendered().len());
        for &n in s.rendered() {
            let level = s
                .graph()
                .get::<Tile>(n)
                .unwrap()
                .implicit
                .as_ref()
                .unwrap()
                .level;
            deepest = deepest.max(level);
        }
        let forward = view.direction.normalize();
        let right = forward.cross(view.up).normalize();
        let up = right.cross(forward);
        let half = (0.5 * view.fovy).tan();
        for j in 0..64 {
            for i in 0..64 {
                let x = ((i as f64 + 0.5) / 32.0 - 1.0) * half * view.aspect;
                let y = ((j as f64 + 0.5) / 32.0 - 1.0) * half;
                let Some((lon, lat)) = hit(view.position, forward + right * x + up * y) else {
                    continue;
                };
                rays_hit += 1;
                assert!(
                    covered(s.graph(), s.root(), &shown, lon, lat),
                    "frame {frame}: a hole at ({lon}, {lat}); {f:?}"
                );
            }
        }
    }
    assert!(
        rays_hit > 40 * 64 * 64 / 2,
        "{rays_hit} rays hit the ground"
    );
    assert!(deepest >= 12, "the flight refined to level {deepest} only");
}
