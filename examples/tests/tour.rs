//! The tour's library path, `scenewalk_examples::tour` (what the `tour` example runs):
//! playing a file's animation frame by frame, the picture at a time, the command
//! line's refusals, scenes without geometry, skinned models, and output written for
//! people (no debug dumps, counts in the right number).

mod pictures;
mod samples;

use base64::Engine;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use scenewalk_examples::tour::{Command, Options, Outcome, Source, parse_args, run};
use std::path::{Path, PathBuf};

/// A file of this test in the temporary folder.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("scenewalk-tour-{}-{name}", std::process::id()))
}

/// A glTF file of two unit boxes and no camera: "anchor" at rest over x 0..1, and
/// "slider", moved by animation "slide" from x = 0 at 0 s to x = 10 at 1 s.
fn sliding_boxes(animated: bool) -> String {
    let floats: [f32; 8] = [0.0, 1.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0];
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let animations = if animated {
        r#""animations": [{"name": "slide", "samplers": [{"input": 1, "output": 2}],
            "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}]}],"#
    } else {
        ""
    };
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0, 1]}}],
        "nodes": [{{"name": "anchor", "mesh": 0}}, {{"name": "slider", "mesh": 0}}],
        "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}, "mode": 0}}]}}],
        {animations}
        "buffers": [{{"byteLength": 32, "uri": "data:application/octet-stream;base64,{data}"}}],
        "bufferViews": [{{"buffer": 0, "byteLength": 8}}, {{"buffer": 0, "byteOffset": 8, "byteLength": 24}}],
        "accessors": [
          {{"componentType": 5126, "count": 1, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]}},
          {{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]}},
          {{"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}}]}}"#
    )
}

/// Runs the tour on the glTF text `gltf`; the outcome, the printed report and the
/// SVG (empty when none was written).
fn tour_of(
    name: &str,
    gltf: &str,
    frames: usize,
    time: Option<f32>,
) -> (Result<Outcome, String>, String, String) {
    let path = temp(&format!("{name}.gltf"));
    std::fs::write(&path, gltf).unwrap();
    let source = Source::File {
        path: path.clone(),
        scene: None,
        frames,
        time,
    };
    let result = run_source(name, source);
    let _ = std::fs::remove_file(path);
    result
}

fn run_source(name: &str, source: Source) -> (Result<Outcome, String>, String, String) {
    let svg = temp(&format!("{name}.svg"));
    let options = Options {
        source,
        svg: Some(svg.clone()),
        view: Default::default(),
        rows: false,
    };
    let mut out = Vec::new();
    let outcome = run(&options, &mut out).map_err(|e| e.to_string());
    let picture = std::fs::read_to_string(&svg).unwrap_or_default();
    let _ = std::fs::remove_file(svg);
    (outcome, String::from_utf8(out).unwrap(), picture)
}

/// The x extents (left, width) of the separate models the picture draws: the x
/// spans of its shaded triangles, merged where they overlap or touch.
fn models(svg: &str) -> Vec<(f64, f64)> {
    let mut spans: Vec<(f64, f64)> = pictures::drawn(svg)
        .iter()
        .map(|t| {
            let xs = t.map(|p| p.x);
            (xs[0].min(xs[1]).min(xs[2]), xs[0].max(xs[1]).max(xs[2]))
        })
        .collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut found: Vec<(f64, f64)> = Vec::new();
    for (lo, hi) in spans {
        match found.last_mut() {
            Some((left, width)) if lo <= *left + *width + 1.0 => {
                *width = width.max(hi - *left);
            }
            _ => found.push((lo, hi - lo)),
        }
    }
    found
}

/// How far right the slider lies of the anchor, in box widths.
fn slider_offset(svg: &str) -> f64 {
    let found = models(svg);
    assert_eq!(found.len(), 2, "{svg}");
    let (a, b) = (found[0], found[1]);
    assert!((a.1 - b.1).abs() < 1e-2 * a.1, "two unit boxes: {found:?}");
    (b.0 - a.0).abs() / a.1
}

