//! The walker's fast step (no check while the graph's uid and revision are unchanged),
//! with and without leave events, against a walker that checks every step, with random
//! edits, clones, compactions and slot reuse between steps.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use proptest::prelude::*;
use scenewalk_core::{Graph, NodeId, NodeIndex};
use scenewalk_iterators::{DfsWalker, Event};
use scenewalk_nodes::Group;

mod common;
use common::{Rng, random_graph};

/// Where the model goes on after a current node moved away.
#[derive(Clone, Copy)]
enum Resume {
    /// The parent's first child now.
    First,
    /// This earlier sibling's next one now.
    After(NodeIndex),
    /// This node.
    At(Option<NodeIndex>),
}

/// The enter / leave walker that checks every step: the fast walker's model.
struct CheckedDfs {
    root: NodeId,
    current: NodeId,
    /// The node `current` was entered from.
    parent: NodeId,
    resume: Resume,
    /// 0 before entering `current`, 1 entered, 2 left, 3 done.
    phase: u8,
    depth: u32,
    skip: bool,
}

impl CheckedDfs {
    fn new(root: NodeId) -> Self {
        Self {
            root,
            current: root,
            parent: root,
            resume: Resume::At(None),
            phase: 0,
            depth: 0,
            skip: false,
        }
    }

    fn skip_subtree(&mut self) {
        if self.phase == 1 {
            self.skip = true;
        }
    }

    fn current(&self) -> Option<NodeId> {
        matches!(self.phase, 1 | 2).then_some(self.current)
    }

    /// The next enter event's node: pre-order.
    fn next_enter(&mut self, graph: &Graph) -> Option<NodeIndex> {
        loop {
            if let Event::Enter(node) = self.next(graph)? {
                return Some(node);
            }
        }
    }

    fn finish(&mut self) -> Option<Event> {
        self.phase = 3;
        self.skip = false;
        None
    }

    fn enter(&mut self, graph: &Graph, node: NodeIndex, resume: Resume) -> Option<Event> {
        match graph.id_at(node) {
            Some(id) => {
                self.current = id;
                self.resume = resume;
                self.phase = 1;
                Some(Event::Enter(node))
            }
            None => self.finish(),
        }
    }

    fn next(&mut self, graph: &Graph) -> Option<Event> {
        if self.phase == 3 {
            return None;
        }
        let live = |n| graph.contains(n);
        if !(live(self.current) && live(self.root) && (self.depth == 0 || live(self.parent))) {
            return self.finish();
        }
        let node = self.current.index();
        let parent = self.parent.index();
        // Moved to another parent: left where the walk found it.
        let moved = self.depth > 0 && graph.parent_at(node) != Some(parent);
        match self.phase {
            0 => {
                self.phase = 1;
                Some(Event::Enter(node))
            }
            1 => {
                let skip = std::mem::take(&mut self.skip) || moved;
                if let Some(child) = graph.first_child_at(node).filter(|_| !skip) {
                    self.parent = self.current;
                    self.depth += 1;
                    return self.enter(graph, child, Resume::First);
                }
                self.phase = 2;
                Some(Event::Leave(node))
            }
            _ => {
                if self.depth == 0 {
                    return self.finish();
                }
                let kept = |n: &NodeIndex| graph.parent_at(*n) == Some(parent);
                let (sibling, resume) = if moved {
                    let sibling = match self.resume {
                        Resume::First => graph.first_child_at(parent),
                        Resume::After(before) => Some(before)
                            .filter(kept)
                            .and_then(|n| graph.next_sibling_at(n)),
                        Resume::At(next) => next.filter(kept),
                    };
                    let after = sibling.and_then(|s| graph.next_sibling_at(s));
                    (sibling, Resume::At(after))
                } else {
                    (graph.next_sibling_at(node), Resume::After(node))
                };
                if let Some(sibling) = sibling {
                    return self.enter(graph, sibling, resume);
                }
                // Back to the node it was entered from.
                let up = self.parent;
                let above = graph.parent_at(up.index()).and_then(|p| graph.id_at(p));
                (self.current, self.parent) = (up, above.unwrap_or(up));
                self.resume = Resume::At(graph.next_sibling_at(up.index()));
                self.depth -= 1;
                self.phase = 2;
                Some(Event::Leave(up.index()))
            }
        }
    }
}

