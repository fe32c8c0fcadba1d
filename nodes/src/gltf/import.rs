//! The importer: file → checked glTF document → scene graph.

use super::error::get;
use super::mesh::PrimitiveNode;
use super::{
    GltfError, UnplayedChannel, animation, buffers, camera, document, hierarchy, mesh, skin,
};
use crate::read_regular;
use crate::{Animation, Skin, Transform, Trs};
use gltf::json;
use scenewalk_core::glam::{Mat4, Quat, Vec3};
use scenewalk_core::{Graph, GraphError, NodeCore, NodeId};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;
use std::path::Path;
use std::sync::Arc;

/// What to import: [`ImportOptions::default`] and its `with_` methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportOptions {
    /// The scene to import; `None` takes the file's default scene, else scene 0. One
    /// not in the file is a [`GltfError::IndexOutOfRange`] at "the options".
    pub scene: Option<usize>,
}

impl ImportOptions {
    /// The same options with [`scene`](ImportOptions::scene) set.
    #[must_use]
    pub fn with_scene(mut self, scene: Option<usize>) -> Self {
        self.scene = scene;
        self
    }
}

/// One imported glTF node.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedNode {
    /// Its [`Transform`] node in the graph.
    pub id: NodeId,
    /// Its glTF name.
    pub name: Option<String>,
    /// The glTF index of its parent (`None` for a scene root).
    pub parent: Option<usize>,
    /// Its depth in the scene: 0 for a scene root.
    pub depth: u32,
    /// The glTF index of its mesh.
    pub mesh: Option<usize>,
    /// One child per primitive of its mesh, in order: a [`Mesh`](crate::Mesh) for
    /// triangles ([`SkinnedMesh`](crate::SkinnedMesh) when the node has a skin), else a
    /// [`Geometry`](crate::Geometry) holding the POSITION box.
    pub primitives: Vec<NodeId>,
    /// The [`Camera`](crate::Camera) child, when the node has a camera.
    pub camera: Option<NodeId>,
}

/// A glTF scene as a scene graph: each glTF node a [`Transform`] (its matrix, or
/// translation × rotation × scale) with, in order, one child per primitive of its mesh,
/// its camera, and its glTF children.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The graph: only the chosen scene's nodes.
    pub graph: Graph,
    /// The scene's root nodes (graph roots), in the scene's order.
    pub roots: Vec<NodeId>,
    /// The imported scene's index; `None` when the file has no scene.
    pub scene: Option<usize>,
    /// By glTF node index: the imported node, `None` for nodes not in the scene.
    pub nodes: Vec<Option<ImportedNode>>,
    /// The glTF indices of the scene's nodes in depth-first pre-order: roots in the
    /// scene's order, children in each node's order.
    pub order: Vec<usize>,
    /// The file's animations, in order, with the channels whose node is in the scene.
    pub animations: Vec<Animation>,
    /// The channels that import but do not move the scene ([`Unplayed`](super::Unplayed)
    /// says which), by animation and channel. Empty when every channel plays.
    pub unplayed: Vec<UnplayedChannel>,
    /// By glTF skin index: the skin, if a node of the scene uses it.
    pub skins: Vec<Option<Arc<Skin>>>,
}

impl Imported {
    /// The imported glTF node `index` (`None` if it is not in the scene).
    pub fn node(&self, index: usize) -> Option<&ImportedNode> {
        self.nodes.get(index)?.as_ref()
    }
}

/// Imports a `.gltf` or `.glb` file, reading external buffers from its folder.
pub fn import(path: &Path, options: &ImportOptions) -> Result<Imported, GltfError> {
    let bytes = read_regular(path, u64::MAX).map_err(|source| GltfError::Io {
        path: path.to_owned(),
        source,
    })?;
    import_slice(&bytes, path.parent(), options)
}

