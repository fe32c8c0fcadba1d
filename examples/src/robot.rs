//! The `robot` example's work: a URDF robot's tree, its link poses at a configuration,
//! a timed sweep of random configurations (forward kinematics, a Jacobian,
//! self-collision), JSON output and an SVG side view ([`robot_svg`](crate::robot_svg)).

use crate::args::{Arg, ArgError, Args};
use crate::rng::SplitMix64;
use scenewalk_actors::robot::{Jacobian, Kinematics, KinematicsData};
use scenewalk_actors::{LinkPair, SelfCollision, SelfCollisionWorkspace};
use scenewalk_core::glam::{Affine3A, EulerRot, Quat};
use scenewalk_nodes::urdf::{ImportOptions, JointKind, Robot, Shape, Source, Srdf, Tessellation};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// The command line's help.
pub const USAGE: &str = "\
usage: robot FILE.urdf [--q v1,v2,...] [--random N] [--seed S] [--srdf FILE]
                       [--svg FILE] [--json] [--package-root DIR]...

Reads a URDF robot and prints its tree (links, joints by type, degrees of freedom),
its link poses at a configuration and its self-colliding link pairs there.

  --q v1,v2,...       the configuration: one value per degree of freedom, in the
                      order the tree listing gives (default: zero, clamped into limits)
  --random N          also sweep N random configurations within the limits: time per
                      configuration of forward kinematics, the end link's Jacobian
                      and self-collision, and the self-colliding configurations
  --seed S            the sweep's random seed (default 1)
  --srdf FILE         skip the link pairs this SRDF disables (besides adjacent links)
  --svg FILE          write a side view (looking along +y) of the collision geometry
                      at the configuration, colliding links in red
  --json              print one JSON object instead: the joint names in vector order,
                      and per configuration (the sweep's, or the one configuration)
                      its values, every link's world pose as a row-major 4x4 matrix
                      keyed by link name, and its colliding link pairs
  --package-root DIR  a folder holding ROS packages, for package:// mesh names (the
                      URDF's own folder and its ancestors are always tried)
  --help              print this and exit

Exit status: 0 done, 1 a file or value could not be used, 2 a bad command line.
";

/// What the command line asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// The URDF file.
    pub file: PathBuf,
    /// `--q`: the configuration.
    pub q: Option<Vec<f32>>,
    /// `--random`: how many random configurations to sweep (0: none).
    pub random: usize,
    /// `--seed`.
    pub seed: u64,
    /// `--srdf`.
    pub srdf: Option<PathBuf>,
    /// `--svg`.
    pub svg: Option<PathBuf>,
    /// `--json`.
    pub json: bool,
    /// `--package-root`, in order.
    pub package_roots: Vec<PathBuf>,
}

/// What to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Print [`USAGE`] and exit 0.
    Help,
    /// Run with these options.
    Run(Options),
}

/// A refused command line or a failed run, with its exit status.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotCliError {
    /// A bad command line (an unknown option, a missing file or value): exit 2.
    #[error("{0}")]
    Usage(String),
    /// A value or file that cannot be used: exit 1.
    #[error("{0}")]
    Failed(String),
}

impl From<ArgError> for RobotCliError {
    fn from(err: ArgError) -> Self {
        match err {
            ArgError::Usage(m) => Self::Usage(m),
            ArgError::Value(m) => Self::Failed(m),
        }
    }
}

impl RobotCliError {
    /// The process's exit status.
    pub fn exit_code(&self) -> i32 {
        match self {
            Self::Usage(_) => 2,
            Self::Failed(_) => 1,
        }
    }
}

