//! Pictures of a scene as SVG: its triangles projected and flat-shaded, painted back to
//! front, with the view frustum's outline, the camera, rays, hits and a scale bar.
//!
//! A [`Picture`] looks from one [`View`] ([`Projection`]): from above, the front or
//! the side (orthographic, framed around the triangles drawn), or through the scene's
//! camera (its frame). Each triangle is shaded by the angle between its normal and a
//! light from the viewer's upper left. What a renderer would not show is left out:
//! triangles hidden behind nearer ones, and those smaller than a pixel merged into
//! pixel squares (a coverage grid filled front to back), coarser as needed to keep the picture under
//! [`MAX_TRIANGLES`] triangles and [`TRIANGLE_BYTES`] (about 2 MB in all).
//! Consecutive triangles of one shade share one path; coordinates are pixels with one decimal, computed in double precision,
//! so a model a few thousandths of a unit across or a million units from the origin
//! keeps its shape.

mod cover;
mod projection;

pub use projection::{Projection, View};

use cover::Flat;
use scenewalk_core::Aabb;
use scenewalk_core::glam::{DVec2, DVec3, Vec3};
use std::fmt::Write;

/// How a shape is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Geometry the view pass draws: shaded, opaque.
    Visible,
    /// Geometry the view pass culled (or did not reach): shaded grey, faint.
    Culled,
    /// The view frustum's outline.
    Frustum,
    /// A pick ray.
    Ray,
    /// A pick hit.
    Hit,
    /// A collision contact.
    Contact,
    /// The camera.
    Camera,
}

impl Style {
    const ALL: [Style; 7] = [
        Style::Visible,
        Style::Culled,
        Style::Frustum,
        Style::Ray,
        Style::Hit,
        Style::Contact,
        Style::Camera,
    ];

    /// The CSS class of the style.
    fn class(self) -> &'static str {
        match self {
            Style::Visible => "visible",
            Style::Culled => "culled",
            Style::Frustum => "frustum",
            Style::Ray => "ray",
            Style::Hit => "hit",
            Style::Contact => "contact",
            Style::Camera => "camera",
        }
    }

    /// The CSS rule of the style (sizes in pixels of the picture); shaded styles get
    /// their fill per path.
    fn rule(self) -> &'static str {
        match self {
            Style::Visible => {
                "fill:currentColor;stroke:currentColor;stroke-width:.4;stroke-linejoin:round"
            }
            Style::Culled => "fill:currentColor;fill-opacity:.3;stroke:none",
            Style::Frustum => "fill:none;stroke:#e65100;stroke-width:1.5;stroke-dasharray:6 3",
            Style::Ray => "stroke:#d32f2f;stroke-width:1.5;fill:none",
            Style::Hit => "fill:#d32f2f;stroke:#fff;stroke-width:1",
            Style::Contact => "fill:#7b1fa2;stroke:#fff;stroke-width:1",
            Style::Camera => "fill:#fff;stroke:#212121;stroke-width:2",
        }
    }

    /// The colour a shaded style starts from (lit straight on), for object `hue`.
    fn base(self, hue: u8) -> Option<DVec3> {
        let palette = |k: u8| match k % 6 {
            0 => DVec3::new(120.0, 170.0, 215.0),
            1 => DVec3::new(230.0, 160.0, 90.0),
            2 => DVec3::new(140.0, 200.0, 130.0),
            3 => DVec3::new(215.0, 130.0, 150.0),
            4 => DVec3::new(180.0, 160.0, 220.0),
            _ => DVec3::new(215.0, 200.0, 120.0),
        };
        match self {
            Style::Visible => Some(palette(hue)),
            Style::Culled => Some(DVec3::new(125.0, 125.0, 125.0)),
            _ => None,
        }
    }

    /// The legend's swatch for a style without a fill of its own.
    fn swatch(self) -> String {
        match self.base(0) {
            Some(base) => format!(r#" color="{}""#, colour(base * 0.8)),
            None => String::new(),
        }
    }

    /// A dot's radius in pixels.
    fn radius(self) -> f64 {
        match self {
            Style::Contact => 6.0,
            Style::Camera => 7.0,
            _ => 4.0,
        }
    }
}

