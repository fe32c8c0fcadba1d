//! Case l: kinematic trees. URDF robots from the shared set (Panda, UR5, PR2, Unitree
//! G1), each at 1,000 random configurations within its limits (100 with `--quick`),
//! times per configuration:
//!
//! - **FK** (every link's world pose) on all four: `hand_loop` (no framework: the
//!   joints in topological order, each `world[child] = world[parent] · origin ·
//!   motion(q)` from precomputed origins, axes and variable indices),
//!   `library_forward` ([`Kinematics::forward`], the model compiled from the robot
//!   graph's flattened order) and `library_scene_update` ([`RobotScene`]: the joint
//!   nodes re-posed and the library's incremental update pass over the graph, then
//!   every link's pose read);
//! - **Jacobian** of the end link (the one with the most moving joints above it) on
//!   Panda, on poses already computed: `hand_loop` (over the moving joints above the
//!   link, listed once: `[a × (p − o); a]` or `[a; 0]` from the child link's pose,
//!   mimics folded in) against [`Kinematics::jacobian`];
//! - **batch FK** of 100,000 Panda configurations (10,000 with `--quick`) into one
//!   buffer: `hand_loop`, `sequential` ([`Kinematics::forward_batch`]) and
//!   `threads_N` ([`Kinematics::forward_batch_parallel`] in a pool of all cores);
//! - **self-collision** on Panda and UR5, with their SRDFs and without (all pairs of
//!   links with geometry minus adjacent ones), FK included:
//!   `hand_loop` (the hand FK, then for each checked link pair each element pair's
//!   world boxes and, if they overlap, [`Collide::meshes`] to the first contact)
//!   against `library_check` ([`Kinematics::forward`] then [`SelfCollision::check`]).
//!
//! Contenders must agree (checksums of the last configuration's poses rounded to
//! 1e-3, of the Jacobian, of the colliding pair count): the case stops otherwise.
//! Without the shared set the case says so and is skipped.

use crate::Config;
use scenewalk_actors::robot::{Jacobian, Kinematics, KinematicsData, RobotScene};
use scenewalk_actors::{Collide, ContactMode, SelfCollision};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_examples::report::{
    Contender, Row, SEQUENTIAL, checksums, round_robin, threads_contender,
};
use scenewalk_examples::robot::{end_link, random_configurations};
use scenewalk_nodes::urdf::{
    CollisionMesh, ImportOptions, JointKind, Robot, Source, Srdf, Tessellation, import,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The shared robots folder.
fn robots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes/urdf")
}

