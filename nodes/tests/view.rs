//! Cameras, frusta, level of detail and switches against direct computations.

use proptest::prelude::*;
use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Quat, Vec3, Vec4};
use scenewalk_nodes::{
    BadCamera, BadLod, Camera, Containment, Frustum, Lod, PlaneMask, Projection, Selection, Switch,
};

fn camera_strategy() -> impl Strategy<Value = (Camera, Affine3A)> {
    (
        0.2f32..2.5,
        0.5f32..3.0,
        0.05f32..2.0,
        5.0f32..200.0,
        prop::array::uniform3(-50.0f32..50.0),
        prop::array::uniform4(-1.0f32..1.0),
    )
        .prop_filter_map("a rotation", |(fov, aspect, near, far, eye, q)| {
            let q = Quat::from_vec4(Vec4::from_array(q).try_normalize()?);
            let camera = Camera::perspective(fov, aspect, near, near + far).ok()?;
            Some((
                camera,
                Affine3A::from_rotation_translation(q, Vec3::from(eye)),
            ))
        })
}

/// Inside by the clip-space definition: `-w <= x, y <= w` and `0 <= z <= w`.
fn inside_by_clip(camera: &Camera, world: &Affine3A, p: Vec3) -> bool {
    let clip = camera.projection_matrix() * Camera::view_matrix(world) * p.extend(1.0);
    let w = clip.w;
    clip.x.abs() <= w && clip.y.abs() <= w && clip.z >= 0.0 && clip.z <= w
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn frustum_points_agree_with_clip_space(
        (camera, world) in camera_strategy(),
        points in prop::collection::vec(prop::array::uniform3(-300.0f32..300.0), 50),
    ) {
        let frustum = camera.frustum(&world);
        for p in points {
            let p = Vec3::from(p);
            let clip = inside_by_clip(&camera, &world, p);
            // Points within float noise of a plane may go either way.
            let margin = frustum.planes().iter().map(|pl| (pl.truncate().dot(p) + pl.w).abs()).fold(f32::MAX, f32::min);
            if margin > 1e-3 {
                prop_assert_eq!(frustum.contains_point(p), clip, "{:?}", p);
            }
        }
    }

    #[test]
    fn a_box_with_a_point_inside_is_never_outside(
        (camera, world) in camera_strategy(),
        corner in prop::array::uniform3(-200.0f32..200.0),
        size in prop::array::uniform3(0.0f32..60.0),
    ) {
        let frustum = camera.frustum(&world);
        let b = Aabb::new(Vec3::from(corner), Vec3::from(corner) + Vec3::from(size));
        let steps = 6;
        let mut seen = false;
        for i in 0..=steps { for j in 0..=steps { for k in 0..=steps {
            let t = Vec3::new(i as f32, j as f32, k as f32) / steps as f32;
            seen |= inside_by_clip(&camera, &world, b.min + (b.max - b.min) * t);
        }}}
        if seen {
            prop_assert_ne!(frustum.classify(&b, PlaneMask::ALL), Containment::Outside);
        }
        // A box inside every plane holds only inside points.
        if frustum.classify(&b, PlaneMask::ALL) == Containment::Visible(PlaneMask::NONE) {
            prop_assert!(frustum.contains_point(b.min) && frustum.contains_point(b.max));
        }
    }
}

#[test]
fn corners_lie_on_the_near_and_far_planes() {
    let camera = Camera::perspective(1.2, 1.5, 0.5, 80.0).unwrap();
    let world = Camera::look_at(Vec3::new(3.0, 4.0, 5.0), Vec3::ZERO, Vec3::Y).unwrap();
    let corners = camera.corners(&world).unwrap();
    let eye = Vec3::new(3.0, 4.0, 5.0);
    let ahead = (Vec3::ZERO - eye).normalize();
    for (i, c) in corners.iter().enumerate() {
        let depth = (*c - eye).dot(ahead);
        let want = if i < 4 { 0.5 } else { 80.0 };
        assert!(
            (depth - want).abs() < 1e-3 * want.max(1.0),
            "corner {i}: {depth}"
        );
    }
}

#[test]
fn an_infinite_far_plane_keeps_everything_far_ahead() {
    let camera = Camera::try_new(Projection::Perspective {
        yfov: 1.0,
        aspect: None,
        near: 0.1,
        far: None,
    })
    .unwrap();
    let frustum = camera.frustum(&Affine3A::IDENTITY);
    assert!(frustum.contains_point(Vec3::new(0.0, 0.0, -1e7)));
    assert!(!frustum.contains_point(Vec3::new(0.0, 0.0, 1.0)));
    assert!(camera.corners(&Affine3A::IDENTITY).is_none());
}

