//! Kinematic trees: a URDF robot's link poses and Jacobians (cargo feature `urdf`).
//!
//! A [`Robot`] (from [`scenewalk_nodes::urdf`]) is a graph of link nodes joined by
//! joint nodes that extend `Transform`. Two ways pose it, both over that graph:
//! - [`RobotScene`] owns the graph and an [`IncrementalUpdate`](crate::IncrementalUpdate):
//!   [`set_values`](RobotScene::set_values) re-poses the joint nodes whose values
//!   changed (marking them changed in the graph), and [`update`](RobotScene::update)
//!   runs the library's update pass, which re-walks only the moved joints' subtrees.
//!   For interactive use: a few joints move, every link's pose is read.
//! - [`Kinematics`] (the model: shared, read-only) is compiled once from the graph's
//!   flattened depth-first order into one step per joint; [`KinematicsData`] (the
//!   workspace: plain buffers) holds one evaluation. [`Kinematics::forward`] poses
//!   every link, [`Kinematics::jacobian`] gives a link's geometric Jacobian, and
//!   [`Kinematics::forward_batch`] poses N configurations into the caller's buffer
//!   without allocating (on all cores with the `parallel` feature:
//!   [`Kinematics::forward_batch_parallel`]). For planners and controllers.
//!
//! Both give the same poses (tested). Link poses are indexed by link (file order);
//! the joint vector is [`Robot::dof`] values, in the order [`Robot::variable_names`]
//! lists. A configuration of the wrong length, or holding a NaN or an infinity, is an
//! error.
//!
//! ```
//! use scenewalk_actors::robot::{Jacobian, Kinematics, RobotScene};
//! use scenewalk_nodes::urdf::{parse, ImportOptions};
//! use scenewalk_core::glam::Vec3;
//! use std::sync::Arc;
//!
//! let robot = Arc::new(parse(r#"
//!   <robot name="arm">
//!     <link name="base"/><link name="upper"/><link name="tip"/>
//!     <joint name="shoulder" type="revolute">
//!       <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
//!       <limit lower="-3" upper="3" effort="1" velocity="1"/>
//!     </joint>
//!     <joint name="end" type="fixed">
//!       <parent link="upper"/><child link="tip"/><origin xyz="1 0 0"/>
//!     </joint>
//!   </robot>"#, &ImportOptions::default())?);
//! let tip = robot.link("tip").unwrap();
//! let quarter = std::f32::consts::FRAC_PI_2;
//!
//! // Through the graph and the incremental update pass.
//! let mut scene = RobotScene::new(Arc::clone(&robot))?;
//! scene.set_values(&[quarter])?;
//! scene.update()?;
//! assert!(scene.link_pose(tip)?.translation.abs_diff_eq(Vec3::Y.into(), 1e-6));
//!
//! // Model and workspace: every link's pose, and the tip's Jacobian.
//! let model = Kinematics::new(Arc::clone(&robot))?;
//! let mut data = model.data();
//! model.forward(&[quarter], &mut data)?;
//! assert!(data.poses()[tip].translation.abs_diff_eq(Vec3::Y.into(), 1e-6));
//! let mut jacobian = Jacobian::new(model.robot().dof());
//! model.jacobian(&data, tip, &mut jacobian)?;
//! // Turning the shoulder moves the tip along -x, about z.
//! let shoulder = jacobian.column(0).unwrap();
//! assert!((shoulder[0] + 1.0).abs() < 1e-6 && (shoulder[5] - 1.0).abs() < 1e-6, "{shoulder:?}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use jacobian::Jacobian;
pub use kinematics::{Kinematics, KinematicsData};
pub use scene::RobotScene;

use scenewalk_core::{GraphError, ResultsError, TraversalError};
use scenewalk_nodes::urdf::{Robot, WrongLength};

mod jacobian;
mod kinematics;
mod scene;

/// Why a robot evaluation was refused.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RobotError {
    /// A configuration of the wrong length.
    #[error(transparent)]
    WrongLength(#[from] WrongLength),
    /// A configuration value that is NaN or infinite.
    #[error("configuration value {index} (`{name}`) is {value}, not a finite number")]
    NotFinite {
        /// Its index in the configuration (within the batch).
        index: usize,
        /// The variable's name.
        name: String,
        /// The value.
        value: f32,
    },
    /// Batch buffers that do not hold the same whole number of configurations.
    #[error(
        "a batch of {values} values (configurations of {dof}) does not match {poses} poses (of {links} links each)"
    )]
    BatchShape {
        /// Configuration values given.
        values: usize,
        /// Values per configuration.
        dof: usize,
        /// Poses given room for.
        poses: usize,
        /// Links per configuration.
        links: usize,
    },
    /// A link index out of range.
    #[error("the robot has no link {0}")]
    NoLink(usize),
    /// No variable has this name.
    #[error("the robot has no joint variable named `{0}`")]
    UnknownVariable(String),
    /// A buffer (workspace or Jacobian) made for a robot of another size.
    #[error("a {what} made for {got} {unit}, for a robot of {expected}")]
    WrongBuffer {
        /// `workspace` or `Jacobian`.
        what: &'static str,
        /// Links or variables the robot has.
        expected: usize,
        /// Links or columns the buffer has.
        got: usize,
        /// `links` or `columns`.
        unit: &'static str,
    },
    /// The graph refused an edit.
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// The update pass failed.
    #[error(transparent)]
    Traversal(#[from] TraversalError),
    /// The update's results could not be read.
    #[error(transparent)]
    Results(#[from] ResultsError),
}

/// Checks a configuration: its length, then each value is finite ([`check_finite`]).
fn check_values(robot: &Robot, values: &[f32]) -> Result<(), RobotError> {
    robot.check_values(values)?;
    check_finite(robot, values)
}

/// Refuses the first value that is not finite, in one configuration or in a batch of
/// them one after another, naming its variable.
fn check_finite(robot: &Robot, values: &[f32]) -> Result<(), RobotError> {
    let Some(index) = values.iter().position(|v| !v.is_finite()) else {
        return Ok(());
    };
    let names = robot.variable_names();
    Err(RobotError::NotFinite {
        index,
        name: (names.get(index % names.len().max(1)).cloned()).unwrap_or_default(),
        value: values.get(index).copied().unwrap_or(f32::NAN),
    })
}
