//! Random children lists, valid or not, against a brute-force reading of glTF's rule
//! that nodes form disjoint strict trees.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::{doc, import};
use proptest::prelude::*;
use scenewalk_nodes::gltf::GltfError;
use serde_json::json;

/// What is wrong with `children` by brute force: out-of-range children, nodes listed
/// more than once, nodes on a cycle (their own child, or reached again by following
/// parents).
struct Faults {
    out_of_range: Vec<usize>,
    listed_twice: Vec<usize>,
    on_cycle: Vec<usize>,
}

fn faults(children: &[Vec<usize>]) -> Faults {
    let n = children.len();
    let out_of_range = children
        .iter()
        .flatten()
        .copied()
        .filter(|&c| c >= n)
        .collect();
    let listed_twice = (0..n)
        .filter(|&c| children.iter().flatten().filter(|&&x| x == c).count() > 1)
        .collect();
    // With any parent of each node, a node whose parent chain is longer than n lies
    // on or below a cycle; the cycle's own nodes reach themselves.
    let parent: Vec<Option<usize>> = (0..n)
        .map(|c| children.iter().position(|cs| cs.contains(&c)))
        .collect();
    let on_cycle = (0..n)
        .filter(|&start| {
            if children[start].contains(&start) {
                return true; // its own child
            }
            let mut at = parent[start];
            (0..=n).any(|_| match at {
                Some(p) if p == start => true,
                Some(p) => {
                    at = parent[p];
                    false
                }
                None => false,
            })
        })
        .collect();
    Faults {
        out_of_range,
        listed_twice,
        on_cycle,
    }
}

/// Pre-order with depths, by recursion (small inputs only).
fn preorder(children: &[Vec<usize>], node: usize, depth: u32, out: &mut Vec<(usize, u32)>) {
    out.push((node, depth));
    for &c in &children[node] {
        preorder(children, c, depth + 1, out);
    }
}

proptest! {
    #[test]
    fn hierarchies_match_brute_force(
        children in (1usize..24).prop_flat_map(|n| {
            prop::collection::vec(prop::collection::vec(0..n + 1, 0..3), n)
        }),
        // Bias towards valid forests: children only of later nodes, each once.
        forest in any::<bool>(),
    ) {
        let n = children.len();
        let children: Vec<Vec<usize>> = if forest {
            let mut taken = vec![false; n];
            children
                .iter()
                .enumerate()
                .map(|(p, cs)| {
                    cs.iter()
                        .map(|&c| p + 1 + c % (n - p).max(1))
                        .filter(|&c| c < n && !std::mem::replace(&mut taken[c], true))
                        .collect()
                })
                .collect()
        } else {
            children
        };
        let f = faults(&children);
        let is_child = |c: usize| children.iter().flatten().any(|&x| x == c);
        let roots: Vec<usize> = (0..n).filter(|&c| !is_child(c)).collect();
        let nodes: Vec<_> = children.iter().map(|cs| json!({"children": cs})).collect();
        let result = import(&doc(json!(nodes), json!([{"nodes": roots}])));
        let valid = f.out_of_range.is_empty() && f.listed_twice.is_empty() && f.on_cycle.is_empty();
        match result {
            Ok(imported) => {
                prop_assert!(valid, "imported an invalid hierarchy {children:?}");
                let mut expected = vec![];
                for &r in &roots {
                    preorder(&children, r, 0, &mut expected);
                }
                let got: Vec<_> = imported
                    .order
                    .iter()
                    .map(|&i| (i, imported.node(i).unwrap().depth))
                    .collect();
                prop_assert_eq!(got, expected);
            }
            Err(GltfError::IndexOutOfRange { index, .. }) => {
                prop_assert!(f.out_of_range.contains(&index))
            }
            Err(GltfError::TwoParents { node, .. }) => prop_assert!(f.listed_twice.contains(&node)),
            Err(GltfError::Cycle { node }) => prop_assert!(f.on_cycle.contains(&node)),
            Err(e) => prop_assert!(false, "unexpected {e:?} for {children:?}"),
        }
    }
}
