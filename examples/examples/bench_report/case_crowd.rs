//! Case k: a crowd. CesiumMan (22 glTF nodes, 19 of them joints animated in
//! translation, rotation and scale, one skinned mesh), read from the shared samples,
//! instanced 1,000 times (100 with `--quick`) under one root on a grid, each copy with
//! its own player of the retargeted animation at its own time offset. A frame
//! advances the time by 1/30 s and poses every copy; the contenders, each on its own
//! copy of the data:
//!
//! - `hand_loop`: no framework: per copy, the same channels sampled
//!   ([`Channel::sample_from`], the same key hints), the same local matrices
//!   ([`Transform::from_trs`]), the world matrices of the copy's nodes in one pass over
//!   a parent array, the joint matrices (world × inverse bind) and the conservative
//!   skinned box ([`SkinnedMesh::conservative_bounds`]), united into the crowd's box;
//! - `library_frame`: the players' writes ([`AnimationPlayer::apply`]) and the
//!   incremental update ([`IncrementalUpdate::run`]), which boxes the skinned meshes
//!   from their joints;
//! - `full_update_frame`: the same writes and a full update (world transforms and
//!   bounds, depth-first) of the same scene.
//!
//! Times are per animated node (19 per copy); the target is `library_frame` ≤ 1.5 ×
//! `hand_loop`. The last row is the library's frame over the frame with a full update.
//! The contenders' first frames must give the same crowd box (rounded to 1e-3): the
//! case stops otherwise. Without the shared samples (`../shared/scenes` beside the
//! workspace, or `$SCENEWALK_SCENES`) the case says so and is skipped.

