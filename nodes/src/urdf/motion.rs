//! A joint's motion at a configuration: the matrix between its frame and its child's.

use super::model::{Joint, JointKind, Source};
use scenewalk_core::glam::{Affine3A, EulerRot, Quat, Vec3};

/// The rotation of a URDF `rpy`: fixed-axis roll, pitch, yaw, R = Rz(yaw)·Ry(pitch)·Rx(roll).
pub(crate) fn rpy(roll: f32, pitch: f32, yaw: f32) -> Quat {
    Quat::from_euler(EulerRot::ZYX, yaw, pitch, roll)
}

impl Joint {
    /// The motion at the configuration `values` (the joint's frame to its child
    /// link's frame; the module docs say how each type reads its values). Values
    /// past the end of `values` read as zero.
    pub fn motion(&self, values: &[f32]) -> Affine3A {
        let value = |i: usize| values.get(i).copied().unwrap_or(0.0);
        match self.source {
            Source::None => Affine3A::IDENTITY,
            Source::Mimic {
                variable,
                multiplier,
                offset,
            } => self.motion1(multiplier * value(variable) + offset),
            Source::Own(at) => match self.kind {
                JointKind::Floating => {
                    let rotation = rpy(value(at + 3), value(at + 4), value(at + 5));
                    let translation = Vec3::new(value(at), value(at + 1), value(at + 2));
                    Affine3A::from_rotation_translation(rotation, translation)
                }
                JointKind::Planar => {
                    let (e1, e2) = self.plane();
                    let translation = e1 * value(at) + e2 * value(at + 1);
                    let rotation = Quat::from_axis_angle(self.axis, value(at + 2));
                    Affine3A::from_rotation_translation(rotation, translation)
                }
                _ => self.motion1(value(at)),
            },
        }
    }

    /// The motion of a one-value joint at `q` (the identity for other types).
    pub fn motion1(&self, q: f32) -> Affine3A {
        match self.kind {
            JointKind::Revolute | JointKind::Continuous => Affine3A::from_axis_angle(self.axis, q),
            JointKind::Prismatic => Affine3A::from_translation(self.axis * q),
            _ => Affine3A::IDENTITY,
        }
    }

    /// A planar joint's plane: `e1`, the unit part of x orthogonal to the axis `n`
    /// (of y when `|n.x| ≥ 0.9`), and `e2 = n × e1`.
    pub fn plane(&self) -> (Vec3, Vec3) {
        let n = self.axis;
        let seed = if n.x.abs() < 0.9 { Vec3::X } else { Vec3::Y };
        let e1 = (seed - n * n.dot(seed)).normalize_or_zero();
        (e1, n.cross(e1))
    }
}