/// The most triangles a picture writes (coarser merging beyond, as the module says): about
/// 2 MB of SVG at some 70 bytes a triangle.
pub const MAX_TRIANGLES: usize = 26_000;
/// The most bytes of triangles a picture writes (with its other shapes, about 2 MB).
pub const TRIANGLE_BYTES: usize = 1_950_000;
/// The pixels across the wider side of the picture.
const PIXELS: f64 = 1000.0;
/// The height of a legend line, in pixels.
const LINE: f64 = 20.0;
/// The least width of the page, for the legend.
const LEGEND_WIDTH: f64 = 720.0;
/// The room below the picture, for the scale bar.
const FOOT: f64 = 34.0;
/// Shades between dark and lit.
const SHADES: f64 = 24.0;
/// How much darker the farthest triangle is than the nearest (a depth cue).
const FOG: f64 = 0.35;

/// A triangle as projected: picture coordinates, depth, shade and style.
#[derive(Clone, Copy, Debug)]
struct Projected {
    corners: [DVec2; 3],
    depth: f64,
    /// The light it gets, 0..=1.
    lit: f64,
    style: Style,
    hue: u8,
}

/// A picture being drawn: shapes projected as they are added.
///
/// ```
/// use scenewalk_core::{Aabb, glam::Vec3};
/// use scenewalk_examples::svg::{Picture, Projection, Style, View};
/// let mut picture = Picture::new("a box", Projection::orthographic(View::Top));
/// picture.cuboid(&Aabb::new(Vec3::ZERO, Vec3::splat(0.01)), Style::Visible);
/// picture.line(Vec3::ZERO, Vec3::splat(1e6), Style::Ray); // cut at the frame
/// picture.legend(Style::Visible, "a box");
/// picture.legend(Style::Hit, "hits"); // none drawn: not listed
/// let svg = picture.finish();
/// assert!(svg.starts_with("<svg") && svg.contains("<path"));
/// assert!(svg.contains("a box") && !svg.contains("hits"));
/// ```
#[derive(Clone, Debug)]
pub struct Picture {
    title: String,
    projection: Projection,
    /// The light, in world space (toward it), and the viewer's away direction.
    light: DVec3,
    away: DVec3,
    triangles: Vec<Projected>,
    lines: Vec<(DVec2, DVec2, Style)>,
    dots: Vec<(DVec2, Style)>,
    outlines: Vec<(Vec<DVec2>, Style)>,
    /// The camera's place and the direction it looks, projected.
    camera: Option<(DVec2, DVec2)>,
    /// The footprint of the triangles, and of every shape.
    framed: Option<(DVec2, DVec2)>,
    everything: Option<(DVec2, DVec2)>,
    legend: Vec<(Style, String)>,
    /// The colour of the object being drawn.
    hue: u8,
    /// The box to frame around instead of the triangles.
    focus: Option<(DVec2, DVec2)>,
}

fn grow(extent: &mut Option<(DVec2, DVec2)>, p: DVec2) {
    *extent = Some(match *extent {
        Some((lo, hi)) => (lo.min(p), hi.max(p)),
        None => (p, p),
    });
}

/// `#rrggbb` of a colour in 0..=255 per channel.
fn colour(c: DVec3) -> String {
    let c = c.clamp(DVec3::ZERO, DVec3::splat(255.0)).round();
    format!("#{:02x}{:02x}{:02x}", c.x as u8, c.y as u8, c.z as u8)
}

impl Picture {
    /// An empty picture with a title, seen through `projection`.
    pub fn new(title: impl Into<String>, projection: Projection) -> Self {
        let [right, down, away] = projection.basis();
        let light = (-0.45 * right - 0.6 * down - 0.65 * away).normalize_or_zero();
        Self {
            title: title.into(),
            projection,
            light,
            away,
            triangles: Vec::new(),
            lines: Vec::new(),
            dots: Vec::new(),
            outlines: Vec::new(),
            camera: None,
            framed: None,
            everything: None,
            legend: Vec::new(),
            hue: 0,
            focus: None,
        }
    }

