//! `inspect --json` on the Khronos sample scenes in `shared/scenes/gltf/` beside the
//! workspace root, checked against the reference reading of their raw JSON. The samples
//! are not part of the project; the test fails, naming the folder, when they are missing.

mod reference;

use scenewalk_examples::inspect::inspect;
use scenewalk_nodes::gltf::{ImportOptions, import};
use std::path::Path;

#[test]
fn samples_match_the_reference() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes/gltf");
    let entries = std::fs::read_dir(&folder).unwrap_or_else(|e| {
        panic!(
            "the glTF samples are missing: cannot read {} ({e}); they belong in \
             shared/scenes/gltf beside the workspace root",
            folder.display()
        )
    });
    let mut checked = 0;
    for entry in entries {
        let dir = entry.unwrap().path();
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for file in files {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "gltf") {
                continue;
            }
            let doc: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let scenes = doc["scenes"].as_array().map_or(0, Vec::len);
            let default = doc["scene"].as_u64().map_or(0, |s| s as usize);
            let mut runs = vec![(None, default)];
            runs.extend((0..scenes).map(|s| (Some(s), s)));
            for (option, scene) in runs {
                let imported = import(&path, &ImportOptions::default().with_scene(option)).unwrap();
                let json = inspect(&imported).unwrap().to_json();
                reference::check(&json, &doc, scene);
                eprintln!(
                    "{} scene {scene} ({option:?}): {} nodes, {} mesh nodes: ok",
                    path.display(),
                    json["node_count"],
                    json["mesh_node_count"]
                );
                checked += 1;
            }
        }
    }
    assert!(
        checked > 0,
        "no .gltf file found under {}",
        folder.display()
    );
}
