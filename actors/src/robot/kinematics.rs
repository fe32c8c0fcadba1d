//! The kinematics model, compiled from the robot graph's flattened order, and its
//! per-evaluation workspace.

#![allow(
    clippy::indexing_slicing,
    reason = "the steps' link and variable indices are below the robot's link count and \
              dof by construction, and every buffer's length is checked before the loop"
)]

use super::{RobotError, check_finite, check_values};
use scenewalk_core::glam::{Affine3A, Vec3};
use scenewalk_iterators::Flattened;
use scenewalk_nodes::urdf::{JointKind, JointNode, LinkNode, Robot, Source};
use std::sync::Arc;

/// How one joint moves, resolved for evaluation.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Motion {
    Fixed,
    /// One variable: rotation about the axis (revolute or continuous), or translation
    /// along it (`slides`: prismatic), by `multiplier · q[variable] + offset`.
    Axis {
        slides: bool,
        axis: Vec3,
        variable: u32,
        multiplier: f32,
        offset: f32,
    },
    /// Floating or planar: several variables from `at`, read by the joint itself.
    Several {
        joint: u32,
        at: u32,
    },
}

/// One joint of the walk: the child link's pose is the parent link's pose times
/// `origin · motion`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) parent: u32,
    pub(crate) child: u32,
    pub(crate) origin: Affine3A,
    pub(crate) motion: Motion,
}

impl Motion {
    fn of(robot: &Robot, index: usize) -> Motion {
        let Some(joint) = robot.joints().get(index) else {
            return Motion::Fixed;
        };
        let (variable, multiplier, offset) = match joint.source {
            Source::None => return Motion::Fixed,
            Source::Own(at) => (at as u32, 1.0, 0.0),
            Source::Mimic {
                variable,
                multiplier,
                offset,
            } => (variable as u32, multiplier, offset),
        };
        match joint.kind {
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic => Motion::Axis {
                slides: joint.kind == JointKind::Prismatic,
                axis: joint.axis,
                variable,
                multiplier,
                offset,
            },
            JointKind::Floating | JointKind::Planar => Motion::Several {
                joint: index as u32,
                at: variable,
            },
            JointKind::Fixed => Motion::Fixed,
        }
    }
}

/// The kinematics of a robot (the model): one step per joint in the robot graph's
/// flattened depth-first order, and per link the moving joints above it. Read-only
/// after [`new`](Self::new): share it between threads; each evaluation writes into a
/// [`KinematicsData`] or a caller's buffer.
#[derive(Clone, Debug)]
pub struct Kinematics {
    robot: Arc<Robot>,
    pub(crate) steps: Vec<Step>,
    /// Per link, the step that poses it (`NONE` for the root): the Jacobian's walk up.
    pub(crate) step_of_link: Vec<u32>,
}

/// No step: the root link's entry in `step_of_link`.
pub(crate) const NONE: u32 = u32::MAX;

/// The workspace of one evaluation (the data): every link's pose and the
/// configuration they belong to. Made by [`Kinematics::data`]; one per thread.
#[derive(Clone, Debug, Default)]
pub struct KinematicsData {
    pub(crate) poses: Vec<Affine3A>,
    pub(crate) values: Vec<f32>,
}

impl KinematicsData {
    /// Every link's world pose (indexed by link) at the last
    /// [`forward`](Kinematics::forward).
    pub fn poses(&self) -> &[Affine3A] {
        &self.poses
    }

    /// The configuration of the last [`forward`](Kinematics::forward).
    pub fn values(&self) -> &[f32] {
        &self.values
    }
}

impl Kinematics {
    /// The model of `robot`: its graph ([`Robot::build_graph`]) flattened, one step per
    /// joint node in that order. Errors: a graph error (none for a checked robot).
    pub fn new(robot: Arc<Robot>) -> Result<Self, RobotError> {
        let built = robot.build_graph()?;
        let graph = &built.graph;
        let root = built.root(&robot).ok_or(RobotError::NoLink(robot.root()))?;
        let mut flat = Flattened::new();
        flat.rebuild(graph, root)?;
        let (nodes, parents) = (flat.nodes(), flat.parents());
        let link_at = |pos: usize| -> Option<u32> {
            graph.get_at::<LinkNode>(*nodes.get(pos)?).map(|l| l.link)
        };
        let mut steps = Vec::with_capacity(robot.joints().len());
        let mut step_of_link = vec![NONE; robot.links().len()];
        for (pos, &node) in nodes.iter().enumerate() {
            let Some(joint) = graph.get_at::<JointNode>(node) else {
                continue;
            };
            // A joint node's parent is its parent link's node, its one child its child's.
            let parent = parents.get(pos).and_then(|&p| link_at(p as usize));
            let child = link_at(pos + 1).filter(|_| parents.get(pos + 1) == Some(&(pos as u32)));
            let (Some(parent), Some(child)) = (parent, child) else {
                return Err(RobotError::NoLink(pos));
            };
            let j = joint.joint as usize;
            let origin = robot
                .joints()
                .get(j)
                .map_or(Affine3A::IDENTITY, |j| j.origin);
            match step_of_link.get_mut(child as usize) {
                Some(slot) => *slot = steps.len() as u32,
                None => return Err(RobotError::NoLink(child as usize)),
            }
            steps.push(Step {
                parent,
                child,
                origin,
                motion: Motion::of(&robot, j),
            });
        }
        Ok(Self {
            robot,
            steps,
            step_of_link,
        })
    }

