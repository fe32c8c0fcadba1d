//! Every example's command line follows one convention (`scenewalk_examples::args`):
//! `--help` exits 0, an unknown option is named and exits 2, a file that cannot be read
//! is one line naming it once and exits 1, and a closed stdout ends the program quietly
//! with 0. The examples are run as the programs users run: this test has cargo build
//! them (with this test's profile and features) and runs each binary.

use scenewalk_examples::args::ArgError;
use scenewalk_examples::inspect::{inspect, node_counts};
use scenewalk_examples::tour::{Command, Options, Source, parse_args, run};
use scenewalk_examples::{CityMeshes, CityScene, city_scene};
use scenewalk_nodes::gltf::{ImportOptions, import, import_slice};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::OnceLock;

/// The README's scene, in the repository.
fn scene_gltf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scene.gltf")
}

/// A file of this test in the temporary folder.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("scenewalk-cli-{}-{name}", std::process::id()))
}

/// The example programs by name, built by cargo once for all tests of this file.
fn examples() -> &'static HashMap<String, PathBuf> {
    static BUILT: OnceLock<HashMap<String, PathBuf>> = OnceLock::new();
    BUILT.get_or_init(|| {
        // The profile this test was built with: target/<profile>/deps/cli-….
        let exe = std::env::current_exe().unwrap();
        let profile = exe
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name);
        let profile = match profile.and_then(|p| p.to_str()) {
            Some("debug") | None => "dev".to_string(),
            Some(other) => other.to_string(),
        };
        let mut features = Vec::new();
        if cfg!(feature = "obj") {
            features.push("obj");
        }
        if cfg!(feature = "parallel") {
            features.push("parallel");
        }
        if cfg!(feature = "tiles") {
            features.push("tiles");
        }
        let output = std::process::Command::new(env!("CARGO"))
            .args(["build", "-p", "scenewalk-examples", "--examples"])
            .args(["--profile", &profile, "--message-format=json"])
            .arg("--no-default-features")
            .args(
                ["--features", &features.join(",")]
                    .iter()
                    .filter(|_| !features.is_empty()),
            )
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stderr(Stdio::inherit())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "cargo could not build the examples"
        );
        let mut built = HashMap::new();
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let message: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
            let kinds = &message["target"]["kind"];
            if message["reason"] == "compiler-artifact"
                && kinds
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "example"))
                && let (Some(name), Some(path)) = (
                    message["target"]["name"].as_str(),
                    message["executable"].as_str(),
                )
            {
                built.insert(name.to_string(), PathBuf::from(path));
            }
        }
        built
    })
}

/// The example's binary.
fn example(name: &str) -> &'static Path {
    examples()
        .get(name)
        .unwrap_or_else(|| panic!("cargo built no example {name:?}"))
}

/// Runs the example `name` with `args` to its end.
fn run_example(name: &str, args: &[&str]) -> Output {
    std::process::Command::new(example(name))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// An example's name, arguments for a short run, and where it reads a file.
type Example = (
    &'static str,
    &'static [&'static str],
    Option<&'static [&'static str]>,
);

/// Every example with its arguments for a short run; `file` marks where a file the
/// example reads goes (`None`: it reads none).
const EXAMPLES: [Example; 11] = [
    ("tour", &["--blocks", "1"], Some(&["FILE"])),
    ("inspect", &["SCENE"], Some(&["FILE"])),
    ("frame_loop", &["--blocks", "1", "--frames", "2"], None),
    ("incremental", &[], None),
    ("incremental_counts", &["--nodes", "2000", "patch"], None),
    ("custom_node", &[], None),
    ("custom_iterator", &[], None),
    ("meshes", &[], Some(&["--obj", "FILE"])),
    ("robot", &["ROBOT"], Some(&["FILE"])),
    (
        "tiles",
        &["--frames", "2", "--levels", "4", "--svg", "SVG"],
        Some(&["FILE"]),
    ),
    // Measuring takes minutes: its closed-pipe run is left out (below).
    ("bench_report", &["--quick"], None),
];

