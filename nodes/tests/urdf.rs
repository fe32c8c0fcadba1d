//! URDF import: what it reads (origins, axes, limits, mimics, collision shapes, mesh
//! paths, only direct children of `<robot>`), the graph it builds, and every hostile
//! input refused with an error naming the element.

#![cfg(feature = "urdf")]

use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_nodes::Transform;
use scenewalk_nodes::urdf::{
    ImportOptions, JointKind, JointNode, LinkNode, Shape, Source, UrdfError, import, parse,
};
use std::path::PathBuf;

fn robot(body: &str) -> String {
    format!("<?xml version=\"1.0\"?>\n<robot name=\"r\">\n{body}\n</robot>\n")
}

fn read(body: &str) -> Result<scenewalk_nodes::urdf::Robot, UrdfError> {
    parse(&robot(body), &ImportOptions::default())
}

fn joint(name: &str, kind: &str, parent: &str, child: &str, extra: &str) -> String {
    format!(
        "<joint name=\"{name}\" type=\"{kind}\"><parent link=\"{parent}\"/><child link=\"{child}\"/>{extra}</joint>"
    )
}

const LINKS: &str = r#"<link name="a"/><link name="b"/><link name="c"/>"#;

#[allow(
    clippy::panic,
    reason = "a test helper: the test fails on an accepted input"
)]
fn err(body: &str) -> String {
    match read(body) {
        Ok(_) => panic!("accepted: {body}"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn origins_are_fixed_axis_rpy_and_axes_default_to_x_normalised() {
    let r = read(&format!(
        "{LINKS}{}{}",
        joint(
            "j1",
            "revolute",
            "a",
            "b",
            r#"<origin xyz="1 2 3" rpy="0.1 0.2 0.3"/><limit lower="-1" upper="1"/>"#
        ),
        joint("j2", "prismatic", "b", "c", r#"<axis xyz="0 0 -5"/>"#),
    ))
    .unwrap();
    let j1 = &r.joints()[0];
    assert_eq!(j1.axis, Vec3::X);
    assert_eq!(j1.origin.translation, Vec3::new(1.0, 2.0, 3.0).into());
    // R = Rz(yaw)·Ry(pitch)·Rx(roll), by hand.
    let (r_, p, y) = (0.1f32, 0.2f32, 0.3f32);
    let expected =
        Affine3A::from_rotation_z(y) * Affine3A::from_rotation_y(p) * Affine3A::from_rotation_x(r_);
    assert!(j1.origin.matrix3.abs_diff_eq(expected.matrix3, 1e-6));
    let limits = j1.limits.unwrap();
    assert_eq!(
        (limits.lower, limits.upper, limits.effort),
        (-1.0, 1.0, 0.0)
    );
    assert_eq!(r.joints()[1].axis, Vec3::NEG_Z);
    assert_eq!(r.root(), 0);
    assert_eq!(r.parent_link(2), Some(1));
    assert_eq!(r.parent_joint(1), Some(0));
    assert_eq!(r.parent_link(0), None);
}

#[test]
fn only_direct_children_of_robot_are_links_and_joints() {
    let r = read(&format!(
        r#"{LINKS}{}{}
        <transmission name="t"><joint name="j1"><hardwareInterface>h</hardwareInterface></joint></transmission>
        <gazebo reference="a"><link name="ghost"/><joint name="ghost_joint" type="bogus"/></gazebo>"#,
        joint("j1", "continuous", "a", "b", ""),
        joint("j2", "fixed", "a", "c", r#"<axis xyz="0 0 0"/>"#),
    ))
    .unwrap();
    assert_eq!(r.links().len(), 3);
    assert_eq!(r.joints().len(), 2);
    assert_eq!(
        r.joints()[1].axis,
        Vec3::ZERO,
        "a fixed joint may say axis 0 0 0"
    );
    assert_eq!(r.dof(), 1);
}

#[test]
fn every_joint_type_takes_its_values() {
    let r = read(&format!(
        r#"<link name="a"/><link name="b"/><link name="c"/><link name="d"/><link name="e"/><link name="f"/><link name="g"/>
        {}{}{}{}{}{}"#,
        joint("rev", "revolute", "a", "b", ""),
        joint("cont", "continuous", "b", "c", ""),
        joint("pri", "prismatic", "c", "d", ""),
        joint("fix", "fixed", "d", "e", ""),
        joint("flo", "floating", "e", "f", ""),
        joint("pla", "planar", "f", "g", r#"<axis xyz="0 0 1"/>"#),
    ))
    .unwrap();
    let kinds: Vec<JointKind> = r.joints().iter().map(|j| j.kind).collect();
    use JointKind::*;
    assert_eq!(
        kinds,
        [Revolute, Continuous, Prismatic, Fixed, Floating, Planar]
    );
    assert_eq!(r.dof(), 1 + 1 + 1 + 6 + 3);
    assert_eq!(r.variable("flo"), Some(3));
    assert_eq!(r.variable("pla"), Some(9));
    assert_eq!(r.variable("fix"), None);
    // A planar joint about z moves in x and y, then turns about z.
    let pla = &r.joints()[5];
    assert_eq!(pla.plane(), (Vec3::X, Vec3::Y));
    let mut q = vec![0.0; r.dof()];
    q[9..12].copy_from_slice(&[0.5, -0.25, std::f32::consts::FRAC_PI_2]);
    let m = pla.motion(&q);
    assert!(
        m.translation
            .abs_diff_eq(Vec3::new(0.5, -0.25, 0.0).into(), 1e-6)
    );
    assert!(m.transform_vector3(Vec3::X).abs_diff_eq(Vec3::Y, 1e-6));
    // A floating joint: x y z, then roll pitch yaw.
    q[3..9].copy_from_slice(&[1.0, 2.0, 3.0, 0.0, 0.0, std::f32::consts::FRAC_PI_2]);
    let m = r.joints()[4].motion(&q);
    assert!(
        m.translation
            .abs_diff_eq(Vec3::new(1.0, 2.0, 3.0).into(), 1e-6)
    );
    assert!(m.transform_vector3(Vec3::X).abs_diff_eq(Vec3::Y, 1e-6));
}

#[test]
fn mimic_chains_resolve_to_the_first_master() {
    let r = read(&format!(
        r#"{LINKS}<link name="d"/>{}{}{}"#,
        joint(
            "m2",
            "revolute",
            "a",
            "b",
            r#"<mimic joint="m1" multiplier="3" offset="1"/>"#
        ),
        joint(
            "m1",
            "prismatic",
            "a",
            "c",
            r#"<mimic joint="master" multiplier="2" offset="0.5"/>"#
        ),
        joint("master", "continuous", "a", "d", ""),
    ))
    .unwrap();
    assert_eq!(r.dof(), 1);
    // m2 = 3·(2·q + 0.5) + 1 = 6q + 2.5
    assert_eq!(
        r.joints()[0].source,
        Source::Mimic {
            variable: 0,
            multiplier: 6.0,
            offset: 2.5
        }
    );
    let mimic = r.joints()[0].mimic.as_ref().unwrap();
    assert_eq!((mimic.joint, mimic.multiplier), (1, 3.0));
}

#[test]
fn the_graph_has_a_transform_joint_node_between_parent_and_child_links() {
    let r = read(&format!(
        "{LINKS}{}{}",
        joint(
            "j1",
            "revolute",
            "a",
            "b",
            r#"<origin xyz="0 0 1"/><axis xyz="0 0 1"/>"#
        ),
        joint("j2", "fixed", "a", "c", ""),
    ))
    .unwrap();
    let built = r.build_graph().unwrap();
    let g = &built.graph;
    assert_eq!(g.len(), 5);
    let root = built.root(&r).unwrap();
    assert_eq!(g.get::<LinkNode>(root).unwrap().link, 0);
    let j1 = built.joints[0];
    assert_eq!(g.parent(j1).unwrap(), Some(root));
    assert_eq!(g.parent(built.links[1]).unwrap(), Some(j1));
    // The joint node is a Transform to every pass that reads one.
    let node = g.get::<JointNode>(j1).unwrap();
    assert_eq!(node.local().translation.z, 1.0);
    let payload = g.payload(j1).unwrap();
    let base = payload.base().unwrap();
    assert!(base.as_any().downcast_ref::<Transform>().is_some());
    let mut node = *node;
    node.pose(&r, &[std::f32::consts::PI]);
    assert!(
        node.local()
            .transform_vector3(Vec3::X)
            .abs_diff_eq(-Vec3::X, 1e-6)
    );
}

#[test]
fn collision_shapes_and_mesh_paths_resolve() {
    let dir = std::env::temp_dir().join(format!("scenewalk-urdf-{}", std::process::id()));
    let package = dir.join("pkg").join("meshes");
    std::fs::create_dir_all(&package).unwrap();
    std::fs::write(package.join("part.stl"), b"solid x\nendsolid x\n").unwrap();
    std::fs::create_dir_all(dir.join("urdf")).unwrap();
    std::fs::write(dir.join("urdf").join("near.obj"), b"v 0 0 0\n").unwrap();
    let text = robot(
        r#"<link name="a">
          <collision name="c1"><origin xyz="0 0 1" rpy="0 0 0"/><geometry><box size="1 2 3"/></geometry></collision>
          <collision><geometry><cylinder radius="0.5" length="2"/></geometry></collision>
          <collision><geometry><sphere radius="0.25"/></geometry></collision>
          <collision><geometry><mesh filename="package://pkg/meshes/part.stl" scale="2 2 2"/></geometry></collision>
          <collision><geometry><mesh filename="near.obj"/></geometry></collision>
          <visual><geometry><mesh filename="package://pkg/meshes/absent.dae"/></geometry></visual>
        </link>"#,
    );
    let file = dir.join("urdf").join("robot.urdf");
    std::fs::write(&file, &text).unwrap();
    let options = ImportOptions {
        package_roots: vec![PathBuf::from("/nonexistent-root"), dir.clone()],
    };
    let r = import(&file, &options).unwrap();
    let c = r.collisions();
    assert_eq!(c.len(), 5);
    assert!(c.iter().all(|c| c.link == 0));
    assert_eq!(c[0].name.as_deref(), Some("c1"));
    assert_eq!(c[0].origin.translation.z, 1.0);
    assert_eq!(
        c[0].geometry,
        Shape::Box {
            size: Vec3::new(1.0, 2.0, 3.0)
        }
    );
    assert_eq!(
        c[1].geometry,
        Shape::Cylinder {
            radius: 0.5,
            length: 2.0
        }
    );
    assert_eq!(c[2].geometry, Shape::Sphere { radius: 0.25 });
    assert_eq!(
        c[3].geometry,
        Shape::Mesh {
            path: dir.join("pkg/meshes/part.stl"),
            scale: Vec3::splat(2.0)
        }
    );
    assert_eq!(
        c[4].geometry,
        Shape::Mesh {
            path: dir.join("urdf/near.obj"),
            scale: Vec3::ONE
        }
    );
    // A mesh that is not there is an error naming the link and the file.
    let missing = text.replace("part.stl\"", "gone.stl\"");
    std::fs::write(&file, &missing).unwrap();
    let e = import(&file, &options).unwrap_err();
    assert!(
        matches!(&e, UrdfError::MeshNotFound { tried, .. } if tried.len() == 2),
        "{e}"
    );
    assert!(
        e.to_string().contains("package://pkg/meshes/gone.stl") && e.to_string().contains("`a`"),
        "{e}"
    );
    // Without the root, the package is not found either.
    std::fs::write(&file, &text).unwrap();
    assert!(import(&file, &ImportOptions::default()).is_err());
    // A folder is not a file.
    assert!(matches!(import(&dir, &options), Err(UrdfError::Io { .. })));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_roots_are_refused() {
    let e = err(&format!("{LINKS}{}", joint("j", "fixed", "a", "b", "")));
    assert!(
        e.contains("two roots") && e.contains("`a`") && e.contains("`c`"),
        "{e}"
    );
}

#[test]
fn a_cycle_is_refused() {
    let e = err(&format!(
        "{LINKS}{}{}{}",
        joint("j1", "fixed", "a", "b", ""),
        joint("j2", "fixed", "b", "c", ""),
        joint("j3", "fixed", "c", "b", ""),
    ));
    // b has two parents (j1 and j3): that comes first.
    assert!(e.contains("two parents"), "{e}");
    let e = err(&format!(
        r#"{LINKS}<link name="d"/>{}{}{}"#,
        joint("j1", "fixed", "a", "b", ""),
        joint("j2", "fixed", "c", "d", ""),
        joint("j3", "fixed", "d", "c", ""),
    ));
    assert!(
        e.contains("cycle") && (e.contains("`c`") || e.contains("`d`")),
        "{e}"
    );
    let e = err(&format!(
        "{}{}",
        "<link name=\"a\"/><link name=\"b\"/>",
        joint("j1", "fixed", "a", "b", "") + &joint("j2", "fixed", "b", "a", "")
    ));
    assert!(e.contains("cycle"), "{e}");
    let e = err(&format!(
        "<link name=\"a\"/>{}",
        joint("self", "fixed", "a", "a", "")
    ));
    assert!(e.contains("cycle") && e.contains("`a`"), "{e}");
}

#[test]
fn a_link_with_two_parents_is_refused() {
    let e = err(&format!(
        "{LINKS}{}{}{}",
        joint("j1", "fixed", "a", "b", ""),
        joint("j2", "fixed", "a", "c", ""),
        joint("j3", "fixed", "b", "c", ""),
    ));
    assert!(
        e.contains("link `c` has two parents") && e.contains("`j2`") && e.contains("`j3`"),
        "{e}"
    );
    assert!(e.contains("line 3"), "{e}");
}

#[test]
fn a_joint_naming_a_missing_link_is_refused() {
    let e = err(&format!(
        "{LINKS}{}",
        joint("j1", "fixed", "a", "nowhere", "")
    ));
    assert!(
        e.contains("joint `j1`") && e.contains("child link `nowhere`"),
        "{e}"
    );
    let e = err(&format!("{LINKS}{}", joint("j1", "fixed", "gone", "b", "")));
    assert!(e.contains("parent link `gone`"), "{e}");
}

#[test]
fn mimic_cycles_and_missing_masters_are_refused() {
    let e = err(&format!(
        "{LINKS}{}{}",
        joint("j1", "revolute", "a", "b", r#"<mimic joint="j2"/>"#),
        joint("j2", "revolute", "a", "c", r#"<mimic joint="j1"/>"#),
    ));
    assert!(e.contains("cycle") && e.contains("`j1`"), "{e}");
    const TWO: &str = r#"<link name="a"/><link name="b"/>"#;
    let e = err(&format!(
        "{TWO}{}",
        joint("j1", "revolute", "a", "b", r#"<mimic joint="j1"/>"#)
    ));
    assert!(e.contains("cycle"), "{e}");
    let e = err(&format!(
        "{TWO}{}",
        joint("j1", "revolute", "a", "b", r#"<mimic joint="ghost"/>"#)
    ));
    assert!(
        e.contains("joint `j1`") && e.contains("mimics `ghost`"),
        "{e}"
    );
    // A mimic of a fixed joint, and a mimic on a floating one.
    let e = err(&format!(
        "{LINKS}{}{}",
        joint("j1", "revolute", "a", "b", r#"<mimic joint="j2"/>"#),
        joint("j2", "fixed", "a", "c", ""),
    ));
    assert!(e.contains("`j1`") && e.contains("`j2`"), "{e}");
    let e = err(&format!(
        "{LINKS}{}{}",
        joint("j1", "floating", "a", "b", r#"<mimic joint="j2"/>"#),
        joint("j2", "revolute", "a", "c", ""),
    ));
    assert!(e.contains("`j1`"), "{e}");
}

#[test]
fn non_finite_numbers_are_refused() {
    for bad in [
        "nan 0 0", "0 inf 0", "0 0 -inf", "1e39 0 0", "1 2", "1 2 3 4", "a b c",
    ] {
        let e = err(&format!(
            "{LINKS}{}",
            joint(
                "j1",
                "fixed",
                "a",
                "b",
                &format!(r#"<origin xyz="{bad}"/>"#)
            )
        ));
        assert!(
            e.contains("<origin>") && e.contains(&format!("xyz=\"{bad}\"")),
            "{e}"
        );
    }
    let e = err(&format!(
        "{LINKS}{}",
        joint(
            "j1",
            "revolute",
            "a",
            "b",
            r#"<limit lower="NaN" upper="1"/>"#
        )
    ));
    assert!(e.contains("lower") && e.contains("finite"), "{e}");
    let e = err(
        r#"<link name="a"><collision><geometry><sphere radius="inf"/></geometry></collision></link>"#,
    );
    assert!(e.contains("<sphere>") && e.contains("radius"), "{e}");
    let e = err(
        r#"<link name="a"><collision><geometry><box size="1 -1 1"/></geometry></collision></link>"#,
    );
    assert!(e.contains("<box>") && e.contains("size"), "{e}");
    let e = err(&format!(
        "{LINKS}{}",
        joint(
            "j1",
            "revolute",
            "a",
            "b",
            r#"<mimic joint="j1" multiplier="nan"/>"#
        )
    ));
    assert!(e.contains("multiplier"), "{e}");
}

#[test]
fn unknown_joint_types_and_missing_parts_are_refused() {
    let column = LINKS.chars().count() as u32 + 1;
    let refused = read(&format!("{LINKS}{}", joint("j1", "ball", "a", "b", "")));
    assert!(
        matches!(refused, Err(UrdfError::UnknownJointType { at, .. }) if at.line == 3 && at.column == column),
        "{refused:?}"
    );
    let e = err(&format!("{LINKS}{}", joint("j1", "ball", "a", "b", "")));
    assert!(
        e.contains("joint `j1`") && e.contains("\"ball\"") && e.contains("line 3"),
        "{e}"
    );
    let e = err(&format!(
        "{LINKS}<joint name=\"j1\"><parent link=\"a\"/><child link=\"b\"/></joint>"
    ));
    assert!(e.contains("joint name=\"j1\"") && e.contains("type"), "{e}");
    let e = err(&format!(
        "{LINKS}<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/></joint>"
    ));
    assert!(e.contains("child"), "{e}");
    let e = err("<link/>");
    assert!(e.contains("name"), "{e}");
    let e = err(&format!(
        "{LINKS}{}",
        joint("j1", "revolute", "a", "b", r#"<axis xyz="0 0 0"/>"#)
    ));
    assert!(
        e.contains("revolute joint `j1`") && e.contains("zero axis"),
        "{e}"
    );
    let e = err(&format!(
        "{LINKS}{}",
        joint(
            "j1",
            "prismatic",
            "a",
            "b",
            r#"<limit lower="1" upper="-1"/>"#
        )
    ));
    assert!(e.contains("lower limit"), "{e}");
    let e = err(
        r#"<link name="a"><collision><geometry><capsule radius="1" length="1"/></geometry></collision></link>"#,
    );
    assert!(e.contains("link `a`") && e.contains("no box"), "{e}");
    let e = err(r#"<link name="a"><collision><geometry><mesh/></geometry></collision></link>"#);
    assert!(e.contains("<mesh>") && e.contains("filename"), "{e}");
    let e = err(r#"<link name="a"/><link name="a"/>"#);
    assert!(e.contains("two <link>s are named `a`"), "{e}");
    let e = err(&format!(
        "{LINKS}{}{}",
        joint("j", "fixed", "a", "b", ""),
        joint("j", "fixed", "a", "c", "")
    ));
    assert!(e.contains("two <joint>s are named `j`"), "{e}");
    assert!(matches!(read(""), Err(UrdfError::NoLinks)));
    assert!(matches!(
        parse("<world/>", &ImportOptions::default()),
        Err(UrdfError::NotRobot(_))
    ));
    assert!(matches!(
        parse("<robot><link", &ImportOptions::default()),
        Err(UrdfError::Xml(_))
    ));
}

/// Every prefix of a valid file, and the file with each byte replaced, is read or
/// refused without a panic.
#[test]
fn damaged_files_never_panic() {
    let text = robot(&format!(
        r#"{LINKS}<link name="d"/>{}{}{}"#,
        joint(
            "j1",
            "revolute",
            "a",
            "b",
            r#"<origin xyz="1 2 3" rpy="0.1 0.2 0.3"/><mimic joint="j2" multiplier="2"/>"#
        ),
        joint(
            "j2",
            "prismatic",
            "a",
            "c",
            r#"<axis xyz="0 1 1"/><limit lower="-1" upper="1"/>"#
        ),
        joint("j3", "planar", "c", "d", ""),
    ));
    assert!(parse(&text, &ImportOptions::default()).is_ok());
    for end in 0..text.len() {
        let _ = parse(&text[..end], &ImportOptions::default());
    }
    let bytes = text.as_bytes();
    for i in 0..bytes.len() {
        for b in [b'"', b'<', b'0', b'a', b' '] {
            let mut damaged = bytes.to_vec();
            damaged[i] = b;
            if let Ok(s) = std::str::from_utf8(&damaged)
                && let Ok(r) = parse(s, &ImportOptions::default())
            {
                // Whatever is accepted builds its graph.
                let built = r.build_graph().unwrap();
                assert_eq!(built.links.len(), r.links().len());
                assert_eq!(built.joints.len(), r.joints().len());
            }
        }
    }
}
