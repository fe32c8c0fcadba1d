//! Frames: saved ordered states that pending nodes share (priority-style orders).

/// Names the ordered states saved after a node was entered, for
/// [`OrderedState::Copies`](crate::OrderedState::Copies) iterators: the action gives one
/// to [`commit`](crate::TraversalIterator::commit), which hands it back with each
/// child's step. Each ordered actor maps it to a state version. The default is
/// [`Frame::ROOT`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Frame(pub(crate) u32);

impl Frame {
    /// The states above the traversal root, which the root's enter step carries.
    pub const ROOT: Frame = Frame(0);

    /// The frame's number (dense, reused after release).
    pub fn get(self) -> usize {
        self.0 as usize
    }
}

/// Reference counts of numbered slots, each reused once its count falls to zero: the
/// action's frames, and each ordered actor's state versions.
#[derive(Clone, Debug, Default)]
pub(crate) struct RefCounts {
    refs: Vec<u32>,
    free: Vec<u32>,
}

impl RefCounts {
    pub(crate) const EMPTY: Self = Self {
        refs: Vec::new(),
        free: Vec::new(),
    };

    /// Forgets every slot; with `held`, slot 0 is live with that many references.
    pub(crate) fn reset(&mut self, held: Option<u32>) {
        self.refs.clear();
        self.free.clear();
        self.refs.extend(held);
    }

    /// A slot with no references yet: a free one, else the next number.
    pub(crate) fn allocate(&mut self) -> u32 {
        self.free.pop().unwrap_or_else(|| {
            self.refs.push(0);
            (self.refs.len() - 1) as u32
        })
    }

    /// Adds `count` references to slot `i`; returns whether it is unreferenced: a slot
    /// fresh from `allocate` given none, which is free again.
    pub(crate) fn hold(&mut self, i: u32, count: u32) -> bool {
        if let Some(refs) = self.refs.get_mut(i as usize) {
            *refs += count;
        }
        if count == 0 {
            self.free.push(i);
            return true;
        }
        false
    }

    /// Drops one reference; returns whether that was the last (the slot is free again).
    /// Only the step from one reference to none frees: a drop too many (a misbehaving
    /// iterator) must not put a slot on the free list twice.
    #[inline]
    pub(crate) fn drop_ref(&mut self, i: u32) -> bool {
        match self.refs.get_mut(i as usize) {
            Some(n) if *n > 0 => {
                *n -= 1;
                if *n == 0 {
                    self.free.push(i);
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    /// Frees every slot (frame), telling `actors` of each live one when given.
    pub(crate) fn release_all<A>(
        &mut self,
        mut actors: Option<&mut A>,
        release: fn(&mut A, Frame),
    ) {
        const FREE: u32 = u32::MAX;
        for &f in &self.free {
            if let Some(refs) = self.refs.get_mut(f as usize) {
                *refs = FREE;
            }
        }
        self.free.clear();
        for (i, refs) in self.refs.iter_mut().enumerate() {
            if *refs != FREE
                && let Some(actors) = actors.as_deref_mut()
            {
                release(actors, Frame(i as u32));
            }
            *refs = 0;
            self.free.push(i as u32);
        }
    }

    /// How many slots are live.
    pub(crate) fn live(&self) -> usize {
        self.refs.len() - self.free.len()
    }
}