/// Every live node of the graph.
fn live(graph: &Graph) -> Vec<NodeId> {
    (0..graph.capacity() as u32)
        .filter_map(|i| graph.id_at(NodeIndex::new(i)))
        .collect()
}

/// Steps two pairs of walkers (one pair stepping events, one pair pre-order nodes)
/// through `steps` random actions on `graph`, asserting after every step that the fast
/// walker agrees with the checked one.
fn run(seed: u64, nodes: usize, steps: usize) {
    let (graph, root, ids) = random_graph(nodes, seed);
    let mut rng = Rng(seed ^ 0x5EED);
    let top = if rng.below(3) == 0 {
        ids[rng.below(ids.len())]
    } else {
        root
    };
    let mut graph = graph;
    let mut spare = graph.clone();
    let (mut pre, mut pre_ref) = (DfsWalker::new(top), CheckedDfs::new(top));
    let (mut dfs, mut dfs_ref) = (DfsWalker::new(top), CheckedDfs::new(top));
    for _ in 0..steps {
        let nodes = live(&graph);
        let pick = |rng: &mut Rng| nodes.get(rng.below(nodes.len().max(1))).copied();
        match rng.below(16) {
            // Remove a node, often the current one, then likely reuse its slot.
            0 | 1 => {
                let victim = match rng.below(3) {
                    0 => pre.current(),
                    1 => dfs.current(),
                    _ => pick(&mut rng),
                };
                if let Some(victim) = victim {
                    let _ = if rng.below(2) == 0 {
                        graph.remove(victim).map(|_| 0)
                    } else {
                        graph.remove_subtree(victim)
                    };
                }
                if let Some(parent) = pick(&mut rng) {
                    let _ = graph.append_child(parent, Group);
                }
            }
            2 => {
                if let Some(parent) = pick(&mut rng) {
                    let _ = graph.append_child(parent, Group);
                }
            }
            // Move a node, often the current one, to a random place.
            3 => {
                let node = match rng.below(3) {
                    0 => pre.current(),
                    1 => dfs.current(),
                    _ => pick(&mut rng),
                };
                if let (Some(node), Some(parent)) = (node, pick(&mut rng)) {
                    let before = graph.children(parent).unwrap().nth(rng.below(3));
                    // A cycle (or `before == node`) is refused.
                    let _ = graph.set_parent(node, Some(parent), before);
                }
            }
            4 => {
                graph.compact().unwrap();
            }
            // Walk on in another graph: a clone (another uid, same revision), or the
            // earlier copy, then back.
            5 => {
                if rng.below(2) == 0 {
                    spare = graph.clone();
                }
                std::mem::swap(&mut graph, &mut spare);
            }
            6 => {
                pre.skip_subtree();
                pre_ref.skip_subtree();
                dfs.skip_subtree();
                dfs_ref.skip_subtree();
            }
            _ => {
                assert_eq!(pre.next_enter(&graph), pre_ref.next_enter(&graph));
                assert_eq!(pre.current(), pre_ref.current());
                assert_eq!(pre.depth(), pre_ref.depth);
                assert_eq!(dfs.next(&graph), dfs_ref.next(&graph));
                assert_eq!(dfs.is_done(), dfs_ref.phase == 3);
                assert_eq!(dfs.current(), dfs_ref.current());
                assert_eq!(dfs.depth(), dfs_ref.depth);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn fast_steps_agree_with_checked_steps(seed in any::<u64>(), nodes in 1usize..40) {
        run(seed, nodes, 300);
    }
}

/// root -> [a, b]
fn pair() -> (Graph, NodeId, NodeId, NodeId) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let a = graph.append_child(root, Group).unwrap();
    let b = graph.append_child(root, Group).unwrap();
    (graph, root, a, b)
}

#[test]
fn current_removed_and_slot_reused_in_place_ends_the_walk() {
    // The new node takes the same slot at the same place in the tree: only the
    // generation tells it from the removed one.
    let (mut graph, root, a, b) = pair();
    let mut pre = DfsWalker::new(root);
    let mut dfs = DfsWalker::new(root);
    assert_eq!(pre.next_enter(&graph), Some(root.index()));
    assert_eq!(pre.next_enter(&graph), Some(a.index()));
    dfs.next(&graph);
    assert_eq!(dfs.next(&graph), Some(Event::Enter(a.index())));
    graph.remove(a).unwrap();
    let reused = graph.insert_before(b, Group).unwrap();
    assert_eq!(reused.index(), a.index());
    assert_eq!(graph.first_child(root).unwrap(), Some(reused));
    assert_eq!(pre.next_enter(&graph), None);
    assert_eq!(dfs.next(&graph), None);
    assert!(pre.is_done() && dfs.is_done());
    // And it stays over.
    assert_eq!(pre.next_enter(&graph), None);
    assert_eq!(dfs.next(&graph), None);
}

#[test]
fn left_node_removed_and_reused_ends_the_walk() {
    let (mut graph, root, a, b) = pair();
    let mut dfs = DfsWalker::new(root);
    dfs.next(&graph);
    dfs.next(&graph);
    assert_eq!(dfs.next(&graph), Some(Event::Leave(a.index())));
    graph.remove(a).unwrap();
    assert_eq!(graph.insert_before(b, Group).unwrap().index(), a.index());
    assert_eq!(dfs.next(&graph), None);
}

#[test]
fn root_removed_and_reused_ends_the_walk() {
    let (mut graph, root, a, _) = pair();
    let mut pre = DfsWalker::new(root);
    let mut dfs = DfsWalker::new(root);
    pre.next_enter(&graph);
    pre.next_enter(&graph);
    dfs.next(&graph);
    dfs.next(&graph);
    // The root goes (its children move up) and a new root takes its slot.
    graph.remove(root).unwrap();
    let new_root = graph.add_root(Group);
    assert_eq!(new_root.index(), root.index());
    graph.set_parent(a, Some(new_root), None).unwrap();
    assert_eq!(pre.next_enter(&graph), None);
    assert_eq!(dfs.next(&graph), None);
}

#[test]
fn a_walk_resumed_in_a_clone_checks_the_clone() {
    let (mut graph, root, a, b) = pair();
    let mut pre = DfsWalker::new(root);
    pre.next_enter(&graph);
    assert_eq!(pre.next_enter(&graph), Some(a.index()));
    // Same revision, other graph: the walker must not trust its last check.
    let mut clone = graph.clone();
    assert_eq!(clone.revision(), graph.revision());
    clone.remove(a).unwrap();
    clone.insert_before(b, Group).unwrap();
    graph.append_child(root, Group).unwrap();
    graph.append_child(root, Group).unwrap();
    // Now both graphs are at the same revision again; `a` is live only in `graph`.
    assert_eq!(clone.revision(), graph.revision());
    let mut in_clone = pre;
    assert_eq!(in_clone.next_enter(&clone), None);
    assert_eq!(pre.next_enter(&graph), Some(b.index()));
}

#[test]
fn edits_that_keep_the_current_node_are_followed() {
    let (mut graph, root, a, b) = pair();
    let mut pre = DfsWalker::new(root);
    pre.next_enter(&graph);
    pre.next_enter(&graph);
    let a1 = graph.append_child(a, Group).unwrap();
    assert_eq!(pre.next_enter(&graph), Some(a1.index()));
    assert_eq!(pre.next_enter(&graph), Some(b.index()));
    assert_eq!(pre.next_enter(&graph), None);
}

#[test]
fn walkers_compare_by_position_not_by_cache() {
    let (graph, root, _, _) = pair();
    let clone = graph.clone();
    let (mut x, mut y) = (DfsWalker::new(root), DfsWalker::new(root));
    x.next(&graph);
    y.next(&clone);
    assert_eq!(x, y);
}

/// The borrowing iterators against the walker, with random skips, and
/// `DepthFirstIter::into_walker` handing over at a random event.
fn iterators_match_walkers(seed: u64, nodes: usize) {
    use scenewalk_iterators::Walk;
    let (graph, root, ids) = random_graph(nodes, seed);
    let mut rng = Rng(seed ^ 0xD1CE);
    let top = if rng.below(3) == 0 {
        ids[rng.below(ids.len())]
    } else {
        root
    };
    let skips: Vec<bool> = (0..4 * nodes + 8).map(|_| rng.below(4) == 0).collect();

    let (mut walker, mut iter) = (DfsWalker::new(top), graph.preorder(top).unwrap());
    for (step, &skip) in skips.iter().enumerate() {
        let node = walker.next_enter(&graph);
        assert_eq!(iter.next(), node, "pre-order step {step}");
        if node.is_none() {
            break;
        }
        if skip {
            walker.skip_subtree();
            iter.skip_subtree();
        }
    }
    assert_eq!(iter.next(), None);

    let hand_over = rng.below(2 * nodes + 2);
    let mut walker = DfsWalker::new(top);
    let mut iter = graph.depth_first(top).unwrap();
    for (step, &skip) in skips.iter().enumerate() {
        if step == hand_over {
            let resumed = iter.into_walker();
            assert_eq!(resumed, walker, "handed over at event {step}");
            let mut resumed = resumed;
            while let Some(event) = walker.next(&graph) {
                assert_eq!(resumed.next(&graph), Some(event));
                assert_eq!(resumed.depth(), walker.depth());
            }
            assert_eq!(resumed.next(&graph), None);
            return;
        }
        let event = walker.next(&graph);
        assert_eq!(iter.next(), event, "event {step}");
        assert_eq!(iter.depth(), walker.depth());
        if event.is_none() {
            assert_eq!(iter.next(), None);
            assert!(iter.into_walker().is_done());
            return;
        }
        if skip {
            walker.skip_subtree();
            iter.skip_subtree();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn borrowing_iterators_step_as_the_walkers(seed in any::<u64>(), nodes in 1usize..60) {
        iterators_match_walkers(seed, nodes);
    }
}

/// Walks `top` with a `DfsWalker`, moving the current node to a random place (another
/// parent in or out of the walked tree, a random position among its children, or out
/// of every tree) before some steps; the enters and leaves must nest, and the walk must
/// end with every entered node left.
fn moves_keep_the_events_nested(seed: u64, nodes: usize) {
    let (mut graph, root, ids) = random_graph(nodes, seed);
    let mut rng = Rng(seed ^ 0x30FE);
    let top = if rng.below(3) == 0 {
        ids[rng.below(ids.len())]
    } else {
        root
    };
    let mut walker = DfsWalker::new(top);
    let mut open: Vec<NodeIndex> = Vec::new();
    let mut moves = 0;
    for step in 0.. {
        assert!(step < 100 * (nodes + 10), "the walk ends");
        if moves < 30
            && rng.below(4) == 0
            && let Some(current) = walker.current()
        {
            let nodes = live(&graph);
            let parent = nodes[rng.below(nodes.len())];
            let before = graph.children(parent).unwrap().nth(rng.below(4));
            // A cycle (a parent inside the current node's subtree) is refused.
            let _ = match rng.below(8) {
                0 => graph.set_parent(current, None, None),
                _ => graph.set_parent(current, Some(parent), before),
            };
            moves += 1;
        }
        let Some(event) = walker.next(&graph) else {
            break;
        };
        match event {
            Event::Enter(node) => {
                open.push(node);
                assert_eq!(walker.depth() as usize + 1, open.len());
            }
            Event::Leave(node) => {
                assert_eq!(open.pop(), Some(node), "a leave closes the last enter");
                assert_eq!(walker.depth() as usize, open.len());
            }
        }
    }
    assert!(walker.is_done());
    assert_eq!(open, [], "every entered node is left");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_moved_current_node_keeps_enters_and_leaves_nested(seed in any::<u64>(), nodes in 1usize..40) {
        moves_keep_the_events_nested(seed, nodes);
    }
}
