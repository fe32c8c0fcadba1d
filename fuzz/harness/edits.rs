//! The graph-edit fuzz harness, shared by the libFuzzer target
//! (`fuzz_targets/graph_edits.rs`) and the corpus replay test
//! (`examples/tests/fuzz_replay.rs`).
//!
//! The bytes are read as a sequence of edits (valid or not, on live or stale ids,
//! compaction included) on a scene graph. After every edit the links must be
//! consistent (every child's parent is its parent, siblings link both ways, every live
//! node hangs below exactly one root, stale ids read as stale), a refused edit must
//! leave the revision unchanged, and at the end every traversal order must visit the
//! same nodes as a plain explicit-stack walk of the links.

use scenewalk_actors::{Bounds, Statistics, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Action, Graph, GraphError, NodeId, Ordered, Unordered};
use scenewalk_iterators::{BreadthFirst, DepthFirst, Flattened, PriorityQueue, Walk};
use scenewalk_nodes::{Geometry, Group, Transform};
use std::collections::HashSet;

/// Upper bound on ids kept, so a long input stays cheap per step.
const MAX_IDS: usize = 512;

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    fn byte(&mut self) -> u8 {
        self.next().unwrap_or(0)
    }
}

/// A value from a small set of odd and ordinary numbers.
fn number(b: u8) -> f32 {
    const VALUES: [f32; 8] = [0.0, 1.0, -1.0, 2.5, 1e30, -0.0, f32::NAN, f32::INFINITY];
    VALUES[usize::from(b) % VALUES.len()]
}

fn add(
    graph: &mut Graph,
    at: Option<(NodeId, bool)>,
    kind: u8,
    value: u8,
) -> Result<NodeId, GraphError> {
    fn put<T: scenewalk_core::NodeCore>(
        graph: &mut Graph,
        at: Option<(NodeId, bool)>,
        payload: T,
    ) -> Result<NodeId, GraphError> {
        match at {
            None => Ok(graph.add_root(payload)),
            Some((parent, false)) => graph.append_child(parent, payload),
            Some((sibling, true)) => graph.insert_before(sibling, payload),
        }
    }
    let v = number(value);
    match kind % 3 {
        0 => put(graph, at, Group),
        1 => put(
            graph,
            at,
            Transform::from_affine(
                Affine3A::from_scale(Vec3::new(v, 1.0, 1.0))
                    * Affine3A::from_translation(Vec3::splat(v)),
            ),
        ),
        _ => put(
            graph,
            at,
            // `Geometry::new` refuses a NaN or infinite corner: the empty box instead.
            Geometry::try_new(Aabb::new(Vec3::splat(-1.0), Vec3::new(v, 1.0, 1.0)), 0)
                .unwrap_or(Geometry::new(Aabb::EMPTY)),
        ),
    }
}

struct State {
    graph: Graph,
    /// Every id ever made (live or stale), at most `MAX_IDS`.
    ids: Vec<NodeId>,
}

impl State {
    fn pick(&self, b: u8) -> Option<NodeId> {
        (!self.ids.is_empty()).then(|| self.ids[usize::from(b) % self.ids.len()])
    }

    fn pick_opt(&self, b: u8) -> Option<NodeId> {
        if b & 3 == 0 { None } else { self.pick(b / 4) }
    }

    fn made(&mut self, got: Result<NodeId, GraphError>, at: Option<NodeId>) {
        match got {
            Ok(id) => {
                assert!(
                    !self.ids.contains(&id),
                    "a new id {id:?} equals an earlier one"
                );
                if self.ids.len() < MAX_IDS {
                    self.ids.push(id);
                }
            }
            Err(GraphError::StaleNode(s)) => assert_eq!(Some(s), at),
            Err(GraphError::NoParent(s)) => {
                assert_eq!(Some(s), at);
                assert_eq!(self.graph.parent(s), Ok(None));
            }
            Err(e) => panic!("adding a node: unexpected {e}"),
        }
    }

