//! Reading a picture back: the triangles it draws and its legend, and the check that
//! what it draws covers where a model's triangles project.

#![allow(dead_code)]

use scenewalk_core::glam::{DVec2, Vec3};
use scenewalk_examples::svg::Picture;

/// Every shaded triangle the SVG draws, in pixels (a square as two).
pub fn drawn(svg: &str) -> Vec<[DVec2; 3]> {
    let mut all = Vec::new();
    for path in svg.split("<path class=\"").skip(1) {
        let d = path
            .split(" d=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        for triangle in d.split('M').filter(|t| !t.is_empty()) {
            let n: Vec<f64> = triangle
                .trim_end_matches('Z')
                .split(['L', ' '])
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            // A triangle, or a cell's square (two triangles).
            assert!(
                n.len() == 6 || n.len() == 8,
                "a triangle or square: {triangle:?}"
            );
            let p = |k: usize| DVec2::new(n[2 * k], n[2 * k + 1]);
            all.push([p(0), p(1), p(2)]);
            if n.len() == 8 {
                all.push([p(0), p(2), p(3)]);
            }
        }
    }
    all
}

/// The legend's lines, in order.
pub fn legend(svg: &str) -> Vec<String> {
    let head = svg.split("<g clip-path").next().unwrap();
    head.split("height=\"12\"/><text")
        .skip(1)
        .map(|t| {
            t.split('>')
                .nth(1)
                .unwrap()
                .split('<')
                .next()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// The picture's area on the page: its left top corner and size (the clip rect).
pub fn area(svg: &str) -> (DVec2, DVec2) {
    let clip = svg.split("<clipPath id=\"scene\"><rect ").nth(1).unwrap();
    let number = |name: &str| -> f64 {
        let start = clip.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        let end = start + clip[start..].find('"').unwrap();
        clip[start..end].parse().unwrap()
    };
    (
        DVec2::new(number("x"), number("y")),
        DVec2::new(number("width"), number("height")),
    )
}

/// The coverage cell the picture was drawn with, in pixels (`data-cell`).
pub fn cell(svg: &str) -> f64 {
    let at = svg.split("data-cell=\"").nth(1).expect("a data-cell");
    at.split('"').next().unwrap().parse().unwrap()
}

/// The distance from `p` to triangle `t` (0 inside).
fn distance(t: &[DVec2; 3], p: DVec2) -> f64 {
    let [a, b, c] = *t;
    let area = (b - a).perp_dot(c - a);
    let side = |u: DVec2, v: DVec2| (v - u).perp_dot(p - u) * area.signum();
    if area != 0.0 && side(a, b) >= 0.0 && side(b, c) >= 0.0 && side(c, a) >= 0.0 {
        return 0.0;
    }
    let to_segment = |u: DVec2, v: DVec2| {
        let d = v - u;
        let s = if d.length_squared() > 0.0 {
            ((p - u).dot(d) / d.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (u + d * s - p).length()
    };
    to_segment(a, b).min(to_segment(b, c)).min(to_segment(c, a))
}

/// Every triangle of `model` whose centroid lands inside the picture lands on (or
/// within `tolerance` coverage cells, plus the 0.1 pixel the coordinates are rounded
/// to, of) a triangle the SVG draws; returns how many were checked.
pub fn covers(svg: &str, picture: &Picture, model: &[[Vec3; 3]], tolerance: f64) -> usize {
    let tolerance = tolerance * cell(svg) + 0.1;
    let (lo, size) = area(svg);
    let drawn = drawn(svg);
    // Drawn triangles by 16-pixel bucket of the page.
    const BUCKET: f64 = 16.0;
    let columns = ((lo.x + size.x) / BUCKET).ceil() as usize + 1;
    let rows = ((lo.y + size.y) / BUCKET).ceil() as usize + 1;
    let mut buckets = vec![Vec::new(); columns * rows];
    for (k, t) in drawn.iter().enumerate() {
        let min = (t[0].min(t[1]).min(t[2]) - tolerance).max(DVec2::ZERO) / BUCKET;
        let max = (t[0].max(t[1]).max(t[2]) + tolerance) / BUCKET;
        for y in min.y as usize..=(max.y as usize).min(rows - 1) {
            for x in min.x as usize..=(max.x as usize).min(columns - 1) {
                buckets[y * columns + x].push(k);
            }
        }
    }
    let mut checked = 0;
    for corners in model {
        let centroid = (corners[0] + corners[1] + corners[2]) / 3.0;
        let Some(p) = picture.pixel(centroid) else {
            continue;
        };
        let q = p - lo;
        if !(q.x >= 0.0 && q.y >= 0.0 && q.x < size.x && q.y < size.y) {
            continue;
        }
        checked += 1;
        let bucket = &buckets[(p.y / BUCKET) as usize * columns + (p.x / BUCKET) as usize];
        let near = bucket
            .iter()
            .map(|&k| distance(&drawn[k], p))
            .fold(f64::INFINITY, f64::min);
        assert!(
            near <= tolerance,
            "the centroid of {corners:?} lands at {p}, {near} px from anything drawn"
        );
    }
    checked
}
