//! Thread pools and flow-making actors shared by the parallel-run tests.
#![allow(dead_code)]

use scenewalk_core::{ActiveList, Flow, NodeIndex, StaticActor, Visit};
use std::sync::atomic::{AtomicU64, Ordering};

/// A rayon pool of `threads` threads.
pub fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// A fixed pseudo-random number per slot.
pub fn hash(node: NodeIndex) -> u64 {
    (node.raw() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40
}

/// Prunes some nodes, clears some lists, deactivates some children: the flows a
/// parallel run must honour above and below its split points.
pub struct Cull {
    pub seed: u64,
    /// Only nodes at least this deep are culled (a chain would be cut off early).
    pub from_depth: u32,
}

impl StaticActor for Cull {
    fn enter(&self, visit: &Visit<'_>, active: &mut ActiveList<'_>) -> Flow {
        if visit.depth() < self.from_depth {
            return Flow::Continue;
        }
        let h = hash(visit.node()) ^ self.seed;
        if h.is_multiple_of(23) {
            return Flow::Prune;
        }
        if h.is_multiple_of(29) {
            active.deactivate_all();
            return Flow::Continue;
        }
        active.retain(|child| !(hash(child) ^ self.seed).is_multiple_of(7));
        Flow::Continue
    }
}

/// Stops at one node; counts the enters.
pub struct StopAt(pub NodeIndex, pub AtomicU64);

impl StaticActor for StopAt {
    fn enter(&self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.1.fetch_add(1, Ordering::Relaxed);
        if visit.node() == self.0 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }
}
