//! The parsed robot description: links, joints, collision shapes, one checked tree.

use super::error::WrongLength;
use scenewalk_core::glam::{Affine3A, Vec3};
use std::path::PathBuf;

/// A link: a rigid body, named.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// Its `name`.
    pub name: String,
}

/// A joint's type, as the URDF names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JointKind {
    /// Rotation about the axis, within limits.
    Revolute,
    /// Rotation about the axis, unlimited.
    Continuous,
    /// Translation along the axis.
    Prismatic,
    /// No motion.
    Fixed,
    /// Six values: translation x y z, then fixed-axis roll pitch yaw (module docs).
    Floating,
    /// Three values: translation in the plane normal to the axis, then rotation about it.
    Planar,
}

impl JointKind {
    /// How many values of a configuration it takes when it is not a mimic (0, 1, 3, 6).
    pub fn values(self) -> usize {
        match self {
            Self::Revolute | Self::Continuous | Self::Prismatic => 1,
            Self::Fixed => 0,
            Self::Floating => 6,
            Self::Planar => 3,
        }
    }

    /// The URDF's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Revolute => "revolute",
            Self::Continuous => "continuous",
            Self::Prismatic => "prismatic",
            Self::Fixed => "fixed",
            Self::Floating => "floating",
            Self::Planar => "planar",
        }
    }

    /// From the URDF's name; `None` for an unknown type.
    pub fn from_name(name: &str) -> Option<Self> {
        [
            Self::Revolute,
            Self::Continuous,
            Self::Prismatic,
            Self::Fixed,
            Self::Floating,
            Self::Planar,
        ]
        .into_iter()
        .find(|kind| kind.name() == name)
    }
}

/// A joint's `<limit>`, as written (a continuous joint's limits are not enforced).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// `lower` (0 when left out).
    pub lower: f32,
    /// `upper` (0 when left out).
    pub upper: f32,
    /// `effort` (0 when left out).
    pub effort: f32,
    /// `velocity` (0 when left out).
    pub velocity: f32,
}

/// A joint's `<mimic>`: its value is `multiplier · master + offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mimic {
    /// The master joint's index, as written (it may itself be a mimic).
    pub joint: usize,
    /// `multiplier` (1 when left out).
    pub multiplier: f32,
    /// `offset` (0 when left out).
    pub offset: f32,
}

/// A joint: the motion of its child link relative to its parent link.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// Its `name`.
    pub name: String,
    /// Its `type`.
    pub kind: JointKind,
    /// The parent link's index.
    pub parent: usize,
    /// The child link's index.
    pub child: usize,
    /// `<origin>`: the joint frame in the parent link's frame (identity when left out).
    pub origin: Affine3A,
    /// `<axis>`, unit length, in the joint frame (x when left out; zero on a fixed or
    /// floating joint that says `0 0 0`).
    pub axis: Vec3,
    /// `<limit>`, if given.
    pub limits: Option<Limits>,
    /// `<mimic>`, if given.
    pub mimic: Option<Mimic>,
    /// Where its values come from (resolved from `kind` and `mimic`).
    pub source: Source,
}

/// Where a joint's values come from in a configuration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Source {
    /// A fixed joint: none.
    None,
    /// Its own variables, from this index on ([`JointKind::values`] of them).
    Own(usize),
    /// A mimic, resolved through any chain of mimics: `multiplier · q[variable] + offset`.
    Mimic {
        /// The index of the final master's variable.
        variable: usize,
        /// The product of the chain's multipliers.
        multiplier: f32,
        /// The chain's offsets, composed.
        offset: f32,
    },
}

/// A collision shape, in the frame of its `<collision>` origin.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// `<box size>`: full side lengths, centred on the origin.
    Box {
        /// Side lengths along x, y, z.
        size: Vec3,
    },
    /// `<cylinder>`: about z, centred on the origin.
    Cylinder {
        /// Radius.
        radius: f32,
        /// Length along z.
        length: f32,
    },
    /// `<sphere>`, centred on the origin.
    Sphere {
        /// Radius.
        radius: f32,
    },
    /// `<mesh>`: a triangle file (STL, COLLADA or OBJ), scaled before the origin applies.
    Mesh {
        /// The resolved path of an existing file.
        path: PathBuf,
        /// `scale` (1 1 1 when left out).
        scale: Vec3,
    },
}

