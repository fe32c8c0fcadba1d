//! The view actors (culling, level of detail, switches, render lists) against
//! brute-force per-node computations on random scenes and cameras.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

mod common;

use common::{brute_force_entered, build, camera, naive_world, tree, update};
use proptest::prelude::*;
use scenewalk_actors::{FrustumCull, LodSelect, NearFirst, RenderList, Sorting, SwitchSelect};
use scenewalk_core::glam::{Affine3A, Vec3, Vec4};
use scenewalk_core::{
    Aabb, Action, ActiveList, Flow, Graph, NodeId, NodeIndex, Ordered, Results, Static, Unordered,
    UnorderedActor, Visit,
};
use scenewalk_iterators::{BreadthFirst, DepthFirst, PriorityQueue};
use scenewalk_nodes::{Geometry, Group, Lod, Material};
use scenewalk_nodes::{Selection, Switch, Transform};
use std::collections::BTreeSet;

/// Records the nodes entered (in batches too).
#[derive(Default)]
struct Entered(Vec<NodeIndex>);

impl UnorderedActor for Entered {
    const BATCHES: bool = true;
    fn begin(
        &mut self,
        _: &scenewalk_core::RunContext<'_>,
    ) -> Result<(), scenewalk_core::TraversalError> {
        self.0.clear();
        Ok(())
    }
    fn enter(&mut self, visit: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
        self.0.push(visit.node());
        Flow::Continue
    }
    fn enter_batch(&mut self, _: &Graph, _: u32, batch: &mut ActiveList<'_>) -> Flow {
        let nodes: Vec<_> = batch.active_nodes().collect();
        self.0.extend(nodes);
        Flow::Continue
    }
}

fn entered_by<I: scenewalk_core::TraversalIterator, A: scenewalk_core::Actor>(
    iterator: I,
    cull: A,
    graph: &Graph,
    root: NodeId,
    results: &Results,
) -> BTreeSet<NodeIndex> {
    let mut action = Action::new(iterator, (cull, Unordered::new(Entered::default()))).unwrap();
    action.run_with(graph, root, results).unwrap();
    action
        .actor::<Entered>()
        .unwrap()
        .0
        .iter()
        .copied()
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn culling_equals_a_per_node_test_under_every_order((spec, (camera, placed)) in (tree(), camera())) {
        let (graph, ids) = build(&spec);
        let root = ids[0];
        let (_, bounds, results) = update(&graph, root);
        let frustum = camera.frustum(&placed);
        let want = brute_force_entered(&graph, root, &frustum, &bounds);
        let cull = || FrustumCull::new(frustum);

        prop_assert_eq!(&entered_by(DepthFirst::new(), Ordered::new(cull()), &graph, root, &results), &want);
        prop_assert_eq!(&entered_by(DepthFirst::new(), Static::new(cull()), &graph, root, &results), &want);
        prop_assert_eq!(&entered_by(PriorityQueue::new(), Ordered::new(cull()), &graph, root, &results), &want);
        prop_assert_eq!(&entered_by(BreadthFirst::new(), Static::new(cull()), &graph, root, &results), &want);
    }

    #[test]
    fn culling_never_drops_a_visible_geometry((spec, (camera, placed)) in (tree(), camera())) {
        let (graph, ids) = build(&spec);
        let root = ids[0];
        let (_, bounds, results) = update(&graph, root);
        let frustum = camera.frustum(&placed);
        let entered = entered_by(DepthFirst::new(), Ordered::new(FrustumCull::new(frustum)), &graph, root, &results);
        for &id in &ids {
            let Some(b) = bounds.at(id.index()) else { continue };
            if graph.get::<Geometry>(id).is_err() || b.is_empty() {
                continue;
            }
            let steps = 4;
            let mut visible = false;
            for i in 0..=steps { for j in 0..=steps { for k in 0..=steps {
                let t = Vec3::new(i as f32, j as f32, k as f32) / steps as f32;
                visible |= frustum.contains_point(b.min + (b.max - b.min) * t);
            }}}
            prop_assert!(!visible || entered.contains(&id.index()), "visible {:?} dropped", id);
        }
    }

    #[test]
    fn render_lists_agree_between_depth_first_and_priority((spec, (_camera, placed)) in (tree(), camera())) {
        let (graph, ids) = build(&spec);
        let root = ids[0];
        let (_, bounds, results) = update(&graph, root);
        let eye = Vec3::from(placed.translation);
        let view = placed.inverse();

        let mut depth_first = Action::new(DepthFirst::new(), (Ordered::new(RenderList::new(view)),)).unwrap();
        depth_first.run_with(&graph, root, &results).unwrap();
        let mut by_distance = Action::new(
            PriorityQueue::new(),
            (Static::new(NearFirst::new(eye)), Ordered::new(RenderList::new(view))),
        ).unwrap();
        by_distance.run_with(&graph, root, &results).unwrap();
        let a = depth_first.actor::<RenderList>().unwrap().items();
        let b = by_distance.actor::<RenderList>().unwrap().items();
        prop_assert_eq!(a, b);
        let geometry = ids.iter().filter(|id| graph.get::<Geometry>(**id).is_ok()).count();
        prop_assert_eq!(a.len(), geometry);
        // Each item is placed by its node's world transform (the update's), against
        // the naive product of the locals above it.
        for item in a {
            let naive = naive_world(&graph, graph.id_at(item.node).unwrap());
            let scale = 1.0 + naive.translation.abs().max_element();
            prop_assert!(item.world.abs_diff_eq(naive, 1e-4 * scale));
        }
        for pair in a.windows(2) {
            prop_assert!(pair[0].depth <= pair[1].depth, "front to back");
        }

        // Unsorted, priority order itself delivers the items nearest box first.
        let mut arrival = Action::new(
            PriorityQueue::new(),
            (Static::new(NearFirst::new(eye)), Ordered::new(RenderList::new(view).with_sorting(Sorting::Arrival))),
        ).unwrap();
        arrival.run_with(&graph, root, &results).unwrap();
        let distance = |node| bounds.at(node).map_or(f32::INFINITY, |b| (eye.clamp(b.min, b.max) - eye).length());
        let distances: Vec<f32> = arrival.actor::<RenderList>().unwrap().items().iter().map(|i| distance(i.node)).collect();
        for pair in distances.windows(2) {
            prop_assert!(pair[0] <= pair[1], "{:?}", distances);
        }
    }
}

