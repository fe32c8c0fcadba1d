//! What an actor tells the traversal to do next.

/// The control flow an actor returns from `enter`, combined along the chain: all
/// `Continue`, the still-active children are traversed; a `Prune` deactivates every
/// child, and the rest of the chain still enters (and leaves) the node; a `Stop` ends
/// the traversal at once, with no more enter or leave calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Flow {
    /// Go on with the active children.
    #[default]
    Continue,
    /// Skip this node's children (the node itself is entered, and left).
    Prune,
    /// End the traversal now.
    Stop,
}
