//! What the `inspect` example computes: per-node world matrices and mesh boxes of an
//! imported glTF scene, from scenewalk's own [`WorldTransforms`] and [`Bounds`] actors,
//! as a report, a readable summary or JSON; at rest, or posed by an animation at a
//! time ([`inspect_at`]), skinned meshes then boxed exactly.

use crate::args::{Arg, ArgError, Args};
use crate::text::{counted, duration};
use scenewalk_actors::{Bounds, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Mat4};
use scenewalk_core::{Aabb, Action, ActionError, GraphError, NodeId, Ordered, TraversalError};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::gltf::{ImportOptions, Imported, Unplayed, UnplayedChannel};
use scenewalk_nodes::{AnimationPlayer, SkinnedMesh};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
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
    /// primitives without positions). A skinned primitive counts with its bind-pose
    /// box placed by the node, or, in a report at a time ([`inspect_at`]), with its
    /// exact skinned box.
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
    /// The animation and the time the scene was posed at ([`inspect_at`]); `None` at
    /// rest.
    pub posed: Option<(usize, f32)>,
    /// The scene's glTF nodes and the graph nodes they were imported as, in words
    /// ([`node_counts`]).
    pub counts: String,
    /// The file's animation channels that import but do not move the scene
    /// ([`Imported::unplayed`]).
    pub unplayed: Vec<UnplayedChannel>,
}

/// How many glTF nodes the imported scene has and how many graph nodes of how many
/// types they became (each mesh primitive and camera is a graph node of its own; the
/// types are those of the nodes), in words: what `inspect` and the tour both print.
///
/// ```
/// use scenewalk_examples::inspect::node_counts;
/// use scenewalk_nodes::gltf::{ImportOptions, import_slice};
/// let file = br#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}],
///     "nodes": [{"children": [1]}, {"camera": 0}],
///     "cameras": [{"type": "perspective", "perspective": {"yfov": 1, "znear": 0.1}}]}"#;
/// let imported = import_slice(file, None, &ImportOptions::default())?;
/// assert_eq!(node_counts(&imported), "2 glTF nodes, imported as 3 graph nodes of 2 types");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn node_counts(imported: &Imported) -> String {
    let graph = &imported.graph;
    let mut types = std::collections::HashSet::new();
    for &root in &imported.roots {
        let mut next = Some(root);
        while let Some(node) = next {
            types.extend(graph.node_type(node).ok());
            next = graph.next_preorder(node, root).ok().flatten();
        }
    }
    format!(
        "{}, imported as {} of {}",
        counted(imported.order.len(), "glTF node", "glTF nodes"),
        counted(graph.len(), "graph node", "graph nodes"),
        counted(types.len(), "type", "types"),
    )
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
    /// The animation asked for does not exist.
    #[error("there is no animation {animation} (the file has {count})")]
    NoSuchAnimation {
        /// The animation asked for.
        animation: usize,
        /// How many the file has.
        count: usize,
    },
    /// The animation could not be applied.
    #[error(transparent)]
    Graph(#[from] GraphError),
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
        let mut out = json!({"scene": self.scene});
        if let Some((animation, time)) = self.posed {
            out["time"] = json!(time);
            out["animation"] = json!(animation);
        }
        out["nodes"] = json!(nodes);
        out["node_count"] = json!(self.nodes.len());
        out["mesh_node_count"] = json!(self.mesh_node_count());
        out["world_aabb"] = json!(self.world_aabb().as_ref().map(box_json));
        // Only when there are some: the JSON of a file whose channels all play is
        // unchanged.
        if !self.unplayed.is_empty() {
            out["unplayed_channels"] = self.unplayed.iter().map(unplayed_json).collect();
        }
        out
    }

    /// The readable report `inspect` prints without `--json`: a summary, then one line
    /// per node (index, quoted name or `(unnamed)`, depth, world translation, mesh
    /// box).
    pub fn summary(&self, import_time: Duration) -> String {
        let bounds = |b: Option<Aabb>| match b {
            Some(b) => format!("min {} max {}", b.min, b.max),
            None => "none".into(),
        };
        let scene = self.scene.map_or("none".into(), |s| s.to_string());
        let posed = match self.posed {
            Some((animation, time)) => format!("animation {animation} at {time} s"),
            None => "at rest".into(),
        };
        let fan_out = match self.max_fan_out() {
            0 => "no children".to_string(),
            n => format!("fan-out at most {n}"),
        };
        let mut out = format!(
            "scene {scene}: {}, {}, {fan_out}, {}, {posed}\n\
             world bounds: {}\n\
             import {}, traversal {}\n\
             node, name, depth, world translation, mesh box:",
            self.counts,
            counted(self.levels(), "level", "levels"),
            counted(self.mesh_node_count(), "mesh node", "mesh nodes"),
            bounds(self.world_aabb()),
            duration(import_time),
            duration(self.traversal),
        );
        for n in &self.nodes {
            let name = match &n.name {
                Some(name) => format!("{name:?}"),
                None => "(unnamed)".into(),
            };
            let at = n.world.w_axis.truncate();
            let mesh = bounds(n.mesh_aabb);
            out += &format!(
                "\n{:>6} {name} depth {} at {at} mesh {mesh}",
                n.index, n.depth
            );
        }
        out + &unplayed_lines(&self.unplayed)
    }
}