/// One `<collision>` element of a link.
#[derive(Clone, Debug, PartialEq)]
pub struct Collision {
    /// The link's index.
    pub link: usize,
    /// Its `name`, if any.
    pub name: Option<String>,
    /// `<origin>`: the shape's frame in the link's frame.
    pub origin: Affine3A,
    /// `<geometry>`.
    pub geometry: Shape,
}

/// A robot description, checked: one tree of links joined by joints, every name
/// unique, every mimic resolved. Built by [`import`](super::import) or
/// [`parse`](super::parse); read-only.
#[derive(Clone, Debug)]
pub struct Robot {
    pub(crate) name: String,
    pub(crate) links: Vec<Link>,
    pub(crate) joints: Vec<Joint>,
    pub(crate) collisions: Vec<Collision>,
    pub(crate) root: usize,
    /// Per link: the joint whose child it is (`None` for the root).
    pub(crate) parent_joint: Vec<Option<usize>>,
    /// Joints, parents first.
    pub(crate) order: Vec<usize>,
    /// Per variable: (joint index, place within the joint's values).
    pub(crate) variables: Vec<(usize, usize)>,
}

impl Robot {
    /// The `<robot name>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Links, in file order.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// Joints, in file order.
    pub fn joints(&self) -> &[Joint] {
        &self.joints
    }

    /// Every `<collision>` of every link, in file order.
    pub fn collisions(&self) -> &[Collision] {
        &self.collisions
    }

    /// The root link's index (the one link that is no joint's child).
    pub fn root(&self) -> usize {
        self.root
    }

    /// The joint whose child `link` is; `None` for the root or an index out of range.
    pub fn parent_joint(&self, link: usize) -> Option<usize> {
        self.parent_joint.get(link).copied().flatten()
    }

    /// The parent link of `link`; `None` for the root or an index out of range.
    pub fn parent_link(&self, link: usize) -> Option<usize> {
        let joint = self.parent_joint(link)?;
        self.joints.get(joint).map(|j| j.parent)
    }

    /// The joints, each after its parent link's joint (depth first from the root,
    /// siblings in file order).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The link named `name`.
    pub fn link(&self, name: &str) -> Option<usize> {
        self.links.iter().position(|l| l.name == name)
    }

    /// The joint named `name`.
    pub fn joint(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The length of a configuration: the values of the moving, non-mimic joints.
    pub fn dof(&self) -> usize {
        self.variables.len()
    }

    /// The configuration's variables, each as (joint index, place among that joint's
    /// values).
    pub fn variables(&self) -> &[(usize, usize)] {
        &self.variables
    }

    /// The index of the first variable of the joint named `name` (a mimic or fixed
    /// joint has none).
    pub fn variable(&self, name: &str) -> Option<usize> {
        match self.joints.get(self.joint(name)?)?.source {
            Source::Own(at) => Some(at),
            _ => None,
        }
    }

    /// One name per variable: the joint's name, with `/x`, `/y`, `/z`, `/roll`,
    /// `/pitch`, `/yaw` (floating) or `/u`, `/v`, `/angle` (planar) after it.
    pub fn variable_names(&self) -> Vec<String> {
        const FLOATING: [&str; 6] = ["x", "y", "z", "roll", "pitch", "yaw"];
        const PLANAR: [&str; 3] = ["u", "v", "angle"];
        let name = |&(joint, place): &(usize, usize)| {
            let Some(joint) = self.joints.get(joint) else {
                return String::new();
            };
            let part = match joint.kind {
                JointKind::Floating => FLOATING.get(place),
                JointKind::Planar => PLANAR.get(place),
                _ => None,
            };
            match part {
                Some(part) => format!("{}/{part}", joint.name),
                None => joint.name.clone(),
            }
        };
        self.variables.iter().map(name).collect()
    }

    /// Refuses a configuration whose length is not [`dof`](Self::dof).
    pub fn check_values(&self, values: &[f32]) -> Result<(), WrongLength> {
        if values.len() == self.dof() {
            Ok(())
        } else {
            Err(WrongLength {
                expected: self.dof(),
                got: values.len(),
            })
        }
    }

    /// The joint's local matrix at the configuration `values` (checked by the caller
    /// to be [`dof`](Self::dof) long; a short one reads zeros): `origin · motion`.
    pub fn joint_local(&self, joint: &Joint, values: &[f32]) -> Affine3A {
        joint.origin * joint.motion(values)
    }
}