/// Reads `file` (under the robots folder).
fn load(file: &str) -> Result<Arc<Robot>, String> {
    let root = robots();
    let options = ImportOptions {
        package_roots: vec![root.clone()],
    };
    let path = root.join("example-robot-data/robots").join(file);
    import(&path, &options)
        .map(Arc::new)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// One joint of the hand loop.
struct HandJoint {
    parent: usize,
    child: usize,
    origin: Affine3A,
    axis: Vec3,
    kind: JointKind,
    /// (variable, multiplier, offset); `None` for a fixed joint.
    source: Option<(usize, f32, f32)>,
    joint: usize,
}

/// The hand loop's tables: the joints in topological order.
struct HandRobot {
    robot: Arc<Robot>,
    joints: Vec<HandJoint>,
}

impl HandRobot {
    fn new(robot: &Arc<Robot>) -> Self {
        let joints = (robot.order().iter())
            .map(|&j| {
                let joint = &robot.joints()[j];
                let source = match joint.source {
                    Source::None => None,
                    Source::Own(v) => Some((v, 1.0, 0.0)),
                    Source::Mimic {
                        variable,
                        multiplier,
                        offset,
                    } => Some((variable, multiplier, offset)),
                };
                HandJoint {
                    parent: joint.parent,
                    child: joint.child,
                    origin: joint.origin,
                    axis: joint.axis,
                    kind: joint.kind,
                    source,
                    joint: j,
                }
            })
            .collect();
        Self {
            robot: Arc::clone(robot),
            joints,
        }
    }

    /// Every link's pose at `q` into `world`.
    #[inline]
    fn forward(&self, q: &[f32], world: &mut [Affine3A]) {
        world[self.robot.root()] = Affine3A::IDENTITY;
        for j in &self.joints {
            let local = match (j.kind, j.source) {
                (_, None) => j.origin,
                (JointKind::Revolute | JointKind::Continuous, Some((v, m, o))) => {
                    j.origin * Affine3A::from_axis_angle(j.axis, m * q[v] + o)
                }
                (JointKind::Prismatic, Some((v, m, o))) => {
                    j.origin * Affine3A::from_translation(j.axis * (m * q[v] + o))
                }
                _ => j.origin * self.robot.joints()[j.joint].motion(q),
            };
            world[j.child] = world[j.parent] * local;
        }
    }

    /// The moving joints above `link`, for [`jacobian`](Self::jacobian): per joint its
    /// child link, its axis, whether it is prismatic, its variable and multiplier.
    fn chain(&self, mut link: usize) -> Vec<(usize, Vec3, bool, usize, f32)> {
        let mut chain = Vec::new();
        while let Some(joint) = self.robot.parent_joint(link) {
            let j = &self.robot.joints()[joint];
            link = j.parent;
            let (variable, multiplier) = match j.source {
                Source::None => continue,
                Source::Own(v) => (v, 1.0),
                Source::Mimic {
                    variable,
                    multiplier,
                    ..
                } => (variable, multiplier),
            };
            let prismatic = j.kind == JointKind::Prismatic;
            chain.push((j.child, j.axis, prismatic, variable, multiplier));
        }
        chain
    }

    /// The geometric Jacobian of the link at `p` (its world position) from the link
    /// poses and its `chain` (revolute, continuous and prismatic joints; mimics folded
    /// into their masters). A joint's motion leaves its axis and (for a rotation) its
    /// origin where the joint frame has them, so the child's pose gives both.
    fn jacobian(
        world: &[Affine3A],
        p: Vec3,
        chain: &[(usize, Vec3, bool, usize, f32)],
        out: &mut [[f32; 6]],
    ) {
        out.fill([0.0; 6]);
        for &(child, axis, prismatic, variable, multiplier) in chain {
            let frame = &world[child];
            let a = frame.matrix3 * axis;
            let column = if prismatic {
                [a.x, a.y, a.z, 0.0, 0.0, 0.0]
            } else {
                let v = a.cross(p - Vec3::from(frame.translation));
                [v.x, v.y, v.z, a.x, a.y, a.z]
            };
            for (c, x) in out[variable].iter_mut().zip(column) {
                *c += multiplier * x;
            }
        }
    }
}

/// The poses' translations rounded to 1e-3, folded into one number.
fn pose_checksum(poses: &[Affine3A]) -> u64 {
    poses
        .iter()
        .flat_map(|p| p.translation.to_array())
        .fold(0u64, |s, x| {
            s.wrapping_mul(31)
                .wrapping_add((f64::from(x) * 1e3).round() as i64 as u64)
        })
}

/// Runs `contenders`, checks their checksums agree, returns the rows against `base`.
fn measure(case: &str, config: &Config, contenders: &mut [Contender<'_>], base: &str) -> Vec<Row> {
    let measured = round_robin(contenders, config.reps());
    assert!(
        measured.windows(2).all(|w| w[0].checksum == w[1].checksum),
        "{case}: the contenders disagree: {}",
        checksums(&measured)
    );
    Row::from_measured(case, &measured, base)
}

/// FK on one robot.
fn forward_case(config: &Config, name: &str, robot: &Arc<Robot>, n: usize) -> Vec<Row> {
    let configurations = random_configurations(robot, n, 1);
    let hand = HandRobot::new(robot);
    let model = Kinematics::new(Arc::clone(robot)).expect("the robot compiles");
    let mut data = model.data();
    let mut scene = RobotScene::new(Arc::clone(robot)).expect("the robot's graph builds");
    let links = robot.links().len();
    let (mut world, mut read) = (
        vec![Affine3A::IDENTITY; links],
        vec![Affine3A::IDENTITY; links],
    );
    let case = format!("l. robot FK {name} ({} dof, {links} links)", robot.dof());
    let mut contenders = vec![
        Contender::new("hand_loop", n as u64, || {
            for q in &configurations {
                hand.forward(q, &mut world);
                std::hint::black_box(&world);
            }
            pose_checksum(&world)
        }),
        Contender::new("library_forward", n as u64, || {
            for q in &configurations {
                model.forward(q, &mut data).expect("a valid configuration");
                std::hint::black_box(data.poses());
            }
            pose_checksum(data.poses())
        }),
        Contender::new("library_scene_update", n as u64, || {
            for q in &configurations {
                scene.set_values(q).expect("a valid configuration");
                scene.update().expect("the update runs");
                scene.link_poses(&mut read).expect("every link posed");
                std::hint::black_box(&read);
            }
            pose_checksum(&read)
        }),
    ];
    measure(&case, config, &mut contenders, "hand_loop")
}

/// The Jacobian of Panda's end link.
fn jacobian_case(config: &Config, robot: &Arc<Robot>, n: usize) -> Vec<Row> {
    let configurations = random_configurations(robot, n, 2);
    let hand = HandRobot::new(robot);
    let model = Kinematics::new(Arc::clone(robot)).expect("the robot compiles");
    let end = end_link(robot);
    let posed: Vec<KinematicsData> = (configurations.iter())
        .map(|q| {
            let mut data = model.data();
            model.forward(q, &mut data).expect("a valid configuration");
            data
        })
        .collect();
    let dof = robot.dof();
    let checksum = |columns: &[[f32; 6]]| {
        let flat: Vec<Affine3A> = columns
            .iter()
            .map(|c| Affine3A::from_translation(Vec3::new(c[0] + c[3], c[1] + c[4], c[2] + c[5])))
            .collect();
        pose_checksum(&flat)
    };
    let mut columns = vec![[0.0f32; 6]; dof];
    let chain = hand.chain(end);
    let mut jacobian = Jacobian::new(dof);
    let case = format!(
        "l. robot Jacobian panda ({}, 6 × {dof})",
        robot.links()[end].name
    );
    let mut contenders = vec![
        Contender::new("hand_loop", n as u64, || {
            for data in &posed {
                let p = Vec3::from(data.poses()[end].translation);
                HandRobot::jacobian(data.poses(), p, &chain, &mut columns);
                std::hint::black_box(&columns);
            }
            checksum(&columns)
        }),
        Contender::new("library_jacobian", n as u64, || {
            for data in &posed {
                model
                    .jacobian(data, end, &mut jacobian)
                    .expect("sizes match");
                std::hint::black_box(&jacobian);
            }
            checksum(jacobian.columns())
        }),
    ];
    measure(&case, config, &mut contenders, "hand_loop")
}

/// Batch FK of many Panda configurations, one thread and all.
fn batch_case(config: &Config, robot: &Arc<Robot>, n: usize) -> Vec<Row> {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cores)
        .build()
        .expect("a pool");
    let (dof, links) = (robot.dof(), robot.links().len());
    let values: Vec<f32> = random_configurations(robot, n, 3).concat();
    let hand = HandRobot::new(robot);
    let model = Kinematics::new(Arc::clone(robot)).expect("the robot compiles");
    let mut hand_out = vec![Affine3A::IDENTITY; n * links];
    let mut seq_out = vec![Affine3A::IDENTITY; n * links];
    let mut par_out = vec![Affine3A::IDENTITY; n * links];
    let last = |out: &[Affine3A]| pose_checksum(&out[(n - 1) * links..]);
    let mut contenders = vec![
        Contender::new("hand_loop", n as u64, || {
            for (q, out) in values
                .chunks_exact(dof)
                .zip(hand_out.chunks_exact_mut(links))
            {
                hand.forward(q, out);
            }
            last(&hand_out)
        }),
        Contender::new(SEQUENTIAL, n as u64, || {
            model
                .forward_batch(&values, &mut seq_out)
                .expect("buffers match");
            last(&seq_out)
        }),
        Contender::new(&threads_contender(cores), n as u64, || {
            pool.install(|| model.forward_batch_parallel(&values, &mut par_out))
                .expect("buffers match");
            last(&par_out)
        }),
    ];
    let case = format!("l. robot batch FK {}k panda", n / 1000);
    let measured = round_robin(&mut contenders, config.reps());
    drop(contenders);
    assert!(
        measured.windows(2).all(|w| w[0].checksum == w[1].checksum),
        "{case}: the contenders disagree: {}",
        checksums(&measured)
    );
    // Against the hand loop; the threads against the sequential batch (the speed-up).
    let mut rows = Row::from_measured(&case, &measured[..2], "hand_loop");
    rows.extend(Row::from_measured(
        &format!("{case} threads"),
        &measured[1..],
        SEQUENTIAL,
    ));
    rows
}

/// Self-collision with FK on one robot, with its SRDF if given.
fn collision_case(
    config: &Config,
    name: &str,
    robot: &Arc<Robot>,
    srdf: Option<&str>,
    n: usize,
) -> Vec<Row> {
    let srdf = srdf.map(|file| {
        Srdf::import(&robots().join("example-robot-data/robots").join(file))
            .expect("the SRDF reads")
    });
    let meshes = robot
        .collision_meshes(&Tessellation::default())
        .expect("the meshes read");
    let model = SelfCollision::new(robot, meshes, srdf.as_ref()).expect("the model builds");
    let kinematics = Kinematics::new(Arc::clone(robot)).expect("the robot compiles");
    let configurations = random_configurations(robot, n, 4);
    let hand = HandRobot::new(robot);
    // The hand loop's tables: per link its elements, the pairs to check.
    let elements: Vec<CollisionMesh> = model.meshes().to_vec();
    let mut of_link: Vec<Vec<usize>> = vec![Vec::new(); robot.links().len()];
    for (i, m) in elements.iter().enumerate() {
        of_link[m.link].push(i);
    }
    let pairs = model.pairs().to_vec();
    let mut world = vec![Affine3A::IDENTITY; robot.links().len()];
    let mut placed = vec![Affine3A::IDENTITY; elements.len()];
    let mut boxes = vec![scenewalk_core::Aabb::EMPTY; elements.len()];
    let mut collide = Collide::new();
    let mut data = kinematics.data();
    let mut workspace = model.workspace();
    let case = format!(
        "l. robot self-collision {name} ({} pairs{})",
        model.pairs().len(),
        if srdf.is_some() {
            ", SRDF"
        } else {
            ", all minus adjacent"
        }
    );
    let mut contenders = vec![
        Contender::new("hand_loop", n as u64, || {
            let mut found = 0u64;
            for q in &configurations {
                hand.forward(q, &mut world);
                for (i, m) in elements.iter().enumerate() {
                    placed[i] = world[m.link] * m.placement;
                    boxes[i] = m.mesh.geometry().local_bounds().transformed(&placed[i]);
                }
                for p in &pairs {
                    let touches = of_link[p.a].iter().any(|&i| {
                        of_link[p.b].iter().any(|&j| {
                            boxes[i].overlaps(&boxes[j])
                                && !collide
                                    .meshes(
                                        &elements[i].mesh,
                                        &placed[i],
                                        &elements[j].mesh,
                                        &placed[j],
                                        ContactMode::First,
                                    )
                                    .is_empty()
                        })
                    });
                    found += u64::from(touches);
                }
            }
            found
        }),
        Contender::new("library_check", n as u64, || {
            let mut found = 0u64;
            for q in &configurations {
                kinematics
                    .forward(q, &mut data)
                    .expect("a valid configuration");
                found += model
                    .check(data.poses(), &mut workspace)
                    .expect("poses match")
                    .len() as u64;
            }
            found
        }),
    ];
    measure(&case, config, &mut contenders, "hand_loop")
}

/// Runs case l.
pub fn run(config: &Config) -> Vec<Row> {
    let files = [
        ("panda", "panda_description/urdf/panda.urdf"),
        ("ur5", "ur_description/urdf/ur5_robot.urdf"),
        ("pr2", "pr2_description/urdf/pr2.urdf"),
        ("g1", "g1_description/urdf/g1_29dof_rev_1_0.urdf"),
    ];
    let mut loaded = Vec::new();
    for (name, file) in files {
        match load(file) {
            Ok(robot) => loaded.push((name, robot)),
            Err(e) => {
                println!("l. robot: skipped, the shared robots cannot be read ({e})");
                return Vec::new();
            }
        }
    }
    let n = if config.quick { 100 } else { 1000 };
    let mut rows = Vec::new();
    for (name, robot) in &loaded {
        rows.extend(forward_case(config, name, robot, n));
    }
    let (panda, ur5) = (&loaded[0].1, &loaded[1].1);
    rows.extend(jacobian_case(config, panda, n));
    rows.extend(batch_case(
        config,
        panda,
        if config.quick { 10_000 } else { 100_000 },
    ));
    for (name, robot, srdf) in [
        ("panda", panda, "panda_description/srdf/panda.srdf"),
        ("ur5", ur5, "ur_description/srdf/ur5.srdf"),
    ] {
        rows.extend(collision_case(config, name, robot, Some(srdf), n));
        rows.extend(collision_case(config, name, robot, None, n));
    }
    rows
}