/// What the `inspect` command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `--help`: print the usage.
    Help,
    /// Inspect a file.
    Run {
        /// The glTF or GLB file.
        file: PathBuf,
        /// The import options (`--scene N`).
        options: ImportOptions,
        /// `--json`: JSON instead of the readable report.
        json: bool,
        /// `--time T [--animation N]`: the animation (0 by default) and the time to
        /// pose the scene at.
        posed: Option<(usize, f32)>,
    },
}

/// What `inspect --help` prints.
pub const USAGE: &str = "\
inspect: a glTF scene's nodes, their world transforms and mesh boxes

usage: inspect FILE.gltf|FILE.glb [--scene N] [--time T [--animation N]] [--json]

  --scene N      import scene N (default: the file's default scene)
  --time T       pose the scene by an animation at T seconds (0 to 1000000; past its
                 end is its end); skinned meshes are boxed exactly
  --animation N  the animation --time plays (default 0)
  --json         one JSON object instead of the readable report

Exit status: 0; 1 for a file it cannot read or a value it cannot use; 2 for a
command line it does not understand.
";

/// Reads `inspect`'s arguments (without the program name).
///
/// Errors: an [`ArgError`] naming the argument at fault.
///
/// ```
/// use scenewalk_examples::inspect::{Command, parse_args};
/// let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
/// assert_eq!(args(&["--help"]), Ok(Command::Help));
/// assert!(matches!(args(&["f.gltf", "--time", "2"]), Ok(Command::Run { posed: Some((0, 2.0)), .. })));
/// assert!(args(&["f.gltf", "--animation", "1"]).is_err()); // --animation needs --time
/// assert!(args(&["f.gltf", "--frames", "3"]).unwrap_err().to_string().contains("--frames"));
/// ```
pub fn parse_args(args: impl Iterator<Item = String>) -> Result<Command, ArgError> {
    let (mut file, mut options, mut json) = (None, ImportOptions::default(), false);
    let (mut time, mut animation) = (None, None);
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Help => return Ok(Command::Help),
            Arg::Operand(path) if file.is_some() => {
                return Err(ArgError::Usage(format!(
                    "one file at a time, not also {path}"
                )));
            }
            Arg::Operand(path) => file = Some(PathBuf::from(path)),
            Arg::Option(option) => match option.as_str() {
                "--json" => json = true,
                "--scene" => {
                    let n = args.number("--scene", 0..=usize::MAX)?;
                    options = options.with_scene(Some(n));
                }
                "--animation" => animation = Some(args.number("--animation", 0..=usize::MAX)?),
                "--time" => time = Some(args.seconds("--time")?),
                other => return Err(ArgError::unknown(other)),
            },
        }
    }
    let file = file.ok_or(ArgError::Usage(
        "which file? give a .gltf or .glb file".into(),
    ))?;
    let posed = match (time, animation) {
        (Some(t), a) => Some((a.unwrap_or(0), t)),
        (None, Some(_)) => {
            return Err(ArgError::Usage("--animation needs --time".into()));
        }
        (None, None) => None,
    };
    Ok(Command::Run {
        file,
        options,
        json,
        posed,
    })
}

/// One unplayed channel in `inspect --json`: `animation`, `channel`, `kind`
/// (`morph_weights` with the `node`, or `pointer` with the `pointer`) and `message`.
fn unplayed_json(u: &UnplayedChannel) -> Value {
    let mut out = json!({"animation": u.animation, "channel": u.channel});
    match &u.reason {
        Unplayed::MorphWeights { node } => {
            out["kind"] = json!("morph_weights");
            out["node"] = json!(node);
        }
        Unplayed::Pointer { pointer } => {
            out["kind"] = json!("pointer");
            out["pointer"] = json!(pointer);
        }
        _ => out["kind"] = json!("other"),
    }
    out["message"] = json!(u.to_string());
    out
}

/// The lines that list the channels not played (nothing when every channel plays),
/// each starting with a newline: shared by `inspect` and the tour.
pub fn unplayed_lines(unplayed: &[UnplayedChannel]) -> String {
    if unplayed.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\n{} not played (the scene does not move by {}):",
        counted(
            unplayed.len(),
            "animation channel is",
            "animation channels are"
        ),
        if unplayed.len() == 1 { "it" } else { "them" }
    );
    for u in unplayed {
        out += &format!("\n  {u}");
    }
    out
}