    /// The projection.
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// Frames the picture around the world box `b` instead of every triangle (not
    /// through a camera, whose frame is its view); an empty box changes nothing.
    pub fn focus(&mut self, b: &Aabb) {
        if b.is_empty() || !b.is_finite() {
            return;
        }
        let mut around = None;
        for k in 0..8 {
            let corner = Vec3::new(
                if k & 1 == 0 { b.min.x } else { b.max.x },
                if k & 2 == 0 { b.min.y } else { b.max.y },
                if k & 4 == 0 { b.min.z } else { b.max.z },
            );
            if let Some(p) = self.project(corner) {
                grow(&mut around, p.truncate());
            }
        }
        self.focus = around;
    }

    /// Starts the `k`th object: the triangles drawn after this call get its colour
    /// (a few colours in turn), so that touching objects stay apart.
    pub fn object(&mut self, k: usize) {
        self.hue = (k % 6) as u8;
    }

    fn project(&self, p: Vec3) -> Option<DVec3> {
        self.projection.project(p)
    }

    /// Draws a world-space triangle, shaded; the picture is framed around these.
    /// Triangles that are not finite, or that reach behind the camera's near plane,
    /// are skipped.
    pub fn triangle(&mut self, corners: [Vec3; 3], style: Style) {
        let [Some(a), Some(b), Some(c)] = corners.map(|p| self.project(p)) else {
            return;
        };
        let [p, q, r] = corners.map(Vec3::as_dvec3);
        let mut normal = (q - p).cross(r - p).normalize_or_zero();
        if normal.dot(self.away) > 0.0 {
            normal = -normal; // the face seen
        }
        let lit = normal.dot(self.light).max(0.0);
        let corners = [a, b, c].map(|p| p.truncate());
        for &p in &corners {
            grow(&mut self.framed, p);
            grow(&mut self.everything, p);
        }
        self.triangles.push(Projected {
            corners,
            depth: (a.z + b.z + c.z) / 3.0,
            lit,
            style,
            hue: self.hue,
        });
    }

    /// Draws a box as its twelve triangles (empty or non-finite boxes are skipped).
    pub fn cuboid(&mut self, b: &Aabb, style: Style) {
        if b.is_empty() || !b.is_finite() {
            return;
        }
        let corner = |k: usize| {
            Vec3::new(
                if k & 1 == 0 { b.min.x } else { b.max.x },
                if k & 2 == 0 { b.min.y } else { b.max.y },
                if k & 4 == 0 { b.min.z } else { b.max.z },
            )
        };
        const FACES: [[usize; 4]; 6] = [
            [0, 1, 3, 2],
            [4, 6, 7, 5],
            [0, 4, 5, 1],
            [2, 3, 7, 6],
            [0, 2, 6, 4],
            [1, 5, 7, 3],
        ];
        for [a, b, c, d] in FACES {
            self.triangle([corner(a), corner(b), corner(c)], style);
            self.triangle([corner(a), corner(c), corner(d)], style);
        }
    }

    /// Draws the outline of the points' projections (their convex hull): the frustum
    /// from its corners. Not framed around.
    pub fn outline(&mut self, points: &[Vec3], style: Style) {
        let projected = points.iter().filter_map(|&p| self.project(p));
        let hull = convex_hull(projected.map(|p| p.truncate()).collect());
        if hull.len() >= 3 {
            hull.iter().for_each(|&p| grow(&mut self.everything, p));
            self.outlines.push((hull, style));
        }
    }

    /// Draws a segment (skipped where an end does not project).
    pub fn line(&mut self, a: Vec3, b: Vec3, style: Style) {
        if let (Some(a), Some(b)) = (self.project(a), self.project(b)) {
            let (a, b) = (a.truncate(), b.truncate());
            grow(&mut self.everything, a);
            grow(&mut self.everything, b);
            self.lines.push((a, b, style));
        }
    }

    /// Draws a dot (its size in pixels, by style).
    pub fn dot(&mut self, p: Vec3, style: Style) {
        if let Some(p) = self.project(p) {
            grow(&mut self.everything, p.truncate());
            self.dots.push((p.truncate(), style));
        }
    }

