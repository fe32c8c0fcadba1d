//! The top view keeps the scene's proportions at any scale and frames the picture
//! around the boxes it draws, not around rays or the frustum.

use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_examples::svg::{Style, TopView};

/// Every `<rect>`'s x, y, width and height, in document order.
fn rects(svg: &str) -> Vec<[f64; 4]> {
    let number = |tag: &str, name: &str| -> Option<f64> {
        let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        let end = start + tag.get(start..)?.find('"')?;
        tag.get(start..end)?.parse().ok()
    };
    svg.split("<rect")
        .skip(1)
        .filter_map(|tag| {
            let tag = tag.split('>').next()?;
            Some([
                number(tag, "x")?,
                number(tag, "y")?,
                number(tag, "width")?,
                number(tag, "height")?,
            ])
        })
        .collect()
}

/// The size of the picture (the `viewBox`'s width and height).
fn picture(svg: &str) -> [f64; 2] {
    let start = svg.find("viewBox=\"").expect("a viewBox") + 9;
    let end = start + svg[start..].find('"').unwrap();
    let v: Vec<f64> = svg[start..end]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    [v[2], v[3]]
}

/// A rect drawn for box `inner`, placed against one drawn for box `outer` as the
/// boxes lie in the world (x right, z down), within 1 % of the outer rect's size.
fn placed_like(outer: [f64; 4], inner: [f64; 4], want: [f64; 4]) -> bool {
    let [ox, oy, ow, oh] = outer;
    let [ix, iy, iw, ih] = inner;
    let [fx, fy, fw, fh] = want; // inner's position and size as fractions of outer
    let close = |a: f64, b: f64, of: f64| (a - b).abs() <= 0.01 * of;
    ow > 0.0
        && oh > 0.0
        && close(ix, ox + fx * ow, ow)
        && close(iy, oy + fy * oh, oh)
        && close(iw, fw * ow, ow)
        && close(ih, fh * oh, oh)
}

#[test]
fn a_model_seven_thousandths_of_a_unit_across_keeps_its_proportions() {
    // The size of MetalRoughSpheresNoTextures: printed with two decimals in world
    // units, every coordinate would be 0.00.
    let outer = Aabb::new(Vec3::ZERO, Vec3::new(0.007, 0.001, 0.007));
    let inner = Aabb::new(
        Vec3::new(0.0035, 0.0, 0.00175),
        Vec3::new(0.007, 0.001, 0.0035),
    );
    let mut view = TopView::new("tiny");
    view.rect(&outer, Style::Visible);
    view.rect(&inner, Style::Culled);
    let svg = view.finish();
    let all = rects(&svg);
    let found = all.iter().any(|&o| {
        all.iter()
            .any(|&i| placed_like(o, i, [0.5, 0.25, 0.5, 0.25]))
    });
    assert!(found, "no pair of rects keeps the boxes' layout:\n{svg}");
}

#[test]
fn a_model_far_from_the_origin_keeps_its_proportions() {
    // A one-unit model a million units out: a float's 7 digits are all in use.
    let at = Vec3::new(1.0e6, 0.0, -1.0e6);
    let outer = Aabb::new(at, at + Vec3::new(1.0, 1.0, 1.0));
    let inner = Aabb::new(at + Vec3::new(0.5, 0.0, 0.5), at + Vec3::ONE);
    let mut view = TopView::new("far");
    view.rect(&outer, Style::Visible);
    view.rect(&inner, Style::Culled);
    let svg = view.finish();
    let all = rects(&svg);
    let found = all
        .iter()
        .any(|&o| all.iter().any(|&i| placed_like(o, i, [0.5, 0.5, 0.5, 0.5])));
    assert!(found, "no pair of rects keeps the boxes' layout:\n{svg}");
}

#[test]
fn the_picture_is_framed_around_the_boxes_not_the_rays() {
    let model = Aabb::new(Vec3::ZERO, Vec3::splat(2.0));
    let mut view = TopView::new("framed");
    view.rect(&model, Style::Visible);
    // A frustum and a ray reaching a thousand times further than the model.
    let far = [
        Vec3::new(-5.0, 0.0, 10.0),
        Vec3::new(-2000.0, 0.0, -2000.0),
        Vec3::new(2000.0, 0.0, -2000.0),
    ];
    view.hull(&far, Style::Frustum);
    view.line(
        Vec3::new(1.0, 0.0, 10.0),
        Vec3::new(1.0, 0.0, -3000.0),
        Style::Ray,
    );
    let svg = view.finish();
    let [width, _] = picture(&svg);
    let widest = rects(&svg)
        .into_iter()
        .filter(|r| r[2] < 0.999 * width) // not the background
        .map(|r| r[2])
        .fold(0.0, f64::max);
    assert!(
        widest >= 0.8 * width,
        "the model's rect is {widest} of a {width} wide picture:\n{svg}"
    );
}
