//! An independent forward kinematics, written from the URDF specification in f64 with
//! its own matrices (none of the library's code): the oracle of the robot tests.
//!
//! It reads the XML itself, keeps only direct children of `<robot>`, numbers the
//! configuration's variables as the library documents (moving non-mimic joints in
//! file order; floating x y z roll pitch yaw; planar u v angle), and poses each link
//! by recursion from the root.

#![allow(
    dead_code,
    clippy::indexing_slicing,
    clippy::needless_range_loop,
    clippy::unwrap_used,
    reason = "a test oracle over fixed-size arrays; a malformed file fails the test"
)]

use std::collections::HashMap;

/// A 4×4 rigid transform, row-major: rotation `r`, translation `t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub r: [[f64; 3]; 3],
    pub t: [f64; 3],
}

impl Pose {
    pub const IDENTITY: Pose = Pose {
        r: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        t: [0.0; 3],
    };

    pub fn mul(&self, o: &Pose) -> Pose {
        let mut r = [[0.0; 3]; 3];
        let mut t = self.t;
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = (0..3).map(|k| self.r[i][k] * o.r[k][j]).sum();
            }
            t[i] += (0..3).map(|k| self.r[i][k] * o.t[k]).sum::<f64>();
        }
        Pose { r, t }
    }

    pub fn translation(t: [f64; 3]) -> Pose {
        Pose {
            t,
            ..Pose::IDENTITY
        }
    }

    pub fn rotation(r: [[f64; 3]; 3]) -> Pose {
        Pose { r, t: [0.0; 3] }
    }

    pub fn apply(&self, v: [f64; 3]) -> [f64; 3] {
        let mut out = [0.0; 3];
        for i in 0..3 {
            out[i] = (0..3).map(|k| self.r[i][k] * v[k]).sum();
        }
        out
    }
}

/// Rodrigues' rotation about the unit axis `a` by `angle`.
pub fn axis_angle(a: [f64; 3], angle: f64) -> [[f64; 3]; 3] {
    let (s, c) = angle.sin_cos();
    let [x, y, z] = a;
    let k = 1.0 - c;
    [
        [c + x * x * k, x * y * k - z * s, x * z * k + y * s],
        [y * x * k + z * s, c + y * y * k, y * z * k - x * s],
        [z * x * k - y * s, z * y * k + x * s, c + z * z * k],
    ]
}

/// R = Rz(yaw)·Ry(pitch)·Rx(roll).
pub fn rpy(roll: f64, pitch: f64, yaw: f64) -> [[f64; 3]; 3] {
    let rx = Pose::rotation(axis_angle([1.0, 0.0, 0.0], roll));
    let ry = Pose::rotation(axis_angle([0.0, 1.0, 0.0], pitch));
    let rz = Pose::rotation(axis_angle([0.0, 0.0, 1.0], yaw));
    rz.mul(&ry).mul(&rx).r
}

