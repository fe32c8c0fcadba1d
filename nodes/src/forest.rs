//! Trees as files list them (nodes by index, one parent each), walked without
//! recursion: the glTF node hierarchy and a URDF's links.

/// The nodes under `roots` in depth-first pre-order, each with its depth (0 for a root),
/// `children(n)` listing a node's children in order. With one parent per node, every
/// node is reached once.
pub(crate) fn preorder<I: DoubleEndedIterator<Item = usize>>(
    roots: &[usize],
    children: impl Fn(usize) -> I,
) -> Vec<(usize, u32)> {
    let mut order = Vec::new();
    let mut stack: Vec<(usize, u32)> = roots.iter().rev().map(|&r| (r, 0)).collect();
    while let Some((n, depth)) = stack.pop() {
        order.push((n, depth));
        stack.extend(children(n).rev().map(|c| (c, depth + 1)));
    }
    order
}

/// A node on a cycle, if `order` (the [`preorder`] from every root) misses one of the
/// `count` nodes: with one parent per node, a node no root reaches lies on or below a
/// cycle, and `count` steps up from it end on the cycle.
pub(crate) fn on_cycle(
    count: usize,
    order: &[(usize, u32)],
    parent: impl Fn(usize) -> Option<usize>,
) -> Option<usize> {
    let mut reached = vec![false; count];
    for &(n, _) in order {
        if let Some(r) = reached.get_mut(n) {
            *r = true;
        }
    }
    let start = reached.iter().position(|&r| !r)?;
    Some((0..count).fold(start, |n, _| parent(n).unwrap_or(n)))
}
