//! The robot as a scenewalk graph: link nodes joined by joint nodes.

use super::model::Robot;
use crate::Transform;
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Graph, GraphError, NodeCore, NodeId, ParentType};

/// A link of a robot graph: its index in the [`Robot`]. World transforms pass
/// through it unchanged (its frame is its parent joint's child frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkNode {
    /// The link's index.
    pub link: u32,
}

impl NodeCore for LinkNode {}

/// A joint of a robot graph: a [`Transform`] (its parent type, so every
/// world-transform pass composes it) whose local matrix is `origin · motion(values)`
/// at the configuration last [`pose`](Self::pose)d, with the joint's index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointNode {
    transform: Transform,
    /// The joint's index.
    pub joint: u32,
}

impl NodeCore for JointNode {
    fn base(&self) -> Option<&dyn NodeCore> {
        Some(&self.transform)
    }
    fn parent_type() -> Option<ParentType> {
        Some(ParentType::of::<Transform>())
    }
}

impl JointNode {
    /// The joint `joint`'s node at the zero configuration.
    pub fn new(robot: &Robot, joint: u32) -> Self {
        let local = match robot.joints().get(joint as usize) {
            Some(j) => robot.joint_local(j, &[]),
            None => Affine3A::IDENTITY,
        };
        Self {
            transform: Transform::from_affine(local),
            joint,
        }
    }

    /// The local matrix: origin · motion.
    pub fn local(&self) -> &Affine3A {
        self.transform.local()
    }

    /// Sets the local matrix to `origin · motion(values)` for the configuration
    /// `values` (of [`Robot::dof`] values; missing ones read as zero).
    pub fn pose(&mut self, robot: &Robot, values: &[f32]) {
        if let Some(joint) = robot.joints().get(self.joint as usize) {
            self.transform.set_local(robot.joint_local(joint, values));
        }
    }
}

/// A robot's graph and where each link and joint sits in it.
#[derive(Clone, Debug)]
pub struct RobotGraph {
    /// The graph: the root link's node at the top; under each link node, its child
    /// joints' nodes in file order; under each joint node, its child link's node.
    pub graph: Graph,
    /// Per link (file order), its node.
    pub links: Vec<NodeId>,
    /// Per joint (file order), its node.
    pub joints: Vec<NodeId>,
}

impl RobotGraph {
    /// The root link's node.
    pub fn root(&self, robot: &Robot) -> Option<NodeId> {
        self.links.get(robot.root()).copied()
    }
}

impl Robot {
    /// The robot as a [`Graph`] at the zero configuration (see [`RobotGraph`]).
    /// Errors: none in practice (the tree is checked); a graph error is passed on.
    pub fn build_graph(&self) -> Result<RobotGraph, GraphError> {
        let mut graph = Graph::new();
        let mut links = vec![None; self.links().len()];
        let mut joints = vec![None; self.joints().len()];
        let root = graph.add_root(LinkNode {
            link: self.root() as u32,
        });
        if let Some(slot) = links.get_mut(self.root()) {
            *slot = Some(root);
        }
        for &j in self.order() {
            let Some(joint) = self.joints().get(j) else {
                continue;
            };
            // Parents first: the parent link's node exists.
            let Some(parent) = links.get(joint.parent).copied().flatten() else {
                continue;
            };
            let node = graph.append_child(parent, JointNode::new(self, j as u32))?;
            let link = graph.append_child(
                node,
                LinkNode {
                    link: joint.child as u32,
                },
            )?;
            if let Some(slot) = joints.get_mut(j) {
                *slot = Some(node);
            }
            if let Some(slot) = links.get_mut(joint.child) {
                *slot = Some(link);
            }
        }
        // The tree is checked: every link and joint got its node.
        debug_assert!(links.iter().chain(&joints).all(Option::is_some));
        Ok(RobotGraph {
            graph,
            links: links.into_iter().flatten().collect(),
            joints: joints.into_iter().flatten().collect(),
        })
    }
}
