//! The node type registry: a dense index per node type and its parent type.

use crate::error::TypeError;
use crate::graph::{MAX_BASE_CHAIN, NodeCore};
use indexmap::IndexMap;
use std::any::{Any, TypeId};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// The dense index of a registered node type: the key of every per-type dispatch table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeType(pub(crate) u32);

impl NodeType {
    /// The index, for indexing per-type arrays sized by [`TypeRegistry::len`].
    #[inline]
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

/// What the registry knows of one node type.
#[derive(Clone, Debug)]
pub struct TypeInfo {
    /// The type's name, as [`short_type_name`] gives it.
    pub name: &'static str,
    /// Its `TypeId`.
    pub type_id: TypeId,
    /// The type it declares it extends ([`NodeCore::parent_type`]).
    pub parent: Option<NodeType>,
}

/// Identifies one registry's contents, so a dispatch table knows when to re-resolve.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct RegistryStamp {
    uid: u64,
    len: usize,
}

static NEXT_UID: AtomicU64 = AtomicU64::new(1);

/// The name of `T` as every message and registry of scenewalk shows it: the type name
/// without module paths, in its generic arguments too (so two types of the same name
/// look alike). A name with generic arguments is built once and kept for the process.
///
/// ```
/// assert_eq!(scenewalk_core::short_type_name::<Vec<std::sync::Arc<str>>>(), "Vec<Arc<str>>");
/// assert_eq!(scenewalk_core::short_type_name::<std::string::String>(), "String");
/// ```
pub fn short_type_name<T: ?Sized>() -> &'static str {
    shorten(std::any::type_name::<T>())
}

/// [`short_type_name`] of a full type name.
pub(crate) fn shorten(full: &'static str) -> &'static str {
    static SHORT: Mutex<BTreeMap<&'static str, &'static str>> = Mutex::new(BTreeMap::new());
    let is_path = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    // A plain ASCII path (the common case, met at every run's check) is cut at its last
    // `:` in one pass over the bytes; anything else takes the kept table.
    if full
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':')
    {
        return full
            .rfind(':')
            .and_then(|i| full.get(i + 1..))
            .unwrap_or(full);
    }
    let mut names = SHORT.lock().unwrap_or_else(PoisonError::into_inner);
    names.entry(full).or_insert_with(|| {
        let mut short = String::with_capacity(full.len());
        // Where the path being written began: a `::` drops what came since.
        let mut path_start = 0;
        for (i, part) in full.split("::").enumerate() {
            if i > 0 {
                short.truncate(path_start);
            }
            let base = short.len();
            short.push_str(part);
            path_start = part
                .char_indices()
                .rfind(|&(_, c)| !is_path(c))
                .map_or(base, |(end, c)| base + end + c.len_utf8());
        }
        Box::leak(short.into_boxed_str())
    })
}

/// A number drawn once in this process: registry uids and graphs' column keys.
pub(crate) fn fresh_uid() -> u64 {
    NEXT_UID.fetch_add(1, Ordering::Relaxed)
}

/// The node types a [`Graph`](crate::Graph) knows, each with a dense [`NodeType`] index
/// (Coin3D's `SoType`), registered when a payload of the type is first added; a
/// declared parent type ([`NodeCore::parent_type`]) first, so it has a smaller index.
#[derive(Debug)]
pub struct TypeRegistry {
    uid: u64,
    types: IndexMap<TypeId, TypeInfo>,
}

impl Default for TypeRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for TypeRegistry {
    /// A clone may register other types than the original, so it gets its own identity.
    fn clone(&self) -> Self {
        Self {
            uid: fresh_uid(),
            types: self.types.clone(),
        }
    }
}

/// The parent type a node type declares: what [`NodeCore::parent_type`] returns.
#[derive(Clone, Copy, Debug)]
pub struct ParentType {
    register: fn(&mut TypeRegistry, usize) -> Result<NodeType, TypeError>,
}

impl ParentType {
    /// The declaration "extends `P`".
    pub fn of<P: NodeCore>() -> Self {
        Self {
            register: TypeRegistry::register_below::<P>,
        }
    }
}