fn normalize(v: [f64; 3]) -> [f64; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if n == 0.0 { v } else { v.map(|c| c / n) }
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[derive(Clone, Debug)]
pub struct RefJoint {
    pub name: String,
    pub kind: String,
    pub parent: String,
    pub child: String,
    pub origin: Pose,
    pub axis: [f64; 3],
    pub lower: f64,
    pub upper: f64,
    pub limited: bool,
    pub mimic: Option<(String, f64, f64)>,
    /// First variable, for moving non-mimic joints.
    pub variable: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct RefRobot {
    pub links: Vec<String>,
    pub joints: Vec<RefJoint>,
    pub dof: usize,
}

fn triple(node: roxmltree::Node, attribute: &str, default: [f64; 3]) -> [f64; 3] {
    match node.attribute(attribute) {
        None => default,
        Some(text) => {
            let v: Vec<f64> = text
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            [v[0], v[1], v[2]]
        }
    }
}

fn width(kind: &str) -> usize {
    match kind {
        "revolute" | "continuous" | "prismatic" => 1,
        "floating" => 6,
        "planar" => 3,
        _ => 0,
    }
}

impl RefRobot {
    pub fn parse(text: &str) -> RefRobot {
        let doc = roxmltree::Document::parse(text).unwrap();
        let robot = doc.root_element();
        let mut links = Vec::new();
        let mut joints = Vec::new();
        let mut dof = 0;
        for node in robot.children().filter(|n| n.is_element()) {
            match node.tag_name().name() {
                "link" => links.push(node.attribute("name").unwrap().to_string()),
                "joint" => {
                    let child_el = |tag: &str| node.children().find(|c| c.has_tag_name(tag));
                    let origin = match child_el("origin") {
                        Some(o) => {
                            let [r, p, y] = triple(o, "rpy", [0.0; 3]);
                            Pose {
                                r: rpy(r, p, y),
                                t: triple(o, "xyz", [0.0; 3]),
                            }
                        }
                        None => Pose::IDENTITY,
                    };
                    let axis = normalize(
                        child_el("axis")
                            .map_or([1.0, 0.0, 0.0], |a| triple(a, "xyz", [1.0, 0.0, 0.0])),
                    );
                    let limit = child_el("limit");
                    let num = |n: Option<roxmltree::Node>, a: &str, d: f64| {
                        n.and_then(|n| n.attribute(a))
                            .map_or(d, |t| t.trim().parse().unwrap())
                    };
                    let mimic = child_el("mimic").map(|m| {
                        (
                            m.attribute("joint").unwrap().to_string(),
                            num(Some(m), "multiplier", 1.0),
                            num(Some(m), "offset", 0.0),
                        )
                    });
                    let kind = node.attribute("type").unwrap().to_string();
                    let variable = if mimic.is_none() && width(&kind) > 0 {
                        dof += width(&kind);
                        Some(dof - width(&kind))
                    } else {
                        None
                    };
                    joints.push(RefJoint {
                        name: node.attribute("name").unwrap().to_string(),
                        parent: child_el("parent")
                            .unwrap()
                            .attribute("link")
                            .unwrap()
                            .to_string(),
                        child: child_el("child")
                            .unwrap()
                            .attribute("link")
                            .unwrap()
                            .to_string(),
                        origin,
                        axis,
                        lower: num(limit, "lower", 0.0),
                        upper: num(limit, "upper", 0.0),
                        limited: limit.is_some() && (kind == "revolute" || kind == "prismatic"),
                        mimic,
                        variable,
                        kind,
                    });
                }
                _ => {}
            }
        }
        RefRobot { links, joints, dof }
    }

    /// The value of a one-value joint at `q` (mimics followed to their master).
    fn value(&self, joint: &RefJoint, q: &[f64]) -> f64 {
        match &joint.mimic {
            None => q[joint.variable.unwrap()],
            Some((master, m, o)) => {
                let master = self.joints.iter().find(|j| &j.name == master).unwrap();
                m * self.value(master, q) + o
            }
        }
    }

    fn motion(&self, joint: &RefJoint, q: &[f64]) -> Pose {
        let a = joint.axis;
        match joint.kind.as_str() {
            "revolute" | "continuous" => Pose::rotation(axis_angle(a, self.value(joint, q))),
            "prismatic" => Pose::translation(a.map(|c| c * self.value(joint, q))),
            "floating" => {
                let v = &q[joint.variable.unwrap()..];
                Pose::translation([v[0], v[1], v[2]]).mul(&Pose::rotation(rpy(v[3], v[4], v[5])))
            }
            "planar" => {
                let v = &q[joint.variable.unwrap()..];
                let seed = if a[0].abs() < 0.9 {
                    [1.0, 0.0, 0.0]
                } else {
                    [0.0, 1.0, 0.0]
                };
                let d: f64 = (0..3).map(|i| a[i] * seed[i]).sum();
                let e1 = normalize([0, 1, 2].map(|i| seed[i] - a[i] * d));
                let e2 = cross(a, e1);
                let t = [0, 1, 2].map(|i| e1[i] * v[0] + e2[i] * v[1]);
                Pose::translation(t).mul(&Pose::rotation(axis_angle(a, v[2])))
            }
            _ => Pose::IDENTITY,
        }
    }

    /// Every link's world pose (by link, file order), by recursion from the root.
    pub fn poses(&self, q: &[f64]) -> Vec<Pose> {
        let index: HashMap<&str, usize> = self
            .links
            .iter()
            .enumerate()
            .map(|(i, l)| (l.as_str(), i))
            .collect();
        let children: Vec<&str> = self.joints.iter().map(|j| j.child.as_str()).collect();
        let root = self
            .links
            .iter()
            .find(|l| !children.contains(&l.as_str()))
            .unwrap();
        let mut poses = vec![None; self.links.len()];
        fn visit(
            r: &RefRobot,
            link: &str,
            pose: Pose,
            q: &[f64],
            index: &HashMap<&str, usize>,
            poses: &mut Vec<Option<Pose>>,
        ) {
            poses[index[link]] = Some(pose);
            for joint in r.joints.iter().filter(|j| j.parent == link) {
                let child = pose.mul(&joint.origin).mul(&r.motion(joint, q));
                visit(r, &joint.child, child, q, index, poses);
            }
        }
        visit(self, root, Pose::IDENTITY, q, &index, &mut poses);
        poses.into_iter().map(Option::unwrap).collect()
    }

    /// A random configuration: limited joints within their limits, others in ±π
    /// (±1 for the translations of floating and planar joints).
    pub fn random(&self, rng: &mut Rng) -> Vec<f64> {
        let mut q = vec![0.0; self.dof];
        for joint in &self.joints {
            let Some(at) = joint.variable else { continue };
            for k in 0..width(&joint.kind) {
                let (lo, hi) = if joint.limited && joint.lower < joint.upper {
                    (joint.lower, joint.upper)
                } else if (joint.kind == "floating" && k < 3) || (joint.kind == "planar" && k < 2) {
                    (-1.0, 1.0)
                } else {
                    (-std::f64::consts::PI, std::f64::consts::PI)
                };
                q[at + k] = lo + (hi - lo) * rng.unit();
            }
        }
        q
    }
}

/// A small seeded generator (splitmix64), so every run checks the same configurations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The largest difference between a library pose (glam, f32) and a reference pose.
pub fn pose_error(pose: &scenewalk_core::glam::Affine3A, reference: &Pose) -> f64 {
    let mut worst: f64 = 0.0;
    let cols = [
        pose.matrix3.x_axis,
        pose.matrix3.y_axis,
        pose.matrix3.z_axis,
    ];
    for i in 0..3 {
        for j in 0..3 {
            worst = worst.max((f64::from(cols[j][i]) - reference.r[i][j]).abs());
        }
        worst = worst.max((f64::from(pose.translation[i]) - reference.t[i]).abs());
    }
    worst
}

/// Every link's geometric Jacobian (by link, then variable) by central differences
/// of the reference poses: per variable, the linear velocity of the link's origin and
/// the angular velocity from dR · Rᵀ.
pub fn finite_jacobians(robot: &RefRobot, q: &[f64]) -> Vec<Vec<[f64; 6]>> {
    let h = 1e-6;
    let poses = robot.poses(q);
    let mut out = vec![Vec::with_capacity(robot.dof); poses.len()];
    for j in 0..robot.dof {
        let (mut plus, mut minus) = (q.to_vec(), q.to_vec());
        plus[j] += h;
        minus[j] -= h;
        let (plus, minus) = (robot.poses(&plus), robot.poses(&minus));
        for (link, column) in out.iter_mut().enumerate() {
            let (p, m, r) = (&plus[link], &minus[link], &poses[link].r);
            let v: [f64; 3] = [0, 1, 2].map(|i| (p.t[i] - m.t[i]) / (2.0 * h));
            // S = dR · Rᵀ is the skew matrix of ω.
            let s = |a: usize, b: usize| {
                (0..3)
                    .map(|k| (p.r[a][k] - m.r[a][k]) / (2.0 * h) * r[b][k])
                    .sum::<f64>()
            };
            column.push([v[0], v[1], v[2], s(2, 1), s(0, 2), s(1, 0)]);
        }
    }
    out
}
