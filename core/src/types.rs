//! The node type registry: a dense index per node type and its parent type.

use crate::error::TypeError;
use crate::{MAX_BASE_CHAIN, NodeCore};
use indexmap::IndexMap;
use std::any::TypeId;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// The Rust type name.
    pub name: &'static str,
    /// Its `TypeId`.
    pub type_id: TypeId,
    /// The type it extends, for dispatch fallback.
    pub parent: Option<NodeType>,
}

/// Identifies one registry's contents, so a dispatch table knows when to re-resolve.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RegistryStamp {
    uid: u64,
    len: usize,
}

static NEXT_UID: AtomicU64 = AtomicU64::new(1);

/// A number drawn once in this process: registry uids and graphs' column keys.
pub(crate) fn fresh_uid() -> u64 {
    NEXT_UID.fetch_add(1, Ordering::Relaxed)
}

/// The node types a [`Graph`](crate::Graph) knows, each with a dense [`NodeType`] index
/// (Coin3D's `SoType`).
///
/// Registration is cheap and happens implicitly when a payload of a new type is first
/// added. A type may name a parent type; it must be registered before its first node
/// is added, and the parent is registered first, so parents always have smaller indices
/// and the chain cannot loop.
#[derive(Debug)]
pub struct TypeRegistry {
    uid: u64,
    types: IndexMap<TypeId, TypeInfo>,
    /// How many declared parent types are being registered (guards a looping chain).
    declaring: usize,
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
            declaring: 0,
        }
    }
}

impl TypeRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self {
            uid: fresh_uid(),
            types: IndexMap::new(),
            declaring: 0,
        }
    }

    /// Registers `T` (or returns its index if already known). A type registered here
    /// for the first time gets the parent type it declares through
    /// [`NodeCore::parent_type`] (none by default), registered first.
    pub fn register<T: NodeCore>(&mut self) -> NodeType {
        if let Some(index) = self.types.get_index_of(&TypeId::of::<T>()) {
            return NodeType(index as u32);
        }
        // A chain of declared parents that loops back would recurse forever; real
        // chains are short, so cut them at the same length `view` follows.
        let parent = if self.declaring < MAX_BASE_CHAIN {
            self.declaring += 1;
            let parent = T::parent_type(self);
            self.declaring -= 1;
            parent
        } else {
            None
        };
        // The loop case: `T` was registered while its parents were.
        if let Some(index) = self.types.get_index_of(&TypeId::of::<T>()) {
            return NodeType(index as u32);
        }
        let (index, _) = self.types.insert_full(
            TypeId::of::<T>(),
            TypeInfo {
                name: std::any::type_name::<T>(),
                type_id: TypeId::of::<T>(),
                parent,
            },
        );
        NodeType(index as u32)
    }

    /// Registers `T` as extending `P`: dispatch falls back from `T` to `P`.
    ///
    /// Calling it again with the same parent is a no-op. It is an error to give a type
    /// that is already registered a different parent (including a type registered
    /// without one), since tables already resolved for it would silently change.
    pub fn register_with_parent<T: NodeCore, P: NodeCore>(
        &mut self,
    ) -> Result<NodeType, TypeError> {
        if TypeId::of::<T>() == TypeId::of::<P>() {
            return Err(TypeError::OwnParent(std::any::type_name::<T>()));
        }
        // Check `T` before registering `P`, so a refused call changes nothing.
        if let Some((index, _, info)) = self.types.get_full(&TypeId::of::<T>()) {
            let parent = self.index_of::<P>();
            return if parent.is_some() && info.parent == parent {
                Ok(NodeType(index as u32))
            } else {
                Err(TypeError::ParentConflict {
                    ty: info.name,
                    existing: info.parent.map_or("none", |p| self.name(p)),
                    requested: std::any::type_name::<P>(),
                })
            };
        }
        let parent = self.register::<P>();
        let (index, _) = self.types.insert_full(
            TypeId::of::<T>(),
            TypeInfo {
                name: std::any::type_name::<T>(),
                type_id: TypeId::of::<T>(),
                parent: Some(parent),
            },
        );
        Ok(NodeType(index as u32))
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
        self.types
            .get_index(ty.get())
            .map_or("<unknown type>", |(_, info)| info.name)
    }

    /// The type itself, then its parent, grandparent and so on.
    pub fn chain(&self, ty: NodeType) -> impl std::iter::Iterator<Item = NodeType> + '_ {
        std::iter::successors(Some(ty), |t| {
            self.types
                .get_index(t.get())
                .and_then(|(_, info)| info.parent)
        })
    }

    /// Whether `ty` is `ancestor` or extends it (directly or through its parents).
    pub fn is_a(&self, ty: NodeType, ancestor: NodeType) -> bool {
        self.chain(ty).any(|t| t == ancestor)
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

    /// Fills `table` with one entry per registered type, in index order: what `own`
    /// gives for the type's `TypeId`, else for its parent's, up the chain, else
    /// `default`. The fallback rule of every per-type dispatch table
    /// ([`MethodTable`](crate::MethodTable), [`Arms`](crate::Arms)), in one place.
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

    /// A stamp that changes whenever this registry's contents change; dispatch tables
    /// compare it once per run to decide whether to re-resolve.
    pub fn stamp(&self) -> RegistryStamp {
        RegistryStamp {
            uid: self.uid,
            len: self.types.len(),
        }
    }
}

/// The node types that are a `T` (`T` itself and every type extending it), as a flat
/// table resolved once per registry change, so membership costs one index.
///
/// ```
/// use scenewalk_core::{Graph, TypeSet};
/// # #[derive(Clone, Debug)] struct Light;
/// # impl scenewalk_core::NodeCore for Light {}
/// # #[derive(Clone, Debug)] struct Spot(Light);
/// # impl scenewalk_core::NodeCore for Spot { fn base(&self) -> Option<&dyn scenewalk_core::NodeCore> { Some(&self.0) } }
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let spot = graph.register_type_with_parent::<Spot, Light>()?;
/// let group = graph.register_type::<Group>();
/// let mut lights = TypeSet::of::<Light>();
/// lights.resolve(graph.types());
/// assert!(lights.contains(spot) && !lights.contains(group));
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
#[derive(Clone, Debug)]
pub struct TypeSet {
    target: TypeId,
    members: Vec<bool>,
    stamp: Option<RegistryStamp>,
}

impl TypeSet {
    /// The set of types that are a `T`; empty until [`resolve`](TypeSet::resolve)d.
    pub fn of<T: 'static>() -> Self {
        Self::of_id(TypeId::of::<T>())
    }

    /// The set of types that are the type with this `TypeId`.
    pub fn of_id(target: TypeId) -> Self {
        Self {
            target,
            members: Vec::new(),
            stamp: None,
        }
    }

    /// The `TypeId` of the type whose set this is.
    pub fn target(&self) -> TypeId {
        self.target
    }

    /// Resolves the set against a registry, unless already resolved for it.
    pub fn resolve(&mut self, types: &TypeRegistry) {
        if self.stamp == Some(types.stamp()) {
            return;
        }
        self.members.clear();
        match types.index_of_id(self.target) {
            Some(target) => self
                .members
                .extend(types.iter().map(|(ty, _)| types.is_a(ty, target))),
            None => self.members.resize(types.len(), false),
        }
        self.stamp = Some(types.stamp());
    }

    /// Whether `ty` is in the set.
    #[inline]
    pub fn contains(&self, ty: NodeType) -> bool {
        self.members.get(ty.get()).copied().unwrap_or(false)
    }
}
