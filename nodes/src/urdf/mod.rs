//! URDF robot import (cargo feature `urdf`, on by default).
//!
//! [`import`] (a file) and [`parse`] (a string) read a robot description into a
//! [`Robot`]: its [`Link`]s, its [`Joint`]s of every URDF type, and each link's
//! [`Collision`] elements, checked as one tree. [`Robot::build_graph`] turns it into a
//! scenewalk [`Graph`](scenewalk_core::Graph): a [`LinkNode`] per link, and between a
//! parent link and its child a [`JointNode`], a node type extending
//! [`Transform`](crate::Transform) whose local matrix is `origin · motion(values)`, so
//! the library's world-transform passes pose the links.
//!
//! What the reader holds to (the URDF specification, and what robot files do):
//! - only direct children of `<robot>` are links and joints (`<transmission>`,
//!   `<gazebo>` and `<ros2_control>` blocks hold look-alikes, and are skipped);
//! - `rpy` is fixed-axis roll-pitch-yaw: R = Rz(yaw)·Ry(pitch)·Rx(roll);
//! - a missing `<axis>` is x; axes are normalised; a zero axis is accepted on a fixed
//!   or floating joint (which ignore it) and refused on the others;
//! - a mimic joint's value is `multiplier · master + offset` (multiplier 1 and offset 0
//!   when left out); a mimic of a mimic is resolved to the first joint that is not one;
//!   a missing master or a cycle of mimics is an error;
//! - `package://NAME/rest` mesh names resolve to `ROOT/NAME/rest` for the first root in
//!   [`ImportOptions::package_roots`] where that file exists; a relative name resolves
//!   against the URDF file's folder, then against the roots; `file://` names are paths.
//!   The import checks that each mesh is a regular file ([`UrdfError::MeshNotFound`]);
//!   reading it is left to whoever turns [`Shape::Mesh`] into triangles.
//!
//! # The joint vector
//! A configuration is one `f32` per *variable*: the variables of the moving, non-mimic
//! joints, in file order ([`Robot::dof`] of them; [`Robot::variable`] finds a joint's
//! first one by name, [`Robot::variable_names`] lists them). Revolute, continuous and
//! prismatic joints take one value (radians, metres). A **floating** joint takes six,
//! `x y z roll pitch yaw`: its motion is the translation (x, y, z) followed by the
//! fixed-axis rotation Rz(yaw)·Ry(pitch)·Rx(roll), read like an `<origin>` (so its
//! Jacobian columns are those of three prismatic joints along the frame's x, y, z and
//! three revolute joints about z, then y, then x; pitch ±π/2 is the usual singularity).
//! A **planar** joint takes three, `u v angle`: a translation `u·e1 + v·e2` in the plane
//! normal to its axis `n`, then a rotation by `angle` about `n`, where `e1` is the unit
//! part of x orthogonal to `n` (of y if `|n.x| ≥ 0.9`) and `e2 = n × e1` (for `n = z`:
//! `e1 = x`, `e2 = y`). Mimic and fixed joints take none.
//!
//! # For code that builds on it (self-collision, drawing)
//! - Links are numbered in file order (`Robot::links`); joints likewise. Every link
//!   but the [`root`](Robot::root) has one [`parent_joint`](Robot::parent_joint), and
//!   [`parent_link`](Robot::parent_link) gives the link tree. [`Robot::order`] lists
//!   the joints parents first (depth first, siblings in file order).
//! - [`Robot::collisions`] holds every `<collision>` of every link, with the link's
//!   index, the origin in the link's frame and the [`Shape`]; mesh paths are resolved.
//!   A shape placed in the world sits at `link world pose · origin`, its mesh scaled by
//!   `scale` first.
//! - The world pose of every link (an `Affine3A` indexed by link) after setting a
//!   configuration comes from `scenewalk_actors::robot` (the incremental update pass
//!   over the graph, and a batch evaluator over the graph's flattened order).
//!
//! ```
//! use scenewalk_nodes::urdf::{parse, ImportOptions, JointKind, Shape};
//! let robot = parse(r#"
//!   <robot name="arm">
//!     <link name="base"><collision><geometry><box size="1 1 0.2"/></geometry></collision></link>
//!     <link name="upper"/>
//!     <joint name="shoulder" type="revolute">
//!       <parent link="base"/><child link="upper"/>
//!       <origin xyz="0 0 0.1" rpy="0 0 1.5707963"/>
//!       <axis xyz="0 0 2"/>
//!       <limit lower="-1" upper="1" effort="1" velocity="1"/>
//!     </joint>
//!   </robot>"#, &ImportOptions::default())?;
//! assert_eq!(robot.links().len(), 2);
//! assert_eq!(robot.dof(), 1);
//! assert_eq!(robot.variable("shoulder"), Some(0));
//! let joint = &robot.joints()[0];
//! assert_eq!(joint.kind, JointKind::Revolute);
//! assert_eq!(joint.axis.z, 1.0); // normalised
//! assert!(matches!(robot.collisions()[0].geometry, Shape::Box { .. }));
//! # Ok::<(), scenewalk_nodes::urdf::UrdfError>(())
//! ```

pub use error::{At, UrdfError, WrongLength};
pub use graph::{JointNode, LinkNode, RobotGraph};
pub use model::{Collision, Joint, JointKind, Limits, Link, Mimic, Robot, Shape, Source};
pub use read::{ImportOptions, import, parse};

mod check;
mod error;
mod graph;
mod model;
mod motion;
mod read;
