//! Bounding volumes of tiles: the three kinds a tileset declares, their world placement
//! (in f64: tilesets live in Earth-centred coordinates, where f32 is metres off), the
//! region → box conversion, distances and the frustum test.

use crate::Frustum;
use scenewalk_core::glam::{DMat3, DMat4, DVec3};

/// WGS84 semi-major axis (metres).
pub const WGS84_A: f64 = 6_378_137.0;
/// WGS84 first eccentricity squared.
pub const WGS84_E2: f64 = 6.694_379_990_141_316e-3;

/// A bounding volume as a tileset declares it, in the tile's own frame (a region is in
/// geographic coordinates and ignores transforms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoundingVolume {
    /// `box`: a centre and three half-axes.
    Box(OrientedBox),
    /// `region`: longitudes, latitudes (radians) and heights (metres) on WGS84.
    Region(Region),
    /// `sphere`: a centre and a radius.
    Sphere(Sphere),
}

/// A placed bounding volume: what culling and distances use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Volume {
    /// An oriented box.
    Box(OrientedBox),
    /// A sphere.
    Sphere(Sphere),
}

/// An oriented box: `center ± half_axes.x_axis ± half_axes.y_axis ± half_axes.z_axis`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrientedBox {
    /// The centre.
    pub center: DVec3,
    /// The three half-axes, as columns.
    pub half_axes: DMat3,
}

/// A sphere.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    /// The centre.
    pub center: DVec3,
    /// The radius.
    pub radius: f64,
}

/// A geographic region on the WGS84 ellipsoid (radians, metres). `east < west` crosses
/// the antimeridian.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    /// Westmost longitude.
    pub west: f64,
    /// Southmost latitude.
    pub south: f64,
    /// Eastmost longitude.
    pub east: f64,
    /// Northmost latitude.
    pub north: f64,
    /// Lowest height above the ellipsoid.
    pub min_height: f64,
    /// Highest height above the ellipsoid.
    pub max_height: f64,
}

/// Earth-centred, Earth-fixed coordinates of a geodetic point on WGS84.
pub fn geodetic_to_ecef(longitude: f64, latitude: f64, height: f64) -> DVec3 {
    let (sin_lat, cos_lat) = latitude.sin_cos();
    let (sin_lon, cos_lon) = longitude.sin_cos();
    let n = WGS84_A / (1.0 - WGS84_E2 * sin_lat * sin_lat).sqrt();
    DVec3::new(
        (n + height) * cos_lat * cos_lon,
        (n + height) * cos_lat * sin_lon,
        (n * (1.0 - WGS84_E2) + height) * sin_lat,
    )
}

/// The east, north and up unit vectors at a geodetic longitude and latitude.
pub fn east_north_up(longitude: f64, latitude: f64) -> DMat3 {
    let (sin_lat, cos_lat) = latitude.sin_cos();
    let (sin_lon, cos_lon) = longitude.sin_cos();
    DMat3::from_cols(
        DVec3::new(-sin_lon, cos_lon, 0.0),
        DVec3::new(-sin_lat * cos_lon, -sin_lat * sin_lon, cos_lat),
        DVec3::new(cos_lat * cos_lon, cos_lat * sin_lon, sin_lat),
    )
}

/// Samples per side of the grid [`Region::to_box`] fits.
const REGION_SAMPLES: usize = 9;

impl Region {
    /// The longitude span (radians), across the antimeridian where `east < west`.
    pub fn width(&self) -> f64 {
        let w = self.east - self.west;
        if w < 0.0 {
            w + std::f64::consts::TAU
        } else {
            w
        }
    }

    /// The geodetic point at fractions `(u, v)` of the span and height `h`.
    pub fn at(&self, u: f64, v: f64, h: f64) -> DVec3 {
        let lon = self.west + u * self.width();
        let lat = self.south + v * (self.north - self.south);
        geodetic_to_ecef(lon, lat, h)
    }

    /// An oriented box in Earth-centred coordinates that holds the whole region: axes
    /// east, north and up at the region's centre, fitted to a grid of points on the
    /// lowest and highest surfaces and grown by twice the largest gap between the
    /// surface and the grid's chords (so points between samples stay inside).
    pub fn to_box(&self) -> OrientedBox {
        let lon = self.west + 0.5 * self.width();
        let lat = 0.5 * (self.south + self.north);
        let axes = east_north_up(lon, lat);
        let origin = geodetic_to_ecef(lon, lat, 0.0);
        let mut lo = DVec3::splat(f64::INFINITY);
        let mut hi = DVec3::splat(f64::NEG_INFINITY);
        let last = (REGION_SAMPLES - 1) as f64;
        for i in 0..REGION_SAMPLES {
            for j in 0..REGION_SAMPLES {
                for h in [self.min_height, self.max_height] {
                    let p = self.at(i as f64 / last, j as f64 / last, h) - origin;
                    let local = axes.transpose() * p;
                    lo = lo.min(local);
                    hi = hi.max(local);
                }
            }
        }
        let step = self.width().max((self.north - self.south).abs()) / last;
        let radius = WGS84_A + self.max_height.abs().max(self.min_height.abs());
        let pad = 2.0 * radius * (1.0 - (0.5 * step).cos());
        let (lo, hi) = (lo - DVec3::splat(pad), hi + DVec3::splat(pad));
        let half = 0.5 * (hi - lo);
        OrientedBox {
            center: origin + axes * (0.5 * (hi + lo)),
            half_axes: DMat3::from_cols(
                axes.x_axis * half.x,
                axes.y_axis * half.y,
                axes.z_axis * half.z,
            ),
        }
    }
}