/// Imports glTF or GLB bytes, external buffer files from the folder `base` (with `None`,
/// only embedded buffers can be read).
pub fn import_slice(
    bytes: &[u8],
    base: Option<&Path>,
    options: &ImportOptions,
) -> Result<Imported, GltfError> {
    // The gltf crate subtracts a GLB's 12-byte header from its declared total length
    // unchecked (an overflow panic with overflow checks on).
    if let Some(&[b'g', b'l', b'T', b'F', _, _, _, _, l0, l1, l2, l3]) = bytes.get(..12)
        && let length @ 0..12 = u32::from_le_bytes([l0, l1, l2, l3])
    {
        let declared = format!("the GLB header declares a total length of {length} bytes");
        return Err(GltfError::Parse(declared + ", less than its own 12"));
    }
    // The crate's own validation indexes arrays unchecked (a POSITION accessor out of
    // range panics in it), so the importer checks every index it follows itself.
    let document::Document {
        root,
        blob,
        set_aside,
    } = document::read(bytes)?;
    check_version(&root.asset)?;
    let parent = hierarchy::parents(&root.nodes)?;
    check_node_links(&root)?;
    let scene = choose_scene(&root, options)?;
    let buffers = buffers::load(&root, blob, base)?;

    let roots = scene.map(|(s, scene)| hierarchy::scene_roots(scene, s, &parent));
    let roots = roots.transpose()?.unwrap_or_default();
    let order = hierarchy::preorder(&root.nodes, &roots);
    let mut graph = Graph::with_capacity(order.len() * 2);
    let mut nodes: Vec<Option<ImportedNode>> = vec![None; root.nodes.len()];
    // Every node's transform first, in pre-order: a skin needs its joints' graph nodes.
    for &(n, depth) in &order {
        let Some(node) = root.nodes.get(n) else {
            continue;
        };
        // Its matrix (column-major), else T × R × S: checked, so NaN or a projective
        // matrix names the node.
        let transform = match (node.matrix, trs(node)) {
            (Some(m), _) => Transform::from_mat4(Mat4::from_cols_array(&m)),
            (None, t) => Transform::try_from_trs(t.translation, t.rotation, t.scale),
        };
        let transform = transform.map_err(|source| GltfError::BadTransform { node: n, source })?;
        let up = parent.get(n).copied().flatten();
        let id = match up.and_then(|p| nodes.get(p)?.as_ref()) {
            Some(p) if depth > 0 => graph.append_child(p.id, transform)?,
            _ => graph.add_root(transform),
        };
        if let Some(slot) = nodes.get_mut(n) {
            *slot = Some(ImportedNode {
                id,
                name: node.name.clone(),
                parent: up,
                depth,
                mesh: node.mesh.map(|m| m.value()),
                primitives: Vec::new(),
                camera: None,
            });
        }
    }
    // Then its primitives and camera, before its glTF children.
    let (mut meshes, mut decoded) = (HashMap::new(), mesh::Decoded::new());
    let (mut skins, mut posed) = (HashMap::new(), HashMap::new());
    for &(n, _) in &order {
        let (Some(node), Some(Some(ImportedNode { id, .. }))) = (root.nodes.get(n), nodes.get(n))
        else {
            continue;
        };
        let id = *id;
        let before = graph.first_child(id)?;
        let mut primitives = Vec::new();
        if let Some(m) = node.mesh.map(|m| m.value()) {
            let mut made = cached(&mut meshes, m, || {
                mesh::primitives(&root, &buffers, m, &mut decoded)
            })?;
            if let Some(s) = node.skin.map(|s| s.value()) {
                let skin = cached(&mut skins, s, || skin::skin(&root, &buffers, s, &nodes))?;
                made = cached(&mut posed, (m, s), || {
                    skin::skinned(&root, &buffers, m, made, &skin, s)
                })?;
            }
            for primitive in made {
                primitives.push(match primitive {
                    PrimitiveNode::Mesh(m) => add(&mut graph, id, before, m),
                    PrimitiveNode::Geometry(g, _) => add(&mut graph, id, before, g),
                    PrimitiveNode::Skinned(s) => add(&mut graph, id, before, s),
                }?);
            }
        }
        let camera = node.camera.map(|c| camera::camera(&root, c.value()));
        let camera = camera.transpose()?.map(|c| add(&mut graph, id, before, c));
        let camera = camera.transpose()?;
        if let Some(Some(imported)) = nodes.get_mut(n) {
            imported.primitives = primitives;
            imported.camera = camera;
        }
    }
    let (animations, unplayed) = animation::animations(&root, &buffers, &nodes, set_aside)?;
    Ok(Imported {
        // In slot order, which is the scene's: the graph is new and made in pre-order.
        roots: graph.roots().collect(),
        graph,
        scene: scene.map(|(s, _)| s),
        nodes,
        order: order.into_iter().map(|(n, _)| n).collect(),
        animations,
        unplayed,
        skins: (0..root.skins.len()).map(|s| skins.remove(&s)).collect(),
    })
}

