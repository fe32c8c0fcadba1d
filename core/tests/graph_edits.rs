//! Structural edits of `Graph`, checked link by link against an expected forest.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{Graph, GraphError, NodeCore, NodeId};

#[derive(Clone, Debug, PartialEq)]
struct Group;
impl NodeCore for Group {}

#[derive(Clone, Debug, PartialEq)]
struct Mesh(u32);
impl NodeCore for Mesh {}

#[derive(Clone, Debug, PartialEq)]
struct Light {
    id: u32,
    name: String,
}
impl NodeCore for Light {}

/// Extends `Light` through `base`.
#[derive(Clone, Debug, PartialEq)]
struct Spot {
    light: Light,
    cone: u32,
}
impl NodeCore for Spot {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.light)
    }
    fn parent_type() -> Option<scenewalk_core::ParentType> {
        Some(scenewalk_core::ParentType::of::<Light>())
    }
}

fn light(id: u32) -> Light {
    Light {
        id,
        name: format!("light-{id}"),
    }
}

/// One node of an expected forest, with its children in document order.
#[derive(Clone, Debug)]
struct E(NodeId, Vec<E>);

fn leaf(id: NodeId) -> E {
    E(id, Vec::new())
}

/// Checks every link query of the whole graph against `forest`, which must list every
/// live node of the graph.
fn assert_forest(graph: &Graph, forest: &[E]) {
    let mut checker = Checker {
        graph,
        count: 0,
        preorder: Vec::new(),
    };
    for root in forest {
        checker.preorder.clear();
        checker.walk(root, None, 0, None, None);
        // The stackless pre-order step walks the same order, and stays in the subtree.
        let mut walked = vec![root.0];
        while let Some(next) = graph
            .next_preorder(*walked.last().unwrap(), root.0)
            .unwrap()
        {
            walked.push(next);
            assert!(
                walked.len() <= checker.preorder.len(),
                "next_preorder left the subtree"
            );
        }
        assert_eq!(walked, checker.preorder, "next_preorder from {:?}", root.0);
    }
    assert_eq!(graph.len(), checker.count, "len");
    assert_eq!(graph.is_empty(), checker.count == 0);
    let mut roots: Vec<NodeId> = graph.roots().collect();
    let mut expected_roots: Vec<NodeId> = forest.iter().map(|e| e.0).collect();
    roots.sort();
    expected_roots.sort();
    assert_eq!(roots, expected_roots, "roots");
}

struct Checker<'g> {
    graph: &'g Graph,
    count: usize,
    preorder: Vec<NodeId>,
}

impl Checker<'_> {
    fn walk(
        &mut self,
        node: &E,
        parent: Option<NodeId>,
        depth: usize,
        prev: Option<NodeId>,
        next: Option<NodeId>,
    ) {
        let graph = self.graph;
        let E(id, kids) = node;
        let id = *id;
        self.count += 1;
        self.preorder.push(id);
        assert!(graph.contains(id), "{id:?} should be live");
        assert_eq!(graph.parent(id), Ok(parent), "parent of {id:?}");
        assert_eq!(graph.prev_sibling(id), Ok(prev), "prev_sibling of {id:?}");
        assert_eq!(graph.next_sibling(id), Ok(next), "next_sibling of {id:?}");
        let expected: Vec<NodeId> = kids.iter().map(|k| k.0).collect();
        let children: Vec<NodeId> = graph.children(id).unwrap().collect();
        assert_eq!(children, expected, "children of {id:?}");
        assert_eq!(graph.first_child(id), Ok(expected.first().copied()));
        assert_eq!(graph.last_child(id), Ok(expected.last().copied()));
        assert_eq!(graph.depth(id), Ok(depth), "depth of {id:?}");
        assert_eq!(graph.is_ancestor_or_self(id, id), Ok(true));
        if let Some(p) = parent {
            assert_eq!(graph.is_ancestor_or_self(p, id), Ok(true));
            assert_eq!(graph.is_ancestor_or_self(id, p), Ok(false));
        }
        // Index-based access agrees with id-based access.
        let ix = id.index();
        assert_eq!(graph.id_at(ix), Some(id));
        assert_eq!(graph.parent_at(ix), parent.map(NodeId::index));
        assert_eq!(
            graph.first_child_at(ix),
            expected.first().map(|k| k.index())
        );
        assert_eq!(graph.next_sibling_at(ix), next.map(NodeId::index));
        for (i, kid) in kids.iter().enumerate() {
            let prev = i.checked_sub(1).map(|p| expected[p]);
            let next = expected.get(i + 1).copied();
            self.walk(kid, Some(id), depth + 1, prev, next);
        }
    }
}

