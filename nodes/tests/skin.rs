//! Skins: the exact skinned box against brute-force vertex skinning in f64, the
//! conservative box containing it, on generated animated skins at random times; the
//! checks of skins and skinned meshes; skins imported from glTF.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]
#![cfg(feature = "gltf")]

mod common;

use common::skinning::check_bounds;
use common::{Accessors, doc, import};
use proptest::prelude::*;
use scenewalk_core::glam::{Affine3A, Quat, Vec3};
use scenewalk_core::{Aabb, Graph, NodeId};
use scenewalk_nodes::gltf::GltfError;
use scenewalk_nodes::{
    Animation, AnimationPlayer, Channel, Group, Interpolation, Mesh, Property, Skin, SkinError,
    SkinnedMesh, Transform, Trs,
};
use serde_json::json;
use std::sync::Arc;

/// Two translation and rotation keys.
type Keys = ([f32; 3], [f32; 4], [f32; 3], [f32; 4]);

/// A generated character: joints in a random tree under a root, each joint's
/// translation and rotation animated; a mesh whose vertices follow up to four random
/// joints with random (unnormalized, some zero) weights.
#[derive(Debug, Clone)]
struct Character {
    parents: Vec<usize>,
    /// Per joint: translation and rotation at time 0, then at time 1.
    keys: Vec<Keys>,
    vertices: Vec<([f32; 3], [u16; 4], [f32; 4])>,
    inverse_shift: [f32; 3],
}

fn character() -> impl Strategy<Value = Character> {
    (1usize..8).prop_flat_map(|joints| {
        let parents = prop::collection::vec(0usize..100, joints);
        let v3 = || prop::array::uniform3(-3.0f32..3.0);
        let q = || {
            prop::array::uniform4(-1.0f32..1.0)
                .prop_filter("a rotation", |q| q.iter().map(|c| c * c).sum::<f32>() > 0.1)
        };
        let keys = prop::collection::vec((v3(), q(), v3(), q()), joints);
        let weight = prop_oneof![Just(0.0f32), 0.01f32..2.0];
        let vertex = (
            v3(),
            prop::array::uniform4(0..joints as u16),
            prop::array::uniform4(weight),
        )
            .prop_filter("a weight", |(_, _, w)| w.iter().sum::<f32>() > 0.01);
        let vertices = prop::collection::vec(vertex, 1..40);
        (parents, keys, vertices, v3()).prop_map(|(parents, keys, vertices, inverse_shift)| {
            Character {
                parents,
                keys,
                vertices,
                inverse_shift,
            }
        })
    })
}

