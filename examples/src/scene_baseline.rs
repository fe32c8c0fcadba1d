//! The tour's two passes written by hand, as one monolithic loop each: what the
//! actions are measured against, and checked against (they must give the same
//! results).
//!
//! - [`HandUpdate`]: world transforms, counts per type and world bounds in one
//!   explicit-stack walk (bounds merged into the parent on the way back up), then
//!   the skinned meshes' boxes from their joints, united into their ancestors';
//! - [`HandView`]: frustum culling with plane masks, level-of-detail and switch
//!   selection and the draw list with inherited materials, in one explicit-stack
//!   walk, then the same sort as [`RenderList`](scenewalk_actors::RenderList).
//!
//! Both read the graph through its public slot accessors and switch on the node's
//! type index with a table resolved once per call, as a hand-written loop over a
//! heterogeneous scene graph would.

use scenewalk_actors::DrawItem;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{Aabb, Graph, NodeIndex, NodeType};
use scenewalk_nodes::{
    Containment, Frustum, Geometry, Lod, Material, PlaneMask, SkinnedMesh, Switch, Transform,
};

/// What a node is to the hand-written loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Transform,
    Material,
    Skinned,
    Geometry,
    Lod,
    Switch,
    Other,
}

/// The node kind per type index, resolved once (types extending one of the known
/// types count as it, as the actors' dispatch does).
fn kinds(graph: &Graph) -> Vec<Kind> {
    let types = graph.types();
    let known = [
        (types.index_of::<Transform>(), Kind::Transform),
        (types.index_of::<Material>(), Kind::Material),
        // Before geometry, which it extends.
        (types.index_of::<SkinnedMesh>(), Kind::Skinned),
        (types.index_of::<Geometry>(), Kind::Geometry),
        (types.index_of::<Lod>(), Kind::Lod),
        (types.index_of::<Switch>(), Kind::Switch),
    ];
    types
        .iter()
        .map(|(ty, _)| {
            known
                .iter()
                .find(|(base, _)| base.is_some_and(|base| types.chain(ty).any(|t| t == base)))
                .map_or(Kind::Other, |(_, kind)| *kind)
        })
        .collect()
}

fn kind_of(kinds: &[Kind], ty: Option<NodeType>) -> Kind {
    ty.and_then(|t| kinds.get(t.get()).copied())
        .unwrap_or(Kind::Other)
}

/// World matrices, world boxes and node counts per type index, by slot.
#[derive(Clone, Debug, Default)]
pub struct HandUpdate {
    /// World transform per slot (identity for slots not reached).
    pub world: Vec<Affine3A>,
    /// World box of each node's subtree per slot.
    pub bounds: Vec<Aabb>,
    /// Nodes reached per type index.
    pub per_type: Vec<u64>,
    /// The skinned meshes reached, by slot, with their own world boxes: the
    /// conservative box posed by the joints' world matrices (joints under the root).
    pub skinned: Vec<(NodeIndex, Aabb)>,
    stack: Vec<(NodeIndex, bool)>,
    matrices: Vec<Affine3A>,
}

impl HandUpdate {
    /// Runs the update over the subtree of `root` (a root of the graph).
    pub fn run(&mut self, graph: &Graph, root: NodeIndex) {
        let kinds = kinds(graph);
        self.world.clear();
        self.world.resize(graph.capacity(), Affine3A::IDENTITY);
        self.bounds.clear();
        self.bounds.resize(graph.capacity(), Aabb::EMPTY);
        self.per_type.clear();
        self.per_type.resize(graph.types().len(), 0);
        self.skinned.clear();
        self.stack.clear();
        self.stack.push((root, false));
        while let Some((node, done)) = self.stack.pop() {
            let i = node.get();
            if done {
                if let Some(parent) = graph.parent_at(node).filter(|_| node != root) {
                    let merged = self.bounds[parent.get()].union(&self.bounds[i]);
                    self.bounds[parent.get()] = merged;
                }
                continue;
            }
            let ty = graph.type_at(node);
            if let Some(t) = ty {
                self.per_type[t.get()] += 1;
            }
            let above = match graph.parent_at(node).filter(|_| node != root) {
                Some(parent) => self.world[parent.get()],
                None => Affine3A::IDENTITY,
            };
            let world = match kind_of(&kinds, ty) {
                Kind::Transform => graph
                    .get_at::<Transform>(node)
                    .map_or(above, |t| above * *t.local()),
                _ => above,
            };
            self.world[i] = world;
            self.bounds[i] = match kind_of(&kinds, ty) {
                Kind::Geometry => graph
                    .get_at::<Geometry>(node)
                    .map_or(Aabb::EMPTY, |g| g.local_bounds().transformed(&world)),
                Kind::Skinned => {
                    // Boxed below, once every joint's world matrix is known.
                    self.skinned.push((node, Aabb::EMPTY));
                    Aabb::EMPTY
                }
                _ => Aabb::EMPTY,
            };
            self.stack.push((node, true));
            let first = self.stack.len();
            let mut child = graph.first_child_at(node);
            while let Some(c) = child {
                self.stack.push((c, false));
                child = graph.next_sibling_at(c);
            }
            self.stack[first..].reverse();
        }
        for (node, own) in &mut self.skinned {
            let Some(mesh) = graph.get_at::<SkinnedMesh>(*node) else {
                continue;
            };
            let world = |j: scenewalk_core::NodeId| self.world.get(j.index().get()).copied();
            if mesh
                .skin()
                .joint_matrices(world, &mut self.matrices)
                .is_ok()
            {
                *own = mesh
                    .conservative_bounds(&self.matrices)
                    .unwrap_or(Aabb::EMPTY);
            }
            let mut at = Some(*node);
            while let Some(n) = at {
                self.bounds[n.get()] = self.bounds[n.get()].union(own);
                at = graph.parent_at(n).filter(|_| n != root);
            }
        }
        self.skinned.sort_unstable_by_key(|s| s.0);
    }
}

