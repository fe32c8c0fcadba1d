//! What the `inspect` example computes: per-node world matrices and mesh boxes of an
//! imported glTF scene, from scenewalk's own [`WorldTransforms`] and [`Bounds`] actors,
//! as a report, a readable summary or JSON.

use scenewalk_actors::{Bounds, WorldTransforms};
use scenewalk_core::glam::Mat4;
use scenewalk_core::{Aabb, Action, ActionError, Ordered, TraversalError};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::gltf::Imported;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// One glTF node of the scene, as `inspect` reports it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeReport {
    /// The glTF node index.
    pub index: usize,
    /// The glTF name.
    pub name: Option<String>,
    /// The glTF index of the parent (`None` for a scene root).
    pub parent: Option<usize>,
    /// 0 for a scene root.
    pub depth: u32,
    /// Number of glTF children.
    pub children: usize,
    /// The world matrix: the product of the local matrices from the scene root down.
    pub world: Mat4,
    /// The world box of the node's mesh primitives (`None` without a mesh, or for
    /// primitives without positions).
    pub mesh_aabb: Option<Aabb>,
}

/// The whole scene, nodes in depth-first pre-order.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The imported scene.
    pub scene: Option<usize>,
    /// The nodes, scene roots in the scene's order, children in each node's order.
    pub nodes: Vec<NodeReport>,
    /// Time spent in the traversals (not meant for comparisons across machines).
    pub traversal: Duration,
}

/// Why the traversal failed (a bug: the importer builds graphs the actions accept).
#[derive(Debug, thiserror::Error)]
pub enum InspectError {
    /// The action refused its actors.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// A run failed.
    #[error(transparent)]
    Traversal(#[from] TraversalError),
    /// A node of the scene was not reached by the traversal of its root.
    #[error("glTF node {0} was not reached by the traversal")]
    NotReached(usize),
}

impl Report {
    /// Nodes with a mesh box.
    pub fn mesh_node_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.mesh_aabb.is_some()).count()
    }

    /// The union of every mesh box (`None` if there is none).
    pub fn world_aabb(&self) -> Option<Aabb> {
        self.nodes
            .iter()
            .filter_map(|n| n.mesh_aabb)
            .reduce(|a, b| a.union(&b))
    }

    /// Levels of the scene (0 for an empty scene).
    pub fn levels(&self) -> u32 {
        self.nodes.iter().map(|n| n.depth + 1).max().unwrap_or(0)
    }

    /// The most children of one node.
    pub fn max_fan_out(&self) -> usize {
        self.nodes.iter().map(|n| n.children).max().unwrap_or(0)
    }

    /// The JSON object `inspect --json` prints.
    pub fn to_json(&self) -> Value {
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|n| {
                json!({
                    "index": n.index,
                    "name": n.name,
                    "parent": n.parent,
                    "depth": n.depth,
                    "world": n.world.to_cols_array(),
                    "mesh_aabb": n.mesh_aabb.as_ref().map(box_json),
                })
            })
            .collect();
        json!({
            "scene": self.scene,
            "nodes": nodes,
            "node_count": self.nodes.len(),
            "mesh_node_count": self.mesh_node_count(),
            "world_aabb": self.world_aabb().as_ref().map(box_json),
        })
    }

    /// The readable summary `inspect` prints without `--json`.
    pub fn summary(&self, import_time: Duration) -> String {
        let bounds = match self.world_aabb() {
            Some(b) => format!("min {} max {}", b.min, b.max),
            None => "none (no mesh)".into(),
        };
        let scene = self.scene.map_or("none".into(), |s| s.to_string());
        format!(
            "scene {scene}: {} nodes, {} levels, fan-out at most {}, {} mesh nodes\n\
             world bounds: {bounds}\n\
             import {:.3} ms, traversal {:.3} ms",
            self.nodes.len(),
            self.levels(),
            self.max_fan_out(),
            self.mesh_node_count(),
            import_time.as_secs_f64() * 1e3,
            self.traversal.as_secs_f64() * 1e3,
        )
    }
}

fn box_json(b: &Aabb) -> Value {
    json!({"min": b.min.to_array(), "max": b.max.to_array()})
}

/// Runs one depth-first action with [`WorldTransforms`] and [`Bounds`] over each scene
/// root and reads every glTF node's world matrix and mesh box from the actors.
///
/// ```
/// use scenewalk_examples::inspect::inspect;
/// use scenewalk_nodes::gltf::{ImportOptions, import_slice};
/// let file = br#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
///     "nodes": [{"translation": [1, 0, 0], "children": [1]}, {"translation": [0, 2, 0]}]}"#;
/// let imported = import_slice(file, None, &ImportOptions::default())?;
/// let report = inspect(&imported)?;
/// assert_eq!(report.nodes[1].world.w_axis.to_array(), [1.0, 2.0, 0.0, 1.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn inspect(imported: &Imported) -> Result<Report, InspectError> {
    let mut action = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )?;
    let graph = &imported.graph;
    let mut nodes = Vec::with_capacity(imported.order.len());
    let mut traversal = Duration::ZERO;
    for &index in &imported.order {
        let Some(node) = imported.node(index) else {
            return Err(InspectError::NotReached(index));
        };
        // Results are stamped per run: a root's subtree is read before the next run.
        if node.depth == 0 {
            let start = Instant::now();
            action.run(graph, node.id)?;
            traversal += start.elapsed();
        }
        let (Some(worlds), Some(bounds)) =
            (action.actor::<WorldTransforms>(), action.actor::<Bounds>())
        else {
            return Err(InspectError::NotReached(index));
        };
        let world = worlds
            .world(graph, node.id)
            .map_err(|_| InspectError::NotReached(index))?;
        let mut mesh_aabb = Aabb::EMPTY;
        for &primitive in &node.primitives {
            let b = bounds
                .world_bounds(graph, primitive)
                .map_err(|_| InspectError::NotReached(index))?;
            mesh_aabb = mesh_aabb.union(&b);
        }
        let children = graph
            .children(node.id)
            .map_or(0, Iterator::count)
            .saturating_sub(node.primitives.len());
        nodes.push(NodeReport {
            index,
            name: node.name.clone(),
            parent: node.parent,
            depth: node.depth,
            children,
            world: Mat4::from(world),
            mesh_aabb: (!mesh_aabb.is_empty()).then_some(mesh_aabb),
        });
    }
    Ok(Report {
        scene: imported.scene,
        nodes,
        traversal,
    })
}