/// Parses the arguments after the program's name.
///
/// ```
/// use scenewalk_examples::robot::{Command, RobotCliError, parse_args};
/// let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
/// let Ok(Command::Run(o)) = parse_args(args("arm.urdf --q 0.5,1 --json")) else { panic!() };
/// assert_eq!(o.q, Some(vec![0.5, 1.0]));
/// let Ok(Command::Run(o)) = parse_args(args("arm.urdf --random=20")) else { panic!() };
/// assert_eq!(o.random, 20);
/// assert!(matches!(parse_args(args("arm.urdf --json=yes")), Err(RobotCliError::Usage(_))));
/// assert!(matches!(parse_args(args("arm.urdf --fast")), Err(RobotCliError::Usage(m)) if m.contains("--fast")));
/// assert!(matches!(parse_args(args("arm.urdf --random many")), Err(RobotCliError::Failed(_))));
/// assert_eq!(parse_args(args("--help")), Ok(Command::Help));
/// ```
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Command, RobotCliError> {
    let mut options = Options {
        seed: 1,
        ..Options::default()
    };
    let mut file = None;
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Help => return Ok(Command::Help),
            Arg::Option(option) => match option.as_str() {
                "--json" => options.json = true,
                "--q" => {
                    let v = args.value("--q")?;
                    let q: Result<Vec<f32>, _> =
                        v.split(',').map(|x| x.trim().parse::<f32>()).collect();
                    options.q = Some(q.map_err(|_| {
                        RobotCliError::Failed(format!("--q {v}: not comma-separated numbers"))
                    })?);
                }
                "--random" => options.random = args.number("--random", 0..=100_000_000)?,
                "--seed" => options.seed = args.number("--seed", 0..=u64::MAX)?,
                "--srdf" => options.srdf = Some(args.path("--srdf")?),
                "--svg" => options.svg = Some(args.path("--svg")?),
                "--package-root" => options.package_roots.push(args.path("--package-root")?),
                _ => return Err(ArgError::unknown(&option).into()),
            },
            Arg::Operand(path) => {
                if file.replace(PathBuf::from(&path)).is_some() {
                    return Err(RobotCliError::Usage(format!(
                        "a second file {path}: give one URDF file"
                    )));
                }
            }
        }
    }
    options.file = file.ok_or_else(|| RobotCliError::Usage("no URDF file given".into()))?;
    Ok(Command::Run(options))
}

/// A loaded robot with its kinematics and self-collision models.
pub struct Loaded {
    /// The robot.
    pub robot: Arc<Robot>,
    /// Its kinematics.
    pub kinematics: Kinematics,
    /// Its self-collision model.
    pub collision: SelfCollision,
    /// How many link pairs the SRDF disabled (`None` without one).
    pub srdf_pairs: Option<usize>,
}

/// Reads the robot, its collision meshes and the SRDF the options name.
pub fn load(options: &Options) -> Result<Loaded, RobotCliError> {
    let failed = |e: &dyn std::fmt::Display| RobotCliError::Failed(e.to_string());
    let mut roots = options.package_roots.clone();
    let absolute = std::path::absolute(&options.file).unwrap_or_else(|_| options.file.clone());
    roots.extend(absolute.ancestors().skip(1).map(PathBuf::from));
    let import = ImportOptions {
        package_roots: roots,
    };
    let robot =
        Arc::new(scenewalk_nodes::urdf::import(&options.file, &import).map_err(|e| failed(&e))?);
    let kinematics = Kinematics::new(Arc::clone(&robot)).map_err(|e| failed(&e))?;
    let meshes = robot
        .collision_meshes(&Tessellation::default())
        .map_err(|e| failed(&e))?;
    let srdf = match &options.srdf {
        Some(path) => Some(Srdf::import(path).map_err(|e| failed(&e))?),
        None => None,
    };
    let collision = SelfCollision::new(&robot, meshes, srdf.as_ref()).map_err(|e| failed(&e))?;
    Ok(Loaded {
        robot,
        kinematics,
        collision,
        srdf_pairs: srdf.map(|s| s.disabled.len()),
    })
}

/// The value range a random configuration draws variable `variable` from: the
/// joint's limits, `−π..π` for an angle without them, `−1..1` (metres) otherwise.
pub fn variable_range(robot: &Robot, variable: usize) -> (f32, f32) {
    use std::f32::consts::PI;
    let Some(&(joint, place)) = robot.variables().get(variable) else {
        return (0.0, 0.0);
    };
    let Some(joint) = robot.joints().get(joint) else {
        return (0.0, 0.0);
    };
    let limited = joint.limits.filter(|l| l.lower < l.upper);
    match (joint.kind, limited) {
        (JointKind::Revolute | JointKind::Prismatic, Some(l)) => (l.lower, l.upper),
        (JointKind::Revolute | JointKind::Continuous, _) => (-PI, PI),
        (JointKind::Floating, _) if place >= 3 => (-PI, PI),
        (JointKind::Planar, _) if place == 2 => (-PI, PI),
        _ => (-1.0, 1.0),
    }
}