/// The character in a graph: its skinned mesh under a node of its own, and the player
/// of its animation.
fn build(c: &Character) -> (Graph, SkinnedMesh, AnimationPlayer) {
    let mut graph = Graph::new();
    let root = graph.add_root(Group);
    let mut joints: Vec<NodeId> = Vec::new();
    for (j, &p) in c.parents.iter().enumerate() {
        let parent = if j == 0 { root } else { joints[p % j] };
        joints.push(graph.append_child(parent, Transform::IDENTITY).unwrap());
    }
    // A moved mesh node: glTF skinning ignores it.
    let holder = graph
        .append_child(root, Transform::from_translation(Vec3::splat(100.0)))
        .unwrap();
    let channels = joints
        .iter()
        .zip(&c.keys)
        .flat_map(|(&j, (t0, q0, t1, q1))| {
            let times: Arc<[f32]> = vec![0.0, 1.0].into();
            [
                Channel::new(
                    j,
                    Property::Translation,
                    Interpolation::Linear,
                    times.clone(),
                    [*t0, *t1].concat().into(),
                ),
                Channel::new(
                    j,
                    Property::Rotation,
                    Interpolation::Linear,
                    times,
                    [*q0, *q1].concat().into(),
                ),
            ]
        });
    let channels = channels.collect::<Result<Vec<_>, _>>().unwrap();
    let player = AnimationPlayer::new(Animation::new(None, channels, |_| Trs::IDENTITY));
    let binds = (0..joints.len())
        .map(|j| {
            Affine3A::from_scale_rotation_translation(
                Vec3::splat(1.0 + j as f32 * 0.25),
                Quat::from_rotation_y(j as f32),
                Vec3::from(c.inverse_shift),
            )
        })
        .collect();
    let skin = Arc::new(Skin::new(joints, Some(binds), None).unwrap());
    let positions = c.vertices.iter().map(|v| Vec3::from(v.0)).collect();
    let mesh = Mesh::new(positions, vec![[0, 0, 0]]).unwrap();
    let (js, ws) = c.vertices.iter().map(|v| (v.1, v.2)).unzip();
    let skinned = SkinnedMesh::new(mesh, skin, js, ws).unwrap();
    graph.append_child(holder, skinned.clone()).unwrap();
    (graph, skinned, player)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn exact_equals_brute_force_and_conservative_holds_it_at_random_times(
        c in character(),
        times in prop::collection::vec(-0.5f32..1.5, 1..6),
    ) {
        let (mut graph, skinned, mut player) = build(&c);
        // Every vertex's weights sum to 1 and every joint box holds exactly the
        // vertices the joint moves.
        for ws in skinned.weights() {
            prop_assert!((ws.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        }
        for (j, b) in skinned.joint_bounds().iter().enumerate() {
            let moved = skinned.mesh().positions().iter().zip(skinned.joints().zip(skinned.weights()))
                .filter(|(_, (js, ws))| js.iter().zip(ws.iter()).any(|(&k, &w)| usize::from(k) == j && w > 0.0))
                .map(|(p, _)| *p);
            prop_assert_eq!(*b, Aabb::from_points(moved));
        }
        for t in times {
            player.apply(&mut graph, t).unwrap();
            check_bounds(&graph, &skinned);
        }
    }
}

#[test]
fn the_conservative_box_is_tight_for_rigid_vertices_and_none_without_matrices() {
    let mut graph = Graph::new();
    let joint = graph.add_root(Transform::IDENTITY);
    let skin = Arc::new(Skin::new(vec![joint], None, None).unwrap());
    let mesh = Mesh::new(vec![Vec3::ZERO, Vec3::ONE, Vec3::X], vec![[0, 1, 2]]).unwrap();
    let skinned =
        SkinnedMesh::new(mesh, skin, vec![[0; 4]; 3], vec![[1.0, 0.0, 0.0, 0.0]; 3]).unwrap();
    let m = [Affine3A::from_translation(Vec3::new(10.0, 0.0, 0.0))];
    let exact = skinned.exact_bounds(&m).unwrap();
    assert_eq!(
        exact,
        Aabb::new(Vec3::new(10.0, 0.0, 0.0), Vec3::new(11.0, 1.0, 1.0))
    );
    let conservative = skinned.conservative_bounds(&m).unwrap();
    assert!((conservative.min - exact.min).abs().max_element() < 1e-4);
    assert!((conservative.max - exact.max).abs().max_element() < 1e-4);
    assert_eq!(skinned.exact_bounds(&[]), None);
    assert_eq!(skinned.conservative_bounds(&[]), None);
}

#[test]
fn skins_and_skinned_meshes_refuse_bad_input() {
    let mut graph = Graph::new();
    let (a, b) = (
        graph.add_root(Transform::IDENTITY),
        graph.add_root(Transform::IDENTITY),
    );
    assert_eq!(Skin::new(vec![], None, None), Err(SkinError::NoJoints));
    assert_eq!(
        Skin::new(vec![a, b], Some(vec![Affine3A::IDENTITY]), None),
        Err(SkinError::TooFewInverseBinds {
            joints: 2,
            matrices: 1
        })
    );
    let nan = Affine3A::from_translation(Vec3::new(0.0, f32::NAN, 0.0));
    assert_eq!(
        Skin::new(vec![a, b], Some(vec![Affine3A::IDENTITY, nan]), None),
        Err(SkinError::BadInverseBind { joint: 1 })
    );
    let skin = Arc::new(Skin::new(vec![a, b], None, Some(a)).unwrap());
    assert_eq!((skin.skeleton(), skin.inverse_binds().len()), (Some(a), 2));
    let mesh = Mesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]]).unwrap();
    let make = |joints: Vec<[u16; 4]>, weights: Vec<[f32; 4]>| {
        SkinnedMesh::new(mesh.clone(), skin.clone(), joints, weights)
    };
    let one = [1.0, 0.0, 0.0, 0.0];
    assert_eq!(
        make(vec![[0; 4]; 2], vec![one; 3]).err(),
        Some(SkinError::LengthMismatch {
            positions: 3,
            joints: 2,
            weights: 3
        })
    );
    // Any joint index out of range, weighted or not (the specification's rule).
    assert_eq!(
        make(vec![[0; 4], [0, 0, 2, 0], [0; 4]], vec![one; 3]).err(),
        Some(SkinError::JointOutOfRange {
            vertex: 1,
            joint: 2,
            joints: 2
        })
    );
    for bad in [
        [-0.5, 1.0, 0.0, 0.0],
        [f32::NAN, 1.0, 0.0, 0.0],
        [0.0; 4],
        [f32::INFINITY, 0.0, 0.0, 0.0],
    ] {
        assert_eq!(
            make(vec![[0; 4]; 3], vec![one, one, bad]).err(),
            Some(SkinError::BadWeights { vertex: 2 }),
            "{bad:?}"
        );
    }
    // A skin with fewer joints than the mesh names is refused by `with_skin`.
    let skinned = make(vec![[0; 4], [1, 0, 0, 0], [0; 4]], vec![one; 3]).unwrap();
    let small = Arc::new(Skin::new(vec![b], None, None).unwrap());
    assert_eq!(
        skinned.with_skin(small).err(),
        Some(SkinError::JointOutOfRange {
            vertex: 1,
            joint: 1,
            joints: 1
        })
    );
    let swapped = Arc::new(skin.retarget(|j| if j == a { b } else { a }));
    assert_eq!(
        (swapped.joints(), swapped.skeleton()),
        (&[b, a][..], Some(b))
    );
    let other = skinned.with_skin(swapped.clone()).unwrap();
    assert!(Arc::ptr_eq(other.skin(), &swapped) && other.mesh().shares_data(skinned.mesh()));
    // A joint without a world matrix names itself.
    let mut out = Vec::new();
    assert_eq!(
        skin.joint_matrices(|j| (j == a).then_some(Affine3A::IDENTITY), &mut out),
        Err(b)
    );
}

