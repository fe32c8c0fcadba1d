//! The render list: per-type functors collecting draw items with inherited state.

use crate::per_node::{FORKS, Spares};
use crate::shared::put;
use crate::{BoundsTable, WorldTable};
use scenewalk_core::Invariant;
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    Aabb, ActiveList, Dispatch, Flow, Functor, MethodTable, NodeCore, NodeIndex, OrderedActor,
    RunContext, StateCell, TraversalError, Visit,
};
use scenewalk_nodes::{Camera, Geometry, Light, Material};
use std::sync::Arc;

const NO_MATERIAL: u32 = u32::MAX;

/// The render list's ordered state: what a node passes down to its subtree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderState {
    /// Index of the current material in the run's material table (`u32::MAX`: none).
    pub material: u32,
}

/// One thing to draw, at `geometry.local_bounds().transformed(&world)`; a skinned mesh
/// at its world box from its joints ([`BoundsTable::skinned_at`]; empty if not finite)
/// with the mesh's primitive count, `world` the identity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawItem {
    /// The node that asked for it.
    pub node: NodeIndex,
    /// What to draw: local box and primitive count.
    pub geometry: Geometry,
    /// The node's world transform (the identity for a skinned mesh).
    pub world: Affine3A,
    /// The inherited material's node, if any.
    pub material: Option<NodeIndex>,
    /// Whether it is drawn after the opaque items, back to front.
    pub transparent: bool,
    /// Distance in front of the camera of the world box's centre (view-space −z).
    pub depth: f32,
}

impl DrawItem {
    /// The order [`Sorting::ByDepth`] draws in: opaque items front to back, then
    /// transparent ones back to front, ties by node slot.
    pub fn draw_order(a: &DrawItem, b: &DrawItem) -> std::cmp::Ordering {
        a.transparent
            .cmp(&b.transparent)
            .then_with(|| {
                let near_first = a.depth.total_cmp(&b.depth);
                if a.transparent {
                    near_first.reverse()
                } else {
                    near_first
                }
            })
            .then_with(|| a.node.cmp(&b.node))
    }
}

/// A light with its world placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LightItem {
    /// The light's node.
    pub node: NodeIndex,
    /// The light.
    pub light: Light,
    /// Its position (the node's world origin).
    pub position: Vec3,
    /// Where it points (the node's world −z), unit length when the transform allows.
    pub direction: Vec3,
}

/// A camera with its world placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraItem {
    /// The camera's node.
    pub node: NodeIndex,
    /// The camera.
    pub camera: Camera,
    /// Its node's world transform.
    pub world: Affine3A,
}

/// What the render list's functors work on: the current node, its world transform,
/// its inherited material and the lists being built (a new type's functor calls
/// [`draw`](RenderContext::draw) or sets a material as the built-in ones do).
#[derive(Clone, Debug)]
pub struct RenderContext {
    view: Affine3A,
    state: RenderState,
    node: NodeIndex,
    /// The update pass's results, held from `root_state` to `end`.
    world: Option<Arc<WorldTable>>,
    bounds: Option<Arc<BoundsTable>>,
    materials: Vec<(NodeIndex, bool)>,
    items: Vec<DrawItem>,
    lights: Vec<LightItem>,
    cameras: Vec<CameraItem>,
    /// In a worker: the parent's list lengths at the fork; in the parent: entries merged.
    marks: [usize; 3],
}

impl RenderContext {
    fn new(view: Affine3A) -> Self {
        Self {
            view,
            state: RenderState {
                material: NO_MATERIAL,
            },
            node: NodeIndex::new(0),
            world: None,
            bounds: None,
            materials: Vec::new(),
            items: Vec::new(),
            lights: Vec::new(),
            cameras: Vec::new(),
            marks: [0; 3],
        }
    }

    fn reset(&mut self, material_above: Option<(NodeIndex, bool)>) {
        self.materials.clear();
        self.materials.extend(material_above);
        self.items.clear();
        self.lights.clear();
        self.cameras.clear();
        self.marks = [0; 3];
        self.state = RenderState {
            material: material_above.map_or(NO_MATERIAL, |_| 0),
        };
    }