/// `n` random configurations within [`variable_range`], from `seed`.
pub fn random_configurations(robot: &Robot, n: usize, seed: u64) -> Vec<Vec<f32>> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            (0..robot.dof())
                .map(|v| {
                    let (lo, hi) = variable_range(robot, v);
                    rng.range_f32(lo, hi)
                })
                .collect()
        })
        .collect()
}

/// The zero configuration, each value clamped into its joint's limits.
pub fn home(robot: &Robot) -> Vec<f32> {
    (0..robot.dof())
        .map(|v| {
            let (lo, hi) = variable_range(robot, v);
            0.0f32.clamp(lo, hi)
        })
        .collect()
}

/// The link with the most moving joints above it, the deepest of those (fixed joints
/// count), the first in file order among equals: the "end effector" whose Jacobian the
/// sweep times.
pub fn end_link(robot: &Robot) -> usize {
    let depth = |mut link: usize| {
        let (mut moving, mut all) = (0, 0);
        for _ in 0..robot.links().len() {
            let Some(joint) = robot.parent_joint(link) else {
                break;
            };
            let j = &robot.joints()[joint];
            moving += usize::from(j.source != Source::None);
            all += 1;
            link = j.parent;
        }
        (moving, all)
    };
    (0..robot.links().len())
        .max_by_key(|&l| (depth(l), std::cmp::Reverse(l)))
        .unwrap_or(0)
}

/// One evaluated configuration.
pub struct Evaluated {
    /// The values.
    pub q: Vec<f32>,
    /// Every link's world pose.
    pub poses: Vec<Affine3A>,
    /// The colliding link pairs.
    pub colliding: Vec<LinkPair>,
}

/// Poses the robot at `q` and checks self-collision.
pub fn evaluate(loaded: &Loaded, q: &[f32]) -> Result<Evaluated, RobotCliError> {
    let failed = |e: &dyn std::fmt::Display| RobotCliError::Failed(e.to_string());
    let mut data = loaded.kinematics.data();
    loaded
        .kinematics
        .forward(q, &mut data)
        .map_err(|e| failed(&e))?;
    let mut workspace = loaded.collision.workspace();
    let colliding = loaded
        .collision
        .check(data.poses(), &mut workspace)
        .map_err(|e| failed(&e))?
        .to_vec();
    Ok(Evaluated {
        q: q.to_vec(),
        poses: data.poses().to_vec(),
        colliding,
    })
}

/// The timed sweep: per configuration, nanoseconds of each part (best of three passes
/// over all configurations), and the self-colliding configurations.
pub struct Sweep {
    /// Forward kinematics (every link's pose).
    pub fk_ns: f64,
    /// The end link's Jacobian, on poses already computed.
    pub jacobian_ns: f64,
    /// Self-collision on poses already computed.
    pub collision_ns: f64,
    /// Per configuration, its colliding pairs (empty when free).
    pub colliding: Vec<Vec<LinkPair>>,
    /// Link pairs past the broad phase and mesh pairs compared, summed.
    pub broad_pairs: usize,
    /// Mesh pairs compared, summed.
    pub narrow_pairs: usize,
}