/// A glTF file: node 0 the skinned mesh (with a camera and a child), nodes 1 and 2
/// joints; a triangle whose vertices carry `joints` (`joint_type` GL component type)
/// and `weights` (bytes of `weight_type`, normalized unless float).
fn skinned_file(
    joints: &[u16],
    joint_type: u32,
    weights: &[u8],
    weight_type: u32,
) -> serde_json::Value {
    let nodes = json!([
        {"mesh": 0, "skin": 0, "camera": 0, "children": [3], "translation": [50, 0, 0]},
        {"translation": [0, 1, 0], "children": [2]},
        {"rotation": [0, 0, 0.6, 0.8]},
        {}
    ]);
    let mut doc = doc(nodes, json!([{"nodes": [0, 1]}]));
    let mut accessors = Accessors::default();
    let positions = accessors.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    let joint_bytes: Vec<u8> = match joint_type {
        5121 => joints.iter().map(|&j| j as u8).collect(),
        _ => joints.iter().flat_map(|j| j.to_le_bytes()).collect(),
    };
    let j = accessors.raw(&joint_bytes, joint_type, false, "VEC4", 3);
    let w = accessors.raw(weights, weight_type, weight_type != 5126, "VEC4", 3);
    #[rustfmt::skip]
    let binds = accessors.floats(&[
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0,
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -2.0, 0.0, 1.0,
    ], "MAT4", 16);
    accessors.finish(&mut doc);
    doc["meshes"] = json!([{"primitives": [{"attributes": {"POSITION": positions, "JOINTS_0": j, "WEIGHTS_0": w}}]}]);
    doc["skins"] = json!([{"joints": [1, 2], "inverseBindMatrices": binds, "skeleton": 1}]);
    doc["cameras"] = json!([{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}}]);
    doc
}

