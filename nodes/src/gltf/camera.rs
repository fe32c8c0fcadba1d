//! glTF cameras as [`Camera`] nodes.

use super::error::{GltfError, get};
use crate::{Camera, Projection};
use gltf::json;
use gltf::json::camera::Type;
use gltf::json::validation::Checked;

/// Camera `c` of the file, checked.
pub(crate) fn camera(root: &json::Root, c: usize) -> Result<Camera, GltfError> {
    let bad = |reason: String| GltfError::invalid(format!("cameras[{c}]"), reason);
    let camera = get(&root.cameras, c, "camera", || format!("cameras[{c}]"))?;
    let projection = match (camera.type_, &camera.perspective, &camera.orthographic) {
        (Checked::Valid(Type::Perspective), Some(p), _) => Projection::Perspective {
            yfov: p.yfov,
            aspect: p.aspect_ratio,
            near: p.znear,
            far: p.zfar,
        },
        (Checked::Valid(Type::Orthographic), _, Some(o)) => Projection::Orthographic {
            xmag: o.xmag,
            ymag: o.ymag,
            near: o.znear,
            far: o.zfar,
        },
        (Checked::Valid(kind), ..) => {
            return Err(bad(format!("it has no values for its type, {kind:?}")));
        }
        (Checked::Invalid, ..) => {
            return Err(bad(
                "its type is neither perspective nor orthographic".into()
            ));
        }
    };
    Camera::try_new(projection).map_err(|e| bad(e.to_string()))
}