#[test]
fn orthographic_cameras_see_a_box() {
    let camera = Camera::try_new(Projection::Orthographic {
        xmag: 2.0,
        ymag: 1.0,
        near: 0.0,
        far: 10.0,
    })
    .unwrap();
    let frustum = camera.frustum(&Affine3A::IDENTITY);
    assert!(frustum.contains_point(Vec3::new(1.9, 0.9, -9.9)));
    assert!(!frustum.contains_point(Vec3::new(2.1, 0.0, -5.0)));
    assert!(!frustum.contains_point(Vec3::new(0.0, 0.0, -10.1)));
}

#[test]
fn bad_cameras_are_refused_by_name() {
    assert_eq!(
        Camera::perspective(0.0, 1.0, 0.1, 10.0),
        Err(BadCamera::FieldOfView(0.0))
    );
    assert_eq!(
        Camera::perspective(1.0, f32::NAN, 0.1, 10.0).map_err(|e| e.to_string()),
        Err("the aspect ratio NaN is not a positive number".into())
    );
    assert_eq!(
        Camera::perspective(1.0, 1.0, 0.0, 10.0),
        Err(BadCamera::Near(0.0))
    );
    assert_eq!(
        Camera::perspective(1.0, 1.0, 1.0, 1.0),
        Err(BadCamera::Far(1.0))
    );
    assert!(matches!(
        Camera::try_new(Projection::Orthographic {
            xmag: 0.0,
            ymag: 1.0,
            near: 0.0,
            far: 1.0
        }),
        Err(BadCamera::Magnification(_))
    ));
}

#[test]
fn degenerate_and_nan_input_stays_conservative() {
    let frustum = Frustum::from_planes([Vec4::ZERO; 6]);
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    assert!(
        frustum.intersects(&b),
        "zero planes with d = 0 hold everything"
    );
    let none = Frustum::from_planes([Vec4::new(0.0, 0.0, 0.0, -1.0); 6]);
    assert!(
        !none.intersects(&b),
        "a zero normal with d < 0 holds nothing"
    );
    let camera = Camera::perspective(1.0, 1.0, 0.1, 10.0).unwrap();
    let frustum = camera.frustum(&Affine3A::IDENTITY);
    let nan = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    assert!(frustum.intersects(&nan));
    assert!(frustum.intersects(&Aabb::EMPTY));
    let nan_planes = camera.frustum(&Affine3A::from_translation(Vec3::NAN));
    assert!(nan_planes.intersects(&b));
}

#[test]
fn lod_ranges_include_their_start_and_exclude_their_end() {
    let lod = Lod::from_thresholds(Vec3::ZERO, &[10.0, 20.0]).unwrap();
    let pick = |d: f32| lod.selected(d).collect::<Vec<_>>();
    assert_eq!(pick(0.0), [0]);
    assert_eq!(pick(10.0f32.next_down()), [0]);
    assert_eq!(pick(10.0), [1]);
    assert_eq!(pick(20.0), [2]);
    assert_eq!(pick(f32::INFINITY), [2], "the last range has no end");
    assert_eq!(pick(f32::NAN), [0]);
    assert!(!lod.shows(3, 5.0));
    assert_eq!(
        Lod::from_thresholds(Vec3::ZERO, &[10.0, 5.0]),
        Err(BadLod::Range(1))
    );
    assert_eq!(
        Lod::new(Vec3::ZERO, vec![f32::NAN..1.0]),
        Err(BadLod::Range(0))
    );
    assert_eq!(
        Lod::new(Vec3::splat(f32::INFINITY), vec![]),
        Err(BadLod::Center)
    );
}

#[test]
fn switch_selections() {
    let on = |s: Selection| {
        (0..3)
            .map(|i| Switch::new(s.clone()).is_on(i))
            .collect::<Vec<_>>()
    };
    assert_eq!(on(Selection::None), [false; 3]);
    assert_eq!(on(Selection::All), [true; 3]);
    assert_eq!(on(Selection::One(2)), [false, false, true]);
    assert_eq!(on(Selection::One(7)), [false; 3]);
    assert_eq!(on(Selection::Mask(vec![false, true])), [false, true, false]);
}