fn assert_stale(graph: &Graph, id: NodeId) {
    let stale = Err(GraphError::StaleNode(id));
    assert!(!graph.contains(id));
    assert_eq!(graph.parent(id), stale.clone().map(|()| None));
    assert_eq!(graph.first_child(id), stale.clone().map(|()| None));
    assert_eq!(graph.last_child(id), stale.clone().map(|()| None));
    assert_eq!(graph.next_sibling(id), stale.clone().map(|()| None));
    assert_eq!(graph.prev_sibling(id), stale.clone().map(|()| None));
    assert_eq!(graph.depth(id), stale.clone().map(|()| 0));
    assert!(matches!(graph.children(id), Err(GraphError::StaleNode(x)) if x == id));
    assert!(matches!(graph.payload(id), Err(GraphError::StaleNode(x)) if x == id));
    assert!(matches!(graph.node_type(id), Err(GraphError::StaleNode(x)) if x == id));
    assert!(matches!(graph.get::<Group>(id), Err(GraphError::StaleNode(x)) if x == id));
}

/// root [a [a1 a2] b c]
fn sample() -> (Graph, [NodeId; 6]) {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let a = g.append_child(root, Mesh(1)).unwrap();
    let a1 = g.append_child(a, Mesh(11)).unwrap();
    let a2 = g.append_child(a, Mesh(12)).unwrap();
    let b = g.append_child(root, Mesh(2)).unwrap();
    let c = g.append_child(root, light(3)).unwrap();
    (g, [root, a, a1, a2, b, c])
}

#[test]
fn append_keeps_document_order() {
    let (g, [root, a, a1, a2, b, c]) = sample();
    assert_forest(
        &g,
        &[E(
            root,
            vec![E(a, vec![leaf(a1), leaf(a2)]), leaf(b), leaf(c)],
        )],
    );
}

#[test]
fn insert_before_first_middle_and_on_root() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let x = g.insert_before(a, Mesh(90)).unwrap();
    let y = g.insert_before(c, Mesh(91)).unwrap();
    let z = g.insert_before(a2, Group).unwrap();
    assert_forest(
        &g,
        &[E(
            root,
            vec![
                leaf(x),
                E(a, vec![leaf(a1), leaf(z), leaf(a2)]),
                leaf(b),
                leaf(y),
                leaf(c),
            ],
        )],
    );
    let rev = g.revision();
    assert_eq!(
        g.insert_before(root, Group),
        Err(GraphError::NoParent(root))
    );
    assert_eq!(g.revision(), rev);
    assert_eq!(g.len(), 9);
}

#[test]
fn set_parent_to_other_parent_keeps_subtree() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    g.set_parent(a, Some(c), None).unwrap();
    assert_forest(
        &g,
        &[E(
            root,
            vec![leaf(b), E(c, vec![E(a, vec![leaf(a1), leaf(a2)])])],
        )],
    );
    // Before a given child of the new parent.
    g.set_parent(b, Some(a), Some(a2)).unwrap();
    assert_forest(
        &g,
        &[E(
            root,
            vec![E(c, vec![E(a, vec![leaf(a1), leaf(b), leaf(a2)])])],
        )],
    );
    g.set_parent(a2, Some(a), Some(a1)).unwrap();
    assert_forest(
        &g,
        &[E(
            root,
            vec![E(c, vec![E(a, vec![leaf(a2), leaf(a1), leaf(b)])])],
        )],
    );
}