    /// Applies one edit read from `bytes`; returns `false` when the bytes are used up.
    fn step(&mut self, bytes: &mut Bytes<'_>) -> bool {
        let Some(op) = bytes.next() else {
            return false;
        };
        let (a, b, c) = (bytes.byte(), bytes.byte(), bytes.byte());
        let revision = self.graph.revision();
        let refused = match op % 10 {
            0 => {
                let got = add(&mut self.graph, None, a, b);
                self.made(got, None);
                false
            }
            1 | 2 => {
                let Some(parent) = self.pick(a) else {
                    return true;
                };
                let got = add(&mut self.graph, Some((parent, op % 10 == 2)), b, c);
                let refused = got.is_err();
                self.made(got, Some(parent));
                refused
            }
            3 | 4 => {
                let Some(node) = self.pick(a) else {
                    return true;
                };
                let parent = self.pick_opt(b);
                let before = self.pick_opt(c);
                let got = self.graph.set_parent(node, parent, before);
                match got {
                    Ok(()) => {
                        assert_eq!(self.graph.parent(node), Ok(parent));
                        if let Some(before) = before.filter(|&b| b != node) {
                            assert_eq!(self.graph.next_sibling(node), Ok(Some(before)));
                        }
                    }
                    Err(GraphError::Cycle {
                        node: n,
                        new_parent,
                    }) => {
                        assert_eq!((n, Some(new_parent)), (node, parent));
                        assert_eq!(self.graph.is_ancestor_or_self(node, new_parent), Ok(true));
                    }
                    Err(GraphError::NotAChild {
                        parent: p,
                        before: b,
                    }) => {
                        assert_eq!(Some(p), parent);
                        assert_ne!(self.graph.parent(b), Ok(Some(p)));
                    }
                    Err(GraphError::BeforeWithoutParent { .. }) => assert_eq!(parent, None),
                    Err(GraphError::StaleNode(s)) => assert!(!self.graph.contains(s)),
                    Err(e) => panic!("set_parent: unexpected {e}"),
                }
                got.is_err()
            }
            5 => {
                let Some(node) = self.pick(a) else {
                    return true;
                };
                let got = self.graph.remove(node);
                self.expect_stale(node);
                got.is_err()
            }
            6 => {
                let Some(node) = self.pick(a) else {
                    return true;
                };
                let size = self.graph.preorder(node).map(Iterator::count);
                let got = self.graph.remove_subtree(node);
                assert_eq!(got.as_ref().ok(), size.as_ref().ok());
                self.expect_stale(node);
                got.is_err()
            }
            7 => {
                let Some(node) = self.pick(a) else {
                    return true;
                };
                let got = self.graph.set_parent(node, None, None);
                if got.is_ok() {
                    assert_eq!(self.graph.parent(node), Ok(None));
                }
                got.is_err()
            }
            8 => {
                let Some(node) = self.pick(a) else {
                    return true;
                };
                // A payload edit: no structural change, so the revision stays.
                if let Ok(t) = self.graph.get_mut::<Transform>(node) {
                    t.set_local(Affine3A::from_translation(Vec3::splat(number(b))));
                }
                self.check_traversals();
                true
            }
            _ => {
                if a & 7 == 0 {
                    self.compact();
                }
                return true;
            }
        };
        if refused {
            assert_eq!(
                self.graph.revision(),
                revision,
                "a refused edit changed the graph"
            );
        }
        self.check_links();
        true
    }

    /// After a remove, live or not before, the id is stale.
    fn expect_stale(&self, node: NodeId) {
        assert!(!self.graph.contains(node));
        assert_eq!(self.graph.parent(node), Err(GraphError::StaleNode(node)));
    }

    fn compact(&mut self) {
        let before: Vec<Option<Vec<NodeId>>> = self
            .ids
            .iter()
            .map(|&id| self.graph.children(id).ok().map(Iterator::collect))
            .collect();
        let remap = self.graph.compact().expect("generations left");
        assert!(self.graph.is_compact());
        assert_eq!(self.graph.capacity(), self.graph.len());
        for (id, kids) in self.ids.iter_mut().zip(before) {
            match remap.get(*id) {
                Some(new) => {
                    let kids: Vec<NodeId> = kids
                        .expect("a mapped id was live")
                        .into_iter()
                        .map(|k| remap.get(k).expect("a live child maps"))
                        .collect();
                    let now: Vec<NodeId> = self.graph.children(new).expect("live").collect();
                    assert_eq!(now, kids, "compaction keeps child order");
                    if new != *id {
                        assert!(
                            !self.graph.contains(*id),
                            "an old id never names another node"
                        );
                    }
                    *id = new;
                }
                None => {
                    assert!(kids.is_none(), "a live id maps");
                    assert!(!self.graph.contains(*id), "a stale id stays stale");
                }
            }
        }
        self.check_links();
        self.check_traversals();
    }

