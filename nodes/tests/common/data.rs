//! Where the tests' files are: the small set kept in the repository (`testdata/`) and
//! the larger shared real-data set, which only the `scenes` test targets read. Test
//! targets of every crate include this file, each using a part of it.

#![allow(
    dead_code,
    reason = "each test target that includes this file uses a part of it"
)]

use std::path::{Path, PathBuf};

/// The workspace root (this file's crate is one folder below it).
pub fn workspace() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// `testdata/gltf` at the workspace root: the few glTF samples every `cargo test` reads
/// (licences in `testdata/README.md`).
pub fn testdata_gltf() -> PathBuf {
    workspace().join("testdata/gltf")
}

/// The shared real-data set: `$SCENEWALK_SCENES` if set (not empty), else `../shared/scenes`
/// beside the workspace root. Fails, naming the path and how to point elsewhere, when
/// it is missing: a check on it never passes by skipping.
pub fn scenes() -> PathBuf {
    let (path, from) = match std::env::var_os("SCENEWALK_SCENES").filter(|p| !p.is_empty()) {
        Some(path) => (PathBuf::from(path), "SCENEWALK_SCENES"),
        None => {
            let root = workspace();
            let beside = root.parent().unwrap_or(&root).join("shared/scenes");
            (beside, "the default, ../shared/scenes beside the workspace")
        }
    };
    assert!(
        path.is_dir(),
        "the shared real-data set is missing: {} ({from}) is not a folder; set \
         SCENEWALK_SCENES to a copy of it (folders gltf/, mesh/, ...), or run the tests \
         without the feature `scenes`",
        path.display()
    );
    path
}

/// The glTF file of sample `name` in `folder` (`folder/name/name.gltf`).
pub fn sample(folder: &Path, name: &str) -> PathBuf {
    folder.join(name).join(format!("{name}.gltf"))
}