#[test]
fn set_parent_within_same_parent() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let sub = || E(a, vec![leaf(a1), leaf(a2)]);
    // Last to first.
    g.set_parent(c, Some(root), Some(a)).unwrap();
    assert_forest(&g, &[E(root, vec![leaf(c), sub(), leaf(b)])]);
    // First to last.
    g.set_parent(c, Some(root), None).unwrap();
    assert_forest(&g, &[E(root, vec![sub(), leaf(b), leaf(c)])]);
    // Before itself: nothing moves.
    g.set_parent(b, Some(root), Some(b)).unwrap();
    assert_forest(&g, &[E(root, vec![sub(), leaf(b), leaf(c)])]);
    // Before its own next sibling: nothing moves.
    g.set_parent(a, Some(root), Some(b)).unwrap();
    assert_forest(&g, &[E(root, vec![sub(), leaf(b), leaf(c)])]);
    // Middle to first.
    g.set_parent(b, Some(root), Some(a)).unwrap();
    assert_forest(&g, &[E(root, vec![leaf(b), sub(), leaf(c)])]);
    // Last child already last: stays.
    g.set_parent(c, Some(root), None).unwrap();
    assert_forest(&g, &[E(root, vec![leaf(b), sub(), leaf(c)])]);
}

#[test]
fn set_parent_none_makes_roots() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    g.set_parent(a, None, None).unwrap();
    assert_forest(
        &g,
        &[
            E(root, vec![leaf(b), leaf(c)]),
            E(a, vec![leaf(a1), leaf(a2)]),
        ],
    );
    g.set_parent(a2, None, None).unwrap();
    g.set_parent(c, None, None).unwrap();
    assert_forest(
        &g,
        &[
            E(root, vec![leaf(b)]),
            E(a, vec![leaf(a1)]),
            leaf(a2),
            leaf(c),
        ],
    );
    // Moving a root to no parent is allowed and changes nothing.
    g.set_parent(root, None, None).unwrap();
    assert_forest(
        &g,
        &[
            E(root, vec![leaf(b)]),
            E(a, vec![leaf(a1)]),
            leaf(a2),
            leaf(c),
        ],
    );
    // A root moves back under another node.
    g.set_parent(a, Some(b), None).unwrap();
    assert_forest(
        &g,
        &[
            E(root, vec![E(b, vec![E(a, vec![leaf(a1)])])]),
            leaf(a2),
            leaf(c),
        ],
    );
}

#[test]
fn cycles_are_refused_and_leave_the_graph_unchanged() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let a1x = g.append_child(a1, Group).unwrap();
    let expected = [E(
        root,
        vec![
            E(a, vec![E(a1, vec![leaf(a1x)]), leaf(a2)]),
            leaf(b),
            leaf(c),
        ],
    )];
    let rev = g.revision();
    let attempts = [
        (a, a, None),
        (a, a1, None),
        (a, a1x, None),
        (root, a1x, None),
        (root, root, Some(a)),
        (a, a, Some(a1)),
        (root, a, Some(a2)),
    ];
    for (node, new_parent, before) in attempts {
        assert_eq!(
            g.set_parent(node, Some(new_parent), before),
            Err(GraphError::Cycle { node, new_parent }),
            "moving {node:?} under {new_parent:?}"
        );
        assert_eq!(g.revision(), rev);
        assert_forest(&g, &expected);
    }
    let msg = GraphError::Cycle {
        node: root,
        new_parent: a1x,
    }
    .to_string();
    assert!(
        msg.contains(&root.to_string()) && msg.contains(&a1x.to_string()),
        "{msg}"
    );
}

#[test]
fn not_a_child_is_refused() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let expected = [E(
        root,
        vec![E(a, vec![leaf(a1), leaf(a2)]), leaf(b), leaf(c)],
    )];
    let rev = g.revision();
    // `before` is a grandchild, not a child, of the new parent.
    assert_eq!(
        g.set_parent(c, Some(root), Some(a1)),
        Err(GraphError::NotAChild {
            parent: root,
            before: a1
        })
    );
    // `before` is the new parent itself.
    assert_eq!(
        g.set_parent(b, Some(a), Some(a)),
        Err(GraphError::NotAChild {
            parent: a,
            before: a
        })
    );
    // `before` with no parent: a root has no siblings.
    assert_eq!(
        g.set_parent(a1, None, Some(b)),
        Err(GraphError::BeforeWithoutParent {
            node: a1,
            before: b
        })
    );
    assert_eq!(g.revision(), rev);
    assert_forest(&g, &expected);
}