#[test]
fn an_animated_file_plays_every_frame_over_the_animation_and_its_checks_pass() {
    let (outcome, text, svg) = tour_of("play", &sliding_boxes(true), 7, None);
    let outcome = outcome.unwrap();
    assert!(outcome.failed.is_empty(), "{:?}\n{text}", outcome.failed);
    let times: Vec<f32> = outcome.frames.iter().map(|f| f.time).collect();
    let want: Vec<f32> = (0..7).map(|k| k as f32 / 6.0).collect();
    assert_eq!(times, want, "{text}");
    assert!(text.contains("as 7 frames of the frame loop"), "{text}");
    // By default the frames are summed up, not listed (`--rows`: tests/cli.rs).
    assert!(
        text.contains(", over 7 frames)"),
        "a summary of 7 frames:\n{text}"
    );
    // The picture shows the last frame played: the slider at x = 10.
    assert!((slider_offset(&svg) - 10.0).abs() < 1e-2, "{svg}");
    let box_at = outcome.scene_box.unwrap();
    assert_eq!(box_at, Aabb::new(Vec3::ZERO, Vec3::new(11.0, 1.0, 1.0)));
}

#[test]
fn the_picture_shows_the_model_at_the_time_asked() {
    let (outcome, text, svg) = tour_of("time", &sliding_boxes(true), 3, Some(0.5));
    let outcome = outcome.unwrap();
    assert!(outcome.failed.is_empty(), "{text}");
    assert_eq!(outcome.frames.len(), 3, "the extra pose is no played frame");
    assert!((slider_offset(&svg) - 5.0).abs() < 1e-2, "{svg}");
    assert_eq!(
        outcome.scene_box,
        Some(Aabb::new(Vec3::ZERO, Vec3::new(6.0, 1.0, 1.0)))
    );
}

#[test]
fn a_file_without_animation_runs_the_jobs_once() {
    let (outcome, text, svg) = tour_of("still", &sliding_boxes(false), 60, None);
    let outcome = outcome.unwrap();
    assert!(
        outcome.failed.is_empty() && outcome.frames.is_empty(),
        "{text}"
    );
    assert!(!text.contains("play:"), "{text}");
    // Both boxes at rest over x 0..1: one rect, drawn once.
    assert_eq!(models(&svg).len(), 1, "{svg}");
}

#[test]
fn time_without_an_animation_is_refused() {
    let (outcome, _, _) = tour_of("still-time", &sliding_boxes(false), 60, Some(1.0));
    let err = outcome.unwrap_err();
    assert!(err.contains("--time") && err.contains("none"), "{err}");
}

#[test]
fn a_scene_without_geometry_says_so() {
    let gltf = r#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "empty", "children": [1]}, {"translation": [1, 2, 3]}]}"#;
    let (outcome, text, svg) = tour_of("empty", gltf, 60, None);
    let outcome = outcome.unwrap();
    assert!(text.contains("the scene has no geometry"), "{text}");
    assert!(!text.contains("inf"), "{text}");
    assert!(outcome.svg.is_none() && svg.is_empty() && outcome.scene_box.is_none());
}

#[cfg(feature = "obj")]
#[test]
fn an_obj_without_triangles_is_refused_before_the_city_is_built() {
    let obj = temp("points.obj");
    std::fs::write(&obj, "o points\nv 0 0 0\nv 1 0 0\nv 0 1 0\n").unwrap();
    let source = Source::City {
        blocks: 2,
        obj: Some(obj.clone()),
    };
    let (outcome, text, svg) = run_source("points", source);
    let _ = std::fs::remove_file(obj);
    let err = outcome.unwrap_err();
    assert!(err.contains("no triangles"), "{err}");
    assert!(text.is_empty() && svg.is_empty(), "nothing ran:\n{text}");
}

#[test]
fn options_that_mean_nothing_for_the_scene_are_refused() {
    let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
    for (line, named) in [
        (&["f.gltf", "--blocks", "3"][..], "--blocks"),
        (&["--blocks", "3", "f.gltf"], "--blocks"),
        (&["f.gltf", "--obj", "ball.obj"], "--obj"),
        (&["--frames", "10"], "--frames"),
        (&["--time", "1"], "--time"),
        (&["--scene", "1"], "--scene"),
        (&["f.gltf", "--frames", "0"], "--frames"),
        (&["f.gltf", "--time", "inf"], "--time"),
        (&["f.gltf", "g.gltf"], "g.gltf"),
        (&["--blocks"], "--blocks"),
        (&["--fast"], "--fast"),
    ] {
        let err = args(line).expect_err(&format!("{line:?} was accepted"));
        assert!(err.to_string().contains(named), "{line:?}: {err}");
    }
    let run = |a: &[&str]| match args(a) {
        Ok(Command::Run(options)) => options,
        other => panic!("{a:?}: {other:?}"),
    };
    assert_eq!(
        run(&["f.gltf", "--frames", "5", "--time", "0.5"]).source,
        Source::File {
            path: "f.gltf".into(),
            scene: None,
            frames: 5,
            time: Some(0.5)
        }
    );
    assert_eq!(args(&["--blocks", "2", "--help"]), Ok(Command::Help));
}