/// One pending node of the view walk: its inherited plane mask, world matrix and
/// material.
#[derive(Clone, Copy, Debug)]
struct Pending {
    node: NodeIndex,
    mask: PlaneMask,
    world: Affine3A,
    material: Option<(NodeIndex, bool)>,
}

/// The view pass by hand: cull, level of detail, switch and draw list.
#[derive(Clone, Debug, Default)]
pub struct HandView {
    /// The draw list of the latest run, sorted as `RenderList` sorts.
    pub items: Vec<DrawItem>,
    /// Nodes entered in the latest run.
    pub entered: u64,
    stack: Vec<Pending>,
    children: Vec<Pending>,
}

impl HandView {
    /// Runs the view pass over `root`'s subtree: `bounds` are world subtree boxes by
    /// slot (from [`HandUpdate`]), `viewer` the camera position, `view` world to
    /// camera.
    pub fn run(
        &mut self,
        graph: &Graph,
        root: NodeIndex,
        frustum: &Frustum,
        bounds: &[Aabb],
        viewer: Vec3,
        view: &Affine3A,
    ) {
        let kinds = kinds(graph);
        self.items.clear();
        self.entered = 0;
        self.stack.clear();
        self.stack.push(Pending {
            node: root,
            mask: PlaneMask::ALL,
            world: Affine3A::IDENTITY,
            material: None,
        });
        while let Some(mut at) = self.stack.pop() {
            let node = at.node;
            self.entered += 1;
            let kind = kind_of(&kinds, graph.type_at(node));
            let own = bounds.get(node.get()).copied().unwrap_or(Aabb::EMPTY);
            let mut cull_children = true;
            if graph.first_child_at(node).is_some() && at.mask != PlaneMask::NONE {
                match frustum.classify(&own, at.mask) {
                    Containment::Outside => cull_children = false,
                    Containment::Visible(mask) => at.mask = mask,
                }
            }
            let mut lod_distance = f32::NAN;
            match kind {
                Kind::Transform => {
                    if let Some(t) = graph.get_at::<Transform>(node) {
                        at.world *= *t.local();
                    }
                }
                Kind::Material => {
                    if let Some(m) = graph.get_at::<Material>(node) {
                        at.material = Some((node, m.is_transparent()));
                    }
                }
                Kind::Geometry | Kind::Skinned => {
                    if let Some(g) = graph.get_at::<Geometry>(node) {
                        // A skinned mesh is drawn at its world box: a leaf in the
                        // scenes this loop runs on, so its subtree box.
                        let (geometry, world) = match kind {
                            Kind::Skinned => (
                                Geometry::try_new(own, g.primitives()).unwrap_or_else(|_| {
                                    Geometry::with_primitives(Aabb::EMPTY, g.primitives())
                                }),
                                Affine3A::IDENTITY,
                            ),
                            _ => (*g, at.world),
                        };
                        let center = geometry.local_bounds().transformed(&world).center();
                        self.items.push(DrawItem {
                            node,
                            geometry,
                            world,
                            material: at.material.map(|(m, _)| m),
                            transparent: at.material.is_some_and(|(_, t)| t),
                            depth: -view.transform_point3(center).z,
                        });
                    }
                }
                Kind::Lod => {
                    if let Some(lod) = graph.get_at::<Lod>(node) {
                        lod_distance = (at.world.transform_point3(lod.center()) - viewer).length();
                    }
                }
                Kind::Switch | Kind::Other => {}
            }
            if !cull_children {
                continue;
            }
            self.children.clear();
            let mut child = graph.first_child_at(node);
            let mut position = 0;
            while let Some(c) = child {
                let shown = match kind {
                    Kind::Lod => graph
                        .get_at::<Lod>(node)
                        .is_none_or(|lod| lod.shows(position, lod_distance)),
                    Kind::Switch => graph
                        .get_at::<Switch>(node)
                        .is_none_or(|s| s.is_on(position)),
                    _ => true,
                };
                let outside = shown
                    && at.mask != PlaneMask::NONE
                    && bounds
                        .get(c.get())
                        .is_some_and(|b| frustum.classify(b, at.mask) == Containment::Outside);
                if shown && !outside {
                    self.children.push(Pending { node: c, ..at });
                }
                child = graph.next_sibling_at(c);
                position += 1;
            }
            self.stack.extend(self.children.drain(..).rev());
        }
        self.items.sort_by(DrawItem::draw_order);
    }
}
