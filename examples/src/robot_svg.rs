//! A robot's collision geometry as an SVG side view: every triangle placed at its
//! link's pose, projected along +y onto the x–z plane (x right, z up), drawn back to
//! front (painter's order by mean depth) with flat shading; colliding links in red.

use scenewalk_actors::{LinkPair, SelfCollision};
use scenewalk_core::glam::{Affine3A, Vec3};
use std::fmt::Write as _;

/// Width and height of the picture, in SVG units.
const SIZE: (f32, f32) = (900.0, 700.0);
/// The margin around the drawing.
const MARGIN: f32 = 30.0;

/// The SVG text of the side view of `model`'s meshes at `poses` (indexed by link),
/// the links of `colliding` pairs drawn red, with `title` at the top.
pub fn side_view(
    model: &SelfCollision,
    poses: &[Affine3A],
    colliding: &[LinkPair],
    title: &str,
) -> String {
    let hit: std::collections::BTreeSet<usize> =
        colliding.iter().flat_map(|p| [p.a, p.b]).collect();
    // (depth, corners on the x–z plane, fill)
    let mut faces: Vec<(f32, [[f32; 2]; 3], [u8; 3])> = Vec::new();
    let light = Vec3::new(-0.4, -1.0, 0.7).normalize();
    for m in model.meshes() {
        let Some(pose) = poses.get(m.link) else {
            continue;
        };
        let to_world = *pose * m.placement;
        let base = if hit.contains(&m.link) {
            [220.0, 50.0, 40.0]
        } else {
            hue(m.link)
        };
        for i in 0..m.mesh.triangles().len() as u32 {
            let Some(t) = m.mesh.triangle(i) else {
                continue;
            };
            let w = t.map(|p| to_world.transform_point3(p));
            let normal = (w[1] - w[0]).cross(w[2] - w[0]).normalize_or_zero();
            let shade = 0.35 + 0.65 * normal.dot(light).abs();
            let fill = base.map(|c: f32| (c * shade).clamp(0.0, 255.0) as u8);
            let depth = (w[0].y + w[1].y + w[2].y) / 3.0;
            faces.push((depth, w.map(|p| [p.x, p.z]), fill));
        }
    }
    // Back to front: looking along +y, the largest y is farthest.
    faces.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for (_, corners, _) in &faces {
        for c in corners {
            for k in 0..2 {
                lo[k] = lo[k].min(c[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
    }
    if faces.is_empty() {
        (lo, hi) = ([-1.0; 2], [1.0; 2]);
    }
    let span = [(hi[0] - lo[0]).max(1e-6), (hi[1] - lo[1]).max(1e-6)];
    let scale = ((SIZE.0 - 2.0 * MARGIN) / span[0]).min((SIZE.1 - 2.0 * MARGIN - 20.0) / span[1]);
    // Centred across, standing on the bottom margin.
    let left = MARGIN + ((SIZE.0 - 2.0 * MARGIN) - span[0] * scale) / 2.0;
    let at = |c: [f32; 2]| {
        let x = left + (c[0] - lo[0]) * scale;
        let y = SIZE.1 - MARGIN - (c[1] - lo[1]) * scale;
        (x, y)
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}">"#,
        SIZE.0, SIZE.1, SIZE.0, SIZE.1
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{MARGIN}" y="22" font-family="sans-serif" font-size="15">{}: side view along +y (x right, z up), {} triangles{}</text>"#,
        escape(title),
        faces.len(),
        if hit.is_empty() {
            ""
        } else {
            "; colliding links in red"
        }
    );
    for (_, corners, [r, g, b]) in &faces {
        let points: Vec<String> = corners
            .iter()
            .map(|&c| {
                let (x, y) = at(c);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        // The stroke in the fill's colour closes the hairline gaps between faces.
        let _ = writeln!(
            svg,
            r#"<polygon points="{}" fill="rgb({r},{g},{b})" stroke="rgb({r},{g},{b})" stroke-width="0.4"/>"#,
            points.join(" ")
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A muted colour per link.
fn hue(link: usize) -> [f32; 3] {
    const PALETTE: [[f32; 3]; 6] = [
        [120.0, 150.0, 200.0],
        [150.0, 190.0, 140.0],
        [210.0, 180.0, 120.0],
        [170.0, 140.0, 200.0],
        [120.0, 190.0, 190.0],
        [200.0, 150.0, 160.0],
    ];
    PALETTE[link % PALETTE.len()]
}

/// `s` with the XML special characters escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
