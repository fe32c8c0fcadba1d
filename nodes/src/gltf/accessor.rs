//! Reading accessor data, every byte range checked against its buffer view.

use super::buffers::view_bytes;
use super::error::{GltfError, get};
use gltf::json;
use gltf::json::accessor::{ComponentType, GenericComponentType, Type};
use gltf::json::validation::Checked;
use scenewalk_core::glam::Vec3;

/// Component types [`read_numbers`] accepts for floats only.
pub(crate) const FLOAT: &[(ComponentType, bool)] = &[(ComponentType::F32, false)];

/// The elements of a dense accessor, `size` bytes each, range checked; `None` for
/// sparse values or no buffer view.
fn elements<'b>(
    root: &json::Root,
    buffers: &'b [Vec<u8>],
    acc: &json::Accessor,
    a: usize,
    size: u64,
) -> Result<Option<Vec<&'b [u8]>>, GltfError> {
    let (None, Some(v)) = (&acc.sparse, acc.buffer_view) else {
        return Ok(None);
    };
    let v = v.value();
    let (view, bytes) = view_bytes(root, buffers, v)?;
    let stride = view.byte_stride.map_or(size, |s| s.0 as u64);
    if stride < size {
        return Err(GltfError::invalid(
            format!("bufferViews[{v}].byteStride"),
            format!("stride {stride} is shorter than accessor {a}'s {size}-byte elements"),
        ));
    }
    let offset = acc.byte_offset.map_or(0, |o| o.0);
    let count = acc.count.0;
    let end = match count {
        0 => offset,
        n => (n - 1)
            .checked_mul(stride)
            .and_then(|x| x.checked_add(offset))
            .and_then(|x| x.checked_add(size))
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
    // Every element ends by `end`, inside the slice: the `get`s cannot fail, and
    // `count` elements fit in memory since the view does.
    let start = |i: u64| usize::try_from(offset + i * stride).ok();
    let out = (0..count).filter_map(|i| bytes.get(start(i)?..)?.get(..size as usize));
    Ok(Some(out.collect()))
}

/// The numbers of [`elements`], `ty`'s component count each: normalized integers
/// de-quantized as glTF says (`max(c / unit(c), -1.0)`), floats not checked.
fn numbers(
    root: &json::Root,
    buffers: &[Vec<u8>],
    acc: &json::Accessor,
    a: usize,
    c: ComponentType,
    ty: Type,
) -> Result<Option<Vec<f32>>, GltfError> {
    let (size, n) = (c.size(), ty.multiplicity());
    let Some(elements) = elements(root, buffers, acc, a, (size * n) as u64)? else {
        return Ok(None);
    };
    let scale = if acc.normalized { unit(c) } else { 1.0 };
    let value = |b: &[u8]| match value(c, b) as f32 {
        v if scale > 1.0 => (v / scale).max(-1.0),
        v => v,
    };
    let numbers = elements
        .iter()
        .flat_map(|e| e.chunks_exact(size).take(n).map(value));
    Ok(Some(numbers.collect()))
}

/// One stored component of type `c`, exact in f64 (NaN for a wrong byte count).
fn value(c: ComponentType, b: &[u8]) -> f64 {
    match (c, b) {
        (ComponentType::F32, &[b0, b1, b2, b3]) => f32::from_le_bytes([b0, b1, b2, b3]).into(),
        (ComponentType::I8, &[b0]) => i8::from_le_bytes([b0]).into(),
        (ComponentType::U8, &[b0]) => b0.into(),
        (ComponentType::I16, &[b0, b1]) => i16::from_le_bytes([b0, b1]).into(),
        (ComponentType::U16, &[b0, b1]) => u16::from_le_bytes([b0, b1]).into(),
        (ComponentType::U32, &[b0, b1, b2, b3]) => u32::from_le_bytes([b0, b1, b2, b3]).into(),
        _ => f64::NAN,
    }
}

