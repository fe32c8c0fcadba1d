//! The rules of node types: one declaration (`NodeCore::parent_type`, with `base`
//! giving that type's value) says what a type extends; a loop or a `base` that
//! disagrees is refused with an error; every reader answers "is-a" alike; and
//! messages name types without their module paths.

use scenewalk_core::DepthFirst;
use scenewalk_core::{
    Action, ActionError, ActiveList, Dispatch, Flow, Functor, Graph, GraphError, MAX_BASE_CHAIN,
    MethodTable, NodeCore, NodeId, Ordered, OrderedActor, ParentType, RunContext, StateCell,
    TypeError, Typed, Visit, short_type_name,
};
use scenewalk_iterators::BreadthFirst;

#[derive(Clone, Debug, PartialEq)]
struct Light(u32);
impl NodeCore for Light {}

#[derive(Clone, Debug, PartialEq)]
struct Group;
impl NodeCore for Group {}

/// Extends `Light`, declared and viewed alike.
#[derive(Clone, Debug)]
struct Spot(Light);
impl NodeCore for Spot {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Light>())
    }
}

/// Extends `Spot`, so `Light` two steps up.
#[derive(Clone, Debug)]
struct Narrow(Spot);
impl NodeCore for Narrow {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Spot>())
    }
}

/// Views a `Light` through `base` but declares no parent type.
#[derive(Clone, Debug)]
struct Half(Light);
impl NodeCore for Half {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
}

/// Declares `Light` but views a `Group`.
#[derive(Clone, Debug)]
struct Liar(Group);
impl NodeCore for Liar {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Light>())
    }
}

/// Declares `Light` and gives no value of it.
#[derive(Clone, Debug)]
struct Claims;
impl NodeCore for Claims {
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Light>())
    }
}

/// Views and declares a `Half`, whose own `base` is undeclared: refused one step up.
#[derive(Clone, Debug)]
struct OnHalf(Half);
impl NodeCore for OnHalf {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.0)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Half>())
    }
}

/// Two types that declare each other as parent.
#[derive(Clone, Debug)]
struct Ping;
#[derive(Clone, Debug)]
struct Pong;
impl NodeCore for Ping {
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Pong>())
    }
}
impl NodeCore for Pong {
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Ping>())
    }
}

/// A type that declares itself as its parent.
#[derive(Clone, Debug)]
struct Selfish;
impl NodeCore for Selfish {
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Selfish>())
    }
}

#[test]
fn a_looping_declaration_is_refused() {
    let mut g = Graph::new();
    let ping = short_type_name::<Ping>();
    let pong = short_type_name::<Pong>();
    let err = g.register_type::<Ping>().unwrap_err();
    assert!(
        matches!(err, GraphError::Type(TypeError::ParentChain(t)) if t == ping || t == pong),
        "{err}"
    );
    assert!(g.try_add_root(Pong).is_err());
    assert!(matches!(
        g.try_add_root(Selfish),
        Err(GraphError::Type(TypeError::ParentChain("Selfish")))
    ));
    assert!(
        g.types().is_empty(),
        "a refused chain registers none of its types"
    );
    // The graph goes on working, and every chain of its registry ends.
    let root = g.add_root(Narrow(Spot(Light(1))));
    g.append_child(root, Group).unwrap();
    let types = g.types();
    for (ty, _) in types.iter() {
        assert!(types.chain(ty).count() <= types.len());
    }
    let narrow = g.node_type(root).unwrap();
    let light = types.index_of::<Light>().unwrap();
    assert_eq!(types.chain(narrow).count(), 3);
    assert!(types.chain(narrow).any(|t| t == light));
}