#[test]
fn stale_ids_after_remove_and_slot_reuse() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    g.remove(b).unwrap();
    assert_stale(&g, b);
    let fresh = g.add_root(Mesh(77));
    assert_eq!(fresh.index(), b.index(), "the freed slot is reused");
    assert_ne!(fresh.generation(), b.generation());
    assert_stale(&g, b);
    assert_eq!(g.get::<Mesh>(fresh), Ok(&Mesh(77)));

    let rev = g.revision();
    let stale = Err(GraphError::StaleNode(b));
    assert_eq!(g.append_child(b, Group), stale.clone().map(|()| b));
    assert_eq!(g.insert_before(b, Group), stale.clone().map(|()| b));
    assert_eq!(g.set_parent(b, Some(root), None), stale);
    assert_eq!(g.set_parent(a, Some(b), None), stale);
    assert_eq!(g.set_parent(a, Some(root), Some(b)), stale);
    assert_eq!(g.set_parent(b, None, None), stale);
    assert_eq!(g.remove(b), stale);
    assert_eq!(g.remove_subtree(b), stale.clone().map(|()| 0));
    assert!(matches!(g.get_mut::<Mesh>(b), Err(GraphError::StaleNode(x)) if x == b));
    assert!(matches!(g.payload_mut(b), Err(GraphError::StaleNode(x)) if x == b));
    assert_eq!(
        g.is_ancestor_or_self(b, root),
        stale.clone().map(|()| false)
    );
    assert_eq!(g.next_preorder(b, root), stale.clone().map(|()| None));
    assert_eq!(g.revision(), rev);

    assert_forest(
        &g,
        &[
            E(root, vec![E(a, vec![leaf(a1), leaf(a2)]), leaf(c)]),
            leaf(fresh),
        ],
    );
    // The reused slot stays stale for the old id through several generations.
    g.remove(fresh).unwrap();
    let again = g.append_child(c, Group).unwrap();
    assert_eq!(again.index(), b.index());
    assert_stale(&g, b);
    assert_stale(&g, fresh);
    assert_forest(
        &g,
        &[E(
            root,
            vec![E(a, vec![leaf(a1), leaf(a2)]), E(c, vec![leaf(again)])],
        )],
    );
}

#[test]
fn remove_splices_children_in_place() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let a1x = g.append_child(a1, Group).unwrap();
    g.remove(a).unwrap();
    assert_stale(&g, a);
    assert_forest(
        &g,
        &[E(
            root,
            vec![E(a1, vec![leaf(a1x)]), leaf(a2), leaf(b), leaf(c)],
        )],
    );
    // Last child with children.
    let c1 = g.append_child(c, Mesh(31)).unwrap();
    let c2 = g.append_child(c, Mesh(32)).unwrap();
    g.remove(c).unwrap();
    assert_forest(
        &g,
        &[E(
            root,
            vec![
                E(a1, vec![leaf(a1x)]),
                leaf(a2),
                leaf(b),
                leaf(c1),
                leaf(c2),
            ],
        )],
    );
    // A leaf.
    g.remove(a1x).unwrap();
    // A root: its children become roots, in order.
    g.remove(root).unwrap();
    assert_forest(&g, &[leaf(a1), leaf(a2), leaf(b), leaf(c1), leaf(c2)]);
    for id in [root, a, c, a1x] {
        assert_stale(&g, id);
    }
}

#[test]
fn remove_subtree_counts_and_stales_everything() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let a1x = g.append_child(a1, Group).unwrap();
    let other = g.add_root(Mesh(5));
    assert_eq!(g.len(), 8);
    assert_eq!(g.remove_subtree(a), Ok(4));
    assert_eq!(g.len(), 4);
    for id in [a, a1, a2, a1x] {
        assert_stale(&g, id);
    }
    assert_forest(&g, &[E(root, vec![leaf(b), leaf(c)]), leaf(other)]);
    assert_eq!(g.remove_subtree(c), Ok(1));
    assert_eq!(g.remove_subtree(root), Ok(2));
    assert_forest(&g, &[leaf(other)]);
    assert_eq!(g.remove_subtree(other), Ok(1));
    assert!(g.is_empty());
    assert_forest(&g, &[]);
    // All slots are free and reused; old ids stay stale.
    let capacity = g.capacity();
    let n: Vec<NodeId> = (0..8).map(|i| g.add_root(Mesh(i))).collect();
    assert_eq!(g.capacity(), capacity);
    for id in [root, a, a1, a2, b, c, a1x, other] {
        assert_stale(&g, id);
    }
    for (i, id) in n.iter().enumerate() {
        assert_eq!(g.get::<Mesh>(*id), Ok(&Mesh(i as u32)));
    }
}