    /// Marks the camera at `eye`, looking along `forward`: a dot with a stroke
    /// toward where it looks, at the frame's edge when it stands beyond it. Not drawn
    /// in the camera's own view.
    pub fn camera(&mut self, eye: Vec3, forward: Vec3) {
        if self.projection.view() == View::Camera {
            return;
        }
        let (Some(at), Some(ahead)) = (self.project(eye), self.project(eye + forward)) else {
            return;
        };
        let direction = (ahead - at).truncate().normalize_or_zero();
        self.camera = Some((at.truncate(), direction));
    }

    /// Adds a line to the legend; [`finish`](Picture::finish) leaves out the lines
    /// of styles nothing was drawn in.
    pub fn legend(&mut self, style: Style, text: impl Into<String>) {
        self.legend.push((style, text.into()));
    }

    /// Where a world point lands in the finished picture, in pixels of its `viewBox`
    /// (`None` where it does not project).
    pub fn pixel(&self, p: Vec3) -> Option<DVec2> {
        let frame = self.frame();
        self.project(p).map(|p| frame.at(p.truncate()))
    }

    /// The frame: through a camera, what it sees; else around the triangles (around
    /// every shape when there are none), with a margin.
    fn frame(&self) -> Frame {
        let (lo, hi) = self.extent();
        let scale = PIXELS / (hi - lo).max_element();
        let size = (hi - lo) * scale;
        let top = LINE * (self.shown_legend((lo, hi)).len() as f64 + 1.5);
        let page = size.x.max(LEGEND_WIDTH);
        Frame {
            lo,
            scale,
            size,
            offset: DVec2::new((page - size.x) / 2.0, top),
            page: DVec2::new(page, top + size.y + FOOT),
        }
    }

    /// What the picture shows, in picture coordinates: through a camera, its view;
    /// else the focus, the triangles or every shape, with a margin.
    fn extent(&self) -> (DVec2, DVec2) {
        let (mut lo, mut hi) = match self.projection.frame() {
            Some((x, y)) => (DVec2::new(-x, -y), DVec2::new(x, y)),
            None => self
                .focus
                .or(self.framed)
                .or(self.everything)
                .unwrap_or((DVec2::ZERO, DVec2::ONE)),
        };
        if self.projection.frame().is_none() {
            // A flat or empty footprint gets a width of its own.
            let size = (hi - lo).max_element();
            let size = if size > 0.0 { size } else { 1.0 };
            let least = DVec2::splat(0.05 * size);
            let pad = (least - (hi - lo)).max(DVec2::ZERO) / 2.0 + 0.04 * size;
            (lo, hi) = (lo - pad, hi + pad);
        }
        (lo, hi)
    }

    /// Whether a frustum outline holds every corner of the frame (so none of it shows).
    fn outline_holds_frame(&self, frame: &Frame) -> bool {
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
            .map(|(x, y)| frame.offset + frame.size * DVec2::new(x, y));
        self.outlines.iter().any(|(hull, style)| {
            let hull: Vec<DVec2> = hull.iter().map(|&p| frame.at(p)).collect();
            *style == Style::Frustum && corners.iter().all(|&c| inside_convex(&hull, c))
        })
    }