/// `C0` declares nothing; every `Cn` extends `Cn-1`.
macro_rules! chain {
    ($first:ident $(, $rest:ident)*) => {
        #[derive(Clone, Debug, Default)]
        struct $first;
        impl NodeCore for $first {}
        chain!(@link $first $(, $rest)*);
    };
    (@link $parent:ident, $ty:ident $(, $rest:ident)*) => {
        #[derive(Clone, Debug, Default)]
        struct $ty($parent);
        impl NodeCore for $ty {
            fn base(&self) -> Option<&dyn NodeCore> {
                Some(&self.0)
            }
            fn parent_type() -> Option<ParentType> {
                Some(ParentType::of::<$parent>())
            }
        }
        chain!(@link $ty $(, $rest)*);
    };
    (@link $last:ident) => {};
}

chain!(
    C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17, C18, C19, C20,
    C21, C22, C23, C24, C25, C26, C27, C28, C29, C30, C31, C32, C33, C34, C35, C36, C37, C38, C39,
    C40, C41, C42, C43, C44, C45, C46, C47, C48, C49, C50, C51, C52, C53, C54, C55, C56, C57, C58,
    C59, C60, C61, C62, C63, C64
);

#[test]
fn a_chain_of_max_base_chain_types_is_the_longest_accepted() {
    assert_eq!(MAX_BASE_CHAIN, 64, "the chain below is built for 64 types");
    let mut g = Graph::new();
    let c63 = g.register_type::<C63>().unwrap();
    let c0 = g.types().index_of::<C0>().unwrap();
    assert_eq!(g.types().chain(c63).count(), MAX_BASE_CHAIN);
    assert!(g.types().chain(c63).any(|t| t == c0));
    // The value view reaches as far as the declaration.
    let id = g.add_root(C63::default());
    assert!(g.get::<C0>(id).is_ok());

    let len = g.types().len();
    assert!(matches!(
        g.register_type::<C64>(),
        Err(GraphError::Type(TypeError::ParentChain(_)))
    ));
    assert_eq!(g.types().len(), len, "nothing of a refused chain registers");
}

#[test]
fn a_base_that_disagrees_with_the_declaration_is_refused() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let mismatch = |ty, declared| GraphError::Type(TypeError::BaseMismatch { ty, declared });
    assert_eq!(
        g.append_child(root, Half(Light(1))),
        Err(mismatch("Half", "none"))
    );
    assert_eq!(
        g.append_child(root, Liar(Group)),
        Err(mismatch("Liar", "Light"))
    );
    assert_eq!(
        g.append_child(root, Claims),
        Err(mismatch("Claims", "Light"))
    );
    assert_eq!(
        g.append_child(root, OnHalf(Half(Light(2)))),
        Err(mismatch("Half", "none")),
        "checked along the whole chain"
    );
    assert!(g.try_add_root(Liar(Group)).is_err());
    assert_eq!(g.len(), 1, "a refused node is not added");
    let text = mismatch("Liar", "Light").to_string();
    assert!(
        text.contains("Liar") && text.contains("parent_type"),
        "{text}"
    );
}

/// A functor that records which nodes reached it, for the method-table reader.
fn seen(_: &Light, visit: &Visit<'_>, log: &mut Vec<NodeId>) -> Flow {
    log.push(visit.id());
    Flow::Continue
}

#[test]
fn every_reader_agrees_on_is_a() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let mut ids = vec![root];
    let added = [
        g.append_child(root, Light(1)),
        g.append_child(root, Spot(Light(2))),
        g.append_child(root, Narrow(Spot(Light(3)))),
        g.append_child(root, Half(Light(4))),
        g.append_child(root, Liar(Group)),
        g.append_child(root, Group),
    ];
    ids.extend(added.into_iter().flatten());

    let types = g.types();
    let light = types.index_of::<Light>().unwrap();
    let mut set = Typed::<Light>::new();
    set.resolve(types);
    let mut table = MethodTable::<Vec<NodeId>>::new();
    table.add::<Light>(Functor::function(seen));
    table.resolve(types);
    let mut reached = Vec::new();
    let mut lights = 0;
    for &id in &ids {
        let ty = g.node_type(id).unwrap();
        let is_a = types.chain(ty).any(|t| t == light);
        lights += usize::from(is_a);
        let visit = Visit::new(&g, id.index(), 0).unwrap();
        let payload = g.payload(id).unwrap();
        assert_eq!(set.contains(ty), is_a, "{payload:?}");
        assert_eq!(set.get(&visit).is_some(), is_a, "{payload:?}");
        assert_eq!(g.get::<Light>(id).is_ok(), is_a, "{payload:?}");
        assert_eq!(g.get_at::<Light>(id.index()).is_some(), is_a, "{payload:?}");
        assert_eq!(visit.get::<Light>().is_some(), is_a, "{payload:?}");
        table.call(&visit, &mut reached);
    }
    assert_eq!(lights, 3);
    let expected: Vec<NodeId> = ids
        .iter()
        .copied()
        .filter(|&id| g.get::<Light>(id).is_ok())
        .collect();
    assert_eq!(reached, expected);
}

