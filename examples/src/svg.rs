//! A top view of a scene as SVG: boxes, the view frustum, rays and hits, seen from
//! above (x to the right, z downwards).
//!
//! The picture is framed around the boxes drawn (the scene's objects); frustums, rays
//! and dots reaching beyond are cut at its edge. Coordinates are written in pixels of
//! the picture (1000 across its wider side), computed in double precision from the
//! world coordinates, so a model a few thousandths of a unit across or a million
//! units from the origin keeps its shape.

use scenewalk_core::Aabb;
use scenewalk_core::glam::{DVec2, Vec2, Vec3};
use std::collections::HashSet;
use std::fmt::Write;

/// How a shape is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A box the view pass kept.
    Visible,
    /// A box the view pass culled (or did not reach).
    Culled,
    /// The view frustum.
    Frustum,
    /// A pick ray.
    Ray,
    /// A pick hit.
    Hit,
    /// A collision contact.
    Contact,
}

impl Style {
    const ALL: [Style; 6] = [
        Style::Visible,
        Style::Culled,
        Style::Frustum,
        Style::Ray,
        Style::Hit,
        Style::Contact,
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
        }
    }

    /// The CSS rule of the style (sizes in pixels of the picture).
    fn rule(self) -> &'static str {
        match self {
            Style::Visible => "fill:#4caf50;fill-opacity:.55;stroke:#1b5e20;stroke-width:.5",
            Style::Culled => "fill:#9e9e9e;fill-opacity:.35;stroke:#616161;stroke-width:.5",
            Style::Frustum => "fill:#ffeb3b;fill-opacity:.15;stroke:#f57f17;stroke-width:1.5",
            Style::Ray => "stroke:#d32f2f;stroke-width:2;fill:none",
            Style::Hit => "fill:#d32f2f;stroke:#fff;stroke-width:1",
            Style::Contact => "fill:#7b1fa2;stroke:#fff;stroke-width:1",
        }
    }

    /// A dot's radius in pixels.
    fn radius(self) -> f64 {
        match self {
            Style::Contact => 6.0,
            _ => 4.0,
        }
    }
}

/// A shape, in world coordinates projected onto the x–z plane.
#[derive(Clone, Debug)]
enum Shape {
    Rect(DVec2, DVec2),
    Polygon(Vec<DVec2>),
    Line(DVec2, DVec2),
    Dot(DVec2),
}

/// The pixels across the wider side of the picture.
const PIXELS: f64 = 1000.0;
/// The height of a legend line, in pixels.
const LINE: f64 = 20.0;
/// The least width of the picture, for the legend.
const LEGEND_WIDTH: f64 = 720.0;

/// A top view being drawn: shapes in world coordinates, projected onto the x–z plane.
///
/// ```
/// use scenewalk_core::{Aabb, glam::Vec3};
/// use scenewalk_examples::svg::{Style, TopView};
/// let mut view = TopView::new("a box");
/// view.rect(&Aabb::new(Vec3::ZERO, Vec3::splat(0.01)), Style::Visible);
/// view.line(Vec3::ZERO, Vec3::splat(1e6), Style::Ray); // cut at the box's frame
/// let svg = view.finish();
/// assert!(svg.starts_with("<svg") && svg.contains(r#"<rect class="visible""#));
/// // The box fills the picture but for a margin, however small it is.
/// assert!(svg.contains(r#"width="925.93""#));
/// ```
#[derive(Clone, Debug)]
pub struct TopView {
    title: String,
    shapes: Vec<(Shape, Style)>,
    /// The footprint of the boxes drawn, and of every shape.
    boxes: Option<(DVec2, DVec2)>,
    everything: Option<(DVec2, DVec2)>,
    legend: Vec<(Style, String)>,
}

fn xz(p: Vec3) -> DVec2 {
    DVec2::new(f64::from(p.x), f64::from(p.z))
}

