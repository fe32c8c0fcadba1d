//! The iterator extension point: a traversal order written here, outside the library,
//! running the library's actors.
//!
//! ```text
//! cargo run --example custom_iterator
//! ```
//!
//! `NearestWithin` enters the nearest nodes first and stops after a budget of nodes:
//! the "what can I afford to draw this frame" order. It takes each child's priority
//! key from the active list, where the library's `NearFirst` actor puts minus its
//! distance to the viewer, after `FrustumCull` has deactivated the children out of
//! view; `Statistics` counts what was entered. The update's world boxes are handed to
//! the view with `Action::run_with`. The result is checked against a brute force with
//! its own boxes, frustum test and sort; a difference exits with status 1.

use scenewalk_actors::{FrustumCull, IncrementalUpdate, NearFirst, Statistics};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_core::{
    Aabb, Action, ActiveEntry, ActiveList, Capabilities, Flow, Frame, Graph, NodeIndex,
    OrderedState, Static, Step, TraversalError, TraversalIterator, Unordered,
};
use scenewalk_examples::args::{no_arguments, run_main};
use scenewalk_nodes::{Camera, Geometry, Group, Transform};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

/// A node waiting to be entered, by its key (highest first), then arrival.
#[derive(Clone, Copy, Debug)]
struct Pending {
    key: f32,
    arrival: u64,
    node: NodeIndex,
    depth: u32,
}

impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        let key = self.key.total_cmp(&other.key);
        key.then(other.arrival.cmp(&self.arrival))
    }
}

impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Pending {}

/// Best-first by the actors' keys, at most `budget` nodes entered per run.
struct NearestWithin {
    budget: usize,
    heap: BinaryHeap<Pending>,
    arrivals: u64,
    /// The node entered last, until its commit, and its children.
    current: Option<Pending>,
    children: Vec<ActiveEntry>,
    /// The nodes entered in the latest run, in order.
    entered: Vec<NodeIndex>,
}

impl NearestWithin {
    fn new(budget: usize) -> Self {
        Self {
            budget,
            heap: BinaryHeap::new(),
            arrivals: 0,
            current: None,
            children: Vec::new(),
            entered: Vec::new(),
        }
    }
}

impl TraversalIterator for NearestWithin {
    fn capabilities(&self) -> Capabilities {
        // No leave events, no path state: the action refuses actors that need them.
        Capabilities {
            name: "NearestWithin",
            leave_events: false,
            current_node: true,
            ordered_state: OrderedState::Unsupported,
        }
    }

    fn start(&mut self, _graph: &Graph, root: NodeIndex, _leave_events: bool) {
        self.clear();
        self.entered.clear();
        let (key, arrival, node, depth) = (0.0, 0, root, 0);
        self.heap.push(Pending {
            key,
            arrival,
            node,
            depth,
        });
    }

    fn next(&mut self, graph: &Graph) -> Option<Step> {
        if self.entered.len() == self.budget {
            return None;
        }
        let pending = self.heap.pop()?;
        self.entered.push(pending.node);
        self.current = Some(pending);
        self.children.clear();
        let first = graph.first_child_at(pending.node);
        let children = std::iter::successors(first, |&c| graph.next_sibling_at(c));
        self.children
            .extend(children.map(|c| ActiveEntry::new(c, pending.depth + 1)));
        Some(Step::Enter {
            node: pending.node,
            depth: pending.depth,
            frame: Frame::ROOT,
        })
    }

    fn active<'a>(&'a mut self, _graph: &'a Graph) -> ActiveList<'a> {
        ActiveList::new(&mut self.children)
    }

    fn commit(&mut self, graph: &Graph, flow: Flow, _frame: Frame) -> Result<u32, TraversalError> {
        // Pruned or stopped: no child of the node is queued.
        let Some(parent) = self.current.take().filter(|_| flow == Flow::Continue) else {
            return Ok(0);
        };
        for child in self.children.iter().filter(|c| c.is_active()) {
            // A child no actor keyed inherits its parent's key; a NaN has no place.
            let key = child.key().unwrap_or(parent.key);
            if let Some(node) = graph.id_at(child.node()).filter(|_| key.is_nan()) {
                return Err(TraversalError::NanKey { node });
            }
            let (node, depth, arrival) = (child.node(), child.depth(), self.arrivals);
            self.heap.push(Pending {
                key,
                arrival,
                node,
                depth,
            });
            self.arrivals += 1;
        }
        Ok(0)
    }

    fn clear(&mut self) {
        self.heap.clear();
        self.current = None;
        self.children.clear();
    }
}

/// The scene's camera: at the origin, looking down -z.
const YFOV: f32 = 1.0;
const NEAR: f32 = 0.1;
const FAR: f32 = 100.0;

