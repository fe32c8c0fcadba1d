//! A short replay of the fuzzers' inputs as ordinary tests: every file under
//! `fuzz/seeds/<target>/` (the committed corpus, crash reproducers included) goes
//! through the same harness as the libFuzzer target (`fuzz/harness/`). The fuzzers
//! themselves run outside CI; see `docs/reliability.md`.

#[path = "../../fuzz/harness/edits.rs"]
mod edits;
#[path = "../../fuzz/harness/gltf.rs"]
mod gltf;

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/seeds")
        .join(target);
    let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn gltf_corpus_replays() {
    let files = corpus("gltf_import");
    assert!(files.len() >= 5, "the corpus is there");
    for (path, bytes) in files {
        eprintln!("{}", path.display());
        gltf::run(&bytes);
    }
}

#[test]
fn edit_corpus_replays() {
    let files = corpus("graph_edits");
    assert!(files.len() >= 5, "the corpus is there");
    for (path, bytes) in files {
        eprintln!("{}", path.display());
        edits::run(&bytes);
    }
}

/// The harnesses check something: a seed that imports reaches the update pass, and
/// an edit sequence builds a graph.
#[test]
fn the_seeds_exercise_the_harnesses() {
    let rich = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fuzz/seeds/gltf_import/rich.glb"),
    )
    .unwrap();
    let imported = scenewalk_nodes::gltf::import_slice(
        &rich,
        None,
        &scenewalk_nodes::gltf::ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(imported.order, [0, 1, 2, 3, 4]);
}
