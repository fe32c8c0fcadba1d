//! The tour's command line.

use crate::args::{Arg, ArgError, Args};
use crate::svg::View;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// What `tour --help` prints.
pub const HELP: &str = "\
tour: scenewalk's main job on a built-in scene, or on a glTF file

usage: tour [--blocks N] [--obj FILE.obj] [--svg FILE.svg] [--view V]
       tour FILE.gltf|FILE.glb [--scene N] [--frames N] [--rows] [--time T] [--svg FILE.svg]
            [--view V]

Without a file it builds a city of N × N blocks (default 16: about 55,700 nodes of
nine node types: buildings with levels of detail, materials and glass, switched
rooftop signs, street lights, shared meshes, a sun and a camera). With a glTF file it
imports the file's scene (the default one, or --scene N) instead, viewed from the
file's first camera or, without one, from a camera the tour adds over the scene's box.

A file with an animation first plays its first animation over its duration as N
frames of a frame loop: the animation player's writes are the frame's edit, then the
incremental update (skinned meshes boxed from their joints), the hand-over of its
results, the view and five picks. It prints each phase's fastest, median and slowest
frame (every frame with --rows), and checks every tenth frame (and the last) against
the same frame computed from scratch.

Then, on the scene as it stands (posed at the last frame played, or at --time T), it
runs:

  1. update   world transforms + statistics + bounds (one depth-first action)
  2. view     frustum cull + level of detail + switch + render list from the camera
  3. pick     five rays from the camera aimed at drawn triangles, nearest hit first
              (priority order; skinned meshes hit on their posed triangles)
  4. collide  the city's sculpture: a ring against the ball lodged in it (BVH
              against BVH); for a file: every pair of touching geometry in the scene

It prints counts, checks results against brute-force or hand-written computations
(a failed check exits with 1), times each action per node against a hand-written
loop doing the same work, and writes an SVG picture whose path it prints: every
drawable's triangles (skinned meshes posed, plain geometry as boxes) shaded by the
angle to a light, faint where the view does not draw them, with the frustum's
outline, the camera, the pick rays and their hits, and a scale bar. The update pass
boxes skinned meshes from their joints (one box per joint, united), checked against
every vertex skinned. A scene without geometry stops after the update.

  --blocks N     city size (1 to 200); not with a file
  --obj FILE     the ball lodged in the city's sculpture: the first mesh of an OBJ
                 file, scaled to fit (it needs at least one triangle); the picture
                 is then framed around it; not with a file
  --scene N      the glTF scene to import
  --frames N     frames to play the file's animation in (1 to 10000, default 60)
  --rows         print every frame played, not only the summary
  --time T       pose the file's animation at T seconds (0 to 1000000; past its end
                 is its end) after playing it, for the jobs and the picture
                 (default: where playing stopped, its end)
  --svg FILE     where to write the picture (default: tour-city.svg, or tour-NAME.svg
                 for NAME.gltf, with -VIEW added for views other than top, in cargo's
                 target folder: $CARGO_TARGET_DIR when set, else the target folder
                 that holds this program, else the current folder)
  --view V       the picture's view: top (default), front, side, or camera (through
                 the scene's camera)

Exit status: 0; 1 when a check failed or the tour could not run (a file it cannot
read, a value it cannot use); 2 for a command line it does not understand.
";

/// What the tour runs on.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The built-in city.
    City {
        /// Blocks per side.
        blocks: usize,
        /// An OBJ file whose first mesh replaces the sculpture's ball.
        obj: Option<PathBuf>,
    },
    /// A glTF file.
    File {
        /// The `.gltf` or `.glb` file.
        path: PathBuf,
        /// The scene to import (`None`: the file's default).
        scene: Option<usize>,
        /// Frames to play the first animation in.
        frames: usize,
        /// The time to pose the animation at after playing it.
        time: Option<f32>,
    },
}

/// A tour to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The scene.
    pub source: Source,
    /// Where to write the picture (`None`: [`default_svg_path`]'s folder).
    pub svg: Option<PathBuf>,
    /// A row per frame played, not only the summary.
    pub rows: bool,
    /// The picture's view.
    pub view: View,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `-h` or `--help`: print [`HELP`], run nothing.
    Help,
    /// Run the tour.
    Run(Options),
}

/// Frames played when `--frames` is not given.
pub const DEFAULT_FRAMES: usize = 60;

/// The most frames `--frames` accepts.
pub const MAX_FRAMES: usize = 10_000;

