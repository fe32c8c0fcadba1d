//! Traversals with `DepthFirst`, compared with a recursive reference walk of a model
//! built alongside random trees: order, nesting, flow control, active lists and actor
//! chains. (Type filters, ordered state and finding actors: `traversal_state.rs`.)

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod walk_model;

use scenewalk_core::DepthFirst;
use scenewalk_core::{Action, Actor, NodeId, NodeIndex, Ordered, Static, Unordered};
use std::sync::{Arc, Mutex};
use walk_model::*;

// ----- order, nesting, active lists --------------------------------------------------------

#[test]
fn preorder_and_nesting_match_reference_on_random_trees() {
    let mut rng = Rng::new(1);
    let mut enter_only =
        Action::new(DepthFirst::new(), (Unordered::new(EnterTrace::default()),)).unwrap();
    let mut with_leave =
        Action::new(DepthFirst::new(), (Unordered::new(Trace::default()),)).unwrap();
    for case in 0..60 {
        let n = 1 + rng.below(300);
        let t = Tree::random(&mut rng, n);
        // From the root, and from a random inner node.
        for from in [t.root, t.nodes[rng.below(t.nodes.len())]] {
            let stats = enter_only.run(&t.g, from).unwrap();
            let want = t.expected(from, &Opts::default());
            let got = &enter_only.actor::<EnterTrace>().unwrap().0;
            assert_eq!(got.events, want, "case {case}");
            assert_eq!(
                (stats.entered, stats.left, stats.pruned),
                (want.len() as u64, 0, 0)
            );

            // Odd cases never look at the active list.
            let lazy = case % 2 == 1;
            with_leave.actor_mut::<Trace>().unwrap().opts.lazy = lazy;
            let stats = with_leave.run(&t.g, from).unwrap();
            let opts = Opts {
                leaves: true,
                ..Opts::default()
            };
            let want = t.expected(from, &opts);
            let trace = with_leave.actor::<Trace>().unwrap();
            assert_eq!(trace.events, want, "case {case}");
            assert_nested(&trace.events);
            assert_eq!(stats.entered, count_enters(&want));
            assert_eq!(stats.left, stats.entered);
            // Each node's active list is its children, in document order, all active.
            for shown in &trace.shown {
                let id = shown.id;
                let kids: Vec<NodeIndex> = t.kids[&id].iter().map(|k| k.index()).collect();
                let want_shown = (!lazy).then_some((kids.clone(), true));
                assert_eq!(shown.active, want_shown, "active list of {id:?}");
                assert_eq!(shown.is_leaf, kids.is_empty());
                assert_eq!(shown.parent, t.parent[&id].map(NodeId::index));
                assert_eq!(shown.value, t.value.get(&id).copied(), "payload of {id:?}");
            }
        }
    }
}

#[test]
fn prune_and_deactivate_skip_exactly_those_subtrees() {
    let mut rng = Rng::new(2);
    for case in 0..60 {
        let n = 1 + rng.below(300);
        let t = Tree::random(&mut rng, n);
        let opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let mut action = Action::new(
            DepthFirst::new(),
            (Unordered::new(Trace::new(opts.clone())),),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        let trace = action.actor::<Trace>().unwrap();
        assert_eq!(trace.events, want, "case {case}");
        assert_nested(&trace.events);
        let pruned = want
            .iter()
            .filter(|e| matches!(e, Ev::Enter(id, _) if opts.prune.contains(id)))
            .count() as u64;
        assert_eq!(stats.pruned, pruned);
        assert_eq!(
            (stats.entered, stats.left),
            (count_enters(&want), count_enters(&want))
        );

        // The same under an enter-only actor.
        let mut action = Action::new(
            DepthFirst::new(),
            (Unordered::new(EnterTrace(Trace::new(opts.clone()))),),
        )
        .unwrap();
        action.run(&t.g, t.root).unwrap();
        let want = t.expected(
            t.root,
            &Opts {
                leaves: false,
                ..opts
            },
        );
        assert_eq!(
            action.actor::<EnterTrace>().unwrap().0.events,
            want,
            "case {case}"
        );
    }
}

#[test]
fn stop_ends_at_once_and_the_next_run_is_clean() {
    let mut rng = Rng::new(3);
    for case in 0..40 {
        let n = 1 + rng.below(200);
        let t = Tree::random(&mut rng, n);
        let mut opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let full = count_enters(&t.expected(t.root, &opts)) as usize;
        let k = 1 + rng.below(full);
        opts.stop_at = Some(k);
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Unordered::new(Trace::new(opts.clone())),
                Ordered::new(PathSum::<true>::new(&t, &mut rng)),
            ),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        let trace = action.actor::<Trace>().unwrap();
        assert_eq!(trace.events, want, "case {case}: stop at {k}");
        assert!(stats.stopped);
        assert_eq!(stats.entered, k as u64);
        assert_eq!(
            stats.left,
            want.iter().filter(|e| matches!(e, Ev::Leave(..))).count() as u64
        );
        // The ordered actor was not called for the node that stopped.
        let sums = action.actor::<PathSum<true>>().unwrap();
        assert_eq!(sums.seen.len(), k - 1);
        sums.check(&t, false);

        // Same action, no stop: a complete, correct run.
        action.actor_mut::<Trace>().unwrap().opts.stop_at = None;
        let stats = action.run(&t.g, t.root).unwrap();
        opts.stop_at = None;
        let want = t.expected(t.root, &opts);
        assert_eq!(
            action.actor::<Trace>().unwrap().events,
            want,
            "case {case}: rerun"
        );
        assert!(!stats.stopped);
        assert_eq!(stats.entered, count_enters(&want));
        let sums = action.actor::<PathSum<true>>().unwrap();
        assert_eq!(sums.seen.len(), want.len() / 2);
        sums.check(&t, true);
    }
}

