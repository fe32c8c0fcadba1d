//! Why a robot description was refused.

use std::path::PathBuf;

/// A place in the URDF text (1-based).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct At {
    /// Line.
    pub line: u32,
    /// Column.
    pub column: u32,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Why a URDF was refused; each names the element at fault and where it is.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UrdfError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not well-formed XML.
    #[error("not well-formed XML: {0}")]
    Xml(String),
    /// The document element is not `<robot>`.
    #[error("the document element is <{0}>, not <robot>")]
    NotRobot(String),
    /// The robot has no link.
    #[error("the robot has no <link>")]
    NoLinks,
    /// A required attribute or child element is missing.
    #[error("<{element}> at {at} has no {what}")]
    Missing {
        /// The element (with its name where it has one).
        element: String,
        /// The missing attribute or child.
        what: &'static str,
        /// Where the element is.
        at: At,
    },
    /// A number is not a finite number, or a list holds the wrong count.
    #[error("<{element}> at {at}: {attribute}=\"{value}\" is not {expected}")]
    BadNumber {
        /// The element.
        element: String,
        /// The attribute.
        attribute: &'static str,
        /// The text found.
        value: String,
        /// What was expected, in words.
        expected: &'static str,
        /// Where the element is.
        at: At,
    },
    /// A joint's `type` is not a URDF joint type.
    #[error("joint `{joint}` at {at} has unknown type \"{kind}\"")]
    UnknownJointType {
        /// The joint.
        joint: String,
        /// The type found.
        kind: String,
        /// Where.
        at: At,
    },
    /// A `<geometry>` holds no box, cylinder, sphere or mesh.
    #[error("the <collision> of link `{link}` at {at} has no box, cylinder, sphere or mesh")]
    BadGeometry {
        /// The link.
        link: String,
        /// Where the collision is.
        at: At,
    },
    /// Two links or two joints share a name.
    #[error("two <{element}>s are named `{name}` (the second at {at})")]
    Duplicate {
        /// `link` or `joint`.
        element: &'static str,
        /// The name.
        name: String,
        /// Where the second is.
        at: At,
    },
    /// A joint names a link that does not exist.
    #[error("joint `{joint}` at {at} names {role} link `{link}`, which does not exist")]
    MissingLink {
        /// The joint.
        joint: String,
        /// `parent` or `child`.
        role: &'static str,
        /// The name given.
        link: String,
        /// Where.
        at: At,
    },
    /// A link is the child of two joints.
    #[error("link `{link}` has two parents: joints `{first}` and `{second}` (at {at})")]
    TwoParents {
        /// The link.
        link: String,
        /// The first joint naming it as child.
        first: String,
        /// The second.
        second: String,
        /// Where the second is.
        at: At,
    },
    /// More than one link is no joint's child.
    #[error("the robot has two roots: links `{first}` and `{second}` are no joint's child")]
    TwoRoots {
        /// The first root, in file order.
        first: String,
        /// The second.
        second: String,
    },
    /// The joints form a cycle (every link of it has a parent, so the tree is not one).
    #[error("the joints form a cycle through link `{link}`")]
    Cycle {
        /// A link on the cycle.
        link: String,
    },
    /// A moving joint's axis is zero.
    #[error("{kind} joint `{joint}` at {at} has a zero axis")]
    ZeroAxis {
        /// The joint.
        joint: String,
        /// Its type.
        kind: &'static str,
        /// Where.
        at: At,
    },
    /// A joint's lower limit is above its upper one.
    #[error("joint `{joint}` at {at} has lower limit {lower} above upper limit {upper}")]
    BadLimits {
        /// The joint.
        joint: String,
        /// `lower`.
        lower: f32,
        /// `upper`.
        upper: f32,
        /// Where.
        at: At,
    },
    /// A mimic names a joint that does not exist.
    #[error("joint `{joint}` at {at} mimics `{master}`, which does not exist")]
    MissingMaster {
        /// The mimic joint.
        joint: String,
        /// The master named.
        master: String,
        /// Where.
        at: At,
    },
    /// Mimics that end where they began.
    #[error("the mimics from joint `{joint}` run in a cycle")]
    MimicCycle {
        /// A joint on the cycle.
        joint: String,
    },
    /// A mimic on, or of, a joint that does not take one value.
    #[error(
        "joint `{joint}` at {at} is a mimic, but it or its master `{master}` is not a revolute, continuous or prismatic joint"
    )]
    BadMimic {
        /// The mimic joint.
        joint: String,
        /// Its master.
        master: String,
        /// Where.
        at: At,
    },
    /// A mesh file that cannot be found (or is not a regular file).
    #[error(
        "the mesh \"{filename}\" of link `{link}` at {at} is not a file (tried {tried:?}; `package://` names resolve against ImportOptions::package_roots)"
    )]
    MeshNotFound {
        /// The link.
        link: String,
        /// The `filename` as written.
        filename: String,
        /// The paths tried.
        tried: Vec<PathBuf>,
        /// Where the mesh element is.
        at: At,
    },
}

/// A configuration whose length is not the robot's number of variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a configuration of {got} values for a robot of {expected} variables")]
pub struct WrongLength {
    /// The robot's [`dof`](super::Robot::dof).
    pub expected: usize,
    /// The length given.
    pub got: usize,
}