#[test]
fn gltf_skins_import_with_every_joint_and_weight_type() {
    let f32s = |w: &[f32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let u16s = |w: &[u16]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let joints = [0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0];
    for (joint_type, weights, weight_type) in [
        (
            5121,
            f32s(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0]),
            5126,
        ),
        (5123, vec![255, 0, 0, 0, 255, 0, 0, 0, 128, 127, 0, 0], 5121),
        (
            5123,
            u16s(&[65535, 0, 0, 0, 65535, 0, 0, 0, 30000, 30000, 0, 0]),
            5123,
        ),
    ] {
        let imported = import(&skinned_file(&joints, joint_type, &weights, weight_type)).unwrap();
        let node = imported.node(0).unwrap();
        let graph = &imported.graph;
        // The skinned primitive comes first, before the camera and the glTF child.
        let children: Vec<NodeId> = graph.children(node.id).unwrap().collect();
        assert_eq!(children[0], node.primitives[0]);
        assert_eq!(Some(children[1]), node.camera);
        assert_eq!(children[2], imported.node(3).unwrap().id);
        let skinned = graph.get::<SkinnedMesh>(node.primitives[0]).unwrap();
        let skin = imported.skins[0].as_ref().unwrap();
        assert!(Arc::ptr_eq(skinned.skin(), skin));
        assert_eq!(
            skin.joints(),
            [imported.node(1).unwrap().id, imported.node(2).unwrap().id]
        );
        assert_eq!(skin.skeleton(), imported.node(1).map(|n| n.id));
        assert_eq!(skinned.influences_per_vertex(), 4);
        assert_eq!(skinned.joints().nth(1).unwrap(), [1, 0, 0, 0]);
        assert_eq!(skinned.weights().nth(1).unwrap(), [1.0, 0.0, 0.0, 0.0]);
        // Quantized weights that do not sum to one are normalized.
        let w = skinned.weights().nth(2).unwrap();
        assert!(
            (w[0] + w[1] - 1.0).abs() < 1e-6 && (w[0] - 0.5).abs() < 0.01,
            "{w:?}"
        );
        check_bounds(graph, skinned);
        // Actors that know no skins still see a mesh.
        assert_eq!(
            graph
                .get::<Mesh>(node.primitives[0])
                .unwrap()
                .geometry()
                .primitives(),
            1
        );
    }
}

#[test]
fn gltf_skin_errors_name_the_skin_and_the_fault() {
    let joints = [0u16, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0];
    let one = 1.0f32.to_le_bytes().to_vec();
    let weights: Vec<u8> = (0..3)
        .flat_map(|_| [one.clone(), vec![0; 12]].concat())
        .collect();
    let good = skinned_file(&joints, 5123, &weights, 5126);
    import(&good).unwrap();

    let mut bad = joints;
    bad[9] = 2;
    let e = import(&skinned_file(&bad, 5123, &weights, 5126)).unwrap_err();
    assert!(
        matches!(&e, GltfError::BadSkin { skin: 0, at, source: SkinError::JointOutOfRange { vertex: 2, joint: 2, joints: 2 } } if at == "meshes[0].primitives[0]"),
        "{e:?}"
    );

    let mut doc = good.clone();
    doc["meshes"][0]["primitives"][0]["attributes"]
        .as_object_mut()
        .unwrap()
        .remove("WEIGHTS_0");
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(&e, GltfError::Invalid { at, reason } if at == "meshes[0].primitives[0].attributes" && reason.contains("WEIGHTS_0")),
        "{e:?}"
    );

    let mut doc = good.clone();
    doc["skins"][0]["joints"] = json!([1, 2, 3]);
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(
            &e,
            GltfError::BadSkin {
                skin: 0,
                source: SkinError::TooFewInverseBinds {
                    joints: 3,
                    matrices: 2
                },
                ..
            }
        ),
        "{e:?}"
    );

    let mut doc = good.clone();
    doc["skins"][0]["joints"] = json!([1, 9]);
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, index: 9, .. } if at == "skins[0].joints[1]"),
        "{e:?}"
    );

    let mut doc = good.clone();
    doc["nodes"].as_array_mut().unwrap().push(json!({}));
    doc["skins"][0]["joints"] = json!([1, 4]);
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(&e, GltfError::Invalid { at, reason } if at == "skins[0].joints[1]" && reason.contains("not in the imported scene")),
        "{e:?}"
    );

    let mut doc = good.clone();
    doc["nodes"][0]["skin"] = json!(4);
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(&e, GltfError::IndexOutOfRange { at, what: "skin", index: 4, count: 1 } if at == "nodes[0].skin"),
        "{e:?}"
    );

    // A projective inverse bind matrix.
    let mut doc = good.clone();
    let mut accessors = Accessors::default();
    let mut projective = [0.0f32; 32];
    for k in [0, 5, 10, 15, 16, 21, 26, 31] {
        projective[k] = 1.0;
    }
    projective[3] = 0.5;
    // Rebuilt from scratch: reuse the file's own accessors 0 to 2, then the matrices.
    let j: Vec<u8> = joints.iter().flat_map(|j| j.to_le_bytes()).collect();
    accessors.floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3", 3);
    accessors.raw(&j, 5123, false, "VEC4", 3);
    accessors.raw(&weights, 5126, false, "VEC4", 3);
    accessors.floats(&projective, "MAT4", 16);
    accessors.finish(&mut doc);
    let e = import(&doc).unwrap_err();
    assert!(
        matches!(
            &e,
            GltfError::BadSkin {
                skin: 0,
                source: SkinError::BadInverseBind { joint: 0 },
                ..
            }
        ),
        "{e:?}"
    );
}

