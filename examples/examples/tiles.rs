//! Streams a 3D Tiles tileset by screen-space error along a camera path: the procedural
//! planet (an implicit quadtree of 16 levels, about 1.4 billion tiles, contents sized
//! on demand) by default, or a `tileset.json` on disk. Prints each frame's figures and
//! writes an SVG of the last frame's tiles (top view, coloured by level). Run
//! `tiles --help`.

use scenewalk_actors::tiles::{
    FrameFigures, Planet, SelectionOptions, TileSelection, TileView, file_loader,
};
use scenewalk_core::glam::{DMat3, DVec3};
use scenewalk_examples::args::{Arg, ArgError, Args, about_file, run_main};
use scenewalk_examples::tour::default_svg_path;
use scenewalk_nodes::tiles::{BoundingVolume, Tile, Volume, east_north_up, geodetic_to_ecef};
use std::error::Error;
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const HELP: &str = "\
tiles: stream 3D Tiles by screen-space error along a camera path

usage: tiles [TILESET] [--frames N] [--levels N] [--budget MIB] [--svg PATH]

  TILESET       a tileset.json on disk (default: the procedural planet)
  --frames N    frames of the flight (default 120)
  --levels N    levels of the procedural planet (default 16: about 1.4 billion tiles)
  --budget MIB  memory budget in MiB (default 256)
  --svg PATH    where to write the picture (default tiles-planet.svg, or
                tiles-FOLDER.svg after the tileset's folder, in cargo's target folder)

Loads run on 4 worker threads; each frame waits up to 16 ms for them, as a 60 Hz
frame would.
";

/// What the command line asked for.
struct Options {
    tileset: Option<PathBuf>,
    frames: usize,
    levels: u32,
    budget_mib: u64,
    svg: Option<PathBuf>,
}

fn parse(given: Vec<String>) -> Result<Options, ArgError> {
    let mut options = Options {
        tileset: None,
        frames: 120,
        levels: 16,
        budget_mib: 256,
        svg: None,
    };
    let mut args = Args::new(given);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Help => {}
            Arg::Option(option) => match option.as_str() {
                "--frames" => options.frames = args.number("--frames", 1..=100_000)?,
                "--levels" => options.levels = args.number("--levels", 1..=31)?,
                "--budget" => options.budget_mib = args.number("--budget", 1..=1 << 20)?,
                "--svg" => options.svg = Some(args.path("--svg")?),
                _ => return Err(ArgError::unknown(&option)),
            },
            Arg::Operand(path) => {
                if options.tileset.replace(PathBuf::from(&path)).is_some() {
                    return Err(ArgError::Usage(format!(
                        "a second tileset {path:?}: give one tileset.json"
                    )));
                }
            }
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    run_main("tiles", HELP, parse, run)
}

/// A camera path towards a tileset's root volume: from 20 radii away down to 1 m from
/// its surface, along its up direction (away from the Earth's centre for
/// Earth-centred tilesets, +z otherwise), looking at its centre.
fn approach(volume: &Volume, frames: usize) -> Vec<TileView> {
    let (center, radius) = (volume.center(), volume.radius().max(1.0));
    let up = if center.length() > 1e6 {
        center.normalize()
    } else {
        DVec3::Z
    };
    // How far the volume reaches from its centre along `up`.
    let reach = match volume {
        Volume::Box(b) => [b.half_axes.x_axis, b.half_axes.y_axis, b.half_axes.z_axis]
            .iter()
            .map(|a| a.dot(up).abs())
            .sum(),
        Volume::Sphere(s) => s.radius,
    };
    let side = if up.cross(DVec3::Z).length() > 0.1 {
        DVec3::Z
    } else {
        DVec3::Y
    };
    let last = frames.saturating_sub(1).max(1) as f64;
    (0..frames)
        .map(|i| {
            let start = 20.0 * radius;
            let gap = start * (1.0 / start).powf(i as f64 / last);
            let eye = center + up * (gap + reach);
            TileView::look_at(eye, center, side)
        })
        .collect()
}

