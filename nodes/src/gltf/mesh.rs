//! Mesh primitives: what each becomes in the graph, with its POSITION bounds (declared
//! or computed) and triangles.

use super::GltfError;
use super::accessor::{accessor, read_indices, read_vec3};
use crate::{Geometry, Mesh, SkinnedMesh};
use gltf::json;
use gltf::json::accessor::{ComponentType, GenericComponentType};
use gltf::json::mesh::{Mode, Semantic};
use gltf::json::validation::Checked;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;
use std::collections::HashMap;

/// Primitives already decoded, by (POSITION accessor, index accessor, mode): meshes
/// that point at the same data share one [`Mesh`] (its clones share the data), so a
/// small file naming one big accessor many times costs its data once.
pub(crate) type Decoded = HashMap<(usize, Option<usize>, u32), PrimitiveNode>;

/// The node a primitive becomes: a [`Mesh`] when it is a triangle list, strip or fan
/// whose positions (and indices) can be read, else a [`Geometry`] holding its
/// POSITION box (points, lines, or data this importer does not decode); a
/// [`SkinnedMesh`] once a skinned node's skin poses its mesh.
#[derive(Clone, Debug)]
pub(crate) enum PrimitiveNode {
    Mesh(Mesh),
    Geometry(Geometry),
    Skinned(SkinnedMesh),
}

/// The nodes of mesh `m`'s primitives, in order.
pub(crate) fn primitives(
    root: &json::Root,
    buffers: &[Vec<u8>],
    m: usize,
    decoded: &mut Decoded,
) -> Result<Vec<PrimitiveNode>, GltfError> {
    let Some(mesh) = root.meshes.get(m) else {
        let at = format!("meshes[{m}]");
        return Err(GltfError::out_of_range(at, "mesh", m, root.meshes.len()));
    };
    let mut out = Vec::with_capacity(mesh.primitives.len());
    for (p, primitive) in mesh.primitives.iter().enumerate() {
        let at = format!("meshes[{m}].primitives[{p}]");
        out.push(primitive_node(root, buffers, primitive, &at, decoded)?);
    }
    Ok(out)
}

fn primitive_node(
    root: &json::Root,
    buffers: &[Vec<u8>],
    primitive: &json::mesh::Primitive,
    at: &str,
    decoded: &mut Decoded,
) -> Result<PrimitiveNode, GltfError> {
    let Checked::Valid(mode) = primitive.mode else {
        return Err(GltfError::invalid(
            format!("{at}.mode"),
            "not a primitive mode",
        ));
    };
    let triangle_mode = matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    );
    let Some(a) = primitive
        .attributes
        .get(&Checked::Valid(Semantic::Positions))
    else {
        // Nothing to draw (the spec says to skip it): an empty box.
        return Ok(PrimitiveNode::Geometry(Geometry::new(Aabb::EMPTY)));
    };
    let a = a.value();
    let key = (
        a,
        primitive
            .indices
            .map(|i| i.value())
            .filter(|_| triangle_mode),
        mode.as_gl_enum(),
    );
    if let Some(done) = decoded.get(&key) {
        return Ok(done.clone());
    }
    let node = decode(root, buffers, primitive, at, mode, a)?;
    decoded.insert(key, node.clone());
    Ok(node)
}

/// Reads primitive data: a [`Mesh`] or, for data this importer does not decode, a
/// [`Geometry`] with the declared box.
fn decode(
    root: &json::Root,
    buffers: &[Vec<u8>],
    primitive: &json::mesh::Primitive,
    at: &str,
    mode: Mode,
    a: usize,
) -> Result<PrimitiveNode, GltfError> {
    let triangle_mode = matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    );
    let position_at = format!("{at}.attributes.POSITION");
    let declared = declared_bounds(accessor(root, a, &position_at)?, a)?;
    let positions = read_vec3(root, buffers, a)?;
    let indices = match primitive.indices {
        Some(i) if triangle_mode => {
            accessor(root, i.value(), &format!("{at}.indices"))?;
            read_indices(root, buffers, i.value())?
        }
        _ => positions.as_ref().map(|p| (0..p.len() as u32).collect()),
    };
    if let (true, Some(positions), Some(indices)) = (triangle_mode, &positions, indices) {
        let triangles = assemble(mode, &indices);
        let mesh = Mesh::new(positions.clone(), triangles)
            .map_err(|e| GltfError::invalid(at, e.to_string()))?;
        let mesh = match declared {
            Some(bounds) => mesh.with_declared_bounds(bounds),
            None => mesh,
        };
        return Ok(PrimitiveNode::Mesh(mesh));
    }
    let bounds = match (declared, positions) {
        (Some(bounds), _) => bounds,
        (None, Some(points)) => Aabb::from_points(points),
        (None, None) => {
            return Err(GltfError::invalid(
                format!("accessors[{a}]"),
                "POSITION has no min/max and its data cannot be read \
                 (only float VEC3 in a buffer view, without sparse values, is read)",
            ));
        }
    };
    let triangles = triangle_count(root, primitive, mode, &position_at, a)?;
    let geometry = Geometry::try_new(bounds, triangles)
        .map_err(|e| GltfError::invalid(position_at, e.to_string()))?;
    Ok(PrimitiveNode::Geometry(geometry))
}