use crate::Config;
use scenewalk_actors::{Bounds, IncrementalUpdate, WorldTransforms};
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{Aabb, Action, Graph, NodeId, Ordered};
use scenewalk_examples::report::{Contender, Row, checksums, round_robin};
use scenewalk_iterators::DepthFirst;
use scenewalk_nodes::gltf::{ImportOptions, Imported, import};
use scenewalk_nodes::{
    AnimationPlayer, Camera, Channel, Geometry, Group, Mesh, Property, SkinnedMesh, Transform,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Frames per second of the played time.
const FPS: f32 = 30.0;

/// The crowd: the graph, its root, and per copy the player and the time offset.
struct Crowd {
    graph: Graph,
    root: NodeId,
    players: Vec<(AnimationPlayer, f32)>,
    duration: f32,
    frame: u32,
}

impl Crowd {
    /// Poses every copy at the next frame's time.
    fn animate(&mut self) {
        self.frame += 1;
        let t = self.frame as f32 / FPS;
        for (player, offset) in &mut self.players {
            let at = (t + *offset) % self.duration;
            player
                .apply(&mut self.graph, at)
                .expect("the targets are transforms");
        }
    }
}

/// The time offset of copy `i`.
fn offset(i: usize, duration: f32) -> f32 {
    (i as f32 * 0.618_034).fract() * duration
}

/// Where copy `i` stands: on a square grid, 2 units apart.
fn placement(i: usize, side: usize) -> Affine3A {
    let (x, z) = ((i % side) as f32, (i / side) as f32);
    Affine3A::from_translation(Vec3::new(2.0 * x, 0.0, -2.0 * z))
}

/// Appends a copy of the node `from` of `src` (its exact type) under `parent`.
fn copy_node(
    src: &Graph,
    from: NodeId,
    graph: &mut Graph,
    parent: NodeId,
) -> Result<NodeId, String> {
    let payload = src.payload(from).map_err(|e| e.to_string())?;
    let added = if let Some(t) = payload.downcast_ref::<Transform>() {
        graph.append_child(parent, *t)
    } else if let Some(s) = payload.downcast_ref::<SkinnedMesh>() {
        graph.append_child(parent, s.clone())
    } else if let Some(m) = payload.downcast_ref::<Mesh>() {
        graph.append_child(parent, m.clone())
    } else if let Some(g) = payload.downcast_ref::<Geometry>() {
        graph.append_child(parent, *g)
    } else if let Some(c) = payload.downcast_ref::<Camera>() {
        graph.append_child(parent, *c)
    } else if payload.is::<Group>() {
        graph.append_child(parent, Group)
    } else {
        return Err(format!(
            "a node of a type the crowd does not copy: {payload:?}"
        ));
    };
    added.map_err(|e| e.to_string())
}

/// `instances` copies of the imported scene under one root, each with its skins and
/// its first animation retargeted to its own nodes.
fn crowd(imported: &Imported, instances: usize) -> Result<Crowd, String> {
    let src = &imported.graph;
    let animation = imported.animations.first().ok_or("no animation")?;
    let duration = animation.duration().max(1e-3);
    let side = (instances as f64).sqrt().ceil() as usize;
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut players = Vec::with_capacity(instances);
    for i in 0..instances {
        let top = graph
            .append_child(root, Transform::from_affine(placement(i, side)))
            .map_err(|e| e.to_string())?;
        let mut map: HashMap<NodeId, NodeId> = HashMap::new();
        for &r in &imported.roots {
            let mut next = Some(r);
            while let Some(node) = next {
                let parent = match src.parent(node).map_err(|e| e.to_string())? {
                    Some(p) if node != r => *map.get(&p).ok_or("a parent not copied")?,
                    _ => top,
                };
                map.insert(node, copy_node(src, node, &mut graph, parent)?);
                next = src.next_preorder(node, r).map_err(|e| e.to_string())?;
            }
        }
        let to = |n: NodeId| map.get(&n).copied().unwrap_or(n);
        for (&from, &copy) in &map {
            if let Ok(mesh) = src.get::<SkinnedMesh>(from) {
                let skin = Arc::new(mesh.skin().retarget(to));
                let posed = mesh.with_skin(skin).map_err(|e| e.to_string())?;
                *graph
                    .get_mut::<SkinnedMesh>(copy)
                    .map_err(|e| e.to_string())? = posed;
            }
        }
        players.push((
            AnimationPlayer::new(animation.retarget(to)),
            offset(i, duration),
        ));
    }
    Ok(Crowd {
        graph,
        root,
        players,
        duration,
        frame: 0,
    })
}

/// One animated node of the hand loop: its place in a copy's nodes and its channels
/// (translation, rotation, scale), the later of two on one property playing.
struct Target {
    node: usize,
    channels: [Option<usize>; 3],
    rest: (Vec3, Quat, Vec3),
}

/// The crowd for the hand loop: one copy's nodes as a parent array, and per copy its
/// local and world matrices and key hints.
struct HandCrowd {
    /// Per node of a copy, its parent's place (`usize::MAX` for the copy's top, placed
    /// under the identity).
    parents: Vec<usize>,
    channels: Vec<Channel>,
    targets: Vec<Target>,
    /// The skin's joints as places, with their inverse binds, and the mesh.
    joints: Vec<(usize, Affine3A)>,
    mesh: SkinnedMesh,
    nodes: usize,
    locals: Vec<Affine3A>,
    world: Vec<Affine3A>,
    keys: Vec<usize>,
    offsets: Vec<f32>,
    matrices: Vec<Affine3A>,
    duration: f32,
    frame: u32,
}

impl HandCrowd {
    /// The hand loop's data for the same crowd as [`crowd`].
    fn new(imported: &Imported, instances: usize) -> Result<Self, String> {
        let src = &imported.graph;
        let animation = imported.animations.first().ok_or("no animation")?;
        let duration = animation.duration().max(1e-3);
        let side = (instances as f64).sqrt().ceil() as usize;
        // One copy's transform nodes in pre-order: the top, then the scene's.
        let mut place: HashMap<NodeId, usize> = HashMap::new();
        let mut parents = vec![usize::MAX];
        let mut rest = vec![Affine3A::IDENTITY];
        let mut mesh = None;
        for &r in &imported.roots {
            let mut next = Some(r);
            while let Some(node) = next {
                if let Ok(t) = src.get::<Transform>(node) {
                    let parent = match src.parent(node).map_err(|e| e.to_string())? {
                        Some(p) if node != r => *place.get(&p).ok_or("a parent not placed")?,
                        _ => 0,
                    };
                    place.insert(node, parents.len());
                    parents.push(parent);
                    rest.push(*t.local());
                } else if let Ok(m) = src.get::<SkinnedMesh>(node) {
                    mesh.get_or_insert_with(|| m.clone());
                }
                next = src.next_preorder(node, r).map_err(|e| e.to_string())?;
            }
        }
        let mesh = mesh.ok_or("no skinned mesh")?;
        let skin = mesh.skin();
        let joints = (skin.joints().iter().zip(skin.inverse_binds()))
            .map(|(j, ib)| Ok((*place.get(j).ok_or("a joint not placed")?, *ib)))
            .collect::<Result<Vec<_>, String>>()?;
        let channels = animation.channels().to_vec();
        let mut targets: Vec<Target> = Vec::new();
        for (c, channel) in channels.iter().enumerate() {
            let slot = match channel.property() {
                Property::Translation => 0,
                Property::Rotation => 1,
                Property::Scale => 2,
                Property::Weights => continue,
            };
            let node = *place.get(&channel.target()).ok_or("a target not placed")?;
            let at = match targets.iter().position(|t| t.node == node) {
                Some(at) => at,
                None => {
                    let (s, r, t) = rest[node].to_scale_rotation_translation();
                    targets.push(Target {
                        node,
                        channels: [None; 3],
                        rest: (t, r, s),
                    });
                    targets.len() - 1
                }
            };
            targets[at].channels[slot] = Some(c);
        }
        let nodes = parents.len();
        let mut locals = Vec::with_capacity(nodes * instances);
        for i in 0..instances {
            locals.push(placement(i, side));
            locals.extend_from_slice(&rest[1..]);
        }
        Ok(Self {
            parents,
            targets,
            joints,
            mesh,
            nodes,
            world: locals.clone(),
            locals,
            keys: vec![0; channels.len() * instances],
            channels,
            offsets: (0..instances).map(|i| offset(i, duration)).collect(),
            matrices: Vec::new(),
            duration,
            frame: 0,
        })
    }

    /// One frame: every copy posed, its world and joint matrices, its skinned box;
    /// returns the crowd's box.
    fn frame(&mut self) -> Aabb {
        self.frame += 1;
        let t = self.frame as f32 / FPS;
        let (n, c) = (self.nodes, self.channels.len());
        let mut crowd = Aabb::EMPTY;
        let mut value = [0.0f32; 4];
        for (i, offset) in self.offsets.iter().enumerate() {
            let at = (t + offset) % self.duration;
            let locals = &mut self.locals[i * n..(i + 1) * n];
            let keys = &mut self.keys[i * c..(i + 1) * c];
            for target in &self.targets {
                let (mut translation, mut rotation, mut scale) = target.rest;
                for (slot, channel) in target.channels.iter().enumerate() {
                    let Some(k) = *channel else { continue };
                    self.channels[k].sample_from(at, &mut keys[k], &mut value);
                    let [x, y, z, w] = value;
                    match slot {
                        0 => translation = Vec3::new(x, y, z),
                        1 => rotation = Quat::from_xyzw(x, y, z, w),
                        _ => scale = Vec3::new(x, y, z),
                    }
                }
                locals[target.node] = *Transform::from_trs(translation, rotation, scale).local();
            }
            let world = &mut self.world[i * n..(i + 1) * n];
            world[0] = Affine3A::IDENTITY * locals[0];
            for k in 1..n {
                world[k] = world[self.parents[k]] * locals[k];
            }
            self.matrices.clear();
            self.matrices
                .extend(self.joints.iter().map(|(j, ib)| world[*j] * *ib));
            if let Some(b) = self.mesh.conservative_bounds(&self.matrices) {
                crowd = crowd.union(&b);
            }
        }
        crowd
    }
}

/// A box as a checksum, rounded to 1e-3 (the contenders unite the same boxes in
/// different orders).
fn checksum(b: &Aabb) -> u64 {
    [b.min, b.max]
        .iter()
        .flat_map(|v| v.to_array())
        .fold(0u64, |sum, x| {
            sum.wrapping_mul(31)
                .wrapping_add((f64::from(x) * 1e3).round() as i64 as u64)
        })
}

/// Runs case k.
pub fn run(config: &Config) -> Vec<Row> {
    // The shared data set: $SCENEWALK_SCENES, else ../shared/scenes beside the workspace.
    let scenes = (std::env::var_os("SCENEWALK_SCENES").filter(|p| !p.is_empty())).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/scenes"),
        PathBuf::from,
    );
    let path = scenes.join("gltf/CesiumMan/CesiumMan.gltf");
    if !path.is_file() {
        println!(
            "k. crowd: skipped: needs the shared sample CesiumMan, not found at {} (the \
             shared scenes go at ../shared/scenes beside the workspace, or set \
             SCENEWALK_SCENES to a copy)",
            path.display()
        );
        return Vec::new();
    }
    let imported = match import(&path, &ImportOptions::default()) {
        Ok(imported) => imported,
        Err(e) => {
            println!("k. crowd: skipped: the shared sample CesiumMan cannot be imported: {e}");
            return Vec::new();
        }
    };
    let instances = if config.quick { 100 } else { 1000 };
    let mut library = crowd(&imported, instances).expect("the crowd builds");
    let mut full = crowd(&imported, instances).expect("the crowd builds");
    let mut hand = HandCrowd::new(&imported, instances).expect("the crowd builds");
    let animated = library
        .players
        .first()
        .map_or(0, |(p, _)| p.animation().targets().len());
    let elements = (animated * instances) as u64;
    let case = format!(
        "k. crowd {instances} × {} nodes",
        library.graph.len().saturating_sub(1) / instances.max(1)
    );

    let mut update = IncrementalUpdate::new();
    update
        .run(&library.graph, library.root)
        .expect("root is live");
    let mut full_update = Action::new(
        DepthFirst::new(),
        (
            Ordered::new(WorldTransforms::new()),
            Ordered::new(Bounds::new()),
        ),
    )
    .expect("compatible");
    let mut contenders = vec![
        Contender::new("hand_loop", elements, || checksum(&hand.frame())),
        Contender::new("library_frame", elements, || {
            library.animate();
            let stats = update
                .run(&library.graph, library.root)
                .expect("root is live");
            assert!(!stats.full, "the crowd's update stays incremental");
            let b = update.world_bounds(&library.graph, library.root);
            checksum(&b.expect("the update reached the root"))
        }),
        Contender::new("full_update_frame", elements, || {
            full.animate();
            full_update
                .run(&full.graph, full.root)
                .expect("root is live");
            let bounds = full_update.actor::<Bounds>().expect("there");
            checksum(
                &bounds
                    .table()
                    .world_bounds(&full.graph, full.root)
                    .expect("reached"),
            )
        }),
    ];
    let measured = round_robin(&mut contenders, config.reps());
    drop(contenders);
    assert!(
        measured.windows(2).all(|w| w[0].checksum == w[1].checksum),
        "{case}: the contenders disagree: {}",
        checksums(&measured)
    );
    let mut rows = Row::from_measured(&case, &measured, "hand_loop");
    let time = |name: &str| {
        measured
            .iter()
            .find(|m| m.name == name)
            .map_or((f64::NAN, f64::NAN), |m| (m.median, m.min))
    };
    let ((frame, frame_min), (whole, whole_min)) =
        (time("library_frame"), time("full_update_frame"));
    rows.push(Row {
        case: case.clone(),
        contender: "library_frame/full_update_frame".to_string(),
        ns_per_node: frame / elements as f64,
        ratio: frame / whole,
        min_ratio: frame_min / whole_min,
        bytes_per_node: None,
    });
    rows
}
