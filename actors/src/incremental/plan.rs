//! The patch plan: what a payload-only patch reads of every node of the last full
//! run, in pre-order, so a changed subtree is one contiguous stretch of it.

use super::spans::Spans;
use super::subtree::{Kinds, Types};
use crate::world::WorldMatrices;
use crate::{PerNode, WorldTransforms};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Graph, NodeIndex};
use scenewalk_nodes::{Geometry, Transform};

/// Neither a transform nor geometry, or a skinned mesh (boxed after the passes).
const OTHER: u8 = 0;
/// A node that is exactly a [`Transform`].
const TRANSFORM: u8 = 1;
/// A node that is exactly a [`Geometry`].
const GEOMETRY: u8 = 2;
/// A type extending either (but a skinned mesh): its payload is looked up by node.
const EXTENDED: u8 = 3;
/// Depths are kept above the kind's two bits.
const DEPTHS: u32 = 1 << 30;

/// One node of the plan, 16 bytes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Step {
    node: u32,
    /// The depth below the run's root << 2 | the kind.
    depth_kind: u32,
    /// The world state: the matrix a transform owns, the one any other node shares.
    state: u32,
    /// The payload's position in its type's column (transforms and geometry).
    payload: u32,
}

impl Step {
    #[inline(always)]
    fn depth(self) -> u32 {
        self.depth_kind >> 2
    }

    #[inline(always)]
    fn kind(self) -> u8 {
        (self.depth_kind & 3) as u8
    }

    #[inline(always)]
    pub(super) fn node(self) -> NodeIndex {
        NodeIndex::new(self.node)
    }
}

/// The plan of the latest full run.
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    steps: Vec<Step>,
    /// Whether it covers every node of the run (see [`usable`](Self::usable)).
    usable: bool,
    /// Whether it describes the latest full run (a full run renumbers the nodes).
    pub(super) built: bool,
    /// The graph's revision when written: a structural edit since may have moved
    /// payloads in their columns (removing a root logs no change, yet moves one).
    revision: u64,
}

impl Plan {
    /// Writes the plan from the full run's spans and world states; `kinds` resolved.
    pub(super) fn build(
        &mut self,
        graph: &Graph,
        spans: &Spans,
        world: &WorldTransforms,
        kinds: &Types,
    ) {
        let types = graph.types();
        let transform = types.index_of::<Transform>();
        let geometry = types.index_of::<Geometry>();
        let (transforms, geometries) = (&kinds.transforms, &kinds.geometries);
        // The kind of each registered type.
        let kind_of: Vec<u8> = types
            .iter()
            .map(|(ty, _)| match Some(ty) {
                t if t == transform => TRANSFORM,
                t if t == geometry => GEOMETRY,
                _ if kinds.skinned.contains(ty) && !transforms.contains(ty) => OTHER,
                _ if transforms.contains(ty) || geometries.contains(ty) => EXTENDED,
                _ => OTHER,
            })
            .collect();
        self.steps.clear();
        self.steps.resize(spans.count as usize, Step::default());
        self.usable = true;
        let mut placed = 0usize;
        for (node, span) in spans.iter() {
            let kind = graph
                .type_at(node)
                .and_then(|ty| kind_of.get(ty.get()).copied())
                .unwrap_or(EXTENDED);
            let payload = match kind {
                TRANSFORM | GEOMETRY => graph.payload_slot_at(node),
                _ => Some(0),
            };
            let state = world.world.value_at(node);
            match (self.steps.get_mut(span.pre as usize), payload, state) {
                (Some(step), Some(payload), Some(state)) if span.depth < DEPTHS => {
                    *step = Step {
                        node: node.raw(),
                        depth_kind: span.depth << 2 | u32::from(kind),
                        state,
                        payload,
                    };
                    placed += 1;
                }
                _ => self.usable = false,
            }
        }
        // Every pre-order number taken once: the spans are those of one run.
        self.usable &= placed == self.steps.len();
        self.built = true;
        self.revision = graph.revision();
    }

    /// The steps from pre-order number `pre` to `end` (excluded).
    #[inline]
    pub(super) fn steps(&self, pre: u32, end: u32) -> Option<&[Step]> {
        self.steps.get(pre as usize..end as usize)
    }

