//! Procedural meshes: sphere, box, torus, grid.

use crate::mesh::{Mesh, MeshError};
use scenewalk_core::glam::{BVec3, Vec2, Vec3};
use std::f32::consts::TAU;
use std::ops::Range;

/// The most triangles (and vertices) a procedural shape may have, 2²⁶ (1.6 GB of
/// triangles and BVH): a typo in a segment count is an error, not a failed allocation.
pub const MAX_SHAPE_TRIANGLES: u64 = 1 << 26;

/// Refuses shapes past [`MAX_SHAPE_TRIANGLES`] (the counts are computed saturating).
fn check_size(vertices: u64, triangles: u64) -> Result<(), MeshError> {
    let count = usize::try_from(triangles).unwrap_or(usize::MAX);
    let fits = vertices <= MAX_SHAPE_TRIANGLES && triangles <= MAX_SHAPE_TRIANGLES;
    fits.then_some(()).ok_or(MeshError::TooManyTriangles(count))
}

/// Two triangles for each quad `a b c d` (counter-clockwise).
fn quads(quads: impl IntoIterator<Item = [u32; 4]>) -> impl Iterator<Item = [u32; 3]> {
    quads
        .into_iter()
        .flat_map(|[a, b, c, d]| [[a, b, c], [a, c, d]])
}

/// The cells `(r, c)` of a patch, row by row: `r` in `rows`, `c` in `0..cols`.
fn patch(rows: Range<u32>, cols: u32) -> impl Iterator<Item = (u32, u32)> {
    rows.flat_map(move |r| (0..cols).map(move |c| (r, c)))
}

impl Mesh {
    /// A sphere of `radius` around the origin, with `segments` (at least 3) around the
    /// Y axis and `rings` (at least 2) from pole to pole: `2 · segments · (rings − 1)`
    /// triangles, at most [`MAX_SHAPE_TRIANGLES`]. All shapes refuse NaN and infinity.
    pub fn uv_sphere(radius: f32, segments: u32, rings: u32) -> Result<Mesh, MeshError> {
        let (segments, rings) = (segments.max(3), rings.max(2));
        let (s, r) = (u64::from(segments), u64::from(rings));
        let bands = s.saturating_mul(r - 1);
        check_size(bands.saturating_add(2), bands.saturating_mul(2))?;
        let mut positions = vec![Vec3::Y * radius];
        positions.extend(patch(1..rings, segments).map(|(ring, seg)| {
            let polar = std::f32::consts::PI * ring as f32 / rings as f32;
            let azimuth = TAU * seg as f32 / segments as f32;
            let (sin, cos) = (polar.sin(), polar.cos());
            Vec3::new(sin * azimuth.cos(), cos, sin * azimuth.sin()) * radius
        }));
        let south = positions.len() as u32;
        positions.push(-Vec3::Y * radius);
        let at = |ring: u32, seg: u32| 1 + (ring - 1) * segments + seg % segments;
        let mut triangles = Vec::new();
        for seg in 0..segments {
            triangles.push([0, at(1, seg + 1), at(1, seg)]);
            triangles.push([south, at(rings - 1, seg), at(rings - 1, seg + 1)]);
        }
        triangles
            .extend(quads(patch(1..rings - 1, segments).map(|(r, s)| {
                [at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r + 1, s)]
            })));
        Mesh::new(positions, triangles)
    }

    /// A box from `-half_extents` to `half_extents`: 8 vertices, 12 triangles.
    pub fn cuboid(half_extents: Vec3) -> Result<Mesh, MeshError> {
        // Corner `i` takes the upper bound on axis `k` where bit `k` of `i` is set.
        let corner = |i: u32| BVec3::new(i & 1 != 0, i & 2 != 0, i & 4 != 0);
        let h = half_extents;
        let positions = (0..8).map(|i| Vec3::select(corner(i), h, -h)).collect();
        let triangles = quads([
            [0, 4, 6, 2], // -x
            [1, 3, 7, 5], // +x
            [0, 1, 5, 4], // -y
            [2, 6, 7, 3], // +y
            [0, 2, 3, 1], // -z
            [4, 5, 7, 6], // +z
        ]);
        Mesh::new(positions, triangles.collect())
    }

    /// A torus around the Y axis: a tube of radius `minor` whose centre circles at
    /// radius `major`, with `segments` (at least 3) around the axis and `sides` (at
    /// least 3) around the tube: `2 · segments · sides` triangles.
    pub fn torus(major: f32, minor: f32, segments: u32, sides: u32) -> Result<Mesh, MeshError> {
        let (segments, sides) = (segments.max(3), sides.max(3));
        let (s, k) = (u64::from(segments), u64::from(sides));
        check_size(s.saturating_mul(k), s.saturating_mul(k).saturating_mul(2))?;
        let positions = patch(0..segments, sides).map(|(seg, side)| {
            let (sin, cos) = (TAU * seg as f32 / segments as f32).sin_cos();
            let tube = TAU * side as f32 / sides as f32;
            let r = major + minor * tube.cos();
            Vec3::new(r * cos, minor * tube.sin(), r * sin)
        });
        let at = |seg: u32, side: u32| (seg % segments) * sides + side % sides;
        let triangles = quads(
            patch(0..segments, sides)
                .map(|(g, s)| [at(g, s), at(g, s + 1), at(g + 1, s + 1), at(g + 1, s)]),
        );
        Mesh::new(positions.collect(), triangles.collect())
    }

    /// A flat grid in the XZ plane (y = 0), centred on the origin, `size` across, of
    /// `cells.0 × cells.1` squares (each at least 1), two triangles each.
    pub fn grid(size: Vec2, cells: (u32, u32)) -> Result<Mesh, MeshError> {
        let (nx, nz) = (cells.0.max(1), cells.1.max(1));
        let (x, z) = (u64::from(nx), u64::from(nz));
        check_size((x + 1).saturating_mul(z + 1), (2 * x).saturating_mul(z))?;
        let positions = patch(0..nz + 1, nx + 1).map(|(j, i)| {
            let (u, v) = (i as f32 / nx as f32 - 0.5, j as f32 / nz as f32 - 0.5);
            Vec3::new(size.x * u, 0.0, size.y * v)
        });
        let at = |i: u32, j: u32| j * (nx + 1) + i;
        let triangles = quads(
            patch(0..nz, nx).map(|(j, i)| [at(i, j), at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]),
        );
        Mesh::new(positions.collect(), triangles.collect())
    }
}