impl TypeRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self {
            uid: fresh_uid(),
            types: IndexMap::new(),
        }
    }

    /// Registers `T` (or returns its index), after its declared parent types. Errors:
    /// [`TypeError::ParentChain`] when they loop back or the chain holds more than
    /// [`MAX_BASE_CHAIN`] types; nothing of it is registered.
    pub fn register<T: NodeCore>(&mut self) -> Result<NodeType, TypeError> {
        self.register_below::<T>(0)
    }

    /// [`register`](Self::register) for a type `depth` steps up a declared chain.
    fn register_below<T: NodeCore>(&mut self, depth: usize) -> Result<NodeType, TypeError> {
        if let Some(index) = self.index_of::<T>() {
            return Ok(index);
        }
        // A chain that loops comes back to a type not yet registered, forever.
        let too_long = TypeError::ParentChain(short_type_name::<T>());
        if depth >= MAX_BASE_CHAIN {
            return Err(too_long);
        }
        let parent = match T::parent_type() {
            Some(declared) => Some((declared.register)(self, depth + 1)?),
            None => None,
        };
        if parent.is_some_and(|p| self.chain(p).count() >= MAX_BASE_CHAIN) {
            return Err(too_long);
        }
        // The parent's chain does not reach `T` (it would have been refused).
        let (index, _) = self.types.insert_full(
            TypeId::of::<T>(),
            TypeInfo {
                name: short_type_name::<T>(),
                type_id: TypeId::of::<T>(),
                parent,
            },
        );
        Ok(NodeType(index as u32))
    }

    /// Checks that `value`'s [`base`](NodeCore::base) chain gives exactly the declared
    /// parents of its type `ty`.
    pub(crate) fn check_base(&self, ty: NodeType, value: &dyn NodeCore) -> Result<(), TypeError> {
        let mut value = value;
        for t in self.chain(ty) {
            let parent = self.info(t).and_then(|info| info.parent);
            match (value.base(), parent.and_then(|p| self.info(p))) {
                (None, None) => return Ok(()),
                (Some(base), Some(info)) if (base as &dyn Any).type_id() == info.type_id => {
                    value = base;
                }
                _ => {
                    return Err(TypeError::BaseMismatch {
                        ty: self.name(t),
                        declared: parent.map_or("none", |p| self.name(p)),
                    });
                }
            }
        }
        Ok(())
    }

    /// The index of `T`, if registered.
    pub fn index_of<T: 'static>(&self) -> Option<NodeType> {
        self.index_of_id(TypeId::of::<T>())
    }

    /// The index of the type with this `TypeId`, if registered.
    pub fn index_of_id(&self, id: TypeId) -> Option<NodeType> {
        self.types.get_index_of(&id).map(|i| NodeType(i as u32))
    }

    /// The record of a registered type (`None` for an index this registry never gave).
    pub fn info(&self, ty: NodeType) -> Option<&TypeInfo> {
        self.types.get_index(ty.get()).map(|(_, info)| info)
    }

    /// The type's name.
    pub fn name(&self, ty: NodeType) -> &'static str {
        self.info(ty).map_or("<unknown type>", |info| info.name)
    }

    /// The type itself, then its parent, grandparent and so on: `ty` is-a `t` when `t`
    /// is in its chain.
    pub fn chain(&self, ty: NodeType) -> impl std::iter::Iterator<Item = NodeType> + '_ {
        std::iter::successors(Some(ty), |&t| self.info(t)?.parent)
    }

    /// How many types are registered.
    pub fn len(&self) -> usize {
        self.types.len()
    }

    /// Whether no type is registered yet.
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// All registered types, in index order.
    pub fn iter(&self) -> impl std::iter::Iterator<Item = (NodeType, &TypeInfo)> + '_ {
        self.types
            .values()
            .enumerate()
            .map(|(i, info)| (NodeType(i as u32), info))
    }

    /// Fills `table` per registered type with what `own` gives for its `TypeId`, else
    /// its parent's, up the chain, else `default`: every dispatch table's fallback.
    pub(crate) fn resolve_by_chain<V: Copy>(
        &self,
        own: impl Fn(TypeId) -> Option<V>,
        default: V,
        table: &mut Vec<V>,
    ) {
        let own: Vec<Option<V>> = self.types.keys().map(|&id| own(id)).collect();
        table.clear();
        table.extend(self.iter().map(|(ty, _)| {
            self.chain(ty)
                .find_map(|t| own.get(t.get()).copied().flatten())
                .unwrap_or(default)
        }));
    }

    /// A number no other registry in this process has (a clone gets a new one).
    pub fn uid(&self) -> u64 {
        self.uid
    }

    /// A stamp that changes whenever this registry's contents change.
    pub(crate) fn stamp(&self) -> RegistryStamp {
        RegistryStamp {
            uid: self.uid,
            len: self.types.len(),
        }
    }
}

/// The node types that are a `T` (itself and every type extending it), resolved once
/// per registry change, for [`Typed`](crate::Typed) and single-type actors.
#[derive(Clone, Debug)]
pub(crate) struct TypeSet {
    pub(crate) target: TypeId,
    members: Vec<bool>,
    stamp: Option<RegistryStamp>,
}

impl TypeSet {
    /// The set of types that are the type `target`; empty until resolved.
    pub(crate) fn of_id(target: TypeId) -> Self {
        Self {
            target,
            members: Vec::new(),
            stamp: None,
        }
    }

    /// Resolves the set against a registry, unless already resolved for it.
    pub(crate) fn resolve(&mut self, types: &TypeRegistry) {
        if self.stamp == Some(types.stamp()) {
            return;
        }
        let is_target = |id| (id == self.target).then_some(true);
        types.resolve_by_chain(is_target, false, &mut self.members);
        self.stamp = Some(types.stamp());
    }

    #[inline]
    pub(crate) fn contains(&self, ty: NodeType) -> bool {
        self.members.get(ty.get()).copied().unwrap_or(false)
    }
}
