//! Structural edits: add, insert, reparent (with cycle check), remove.

#![allow(
    clippy::indexing_slicing,
    reason = "checked slots or live links; out of range is a bug"
)]

use crate::error::GraphError;
use crate::graph::arena::{ColdLinks, HotLinks};
use crate::graph::id::NIL;
use crate::graph::{Change, Column, Graph, NodeCore, NodeId, NodeIndex};

/// The largest number of slots the arena hands out; `NIL` is reserved.
pub(crate) const MAX_SLOTS: usize = (u32::MAX - 1) as usize;

impl Graph {
    /// Adds a node with no parent.
    ///
    /// # Panics
    /// Where [`try_add_root`](Graph::try_add_root) returns an error.
    #[allow(clippy::panic, reason = "documented; try_add_root is fallible")]
    pub fn add_root<T: NodeCore>(&mut self, payload: T) -> NodeId {
        self.try_add_root(payload)
            .unwrap_or_else(|err| panic!("{err}"))
    }

    /// Adds a node with no parent, or reports why it cannot (as every adding call): a
    /// full arena ([`GraphError::Full`]), or a type whose declared parent types loop or
    /// disagree with its [`base`](NodeCore::base) ([`GraphError::Type`]).
    pub fn try_add_root<T: NodeCore>(&mut self, payload: T) -> Result<NodeId, GraphError> {
        self.add(payload, NIL, NIL)
    }

    /// Adds a node as the last child of `parent`.
    pub fn append_child<T: NodeCore>(
        &mut self,
        parent: NodeId,
        payload: T,
    ) -> Result<NodeId, GraphError> {
        let p = self.check(parent)?;
        self.add(payload, p, NIL)
    }

    /// Adds a node just before `sibling`, under the same parent.
    pub fn insert_before<T: NodeCore>(
        &mut self,
        sibling: NodeId,
        payload: T,
    ) -> Result<NodeId, GraphError> {
        let s = self.check(sibling)?;
        let p = self.hot[s as usize].parent;
        if p == NIL {
            return Err(GraphError::NoParent(sibling));
        }
        self.add(payload, p, s)
    }

    /// Moves `node` (with its subtree) under `new_parent`, before `before` or, with
    /// `before = None`, as the last child. `new_parent = None` makes it a root.
    ///
    /// Moving a node under itself or one of its descendants is a [`GraphError::Cycle`]
    /// (an O(depth) check). On any error the graph is unchanged.
    pub fn set_parent(
        &mut self,
        node: NodeId,
        new_parent: Option<NodeId>,
        before: Option<NodeId>,
    ) -> Result<(), GraphError> {
        let n = self.check(node)?;
        let p = match new_parent {
            Some(parent) => self.check(parent)?,
            None => NIL,
        };
        let b = match before {
            Some(b) => {
                let bi = self.check(b)?;
                if p == NIL {
                    return Err(GraphError::BeforeWithoutParent { node, before: b });
                }
                if self.hot[bi as usize].parent != p {
                    return Err(GraphError::NotAChild {
                        parent: self.id_of(p),
                        before: b,
                    });
                }
                bi
            }
            None => NIL,
        };
        if p != NIL && self.path_up(NodeIndex(p)).any(|up| up.0 == n) {
            return Err(GraphError::Cycle {
                node,
                new_parent: self.id_of(p),
            });
        }
        if b == n {
            return Ok(()); // "before itself": already in place
        }
        let old_parent = self.hot[n as usize].parent;
        self.unlink(n);
        self.link(n, p, b);
        self.restructured(old_parent);
        self.record(Change::Placed(NodeIndex(n)));
        Ok(())
    }

    /// Removes one node; its children take its place in its parent's child list, in
    /// order (a removed root's children become roots).
    pub fn remove(&mut self, node: NodeId) -> Result<(), GraphError> {
        let n = self.check(node)?;
        let parent = self.hot[n as usize].parent;
        let next = self.hot[n as usize].next_sibling;
        let mut child = self.hot[n as usize].first_child;
        while child != NIL {
            let following = self.hot[child as usize].next_sibling;
            self.unlink(child);
            self.link(child, parent, next);
            // Its path lost the removed node (perhaps a transform).
            self.record(Change::Placed(NodeIndex(child)));
            child = following;
        }
        self.unlink(n);
        self.release(n);
        self.restructured(parent);
        Ok(())
    }

    /// Removes a node and all its descendants (iteratively); returns how many.
    pub fn remove_subtree(&mut self, node: NodeId) -> Result<usize, GraphError> {
        let n = self.check(node)?;
        let parent = self.hot[n as usize].parent;
        self.unlink(n);
        // Post-order without a stack: go down first children; free a leaf and step
        // back to its parent, whose next first child is the freed leaf's sibling.
        let mut removed = 0;
        let mut current = n;
        loop {
            let hot = self.hot[current as usize];
            if hot.first_child != NIL {
                current = hot.first_child;
                continue;
            }
            self.unlink(current);
            self.release(current);
            removed += 1;
            if current == n {
                break;
            }
            current = hot.parent;
        }
        self.restructured(parent);
        Ok(removed)
    }