fn run(args: Options, out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    let args = &args;
    let options = SelectionOptions {
        budget_bytes: args.budget_mib << 20,
        ..SelectionOptions::default()
    };
    let (mut tiles, flight, name) = match &args.tileset {
        Some(path) => {
            let folder = path.parent().unwrap_or(Path::new("."));
            let file = path
                .file_name()
                .ok_or("no file name")?
                .to_string_lossy()
                .into_owned();
            let tiles = TileSelection::open(file_loader(folder), &file, options)?;
            let root = tiles.graph().get::<Tile>(tiles.root())?.volume;
            (
                tiles,
                approach(&root, args.frames),
                path.display().to_string(),
            )
        }
        None => {
            let planet = Planet::new(args.levels);
            let tiles = TileSelection::open(planet.loader(), "tileset.json", options)?;
            let name = format!(
                "the procedural planet: {} levels, {} tiles",
                args.levels,
                planet.tile_count()
            );
            (tiles, Planet::flight(args.frames), name)
        }
    };
    writeln!(
        out,
        "{name}; budget {} MiB, {} frames",
        args.budget_mib,
        flight.len()
    )?;
    writeln!(
        out,
        "{:>5} {:>11} {:>7} {:>6} {:>8} {:>6} {:>6} {:>7} {:>6} {:>6} {:>9} {:>7} {:>9}",
        "frame",
        "height_m",
        "visited",
        "culled",
        "rendered",
        "kicked",
        "queued",
        "loading",
        "loaded",
        "failed",
        "held_MiB",
        "tiles",
        "select_ms"
    )?;
    let mut slowest = Duration::ZERO;
    let mut deepest = 0;
    for view in &flight {
        let start = Instant::now();
        let f: FrameFigures = *tiles.update(view)?;
        let took = start.elapsed();
        slowest = slowest.max(took);
        let height = height_above(&tiles, view.position, args.tileset.is_none());
        writeln!(
            out,
            "{:>5} {:>11.0} {:>7} {:>6} {:>8} {:>6} {:>6} {:>7} {:>6} {:>6} {:>9.1} {:>7} {:>9.3}",
            f.frame,
            height,
            f.visited,
            f.culled,
            f.rendered,
            f.kicked,
            f.queued,
            f.loading,
            f.loaded,
            f.failed,
            f.bytes_held as f64 / (1 << 20) as f64,
            f.tiles,
            took.as_secs_f64() * 1e3
        )?;
        for failure in tiles.failures() {
            writeln!(
                out,
                "      failed: {}",
                about_file(Path::new(&failure.uri), &failure.error)
            )?;
        }
        for &n in tiles.rendered() {
            deepest = deepest.max(tiles.graph().depth(n)?);
        }
        tiles.wait_for_loads(Duration::from_millis(16));
    }
    writeln!(
        out,
        "deepest level shown: {deepest}; slowest frame: {:.3} ms (selection, loads applied, budget)",
        slowest.as_secs_f64() * 1e3
    )?;
    let svg = picture(&tiles, &flight, args.tileset.is_none())?;
    let path = args.svg.clone().unwrap_or_else(|| {
        let scene = args.tileset.as_deref().map_or("planet".into(), |p| {
            let folder = p.parent().and_then(Path::file_name);
            folder.map_or("tileset".into(), |f| f.to_string_lossy().into_owned())
        });
        default_svg_path(
            std::env::var_os("CARGO_TARGET_DIR").as_deref(),
            std::env::current_exe().ok().as_deref(),
        )
        .with_file_name(format!("tiles-{scene}.svg"))
    });
    std::fs::write(&path, svg).map_err(|e| about_file(&path, format!("cannot write: {e}")))?;
    writeln!(out, "wrote {}", path.display())?;
    Ok(())
}

/// Height of `eye` above the planet's ellipsoid, or above the root volume of a tileset.
fn height_above(tiles: &TileSelection, eye: DVec3, planet: bool) -> f64 {
    if planet {
        let (lon, lat) = (eye.y.atan2(eye.x), eye.z.atan2(eye.x.hypot(eye.y)));
        let surface = geodetic_to_ecef(lon, lat, 0.0);
        return eye.length() - surface.length();
    }
    tiles
        .graph()
        .get::<Tile>(tiles.root())
        .map_or(0.0, |t| t.volume.distance(eye))
}