/// Compaction renumbers nodes; a skinned mesh's joints and skeleton follow them, so
/// the skin still names the same nodes, live, and a clone of the graph taken before
/// keeps its own ids.
#[test]
fn a_skin_follows_its_joints_through_a_compaction() {
    let mut graph = Graph::new();
    let root = graph.add_root(Transform::IDENTITY);
    let holder = graph.append_child(root, Transform::IDENTITY).unwrap();
    let gap = graph.append_child(root, Transform::IDENTITY).unwrap();
    let joints: Vec<NodeId> = (0..4)
        .map(|k| {
            let t = Transform::from_translation(Vec3::new(k as f32, 0.0, 0.0));
            graph.append_child(holder, t).unwrap()
        })
        .collect();
    let skin = Arc::new(Skin::new(joints.clone(), None, Some(holder)).unwrap());
    let mesh = Mesh::new(vec![Vec3::ZERO, Vec3::ONE, Vec3::X], vec![[0, 1, 2]]).unwrap();
    let skinned = SkinnedMesh::new(mesh, skin, vec![[0, 1, 2, 3]; 3], vec![[0.25; 4]; 3]).unwrap();
    let mesh_node = graph.append_child(root, skinned).unwrap();
    // The skinned mesh and one more node moved before the joints' parent, and a node
    // dropped: the compaction renumbers the joints.
    let extra = graph.append_child(root, Transform::IDENTITY).unwrap();
    for node in [mesh_node, extra] {
        graph.set_parent(node, Some(root), Some(holder)).unwrap();
    }
    graph.remove(gap).unwrap();
    let before = graph.clone();

    let remap = graph.compact().unwrap();
    assert!(remap.moved() > 0);
    let mesh_node = remap.get(mesh_node).unwrap();
    let skin = graph.get::<SkinnedMesh>(mesh_node).unwrap().skin();
    let expect: Vec<NodeId> = joints.iter().map(|&j| remap.get(j).unwrap()).collect();
    assert_ne!(expect, joints, "the joints moved");
    assert_eq!(skin.joints(), expect.as_slice());
    assert_eq!(skin.skeleton(), remap.get(holder));
    assert!(
        skin.joints()
            .iter()
            .all(|&j| graph.get::<Transform>(j).is_ok())
    );
    // The clone kept its own columns and ids.
    let old_mesh = before.roots().next().unwrap();
    let kept = before
        .children(old_mesh)
        .unwrap()
        .find_map(|c| before.get::<SkinnedMesh>(c).ok())
        .unwrap();
    assert_eq!(kept.skin().joints(), joints.as_slice());
}

/// One vertex of [`sets_case`]: its position and, per set, four joints and weights.
type SetVertex = ([f32; 3], Vec<([u16; 4], [f32; 4])>);

