//! Loading meshes from Wavefront OBJ files with `tobj`.

use crate::mesh::{Mesh, MeshError};
use scenewalk_core::glam::Vec3;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Why an OBJ file gave no meshes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ObjError {
    /// The file could not be opened (missing, or not a regular file).
    #[error("{file}: cannot open: {reason}")]
    Open {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// The text could not be parsed, or a model's faces do not form whole triangles.
    #[error("{file}: {message}")]
    Parse {
        /// The file (`<memory>` for [`load_obj_from`]).
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A model's data makes no valid mesh.
    #[error("{file}: model {model:?}: {source}")]
    Mesh {
        /// The file.
        file: PathBuf,
        /// The model's name.
        model: String,
        /// Why the mesh was refused.
        source: MeshError,
    },
}

/// Loads every model (`o` / `g` block) of the OBJ file at `path` as a `(name, mesh)`
/// pair, polygons triangulated. Only positions are read; materials are not loaded.
pub fn load_obj(path: &Path) -> Result<Vec<(String, Mesh)>, ObjError> {
    let file = crate::open_regular(path).map_err(|e| ObjError::Open {
        file: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    load_obj_named(&mut std::io::BufReader::new(file), path)
}

/// As [`load_obj`], from OBJ text in a reader (errors name the file `<memory>`).
///
/// ```
/// use scenewalk_nodes::load_obj_from;
/// let text = "o quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
/// let meshes = load_obj_from(&mut text.as_bytes())?;
/// assert_eq!(meshes.len(), 1);
/// assert_eq!(meshes[0].0, "quad");
/// assert_eq!(meshes[0].1.geometry().primitives(), 2);
/// # Ok::<(), scenewalk_nodes::ObjError>(())
/// ```
pub fn load_obj_from(reader: &mut impl BufRead) -> Result<Vec<(String, Mesh)>, ObjError> {
    load_obj_named(reader, Path::new("<memory>"))
}

fn load_obj_named(reader: &mut impl BufRead, file: &Path) -> Result<Vec<(String, Mesh)>, ObjError> {
    let file = file.to_path_buf();
    let models = read_models(reader).map_err(|message| ObjError::Parse {
        file: file.clone(),
        message,
    })?;
    let meshes = models.into_iter().map(|(name, positions, triangles)| {
        match Mesh::new(positions, triangles) {
            Ok(mesh) => Ok((name, mesh)),
            Err(source) => Err(ObjError::Mesh {
                file: file.clone(),
                model: name,
                source,
            }),
        }
    });
    meshes.collect()
}

/// Every model of OBJ text as (name, positions, triangles), as [`load_obj`] reads them:
/// the crate's one OBJ reader (robot collision meshes use it too). The error says what
/// is wrong, without the file.
pub(crate) fn read_models(reader: &mut impl BufRead) -> Result<Vec<Model>, String> {
    // Triangulated, one index per corner, points and lines dropped. The update keeps
    // this compiling when another crate turns on tobj features that add fields.
    #[allow(clippy::needless_update)]
    let options = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
        ..Default::default()
    };
    let no_materials = |_: &Path| Err(tobj::LoadError::OpenFileFailed);
    let (models, _) = tobj::load_obj_buf(reader, &options, no_materials).map_err(|e| match e {
        // tobj reads lines of text; a line that is not UTF-8 is its "read error".
        tobj::LoadError::ReadError => {
            "not OBJ text (it holds bytes that are not UTF-8 text; a binary file?)".to_owned()
        }
        e => format!("not a readable OBJ file: {e}"),
    })?;
    let models = models.into_iter().map(|model| {
        let (name, indices) = (model.name, model.mesh.indices);
        if indices.len() % 3 != 0 {
            let n = indices.len();
            return Err(format!(
                "model {name:?} has {n} indices, not a multiple of 3"
            ));
        }
        let positions = model.mesh.positions.chunks_exact(3).map(Vec3::from_slice);
        let triangles = indices.chunks_exact(3).filter_map(|t| t.try_into().ok());
        Ok((name, positions.collect(), triangles.collect()))
    });
    models.collect()
}

/// A model's name, positions and triangles.
type Model = (String, Vec<Vec3>, Vec<[u32; 3]>);