    /// Whether the plan is built, covers every node of the run (depths in range) and its
    /// payload positions still hold for `graph` (no structural edit since it was written).
    pub(super) fn usable(&self, graph: &Graph) -> bool {
        self.built && self.usable && self.revision == graph.revision()
    }
}

/// One open node of a replay: its state and its box so far.
#[derive(Clone, Copy, Debug)]
pub(super) struct Open {
    node: u32,
    state: u32,
    acc: Aabb,
}

/// The state above the subtree `steps`: a transform's parent's (also for a type
/// extending `Transform` or `Geometry`, whose parent's state is its own unless it is a
/// transform), another node's own.
#[inline]
pub(super) fn state_above(steps: &[Step], graph: &Graph, index: &PerNode<u32>) -> Option<u32> {
    let top = steps.first()?;
    if top.kind() != TRANSFORM && top.kind() != EXTENDED {
        return Some(top.state);
    }
    index.value_at(graph.parent_at(top.node())?)
}

/// Recomputes the world matrices and boxes of the subtree `steps` (a node and its
/// descendants, in pre-order) below state `above`, as the update's chain does: children's
/// boxes merged in child order, as `Bounds` does, so the boxes are a full run's bit
/// for bit. Returns the top's box; `None` for a non-finite matrix or a plan that does
/// not fit.
pub(super) fn replay<'g>(
    graph: &'g Graph,
    steps: &[Step],
    above: u32,
    kinds: &Kinds<'g>,
    matrices: &mut WorldMatrices,
    boxes: &mut PerNode<Aabb>,
    open: &mut Vec<Open>,
) -> Option<Aabb> {
    let (transforms, geometries) = (kinds.transform, kinds.geometry);
    open.clear();
    let base = steps.first()?.depth();
    for (i, &step) in steps.iter().enumerate() {
        let depth = step.depth();
        let level = depth.wrapping_sub(base) as usize;
        // The nodes at this level or deeper are finished: a step's depth is one
        // more than its parent's, which is the open node at level - 1.
        while open.len() > level {
            let done = open.pop()?;
            boxes.overwrite(NodeIndex::new(done.node), done.acc);
            let parent = open.last_mut()?;
            parent.acc = parent.acc.union(&done.acc);
        }
        if open.len() != level {
            return None;
        }
        let parent = open.last().map_or(above, |o| o.state);
        let (state, acc) = match step.kind() {
            GEOMETRY => {
                let geometry = geometries.get(step.payload as usize)?;
                let world = matrices.get(parent);
                (parent, geometry.local_bounds().transformed(&world))
            }
            OTHER => (parent, Aabb::EMPTY),
            kind => {
                // One call of `write` (it stays inlined): a transform's, or that of a
                // type extending `Transform` or `Geometry`, whose box its own matrix places.
                let (local, geometry) = match kind {
                    TRANSFORM => (Some(transforms.get(step.payload as usize)?.local()), None),
                    _ => extended(graph, step.node(), kinds)?,
                };
                let state = match local {
                    Some(local) => matrices.write(step.state, parent, local)?,
                    None => parent,
                };
                let acc = geometry.map_or(Aabb::EMPTY, |g: &Geometry| {
                    g.local_bounds().transformed(&matrices.get(state))
                });
                (state, acc)
            }
        };
        if steps.get(i + 1).is_some_and(|next| next.depth() > depth) {
            open.push(Open {
                node: step.node,
                state,
                acc,
            });
            continue;
        }
        // A leaf is finished at once: a frame pushed and popped at once stalled the
        // loop on store-to-load forwarding.
        boxes.overwrite(step.node(), acc);
        match open.last_mut() {
            Some(parent) => parent.acc = parent.acc.union(&acc),
            None => return Some(acc),
        }
    }
    while let Some(done) = open.pop() {
        boxes.overwrite(NodeIndex::new(done.node), done.acc);
        match open.last_mut() {
            Some(parent) => parent.acc = parent.acc.union(&done.acc),
            None => return Some(done.acc),
        }
    }
    None
}

