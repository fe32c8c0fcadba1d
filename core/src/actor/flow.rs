//! What an actor tells the traversal to do next.

/// The control flow an actor returns from `enter`.
///
/// Actors run in chain order; the traversal combines their answers:
/// - every actor says `Continue`: the node's still-active children are traversed;
/// - one says `Prune`: the rest of the chain still enters the node (so each actor that
///   entered it also gets its leave), but every child is deactivated first;
/// - one says `Stop`: no further actor is called and the traversal ends at once, with
///   no more enter or leave calls. The next run starts clean.
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
