//! `Aabb`: unions that keep NaN whatever the merge order, centres of empty boxes, padding.

use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;

#[test]
fn a_nan_corner_survives_a_union_in_either_order() {
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let bad = Aabb {
        min: Vec3::new(f32::NAN, 0.0, 0.0),
        max: Vec3::ONE,
    };
    assert!(unit.union(&bad).min.x.is_nan());
    assert!(bad.union(&unit).min.x.is_nan());
    assert_eq!(bad.union(&unit).max, Vec3::ONE);
    assert_eq!(bad.union(&unit).min.y, 0.0);
}

#[test]
fn an_empty_box_has_a_zero_centre_and_size() {
    let full = Aabb::new(Vec3::ZERO, Vec3::new(2.0, 4.0, 6.0));
    assert_eq!(full.center(), Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(full.size(), Vec3::new(2.0, 4.0, 6.0));
    assert_eq!(Aabb::EMPTY.center(), Vec3::ZERO);
    assert_eq!(Aabb::EMPTY.size(), Vec3::ZERO);
    let nan = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    assert!(nan.is_empty());
    assert_eq!(nan.center(), Vec3::ZERO);
}

#[test]
fn padding_grows_every_side_and_leaves_an_empty_box_empty() {
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    let padded = unit.padded(0.5);
    assert_eq!(padded, Aabb::new(Vec3::splat(-0.5), Vec3::splat(1.5)));
    assert_eq!(Aabb::EMPTY.padded(1.0), Aabb::EMPTY);
    let nan = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    assert!(nan.padded(1.0).min.is_nan(), "a NaN box is left as it is");
    assert_eq!(
        unit.padded(-0.25),
        Aabb::new(Vec3::splat(0.25), Vec3::splat(0.75))
    );
    assert_eq!(unit.padded(-0.6), Aabb::EMPTY, "shrunk past its width");
}