/// The component type of accessor `acc` (`None` if it is not a valid one).
pub(crate) fn component(acc: &json::Accessor) -> Option<ComponentType> {
    match acc.component_type {
        Checked::Valid(GenericComponentType(c)) => Some(c),
        Checked::Invalid => None,
    }
}

/// The stored value that a normalized integer of type `c` maps to 1 (1 for floats).
pub(crate) fn unit(c: ComponentType) -> f32 {
    match c {
        ComponentType::I8 => 127.0,
        ComponentType::U8 => 255.0,
        ComponentType::I16 => 32767.0,
        ComponentType::U16 => 65535.0,
        ComponentType::U32 => u32::MAX as f32,
        ComponentType::F32 => 1.0,
    }
}

/// The values of float VEC3 accessor `acc` (index `a`); `None` for another layout,
/// sparse values or no buffer view. Errors: a range past the view, a non-finite value.
pub(crate) fn read_vec3(
    root: &json::Root,
    buffers: &[Vec<u8>],
    acc: &json::Accessor,
    a: usize,
) -> Result<Option<Vec<Vec3>>, GltfError> {
    if component(acc) != Some(ComponentType::F32) || acc.type_ != Checked::Valid(Type::Vec3) {
        return Ok(None);
    }
    let Some(numbers) = numbers(root, buffers, acc, a, ComponentType::F32, Type::Vec3)? else {
        return Ok(None);
    };
    let points: Vec<Vec3> = numbers.chunks_exact(3).map(Vec3::from_slice).collect();
    if let Some((i, p)) = points.iter().enumerate().find(|(_, p)| !p.is_finite()) {
        let reason = format!("element {i} is not finite: {p}");
        return Err(GltfError::invalid(format!("accessors[{a}]"), reason));
    }
    Ok(Some(points))
}

/// The [`numbers`] of accessor `a` (named at JSON path `at`), which must be a `ty` of
/// one of the `allowed` (component type, normalized) pairs, dense and in range.
pub(crate) fn read_numbers(
    root: &json::Root,
    buffers: &[Vec<u8>],
    a: usize,
    at: &str,
    ty: Type,
    allowed: &[(ComponentType, bool)],
) -> Result<Vec<f32>, GltfError> {
    let acc = get(&root.accessors, a, "accessor", || at.to_owned())?;
    let bad = |reason: String| GltfError::invalid(format!("accessors[{a}]"), reason);
    let c = component(acc).filter(|&c| allowed.contains(&(c, acc.normalized)));
    let (Some(c), Checked::Valid(found)) = (c, acc.type_) else {
        return Err(bad(format!(
            "{at} needs a {ty:?} accessor of {allowed:?} (component, normalized)"
        )));
    };
    if found != ty {
        return Err(bad(format!("{at} needs a {ty:?} accessor, not {found:?}")));
    }
    numbers(root, buffers, acc, a, c, ty)?.ok_or_else(|| {
        bad("sparse accessors and accessors without a buffer view are not read".into())
    })
}

/// The values of unsigned SCALAR index accessor `acc` (index `a`), as [`elements`].
pub(crate) fn read_indices(
    root: &json::Root,
    buffers: &[Vec<u8>],
    acc: &json::Accessor,
    a: usize,
) -> Result<Option<Vec<u32>>, GltfError> {
    let unsigned = [ComponentType::U8, ComponentType::U16, ComponentType::U32];
    let c = component(acc).filter(|c| unsigned.contains(c));
    let (Some(c), Checked::Valid(Type::Scalar)) = (c, acc.type_) else {
        let reason = "indices must be SCALAR of unsigned byte, short or int";
        return Err(GltfError::invalid(format!("accessors[{a}]"), reason));
    };
    let elements = elements(root, buffers, acc, a, c.size() as u64)?;
    // Unsigned integers are exact in f64.
    Ok(elements.map(|e| e.iter().map(|b| value(c, b) as u32).collect()))
}