    /// Adds a node under `parent` (`NIL`: a root), before `before` (`NIL`: last).
    fn add<T: NodeCore>(
        &mut self,
        payload: T,
        parent: u32,
        before: u32,
    ) -> Result<NodeId, GraphError> {
        let index = self.allocate(payload)?;
        self.link(index, parent, before);
        self.revision += 1;
        self.record(Change::Placed(NodeIndex(index)));
        Ok(self.id_of(index))
    }

    /// Takes a slot and stores the payload; the node is unlinked.
    #[allow(clippy::unreachable, reason = "a type's column holds that type")]
    fn allocate<T: NodeCore>(&mut self, payload: T) -> Result<u32, GraphError> {
        let ty = self.types.register::<T>()?;
        self.types.check_base(ty, &payload)?;
        let ty = ty.get();
        let index = if self.free_head != NIL {
            let index = self.free_head;
            self.free_head = self.cold[index as usize].slot;
            index
        } else {
            if self.hot.len() >= MAX_SLOTS {
                return Err(GraphError::Full(self.hot.len()));
            }
            self.hot.push(HotLinks::FREE);
            self.cold.push(ColdLinks::EMPTY);
            self.generations.push(self.fresh_generation ^ self.id_key);
            (self.hot.len() - 1) as u32
        };
        if self.columns.len() <= ty {
            self.columns.resize_with(ty + 1, || None);
        }
        if self.columns[ty].is_none() {
            self.columns[ty] = Some(std::sync::Arc::new(Column::<T>::new()));
            self.column_key = crate::graph::types::fresh_uid();
        }
        let slot = match self
            .column_mut(ty)
            .and_then(|c| c.downcast_mut::<Column<T>>())
        {
            Some(column) => column.push(index, payload),
            None => unreachable!("column {ty} holds another type"),
        };
        self.hot[index as usize] = HotLinks {
            ty: ty as u32,
            ..HotLinks::FREE
        };
        self.cold[index as usize] = ColdLinks {
            slot,
            ..ColdLinks::EMPTY
        };
        self.live += 1;
        Ok(index)
    }

    /// Frees an unlinked node's slot and payload.
    fn release(&mut self, index: u32) {
        let i = index as usize;
        let ty = self.hot[i].ty as usize;
        let slot = self.cold[i].slot;
        if let Some(column) = self.column_mut(ty)
            && let Some(moved) = column.swap_remove(slot)
        {
            self.cold[moved as usize].slot = slot;
            // Readers that index by payload position must see the moved payload.
            self.record(Change::Payload(NodeIndex(moved)));
        }
        let generation = (self.generations[i] ^ self.id_key).wrapping_add(1);
        self.generations[i] = generation ^ self.id_key;
        self.cold[i] = ColdLinks::EMPTY;
        self.hot[i] = HotLinks::FREE;
        // A slot whose generation would wrap is retired, so no id aliases a later node.
        if generation != u32::MAX {
            self.cold[i].slot = self.free_head;
            self.free_head = index;
        }
        self.live -= 1;
    }

    /// A structural edit changed the child list of `parent` (`NIL`: none).
    fn restructured(&mut self, parent: u32) {
        self.revision += 1;
        if parent != NIL {
            self.record(Change::Children(NodeIndex(parent)));
        }
    }

    /// Links an unlinked node under `parent` (`NIL`: leaves it a root), before
    /// `before` (or last).
    fn link(&mut self, n: u32, parent: u32, before: u32) {
        if parent == NIL {
            return;
        }
        let prev = if before == NIL {
            self.cold[parent as usize].last_child
        } else {
            self.cold[before as usize].prev_sibling
        };
        self.hot[n as usize].parent = parent;
        self.hot[n as usize].next_sibling = before;
        self.cold[n as usize].prev_sibling = prev;
        if prev == NIL {
            self.hot[parent as usize].first_child = n;
        } else {
            self.hot[prev as usize].next_sibling = n;
        }
        if before == NIL {
            self.cold[parent as usize].last_child = n;
        } else {
            self.cold[before as usize].prev_sibling = n;
        }
    }

    /// Takes a node out of its parent's child list; its subtree stays attached to it.
    fn unlink(&mut self, n: u32) {
        let HotLinks {
            parent,
            next_sibling: next,
            ..
        } = self.hot[n as usize];
        let prev = self.cold[n as usize].prev_sibling;
        if parent == NIL {
            return;
        }
        if prev == NIL {
            self.hot[parent as usize].first_child = next;
        } else {
            self.hot[prev as usize].next_sibling = next;
        }
        if next == NIL {
            self.cold[parent as usize].last_child = prev;
        } else {
            self.cold[next as usize].prev_sibling = prev;
        }
        self.hot[n as usize].parent = NIL;
        self.hot[n as usize].next_sibling = NIL;
        self.cold[n as usize].prev_sibling = NIL;
    }
}
