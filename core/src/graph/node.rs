//! The node trait: a node's type-specific data (OpenSG's NodeCore).

use crate::graph::{ParentType, Remap};
use downcast_rs::{Downcast, impl_downcast};
use dyn_clone::{DynClone, clone_trait_object};
use std::fmt::Debug;

/// The type-specific data of a node (OpenSG's `NodeCore`): any `Clone + Debug + Send +
/// Sync + 'static` type of any crate becomes a node type by implementing it.
///
/// **Extending a type** (Coin3D's parent type) is said twice, and the two must agree:
/// [`parent_type`](NodeCore::parent_type) declares the parent type, and
/// [`base`](NodeCore::base) returns the embedded value of it. The declaration is the one
/// source of "is-a" ([`TypeRegistry::chain`](crate::TypeRegistry::chain),
/// [`Typed`](crate::Typed), [`Arms`](crate::Arms), [`MethodTable`](crate::MethodTable),
/// single-type actors, [`Graph::get`](crate::Graph::get)); adding a node whose `base`
/// chain does not give exactly the declared parent types is refused with
/// [`TypeError::BaseMismatch`](crate::TypeError::BaseMismatch).
///
/// ```
/// use scenewalk_core::{Graph, NodeCore, ParentType};
///
/// #[derive(Clone, Debug)]
/// struct Light { intensity: f32 }
/// impl NodeCore for Light {}
///
/// #[derive(Clone, Debug)]
/// struct Spotlight { light: Light, cone: f32 }
/// impl NodeCore for Spotlight {
///     fn base(&self) -> Option<&dyn NodeCore> { Some(&self.light) }
///     fn parent_type() -> Option<ParentType> { Some(ParentType::of::<Light>()) }
/// }
///
/// let mut graph = Graph::new();
/// let spot = graph.add_root(Spotlight { light: Light { intensity: 2.0 }, cone: 0.5 });
/// assert_eq!(graph.get::<Light>(spot)?.intensity, 2.0);
/// let light = graph.types().index_of::<Light>().unwrap();
/// assert!(graph.types().chain(graph.node_type(spot)?).any(|t| t == light));
/// # Ok::<(), scenewalk_core::GraphError>(())
/// ```
pub trait NodeCore: Downcast + DynClone + Debug + Send + Sync {
    /// The embedded value of the declared [`parent_type`](NodeCore::parent_type):
    /// `None` exactly when the type declares none.
    fn base(&self) -> Option<&dyn NodeCore> {
        None
    }

    /// The parent type this type extends, `Some(ParentType::of::<P>())` (a graph
    /// registers `P` first); by default none.
    fn parent_type() -> Option<ParentType>
    where
        Self: Sized,
    {
        None
    }

    /// Brings the node ids this payload holds (a skin's joints) up to date after
    /// [`Graph::compact`](crate::Graph::compact) renumbered the nodes: map each through
    /// [`Remap::get`], keeping an id it does not know (already stale). By default a
    /// payload holds none.
    fn remap_ids(&mut self, _remap: &Remap) {}
}

/// How many types a chain of declared parent types may hold (the type itself
/// included), and how many values `<dyn NodeCore>::view` looks at along a `base` chain.
pub const MAX_BASE_CHAIN: usize = 64;

impl_downcast!(NodeCore);
clone_trait_object!(NodeCore);

impl dyn NodeCore {
    /// Views this node as a `T`: itself if it is a `T`, else the first `T` along its
    /// [`base`](NodeCore::base) chain.
    pub fn view<T: NodeCore>(&self) -> Option<&T> {
        let mut current: &dyn NodeCore = self;
        // Bounded: a `base` that returns `self` would loop forever.
        for _ in 0..MAX_BASE_CHAIN {
            if let Some(found) = current.downcast_ref::<T>() {
                return Some(found);
            }
            current = current.base()?;
        }
        None
    }
}