// ----- actor chains ----------------------------------------------------------------------

#[test]
fn chain_calls_in_order_at_enter_and_in_reverse_at_leave() {
    let mut rng = Rng::new(4);
    let t = Tree::random(&mut rng, 120);
    let mut want = Vec::new();
    let opts = Opts {
        leaves: true,
        ..Opts::default()
    };
    for ev in t.expected(t.root, &opts) {
        match ev {
            Ev::Enter(id, _) => {
                want.extend(["a", "b", "c"].map(|a| format!("+{a}{}", id.index().get())))
            }
            Ev::Leave(id, _) => {
                want.extend(["c", "b", "a"].map(|a| format!("-{a}{}", id.index().get())))
            }
        }
    }

    let log = Log::default();
    let mut tuple = Action::new(
        DepthFirst::new(),
        (
            Static::new(StaticLog("a", log.clone())),
            Unordered::new(UnorderedLog("b", log.clone())),
            Ordered::new(OrderedLog("c", log.clone())),
        ),
    )
    .unwrap();
    let stats = tuple.run(&t.g, t.root).unwrap();
    assert_eq!(*log.lock().unwrap(), want);

    let boxed = Arc::new(Mutex::new(Vec::new()));
    let chain: Vec<Box<dyn Actor>> = vec![
        Box::new(Static::new(StaticLog("a", boxed.clone()))),
        Box::new(Unordered::new(UnorderedLog("b", boxed.clone()))),
        Box::new(Ordered::new(OrderedLog("c", boxed.clone()))),
    ];
    let mut dynamic = Action::new(DepthFirst::new(), chain).unwrap();
    assert_eq!(dynamic.run(&t.g, t.root).unwrap(), stats);
    assert_eq!(*boxed.lock().unwrap(), want);
}

#[test]
fn prune_from_first_actor_still_enters_second_with_no_active_children() {
    let mut rng = Rng::new(5);
    for case in 0..30 {
        let n = 1 + rng.below(150);
        let t = Tree::random(&mut rng, n);
        let opts = Opts::random(&t, &mut rng, true).lazy(case % 2 == 1);
        let mut action = Action::new(
            DepthFirst::new(),
            (
                Unordered::new(Trace::new(opts.clone())),
                Unordered::new(SeesActive::default()),
            ),
        )
        .unwrap();
        let stats = action.run(&t.g, t.root).unwrap();
        let want = t.expected(t.root, &opts);
        let second = action.actor::<SeesActive>().unwrap();
        let entered: Vec<NodeId> = want
            .iter()
            .filter_map(|e| match e {
                Ev::Enter(id, _) => Some(*id),
                _ => None,
            })
            .collect();
        let seen: Vec<NodeId> = second.seen.iter().map(|s| s.0).collect();
        assert_eq!(seen, entered, "case {case}");
        for &(id, active, len) in &second.seen {
            let kids = &t.kids[&id];
            assert_eq!(len, kids.len());
            let want_active = if opts.prune.contains(&id) {
                0
            } else {
                kids.iter().filter(|k| !opts.deactivate.contains(k)).count()
            };
            assert_eq!(active, want_active, "case {case}: node {id:?}");
        }
        // Leaves come in reverse-chain order, so the second actor's are the same nodes.
        let mut left = second.left.clone();
        left.sort();
        let mut entered = entered;
        entered.sort();
        assert_eq!(left, entered);
        assert_eq!(
            stats.pruned as usize,
            second
                .seen
                .iter()
                .filter(|s| opts.prune.contains(&s.0))
                .count()
        );
    }
}
