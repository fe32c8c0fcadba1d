//! glTF cameras as [`Camera`] nodes.

use super::error::{GltfError, get};
use crate::{Camera, Projection};
use gltf::json;
use gltf::json::camera::Type;
use gltf::json::validation::Checked;

/// Camera `c` of the file, checked.
pub(crate) fn camera(root: &json::Root, c: usize) -> Result<Camera, GltfError> {
    let bad = |reason: &str| GltfError::BadCamera {
        camera: c,
        reason: reason.to_owned(),
    };
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
        (Checked::Valid(Type::Perspective), None, _) => {
            return Err(bad(
                "its type is perspective but it has no perspective values",
            ));
        }
        (Checked::Valid(Type::Orthographic), _, None) => {
            return Err(bad(
                "its type is orthographic but it has no orthographic values",
            ));
        }
        (Checked::Invalid, ..) => {
            return Err(bad("its type is neither perspective nor orthographic"));
        }
    };
    Camera::try_new(projection).map_err(|e| bad(&e.to_string()))
}