fn grow(extent: &mut Option<(DVec2, DVec2)>, p: DVec2) {
    *extent = Some(match *extent {
        Some((lo, hi)) => (lo.min(p), hi.max(p)),
        None => (p, p),
    });
}

impl TopView {
    /// An empty view with a title.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            shapes: Vec::new(),
            boxes: None,
            everything: None,
            legend: Vec::new(),
        }
    }

    fn add(&mut self, shape: Shape, style: Style) {
        match &shape {
            Shape::Rect(a, b) | Shape::Line(a, b) => {
                grow(&mut self.everything, *a);
                grow(&mut self.everything, *b);
            }
            Shape::Polygon(points) => points.iter().for_each(|&p| grow(&mut self.everything, p)),
            Shape::Dot(p) => grow(&mut self.everything, *p),
        }
        self.shapes.push((shape, style));
    }

    /// Adds a line to the legend.
    pub fn legend(&mut self, style: Style, text: impl Into<String>) {
        self.legend.push((style, text.into()));
    }

    /// Draws a box's footprint; the picture is framed around these. Empty or
    /// non-finite boxes are skipped.
    pub fn rect(&mut self, b: &Aabb, style: Style) {
        if b.is_empty() || !b.is_finite() {
            return;
        }
        let (lo, hi) = (xz(b.min), xz(b.max));
        grow(&mut self.boxes, lo);
        grow(&mut self.boxes, hi);
        self.add(Shape::Rect(lo, hi), style);
    }

    /// Draws the convex hull of the points' footprints (the frustum from its corners).
    pub fn hull(&mut self, points: &[Vec3], style: Style) {
        let hull = convex_hull(
            points
                .iter()
                .map(|&p| Vec2::new(p.x, p.z))
                .filter(|p| p.is_finite()),
        );
        if hull.len() >= 3 {
            let hull = hull.iter().map(|p| p.as_dvec2()).collect();
            self.add(Shape::Polygon(hull), style);
        }
    }

    /// Draws a segment.
    pub fn line(&mut self, a: Vec3, b: Vec3, style: Style) {
        if a.is_finite() && b.is_finite() {
            self.add(Shape::Line(xz(a), xz(b)), style);
        }
    }

    /// Draws a dot (its size in pixels of the picture, by style).
    pub fn dot(&mut self, p: Vec3, style: Style) {
        if p.is_finite() {
            self.add(Shape::Dot(xz(p)), style);
        }
    }

    /// The SVG document: framed around the boxes drawn (around every shape when there
    /// is no box), with a margin, the title and the legend above (the picture is at
    /// least wide enough for the legend). Shapes that print
    /// the same (a box drawn twice in one style) are written once.
    pub fn finish(&self) -> String {
        let (mut lo, mut hi) = self
            .boxes
            .or(self.everything)
            .unwrap_or((DVec2::ZERO, DVec2::ONE));
        // A flat or empty footprint gets a width of its own.
        let size = (hi - lo).max_element();
        let size = if size > 0.0 { size } else { 1.0 };
        let least = DVec2::splat(0.05 * size);
        let pad = (least - (hi - lo)).max(DVec2::ZERO) / 2.0 + 0.04 * size;
        (lo, hi) = (lo - pad, hi + pad);
        let scale = PIXELS / (hi - lo).max_element();
        let (width, height) = ((hi.x - lo.x) * scale, (hi.y - lo.y) * scale);
        let top = LINE * (self.legend.len() as f64 + 1.5);
        let page = width.max(LEGEND_WIDTH);
        let left = (page - width) / 2.0;
        let at = |p: DVec2| (p - lo) * scale + DVec2::new(left, top);

        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {page:.2} {:.2}" width="{page:.0}" height="{:.0}">"#,
            height + top,
            height + top,
        );
        out.push_str("<style>text{font-family:sans-serif;font-size:14px}");
        for style in Style::ALL {
            let _ = write!(out, ".{}{{{}}}", style.class(), style.rule());
        }
        out.push_str("</style>\n");
        let _ = writeln!(
            out,
            r##"<rect width="100%" height="100%" fill="#fafafa"/>
<clipPath id="scene"><rect x="{left:.2}" y="{top:.2}" width="{width:.2}" height="{height:.2}"/></clipPath>
<text x="8" y="{:.2}">{}</text>"##,
            0.8 * LINE,
            escape(&self.title)
        );
        for (k, (style, text)) in self.legend.iter().enumerate() {
            let y = LINE * (k as f64 + 1.0);
            let _ = writeln!(
                out,
                r#"<rect class="{}" x="8" y="{:.2}" width="14" height="12"/><text x="28" y="{:.2}">{}</text>"#,
                style.class(),
                y + 4.0,
                y + 0.8 * LINE,
                escape(text)
            );
        }
        out.push_str(r#"<g clip-path="url(#scene)">"#);
        out.push('\n');
        let mut written = HashSet::new();
        for (shape, style) in &self.shapes {
            let line = shape_svg(shape, *style, at);
            if written.insert(line.clone()) {
                out.push_str(&line);
            }
        }
        out.push_str("</g>\n</svg>\n");
        out
    }
}