fn unit_box() -> Geometry {
    Geometry::with_primitives(Aabb::new(Vec3::splat(-0.5), Vec3::splat(0.5)), 12)
}

#[test]
fn lod_picks_the_child_whose_range_holds_the_distance() {
    // A Lod 5 m from the viewer (a 3-4-5 triangle), thresholds around 5.
    let mut graph = Graph::new();
    let root = graph.add_root(Transform::from_translation(Vec3::new(3.0, 4.0, 0.0)));
    let pick = |graph: &mut Graph, thresholds: &[f32]| -> Vec<usize> {
        let lod = graph
            .append_child(root, Lod::from_thresholds(Vec3::ZERO, thresholds).unwrap())
            .unwrap();
        let children: Vec<_> = (0..=thresholds.len())
            .map(|_| graph.append_child(lod, Group).unwrap())
            .collect();
        let (_, _, results) = update(graph, root);
        let shown = entered_by(
            DepthFirst::new(),
            Static::new(LodSelect::new(Vec3::ZERO)),
            graph,
            root,
            &results,
        );
        let picked = children
            .iter()
            .enumerate()
            .filter(|(_, c)| shown.contains(&c.index()))
            .map(|(i, _)| i)
            .collect();
        graph.remove_subtree(lod).unwrap();
        picked
    };
    assert_eq!(pick(&mut graph, &[5.0]), [1], "a range includes its start");
    assert_eq!(
        pick(&mut graph, &[5.0f32.next_up()]),
        [0],
        "and excludes its end"
    );
    assert_eq!(pick(&mut graph, &[1.0, 2.0, 5.0, 9.0]), [3]);
    assert_eq!(pick(&mut graph, &[]), [0]);
}

#[test]
fn lod_centres_move_with_their_transforms_and_ranges_may_leave_gaps() {
    let mut graph = Graph::new();
    let root = graph.add_root(Transform::from_translation(Vec3::new(0.0, 0.0, 100.0)));
    let lod = graph
        .append_child(
            root,
            Lod::new(Vec3::new(0.0, 0.0, -90.0), vec![0.0..5.0, 20.0..30.0]).unwrap(),
        )
        .unwrap();
    let near = graph.append_child(lod, Group).unwrap();
    let far = graph.append_child(lod, Group).unwrap();
    let (_, _, results) = update(&graph, root);
    let shown = |viewer: Vec3| {
        let set = entered_by(
            DepthFirst::new(),
            Static::new(LodSelect::new(viewer)),
            &graph,
            root,
            &results,
        );
        (set.contains(&near.index()), set.contains(&far.index()))
    };
    // The centre is at z = 10 in world space.
    assert_eq!(shown(Vec3::new(0.0, 0.0, 12.0)), (true, false));
    assert_eq!(shown(Vec3::new(0.0, 0.0, 35.0)), (false, true));
    assert_eq!(shown(Vec3::new(0.0, 0.0, 20.0)), (false, false));
    assert_eq!(
        shown(Vec3::NAN),
        (true, false),
        "unknown distance: most detailed"
    );
}

#[test]
fn switches_choose_children_by_position() {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let switch = graph
        .append_child(root, Switch::new(Selection::Mask(vec![true, false, true])))
        .unwrap();
    let children: Vec<_> = (0..4)
        .map(|_| graph.append_child(switch, Group).unwrap())
        .collect();
    let grandchild = graph.append_child(children[1], Group).unwrap();
    let results = Results::new();
    let set = entered_by(
        DepthFirst::new(),
        Static::new(SwitchSelect),
        &graph,
        root,
        &results,
    );
    let on: Vec<bool> = children.iter().map(|c| set.contains(&c.index())).collect();
    assert_eq!(on, [true, false, true, false]);
    assert!(!set.contains(&grandchild.index()));
    graph.get_mut::<Switch>(switch).unwrap().set(Selection::All);
    let set = entered_by(
        PriorityQueue::new(),
        Static::new(SwitchSelect),
        &graph,
        root,
        &results,
    );
    assert_eq!(set.len(), 7);
}

