//! Reading accessor data, every byte range checked against its buffer view.

use super::buffers::view_bytes;
use super::error::{GltfError, get};
use gltf::json;
use gltf::json::accessor::{ComponentType, GenericComponentType, Type};
use gltf::json::validation::Checked;
use scenewalk_core::glam::Vec3;

/// Component types [`read_numbers`] accepts for floats only.
pub(crate) const FLOAT: &[(ComponentType, bool)] = &[(ComponentType::F32, false)];

/// Zeros for the elements of an accessor without a buffer view (glTF: its sparse values
/// replace some of them); as long as the longest element, a float MAT4.
static ZEROS: [u8; 64] = [0; 64];

/// The elements of accessor `acc` (index `a`), `size` bytes each, range checked: its
/// buffer view's (zeros without one), then its sparse values put in at their indices.
/// `None` for an accessor with neither a buffer view nor sparse values (data another
/// extension holds, such as Draco's).
fn elements<'b>(
    root: &json::Root,
    buffers: &'b [Vec<u8>],
    acc: &json::Accessor,
    a: usize,
    size: u64,
) -> Result<Option<Vec<&'b [u8]>>, GltfError> {
    let count = acc.count.0;
    let mut out = match acc.buffer_view {
        Some(v) => {
            let offset = acc.byte_offset.map_or(0, |o| o.0);
            dense(root, buffers, v.value(), offset, count, size, a, true)?
        }
        None if acc.sparse.is_some() => {
            // Nothing bounds `count` but the file: elements past all its buffers' bytes
            // together cannot be meant (a sparse accessor repeats another's count).
            let total: u64 = buffers.iter().map(|b| b.len() as u64).sum();
            let zero = ZEROS.get(..size as usize);
            match (zero, count.checked_mul(size)) {
                (Some(zero), Some(bytes)) if bytes <= total.max(1 << 20) => {
                    vec![zero; count as usize]
                }
                _ => {
                    let reason = format!(
                        "{count} elements of {size} bytes without a buffer view: more than \
                         the file's {total} bytes of buffers"
                    );
                    return Err(GltfError::invalid(format!("accessors[{a}]"), reason));
                }
            }
        }
        None => return Ok(None),
    };
    if let Some(sparse) = &acc.sparse {
        substitute(root, buffers, sparse, a, size, &mut out)?;
    }
    Ok(Some(out))
}

/// `count` elements of `size` bytes from buffer view `v`, the first at `offset`, one
/// stride apart (`strided`: the view's `byteStride`, else packed), range checked.
#[allow(clippy::too_many_arguments, reason = "one call per kind of data")]
fn dense<'b>(
    root: &json::Root,
    buffers: &'b [Vec<u8>],
    v: usize,
    offset: u64,
    count: u64,
    size: u64,
    a: usize,
    strided: bool,
) -> Result<Vec<&'b [u8]>, GltfError> {
    let (view, bytes) = view_bytes(root, buffers, v)?;
    let stride = match view.byte_stride {
        Some(s) if strided => s.0 as u64,
        _ => size,
    };
    if stride < size {
        return Err(GltfError::invalid(
            format!("bufferViews[{v}].byteStride"),
            format!("stride {stride} is shorter than accessor {a}'s {size}-byte elements"),
        ));
    }
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
    Ok(out.collect())
}

/// Puts accessor `a`'s sparse values into `elements` at their indices, which must
/// increase strictly and stay below the accessor's count (glTF 2.0, 3.6.2.3).
fn substitute<'b>(
    root: &json::Root,
    buffers: &'b [Vec<u8>],
    sparse: &json::accessor::sparse::Sparse,
    a: usize,
    size: u64,
    elements: &mut [&'b [u8]],
) -> Result<(), GltfError> {
    let at = |field: &str| format!("accessors[{a}].sparse.{field}");
    let count = sparse.count.0;
    let c = match sparse.indices.component_type {
        Checked::Valid(json::accessor::IndexComponentType(c)) => c,
        Checked::Invalid => {
            let reason = "not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT";
            return Err(GltfError::invalid(at("indices.componentType"), reason));
        }
    };
    // Both are packed runs of `count` elements in their views.
    let packed = |view: json::Index<json::buffer::View>, offset: u64, size| {
        dense(root, buffers, view.value(), offset, count, size, a, false)
    };
    let (indices, values) = (&sparse.indices, &sparse.values);
    let indices = packed(indices.buffer_view, indices.byte_offset.0, c.size() as u64)?;
    let values = packed(values.buffer_view, values.byte_offset.0, size)?;
    let mut last = None;
    for (k, (index, stored)) in indices.iter().zip(values).enumerate() {
        let bad = |reason| GltfError::invalid(format!("{}[{k}]", at("indices")), reason);
        // Unsigned integers are exact in f64.
        let i = value(c, index) as u64;
        if last.is_some_and(|l| i <= l) {
            return Err(bad(format!(
                "index {i} does not come after the one before it"
            )));
        }
        last = Some(i);
        let slot = usize::try_from(i).ok().and_then(|i| elements.get_mut(i));
        let Some(slot) = slot else {
            let count = elements.len();
            return Err(bad(format!(
                "index {i} is past the accessor's {count} elements"
            )));
        };
        *slot = stored;
    }
    Ok(())
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

/// The values of float VEC3 accessor `acc` (index `a`), sparse values put in; `None`
/// for another layout or no data ([`elements`]). Errors: a range past the view, a non-finite value.
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
/// one of the `allowed` (component type, normalized) pairs, in range (sparse values put in).
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
        bad("an accessor without a buffer view or sparse values has no data to read".into())
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
