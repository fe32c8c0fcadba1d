//! A robot posed through the library's incremental update pass.

use super::{RobotError, check_values};
use crate::{IncrementalUpdate, UpdateStats};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{NodeId, ResultsError};
use scenewalk_nodes::urdf::{JointNode, Robot, RobotGraph, Source};
use std::sync::Arc;

/// A robot's graph at a configuration, and the update pass that poses its links.
///
/// [`set_values`](Self::set_values) re-poses the joint nodes whose values changed
/// (mimics of a changed joint included), which marks them changed in the graph;
/// [`update`](Self::update) runs [`IncrementalUpdate`], which re-walks only those
/// joints' subtrees; [`link_pose`](Self::link_pose) and
/// [`link_poses`](Self::link_poses) read the pass's world transforms.
#[derive(Debug)]
pub struct RobotScene {
    robot: Arc<Robot>,
    graph: RobotGraph,
    root: NodeId,
    update: IncrementalUpdate,
    values: Vec<f32>,
    /// Per variable, the joints whose motion reads it.
    readers: Vec<Vec<u32>>,
    /// Scratch: the joints to re-pose.
    moved: Vec<u32>,
}

impl RobotScene {
    /// `robot` at the zero configuration, not yet updated. Errors: a graph error (none
    /// for a checked robot).
    pub fn new(robot: Arc<Robot>) -> Result<Self, RobotError> {
        let graph = robot.build_graph()?;
        let root = graph.root(&robot).ok_or(RobotError::NoLink(robot.root()))?;
        let mut readers = vec![Vec::new(); robot.dof()];
        for (j, joint) in robot.joints().iter().enumerate() {
            let read = match joint.source {
                Source::None => 0..0,
                Source::Own(at) => at..at + joint.kind.values(),
                Source::Mimic { variable, .. } => variable..variable + 1,
            };
            for variable in read {
                if let Some(list) = readers.get_mut(variable) {
                    list.push(j as u32);
                }
            }
        }
        Ok(Self {
            values: vec![0.0; robot.dof()],
            robot,
            graph,
            root,
            update: IncrementalUpdate::new(),
            moved: Vec::with_capacity(readers.iter().map(Vec::len).sum()),
            readers,
        })
    }

    /// The robot described.
    pub fn robot(&self) -> &Arc<Robot> {
        &self.robot
    }

    /// The graph and its link and joint nodes.
    pub fn graph(&self) -> &RobotGraph {
        &self.graph
    }

    /// The current configuration.
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// The update pass (its results: [`IncrementalUpdate::results`]).
    pub fn update_pass(&self) -> &IncrementalUpdate {
        &self.update
    }

    /// Sets the configuration; re-poses the joints whose values changed and returns
    /// how many. Errors: the wrong length or a non-finite value (nothing is changed).
    pub fn set_values(&mut self, values: &[f32]) -> Result<usize, RobotError> {
        check_values(&self.robot, values)?;
        self.moved.clear();
        for ((old, &new), readers) in self.values.iter_mut().zip(values).zip(&self.readers) {
            if *old != new {
                *old = new;
                self.moved.extend(readers);
            }
        }
        self.moved.sort_unstable();
        self.moved.dedup();
        for &joint in &self.moved {
            let node = self.graph.joints.get(joint as usize).copied();
            let node = node.ok_or(RobotError::NoLink(joint as usize))?;
            self.graph
                .graph
                .get_mut::<JointNode>(node)?
                .pose(&self.robot, &self.values);
        }
        Ok(self.moved.len())
    }

    /// Sets one variable by its name ([`Robot::variable_names`]: a one-value joint's
    /// name). Errors: an unknown name, a non-finite value.
    pub fn set_value(&mut self, name: &str, value: f32) -> Result<(), RobotError> {
        let names = self.robot.variable_names();
        let index = names.iter().position(|n| n == name);
        let index = index.ok_or_else(|| RobotError::UnknownVariable(name.to_owned()))?;
        let mut values = self.values.clone();
        if let Some(slot) = values.get_mut(index) {
            *slot = value;
        }
        self.set_values(&values).map(|_| ())
    }

    /// Brings every link's world pose up to date: the incremental update pass over the
    /// graph (a full run the first time).
    pub fn update(&mut self) -> Result<UpdateStats, RobotError> {
        Ok(self.update.run(&self.graph.graph, self.root)?)
    }

    /// The world pose of `link` after the last [`update`](Self::update). Errors: a link
    /// out of range; results that no longer describe the graph (no update since a set).
    pub fn link_pose(&self, link: usize) -> Result<Affine3A, RobotError> {
        let node = self.graph.links.get(link).ok_or(RobotError::NoLink(link))?;
        Ok(self.update.world(&self.graph.graph, *node)?)
    }

    /// Every link's world pose into `out` (one per link). Errors: as
    /// [`link_pose`](Self::link_pose); `out` of another length.
    pub fn link_poses(&self, out: &mut [Affine3A]) -> Result<(), RobotError> {
        if out.len() != self.graph.links.len() {
            return Err(RobotError::WrongBuffer {
                what: "pose buffer",
                expected: self.graph.links.len(),
                got: out.len(),
                unit: "links",
            });
        }
        let table = self.update.transforms().table();
        let root = self.root;
        // One checked read (stamp, graph) covers the table; the rest read by slot.
        table.world(&self.graph.graph, root)?;
        for (pose, node) in out.iter_mut().zip(&self.graph.links) {
            let world = table.at(node.index());
            *pose = world.ok_or(ResultsError::NotReached(*node))?;
        }
        Ok(())
    }
}
