//! Ordered state: copy on write, shared by siblings, kept by depth or by frame.

use crate::actor::Frame;
use crate::actor::frame::RefCounts;
use crate::invariant::Invariant;
use crate::run::OrderedState;

/// A state with the depth of the node that made it (`depth + 1`; 0 for the root state).
#[derive(Clone, Debug)]
struct Level<S> {
    owner: u32,
    state: S,
}

const NONE: u32 = u32::MAX;

/// One ordered actor's state versions, shared between frames by reference count.
#[derive(Clone, Debug)]
pub(crate) struct VersionStates<S> {
    slots: Vec<Option<S>>,
    refs: RefCounts,
    /// The version each live frame names (`NONE`: never saved).
    frame_version: Vec<u32>,
    /// The version the node being entered (or left) starts from.
    current: u32,
    /// The version this node made by writing, if any.
    own: Option<u32>,
}

impl<S> VersionStates<S> {
    const EMPTY: Self = Self {
        slots: Vec::new(),
        refs: RefCounts::EMPTY,
        frame_version: Vec::new(),
        current: 0,
        own: None,
    };

    /// Forgets every version; with a `root`, starts a run from it.
    fn reset(&mut self, root: Option<S>) {
        self.slots.clear();
        self.frame_version.clear();
        (self.current, self.own) = (0, None);
        // Frame::ROOT's reference, and one that pins the root state for the run, so an
        // iterator that misuses frames falls back to it, not to a released one.
        self.refs.reset(root.is_some().then_some(2));
        if let Some(root) = root {
            self.slots.push(Some(root));
            self.frame_version.push(0);
        }
    }

    pub(crate) fn restore(&mut self, frame: Frame) {
        self.current = self
            .frame_version
            .get(frame.get())
            .copied()
            .invariant("frame version");
        self.own = None;
    }

    pub(crate) fn save(&mut self, frame: Frame) {
        let version = self.own.unwrap_or(self.current);
        if self.frame_version.len() <= frame.get() {
            self.frame_version.resize(frame.get() + 1, NONE);
        }
        if let Some(v) = self.frame_version.get_mut(frame.get()) {
            *v = version;
        }
        self.refs.hold(version, 1);
    }

    pub(crate) fn release(&mut self, frame: Frame) {
        let Some(&version) = self.frame_version.get(frame.get()) else {
            return;
        };
        if self.refs.drop_ref(version)
            && let Some(slot) = self.slots.get_mut(version as usize)
        {
            *slot = None;
        }
    }

    #[inline]
    fn get(&self) -> Option<&S> {
        let v = self.own.unwrap_or(self.current);
        self.slots
            .get(v as usize)
            .and_then(Option::as_ref)
            .or_else(|| self.slots.first().and_then(Option::as_ref))
    }

    fn store(&mut self, state: S) -> u32 {
        let v = self.refs.allocate();
        match self.slots.get_mut(v as usize) {
            Some(slot) => *slot = Some(state),
            None => self.slots.push(Some(state)),
        }
        v
    }
}

/// One ordered actor's states for a run, in the form the iterator calls for.
#[derive(Clone, Debug)]
pub(crate) struct OrderedStates<S> {
    mode: OrderedState,
    /// The states along the current path of a pre-order traversal.
    depth: Vec<Level<S>>,
    /// The state versions of [`OrderedState::Copies`] runs, the only ones with frames.
    pub(crate) versions: VersionStates<S>,
    pub(crate) copies: u64,
}

impl<S> Default for OrderedStates<S> {
    fn default() -> Self {
        Self {
            mode: OrderedState::DepthStack,
            depth: Vec::new(),
            versions: VersionStates::EMPTY,
            copies: 0,
        }
    }
}

impl<S: Clone> OrderedStates<S> {
    /// Starts a run with the state above the root; keeps the buffers.
    pub(crate) fn reset(&mut self, mode: OrderedState, root: S) {
        self.mode = mode;
        self.copies = 0;
        self.depth.clear();
        match mode {
            OrderedState::Copies => self.versions.reset(Some(root)),
            _ => {
                self.versions.reset(None);
                self.depth.push(Level {
                    owner: 0,
                    state: root,
                });
            }
        }
    }

    #[inline]
    pub(crate) fn before_enter(&mut self, depth: u32) {
        if self.mode != OrderedState::Copies {
            self.pop_below(depth, false);
        }
    }

