//! The glTF inside the shared 3D Tiles samples' contents reads through the importer.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_nodes::Mesh;
use scenewalk_nodes::gltf::{ImportOptions, import_slice};
use scenewalk_nodes::tiles::content_glb;
use std::path::PathBuf;

/// Where the shared set is (`SCENEWALK_SCENES`, else `../shared/scenes`), as every
/// shared-set test finds it.
#[path = "common/data.rs"]
mod data;

/// The shared set's 3D Tiles samples.
fn tiles() -> PathBuf {
    data::scenes().join("tiles")
}

#[test]
fn batched_models_and_glb_contents_import_as_meshes() {
    let tiles = tiles();
    for file in [
        "1.0/TilesetWithDiscreteLOD/dragon_low.b3dm",
        "1.0/TilesetWithDiscreteLOD/dragon_medium.b3dm",
        "1.0/TilesetWithRequestVolume/city/ll.b3dm",
        "1.1/MultipleContents/planeTriangles.glb",
    ] {
        let bytes = std::fs::read(tiles.join(file)).unwrap();
        let glb = content_glb(&bytes, file).unwrap();
        let imported = import_slice(glb, None, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let graph = &imported.graph;
        let meshes = graph
            .types()
            .index_of::<Mesh>()
            .map_or(0, |t| graph.payload_count(t));
        assert!(meshes > 0, "{file}: no mesh");
    }
    let points = std::fs::read(tiles.join("1.0/TilesetWithRequestVolume/points.pnts")).unwrap();
    let err = content_glb(&points, "points.pnts").unwrap_err().to_string();
    assert_eq!(
        err,
        "points.pnts: content: a point cloud (pnts) holds no glTF"
    );
}
