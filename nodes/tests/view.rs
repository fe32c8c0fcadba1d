//! Cameras, frusta, level of detail and switches against direct computations.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::Aabb;
use scenewalk_core::glam::{Affine3A, Mat4, Quat, Vec3, Vec4};
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

/// The near and far distances of the strategy's perspective cameras.
fn depth_range(camera: &Camera) -> (f32, f32) {
    match camera.projection() {
        Projection::Perspective { near, far, .. } => (*near, far.unwrap_or(*near)),
        _ => (1.0, 1.0),
    }
}

/// Inside by the clip-space definition: `-w <= x, y <= w` and `0 <= z <= w`.
fn inside_by_clip(camera: &Camera, world: &Affine3A, p: Vec3) -> bool {
    let clip = camera.projection_matrix() * Mat4::from(world.inverse()) * p.extend(1.0);
    let w = clip.w;
    clip.x.abs() <= w && clip.y.abs() <= w && clip.z >= 0.0 && clip.z <= w
}

/// How far inside the exact view volume `p` lies (negative: outside), in f64 from the
/// projection's parameters: depth `d` along -z between near and far, `|x| <= d tan(yfov
/// / 2) aspect` and `|y| <= d tan(yfov / 2)`. Clip space in f32 is no oracle for single
/// points near the far plane: it compares `z` with `w` after scaling the gap by near /
/// far, so it let a point 5 mm beyond a far plane at 174 units count as inside.
fn clearance(camera: &Camera, world: &Affine3A, p: Vec3) -> f64 {
    let Projection::Perspective {
        yfov,
        aspect,
        near,
        far,
    } = *camera.projection()
    else {
        unreachable!("the strategy draws perspective cameras")
    };
    let local = Mat4::from(*world)
        .as_dmat4()
        .inverse()
        .transform_point3(p.as_dvec3());
    let (d, y) = (-local.z, (0.5 * f64::from(yfov)).tan());
    let x = y * f64::from(aspect.unwrap_or(1.0));
    // The strategy's worlds are rotations: distances in the camera's frame are the world's.
    let side = |slope: f64, c: f64| (d * slope - c.abs()) / slope.hypot(1.0);
    let far = far.map_or(f64::INFINITY, f64::from) - d;
    [d - f64::from(near), far, side(x, local.x), side(y, local.y)]
        .into_iter()
        .fold(f64::INFINITY, f64::min)
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
            // Points within float noise of a plane may go either way: the clip-space
            // test rounds in f32, and the planes lie outside the exact volume by up to
            // 2^-20 of its largest corner coordinate. Near the far plane clip space
            // scales a distance by near / (far - near) before comparing z with w, so
            // its rounding there is that much coarser.
            let scale = 1.0 + p.abs().max_element() + world.translation.abs().max_element();
            let (near, far) = depth_range(&camera);
            let near_planes = frustum.planes()[..5].iter().map(|pl| (pl.truncate().dot(p) + pl.w).abs());
            let far_plane = frustum.planes()[5];
            let clear = near_planes.fold(f32::MAX, f32::min) > 1e-5 * (scale + far)
                && (far_plane.truncate().dot(p) + far_plane.w).abs() > 8.0 * f32::EPSILON * far * far / near;
            if clear {
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
            let p = b.min + (b.max - b.min) * t;
            // The frustum evaluates its planes in f32: a point within float noise of
            // one may go either way (as in `frustum_points_agree_with_clip_space`).
            let scale = 1.0 + p.abs().max_element() + world.translation.abs().max_element();
            seen |= clearance(&camera, &world, p) > 1e-5 * f64::from(scale + depth_range(&camera).1);
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
fn look_at_aims_minus_z_at_the_target() {
    let world = Camera::look_at(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, Vec3::Y).unwrap();
    assert!((world.transform_vector3(-Vec3::Z) - -Vec3::Z).length() < 1e-6);
    assert_eq!(Camera::look_at(Vec3::ZERO, Vec3::Y, Vec3::Y), None);
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
    let visible = |f: &Frustum, b: &Aabb| f.classify(b, PlaneMask::ALL) != Containment::Outside;
    let frustum = Frustum::from_planes([Vec4::ZERO; 6]);
    let b = Aabb::new(Vec3::ZERO, Vec3::ONE);
    assert!(
        visible(&frustum, &b),
        "zero planes with d = 0 hold everything"
    );
    let none = Frustum::from_planes([Vec4::new(0.0, 0.0, 0.0, -1.0); 6]);
    assert!(
        !visible(&none, &b),
        "a zero normal with d < 0 holds nothing"
    );
    let camera = Camera::perspective(1.0, 1.0, 0.1, 10.0).unwrap();
    let frustum = camera.frustum(&Affine3A::IDENTITY);
    let nan = Aabb {
        min: Vec3::NAN,
        max: Vec3::ONE,
    };
    assert!(visible(&frustum, &nan));
    assert!(visible(&frustum, &Aabb::EMPTY));
    let nan_planes = camera.frustum(&Affine3A::from_translation(Vec3::NAN));
    assert!(visible(&nan_planes, &b));
}

#[test]
fn lod_ranges_include_their_start_and_exclude_their_end() {
    let lod = Lod::from_thresholds(Vec3::ZERO, &[10.0, 20.0]).unwrap();
    let pick = |d: f32| {
        (0..lod.ranges().len())
            .filter(|&i| lod.shows(i, d))
            .collect::<Vec<_>>()
    };
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

/// The view volume computed here in f64 from the projection's parameters alone: its
/// inward plane normals in the camera frame (left, right, bottom, top, near, far),
/// its corners at depth `near` then `far` (for an infinite far plane, the far four
/// are the side edges' directions), placed by `world`.
struct Exact {
    points: Vec<[f64; 3]>,
    rays: Vec<[f64; 3]>,
    /// For each plane, the indices into `points` of the corners lying on it.
    on_plane: [Vec<usize>; 6],
}

fn exact_volume(projection: &Projection, world: &Affine3A) -> Exact {
    let (slope, half, near, far) = match *projection {
        Projection::Perspective {
            yfov,
            aspect,
            near,
            far,
        } => {
            let ty = (f64::from(yfov) / 2.0).tan();
            let tx = ty * f64::from(aspect.unwrap_or(1.0));
            ((tx, ty), (0.0, 0.0), f64::from(near), far.map(f64::from))
        }
        Projection::Orthographic {
            xmag,
            ymag,
            near,
            far,
        } => (
            (0.0, 0.0),
            (f64::from(xmag).abs(), f64::from(ymag).abs()),
            f64::from(near),
            Some(f64::from(far)),
        ),
    };
    let m = world.matrix3.to_cols_array().map(f64::from);
    let t = world.translation.to_array().map(f64::from);
    let apply = |v: [f64; 3], with_t: bool| -> [f64; 3] {
        std::array::from_fn(|r| {
            let o = if with_t { t[r] } else { 0.0 };
            m[r] * v[0] + m[3 + r] * v[1] + m[6 + r] * v[2] + o
        })
    };
    let local =
        |s: f64, x: f64, y: f64| [x * (half.0 + slope.0 * s), y * (half.1 + slope.1 * s), -s];
    let signs = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)];
    let mut points: Vec<_> = signs
        .iter()
        .map(|&(x, y)| apply(local(near, x, y), true))
        .collect();
    let mut rays = Vec::new();
    match far {
        Some(far) => points.extend(signs.iter().map(|&(x, y)| apply(local(far, x, y), true))),
        None => rays.extend(signs.iter().map(|&(x, y)| apply(local(1.0, x, y), false))),
    }
    // Corners 0..4 near (bl, br, tr, tl), 4..8 far.
    let on_plane = [
        vec![0, 3, 4, 7],
        vec![1, 2, 5, 6],
        vec![0, 1, 4, 5],
        vec![2, 3, 6, 7],
        vec![0, 1, 2, 3],
        vec![4, 5, 6, 7],
    ]
    .map(|v| v.into_iter().filter(|&i| i < points.len()).collect());
    Exact {
        points,
        rays,
        on_plane,
    }
}

fn signed(plane: Vec4, p: [f64; 3]) -> f64 {
    let n = plane.to_array().map(f64::from);
    n[0] * p[0] + n[1] * p[1] + n[2] * p[2] + n[3]
}

/// Perspective and orthographic projections with near/far ratios from 1e-1 to 1e-7
/// (and infinite far planes), placed anywhere, rotated, scaled (unevenly too).
fn any_camera() -> impl Strategy<Value = (Projection, Affine3A)> {
    let perspective = (
        0.05f32..3.0,
        0.2f32..5.0,
        -3.0f32..1.0,
        1.0f32..7.0,
        any::<bool>(),
    )
        .prop_map(|(yfov, aspect, near, ratio, infinite)| {
            let near = 10f32.powf(near);
            Projection::Perspective {
                yfov,
                aspect: Some(aspect),
                near,
                far: (!infinite).then(|| near * 10f32.powf(ratio)),
            }
        });
    let orthographic = (
        -100.0f32..100.0,
        0.01f32..100.0,
        -3.0f32..1.0,
        1.0f32..7.0,
        any::<bool>(),
    )
        .prop_filter_map("a magnification", |(xmag, ymag, near, ratio, zero)| {
            let near = if zero { 0.0 } else { 10f32.powf(near) };
            let far = near.max(1e-3) * 10f32.powf(ratio);
            (xmag.abs() > 1e-3).then_some(Projection::Orthographic {
                xmag,
                ymag,
                near,
                far,
            })
        });
    let placement = (
        prop::array::uniform4(-1.0f32..1.0),
        prop::array::uniform3(-1e4f32..1e4),
        prop::array::uniform3(0.5f32..2.0),
    )
        .prop_filter_map("a rotation", |(q, t, s)| {
            let q = Quat::from_vec4(Vec4::from_array(q).try_normalize()?);
            Some(Affine3A::from_scale_rotation_translation(
                Vec3::from(s),
                q,
                Vec3::from(t),
            ))
        });
    (prop_oneof![perspective, orthographic], placement)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every exact corner (and, for an infinite far plane, every point far along the
    /// side edges) lies inside or on every plane, evaluated in f64; and each plane
    /// passes within 2^-20 of the largest corner coordinate of the corners on it.
    #[test]
    fn frustum_planes_hold_the_exact_view_volume((projection, world) in any_camera()) {
        let camera = Camera::try_new(projection).unwrap();
        let planes = *camera.frustum(&world).planes();
        let exact = exact_volume(&projection, &world);
        let reach = exact.points.iter().flatten().fold(0.0f64, |m, c| m.max(c.abs()));
        let far_out: Vec<[f64; 3]> = exact.rays.iter().flat_map(|w| {
            [1e3, 1e6, 1e9, 1e12].map(|l| std::array::from_fn(|k| exact.points[0][k] + w[k] * l))
        }).collect();
        for (i, plane) in planes.iter().enumerate() {
            for p in exact.points.iter().chain(&far_out) {
                prop_assert!(signed(*plane, *p) >= 0.0, "plane {} cuts {:?} by {}", i, p, signed(*plane, *p));
            }
            let length = f64::from(plane.truncate().length());
            for &c in &exact.on_plane[i] {
                let gap = signed(*plane, exact.points[c]) / length;
                prop_assert!(gap <= reach * 2f64.powi(-20), "plane {} is {} off corner {}", i, gap, c);
            }
        }
    }
}

/// Near 0.01, far 1000: the far plane sat at depth 998.65, so a box just before it was
/// culled.
#[test]
fn a_box_just_before_the_far_plane_is_visible() {
    let frustum = Camera::perspective(1.0, 1.0, 0.01, 1000.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY);
    let far = frustum.planes()[5];
    assert!((far.w - 1000.0).abs() <= 1e-3, "far plane at {}", far.w);
    let b = Aabb::new(Vec3::new(-0.5, -0.5, -999.5), Vec3::new(0.5, 0.5, -999.0));
    assert_ne!(frustum.classify(&b, PlaneMask::ALL), Containment::Outside);
    let deep = Camera::perspective(1.0, 1.0, 0.1, 10_000.0)
        .unwrap()
        .frustum(&Affine3A::IDENTITY);
    assert!((deep.planes()[5].w - 10_000.0).abs() <= 1e-2);
}
