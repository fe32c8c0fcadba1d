//! Compaction: renumbering the arena into depth-first order after edits. Ids are not
//! kept valid through an indirection, which every walk would pay for: a [`Remap`]
//! costs only the callers that hold ids, once per compaction.

#![allow(
    clippy::indexing_slicing,
    reason = "slots of this arena or positions in its pre-order"
)]

use crate::error::GraphError;
use crate::graph::arena::{ColdLinks, FREE, HotLinks};
use crate::graph::id::NIL;
use crate::graph::{Graph, NodeId, NodeIndex};

/// One column's new order: the old payload slots in new node order, and their owners.
type ColumnOrder = (Vec<u32>, Vec<u32>);

/// How [`Graph::compact`] renumbered the nodes: old id → new id. A node that stayed in
/// its slot keeps its id; every other old id is stale in the compacted graph and never
/// names another node: map it through [`get`](Remap::get).
#[derive(Clone, Debug, Default)]
pub struct Remap {
    /// Per old slot: the generation of the node it held (of the slot, if free).
    old_generation: Vec<u32>,
    /// Per old slot: the node's new id; index `NIL` for a free slot.
    new_id: Vec<NodeId>,
    moved: usize,
}

impl Remap {
    /// The new id of the node `old` named before the compaction; `None` if `old` was
    /// not a live node then.
    pub fn get(&self, old: NodeId) -> Option<NodeId> {
        let slot = old.index as usize;
        let new = *self.new_id.get(slot)?;
        (new.index != NIL && self.old_generation.get(slot) == Some(&old.generation)).then_some(new)
    }

    /// The new slot of the node in slot `old` (`None` for a free or unknown slot): the
    /// map for per-node arrays.
    pub fn index(&self, old: NodeIndex) -> Option<NodeIndex> {
        let new = self.new_id.get(old.get())?;
        (new.index != NIL).then_some(NodeIndex(new.index))
    }

    /// How many nodes changed slot (and so id).
    pub fn moved(&self) -> usize {
        self.moved
    }
}

impl Graph {
    /// Renumbers the arena into depth-first order, the fast layout for walks: slot `i`
    /// then holds the `i`-th node of a pre-order walk of the roots in their slot order,
    /// the payload columns follow, free slots are dropped (`capacity() == len()`) and
    /// [`revision`](Graph::revision) moves on. O(capacity) time, no recursion, a second
    /// copy of the link arrays while it runs.
    ///
    /// A node that stays in its slot keeps its id (on a graph built depth-first with no
    /// removal, all do); every other gets a new one, given by the returned [`Remap`],
    /// and its old id reports [`GraphError::StaleNode`] from then on. Ids held by
    /// payloads are updated ([`NodeCore::remap_ids`](crate::NodeCore::remap_ids)); ids
    /// held elsewhere are the holder's to map. The change log is cleared
    /// ([`clear_changes`](Graph::clear_changes)), as its slots are renumbered.
    ///
    /// Errors: [`GraphError::GenerationsExhausted`] when a slot that would receive
    /// another node has used all its generations; the graph is then unchanged.
    pub fn compact(&mut self) -> Result<Remap, GraphError> {
        let order = self.preorder_slots();
        let len = order.len();
        let old_len = self.hot.len();
        let mut new_of = vec![NIL; old_len];
        for (k, &old) in order.iter().enumerate() {
            new_of[old as usize] = k as u32;
        }

        // Everything that can fail is decided before anything changes. A node that
        // stays keeps its generation; a slot another moves into takes one it never
        // issued, so no old id names the newcomer.
        let mut generations = Vec::with_capacity(len);
        for (k, &old) in order.iter().enumerate() {
            generations.push(if old as usize == k {
                self.generations[k]
            } else {
                self.unissued_generation(k as u32)? ^ self.id_key
            });
        }
        let mut fresh = self.fresh_generation;
        for slot in len..old_len {
            fresh = fresh.max(self.unissued_generation(slot as u32)?);
        }
        let (column_orders, payload_slots) = self.column_orders(&order);

        // `NIL` lies past every slot.
        let map = |raw: u32| new_of.get(raw as usize).copied().unwrap_or(NIL);
        let mut hot = Vec::with_capacity(len);
        let mut cold = Vec::with_capacity(len);
        for (k, &old) in order.iter().enumerate() {
            let (h, c) = (self.hot[old as usize], self.cold[old as usize]);
            hot.push(HotLinks {
                parent: map(h.parent),
                first_child: map(h.first_child),
                next_sibling: map(h.next_sibling),
                ty: h.ty,
            });
            cold.push(ColdLinks {
                prev_sibling: map(c.prev_sibling),
                last_child: map(c.last_child),
                slot: payload_slots[k],
            });
        }
        for (ty, order) in column_orders.into_iter().enumerate() {
            if let Some((slots, owners)) = order
                && let Some(column) = self.column_mut(ty)
            {
                let reordered = column.reorder(&slots, owners);
                debug_assert!(reordered, "column {ty} out of step with its nodes");
            }
        }

        let mut moved = 0;
        let new_id = new_of
            .iter()
            .enumerate()
            .map(|(old, &new)| {
                moved += usize::from(new != NIL && new as usize != old);
                let generation = generations.get(new as usize).copied().unwrap_or(0);
                NodeId {
                    index: new,
                    generation,
                }
            })
            .collect();
        let old_generation = std::mem::replace(&mut self.generations, generations);

        self.hot = hot;
        self.cold = cold;
        self.free_head = NIL;
        self.fresh_generation = fresh;
        self.revision += 1;
        // Logged slots named the old numbering: readers must start over.
        self.clear_changes();
        let remap = Remap {
            old_generation,
            new_id,
            moved,
        };
        // Payloads that hold ids (a skin's joints) follow their nodes.
        if moved > 0 {
            for ty in 0..self.columns.len() {
                if let Some(column) = self.column_mut(ty) {
                    column.remap_ids(&remap);
                }
            }
        }
        Ok(remap)
    }

