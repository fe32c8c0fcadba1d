//! The material node: surface state inherited by the geometry below it.

use scenewalk_core::NodeCore;
use scenewalk_core::glam::Vec4;

/// Surface state for the geometry of the node's subtree, until a deeper `Material`
/// replaces it (OpenSG's `MaterialGroup`).
///
/// ```
/// use scenewalk_core::glam::Vec4;
/// use scenewalk_nodes::Material;
/// let glass = Material::new("glass", Vec4::new(0.6, 0.8, 1.0, 0.3));
/// assert!(glass.is_transparent());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    name: String,
    base_color: Vec4,
}

impl Material {
    /// A material with a name and a linear RGBA base colour.
    pub fn new(name: impl Into<String>, base_color: Vec4) -> Material {
        Material {
            name: name.into(),
            base_color,
        }
    }

    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The linear RGBA base colour.
    pub fn base_color(&self) -> Vec4 {
        self.base_color
    }

    /// Whether the alpha is below 1 (a NaN alpha counts as opaque): drawn after the
    /// opaque geometry, back to front.
    pub fn is_transparent(&self) -> bool {
        self.base_color.w < 1.0
    }
}

impl NodeCore for Material {}