fn box_json(b: &Aabb) -> Value {
    json!({"min": b.min.to_array(), "max": b.max.to_array()})
}

/// Runs one depth-first action with [`Bounds`] (and the [`WorldTransforms`] it
/// carries) over each scene root and reads every glTF node's world matrix and mesh box
/// from the actors.
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
    report(imported, false)
}

/// As [`inspect`], with the scene posed by animation `animation` at `time` seconds
/// (an [`AnimationPlayer`] writes its nodes' transforms, which stay in
/// `imported.graph`), and each skinned mesh's box its exact skinned world box (every
/// vertex skinned with the joints' world matrices).
///
/// ```
/// use scenewalk_examples::inspect::inspect_at;
/// use scenewalk_nodes::gltf::{ImportOptions, import_slice};
/// // Node 0 moves from x = 0 at 0 s to x = 4 at 2 s.
/// let file = br#"{"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{}],
///   "buffers": [{"byteLength": 32,
///     "uri": "data:application/octet-stream;base64,AAAAAAAAAEAAAAAAAAAAAAAAAAAAAIBAAAAAAAAAAAA="}],
///   "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}],
///   "accessors": [
///     {"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [2]},
///     {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}],
///   "animations": [{"samplers": [{"input": 0, "output": 1}],
///     "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}"#;
/// let mut imported = import_slice(file, None, &ImportOptions::default())?;
/// let report = inspect_at(&mut imported, 0, 1.5)?;
/// assert_eq!(report.nodes[0].world.w_axis.x, 3.0);
/// assert_eq!((report.to_json()["time"].as_f64(), report.to_json()["animation"].as_u64()), (Some(1.5), Some(0)));
/// assert!(inspect_at(&mut imported, 3, 1.5).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn inspect_at(
    imported: &mut Imported,
    animation: usize,
    time: f32,
) -> Result<Report, InspectError> {
    let count = imported.animations.len();
    let chosen = imported.animations.get(animation);
    let chosen = chosen.ok_or(InspectError::NoSuchAnimation { animation, count })?;
    AnimationPlayer::new(chosen.clone()).apply(&mut imported.graph, time)?;
    let mut report = report(imported, true)?;
    report.posed = Some((animation, time));
    Ok(report)
}

/// The report; with `skinned`, skinned primitives are boxed exactly.
fn report(imported: &Imported, skinned: bool) -> Result<Report, InspectError> {
    // `Bounds` carries the world transforms: each matrix is computed once.
    let mut action = Action::new(DepthFirst::new(), (Ordered::new(Bounds::new()),))?;
    let graph = &imported.graph;
    let mut nodes = Vec::with_capacity(imported.order.len());
    // Skinned primitives, boxed once every joint's world matrix is known.
    let mut poses = Vec::new();
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
            .table()
            .world(graph, node.id)
            .map_err(|_| InspectError::NotReached(index))?;
        let mut mesh_aabb = Aabb::EMPTY;
        for &primitive in &node.primitives {
            let b = match graph.get::<SkinnedMesh>(primitive) {
                Ok(_) if skinned => {
                    poses.push((nodes.len(), primitive));
                    continue;
                }
                // At rest, the report keeps a skinned mesh's bind-pose box placed by
                // its node, as before skins were read (the update poses it).
                Ok(mesh) => Ok(mesh.mesh().geometry().local_bounds().transformed(&world)),
                Err(_) => bounds.table().world_bounds(graph, primitive),
            };
            mesh_aabb = mesh_aabb.union(&b.map_err(|_| InspectError::NotReached(index))?);
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
    let worlds: HashMap<NodeId, Affine3A> = (nodes.iter())
        .filter_map(|n| {
            Some((
                imported.node(n.index).map(|n| n.id)?,
                Affine3A::from_mat4(n.world),
            ))
        })
        .collect();
    let mut matrices = Vec::new();
    for (at, primitive) in poses {
        let (Ok(mesh), Some(report)) = (graph.get::<SkinnedMesh>(primitive), nodes.get_mut(at))
        else {
            continue;
        };
        let unknown = |_| InspectError::NotReached(report.index);
        mesh.skin()
            .joint_matrices(|j| worlds.get(&j).copied(), &mut matrices)
            .map_err(unknown)?;
        let b = mesh
            .exact_bounds(&matrices)
            .ok_or(InspectError::NotReached(report.index))?;
        report.mesh_aabb =
            Some(report.mesh_aabb.map_or(b, |m| m.union(&b))).filter(|b| !b.is_empty());
    }
    Ok(Report {
        scene: imported.scene,
        nodes,
        traversal,
        posed: None,
        counts: node_counts(imported),
        unplayed: imported.unplayed.clone(),
    })
}
