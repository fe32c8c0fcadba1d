//! The checked constructors refuse NaN, infinities and projective matrices.

use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Mat4, Quat, Vec3, Vec4};
use scenewalk_nodes::{BadBounds, BadTransform, Geometry, Transform};

#[test]
fn try_from_trs_refuses_non_finite_values() {
    let ok =
        Transform::try_from_trs(Vec3::X, Quat::from_rotation_y(1.0), Vec3::splat(2.0)).unwrap();
    assert_eq!(
        ok,
        Transform::from_trs(Vec3::X, Quat::from_rotation_y(1.0), Vec3::splat(2.0))
    );
    for (t, r, s) in [
        (Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
        (
            Vec3::ZERO,
            Quat::from_xyzw(0.0, f32::INFINITY, 0.0, 1.0),
            Vec3::ONE,
        ),
        (Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ONE),
        (
            Vec3::ZERO,
            Quat::IDENTITY,
            Vec3::new(1.0, f32::NEG_INFINITY, 1.0),
        ),
    ] {
        assert_eq!(
            Transform::try_from_trs(t, r, s),
            Err(BadTransform::NotFinite),
            "{t} {r} {s}"
        );
    }
    // An unnormalized rotation is normalized rather than refused.
    let scaled =
        Transform::try_from_trs(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 2.0), Vec3::ONE)
            .unwrap();
    assert_eq!(*scaled.local(), Affine3A::IDENTITY);
}

#[test]
fn from_mat4_refuses_projective_and_non_finite_matrices() {
    let m = Mat4::from_translation(Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(
        Transform::from_mat4(m).unwrap(),
        Transform::from_translation(Vec3::new(1.0, 2.0, 3.0))
    );
    let mut projective = m;
    projective.x_axis = Vec4::new(1.0, 0.0, 0.0, 0.5);
    assert_eq!(
        Transform::from_mat4(projective),
        Err(BadTransform::Projective)
    );
    let mut nan = m;
    nan.w_axis.x = f32::NAN;
    assert_eq!(Transform::from_mat4(nan), Err(BadTransform::NotFinite));
}

#[test]
fn geometry_try_new_refuses_non_finite_boxes() {
    let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
    assert_eq!(
        Geometry::try_new(unit, 12).unwrap(),
        Geometry::with_primitives(unit, 12)
    );
    assert!(Geometry::try_new(Aabb::EMPTY, 0).is_ok());
    let bad = Aabb {
        min: Vec3::ZERO,
        max: Vec3::new(1.0, f32::NAN, 1.0),
    };
    assert_eq!(
        Geometry::try_new(bad, 0).unwrap_err().to_string(),
        BadBounds(bad).to_string()
    );
    let infinite = Aabb::new(Vec3::ZERO, Vec3::splat(f32::INFINITY));
    assert!(Geometry::try_new(infinite, 0).is_err());
}

#[test]
fn try_from_trs_normalizes_very_large_and_very_small_rotations() {
    for w in [1e20f32, 1e-25] {
        let t = Transform::try_from_trs(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, w), Vec3::ONE)
            .unwrap();
        assert_eq!(*t.local(), Affine3A::IDENTITY, "w = {w}");
    }
}

#[test]
fn geometry_try_new_refuses_an_inverted_box() {
    let inverted = Aabb {
        min: Vec3::new(0.0, 5.0, 0.0),
        max: Vec3::new(1.0, 1.0, 1.0),
    };
    assert_eq!(Geometry::try_new(inverted, 0), Err(BadBounds(inverted)));
}

/// The unchecked constructors refuse what `try_new` refuses for a NaN or infinite
/// corner, so such a box never reaches the update pass, where it would turn every
/// ancestor's box into NaN with nothing to report it.
#[test]
#[should_panic(expected = "is not a box")]
fn geometry_new_refuses_a_nan_box() {
    Geometry::new(Aabb {
        min: Vec3::ZERO,
        max: Vec3::new(1.0, f32::NAN, 1.0),
    });
}

#[test]
#[should_panic(expected = "is not a box")]
fn geometry_with_primitives_refuses_an_infinite_box() {
    Geometry::with_primitives(Aabb::new(Vec3::ZERO, Vec3::splat(f32::INFINITY)), 2);
}

#[test]
fn geometry_new_takes_the_empty_and_inverted_boxes() {
    assert_eq!(Geometry::new(Aabb::EMPTY).local_bounds(), &Aabb::EMPTY);
    let inverted = Aabb {
        min: Vec3::ONE,
        max: Vec3::ZERO,
    };
    assert_eq!(Geometry::new(inverted).local_bounds(), &inverted);
}
