//! Per-type payload columns: each node type's payloads in one contiguous `Vec`.

use crate::graph::NodeCore;
use downcast_rs::{Downcast, impl_downcast};
use dyn_clone::{DynClone, clone_trait_object};

/// One node type's payloads, type-erased so the graph can hold a column per type.
pub(crate) trait ErasedColumn: Downcast + DynClone + Send + Sync + std::fmt::Debug {
    /// Removes the payload in `slot`; returns the node whose payload moved into `slot`.
    fn swap_remove(&mut self, slot: u32) -> Option<u32>;
    fn get(&self, slot: u32) -> Option<&dyn NodeCore>;
    fn get_mut(&mut self, slot: u32) -> Option<&mut dyn NodeCore>;
    /// How many payloads the column stores (a zero-sized type stores at most one).
    fn len(&self) -> usize;
    /// Whether each node has its own payload slot (zero-sized types share slot 0).
    fn stores_per_node(&self) -> bool;
    /// Puts the payload in slot `order[k]` into slot `k`, owned by `owners[k]`; `false`
    /// (and nothing changed) unless `order` is a permutation of the slots.
    fn reorder(&mut self, order: &[u32], owners: Vec<u32>) -> bool;
    /// [`NodeCore::remap_ids`] on every payload.
    fn remap_ids(&mut self, remap: &crate::graph::Remap);
}
impl_downcast!(ErasedColumn);
clone_trait_object!(ErasedColumn);

/// Payloads of type `T`, dense, with the node that owns each (a zero-sized type: one
/// shared value).
#[derive(Debug)]
pub(crate) struct Column<T> {
    /// Every payload, by slot.
    pub(crate) items: Vec<T>,
    owners: Vec<u32>,
}

impl<T: NodeCore> Clone for Column<T> {
    fn clone(&self) -> Self {
        Self {
            items: self.items.iter().map(dyn_clone::clone).collect(),
            owners: self.owners.clone(),
        }
    }
}

impl<T: NodeCore> Column<T> {
    pub(crate) fn new() -> Self {
        Self {
            items: Vec::new(),
            owners: Vec::new(),
        }
    }

    const ZERO_SIZED: bool = std::mem::size_of::<T>() == 0;

    /// Stores a payload for `owner`; returns its slot.
    pub(crate) fn push(&mut self, owner: u32, value: T) -> u32 {
        if Self::ZERO_SIZED {
            if self.items.is_empty() {
                self.items.push(value);
            }
            return 0;
        }
        self.items.push(value);
        self.owners.push(owner);
        (self.items.len() - 1) as u32
    }
}

impl<T: NodeCore> ErasedColumn for Column<T> {
    fn remap_ids(&mut self, remap: &crate::graph::Remap) {
        self.items.iter_mut().for_each(|item| item.remap_ids(remap));
    }

    fn swap_remove(&mut self, slot: u32) -> Option<u32> {
        if Self::ZERO_SIZED {
            return None;
        }
        let slot = slot as usize;
        if slot >= self.items.len() {
            return None;
        }
        self.items.swap_remove(slot);
        self.owners.swap_remove(slot);
        self.owners.get(slot).copied()
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn stores_per_node(&self) -> bool {
        !Self::ZERO_SIZED
    }

    fn reorder(&mut self, order: &[u32], owners: Vec<u32>) -> bool {
        let len = self.items.len();
        if Self::ZERO_SIZED || order.len() != len || owners.len() != len {
            return Self::ZERO_SIZED;
        }
        let mut done = vec![false; len];
        for &slot in order {
            match done.get_mut(slot as usize) {
                Some(seen @ false) => *seen = true,
                _ => return false,
            }
        }
        // Follow each cycle of the permutation with swaps: nothing cloned or allocated.
        done.fill(false);
        for start in 0..len {
            if done.get(start) != Some(&false) {
                continue;
            }
            let mut at = start;
            while let (Some(seen), Some(&from)) = (done.get_mut(at), order.get(at)) {
                *seen = true;
                let from = from as usize;
                if from == start {
                    break;
                }
                self.items.swap(at, from);
                at = from;
            }
        }
        self.owners = owners;
        true
    }

    fn get(&self, slot: u32) -> Option<&dyn NodeCore> {
        self.items.get(slot as usize).map(|v| v as &dyn NodeCore)
    }

    fn get_mut(&mut self, slot: u32) -> Option<&mut dyn NodeCore> {
        self.items
            .get_mut(slot as usize)
            .map(|v| v as &mut dyn NodeCore)
    }
}