    #[inline]
    pub(crate) fn cell(&mut self, depth: u32) -> StateCell<'_, S> {
        StateCell {
            owner: depth.saturating_add(1),
            states: self,
        }
    }

    /// The node's own state at its leave (`None` before the first reset).
    #[inline]
    pub(crate) fn at_leave(&mut self, depth: u32) -> Option<&S> {
        match self.mode {
            OrderedState::Copies => self.versions.get(),
            _ => self.pop_below(depth, true),
        }
    }

    /// Drops the states of nodes deeper than `depth`, and also at `depth` unless
    /// `at_leave` (where the top is then the node's own).
    #[inline]
    fn pop_below(&mut self, depth: u32, at_leave: bool) -> Option<&S> {
        let min = depth.saturating_add(1 + u32::from(at_leave));
        while self.depth.len() > 1 && self.depth.last().is_some_and(|l| l.owner >= min) {
            self.depth.pop();
        }
        self.depth.last().map(|l| &l.state)
    }

    /// The copies of the run.
    pub(crate) fn take_copies(&mut self) -> u64 {
        std::mem::take(&mut self.copies)
    }

    /// The state as it stands (`None` before the first reset).
    #[inline]
    pub(crate) fn current(&self) -> Option<&S> {
        match self.mode {
            OrderedState::Copies => self.versions.get(),
            _ => self.depth.last().map(|l| &l.state),
        }
    }

    /// The state of a [`StateCell`]: one exists only after a reset.
    #[inline]
    #[allow(clippy::unreachable, reason = "the root state stays until a reset")]
    fn get(&self) -> &S {
        match self.current() {
            Some(state) => state,
            None => unreachable!("a StateCell exists only after its run's reset"),
        }
    }

    #[inline(always)]
    fn is_own(&self, owner: u32) -> bool {
        match self.mode {
            OrderedState::Copies => self.versions.own.is_some(),
            _ => self.depth.last().is_some_and(|l| l.owner == owner),
        }
    }

    /// Makes the node's own state from `state`.
    #[inline(always)]
    fn push_own(&mut self, owner: u32, state: S) {
        self.copies += 1;
        match self.mode {
            OrderedState::Copies => self.versions.own = Some(self.versions.store(state)),
            _ => self.depth.push(Level { owner, state }),
        }
    }

    #[inline(always)]
    #[allow(clippy::unreachable, reason = "a state was just pushed")]
    fn own_mut(&mut self) -> &mut S {
        let state = match self.mode {
            OrderedState::Copies => {
                let own = self.versions.own.unwrap_or(NONE) as usize;
                self.versions.slots.get_mut(own).and_then(Option::as_mut)
            }
            _ => self.depth.last_mut().map(|l| &mut l.state),
        };
        match state {
            Some(state) => state,
            None => unreachable!("own_mut follows push_own"),
        }
    }
}

/// An ordered actor's view of the state at the node it is entering: the parent's state
/// until [`make_mut`](StateCell::make_mut) or [`set`](StateCell::set) gives this node
/// its own.
#[derive(Debug)]
pub struct StateCell<'a, S> {
    states: &'a mut OrderedStates<S>,
    owner: u32,
}

impl<S: Clone> StateCell<'_, S> {
    /// The state as it stands at this node.
    #[inline]
    pub fn get(&self) -> &S {
        self.states.get()
    }

    /// The state, writable: the first call at a node copies the parent's (counted in
    /// [`RunStats::state_copies`](crate::RunStats)), later ones reuse the copy.
    #[inline]
    pub fn make_mut(&mut self) -> &mut S {
        if !self.states.is_own(self.owner) {
            let copy = self.states.get().clone();
            self.states.push_own(self.owner, copy);
        }
        self.states.own_mut()
    }

    /// Replaces the state at this node without cloning the parent's (counted as a copy
    /// if the node had no state of its own).
    // Always inlined: left to the compiler, the fused run loop called it out of line.
    #[inline(always)]
    pub fn set(&mut self, state: S) {
        if self.states.is_own(self.owner) {
            *self.states.own_mut() = state;
        } else {
            self.states.push_own(self.owner, state);
        }
    }

    /// Whether this node has its own state (it changed it).
    pub fn is_own(&self) -> bool {
        self.states.is_own(self.owner)
    }
}
