//! Mesh primitives: what each becomes in the graph.

use super::accessor::{component, read_indices, read_vec3, unit};
use super::error::{GltfError, get};
use super::import::cached;
use crate::{Geometry, Mesh, SkinnedMesh};
use gltf::json;
use gltf::json::deserialize::from_value;
use gltf::json::mesh::{Mode, Semantic};
use gltf::json::validation::Checked;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use std::collections::HashMap;

/// Primitives already decoded, by (POSITION accessor, index accessor, mode): meshes
/// naming the same data share one [`Mesh`], so data named many times is read once.
pub(crate) type Decoded = HashMap<(usize, Option<usize>, u32), PrimitiveNode>;

/// The node a primitive becomes; [`SkinnedMesh`] once a skinned node's skin poses it.
/// A box says why a skin cannot pose it (`None`: it has no positions, and stays a box).
#[derive(Clone, Debug)]
pub(crate) enum PrimitiveNode {
    Mesh(Mesh),
    Geometry(Geometry, Option<&'static str>),
    Skinned(SkinnedMesh),
}

/// The nodes of mesh `m`'s primitives, as [`super::ImportedNode::primitives`] says (a
/// mesh for a triangle list, strip or fan; a box for points, lines, undecoded data).
pub(crate) fn primitives(
    root: &json::Root,
    buffers: &[Vec<u8>],
    m: usize,
    decoded: &mut Decoded,
) -> Result<Vec<PrimitiveNode>, GltfError> {
    let mesh = get(&root.meshes, m, "mesh", || format!("meshes[{m}]"))?;
    let mut nodes = Vec::with_capacity(mesh.primitives.len());
    for (p, primitive) in mesh.primitives.iter().enumerate() {
        let at = format!("meshes[{m}].primitives[{p}]");
        let Checked::Valid(mode) = primitive.mode else {
            return Err(GltfError::invalid(at + ".mode", "not a primitive mode"));
        };
        let position = primitive
            .attributes
            .get(&Checked::Valid(Semantic::Positions));
        let Some(a) = position.map(|a| a.value()) else {
            // Nothing to draw (the spec says to skip it): an empty box.
            nodes.push(PrimitiveNode::Geometry(Geometry::new(Aabb::EMPTY), None));
            continue;
        };
        let triangles = matches!(
            mode,
            Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
        );
        let indices = primitive.indices.map(|i| i.value());
        let key = (a, indices.filter(|_| triangles), mode.as_gl_enum());
        nodes.push(cached(decoded, key, || {
            let position_at = format!("{at}.attributes.POSITION");
            let position = get(&root.accessors, a, "accessor", || position_at.clone())?;
            let declared = declared_bounds(position, a)?;
            let positions = read_vec3(root, buffers, position, a)?;
            let index_at = || format!("{at}.indices");
            let index =
                indices.map(|i| get(&root.accessors, i, "accessor", index_at).map(|a| (i, a)));
            let index = index.transpose()?;
            let order = match (index, &positions) {
                _ if !triangles => None,
                (Some((i, acc)), _) => read_indices(root, buffers, acc, i)?,
                (None, positions) => positions.as_ref().map(|p| (0..p.len() as u32).collect()),
            };
            let bounds = match (declared, positions, order) {
                (declared, Some(positions), Some(order)) => {
                    let mesh = Mesh::new(positions, assemble(mode, &order))
                        .map_err(|e| GltfError::invalid(&at, e.to_string()))?;
                    let declared = declared.unwrap_or(Aabb::EMPTY);
                    return Ok(PrimitiveNode::Mesh(mesh.with_declared_bounds(declared)));
                }
                (Some(bounds), ..) => bounds,
                (None, Some(points), _) => Aabb::from_points(points),
                (None, None, _) => {
                    return Err(GltfError::invalid(
                        format!("accessors[{a}]"),
                        "POSITION has no min/max and its data cannot be read \
                         (only float VEC3 data, in a buffer view or sparse values, is read)",
                    ));
                }
            };
            // Triangles drawn, though not read: none for points and lines.
            let vertices = index.map_or(position.count.0, |(_, acc)| acc.count.0);
            let drawn = match mode {
                Mode::Triangles => vertices / 3,
                Mode::TriangleStrip | Mode::TriangleFan => vertices.saturating_sub(2),
                Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => 0,
            };
            let drawn = u32::try_from(drawn).unwrap_or(u32::MAX);
            let geometry = Geometry::try_new(bounds, drawn)
                .map_err(|e| GltfError::invalid(position_at, e.to_string()))?;
            let unskinned = match triangles {
                true => "its POSITION is not float VEC3 data, which skinning needs",
                false => "only triangles are skinned (not points or lines)",
            };
            Ok(PrimitiveNode::Geometry(geometry, Some(unskinned)))
        })?);
    }
    Ok(nodes)
}

/// Triangles as index triples: lists in threes, strips alternating their winding so
/// every triangle faces the same way, fans around the first vertex.
fn assemble(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
    // Corners `i`, `i + 1` and `i + 2` as a zip, without indexing.
    let next = || indices.iter().skip(1).zip(indices.iter().skip(2));
    let first = indices.first().copied().unwrap_or(0);
    let runs = indices.iter().zip(next()).enumerate();
    match mode {
        Mode::Triangles => runs
            .step_by(3)
            .map(|(_, (&a, (&b, &c)))| [a, b, c])
            .collect(),
        Mode::TriangleStrip => runs
            .map(|(i, (&a, (&b, &c)))| if i % 2 == 0 { [a, b, c] } else { [b, a, c] })
            .collect(),
        Mode::TriangleFan => next().map(|(&b, &c)| [first, b, c]).collect(),
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => Vec::new(),
    }
}

/// `min` and `max` of a POSITION accessor as a box, if both are given.
fn declared_bounds(acc: &json::Accessor, a: usize) -> Result<Option<Aabb>, GltfError> {
    let (Some(min), Some(max)) = (&acc.min, &acc.max) else {
        return Ok(None);
    };
    let corner = |value: &json::Value, field: &str| {
        let corner = from_value::<[f32; 3]>(value.clone()).map(Vec3::from_array);
        corner.ok().filter(|c| c.is_finite()).ok_or_else(|| {
            GltfError::invalid(
                format!("accessors[{a}].{field}"),
                "not three finite numbers",
            )
        })
    };
    // Normalized integer positions (KHR_mesh_quantization) declare min / max in the
    // stored integers; the positions are those divided by the type's unit.
    let dequantize = |v: Vec3| match component(acc).filter(|_| acc.normalized) {
        Some(c) => (v / unit(c)).max(Vec3::splat(-1.0)),
        None => v,
    };
    let min = dequantize(corner(min, "min")?);
    let max = dequantize(corner(max, "max")?);
    if !min.cmple(max).all() {
        return Err(GltfError::invalid(
            format!("accessors[{a}]"),
            format!("min {min} lies above max {max}"),
        ));
    }
    Ok(Some(Aabb { min, max }))
}