/// Reads the tour's arguments (without the program name). Options that mean nothing
/// for the chosen scene are refused, not ignored.
///
/// Errors: an [`ArgError`] naming the argument at fault.
///
/// ```
/// use scenewalk_examples::tour::{Command, Source, parse_args};
/// let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
/// assert!(matches!(args(&["--blocks", "4"]), Ok(Command::Run(o)) if o.source == Source::City { blocks: 4, obj: None }));
/// assert!(args(&["f.gltf", "--blocks", "4"]).unwrap_err().to_string().contains("--blocks"));
/// assert!(args(&["--frames", "10"]).unwrap_err().to_string().contains("--frames"));
/// let bad = args(&["--view", "up"]).unwrap_err();
/// assert_eq!((bad.to_string().as_str(), bad.exit_code()), (r#"--view must be top, front, side or camera, not "up""#, 1));
/// ```
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Command, ArgError> {
    let (mut blocks, mut obj, mut file, mut scene) = (None, None, None, None);
    let (mut frames, mut time, mut svg, mut rows) = (None, None, None, false);
    let mut view = View::Top;
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg()? {
        let option = match arg {
            Arg::Help => return Ok(Command::Help),
            Arg::Operand(path) if file.is_some() => {
                return Err(ArgError::Usage(format!(
                    "one scene file at a time, not also {path}"
                )));
            }
            Arg::Operand(path) => {
                file = Some(PathBuf::from(path));
                continue;
            }
            Arg::Option(option) => option,
        };
        match option.as_str() {
            "--blocks" => blocks = Some(args.number("--blocks", 1..=200)?),
            "--scene" => scene = Some(args.number("--scene", 0..=usize::MAX)?),
            "--frames" => frames = Some(args.number("--frames", 1..=MAX_FRAMES)?),
            "--time" => time = Some(args.seconds("--time")?),
            "--rows" => rows = true,
            "--obj" => obj = Some(args.path("--obj")?),
            "--svg" => svg = Some(args.path("--svg")?),
            "--view" => {
                let bad = |e: String| ArgError::Value(format!("--view must be {e}"));
                view = args.value("--view")?.parse().map_err(bad)?;
            }
            other => return Err(ArgError::unknown(other)),
        }
    }
    let misplaced = |option: &str, why: &str| Err(ArgError::Usage(format!("{option} {why}")));
    let source = match file {
        Some(path) => {
            if blocks.is_some() {
                return misplaced(
                    "--blocks",
                    "sizes the built-in city; it means nothing with a file",
                );
            }
            if obj.is_some() {
                return misplaced(
                    "--obj",
                    "replaces the built-in city's ball; it means nothing with a file",
                );
            }
            Source::File {
                path,
                scene,
                frames: frames.unwrap_or(DEFAULT_FRAMES),
                time,
            }
        }
        None => {
            let only_files = [
                ("--scene", scene.is_some()),
                ("--frames", frames.is_some()),
                ("--time", time.is_some()),
                ("--rows", rows),
            ];
            if let Some((option, _)) = only_files.iter().find(|(_, given)| *given) {
                return misplaced(option, "applies to a glTF file; give the file too");
            }
            Source::City {
                blocks: blocks.unwrap_or(crate::city_scene::DEFAULT_BLOCKS),
                obj,
            }
        }
    };
    Ok(Command::Run(Options {
        source,
        svg,
        rows,
        view,
    }))
}

/// Where the top view goes without `--svg`: `tour.svg` in `target_dir` (the value of
/// `CARGO_TARGET_DIR` at run time) when set; else in the target folder that holds the
/// program `exe` (`…/target/release/examples/tour` gives `…/target`); else in the
/// current folder.
///
/// ```
/// use scenewalk_examples::tour::default_svg_path;
/// use std::path::{Path, PathBuf};
/// let exe = Path::new("/w/target/release/examples/tour");
/// assert_eq!(default_svg_path(Some("/t".as_ref()), Some(exe)), PathBuf::from("/t/tour.svg"));
/// assert_eq!(default_svg_path(None, Some(exe)), PathBuf::from("/w/target/tour.svg"));
/// assert_eq!(default_svg_path(None, None), PathBuf::from("tour.svg"));
/// ```
pub fn default_svg_path(target_dir: Option<&OsStr>, exe: Option<&Path>) -> PathBuf {
    let folder = match target_dir.filter(|d| !d.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => exe.and_then(|exe| {
            let examples = exe.parent()?;
            let profile = examples.parent()?;
            (examples.file_name()? == "examples")
                .then(|| profile.parent().map(Path::to_path_buf))?
        }),
    };
    folder.unwrap_or_default().join("tour.svg")
}