impl BoundingVolume {
    /// The volume placed by a tile's world `transform` (a region ignores it).
    pub fn place(&self, transform: &DMat4) -> Volume {
        let m = DMat3::from_mat4(*transform);
        match self {
            BoundingVolume::Box(b) => Volume::Box(OrientedBox {
                center: transform.transform_point3(b.center),
                half_axes: m * b.half_axes,
            }),
            BoundingVolume::Sphere(s) => {
                let scale = m
                    .x_axis
                    .length()
                    .max(m.y_axis.length())
                    .max(m.z_axis.length());
                Volume::Sphere(Sphere {
                    center: transform.transform_point3(s.center),
                    radius: s.radius * scale,
                })
            }
            BoundingVolume::Region(r) => Volume::Box(r.to_box()),
        }
    }

    /// Whether every number is finite (and a radius, a half-axis length or a height
    /// span is not negative).
    pub fn is_valid(&self) -> bool {
        match self {
            BoundingVolume::Box(b) => b.center.is_finite() && b.half_axes.is_finite(),
            BoundingVolume::Sphere(s) => {
                s.center.is_finite() && s.radius.is_finite() && s.radius >= 0.0
            }
            BoundingVolume::Region(r) => {
                [r.west, r.south, r.east, r.north, r.min_height, r.max_height]
                    .iter()
                    .all(|v| v.is_finite())
                    && r.south <= r.north
                    && r.min_height <= r.max_height
            }
        }
    }
}

impl OrientedBox {
    /// The eight corners.
    pub fn corners(&self) -> [DVec3; 8] {
        let [a, b, c] = [
            self.half_axes.x_axis,
            self.half_axes.y_axis,
            self.half_axes.z_axis,
        ];
        [0, 1, 2, 3, 4, 5, 6, 7].map(|i: u32| {
            let s = |bit: u32| if i & bit == 0 { -1.0 } else { 1.0 };
            self.center + a * s(1) + b * s(2) + c * s(4)
        })
    }

    /// Unit axes and half-lengths; a zero-length axis takes the normal of the other two.
    fn frame(&self) -> Option<([DVec3; 3], DVec3)> {
        let [a, b, c] = [
            self.half_axes.x_axis,
            self.half_axes.y_axis,
            self.half_axes.z_axis,
        ];
        let ua = a.try_normalize().or_else(|| b.cross(c).try_normalize())?;
        let ub = b.try_normalize().or_else(|| c.cross(a).try_normalize())?;
        let uc = c.try_normalize().or_else(|| a.cross(b).try_normalize())?;
        Some(([ua, ub, uc], DVec3::new(a.length(), b.length(), c.length())))
    }
}

impl Volume {
    /// The distance from `point` to the volume (0 inside): exact for a sphere and for a
    /// box with perpendicular axes (as tilesets declare them; a shearing transform
    /// makes it an estimate).
    pub fn distance(&self, point: DVec3) -> f64 {
        match self {
            Volume::Sphere(s) => (point.distance(s.center) - s.radius).max(0.0),
            Volume::Box(b) => match b.frame() {
                Some(([ua, ub, uc], half)) => {
                    let d = point - b.center;
                    let outside = DVec3::new(
                        (d.dot(ua).abs() - half.x).max(0.0),
                        (d.dot(ub).abs() - half.y).max(0.0),
                        (d.dot(uc).abs() - half.z).max(0.0),
                    );
                    outside.length()
                }
                // Two or three zero axes: the bounding sphere's distance.
                None => (point.distance(b.center) - self.radius()).max(0.0),
            },
        }
    }

    /// The centre.
    pub fn center(&self) -> DVec3 {
        match self {
            Volume::Sphere(s) => s.center,
            Volume::Box(b) => b.center,
        }
    }

    /// The radius of a sphere about the centre that holds the volume.
    pub fn radius(&self) -> f64 {
        match self {
            Volume::Sphere(s) => s.radius,
            Volume::Box(b) => {
                (b.half_axes.x_axis.abs() + b.half_axes.y_axis.abs() + b.half_axes.z_axis.abs())
                    .length()
            }
        }
    }

    /// Whether the volume lies wholly beyond one plane of `frustum`, a frustum built
    /// for a camera at the origin (rotation only) whose world position is `eye`: the
    /// test runs in f64 relative to the eye. Per plane it is exact (a box is beyond a
    /// plane exactly when its eight corners are); like [`Frustum::classify`] it is
    /// conservative as a whole. NaN counts as visible.
    pub fn outside(&self, frustum: &Frustum, eye: DVec3) -> bool {
        let center = self.center() - eye;
        frustum.planes().iter().any(|plane| {
            let n = plane.truncate().as_dvec3();
            let s = n.dot(center) + f64::from(plane.w);
            let r = match self {
                Volume::Sphere(sp) => sp.radius,
                Volume::Box(b) => {
                    n.dot(b.half_axes.x_axis).abs()
                        + n.dot(b.half_axes.y_axis).abs()
                        + n.dot(b.half_axes.z_axis).abs()
                }
            };
            s + r < 0.0
        })
    }
}
