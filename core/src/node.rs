//! The node trait: a node's type-specific data (OpenSG's NodeCore).

use crate::{NodeType, TypeRegistry};
use downcast_rs::{Downcast, impl_downcast};
use dyn_clone::{DynClone, clone_trait_object};
use std::fmt::Debug;

/// The type-specific data of a node: OpenSG's `NodeCore`, held apart from the links.
///
/// Any `Clone + Debug + Send + Sync + 'static` type becomes a node type by implementing
/// this trait, in any crate; core needs no change. The graph stores each type's payloads
/// in their own contiguous column, so the link records stay small.
///
/// A type that *extends* another node type (Coin3D's parent type) returns a view of it
/// from [`base`](NodeCore::base) and is registered with
/// [`Graph::register_type_with_parent`](crate::Graph::register_type_with_parent); then
/// every actor that handles the parent type handles it too.
///
/// ```
/// use scenewalk_core::NodeCore;
///
/// #[derive(Clone, Debug)]
/// struct Light { intensity: f32 }
/// impl NodeCore for Light {}
///
/// #[derive(Clone, Debug)]
/// struct Spotlight { light: Light, cone: f32 }
/// impl NodeCore for Spotlight {
///     fn base(&self) -> Option<&dyn NodeCore> { Some(&self.light) }
/// }
/// ```
pub trait NodeCore: Downcast + DynClone + Debug + Send + Sync {
    /// The embedded value of this type's parent type, if it extends one.
    fn base(&self) -> Option<&dyn NodeCore> {
        None
    }

    /// The parent type this type extends, registered in `registry`: a type whose
    /// [`base`](NodeCore::base) returns a `P` declares it here as
    /// `Some(registry.register::<P>())`, and then every graph registers the parent
    /// along with the type when its first node is added, so no
    /// [`Graph::register_type_with_parent`](crate::Graph::register_type_with_parent)
    /// call is needed. The default declares none.
    ///
    /// ```
    /// use scenewalk_core::{Graph, NodeCore, NodeType, TypeRegistry};
    /// #[derive(Clone, Debug)]
    /// struct Light;
    /// impl NodeCore for Light {}
    /// #[derive(Clone, Debug)]
    /// struct Spot(Light);
    /// impl NodeCore for Spot {
    ///     fn base(&self) -> Option<&dyn NodeCore> { Some(&self.0) }
    ///     fn parent_type(registry: &mut TypeRegistry) -> Option<NodeType> {
    ///         Some(registry.register::<Light>())
    ///     }
    /// }
    /// let mut graph = Graph::new();
    /// let spot = graph.add_root(Spot(Light));
    /// let types = graph.types();
    /// let light = types.index_of::<Light>().unwrap();
    /// assert!(types.is_a(graph.node_type(spot)?, light));
    /// # Ok::<(), scenewalk_core::GraphError>(())
    /// ```
    fn parent_type(_registry: &mut TypeRegistry) -> Option<NodeType>
    where
        Self: Sized,
    {
        None
    }
}

/// How many `base` steps `<dyn NodeCore>::view` follows before giving up.
pub const MAX_BASE_CHAIN: usize = 64;

impl_downcast!(NodeCore);
clone_trait_object!(NodeCore);

impl dyn NodeCore {
    /// Views this node as a `T`: itself if it is a `T`, else the first `T` along its
    /// [`base`](NodeCore::base) chain.
    pub fn view<T: NodeCore>(&self) -> Option<&T> {
        let mut current: &dyn NodeCore = self;
        // A `base` that returns `self` would loop forever; real chains are short.
        for _ in 0..MAX_BASE_CHAIN {
            if let Some(found) = current.downcast_ref::<T>() {
                return Some(found);
            }
            current = current.base()?;
        }
        None
    }
}