/// Words that follow a count and must agree with it.
const NOUNS: [&str; 18] = [
    "node",
    "level",
    "item",
    "triangle",
    "light",
    "box",
    "boxes",
    "frame",
    "check",
    "channel",
    "animation",
    "joint",
    "pick",
    "pair",
    "contact",
    "mesh",
    "meshes",
    "object",
];

/// Faults of text written for people: debug dumps, infinities, "1 nodes".
fn faults(text: &str) -> Vec<String> {
    let mut found: Vec<String> = ["Some(", "None", "{ ", "Vec3(", "Aabb", "inf", "NaN"]
        .iter()
        .filter(|marker| text.contains(*marker))
        .map(|marker| format!("contains {marker:?}"))
        .collect();
    let is_noun =
        |w: &str| NOUNS.contains(&w) || w.strip_suffix('s').is_some_and(|one| NOUNS.contains(&one));
    let is_plural = |w: &str| w.ends_with('s') && w != "box";
    for line in text.lines() {
        let raw: Vec<&str> = line.split_whitespace().collect();
        let words: Vec<&str> = raw
            .iter()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .collect();
        for at in 0..words.len().saturating_sub(1) {
            // A count stands alone ("4." numbers a section, "0.5" is no count).
            let count = raw[at].trim_start_matches('(');
            if count.is_empty() || !count.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            // "2 box contacts": the last noun of the run agrees with the count.
            let mut noun = at + 1;
            while words.get(noun + 1).is_some_and(|w| is_noun(w)) {
                noun += 1;
            }
            let word = words[noun];
            if is_noun(word) && (count == "1") == is_plural(word) {
                found.push(format!("{count} {}", words[at + 1..=noun].join(" ")));
            }
        }
    }
    found
}

#[test]
fn the_report_is_text_for_people() {
    // The README's own scene, played; and a small city.
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scene.gltf");
    let source = Source::File {
        path: readme,
        scene: None,
        frames: 11,
        time: None,
    };
    let (outcome, text, _) = run_source("readme", source);
    let outcome = outcome.unwrap();
    assert!(outcome.failed.is_empty(), "{text}");
    assert_eq!(outcome.frames.len(), 11);
    assert_eq!(faults(&text), Vec::<String>::new(), "{text}");
    let (outcome, city, svg) = run_source(
        "city",
        Source::City {
            blocks: 2,
            obj: None,
        },
    );
    assert!(outcome.unwrap().failed.is_empty(), "{city}");
    assert_eq!(faults(&city), Vec::<String>::new(), "{city}");
    assert!(city.contains("first contact: ring triangle"), "{city}");
    assert!(svg.contains("<polygon class=\"frustum\"") && svg.contains("<path class=\"visible\""));
    // The checker catches what it looks for.
    assert_eq!(faults("1 nodes, 2 level, 1 box contacts, Some(3)").len(), 4);
    // Lines the tour printed before it was written for people.
    let before = "   ray 1: no hit; 1 nodes entered\n   1 draw items (1 opaque front to back)\n   \
        first contact Some(TriangleContact { a: 3009, b: 872 }) (0.007 ms)\n   \
        world box (inf, inf, inf) .. (-inf, -inf, -inf)";
    assert_eq!(faults(before).len(), 5, "{:?}", faults(before));
    assert!(faults("1 node, 2 levels, 0.5 level, 1 box contact, 9 box contacts").is_empty());
}

/// On a sample kept in the repository (the Fox of the shared set: `scenes.rs`).
#[test]
fn a_skinned_model_is_drawn_where_its_joints_put_it() {
    let file = samples::data::sample(&samples::data::testdata_gltf(), "RiggedSimple");
    samples::the_tour_draws_a_skinned_model_where_its_joints_put_it(&file, "Cylinder");
}