/// An ordered actor that records nothing: for the names in messages.
#[derive(Debug)]
struct Wrapper<T>(T);
impl<T: Send + 'static> OrderedActor for Wrapper<T> {
    type State = ();
    fn dispatch(&self) -> Dispatch {
        Dispatch::single::<Light>()
    }
    fn root_state(&mut self, _: &RunContext<'_>) -> Result<(), scenewalk_core::TraversalError> {
        Ok(())
    }
    fn enter(&mut self, _: &mut StateCell<'_, ()>, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        Flow::Continue
    }
}

#[test]
fn messages_name_types_without_module_paths() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let spot = g.append_child(root, Spot(Light(1))).unwrap();
    let err = g.get::<Light>(root).unwrap_err().to_string();
    assert!(err.ends_with("is a Group, not a Light"), "{err}");
    let err = g.get_mut::<Light>(spot).unwrap_err().to_string();
    assert!(err.ends_with("is a Spot, not a Light"), "{err}");

    let types = g.types();
    let names: Vec<&str> = types.iter().map(|(_, info)| info.name).collect();
    assert_eq!(names, ["Group", "Light", "Spot"]);
    assert_eq!(types.name(types.index_of::<Spot>().unwrap()), "Spot");

    let actor = Ordered::new(Wrapper(vec![Light(0)]));
    let class = scenewalk_core::Actor::class(&actor);
    assert_eq!(class.name, "Wrapper<Vec<Light>>");
    let Dispatch::Single(key) = class.dispatch else {
        panic!("single dispatch")
    };
    assert_eq!(key.short_name(), "Light");
    assert!(key.name.ends_with("::Light"), "{}", key.name);
    let Err(err) = Action::new(BreadthFirst::new(), (actor,)) else {
        panic!("an ordered actor under a breadth-first iterator is refused")
    };
    assert!(matches!(err, ActionError::Incompatible { .. }));
    let text = err.to_string();
    assert!(
        text.starts_with("actor `Wrapper<Vec<Light>>` cannot run under iterator `BreadthFirst`"),
        "{text}"
    );
    assert!(Action::new(DepthFirst::new(), (Ordered::new(Wrapper(1u8)),)).is_ok());
}

#[test]
fn short_type_names() {
    assert_eq!(short_type_name::<Light>(), "Light");
    assert_eq!(short_type_name::<u32>(), "u32");
    assert_eq!(
        short_type_name::<Ordered<Wrapper<std::collections::HashMap<String, Vec<Light>>>>>(),
        "Ordered<Wrapper<HashMap<String, Vec<Light>>>>"
    );
    assert_eq!(
        short_type_name::<(std::sync::Arc<[Light]>, &'static dyn NodeCore, [Group; 2])>(),
        "(Arc<[Light]>, &dyn NodeCore, [Group; 2])"
    );
    assert_eq!(
        short_type_name::<fn(Light) -> Group>(),
        "fn(Light) -> Group"
    );
    // The same `&'static str` each time: a generic name is built once.
    assert!(std::ptr::eq(
        short_type_name::<Vec<Light>>(),
        short_type_name::<Vec<Light>>()
    ));
}