#[test]
fn revision_counts_structural_edits_only() {
    let mut g = Graph::new();
    let mut rev = g.revision();
    let mut bumped = |g: &Graph, what: &str| {
        assert!(g.revision() > rev, "{what} should bump the revision");
        rev = g.revision();
    };
    let root = g.add_root(Group);
    bumped(&g, "add_root");
    let a = g.append_child(root, Mesh(1)).unwrap();
    bumped(&g, "append_child");
    let b = g.insert_before(a, Mesh(2)).unwrap();
    bumped(&g, "insert_before");
    g.set_parent(b, Some(a), None).unwrap();
    bumped(&g, "set_parent");
    g.set_parent(b, None, None).unwrap();
    bumped(&g, "set_parent to no parent");
    let c = g.append_child(b, Mesh(3)).unwrap();
    bumped(&g, "append_child");
    g.remove(b).unwrap();
    bumped(&g, "remove");
    g.remove_subtree(c).unwrap();
    bumped(&g, "remove_subtree");

    let rev = g.revision();
    g.get_mut::<Mesh>(a).unwrap().0 = 10;
    g.payload_mut(a).unwrap();
    g.register_type::<Light>().unwrap();
    let _ = g.set_parent(root, Some(a), None); // a cycle: refused
    let _ = g.get::<Light>(a);
    assert_eq!(g.revision(), rev);
    assert_eq!(g.get::<Mesh>(a), Ok(&Mesh(10)));
}

#[test]
fn typed_access_and_wrong_type() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let mesh = g.append_child(root, Mesh(4)).unwrap();
    let lamp = g.append_child(root, light(5)).unwrap();
    let spot = g
        .append_child(
            root,
            Spot {
                light: light(6),
                cone: 30,
            },
        )
        .unwrap();

    assert_eq!(g.get::<Mesh>(mesh), Ok(&Mesh(4)));
    assert_eq!(g.get::<Light>(lamp), Ok(&light(5)));
    assert_eq!(g.get::<Group>(root), Ok(&Group));
    assert_eq!(
        g.get::<Light>(mesh),
        Err(GraphError::WrongType {
            node: mesh,
            expected: scenewalk_core::short_type_name::<Light>(),
            found: scenewalk_core::short_type_name::<Mesh>(),
        })
    );
    assert_eq!(
        g.get_mut::<Mesh>(lamp),
        Err(GraphError::WrongType {
            node: lamp,
            expected: scenewalk_core::short_type_name::<Mesh>(),
            found: scenewalk_core::short_type_name::<Light>(),
        })
    );
    // A type that extends Light is readable as a Light, but only writable as itself.
    assert_eq!(g.get::<Light>(spot), Ok(&light(6)));
    assert_eq!(g.get::<Spot>(spot).map(|s| s.cone), Ok(30));
    assert!(matches!(
        g.get::<Spot>(lamp),
        Err(GraphError::WrongType { .. })
    ));
    assert!(matches!(
        g.get_mut::<Light>(spot),
        Err(GraphError::WrongType { .. })
    ));

    g.get_mut::<Mesh>(mesh).unwrap().0 = 40;
    g.get_mut::<Spot>(spot).unwrap().light.id = 60;
    assert_eq!(g.get::<Mesh>(mesh), Ok(&Mesh(40)));
    assert_eq!(g.get::<Light>(spot).map(|l| l.id), Ok(60));
    assert_eq!(
        g.payload(mesh).unwrap().downcast_ref::<Mesh>(),
        Some(&Mesh(40))
    );
    g.payload_mut(lamp)
        .unwrap()
        .downcast_mut::<Light>()
        .unwrap()
        .id = 50;
    assert_eq!(g.get::<Light>(lamp).map(|l| l.id), Ok(50));

    let types = g.types();
    assert_eq!(Ok(types.index_of::<Mesh>().unwrap()), g.node_type(mesh));
    assert_eq!(Ok(types.index_of::<Spot>().unwrap()), g.node_type(spot));
    assert_eq!(g.get_at::<Light>(spot.index()).map(|l| l.id), Some(60));
    assert_eq!(g.get_at::<Mesh>(lamp.index()), None);
}