    /// The current node's world transform (the identity for a node the update pass did
    /// not reach).
    #[inline]
    pub fn world(&self) -> Affine3A {
        self.world
            .as_deref()
            .and_then(|w| w.at(self.node))
            .unwrap_or(Affine3A::IDENTITY)
    }

    /// The inherited state.
    pub fn state(&self) -> RenderState {
        self.state
    }

    /// The world-to-view transform.
    pub fn view(&self) -> &Affine3A {
        &self.view
    }

    /// Makes `material` (on node `node`) the current node's and its subtree's material.
    pub fn set_material(&mut self, node: NodeIndex, material: &Material) {
        self.materials.push((node, material.is_transparent()));
        self.state.material = (self.materials.len() - 1) as u32;
    }

    /// Adds a draw item for the current node, with its world transform and material.
    #[inline]
    pub fn draw(&mut self, geometry: Geometry) {
        let skinned = self.bounds.as_deref().and_then(|b| b.skinned_at(self.node));
        let (geometry, world) = match skinned {
            None => (geometry, self.world()),
            Some(posed) => {
                let posed = Geometry::try_new(posed, geometry.primitives()).unwrap_or_else(|_| {
                    Geometry::with_primitives(Aabb::EMPTY, geometry.primitives())
                });
                (posed, Affine3A::IDENTITY)
            }
        };
        let center = geometry.local_bounds().transformed(&world).center();
        let depth = -self.view.transform_point3(center).z;
        let (material, transparent) = match self.materials.get(self.state.material as usize) {
            Some(&(node, transparent)) => (Some(node), transparent),
            None => (None, false),
        };
        self.items.push(DrawItem {
            node: self.node,
            geometry,
            world,
            material,
            transparent,
            depth,
        });
    }

    /// Adds a light placed by the current world transform.
    pub fn add_light(&mut self, light: Light) {
        let world = self.world();
        self.lights.push(LightItem {
            node: self.node,
            light,
            position: world.translation.into(),
            direction: world.transform_vector3(-Vec3::Z).normalize_or_zero(),
        });
    }

    /// Adds a camera placed by the current world transform.
    pub fn add_camera(&mut self, camera: Camera) {
        self.cameras.push(CameraItem {
            node: self.node,
            camera,
            world: self.world(),
        });
    }
}

/// The nearest `Material` strictly above `node`.
fn material_above(graph: &scenewalk_core::Graph, node: NodeIndex) -> Option<(NodeIndex, bool)> {
    let mut above = graph.path_up(node).skip(1);
    above.find_map(|p| Some((p, graph.get_at::<Material>(p)?.is_transparent())))
}

/// How the render list orders its items at the end of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sorting {
    /// Opaque items front to back, then transparent items back to front; ties by
    /// node slot, then in the order one node's functor drew them.
    #[default]
    ByDepth,
    /// The order the traversal added them in.
    Arrival,
}