    /// The legend lines whose style shows within `extent` (picture coordinates).
    fn shown_legend(&self, extent: (DVec2, DVec2)) -> Vec<&(Style, String)> {
        let (lo, hi) = extent;
        let inside = |p: DVec2| p.cmpge(lo).all() && p.cmple(hi).all();
        let crosses = |a: DVec2, b: DVec2| segment_meets_box(a, b, lo, hi);
        let overlaps = |c: &[DVec2; 3]| {
            let (min, max) = (c[0].min(c[1]).min(c[2]), c[0].max(c[1]).max(c[2]));
            min.cmple(hi).all() && max.cmpge(lo).all()
        };
        let holds_frame = |hull: &[DVec2]| {
            [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)]
                .iter()
                .all(|&c| inside_convex(hull, c))
        };
        let drawn = |style: Style| {
            self.triangles
                .iter()
                .any(|t| t.style == style && overlaps(&t.corners))
                || (self.lines.iter()).any(|&(a, b, s)| s == style && crosses(a, b))
                || (self.dots.iter()).any(|&(p, s)| s == style && inside(p))
                || self.outlines.iter().any(|(hull, s)| {
                    let edges = hull.iter().zip(hull.iter().cycle().skip(1));
                    *s == style
                        && (edges.into_iter().any(|(&a, &b)| crosses(a, b)) || holds_frame(hull))
                })
                || (style == Style::Camera && self.camera.is_some())
        };
        self.legend.iter().filter(|(s, _)| drawn(*s)).collect()
    }

    /// The SVG document: title and legend above, the picture, a scale bar below (not
    /// through a camera, whose picture has no one scale).
    pub fn finish(&self) -> String {
        let frame = self.frame();
        let (page, offset, size) = (frame.page, frame.offset, frame.size);
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {:.1} {:.1}" width="{:.0}" height="{:.0}">"#,
            page.x, page.y, page.x, page.y
        );
        out.push_str("<style>text{font-family:sans-serif;font-size:14px}");
        for style in Style::ALL {
            let _ = write!(out, ".{}{{{}}}", style.class(), style.rule());
        }
        out.push_str("</style>\n");
        let _ = writeln!(
            out,
            r##"<rect width="100%" height="100%" fill="#fafafa"/>
<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#fff" stroke="#bdbdbd"/>
<clipPath id="scene"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/></clipPath>
<text x="8" y="{:.1}">{}</text>"##,
            offset.x,
            offset.y,
            size.x,
            size.y,
            offset.x,
            offset.y,
            size.x,
            size.y,
            0.8 * LINE,
            escape(&self.title)
        );
        let camera_off = self.camera.map(|(at, _)| !frame.holds(frame.at(at)));
        for (k, (style, text)) in self.shown_legend(self.extent()).into_iter().enumerate() {
            let y = LINE * (k as f64 + 1.0);
            let note = match (style, camera_off) {
                (Style::Camera, Some(true)) => " (beyond the frame: shown at its edge)",
                (Style::Frustum, _) if self.outline_holds_frame(&frame) => {
                    " (it holds the whole frame)"
                }
                _ => "",
            };
            let _ = writeln!(
                out,
                r#"<rect class="{}"{} x="8" y="{:.1}" width="14" height="12"/><text x="28" y="{:.1}">{}{note}</text>"#,
                style.class(),
                style.swatch(),
                y + 4.0,
                y + 0.8 * LINE,
                escape(text)
            );
        }
        // The group says how coarse the coverage cells were (see `cover`).
        let (paths, cell) = self.write_triangles(&frame);
        let _ = writeln!(out, r#"<g clip-path="url(#scene)" data-cell="{cell}">"#);
        out.push_str(&paths);
        for (points, style) in &self.outlines {
            let mut path = String::new();
            for &p in points {
                let p = frame.at(p);
                let _ = write!(path, "{:.1},{:.1} ", p.x, p.y);
            }
            let _ = writeln!(
                out,
                r#"<polygon class="{}" points="{}"/>"#,
                style.class(),
                path.trim_end()
            );
        }
        for &(a, b, style) in &self.lines {
            let (a, b) = (frame.at(a), frame.at(b));
            let _ = writeln!(
                out,
                r#"<line class="{}" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
                style.class(),
                a.x,
                a.y,
                b.x,
                b.y
            );
        }
        for &(p, style) in &self.dots {
            let p = frame.at(p);
            let _ = writeln!(
                out,
                r#"<circle class="{}" cx="{:.1}" cy="{:.1}" r="{:.1}"/>"#,
                style.class(),
                p.x,
                p.y,
                style.radius()
            );
        }
        out.push_str("</g>\n");
        if let Some((at, direction)) = self.camera {
            let inset = frame.clamp(frame.at(at), 12.0);
            let tip = inset + direction * 24.0;
            let dash = if camera_off == Some(true) {
                r#" stroke-dasharray="3 2""#
            } else {
                ""
            };
            let _ = writeln!(
                out,
                r#"<line class="camera" x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/><circle class="camera"{dash} cx="{:.1}" cy="{:.1}" r="{:.1}"/>"#,
                inset.x,
                inset.y,
                tip.x,
                tip.y,
                inset.x,
                inset.y,
                Style::Camera.radius()
            );
        }
        if self.projection.frame().is_none() {
            scale_bar(&frame, &mut out);
        }
        out.push_str("</svg>\n");
        out
    }

    /// The triangles left after [`cover::visible`], back to front, consecutive ones
    /// of one style and shade in one path.
    fn write_triangles(&self, frame: &Frame) -> (String, f64) {
        let flat: Vec<Flat> = (self.triangles.iter())
            .map(|t| Flat {
                corners: t.corners.map(|p| frame.at(p) - frame.offset),
                depth: t.depth,
                faint: t.style != Style::Visible,
            })
            .collect();
        // Fewer triangles while the paths come out over the bytes allowed (where
        // shades change often, a path holds few triangles).
        let mut budget = MAX_TRIANGLES;
        loop {
            let mut paths = String::new();
            let cell = self.write_paths(&flat, budget, frame, &mut paths);
            if paths.len() <= TRIANGLE_BYTES || budget <= MAX_TRIANGLES / 16 {
                return (paths, cell);
            }
            let shrink = TRIANGLE_BYTES as f64 / paths.len() as f64 * 0.95;
            budget = (budget as f64 * shrink) as usize;
        }
    }

    /// The paths of at most `budget` triangles (more only past the coarsest cells);
    /// returns the cell size used.
    fn write_paths(&self, flat: &[Flat], budget: usize, frame: &Frame, out: &mut String) -> f64 {
        let (kept, cell) = cover::visible(flat, frame.size, budget);
        let (near, far) = (kept.iter().map(|&(i, _)| self.triangles[i].depth))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), d| {
                (lo.min(d), hi.max(d))
            });
        let range = if far > near { far - near } else { 1.0 };
        let mut open: Option<(Style, u8, u8)> = None;
        for (i, square) in kept {
            let t = &self.triangles[i];
            let fog = match t.style {
                Style::Visible => 1.0 - FOG * (t.depth - near) / range,
                _ => 1.0,
            };
            let shade = ((0.3 + 0.7 * t.lit) * fog * SHADES).round() as u8;
            if open != Some((t.style, t.hue, shade)) {
                if open.is_some() {
                    out.push_str("\"/>\n");
                }
                let base = t.style.base(t.hue).unwrap_or(DVec3::splat(128.0));
                let _ = write!(
                    out,
                    r#"<path class="{}" color="{}" d=""#,
                    t.style.class(),
                    colour(base * f64::from(shade) / SHADES)
                );
                open = Some((t.style, t.hue, shade));
            }
            if let Some(at) = square {
                let (a, b) = (at + frame.offset, at + frame.offset + cell);
                let _ = write!(
                    out,
                    "M{:.1} {:.1}L{:.1} {:.1} {:.1} {:.1} {:.1} {:.1}Z",
                    a.x, a.y, b.x, a.y, b.x, b.y, a.x, b.y
                );
                continue;
            }
            let [a, b, c] = t.corners.map(|p| frame.at(p));
            let _ = write!(
                out,
                "M{:.1} {:.1}L{:.1} {:.1} {:.1} {:.1}Z",
                a.x, a.y, b.x, b.y, c.x, c.y
            );
        }
        if open.is_some() {
            out.push_str("\"/>\n");
        }
        cell
    }
}