    /// The robot described.
    pub fn robot(&self) -> &Arc<Robot> {
        &self.robot
    }

    /// A workspace for this model (poses at the zero configuration until the first
    /// [`forward`](Self::forward)).
    pub fn data(&self) -> KinematicsData {
        let mut data = KinematicsData {
            poses: vec![Affine3A::IDENTITY; self.robot.links().len()],
            values: vec![0.0; self.robot.dof()],
        };
        self.pose_into(&data.values, &mut data.poses);
        data
    }

    /// Poses every link at the configuration `values` into `data`. Errors: a
    /// configuration of the wrong length or with a non-finite value; a workspace of
    /// another model.
    pub fn forward(&self, values: &[f32], data: &mut KinematicsData) -> Result<(), RobotError> {
        check_values(&self.robot, values)?;
        self.check_data(data)?;
        data.values.copy_from_slice(values);
        self.pose_into(values, &mut data.poses);
        Ok(())
    }

    pub(crate) fn check_data(&self, data: &KinematicsData) -> Result<(), RobotError> {
        let links = self.robot.links().len();
        if data.poses.len() != links || data.values.len() != self.robot.dof() {
            return Err(RobotError::WrongBuffer {
                what: "workspace",
                expected: links,
                got: data.poses.len(),
                unit: "links",
            });
        }
        Ok(())
    }

    /// Poses N configurations: `values` holds them one after another
    /// ([`Robot::dof`] values each), `poses` receives N × links poses (configuration
    /// `i`'s link `l` at `i · links + l`). Nothing is allocated. Errors: buffers that do
    /// not hold the same N ([`RobotError::BatchShape`]), a non-finite value.
    pub fn forward_batch(&self, values: &[f32], poses: &mut [Affine3A]) -> Result<(), RobotError> {
        self.check_batch(values, poses)?;
        let (dof, links) = (self.robot.dof(), self.robot.links().len());
        for (i, out) in poses.chunks_exact_mut(links).enumerate() {
            self.pose_into(&values[i * dof..(i + 1) * dof], out);
        }
        Ok(())
    }

    /// [`forward_batch`](Self::forward_batch) on all threads of the current rayon pool,
    /// in chunks of configurations (nothing allocated per configuration).
    #[cfg(feature = "parallel")]
    pub fn forward_batch_parallel(
        &self,
        values: &[f32],
        poses: &mut [Affine3A],
    ) -> Result<(), RobotError> {
        use rayon::prelude::*;
        /// Configurations per task: enough to amortise a task, few enough to balance.
        const CHUNK: usize = 512;
        self.check_batch(values, poses)?;
        let (dof, links) = (self.robot.dof(), self.robot.links().len());
        let per_task = links * CHUNK;
        poses
            .par_chunks_mut(per_task)
            .enumerate()
            .for_each(|(task, chunk)| {
                for (k, out) in chunk.chunks_exact_mut(links).enumerate() {
                    let i = task * CHUNK + k;
                    self.pose_into(&values[i * dof..(i + 1) * dof], out);
                }
            });
        Ok(())
    }

    fn check_batch(&self, values: &[f32], poses: &[Affine3A]) -> Result<(), RobotError> {
        let (dof, links) = (self.robot.dof(), self.robot.links().len());
        let count = poses.len() / links.max(1);
        if links == 0 || !poses.len().is_multiple_of(links) || values.len() != count * dof {
            return Err(RobotError::BatchShape {
                values: values.len(),
                dof,
                poses: poses.len(),
                links,
            });
        }
        check_finite(&self.robot, values)
    }

    /// The walk: `poses` is links long, `values` dof long (checked by the callers).
    #[inline]
    pub(crate) fn pose_into(&self, values: &[f32], poses: &mut [Affine3A]) {
        poses[self.robot.root()] = Affine3A::IDENTITY;
        for step in &self.steps {
            let local = match step.motion {
                Motion::Fixed => step.origin,
                Motion::Axis {
                    slides,
                    axis,
                    variable,
                    multiplier,
                    offset,
                } => {
                    let q = multiplier * values[variable as usize] + offset;
                    step.origin
                        * match slides {
                            true => Affine3A::from_translation(axis * q),
                            false => Affine3A::from_axis_angle(axis, q),
                        }
                }
                Motion::Several { joint, .. } => {
                    step.origin * self.robot.joints()[joint as usize].motion(values)
                }
            };
            poses[step.child as usize] = poses[step.parent as usize] * local;
        }
    }
}