/// Builds a draw list with per-type dispatch (a [`MethodTable`] of functors, with
/// fallback to parent types and a default) and ordered state (the material).
///
/// It reads the update pass's [`WorldTable`] and [`BoundsTable`]
/// ([`Action::run_with`](scenewalk_core::Action::run_with)). Built-in functors: a
/// [`Material`] becomes the subtree's material, a [`Geometry`] (and so a `Mesh`) adds a
/// [`DrawItem`], a [`Light`] a [`LightItem`], a [`Camera`] a [`CameraItem`];
/// [`on`](RenderList::on) adds or replaces one. Put it after culling actors. Parallel
/// runs give the sequential lists, and are refused (naming the actor) when a functor
/// holds state ([`Functor::closure`], [`Functor::any`]).
///
/// ```
/// use scenewalk_actors::{IncrementalUpdate, RenderList};
/// use scenewalk_core::{prelude::*, glam::Vec4};
/// use scenewalk_nodes::{Geometry, Group, Material, Transform};
///
/// let mut graph = Graph::new();
/// let root = graph.add_root(Material::new("red", Vec4::new(1.0, 0.0, 0.0, 1.0)));
/// let unit = Geometry::new(Aabb::new(Vec3::ZERO, Vec3::ONE));
/// let far = graph.append_child(root, Transform::from_translation(Vec3::new(0.0, 0.0, -20.0)))?;
/// graph.append_child(far, unit)?;
/// let near = graph.append_child(root, Transform::from_translation(Vec3::new(0.0, 0.0, -5.0)))?;
/// let close = graph.append_child(near, unit)?;
///
/// let mut update = IncrementalUpdate::new();
/// update.run(&graph, root)?;
/// // A camera at the origin looking down -z: view = inverse of its world transform.
/// let mut action = Action::new(DepthFirst::new(), (Ordered::new(RenderList::new(Affine3A::IDENTITY)),))?;
/// action.run_with(&graph, root, &update.results())?;
/// let list = action.actor::<RenderList>().unwrap();
/// assert_eq!(list.items().len(), 2);
/// assert_eq!(list.items()[0].node, close.index()); // front to back
/// assert_eq!(list.items()[0].material, Some(root.index()));
/// assert_eq!(list.items()[0].depth, 4.5);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct RenderList {
    methods: MethodTable<RenderContext>,
    cx: RenderContext,
    sorting: Sorting,
    opaque: usize,
    /// The sort's buffers, kept so that a run in steady state allocates nothing.
    order: Vec<u32>,
    sorted: Vec<DrawItem>,
    /// Parallel workers' contexts, kept with their lists' buffers for the next run.
    spare: Spares<RenderContext>,
}

impl RenderList {
    /// A render list for a camera whose view transform (world to camera) is `view`,
    /// with the built-in functors.
    pub fn new(view: Affine3A) -> Self {
        let mut methods = MethodTable::<RenderContext>::new();
        methods
            .add::<Material>(Functor::function(
                |m: &Material, visit: &Visit<'_>, cx: &mut RenderContext| {
                    cx.set_material(visit.node(), m);
                    Flow::Continue
                },
            ))
            .add::<Geometry>(Functor::function(
                |g: &Geometry, _, cx: &mut RenderContext| {
                    cx.draw(*g);
                    Flow::Continue
                },
            ))
            .add::<Light>(Functor::function(|l: &Light, _, cx: &mut RenderContext| {
                cx.add_light(*l);
                Flow::Continue
            }))
            .add::<Camera>(Functor::function(
                |c: &Camera, _, cx: &mut RenderContext| {
                    cx.add_camera(*c);
                    Flow::Continue
                },
            ));
        Self {
            methods,
            cx: RenderContext::new(view),
            sorting: Sorting::default(),
            opaque: 0,
            order: Vec::new(),
            sorted: Vec::new(),
            spare: Spares::default(),
        }
    }

    /// Registers (or replaces) the functor for node type `T`.
    #[must_use]
    pub fn on<T: NodeCore>(mut self, functor: Functor<RenderContext>) -> Self {
        self.methods.add::<T>(functor);
        self
    }

    /// Sets the functor for types with no functor of their own or of a parent type.
    #[must_use]
    pub fn otherwise(mut self, functor: Functor<RenderContext>) -> Self {
        self.methods.set_default(functor);
        self
    }

    /// Chooses how items are ordered at the end of a run.
    #[must_use]
    pub fn with_sorting(mut self, sorting: Sorting) -> Self {
        self.sorting = sorting;
        self
    }

    /// Changes the view (the camera moved).
    pub fn set_view(&mut self, view: Affine3A) {
        self.cx.view = view;
    }

    /// Every draw item of the latest run: opaque ones, then transparent ones.
    pub fn items(&self) -> &[DrawItem] {
        &self.cx.items
    }

    /// The opaque items (with [`Sorting::ByDepth`]: front to back).
    pub fn opaque(&self) -> &[DrawItem] {
        self.cx.items.get(..self.opaque).invariant("items")
    }

    /// The transparent items (with [`Sorting::ByDepth`]: back to front).
    pub fn transparent(&self) -> &[DrawItem] {
        self.cx.items.get(self.opaque..).invariant("items")
    }

    /// The lights of the latest run.
    pub fn lights(&self) -> &[LightItem] {
        &self.cx.lights
    }

    /// The cameras of the latest run.
    pub fn cameras(&self) -> &[CameraItem] {
        &self.cx.cameras
    }
}