/// The local matrix and geometry of a node whose type extends `Transform` or `Geometry`
/// (a robot's joints), found through the graph; out of line, as rare outside robots.
#[inline(never)]
fn extended<'g>(
    graph: &'g Graph,
    node: NodeIndex,
    kinds: &Kinds<'g>,
) -> Option<(Option<&'g Affine3A>, Option<&'g Geometry>)> {
    let ty = graph.type_at(node)?;
    Some((
        kinds.local(graph, node, ty),
        kinds.geometry(graph, node, ty),
    ))
}

// That the plan replays each node's own payload and place: `tests/incremental.rs`.
#[cfg(test)]
mod tests {
    use crate::IncrementalUpdate;
    use scenewalk_core::Graph;
    use scenewalk_core::glam::{Affine3A, Vec3};
    use scenewalk_nodes::{Group, Transform};

    /// Small patches after a full run do not pay for the plan; once the patches
    /// since the full run re-walk a third of the tree, one builds it; the next
    /// full run forgets it.
    #[test]
    fn the_plan_is_built_once_patches_re_walk_a_third_of_the_tree() {
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let big = graph.append_child(root, Transform::IDENTITY).unwrap();
        let mut leaf = big;
        for _ in 0..99 {
            leaf = graph.append_child(big, Transform::IDENTITY).unwrap();
        }
        for _ in 0..100 {
            graph.append_child(root, Group).unwrap();
        }
        let built = |u: &IncrementalUpdate| u.action.0.actors().1.get().plan.built;
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        let set = |graph: &mut Graph, node, x: f32| {
            graph
                .get_mut::<Transform>(node)
                .unwrap()
                .set_local(Affine3A::from_translation(Vec3::X * x));
        };
        // 201 nodes: a third is 67.
        for k in 0..66 {
            set(&mut graph, leaf, k as f32);
            assert!(!update.run(&graph, root).unwrap().full);
            assert!(!built(&update));
        }
        set(&mut graph, leaf, 11.0);
        update.run(&graph, root).unwrap();
        assert!(built(&update));
        update.run_full(&graph, root).unwrap();
        assert!(!built(&update));
        set(&mut graph, big, 1.0);
        update.run(&graph, root).unwrap();
        assert!(built(&update));
        assert_eq!(update.world(&graph, leaf).unwrap().translation.x, 12.0);
    }

    /// A joint type extending `Transform` (a robot's), as `tests/incremental.rs` has it.
    #[derive(Clone, Debug)]
    struct Joint(Transform);
    impl scenewalk_core::NodeCore for Joint {
        fn base(&self) -> Option<&dyn scenewalk_core::NodeCore> {
            Some(&self.0)
        }
        fn parent_type() -> Option<scenewalk_core::ParentType> {
            Some(scenewalk_core::ParentType::of::<Transform>())
        }
    }

    /// Types extending `Transform` keep the plan usable: a robot's patches replay it,
    /// and come out as a full run's.
    #[test]
    fn the_plan_covers_types_extending_transform() {
        use scenewalk_core::Aabb;
        use scenewalk_nodes::Geometry;
        let mut graph = Graph::new();
        let root = graph.add_root(Group);
        let (mut parent, mut joints) = (root, Vec::new());
        for k in 0..6 {
            let joint = Joint(Transform::from_translation(Vec3::X * k as f32));
            parent = graph.append_child(parent, joint).unwrap();
            let unit = Aabb::new(Vec3::ZERO, Vec3::ONE);
            graph.append_child(parent, Geometry::new(unit)).unwrap();
            joints.push(parent);
        }
        let mut update = IncrementalUpdate::new();
        update.run(&graph, root).unwrap();
        for (k, &joint) in joints.iter().enumerate().rev() {
            let m = Affine3A::from_translation(Vec3::Y * (k as f32 + 0.5));
            graph.get_mut::<Joint>(joint).unwrap().0.set_local(m);
            assert!(!update.run(&graph, root).unwrap().full);
        }
        let plan = &update.action.0.actors().1.get().plan;
        assert!(plan.usable(&graph), "the patches replayed the plan");
        let mut full = IncrementalUpdate::new();
        full.run(&graph, root).unwrap();
        for &node in &joints {
            assert_eq!(update.world(&graph, node), full.world(&graph, node));
            let bounds = update.world_bounds(&graph, node);
            assert_eq!(bounds, full.world_bounds(&graph, node));
        }
    }
}