    /// Links agree with each other; every live node is below exactly one root.
    fn check_links(&self) {
        let g = &self.graph;
        let mut seen = HashSet::new();
        let mut stack: Vec<NodeId> = g.roots().collect();
        for &r in &stack {
            assert_eq!(g.parent(r), Ok(None));
        }
        while let Some(n) = stack.pop() {
            assert!(seen.insert(n), "{n:?} reached twice");
            assert!(seen.len() <= g.len(), "more nodes reachable than live");
            let kids: Vec<NodeId> = g.children(n).expect("live").collect();
            assert_eq!(g.first_child(n), Ok(kids.first().copied()));
            assert_eq!(g.last_child(n), Ok(kids.last().copied()));
            for (i, &k) in kids.iter().enumerate() {
                assert_eq!(g.parent(k), Ok(Some(n)));
                assert_eq!(g.prev_sibling(k), Ok(i.checked_sub(1).map(|j| kids[j])));
                assert_eq!(g.next_sibling(k), Ok(kids.get(i + 1).copied()));
            }
            stack.extend(kids);
        }
        assert_eq!(seen.len(), g.len(), "every live node is below a root");
        for &id in &self.ids {
            assert_eq!(g.contains(id), seen.contains(&id));
            if !seen.contains(&id) {
                assert_eq!(g.parent(id), Err(GraphError::StaleNode(id)));
            }
        }
    }

    /// Every order visits each root's subtree, in pre-order where it promises it.
    fn check_traversals(&self) {
        let g = &self.graph;
        let mut depth_first = Action::new(DepthFirst::new(), (Unordered::new(Statistics::new()),))
            .expect("compatible");
        let mut priority = Action::new(PriorityQueue::new(), (Unordered::new(Statistics::new()),))
            .expect("compatible");
        let mut breadth = Action::new(BreadthFirst::new(), (Unordered::new(Statistics::new()),))
            .expect("compatible");
        let mut update = Action::new(
            DepthFirst::new(),
            (
                Ordered::new(WorldTransforms::new()),
                Ordered::new(Bounds::new()),
            ),
        )
        .expect("compatible");
        for root in g.roots() {
            // The reference: an explicit-stack pre-order of the links.
            let mut want = Vec::new();
            let mut stack = vec![root];
            while let Some(n) = stack.pop() {
                want.push(n.index());
                let kids: Vec<NodeId> = g.children(n).expect("live").collect();
                stack.extend(kids.into_iter().rev());
            }
            let got: Vec<_> = g.preorder(root).expect("live").collect();
            assert_eq!(got, want, "pre-order");
            let mut flat = Flattened::new();
            flat.rebuild(g, root).expect("live");
            assert_eq!(flat.nodes(), &want[..], "flattened order");
            let mut level: Vec<_> = g
                .breadth_first(root)
                .expect("live")
                .map(|(n, _)| n)
                .collect();
            let mut sorted = want.clone();
            level.sort();
            sorted.sort();
            assert_eq!(level, sorted, "breadth-first visits the same nodes");
            let n = want.len() as u64;
            for (name, stats) in [
                ("depth-first", depth_first.run(g, root)),
                ("priority", priority.run(g, root)),
                ("breadth-first", breadth.run(g, root)),
                ("update", update.run(g, root)),
            ] {
                assert_eq!(stats.expect("a live root").entered, n, "{name}");
            }
        }
    }
}

/// Runs the edits encoded in `data`.
pub fn run(data: &[u8]) {
    let mut state = State {
        graph: Graph::new(),
        ids: Vec::new(),
    };
    let mut bytes = Bytes(data);
    while state.step(&mut bytes) {}
    state.check_links();
    state.check_traversals();
}