/// Picture coordinates to pixels of the page.
#[derive(Clone, Copy, Debug)]
struct Frame {
    lo: DVec2,
    /// Pixels per unit of picture coordinates.
    scale: f64,
    /// The picture's size in pixels, where it starts on the page, and the page's.
    size: DVec2,
    offset: DVec2,
    page: DVec2,
}

impl Frame {
    fn at(&self, p: DVec2) -> DVec2 {
        (p - self.lo) * self.scale + self.offset
    }

    fn holds(&self, p: DVec2) -> bool {
        let q = p - self.offset;
        q.cmpge(DVec2::ZERO).all() && q.cmple(self.size).all()
    }

    /// `p` moved inside the picture, `inset` pixels from its edge at least.
    fn clamp(&self, p: DVec2, inset: f64) -> DVec2 {
        let lo = self.offset + inset;
        p.clamp(lo, (self.offset + self.size - inset).max(lo))
    }
}

/// A bar of a round length near a fifth of the picture's width, below its left
/// corner, labelled in world units.
fn scale_bar(frame: &Frame, out: &mut String) {
    let wide = 0.2 * frame.size.x / frame.scale;
    if !(wide > 0.0 && wide.is_finite()) {
        return;
    }
    let power = wide.log10().floor();
    let unit = 10f64.powf(power);
    let step = [5.0, 2.0, 1.0]
        .into_iter()
        .find(|&m| m * unit <= wide)
        .unwrap_or(1.0);
    let length = step * unit;
    let decimals = (-power).max(0.0) as usize;
    let label = match length == 1.0 {
        true => "1 unit".to_string(),
        false => format!("{length:.decimals$} units"),
    };
    let x = frame.offset.x + 10.0;
    let y = frame.offset.y + frame.size.y + 12.0;
    let end = x + length * frame.scale;
    let _ = writeln!(
        out,
        r##"<path d="M{x:.1} {:.1}V{y:.1}H{end:.1}V{:.1}" fill="none" stroke="#212121" stroke-width="2"/><text x="{:.1}" y="{:.1}">{label}</text>"##,
        y - 5.0,
        y - 5.0,
        end + 8.0,
        y + 5.0
    );
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Whether the segment `a`–`b` meets the box `lo`–`hi` (Liang–Barsky).
fn segment_meets_box(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> bool {
    let d = b - a;
    let (mut enter, mut exit) = (0.0f64, 1.0f64);
    for axis in 0..2 {
        if d[axis] == 0.0 {
            if a[axis] < lo[axis] || a[axis] > hi[axis] {
                return false;
            }
            continue;
        }
        let (t0, t1) = (
            (lo[axis] - a[axis]) / d[axis],
            (hi[axis] - a[axis]) / d[axis],
        );
        enter = enter.max(t0.min(t1));
        exit = exit.min(t0.max(t1));
    }
    enter <= exit
}

/// Whether `p` lies inside the convex polygon `hull` (either winding).
fn inside_convex(hull: &[DVec2], p: DVec2) -> bool {
    let sides = hull
        .iter()
        .zip(hull.iter().cycle().skip(1))
        .map(|(&a, &b)| (b - a).perp_dot(p - a));
    let (mut left, mut right) = (false, false);
    for side in sides {
        left |= side > 0.0;
        right |= side < 0.0;
    }
    !(left && right)
}

/// Andrew's monotone chain: the convex hull, counter-clockwise.
fn convex_hull(mut points: Vec<DVec2>) -> Vec<DVec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<DVec2> = Vec::with_capacity(2 * points.len());
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &DVec2>> = if pass == 0 {
            Box::new(points.iter())
        } else {
            Box::new(points.iter().rev())
        };
        for &p in ordered {
            while hull.len() >= start + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hull_of_a_square_with_an_inner_point_is_the_square() {
        let pts = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.5, 0.5)];
        let hull = convex_hull(pts.iter().map(|&(x, y)| DVec2::new(x, y)).collect());
        assert_eq!(hull.len(), 4);
        assert!(!hull.contains(&DVec2::new(0.5, 0.5)));
    }

    #[test]
    fn non_finite_shapes_are_skipped_and_text_is_escaped() {
        let mut picture = Picture::new("a < b & c", Projection::orthographic(View::Top));
        picture.cuboid(&Aabb::EMPTY, Style::Visible);
        picture.dot(Vec3::NAN, Style::Hit);
        picture.line(Vec3::ZERO, Vec3::INFINITY, Style::Ray);
        let svg = picture.finish();
        assert!(!svg.contains("inf") && !svg.contains("NaN"));
        assert!(svg.contains("a &lt; b &amp; c"));
        assert!(!svg.contains("<circle") && !svg.contains("<line"));
    }

    #[test]
    fn the_scale_bar_has_a_round_length() {
        let mut picture = Picture::new("bar", Projection::orthographic(View::Front));
        picture.cuboid(
            &Aabb::new(Vec3::ZERO, Vec3::new(0.37, 0.2, 0.1)),
            Style::Visible,
        );
        let svg = picture.finish();
        assert!(svg.contains(">0.05 units</text>"), "{svg}");
    }
}