/// Up to six joint matrices and vertices with one to three influence sets each.
fn sets_case() -> impl Strategy<Value = (Vec<[f32; 12]>, Vec<SetVertex>)> {
    (1usize..7, 1usize..4).prop_flat_map(|(joints, sets)| {
        let matrix = prop::array::uniform12(-2.0f32..2.0);
        let weight = prop_oneof![Just(0.0f32), 0.01f32..2.0];
        let set = (
            prop::array::uniform4(0..joints as u16),
            prop::array::uniform4(weight),
        );
        let vertex = (
            prop::array::uniform3(-3.0f32..3.0),
            prop::collection::vec(set, sets),
        )
            .prop_filter("a weight", |(_, sets)| {
                sets.iter().flat_map(|s| s.1).sum::<f32>() > 0.01
            });
        (
            prop::collection::vec(matrix, joints),
            prop::collection::vec(vertex, 1..20),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// Every set takes part: each posed vertex is Σ wᵢ · Mᵢ · v over the influences of
    /// all its sets, weights divided by their sum over all sets (brute force in f64
    /// from the sets themselves), and the boxes agree with the posed vertices.
    #[test]
    fn every_influence_set_poses_its_vertices((matrices, vertices) in sets_case()) {
        let mut graph = Graph::new();
        let joints = (0..matrices.len()).map(|_| graph.add_root(Transform::IDENTITY)).collect();
        let skin = Arc::new(Skin::new(joints, None, None).unwrap());
        let positions: Vec<Vec3> = vertices.iter().map(|v| Vec3::from(v.0)).collect();
        let mesh = Mesh::new(positions, vec![[0, 0, 0]]).unwrap();
        let count = vertices[0].1.len();
        let sets: Vec<_> = (0..count)
            .map(|s| vertices.iter().map(|v| v.1[s]).unzip())
            .collect();
        let skinned = SkinnedMesh::from_sets(mesh.clone(), skin.clone(), sets).unwrap();
        prop_assert_eq!(skinned.influences_per_vertex(), 4 * count);
        let matrices: Vec<Affine3A> = matrices.iter().map(Affine3A::from_cols_array).collect();
        let posed: Vec<Vec3> = skinned.posed_positions(&matrices).unwrap().collect();
        for ((p, sets), got) in vertices.iter().zip(&posed) {
            let influences = sets.iter().flat_map(|(js, ws)| js.iter().zip(ws));
            let sum: f64 = sets.iter().flat_map(|s| s.1).map(f64::from).sum();
            let p = Vec3::from(*p).as_dvec3();
            let want: scenewalk_core::glam::DVec3 = influences
                .map(|(&j, &w)| {
                    f64::from(w) / sum * matrices[usize::from(j)].as_daffine3().transform_point3(p)
                })
                .sum();
            let scale = 1.0 + want.abs().max_element() + 10.0 * p.abs().max_element();
            prop_assert!(got.as_dvec3().abs_diff_eq(want, 1e-5 * scale), "{got} vs {want}");
        }
        let exact = skinned.exact_bounds(&matrices).unwrap();
        prop_assert_eq!(exact, posed.iter().fold(Aabb::EMPTY, |b, &p| b.including(p)));
        let conservative = skinned.conservative_bounds(&matrices).unwrap();
        prop_assert!(conservative.union(&exact) == conservative, "{conservative:?} {exact:?}");
        // One set through `from_sets` is `new`.
        if count == 1 {
            let (js, ws) = vertices.iter().map(|v| v.1[0]).unzip();
            let one = SkinnedMesh::new(mesh, skin, js, ws).unwrap();
            prop_assert_eq!(one.exact_bounds(&matrices), Some(exact));
        }
    }
}

#[test]
fn no_sets_or_a_set_of_the_wrong_length_is_refused() {
    let mut graph = Graph::new();
    let skin = Arc::new(Skin::new(vec![graph.add_root(Transform::IDENTITY)], None, None).unwrap());
    let mesh = Mesh::new(vec![Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]]).unwrap();
    let e = SkinnedMesh::from_sets(mesh.clone(), skin.clone(), Vec::new()).err();
    assert_eq!(
        e,
        Some(SkinError::LengthMismatch {
            positions: 3,
            joints: 0,
            weights: 0
        })
    );
    let good = (vec![[0; 4]; 3], vec![[1.0, 0.0, 0.0, 0.0]; 3]);
    let short = (vec![[0; 4]; 3], vec![[1.0, 0.0, 0.0, 0.0]; 2]);
    let e = SkinnedMesh::from_sets(mesh, skin, vec![good, short]).err();
    assert_eq!(
        e,
        Some(SkinError::LengthMismatch {
            positions: 3,
            joints: 3,
            weights: 2
        })
    );
}

/// `Skin`'s example: a joint matrix is the joint's world matrix times its inverse bind.
#[test]
fn a_joint_matrix_is_world_times_inverse_bind() {
    let mut graph = Graph::new();
    let bone = graph.add_root(Transform::from_translation(Vec3::X));
    let bind = Affine3A::from_translation(-Vec3::Y);
    let skin = Skin::new(vec![bone], Some(vec![bind]), None).unwrap();
    let mut matrices = Vec::new();
    let world = |_| Some(Affine3A::from_translation(Vec3::Z));
    skin.joint_matrices(world, &mut matrices).unwrap();
    let origin = matrices[0].transform_point3(Vec3::ZERO);
    assert_eq!(origin, Vec3::new(0.0, -1.0, 1.0));
}