impl OrderedActor for RenderList {
    type State = RenderState;

    fn dispatch(&self) -> Dispatch {
        Dispatch::PerType
    }

    fn root_state(&mut self, run: &RunContext<'_>) -> Result<RenderState, TraversalError> {
        self.methods.resolve(run.graph.types());
        self.cx.world = Some(run.read::<WorldTable>("RenderList")?);
        self.cx.bounds = Some(run.read::<BoundsTable>("RenderList")?);
        self.cx.reset(material_above(run.graph, run.root));
        self.opaque = 0;
        Ok(self.cx.state)
    }

    #[inline]
    fn enter(
        &mut self,
        state: &mut StateCell<'_, RenderState>,
        visit: &Visit<'_>,
        _active: &mut ActiveList<'_>,
    ) -> Flow {
        let before = *state.get();
        self.cx.state = before;
        self.cx.node = visit.node();
        let flow = self.methods.call(visit, &mut self.cx);
        if self.cx.state != before {
            state.set(self.cx.state);
        }
        flow
    }

    fn end(&mut self) {
        // Let go of the results, so the next update writes them in place.
        self.cx.world = None;
        self.cx.bounds = None;
        // Stable (ties by arrival) by positions in a kept buffer: `sort_by` allocates.
        let items = &self.cx.items;
        self.order.clear();
        self.order.extend(0..items.len() as u32);
        let at = |i: &u32| items.get(*i as usize);
        match self.sorting {
            Sorting::ByDepth => self.order.sort_unstable_by(|a, b| match (at(a), at(b)) {
                (Some(x), Some(y)) => DrawItem::draw_order(x, y).then(a.cmp(b)),
                _ => a.cmp(b),
            }),
            Sorting::Arrival => self
                .order
                .sort_unstable_by_key(|i| (at(i).is_some_and(|x| x.transparent), *i)),
        }
        self.sorted.clear();
        self.sorted
            .extend(self.order.iter().filter_map(|i| items.get(*i as usize)));
        std::mem::swap(&mut self.cx.items, &mut self.sorted);
        self.opaque = self.cx.items.partition_point(|i| !i.transparent);
    }

    /// Parallel runs: a worker starts from the material at its root (its entry 0); its
    /// lists go where its nodes come in document order. `None` for a functor not copied.
    const FORKS: bool = true;
    fn fork(&self, state: &RenderState) -> Option<(Self, RenderState)> {
        let methods = self.methods.try_clone()?;
        let material = self.cx.materials.get(state.material as usize).copied();
        let mut cx = self
            .spare
            .take()
            .unwrap_or_else(|| RenderContext::new(self.cx.view));
        cx.view = self.cx.view;
        cx.world.clone_from(&self.cx.world);
        cx.bounds.clone_from(&self.cx.bounds);
        cx.reset(material);
        let lists = &self.cx;
        cx.marks = [lists.items.len(), lists.lights.len(), lists.cameras.len()];
        let start = cx.state;
        let worker = Self {
            methods,
            cx,
            sorting: self.sorting,
            opaque: 0,
            order: Vec::new(),
            sorted: Vec::new(),
            spare: self.spare.share(),
        };
        Some((worker, start))
    }

    fn merge(&mut self, mut worker: Self) {
        let [items, lights, cameras] = worker.cx.marks;
        let [mut i, mut l, mut c] = self.cx.marks;
        put(&mut self.cx.items, items, &mut i, &mut worker.cx.items);
        put(&mut self.cx.lights, lights, &mut l, &mut worker.cx.lights);
        put(
            &mut self.cx.cameras,
            cameras,
            &mut c,
            &mut worker.cx.cameras,
        );
        self.cx.marks = [i, l, c];
        // Its lists, emptied, serve the next run's workers (without the results).
        (worker.cx.world, worker.cx.bounds) = (None, None);
        self.spare.give(worker.cx, FORKS);
    }
}