/// `cache[key]`, made by `make` and kept the first time: data many nodes name is read once.
pub(crate) fn cached<K: Hash + Eq, T: Clone, E>(
    cache: &mut HashMap<K, T>,
    key: K,
    make: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    match cache.entry(key) {
        Entry::Occupied(done) => Ok(done.get().clone()),
        Entry::Vacant(slot) => Ok(slot.insert(make()?).clone()),
    }
}

/// Adds `payload` below `parent`: before `before`, else last.
fn add<T: NodeCore>(
    graph: &mut Graph,
    parent: NodeId,
    before: Option<NodeId>,
    payload: T,
) -> Result<NodeId, GraphError> {
    match before {
        Some(sibling) => graph.insert_before(sibling, payload),
        None => graph.append_child(parent, payload),
    }
}

/// glTF 2.x only, and no `minVersion` above 2.0 (features this importer does not know).
fn check_version(asset: &json::Asset) -> Result<(), GltfError> {
    let parse = |version: &str| {
        let mut parts = version.split('.').map(|p| p.parse::<u32>().ok());
        (parts.next().flatten(), parts.next().flatten())
    };
    let major = Some(&asset.version).filter(|v| parse(v).0 != Some(2));
    let min = (asset.min_version.as_ref()).filter(|m| parse(m) != (Some(2), Some(0)));
    let bad = major.or(min).cloned();
    bad.map_or(Ok(()), |v| Err(GltfError::UnsupportedVersion(v)))
}

/// Every node's mesh, skin and camera index is in range.
fn check_node_links(root: &json::Root) -> Result<(), GltfError> {
    for (n, node) in root.nodes.iter().enumerate() {
        let at = |what| move || format!("nodes[{n}].{what}");
        if let Some(m) = node.mesh {
            get(&root.meshes, m.value(), "mesh", at("mesh"))?;
        }
        if let Some(s) = node.skin {
            get(&root.skins, s.value(), "skin", at("skin"))?;
        }
        if let Some(c) = node.camera {
            get(&root.cameras, c.value(), "camera", at("camera"))?;
        }
    }
    Ok(())
}

/// The option's scene, else the file's default, else scene 0 (if any), with its index.
fn choose_scene<'r>(
    root: &'r json::Root,
    options: &ImportOptions,
) -> Result<Option<(usize, &'r json::Scene)>, GltfError> {
    let (scene, at) = match (options.scene, root.scene) {
        (Some(scene), _) => (scene, "the options"),
        (None, Some(s)) => (s.value(), "scene"),
        (None, None) => return Ok(root.scenes.first().map(|s| (0, s))),
    };
    let found = get(&root.scenes, scene, "scene", || at.into())?;
    Ok(Some((scene, found)))
}

/// The node's translation, rotation and scale as the file gives them.
pub(crate) fn trs(node: &json::Node) -> Trs {
    Trs {
        translation: node.translation.map_or(Vec3::ZERO, Vec3::from_array),
        rotation: node
            .rotation
            .map_or(Quat::IDENTITY, |q| Quat::from_array(q.0)),
        scale: node.scale.map_or(Vec3::ONE, Vec3::from_array),
    }
}
