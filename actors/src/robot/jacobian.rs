//! The geometric Jacobian of a link.

#![allow(
    clippy::indexing_slicing,
    reason = "chain, step and variable indices are below the model's table lengths by \
              construction; the workspace and the Jacobian are checked before the loop"
)]

use super::RobotError;
use super::kinematics::{Kinematics, KinematicsData, Motion, NONE};
use scenewalk_core::glam::{Mat3A, Vec3A};
use scenewalk_nodes::urdf::JointKind;

/// A geometric Jacobian: 6 × [`Robot::dof`](scenewalk_nodes::urdf::Robot::dof),
/// world-aligned, column `j` the velocity of the link's origin per unit rate of
/// variable `j`: linear velocity (rows 0–2) then angular velocity (rows 3–5).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Jacobian {
    columns: Vec<[f32; 6]>,
}

impl Jacobian {
    /// A zero Jacobian of `dof` columns.
    pub fn new(dof: usize) -> Self {
        Self {
            columns: vec![[0.0; 6]; dof],
        }
    }

    /// The columns, one per variable.
    pub fn columns(&self) -> &[[f32; 6]] {
        &self.columns
    }

    /// Column `col`.
    pub fn column(&self, col: usize) -> Option<&[f32; 6]> {
        self.columns.get(col)
    }

    /// Row `row` (0–5) of column `col`; `None` out of range.
    pub fn get(&self, row: usize, col: usize) -> Option<f32> {
        self.columns.get(col)?.get(row).copied()
    }
}

/// `[v; w]` scaled by `s`, added to `column`.
#[inline]
fn add(column: &mut [f32; 6], v: Vec3A, w: Vec3A, s: f32) {
    let (v, w) = (v * s, w * s);
    for (c, x) in column.iter_mut().zip([v.x, v.y, v.z, w.x, w.y, w.z]) {
        *c += x;
    }
}

impl Kinematics {
    /// The geometric Jacobian of `link`'s origin at the configuration of the last
    /// [`forward`](Self::forward) into `data`, written into `out`. A mimic joint's
    /// column is added to its master's, times the multiplier; a floating joint gives
    /// the columns of its x, y, z translations and its rotations about the frame's z,
    /// then y, then x; a planar joint those of its two translations and its rotation.
    /// Errors: a link out of range; a workspace or Jacobian of another size.
    pub fn jacobian(
        &self,
        data: &KinematicsData,
        link: usize,
        out: &mut Jacobian,
    ) -> Result<(), RobotError> {
        self.check_data(data)?;
        let dof = self.robot().dof();
        if out.columns.len() != dof {
            return Err(RobotError::WrongBuffer {
                what: "Jacobian",
                expected: dof,
                got: out.columns.len(),
                unit: "columns",
            });
        }
        let mut up = *self
            .step_of_link
            .get(link)
            .ok_or(RobotError::NoLink(link))?;
        out.columns.fill([0.0; 6]);
        let poses = &data.poses;
        let p = poses[link].translation;
        // Up the tree from the link, one step (joint) per link; the root has none. A
        // tree has no more steps up than it has steps: the bound is never met.
        for _ in 0..self.steps.len() {
            if up == NONE {
                break;
            }
            let step = &self.steps[up as usize];
            up = self.step_of_link[step.parent as usize];
            let child = &poses[step.child as usize];
            let o = child.translation;
            match step.motion {
                Motion::Fixed => {}
                Motion::Axis {
                    slides,
                    axis,
                    variable,
                    multiplier,
                    ..
                } => {
                    // A rotation leaves its axis in place: the child's frame carries it.
                    let a = child.matrix3 * Vec3A::from(axis);
                    let (v, w) = match slides {
                        true => (a, Vec3A::ZERO),
                        false => (a.cross(p - o), a),
                    };
                    add(&mut out.columns[variable as usize], v, w, multiplier);
                }
                Motion::Several { joint, at } => {
                    let frame = poses[step.parent as usize] * step.origin;
                    let joint = &self.robot().joints()[joint as usize];
                    let at = at as usize;
                    let rotation = frame.matrix3;
                    let mut turn = |col: usize, w: Vec3A| {
                        add(&mut out.columns[col], w.cross(p - o), w, 1.0);
                    };
                    if joint.kind == JointKind::Floating {
                        let (pitch, yaw) = (data.values[at + 4], data.values[at + 5]);
                        let yawed = rotation * Mat3A::from_rotation_z(yaw);
                        turn(at + 5, rotation.z_axis);
                        turn(at + 4, yawed.y_axis);
                        turn(at + 3, yawed * Mat3A::from_rotation_y(pitch) * Vec3A::X);
                        for (k, axis) in [rotation.x_axis, rotation.y_axis, rotation.z_axis]
                            .into_iter()
                            .enumerate()
                        {
                            add(&mut out.columns[at + k], axis, Vec3A::ZERO, 1.0);
                        }
                    } else {
                        let (e1, e2) = joint.plane();
                        turn(at + 2, rotation * Vec3A::from(joint.axis));
                        for (k, axis) in [e1, e2].into_iter().enumerate() {
                            let v = rotation * Vec3A::from(axis);
                            add(&mut out.columns[at + k], v, Vec3A::ZERO, 1.0);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