/// Best of three passes of `pass`, in nanoseconds per configuration.
fn best_of_three(n: usize, mut pass: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed().as_nanos() as f64 / n.max(1) as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Runs the sweep over `configurations`.
pub fn sweep(loaded: &Loaded, configurations: &[Vec<f32>]) -> Result<Sweep, RobotCliError> {
    let failed = |e: &dyn std::fmt::Display| RobotCliError::Failed(e.to_string());
    let n = configurations.len();
    let model = &loaded.kinematics;
    let mut data: KinematicsData = model.data();
    let links = loaded.robot.links().len();
    // Every configuration's poses, for the collision pass.
    let mut poses = vec![Affine3A::IDENTITY; n * links];
    let flat: Vec<f32> = configurations.iter().flatten().copied().collect();
    model
        .forward_batch(&flat, &mut poses)
        .map_err(|e| failed(&e))?;
    let fk_ns = best_of_three(n, || {
        for q in configurations {
            model.forward(q, &mut data).ok();
            std::hint::black_box(data.poses());
        }
    });
    // The Jacobian alone, on each configuration's workspace posed beforehand.
    let end = end_link(&loaded.robot);
    let mut jacobian = Jacobian::new(loaded.robot.dof());
    let mut posed = Vec::with_capacity(n);
    for q in configurations {
        model.forward(q, &mut data).map_err(|e| failed(&e))?;
        posed.push(data.clone());
    }
    let jacobian_ns = best_of_three(n, || {
        for data in &posed {
            model.jacobian(data, end, &mut jacobian).ok();
            std::hint::black_box(&jacobian);
        }
    });
    let mut workspace: SelfCollisionWorkspace = loaded.collision.workspace();
    let mut colliding = vec![Vec::new(); n];
    let (mut broad_pairs, mut narrow_pairs) = (0, 0);
    for (found, p) in colliding.iter_mut().zip(poses.chunks_exact(links.max(1))) {
        *found = (loaded.collision.check(p, &mut workspace))
            .map_err(|e| failed(&e))?
            .to_vec();
        broad_pairs += workspace.stats().broad_pairs;
        narrow_pairs += workspace.stats().narrow_pairs;
    }
    let collision_ns = best_of_three(n, || {
        for p in poses.chunks_exact(links.max(1)) {
            std::hint::black_box(loaded.collision.check(p, &mut workspace).ok());
        }
    });
    Ok(Sweep {
        fk_ns,
        jacobian_ns,
        collision_ns,
        colliding,
        broad_pairs,
        narrow_pairs,
    })
}

/// What a run printed and wrote.
pub struct Outcome {
    /// The text (or JSON) for standard output.
    pub text: String,
}

/// Runs the example: returns the report; writes the SVG file if asked.
pub fn run(options: &Options) -> Result<Outcome, RobotCliError> {
    let loaded = load(options)?;
    let robot = &loaded.robot;
    let q = match &options.q {
        Some(q) if q.len() != robot.dof() => {
            return Err(RobotCliError::Failed(format!(
                "--q has {} values, but {} has {} degrees of freedom ({})",
                q.len(),
                robot.name(),
                robot.dof(),
                robot.variable_names().join(", ")
            )));
        }
        Some(q) => q.clone(),
        None => home(robot),
    };
    let at = evaluate(&loaded, &q)?;
    let random = random_configurations(robot, options.random, options.seed);
    let swept = if random.is_empty() {
        None
    } else {
        Some(sweep(&loaded, &random)?)
    };
    let mut text = if options.json {
        json(&loaded, &at, &random)?
    } else {
        report(&loaded, &at, options, swept.as_ref(), &random)
    };
    if let Some(path) = &options.svg {
        let svg =
            crate::robot_svg::side_view(&loaded.collision, &at.poses, &at.colliding, robot.name());
        std::fs::write(path, svg)
            .map_err(|e| RobotCliError::Failed(format!("{}: cannot write: {e}", path.display())))?;
        if !options.json {
            let _ = writeln!(text, "\nwrote the side view to {}", path.display());
        }
    }
    Ok(Outcome { text })
}

/// A pair as `a–b` by link names.
fn pair_name(loaded: &Loaded, p: &LinkPair) -> String {
    let name = |l: usize| loaded.robot.links().get(l).map_or("?", |l| l.name.as_str());
    format!("{}–{}", name(p.a), name(p.b))
}

/// The human-readable report.
fn report(
    loaded: &Loaded,
    at: &Evaluated,
    options: &Options,
    swept: Option<&Sweep>,
    random: &[Vec<f32>],
) -> String {
    let robot = &loaded.robot;
    let mut out = String::new();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for j in robot.joints() {
        *kinds.entry(j.kind.name()).or_default() += 1;
    }
    let mimics = robot.joints().iter().filter(|j| j.mimic.is_some()).count();
    let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let _ = writeln!(
        out,
        "robot {}: {} links, {} joints ({}{}), {} degrees of freedom",
        robot.name(),
        robot.links().len(),
        robot.joints().len(),
        kinds.join(", "),
        if mimics > 0 {
            format!("; {mimics} mimic")
        } else {
            String::new()
        },
        robot.dof()
    );
    let _ = writeln!(out, "\ntree (joint: type → child link):");
    tree(robot, robot.root(), 1, &mut out);
    let names = robot.variable_names();
    let _ = writeln!(
        out,
        "\njoint vector ({} values): {}",
        names.len(),
        names.join(", ")
    );

    let meshes = loaded.collision.meshes();
    let (mut shapes, mut triangles) = (BTreeMap::new(), 0);
    for c in robot.collisions() {
        let kind = match c.geometry {
            Shape::Box { .. } => "box",
            Shape::Cylinder { .. } => "cylinder",
            Shape::Sphere { .. } => "sphere",
            Shape::Mesh { .. } => "mesh",
        };
        *shapes.entry(kind).or_insert(0) += 1;
    }
    for m in meshes {
        triangles += m.mesh.triangles().len();
    }
    let shapes: Vec<String> = shapes.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let links_with: std::collections::BTreeSet<usize> = meshes.iter().map(|m| m.link).collect();
    let _ = writeln!(
        out,
        "collision geometry: {} elements on {} links ({}), {triangles} triangles",
        meshes.len(),
        links_with.len(),
        if shapes.is_empty() {
            "none".to_string()
        } else {
            shapes.join(", ")
        },
    );
    let _ = writeln!(
        out,
        "self-collision checks {} link pairs (all pairs of links with geometry minus adjacent ones{})",
        loaded.collision.pairs().len(),
        match loaded.srdf_pairs {
            Some(n) => format!(" and the SRDF's {n} disabled pairs"),
            None => match nearby_srdf(&options.file, robot.name()) {
                Some(path) => format!("; no SRDF given, --srdf {} would add one", path.display()),
                None => "; no SRDF given".to_string(),
            },
        }
    );

    let source = if options.q.is_some() {
        "--q"
    } else {
        "zero, clamped into limits"
    };
    let values: Vec<String> = at.q.iter().map(|v| format!("{v:.4}")).collect();
    let _ = writeln!(out, "\nconfiguration ({source}): [{}]", values.join(", "));
    let _ = writeln!(
        out,
        "link poses (world; position in metres, fixed-axis roll pitch yaw in radians):"
    );
    let width = robot
        .links()
        .iter()
        .map(|l| l.name.len())
        .max()
        .unwrap_or(0);
    for (link, pose) in robot.links().iter().zip(&at.poses) {
        let t = pose.translation;
        let (yaw, pitch, roll) = Quat::from_mat3a(&pose.matrix3).to_euler(EulerRot::ZYX);
        let _ = writeln!(
            out,
            "  {:<width$}  xyz {:>8.4} {:>8.4} {:>8.4}   rpy {:>7.4} {:>7.4} {:>7.4}",
            link.name, t.x, t.y, t.z, roll, pitch, yaw
        );
    }
    if at.colliding.is_empty() {
        let _ = writeln!(out, "self-collision: none");
    } else {
        let pairs: Vec<String> = at.colliding.iter().map(|p| pair_name(loaded, p)).collect();
        let _ = writeln!(out, "self-collision: {}", pairs.join(", "));
    }

    if let Some(s) = swept {
        let n = random.len();
        let end = end_link(robot);
        let _ = writeln!(
            out,
            "\nsweep of {n} random configurations within the limits (seed {}); time per configuration, best of 3 passes:",
            options.seed
        );
        let end_name = robot.links().get(end).map_or("?", |l| l.name.as_str());
        let rows = [
            (
                format!(
                    "forward kinematics (all {} link poses)",
                    robot.links().len()
                ),
                s.fk_ns,
                String::new(),
            ),
            (
                format!("Jacobian of {end_name} (6 × {})", robot.dof()),
                s.jacobian_ns,
                String::new(),
            ),
            (
                format!("self-collision ({} pairs)", loaded.collision.pairs().len()),
                s.collision_ns,
                format!(
                    "   (per configuration: {:.1} link pairs past the broad phase, {:.1} mesh pairs compared)",
                    s.broad_pairs as f64 / n as f64,
                    s.narrow_pairs as f64 / n as f64
                ),
            ),
        ];
        let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
        for (label, ns, note) in rows {
            let pad = width - label.chars().count();
            let _ = writeln!(
                out,
                "  {label}{}  {:>9.3} µs{note}",
                " ".repeat(pad),
                ns / 1e3
            );
        }
        let hits: Vec<usize> = (0..n).filter(|&i| !s.colliding[i].is_empty()).collect();
        let _ = writeln!(
            out,
            "  self-colliding: {} of {n} configurations ({:.1} %)",
            hits.len(),
            100.0 * hits.len() as f64 / n.max(1) as f64
        );
        let mut by_pair: BTreeMap<LinkPair, usize> = BTreeMap::new();
        for &i in &hits {
            for p in &s.colliding[i] {
                *by_pair.entry(*p).or_default() += 1;
            }
        }
        let mut by_pair: Vec<(LinkPair, usize)> = by_pair.into_iter().collect();
        by_pair.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (p, count) in by_pair.iter().take(8) {
            let _ = writeln!(out, "    {:>5} × {}", count, pair_name(loaded, p));
        }
        for &i in hits.iter().take(5) {
            let values: Vec<String> = random[i].iter().map(|v| format!("{v:.3}")).collect();
            let pairs: Vec<String> = s.colliding[i]
                .iter()
                .map(|p| pair_name(loaded, p))
                .collect();
            let _ = writeln!(out, "  #{i}: [{}]: {}", values.join(", "), pairs.join(", "));
        }
        if hits.len() > 5 {
            let _ = writeln!(
                out,
                "  ... and {} more (--json lists them all)",
                hits.len() - 5
            );
        }
    }
    out
}

/// An SRDF beside the URDF, where robot description packages keep them:
/// `../srdf/NAME.srdf` or `NAME.srdf` next to the file, `NAME` the robot's name.
fn nearby_srdf(urdf: &std::path::Path, name: &str) -> Option<PathBuf> {
    let dir = urdf.parent()?;
    let file = format!("{name}.srdf");
    [dir.join("../srdf").join(&file), dir.join(&file)]
        .into_iter()
        .find(|p| p.is_file())
}

/// The tree below `link`, one joint per line.
fn tree(robot: &Robot, link: usize, depth: usize, out: &mut String) {
    if depth == 1 {
        let _ = writeln!(
            out,
            "  {}",
            robot.links().get(link).map_or("?", |l| l.name.as_str())
        );
    }
    for joint in robot.joints().iter().filter(|j| j.parent == link) {
        let detail = match (joint.kind, joint.limits, &joint.mimic) {
            (_, _, Some(m)) => format!(
                ", mimics {} × {} + {}",
                robot.joints().get(m.joint).map_or("?", |j| j.name.as_str()),
                m.multiplier,
                m.offset
            ),
            (JointKind::Fixed, ..) => String::new(),
            (JointKind::Revolute | JointKind::Prismatic, Some(l), None) => {
                format!(
                    ", axis {} {} {}, {} .. {}",
                    joint.axis.x, joint.axis.y, joint.axis.z, l.lower, l.upper
                )
            }
            _ => format!(", axis {} {} {}", joint.axis.x, joint.axis.y, joint.axis.z),
        };
        let _ = writeln!(
            out,
            "  {}{}: {}{} → {}",
            "  ".repeat(depth),
            joint.name,
            joint.kind.name(),
            detail,
            robot
                .links()
                .get(joint.child)
                .map_or("?", |l| l.name.as_str())
        );
        if depth < robot.links().len() {
            tree(robot, joint.child, depth + 1, out);
        }
    }
}

/// The JSON object.
fn json(loaded: &Loaded, at: &Evaluated, random: &[Vec<f32>]) -> Result<String, RobotCliError> {
    use serde_json::{Map, Value, json};
    let robot = &loaded.robot;
    let evaluated: Vec<Evaluated> = if random.is_empty() {
        vec![Evaluated {
            q: at.q.clone(),
            poses: at.poses.clone(),
            colliding: at.colliding.clone(),
        }]
    } else {
        random
            .iter()
            .map(|q| evaluate(loaded, q))
            .collect::<Result<_, _>>()?
    };
    let name = |l: usize| robot.links().get(l).map_or("?", |l| l.name.as_str());
    let configurations: Vec<Value> = evaluated
        .iter()
        .map(|e| {
            let mut poses = Map::new();
            for (link, pose) in robot.links().iter().zip(&e.poses) {
                let m = scenewalk_core::glam::Mat4::from(*pose);
                let rows: Vec<Value> = (0..4).map(|r| json!(m.row(r).to_array())).collect();
                poses.insert(link.name.clone(), Value::Array(rows));
            }
            let pairs: Vec<Value> = e
                .colliding
                .iter()
                .map(|p| json!([name(p.a), name(p.b)]))
                .collect();
            json!({"values": e.q, "link_poses": poses, "colliding": pairs})
        })
        .collect();
    let value = json!({
        "robot": robot.name(),
        "joints": robot.variable_names(),
        "configurations": configurations,
    });
    serde_json::to_string_pretty(&value)
        .map(|s| s + "\n")
        .map_err(|e| RobotCliError::Failed(e.to_string()))
}