/// Whether this build has the example (`meshes` and `custom_iterator` need the `obj`
/// feature, `bench_report` the `parallel` one).
fn built(name: &str) -> bool {
    let needs_obj = matches!(name, "meshes" | "custom_iterator");
    let needs_parallel = name == "bench_report";
    let needs_tiles = name == "tiles";
    (!needs_obj || cfg!(feature = "obj"))
        && (!needs_parallel || cfg!(feature = "parallel"))
        && (!needs_tiles || cfg!(feature = "tiles"))
}

/// The examples of [`EXAMPLES`] this build has.
fn every_example() -> impl Iterator<
    Item = (
        &'static str,
        &'static [&'static str],
        Option<&'static [&'static str]>,
    ),
> {
    EXAMPLES.into_iter().filter(|(name, _, _)| built(name))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_exits_0_and_prints_the_usage() {
    for (name, _, _) in every_example() {
        for help in ["--help", "-h"] {
            let out = run_example(name, &[help]);
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            assert_eq!(out.status.code(), Some(0), "{name} {help}: {stderr}");
            assert!(stderr.is_empty(), "{name} {help}: {stderr}");
            assert!(
                stdout.to_lowercase().contains("usage"),
                "{name} {help}:\n{stdout}"
            );
        }
    }
}

#[test]
fn an_unknown_option_is_named_and_exits_2() {
    for (name, _, _) in every_example() {
        for bogus in [["--bogus"], ["--bogus=3"]] {
            let out = run_example(name, &bogus);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {bogus:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
            assert!(stderr.contains("--bogus"), "{name}: {stderr}");
            assert!(out.stdout.is_empty(), "{name}: {}", text(&out.stdout));
        }
    }
}

#[test]
fn a_missing_file_is_one_line_naming_it_once_and_exits_1() {
    let missing = temp("nonexistent.gltf");
    let shown = missing.display().to_string();
    let mut tried = 0;
    for (name, _, file) in every_example() {
        let Some(file) = file else { continue };
        let args: Vec<&str> = file
            .iter()
            .map(|&a| if a == "FILE" { shown.as_str() } else { a })
            .collect();
        let out = run_example(name, &args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name} {args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert_eq!(stderr.matches(&shown).count(), 1, "{name}: {stderr}");
        assert!(
            !stderr.contains("::"),
            "an API name in {name}'s error: {stderr}"
        );
        tried += 1;
    }
    let optional = usize::from(built("meshes")) + usize::from(built("tiles"));
    assert_eq!(tried, 3 + optional);
    // The tour's ball from a file, too.
    let out = run_example("tour", &["--obj", &shown]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches(&shown).count(), 1, "{stderr}");
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    let scene = scene_gltf().display().to_string();
    let robot = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testdata/urdf/arm.urdf")
        .display()
        .to_string();
    let svg = temp("closed-pipe-tiles.svg").display().to_string();
    for (name, args, _) in every_example() {
        if name == "bench_report" {
            continue;
        }
        let args: Vec<&str> = args
            .iter()
            .map(|&a| match a {
                "SCENE" => scene.as_str(),
                "ROBOT" => robot.as_str(),
                "SVG" => svg.as_str(),
                _ => a,
            })
            .collect();
        let mut child = std::process::Command::new(example(name))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the program writes (`program | head -0`).
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name} {args:?}: {stderr}");
        assert!(stderr.is_empty(), "{name} {args:?}: {stderr}");
    }
}

#[test]
fn bad_values_exit_1_with_a_line_naming_the_option() {
    let scene = scene_gltf().display().to_string();
    let s = scene.as_str();
    for (name, args, named) in [
        ("tour", &[s, "--time", "-1"][..], "--time"),
        ("tour", &[s, "--time", "1e30"], "--time"),
        ("tour", &[s, "--time", "1e40"], "--time"),
        ("tour", &[s, "--time", "inf"], "--time"),
        ("tour", &[s, "--time", "NaN"], "--time"),
        ("tour", &[s, "--frames", "0"], "--frames"),
        ("tour", &[s, "--frames", "10001"], "--frames"),
        ("tour", &[s, "--scene", "99"], "scene 99"),
        ("inspect", &[s, "--time", "-1"], "--time"),
        ("inspect", &[s, "--scene", "99"], "scene 99"),
        ("frame_loop", &["--frames", "100000"], "--frames"),
        ("frame_loop", &["--blocks", "x"], "--blocks"),
    ] {
        let out = run_example(name, args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name} {args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name} {args:?}: {stderr}");
        assert!(stderr.contains(named), "{name} {args:?}: {stderr}");
        assert!(!stderr.contains("::"), "{name} {args:?}: {stderr}");
        assert_eq!(stderr.matches(s).count(), stderr.contains(s) as usize);
    }
    // A misplaced option is a usage error.
    for (name, args, named) in [
        ("inspect", &[s, "--frames", "3"][..], "--frames"),
        ("tour", &[s, "--blocks", "3"], "--blocks"),
        ("tour", &["--rows"], "--rows"),
        ("inspect", &[s, "--json=yes"], "--json"),
    ] {
        let out = run_example(name, args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {stderr}");
        assert!(stderr.contains(named), "{name} {args:?}: {stderr}");
    }
}

#[test]
fn time_values_are_refused_or_taken_as_the_help_says() {
    let parse = |t: &str| parse_args(["f.gltf", "--time", t].iter().map(|s| s.to_string()));
    for t in [
        "-1", "-0.5", "1e30", "1e40", "inf", "-inf", "NaN", "1000001", "soon",
    ] {
        assert!(
            matches!(parse(t), Err(ArgError::Value(m)) if m.contains("--time") && m.contains(t)),
            "{t}: {:?}",
            parse(t)
        );
    }
    for (t, want) in [("0", 0.0), ("1.5", 1.5), ("1e6", 1e6), ("--time=2", 2.0)] {
        let got = if let Some(t) = t.strip_prefix("--time=") {
            parse_args(["f.gltf".to_string(), format!("--time={t}")].into_iter())
        } else {
            parse(t)
        };
        let Ok(Command::Run(Options {
            source: Source::File { time, .. },
            ..
        })) = got
        else {
            panic!("{t}: {got:?}");
        };
        assert_eq!(time, Some(want));
    }
}

/// The number after `about` in `text` that precedes `what` (`about 55,700 nodes`).
fn about(text: &str, after: &str) -> f64 {
    let at = text
        .find(after)
        .unwrap_or_else(|| panic!("no {after:?} in:\n{text}"));
    let rest = &text[at + after.len()..];
    let rest = &rest[rest.find("about ").unwrap() + 6..];
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

#[test]
fn the_figures_in_the_help_are_right() {
    let nodes = |blocks| {
        let city = CityScene::build(
            blocks,
            city_scene::DEFAULT_SEED,
            &CityMeshes::generated().unwrap(),
        )
        .unwrap();
        (city.graph.len() as f64, city.graph.types().len())
    };
    let near = |said: f64, built: f64| (said - built).abs() <= 0.005 * built;
    let (default, types) = nodes(city_scene::DEFAULT_BLOCKS);
    assert_eq!(city_scene::DEFAULT_BLOCKS, 16);

    let tour = text(&run_example("tour", &["--help"]).stdout);
    assert!(
        near(about(&tour, "default 16"), default),
        "{default}:\n{tour}"
    );
    assert_eq!(types, 9);
    assert!(tour.contains("of\nnine node types"), "{tour}");

    let frame_loop = text(&run_example("frame_loop", &["--help"]).stdout);
    assert!(
        near(about(&frame_loop, "default 16"), default),
        "{default}:\n{frame_loop}"
    );
    let (big, _) = nodes(48);
    assert!(near(about(&frame_loop, "48:"), big), "{big}:\n{frame_loop}");
    // And the program says what it builds.
    let out = run_example("frame_loop", &["--frames", "1"]);
    let first = text(&out.stdout);
    assert!(first.starts_with(&format!("{default} nodes")), "{first}");
}

#[test]
fn tour_and_inspect_count_the_nodes_of_a_file_alike() {
    let imported = import(&scene_gltf(), &ImportOptions::default()).unwrap();
    let counts = node_counts(&imported);
    assert_eq!(counts, "5 glTF nodes, imported as 9 graph nodes of 3 types");
    let scene = scene_gltf().display().to_string();
    let svg = temp("counts.svg").display().to_string();
    let tour = text(&run_example("tour", &[&scene, "--frames", "2", "--svg", &svg]).stdout);
    let _ = std::fs::remove_file(&svg);
    let inspect = text(&run_example("inspect", &[&scene]).stdout);
    assert!(tour.contains(&counts), "{tour}");
    assert!(inspect.contains(&counts), "{inspect}");
    // A tiny scene's speed line says what it measures.
    assert!(tour.contains("fixed costs"), "{tour}");
}

#[test]
fn a_one_node_scene_reports_no_children() {
    let file = br#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{}]}"#;
    let imported = import_slice(file, None, &ImportOptions::default()).unwrap();
    let summary = inspect(&imported).unwrap().summary(Default::default());
    let first = summary.lines().next().unwrap();
    assert!(
        first.contains("1 glTF node,") && first.contains("no children"),
        "{first}"
    );
    assert!(!summary.contains("fan-out at most 0"), "{summary}");
}

#[test]
fn frame_tables_show_a_summary_and_every_row_on_request() {
    let run_rows = |rows: bool| {
        let svg = temp(&format!("rows-{rows}.svg"));
        let options = Options {
            source: Source::File {
                path: scene_gltf(),
                scene: None,
                frames: 25,
                time: None,
            },
            svg: Some(svg.clone()),
            rows,
            view: Default::default(),
        };
        let mut out = Vec::new();
        let outcome = run(&options, &mut out).unwrap();
        let _ = std::fs::remove_file(svg);
        assert!(outcome.failed.is_empty());
        text(&out)
    };
    // A row starts with the frame's number and its time.
    let rows = |text: &str| {
        text.lines()
            .filter(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words.len() == 8 && words[0].parse::<usize>().is_ok()
            })
            .count()
    };
    let summary = run_rows(false);
    assert_eq!(rows(&summary), 0, "{summary}");
    for phase in ["animate", "update", "hand-over", "view", "pick", "frame"] {
        assert!(
            summary.lines().any(|l| l.trim_start().starts_with(phase)),
            "{phase}:\n{summary}"
        );
    }
    assert!(summary.contains("min    median       max"), "{summary}");
    let every = run_rows(true);
    assert_eq!(rows(&every), 25, "{every}");
    // No figure of the table reads as zero: the unit fits the shortest phase.
    let table: Vec<&str> = every
        .lines()
        .skip_while(|l| !l.contains("frame    time s"))
        .take(33)
        .collect();
    assert!(
        table
            .iter()
            .all(|l| l.split_whitespace().all(|w| w != "0.00")),
        "{}",
        table.join("\n")
    );
}

#[cfg(feature = "obj")]
#[test]
fn an_obj_without_triangles_is_refused_by_meshes_as_by_the_tour() {
    let obj = temp("points.obj");
    std::fs::write(&obj, "o points\nv 0 0 0\nv 1 0 0\n").unwrap();
    let shown = obj.display().to_string();
    for name in ["meshes", "tour"] {
        let out = run_example(name, &["--obj", &shown]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains("has no triangles"), "{name}: {stderr}");
        assert_eq!(stderr.matches(&shown).count(), 1, "{name}: {stderr}");
    }
    // A binary file given as OBJ says so, naming the file once.
    std::fs::write(&obj, [0xff, 0xfe, 0x00, 0x80, 0x0a]).unwrap();
    let out = run_example("meshes", &["--obj", &shown]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("not OBJ text"), "{stderr}");
    assert_eq!(stderr.matches(&shown).count(), 1, "{stderr}");
    let _ = std::fs::remove_file(obj);
}
