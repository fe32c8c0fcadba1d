//! A top view of a scene as SVG: boxes, the view frustum, rays and hits, seen from
//! above (x to the right, z downwards).

use scenewalk_core::Aabb;
use scenewalk_core::glam::{Vec2, Vec3};
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
    fn attributes(self) -> &'static str {
        match self {
            Style::Visible => {
                r##"fill="#4caf50" fill-opacity="0.55" stroke="#1b5e20" stroke-width="0.5" vector-effect="non-scaling-stroke""##
            }
            Style::Culled => {
                r##"fill="#9e9e9e" fill-opacity="0.35" stroke="#616161" stroke-width="0.5" vector-effect="non-scaling-stroke""##
            }
            Style::Frustum => {
                r##"fill="#ffeb3b" fill-opacity="0.15" stroke="#f57f17" stroke-width="1.5" vector-effect="non-scaling-stroke""##
            }
            Style::Ray => {
                r##"stroke="#d32f2f" stroke-width="2" fill="none" vector-effect="non-scaling-stroke""##
            }
            Style::Hit => {
                r##"fill="#d32f2f" stroke="#ffffff" stroke-width="1" vector-effect="non-scaling-stroke""##
            }
            Style::Contact => {
                r##"fill="#7b1fa2" stroke="#ffffff" stroke-width="1" vector-effect="non-scaling-stroke""##
            }
        }
    }
}

/// A top view being drawn: shapes in world coordinates, projected onto the x–z plane.
///
/// ```
/// use scenewalk_core::{Aabb, glam::Vec3};
/// use scenewalk_examples::svg::{Style, TopView};
/// let mut view = TopView::new("a box");
/// view.rect(&Aabb::new(Vec3::ZERO, Vec3::splat(10.0)), Style::Visible);
/// let svg = view.finish();
/// assert!(svg.starts_with("<svg") && svg.contains("<rect"));
/// ```
#[derive(Clone, Debug)]
pub struct TopView {
    title: String,
    body: String,
    extent: Aabb,
    legend: Vec<(Style, String)>,
}

fn xz(p: Vec3) -> Vec2 {
    Vec2::new(p.x, p.z)
}

impl TopView {
    /// An empty view with a title.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            body: String::new(),
            extent: Aabb::EMPTY,
            legend: Vec::new(),
        }
    }

    fn grow(&mut self, p: Vec2) {
        if p.is_finite() {
            self.extent = self.extent.including(Vec3::new(p.x, 0.0, p.y));
        }
    }

    /// Adds a line to the legend.
    pub fn legend(&mut self, style: Style, text: impl Into<String>) {
        self.legend.push((style, text.into()));
    }

    /// Draws a box's footprint. Empty or non-finite boxes are skipped.
    pub fn rect(&mut self, b: &Aabb, style: Style) {
        if b.is_empty() || !b.is_finite() {
            return;
        }
        let (lo, hi) = (xz(b.min), xz(b.max));
        self.grow(lo);
        self.grow(hi);
        let size = hi - lo;
        let _ = writeln!(
            self.body,
            r#"<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" {}/>"#,
            lo.x,
            lo.y,
            size.x.max(0.2),
            size.y.max(0.2),
            style.attributes()
        );
    }

    /// Draws the convex hull of the points' footprints (the frustum from its corners).
    pub fn hull(&mut self, points: &[Vec3], style: Style) {
        let hull = convex_hull(points.iter().map(|&p| xz(p)).filter(|p| p.is_finite()));
        if hull.len() < 3 {
            return;
        }
        let mut path = String::new();
        for p in &hull {
            self.grow(*p);
            let _ = write!(path, "{:.2},{:.2} ", p.x, p.y);
        }
        let _ = writeln!(
            self.body,
            r#"<polygon points="{}" {}/>"#,
            path.trim_end(),
            style.attributes()
        );
    }

    /// Draws a segment.
    pub fn line(&mut self, a: Vec3, b: Vec3, style: Style) {
        let (a, b) = (xz(a), xz(b));
        if !(a.is_finite() && b.is_finite()) {
            return;
        }
        self.grow(a);
        self.grow(b);
        let _ = writeln!(
            self.body,
            r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" {}/>"#,
            a.x,
            a.y,
            b.x,
            b.y,
            style.attributes()
        );
    }

    /// Draws a dot.
    pub fn dot(&mut self, p: Vec3, radius: f32, style: Style) {
        let p = xz(p);
        if !p.is_finite() {
            return;
        }
        self.grow(p);
        let _ = writeln!(
            self.body,
            r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" {}/>"#,
            p.x,
            p.y,
            radius,
            style.attributes()
        );
    }

    /// The SVG document.
    pub fn finish(&self) -> String {
        let (lo, hi) = if self.extent.is_empty() {
            (Vec2::ZERO, Vec2::ONE)
        } else {
            (xz(self.extent.min), xz(self.extent.max))
        };
        let margin = 0.03 * (hi - lo).max_element().max(1.0);
        let legend_height = 14.0 * margin / 10.0 * (self.legend.len() as f32 + 1.5);
        let (x, y) = (lo.x - margin, lo.y - margin - legend_height);
        let (w, h) = (
            hi.x - lo.x + 2.0 * margin,
            hi.y - lo.y + 2.0 * margin + legend_height,
        );
        let scale = 1000.0 / w.max(h);
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x:.2} {y:.2} {w:.2} {h:.2}" width="{:.0}" height="{:.0}">"#,
            w * scale,
            h * scale
        );
        let _ = writeln!(
            out,
            r##"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="#fafafa"/>"##
        );
        let font = 1.2 * margin;
        let _ = writeln!(
            out,
            r#"<text x="{:.2}" y="{:.2}" font-family="sans-serif" font-size="{font:.2}">{}</text>"#,
            lo.x,
            y + 1.3 * font,
            escape(&self.title)
        );
        for (k, (style, text)) in self.legend.iter().enumerate() {
            let ty = y + 1.3 * font * (k as f32 + 2.0);
            let _ = writeln!(
                out,
                r#"<rect x="{:.2}" y="{:.2}" width="{font:.2}" height="{:.2}" {}/><text x="{:.2}" y="{ty:.2}" font-family="sans-serif" font-size="{:.2}">{}</text>"#,
                lo.x,
                ty - 0.8 * font,
                0.8 * font,
                style.attributes(),
                lo.x + 1.5 * font,
                0.8 * font,
                escape(text)
            );
        }
        out.push_str(&self.body);
        out.push_str("</svg>\n");
        out
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
        let hull = convex_hull(pts.iter().map(|&p| xz(p)));
        assert_eq!(hull.len(), 4);
        assert!(!hull.contains(&Vec2::new(0.5, 0.5)));
    }

    #[test]
    fn non_finite_shapes_are_skipped_and_text_is_escaped() {
        let mut view = TopView::new("a < b & c");
        view.rect(&Aabb::EMPTY, Style::Visible);
        view.dot(Vec3::NAN, 1.0, Style::Hit);
        view.line(Vec3::ZERO, Vec3::INFINITY, Style::Ray);
        let svg = view.finish();
        assert!(!svg.contains("<rect x=\"inf") && !svg.contains("NaN"));
        assert!(svg.contains("a &lt; b &amp; c"));
        assert!(!svg.contains("<circle") && !svg.contains("<line"));
    }
}