    /// Whether the arena is in the layout [`compact`](Graph::compact) leaves: no free
    /// slot, and slot `i` holds the `i`-th node in pre-order (roots in slot order).
    pub fn is_compact(&self) -> bool {
        self.live == self.hot.len()
            && self
                .preorder_slots()
                .iter()
                .enumerate()
                .all(|(k, &slot)| k == slot as usize)
    }

    /// Every live slot in pre-order, roots in slot order; stackless.
    fn preorder_slots(&self) -> Vec<u32> {
        let mut order = Vec::with_capacity(self.live);
        for root in self.roots().map(NodeId::index) {
            let walk = std::iter::successors(Some(root), |&n| self.next_preorder_at(n, root));
            order.extend(walk.map(NodeIndex::raw));
        }
        order
    }

    /// The lowest generation slot `slot` has never issued (unmixed: not as stored).
    fn unissued_generation(&self, slot: u32) -> Result<u32, GraphError> {
        let generation = self.generations[slot as usize] ^ self.id_key;
        // A free slot's generation was bumped on release and never handed out.
        let next = if self.hot[slot as usize].ty == FREE {
            generation
        } else {
            generation.saturating_add(1)
        };
        // `u32::MAX` marks a retired slot (see `release`): never hand it out.
        if next == u32::MAX {
            return Err(GraphError::GenerationsExhausted { slot });
        }
        Ok(next)
    }

    /// Per column (`None`: zero-sized type), the old payload slots in new node order
    /// with their new owners; per new node, its payload slot.
    fn column_orders(&self, order: &[u32]) -> (Vec<Option<ColumnOrder>>, Vec<u32>) {
        let mut columns: Vec<Option<ColumnOrder>> = self
            .columns
            .iter()
            .map(|c| c.as_ref().filter(|c| c.stores_per_node()))
            .map(|c| c.map(|c| (Vec::with_capacity(c.len()), Vec::with_capacity(c.len()))))
            .collect();
        let mut payload_slots = Vec::with_capacity(order.len());
        for (k, &old) in order.iter().enumerate() {
            let ty = self.hot[old as usize].ty as usize;
            let slot = self.cold[old as usize].slot;
            match columns.get_mut(ty).and_then(Option::as_mut) {
                Some((slots, owners)) => {
                    payload_slots.push(slots.len() as u32);
                    slots.push(slot);
                    owners.push(k as u32);
                }
                _ => payload_slots.push(slot),
            }
        }
        (columns, payload_slots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct M(u32);
    impl crate::graph::NodeCore for M {}

    /// A slot at the last usable generation cannot take a moved node: the compaction
    /// fails and leaves the graph as it was.
    #[test]
    fn exhausted_generations_fail_cleanly() {
        let mut g = Graph::new();
        let root = g.add_root(M(0));
        let a = g.append_child(root, M(1)).unwrap();
        let b = g.append_child(root, M(2)).unwrap();
        let a1 = g.append_child(a, M(3)).unwrap(); // slot 3, pre-order position 2
        g.generations[b.index as usize] = (u32::MAX - 1) ^ g.id_key;
        let b = g.id_of(b.index);
        let revision = g.revision();
        assert_eq!(
            g.compact().unwrap_err(),
            GraphError::GenerationsExhausted { slot: 2 }
        );
        assert_eq!(g.revision(), revision);
        assert_eq!(g.get::<M>(b).unwrap(), &M(2));
        assert_eq!(g.get::<M>(a1).unwrap(), &M(3));
        assert!(!g.is_compact());
    }
}