#[test]
fn render_items_inherit_the_nearest_material_and_transparent_ones_sort_back_to_front() {
    let mut graph = Graph::new();
    let root = graph.add_root(Material::new("stone", Vec4::ONE));
    let glass = graph
        .append_child(root, Material::new("glass", Vec4::new(1.0, 1.0, 1.0, 0.5)))
        .unwrap();
    let mut at = |parent: NodeId, z: f32| {
        let t = graph
            .append_child(parent, Transform::from_translation(Vec3::new(0.0, 0.0, z)))
            .unwrap();
        graph.append_child(t, unit_box()).unwrap()
    };
    let pane_near = at(glass, -3.0);
    let pane_far = at(glass, -9.0);
    let wall_far = at(root, -8.0);
    let wall_near = at(root, -2.0);
    // Camera at the origin looking down -z.
    let mut action = Action::new(
        DepthFirst::new(),
        (Ordered::new(RenderList::new(Affine3A::IDENTITY)),),
    )
    .unwrap();
    let (_, _, results) = update(&graph, root);
    action.run_with(&graph, root, &results).unwrap();
    let list = action.actor::<RenderList>().unwrap();
    let nodes =
        |items: &[scenewalk_actors::DrawItem]| items.iter().map(|i| i.node).collect::<Vec<_>>();
    assert_eq!(nodes(list.opaque()), [wall_near.index(), wall_far.index()]);
    assert_eq!(
        nodes(list.transparent()),
        [pane_far.index(), pane_near.index()]
    );
    assert!(
        list.opaque()
            .iter()
            .all(|i| i.material == Some(root.index()))
    );
    assert!(
        list.transparent()
            .iter()
            .all(|i| i.material == Some(glass.index()) && i.transparent)
    );
    assert_eq!(list.opaque()[0].depth, 2.0);
    assert_eq!(list.opaque()[0].world.translation.z, -2.0);
}

#[test]
fn a_run_from_a_subtree_inherits_the_material_above_it() {
    let mut graph = Graph::new();
    let root = graph.add_root(Material::new("paint", Vec4::ONE));
    let sub = graph.append_child(root, Group).unwrap();
    let item = graph.append_child(sub, unit_box()).unwrap();
    let mut action = Action::new(
        DepthFirst::new(),
        (Ordered::new(RenderList::new(Affine3A::IDENTITY)),),
    )
    .unwrap();
    // World matrices come from the update pass: a run without them is refused.
    assert!(action.run(&graph, sub).is_err());
    let (_, _, results) = update(&graph, root);
    action.run_with(&graph, sub, &results).unwrap();
    let list = action.actor::<RenderList>().unwrap();
    assert_eq!(list.items().len(), 1);
    assert_eq!(list.items()[0].node, item.index());
    assert_eq!(list.items()[0].material, Some(root.index()));
}

/// The depth sort equals a stable sort of the arrival order by `DrawItem::draw_order`:
/// equal depths, items behind the camera (negative depths), a depth of zero, opaque
/// and transparent items.
#[test]
fn the_depth_sort_is_draw_order_on_the_arrival_order() {
    let mut graph = Graph::new();
    let root = graph.add_root(Material::new("stone", Vec4::ONE));
    let glass = graph
        .append_child(root, Material::new("glass", Vec4::new(1.0, 1.0, 1.0, 0.5)))
        .unwrap();
    for (k, z) in [-3.0, 2.0, -3.0, 0.0, -7.5, 4.0, -3.0, 0.0, -1.0e-3, 9.0]
        .into_iter()
        .enumerate()
    {
        for parent in [root, glass] {
            let x = k as f32 * 0.25;
            let t = graph
                .append_child(parent, Transform::from_translation(Vec3::new(x, 0.0, z)))
                .unwrap();
            graph.append_child(t, unit_box()).unwrap();
        }
    }
    let (_, _, results) = update(&graph, root);
    let items = |sorting: Sorting| {
        let list = RenderList::new(Affine3A::IDENTITY).with_sorting(sorting);
        let mut action = Action::new(DepthFirst::new(), (Ordered::new(list),)).unwrap();
        action.run_with(&graph, root, &results).unwrap();
        action.actor::<RenderList>().unwrap().items().to_vec()
    };
    let mut expect = items(Sorting::Arrival);
    expect.sort_by(scenewalk_actors::DrawItem::draw_order);
    let sorted = items(Sorting::ByDepth);
    assert_eq!(sorted.len(), 20);
    assert!(sorted.iter().any(|i| i.depth < 0.0) && sorted.iter().any(|i| i.transparent));
    assert_eq!(sorted, expect);
}
