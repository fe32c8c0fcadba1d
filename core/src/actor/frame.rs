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

/// The action's reference counts of live frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct FrameTable {
    refs: Vec<u32>,
    free: Vec<u32>,
}

impl FrameTable {
    /// Forgets every frame but [`Frame::ROOT`], held once (by the root's step).
    pub(crate) fn reset(&mut self) {
        self.refs.clear();
        self.free.clear();
        self.refs.push(1);
    }

    /// A new frame with no references yet.
    pub(crate) fn allocate(&mut self) -> Frame {
        match self.free.pop() {
            Some(f) => Frame(f),
            None => {
                self.refs.push(0);
                Frame((self.refs.len() - 1) as u32)
            }
        }
    }

    /// Records `count` references; returns whether the frame is unreferenced (and so
    /// free again).
    pub(crate) fn hold(&mut self, frame: Frame, count: u32) -> bool {
        if let Some(refs) = self.refs.get_mut(frame.get()) {
            *refs = count;
        }
        if count == 0 {
            self.free.push(frame.0);
            return true;
        }
        false
    }

    /// Drops one reference; returns whether that was the last (the frame is free again).
    pub(crate) fn drop_ref(&mut self, frame: Frame) -> bool {
        match self.refs.get_mut(frame.get()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                if *n == 0 {
                    self.free.push(frame.0);
                    return true;
                }
                false
            }
            _ => false,
        }
    }

    /// Releases every live frame, telling `actors` of each when given.
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

    /// How many frames are live.
    pub(crate) fn live(&self) -> usize {
        self.refs.len() - self.free.len()
    }
}