/// One shape's element, placed by `at` (world x–z to pixels).
fn shape_svg(shape: &Shape, style: Style, at: impl Fn(DVec2) -> DVec2) -> String {
    let class = style.class();
    match shape {
        Shape::Rect(a, b) => {
            // At least a pixel across, so a flat box still shows.
            let (a, b) = (at(*a), at(*b));
            let size = (b - a).max(DVec2::ONE);
            let a = (a + b - size) / 2.0;
            format!(
                "<rect class=\"{class}\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\"/>\n",
                a.x, a.y, size.x, size.y
            )
        }
        Shape::Polygon(points) => {
            let mut path = String::new();
            for p in points {
                let p = at(*p);
                let _ = write!(path, "{:.2},{:.2} ", p.x, p.y);
            }
            format!(
                "<polygon class=\"{class}\" points=\"{}\"/>\n",
                path.trim_end()
            )
        }
        Shape::Line(a, b) => {
            let (a, b) = (at(*a), at(*b));
            format!(
                "<line class=\"{class}\" x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\"/>\n",
                a.x, a.y, b.x, b.y
            )
        }
        Shape::Dot(p) => {
            let p = at(*p);
            format!(
                "<circle class=\"{class}\" cx=\"{:.2}\" cy=\"{:.2}\" r=\"{:.1}\"/>\n",
                p.x,
                p.y,
                style.radius()
            )
        }
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Andrew's monotone chain: the convex hull, counter-clockwise.
fn convex_hull(points: impl Iterator<Item = Vec2>) -> Vec<Vec2> {
    let mut points: Vec<Vec2> = points.collect();
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let cross = |o: Vec2, a: Vec2, b: Vec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * points.len());
    for pass in 0..2 {
        let start = hull.len();
        let ordered: Box<dyn Iterator<Item = &Vec2>> = if pass == 0 {
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
        let pts = [
            Vec3::new(0.0, 5.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.5, 9.0, 0.5),
        ];
        let hull = convex_hull(pts.iter().map(|&p| Vec2::new(p.x, p.z)));
        assert_eq!(hull.len(), 4);
        assert!(!hull.contains(&Vec2::new(0.5, 0.5)));
    }

    #[test]
    fn non_finite_shapes_are_skipped_and_text_is_escaped() {
        let mut view = TopView::new("a < b & c");
        view.rect(&Aabb::EMPTY, Style::Visible);
        view.dot(Vec3::NAN, Style::Hit);
        view.line(Vec3::ZERO, Vec3::INFINITY, Style::Ray);
        let svg = view.finish();
        assert!(!svg.contains("inf") && !svg.contains("NaN"));
        assert!(svg.contains("a &lt; b &amp; c"));
        assert!(!svg.contains("<circle") && !svg.contains("<line"));
    }
}
