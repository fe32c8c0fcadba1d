//! Ordered state kept by depth: copy on write, shared by siblings.

/// A state with the depth of the node that made it (`depth + 1`; 0 for the root state).
#[derive(Clone, Debug)]
struct Frame<S> {
    owner: u32,
    state: S,
}

/// One ordered actor's states along the current path of a pre-order traversal.
///
/// A node sees its parent's state and pushes a copy only if it changes it, so the
/// number of copies grows with the number of state changes, not of nodes.
#[derive(Clone, Debug)]
pub(crate) struct DepthStates<S> {
    frames: Vec<Frame<S>>,
    copies: u64,
}

impl<S> Default for DepthStates<S> {
    fn default() -> Self {
        Self {
            frames: Vec::new(),
            copies: 0,
        }
    }
}

impl<S: Clone> DepthStates<S> {
    /// Starts a run with the state above the root; keeps the buffer.
    pub(crate) fn reset(&mut self, root: S) {
        self.frames.clear();
        self.frames.push(Frame {
            owner: 0,
            state: root,
        });
        self.copies = 0;
    }

    /// A node at `depth` is about to be entered: drop the states of nodes at this
    /// depth or deeper (earlier siblings and their subtrees).
    #[inline]
    pub(crate) fn enter_depth(&mut self, depth: u32) {
        let owner = depth.saturating_add(1);
        while self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.owner >= owner) {
            self.frames.pop();
        }
    }

    /// The node at `depth` is left: drop its descendants' states and return its own.
    #[inline]
    pub(crate) fn leave_depth(&mut self, depth: u32) -> &S {
        let owner = depth.saturating_add(1);
        while self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.owner > owner) {
            self.frames.pop();
        }
        self.top()
    }

    #[inline]
    fn top(&self) -> &S {
        match self.frames.last() {
            Some(frame) => &frame.state,
            None => unreachable!("reset() always leaves the root frame"),
        }
    }

    /// The cell the actor entering a node at `depth` works through.
    #[inline]
    pub(crate) fn cell(&mut self, depth: u32) -> StateCell<'_, S> {
        StateCell {
            states: self,
            owner: depth.saturating_add(1),
        }
    }

    pub(crate) fn take_copies(&mut self) -> u64 {
        std::mem::take(&mut self.copies)
    }
}

/// An ordered actor's view of the state at the node it is entering: the parent's state
/// until [`make_mut`](StateCell::make_mut) makes this node its own copy.
#[derive(Debug)]
pub struct StateCell<'a, S> {
    states: &'a mut DepthStates<S>,
    owner: u32,
}

impl<S: Clone> StateCell<'_, S> {
    /// The state as it stands at this node.
    #[inline]
    pub fn get(&self) -> &S {
        self.states.top()
    }

    /// The state, writable: the first call at a node copies the parent's state (the
    /// copy the action counts in [`RunStats::state_copies`](crate::RunStats)), later
    /// calls at the same node reuse it.
    #[inline]
    pub fn make_mut(&mut self) -> &mut S {
        let frames = &mut self.states.frames;
        if frames.last().is_none_or(|f| f.owner != self.owner) {
            let state = self.states.top().clone();
            self.states.frames.push(Frame {
                owner: self.owner,
                state,
            });
            self.states.copies += 1;
        }
        let last = self.states.frames.len() - 1;
        &mut self.states.frames[last].state
    }

    /// Replaces the state at this node (no copy of the parent's is made).
    #[inline]
    pub fn set(&mut self, state: S) {
        if self
            .states
            .frames
            .last()
            .is_some_and(|f| f.owner == self.owner)
        {
            let last = self.states.frames.len() - 1;
            self.states.frames[last].state = state;
        } else {
            self.states.frames.push(Frame {
                owner: self.owner,
                state,
            });
            self.states.copies += 1;
        }
    }

    /// Whether this node has its own state (it changed it).
    pub fn is_own(&self) -> bool {
        self.states
            .frames
            .last()
            .is_some_and(|f| f.owner == self.owner)
    }
}
