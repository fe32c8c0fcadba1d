//! Values the library's own bookkeeping guarantees: a missing one is a broken invariant.

/// An `Option` that the library's bookkeeping guarantees to be `Some` (a slot of a table
/// it sized itself, a range it clamped): `None` is a bug, a panic naming `what` in debug
/// builds and tests, and the type's default in release builds, whose library code must
/// not panic. Never for a value a user may leave out.
#[doc(hidden)] // shared by the workspace's library crates, not an API
pub trait Invariant<T> {
    /// The value held; a debug assertion names `what` when it is missing.
    fn invariant(self, what: &str) -> T;
}

impl<T: Default> Invariant<T> for Option<T> {
    #[inline]
    #[track_caller]
    fn invariant(self, what: &str) -> T {
        debug_assert!(self.is_some(), "broken invariant: {what} is missing");
        self.unwrap_or_default()
    }
}
