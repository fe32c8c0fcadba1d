//! Mesh primitives: POSITION bounds (declared or computed), triangle counts, and the
//! node each primitive becomes.

use super::GltfError;
use super::buffers::view_bytes;
use crate::Geometry;
use gltf::json;
use gltf::json::accessor::{ComponentType, GenericComponentType, Type};
use gltf::json::mesh::{Mode, Semantic};
use gltf::json::validation::Checked;
use scenewalk_core::Aabb;
use scenewalk_core::glam::Vec3;

/// The node payloads of mesh `m`'s primitives, in order: the one place that decides
/// what a primitive becomes in the graph.
pub(crate) fn primitives(
    root: &json::Root,
    buffers: &[Vec<u8>],
    m: usize,
) -> Result<Vec<Geometry>, GltfError> {
    let Some(mesh) = root.meshes.get(m) else {
        return Err(GltfError::out_of_range(
            format!("meshes[{m}]"),
            "mesh",
            m,
            root.meshes.len(),
        ));
    };
    let mut out = Vec::with_capacity(mesh.primitives.len());
    for (p, primitive) in mesh.primitives.iter().enumerate() {
        let at = format!("meshes[{m}].primitives[{p}]");
        let triangles = triangle_count(root, primitive, &at)?;
        let bounds = match primitive
            .attributes
            .get(&Checked::Valid(Semantic::Positions))
        {
            Some(a) => position_bounds(root, buffers, a.value(), &at)?,
            // A primitive without positions has nothing to draw (the spec says to
            // skip it): an empty box.
            None => Aabb::EMPTY,
        };
        let geometry = Geometry::try_new(bounds, triangles)
            .map_err(|e| GltfError::invalid(format!("{at}.attributes.POSITION"), e.to_string()))?;
        out.push(geometry);
    }
    Ok(out)
}

/// The accessor at index `a`, found at JSON path `at`.
fn accessor<'r>(root: &'r json::Root, a: usize, at: &str) -> Result<&'r json::Accessor, GltfError> {
    root.accessors
        .get(a)
        .ok_or_else(|| GltfError::out_of_range(at.to_owned(), "accessor", a, root.accessors.len()))
}

/// Triangles drawn by a primitive: none for points and lines.
fn triangle_count(
    root: &json::Root,
    primitive: &json::mesh::Primitive,
    at: &str,
) -> Result<u32, GltfError> {
    let Checked::Valid(mode) = primitive.mode else {
        return Err(GltfError::invalid(
            format!("{at}.mode"),
            "not a primitive mode",
        ));
    };
    let vertices = match (
        primitive.indices,
        primitive
            .attributes
            .get(&Checked::Valid(Semantic::Positions)),
    ) {
        (Some(i), _) => accessor(root, i.value(), &format!("{at}.indices"))?.count.0,
        (None, Some(p)) => {
            accessor(root, p.value(), &format!("{at}.attributes.POSITION"))?
                .count
                .0
        }
        (None, None) => 0,
    };
    let triangles = match mode {
        Mode::Triangles => vertices / 3,
        Mode::TriangleStrip | Mode::TriangleFan => vertices.saturating_sub(2),
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => 0,
    };
    Ok(u32::try_from(triangles).unwrap_or(u32::MAX))
}

/// The POSITION box: the accessor's `min`/`max` when given (the spec requires them),
/// else computed from the data.
fn position_bounds(
    root: &json::Root,
    buffers: &[Vec<u8>],
    a: usize,
    at: &str,
) -> Result<Aabb, GltfError> {
    let at = format!("{at}.attributes.POSITION");
    let acc = accessor(root, a, &at)?;
    if let Some(declared) = declared_bounds(acc, a)? {
        return Ok(declared);
    }
    match read_vec3(root, buffers, acc, a)? {
        Some(points) => Ok(Aabb::from_points(points)),
        None => Err(GltfError::invalid(
            format!("accessors[{a}]"),
            "POSITION has no min/max and its data cannot be read \
             (only float VEC3 in a buffer view, without sparse values, is read)",
        )),
    }
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
    if !min.cmple(max).all() {
        return Err(GltfError::invalid(
            format!("accessors[{a}]"),
            format!("min {min} lies above max {max}"),
        ));
    }
    Ok(Some(Aabb { min, max }))
}

/// The values of a float VEC3 accessor (`None` for a layout this reader does not
/// handle: other component types, sparse values, no buffer view).
pub(crate) fn read_vec3(
    root: &json::Root,
    buffers: &[Vec<u8>],
    acc: &json::Accessor,
    a: usize,
) -> Result<Option<Vec<Vec3>>, GltfError> {
    let float_vec3 = matches!(
        acc.component_type,
        Checked::Valid(GenericComponentType(ComponentType::F32))
    ) && matches!(acc.type_, Checked::Valid(Type::Vec3));
    let (true, None, Some(v)) = (float_vec3, &acc.sparse, acc.buffer_view) else {
        return Ok(None);
    };
    let v = v.value();
    let bytes = view_bytes(root, buffers, v)?;
    const SIZE: u64 = 12;
    let stride = root
        .buffer_views
        .get(v)
        .and_then(|view| view.byte_stride)
        .map_or(SIZE, |s| s.0 as u64);
    if stride < SIZE {
        return Err(GltfError::invalid(
            format!("bufferViews[{v}].byteStride"),
            format!("stride {stride} is shorter than accessor {a}'s 12-byte elements"),
        ));
    }
    let offset = acc.byte_offset.map_or(0, |o| o.0);
    let count = acc.count.0;
    let end = match count {
        0 => offset,
        n => (n - 1)
            .checked_mul(stride)
            .and_then(|x| x.checked_add(offset))
            .and_then(|x| x.checked_add(SIZE))
            .unwrap_or(u64::MAX),
    };
    if end > bytes.len() as u64 {
        return Err(GltfError::OutOfBounds {
            at: format!("accessors[{a}]"),
            container: format!("bufferViews[{v}]"),
            end,
            length: bytes.len() as u64,
        });
    }
    // In range: every start below fits in usize because `end` does.
    let mut points = Vec::with_capacity(count as usize);
    for i in 0..count {
        let start = (offset + i * stride) as usize;
        let Some(element) = bytes.get(start..start + SIZE as usize) else {
            break;
        };
        let f = |k: usize| {
            element
                .get(k..k + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(f32::NAN, f32::from_le_bytes)
        };
        let p = Vec3::new(f(0), f(4), f(8));
        if !p.is_finite() {
            return Err(GltfError::invalid(
                format!("accessors[{a}]"),
                format!("element {i} is not finite: {p}"),
            ));
        }
        points.push(p);
    }
    Ok(Some(points))
}