/// The last frame's rendered tiles seen from above: each tile's volume projected on
/// the tangent plane at the last camera's foot, coloured by level, finer on top.
fn picture(
    tiles: &TileSelection,
    flight: &[TileView],
    planet: bool,
) -> Result<String, Box<dyn Error>> {
    let last = flight.last().ok_or("no frames")?;
    let root = tiles.graph().get::<Tile>(tiles.root())?.volume;
    let (focus, axes, half) = if planet {
        let p = last.position;
        let (lon, lat) = (p.y.atan2(p.x), p.z.atan2(p.x.hypot(p.y)));
        let height = height_above(tiles, p, true).max(100.0);
        (
            p - p.normalize() * height,
            east_north_up(lon, lat),
            30.0 * height,
        )
    } else {
        let c = root.center();
        let up = if c.length() > 1e6 {
            c.normalize()
        } else {
            DVec3::Z
        };
        let east = up.cross(DVec3::Z).try_normalize().unwrap_or(DVec3::X);
        (
            c,
            DMat3::from_cols(east, up.cross(east), up),
            1.2 * root.radius(),
        )
    };
    let to_plane = |p: DVec3| {
        let d = axes.transpose() * (p - focus);
        (d.x, d.y)
    };
    let size = 800.0;
    let px = |v: f64| (v + half) / (2.0 * half) * size;
    // Each tile's footprint as a polygon in picture pixels: a region's outline on the
    // ground, else the outline of its volume's projected bounding rectangle.
    let mut shapes: Vec<(usize, Vec<(f64, f64)>)> = Vec::new();
    for &n in tiles.rendered() {
        let tile = tiles.graph().get::<Tile>(n)?;
        let level = tiles.graph().depth(n)?;
        let outline: Vec<(f64, f64)> = match tile.bounding_volume {
            BoundingVolume::Region(r) => {
                let edge = |i: usize| i as f64 / 8.0;
                let ring = (0..8)
                    .map(|i| (edge(i), 0.0))
                    .chain((0..8).map(|i| (1.0, edge(i))))
                    .chain((0..8).map(|i| (1.0 - edge(i), 1.0)))
                    .chain((0..8).map(|i| (0.0, 1.0 - edge(i))));
                ring.map(|(u, v)| to_plane(r.at(u, v, 0.0))).collect()
            }
            _ => {
                let points: Vec<DVec3> = match tile.volume {
                    Volume::Box(b) => b.corners().to_vec(),
                    Volume::Sphere(s) => [DVec3::X, DVec3::NEG_X, DVec3::Y, DVec3::NEG_Y]
                        .iter()
                        .map(|d| s.center + *d * s.radius)
                        .collect(),
                };
                let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
                for p in points {
                    let (x, y) = to_plane(p);
                    lo = (lo.0.min(x), lo.1.min(y));
                    hi = (hi.0.max(x), hi.1.max(y));
                }
                vec![lo, (hi.0, lo.1), hi, (lo.0, hi.1)]
            }
        };
        let outline = outline
            .into_iter()
            .map(|(x, y)| {
                (
                    px(x.clamp(-4.0 * half, 4.0 * half)),
                    size - px(y.clamp(-4.0 * half, 4.0 * half)),
                )
            })
            .collect();
        shapes.push((level, outline));
    }
    shapes.sort_by_key(|s| s.0);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">
<rect width="{w}" height="{h}" fill="white"/>
<clipPath id="view"><rect width="{h}" height="{h}"/></clipPath>
<g clip-path="url(#view)">
"#,
        w = size + 160.0,
        h = size
    );
    // Sixteen distinct colours, coarse to fine.
    const PALETTE: [&str; 16] = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
        "#9c755f", "#bab0ac", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#17becf",
    ];
    let colour = |level: usize| PALETTE[level % PALETTE.len()];
    for (level, outline) in &shapes {
        let points: Vec<String> = outline
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        writeln!(
            svg,
            r#"<polygon points="{}" fill="{}" fill-opacity="0.8" stroke="black" stroke-width="0.4"/>"#,
            points.join(" "),
            colour(*level)
        )?;
    }
    // The flight's ground track.
    let track: Vec<String> = flight
        .iter()
        .map(|v| {
            let (x, y) = to_plane(v.position);
            format!(
                "{:.1},{:.1}",
                px(x.clamp(-half, half)),
                size - px(y.clamp(-half, half))
            )
        })
        .collect();
    writeln!(
        svg,
        r#"<polyline points="{}" fill="none" stroke="black" stroke-width="1.5"/>"#,
        track.join(" ")
    )?;
    svg.push_str("</g>\n");
    let levels: std::collections::BTreeSet<usize> = shapes.iter().map(|s| s.0).collect();
    for (i, level) in levels.iter().enumerate() {
        let y = 20.0 + 18.0 * i as f64;
        writeln!(
            svg,
            r#"<rect x="{x}" y="{y}" width="14" height="14" fill="{c}"/><text x="{tx}" y="{ty}" font-family="sans-serif" font-size="12">level {level}</text>"#,
            x = size + 10.0,
            c = colour(*level),
            tx = size + 30.0,
            ty = y + 12.0
        )?;
    }
    writeln!(
        svg,
        r#"<text x="{x}" y="{y}" font-family="sans-serif" font-size="11">{w:.0} m across</text>"#,
        x = size + 10.0,
        y = size - 10.0,
        w = 2.0 * half
    )?;
    svg.push_str("</svg>\n");
    Ok(svg)
}