/// Triangles as index triples: lists in threes, strips alternating their winding so
/// every triangle faces the same way, fans around the first vertex.
fn assemble(mode: Mode, indices: &[u32]) -> Vec<[u32; 3]> {
    // Slice patterns rather than indexing: the windows have the stated lengths.
    match mode {
        Mode::Triangles => indices
            .chunks_exact(3)
            .filter_map(|t| <[u32; 3]>::try_from(t).ok())
            .collect(),
        Mode::TriangleStrip => indices
            .windows(3)
            .enumerate()
            .filter_map(|(i, t)| match (i % 2, t) {
                (0, &[a, b, c]) => Some([a, b, c]),
                (_, &[a, b, c]) => Some([b, a, c]),
                _ => None,
            })
            .collect(),
        Mode::TriangleFan => match indices.split_first() {
            Some((&first, rest)) => rest
                .windows(2)
                .filter_map(|t| match *t {
                    [b, c] => Some([first, b, c]),
                    _ => None,
                })
                .collect(),
            None => Vec::new(),
        },
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => Vec::new(),
    }
}

/// Triangles drawn by a primitive whose data is not read: none for points and lines.
fn triangle_count(
    root: &json::Root,
    primitive: &json::mesh::Primitive,
    mode: Mode,
    position_at: &str,
    a: usize,
) -> Result<u32, GltfError> {
    let vertices = match primitive.indices {
        Some(i) => {
            accessor(
                root,
                i.value(),
                &position_at.replace("attributes.POSITION", "indices"),
            )?
            .count
            .0
        }
        None => accessor(root, a, position_at)?.count.0,
    };
    let triangles = match mode {
        Mode::Triangles => vertices / 3,
        Mode::TriangleStrip | Mode::TriangleFan => vertices.saturating_sub(2),
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => 0,
    };
    Ok(u32::try_from(triangles).unwrap_or(u32::MAX))
}

/// `min` and `max` of a POSITION accessor as a box, if both are given.
fn declared_bounds(acc: &json::Accessor, a: usize) -> Result<Option<Aabb>, GltfError> {
    let (Some(min), Some(max)) = (&acc.min, &acc.max) else {
        return Ok(None);
    };
    let corner = |value: &json::Value, field: &str| -> Result<Vec3, GltfError> {
        let bad = || {
            GltfError::invalid(
                format!("accessors[{a}].{field}"),
                "not three finite numbers",
            )
        };
        let items = value.as_array().ok_or_else(bad)?;
        let numbers: Vec<f32> = items
            .iter()
            .map(|v| v.as_f64().map(|x| x as f32).filter(|x| x.is_finite()))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        match numbers[..] {
            [x, y, z] => Ok(Vec3::new(x, y, z)),
            _ => Err(bad()),
        }
    };
    let (min, max) = (corner(min, "min")?, corner(max, "max")?);
    // Normalized integer positions (KHR_mesh_quantization) declare min / max in the
    // stored integers; the positions are those divided by the type's maximum.
    let (min, max) = match (acc.normalized, acc.component_type) {
        (true, Checked::Valid(GenericComponentType(c))) => {
            let unit = match c {
                ComponentType::I8 => 127.0,
                ComponentType::U8 => 255.0,
                ComponentType::I16 => 32767.0,
                ComponentType::U16 => 65535.0,
                ComponentType::U32 | ComponentType::F32 => 1.0,
            };
            let dequantize = |v: Vec3| (v / unit).max(Vec3::splat(-1.0));
            (dequantize(min), dequantize(max))
        }
        _ => (min, max),
    };
    if !min.cmple(max).all() {
        return Err(GltfError::invalid(
            format!("accessors[{a}]"),
            format!("min {min} lies above max {max}"),
        ));
    }
    Ok(Some(Aabb { min, max }))
}