#[test]
fn payload_swap_remove_keeps_other_payloads() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    // Interleave two non-zero-sized types and a zero-sized one.
    let mut meshes = Vec::new();
    let mut lights = Vec::new();
    for i in 0..12u32 {
        meshes.push((g.append_child(root, Mesh(i)).unwrap(), i));
        lights.push((g.append_child(root, light(100 + i)).unwrap(), 100 + i));
        g.append_child(root, Group).unwrap();
    }
    let check = |g: &Graph, meshes: &[(NodeId, u32)], lights: &[(NodeId, u32)]| {
        for &(id, v) in meshes {
            assert_eq!(g.get::<Mesh>(id), Ok(&Mesh(v)), "{id:?}");
        }
        for &(id, v) in lights {
            assert_eq!(g.get::<Light>(id), Ok(&light(v)), "{id:?}");
        }
    };
    // First, last, middle of the column, then by a fixed scramble.
    for pick in [0usize, 10, 4, 3, 0, 5, 1] {
        let (gone, _) = meshes.remove(pick);
        g.remove(gone).unwrap();
        assert_stale(&g, gone);
        check(&g, &meshes, &lights);
        // Writing through a moved payload reaches the right node.
        let at = pick % meshes.len();
        let (id, v) = meshes[at];
        g.get_mut::<Mesh>(id).unwrap().0 = v + 1000;
        meshes[at].1 = v + 1000;
        check(&g, &meshes, &lights);
    }
    for pick in [11usize, 0, 5] {
        let (gone, _) = lights.remove(pick);
        assert_eq!(g.remove_subtree(gone), Ok(1));
        check(&g, &meshes, &lights);
    }
    // New payloads fill the column after removals.
    for i in 0..4 {
        meshes.push((g.append_child(root, Mesh(500 + i)).unwrap(), 500 + i));
    }
    check(&g, &meshes, &lights);
    assert_eq!(g.len(), 1 + meshes.len() + lights.len() + 12);
}

#[test]
fn cloned_graph_is_independent() {
    let (mut g, [root, a, a1, a2, b, c]) = sample();
    let copy = g.clone();
    g.remove_subtree(a).unwrap();
    g.get_mut::<Mesh>(b).unwrap().0 = 99;
    assert_forest(
        &copy,
        &[E(
            root,
            vec![E(a, vec![leaf(a1), leaf(a2)]), leaf(b), leaf(c)],
        )],
    );
    assert_eq!(copy.get::<Mesh>(b), Ok(&Mesh(2)));
    assert_eq!(copy.get::<Mesh>(a2), Ok(&Mesh(12)));
    assert_forest(&g, &[E(root, vec![leaf(b), leaf(c)])]);
}

#[test]
fn next_preorder_refuses_a_node_outside_the_subtree() {
    let mut g = Graph::new();
    let root = g.add_root(Group);
    let a = g.append_child(root, Group).unwrap();
    let b = g.append_child(root, Group).unwrap();
    assert_eq!(
        g.next_preorder(a, b),
        Err(GraphError::NotInSubtree { node: a, root: b })
    );
    assert_eq!(g.next_preorder(a, root), Ok(Some(b)));
    assert_eq!(g.next_preorder(b, b), Ok(None));
    // Both stale: the node is named, then the root.
    g.remove_subtree(root).unwrap();
    assert_eq!(g.next_preorder(a, b), Err(GraphError::StaleNode(a)));
    let c = g.add_root(Group);
    assert_eq!(g.next_preorder(c, b), Err(GraphError::StaleNode(b)));
}