/// Whether `b` lies wholly beyond one plane of the camera's view volume (aspect 1).
fn outside(b: &Aabb) -> bool {
    let t = (YFOV / 2.0).tan();
    b.min.z > -NEAR
        || b.max.z < -FAR
        || b.min.y + t * b.min.z > 0.0
        || -b.max.y + t * b.min.z > 0.0
        || b.min.x + t * b.min.z > 0.0
        || -b.max.x + t * b.min.z > 0.0
}

fn distance(b: &Aabb) -> f32 {
    Vec3::ZERO.clamp(b.min, b.max).length()
}

const HELP: &str = "\
custom_iterator: a traversal order written outside the library (nearest first,
within a budget of nodes) running the library's actors, checked against a brute force

usage: custom_iterator

It takes no options. Exit status: 0; 1 when the order differs from the brute
force's; 2 for any argument.
";

fn main() -> ExitCode {
    run_main("custom_iterator", HELP, no_arguments, run)
}

fn run((): (), out: &mut dyn Write) -> Result<(), Box<dyn Error>> {
    // 400 blocks around the camera, each a transform over three boxes; and the brute
    // force's own list of the nodes a view reaches (a box in view under a block in
    // view), with their distances and depths.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut random = move |lo: f32, hi: f32| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        lo + (hi - lo) * ((seed >> 40) as f32 / (1u64 << 24) as f32)
    };
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut reached: Vec<(NodeIndex, f32, u32)> = Vec::new();
    for _ in 0..400 {
        let at = Vec3::new(random(-60.0, 60.0), random(-5.0, 5.0), random(-90.0, 30.0));
        let block = graph.append_child(root, Transform::from_translation(at))?;
        let mut boxes = Vec::new();
        for _ in 0..3 {
            let min = Vec3::new(random(-2.0, 1.0), random(-2.0, 1.0), random(-2.0, 1.0));
            let local = Aabb::new(min, min + Vec3::splat(random(0.2, 1.0)));
            let leaf = graph.append_child(block, Geometry::new(local))?;
            boxes.push((leaf.index(), Aabb::new(local.min + at, local.max + at)));
        }
        let block_box = boxes.iter().fold(Aabb::EMPTY, |b, (_, l)| b.union(l));
        if !outside(&block_box) {
            // The block first: its nearest box is exactly as near, and enters after it.
            reached.push((block.index(), distance(&block_box), 1));
            let seen = boxes.iter().filter(|(_, b)| !outside(b));
            reached.extend(seen.map(|&(leaf, b)| (leaf, distance(&b), 2)));
        }
    }

    let mut update = IncrementalUpdate::new();
    update.run(&graph, root)?;
    let results = update.results(); // handles to the world transforms and boxes

    const BUDGET: usize = 300;
    let frustum = Camera::perspective(YFOV, 1.0, NEAR, FAR)?.frustum(&Affine3A::IDENTITY);
    let mut view = Action::new(
        NearestWithin::new(BUDGET),
        (
            Static::new(FrustumCull::new(frustum)),
            Static::new(NearFirst::new(Vec3::ZERO)),
            Unordered::new(Statistics::new()),
        ),
    )?;
    view.run_with(&graph, root, &results)?;

    // The brute force: the root, then the reached nodes nearest first (a stable sort),
    // up to the budget.
    reached.sort_by(|x, y| x.1.total_cmp(&y.1));
    reached.truncate(BUDGET - 1);
    let order: Vec<_> = std::iter::once(root.index())
        .chain(reached.iter().map(|r| r.0))
        .collect();
    let blocks = reached.iter().filter(|r| r.2 == 1).count() as u64;
    let boxes = reached.len() as u64 - blocks;

    let stats = view.actor::<Statistics>().ok_or("no statistics")?;
    let entered = &view.iterator().entered;
    writeln!(
        out,
        "entered {} of {} nodes, nearest first, within a budget of {BUDGET}: {} blocks, {} boxes",
        stats.nodes(),
        graph.len(),
        stats.depth_histogram().get(1).unwrap_or(&0),
        stats.count_of::<Geometry>(),
    )?;
    if let Some(i) = (0..order.len().max(entered.len())).find(|&i| entered.get(i) != order.get(i)) {
        let (got, want) = (entered.get(i), order.get(i));
        return Err(format!("node {i} entered is {got:?}, the brute force's {want:?}").into());
    }
    let counts = (stats.depth_histogram(), stats.count_of::<Geometry>());
    if counts != (&[1, blocks, boxes][..], boxes) {
        let want = ([1, blocks, boxes], boxes);
        return Err(format!("statistics {counts:?}, the brute force's {want:?}").into());
    }
    writeln!(out, "the same nodes in the same order as the brute force")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn nearest_first_within_the_budget_matches_the_brute_force() {
        super::run((), &mut std::io::sink()).unwrap();
    }
}
