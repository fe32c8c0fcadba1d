//! From the elements as read to a checked [`Robot`]: one tree, unique names,
//! resolved mimics, the configuration's variables.

use super::error::{At, UrdfError};
use super::model::{Collision, Joint, JointKind, Limits, Link, Mimic, Robot, Source};
use crate::forest;
use scenewalk_core::glam::{Affine3A, Vec3};
use std::collections::HashMap;

/// The elements as read, names not yet resolved.
#[derive(Debug, Default)]
pub(crate) struct RawRobot {
    pub(crate) name: String,
    /// Each link with its element's byte offset.
    pub(crate) links: Vec<(Link, usize)>,
    pub(crate) joints: Vec<RawJoint>,
    pub(crate) collisions: Vec<Collision>,
}

#[derive(Debug)]
pub(crate) struct RawJoint {
    pub(crate) name: String,
    pub(crate) kind: JointKind,
    pub(crate) parent: String,
    pub(crate) child: String,
    pub(crate) origin: Affine3A,
    pub(crate) axis: Vec3,
    pub(crate) limits: Option<Limits>,
    pub(crate) mimic: Option<RawMimic>,
    /// The element's byte offset (placed by `locate` for an error only).
    pub(crate) at: usize,
}

#[derive(Debug)]
pub(crate) struct RawMimic {
    pub(crate) master: String,
    pub(crate) multiplier: f32,
    pub(crate) offset: f32,
}

/// `locate` turns a byte offset into a line and column.
pub(crate) fn build(raw: RawRobot, locate: &dyn Fn(usize) -> At) -> Result<Robot, UrdfError> {
    if raw.links.is_empty() {
        return Err(UrdfError::NoLinks);
    }
    let link_names = raw.links.iter().map(|(l, at)| (l.name.as_str(), *at));
    let link_index = names(link_names, "link", locate)?;
    let joint_names = raw.joints.iter().map(|j| (j.name.as_str(), j.at));
    let joint_index = names(joint_names, "joint", locate)?;
    let ats: Vec<usize> = raw.joints.iter().map(|j| j.at).collect();

    let mut joints = Vec::with_capacity(raw.joints.len());
    for joint in &raw.joints {
        joints.push(resolve_joint(joint, &link_index, &joint_index, locate)?);
    }
    let links: Vec<Link> = raw.links.into_iter().map(|(link, _)| link).collect();

    // The links as a tree: each link's joint to its parent, and its children in the
    // order of their joints.
    let mut parent_joint: Vec<Option<usize>> = vec![None; links.len()];
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); links.len()];
    for (j, joint) in joints.iter().enumerate() {
        if let Some(list) = children.get_mut(joint.parent) {
            list.push(joint.child);
        }
        let Some(slot) = parent_joint.get_mut(joint.child) else {
            continue;
        };
        if let Some(first) = *slot {
            return Err(UrdfError::TwoParents {
                link: link_name(&links, joint.child),
                first: joint_name(&joints, first),
                second: joint.name.clone(),
                at: locate(ats.get(j).copied().unwrap_or_default()),
            });
        }
        *slot = Some(j);
    }
    let mut roots = (0..links.len()).filter(|&l| parent_joint.get(l) == Some(&None));
    let (root, walked) = match (roots.next(), roots.next()) {
        (Some(root), None) => {
            let below = |l: usize| children.get(l).into_iter().flatten().copied();
            (root, forest::preorder(&[root], below))
        }
        (Some(first), Some(second)) => {
            return Err(UrdfError::TwoRoots {
                first: link_name(&links, first),
                second: link_name(&links, second),
            });
        }
        // No root: every link has a parent, and the walk from none finds a cycle.
        (None, _) => (0, Vec::new()),
    };
    let parent_of = |l: usize| parent_joint.get(l).copied().flatten();
    let up = |l: usize| joints.get(parent_of(l)?).map(|j| j.parent);
    if let Some(link) = forest::on_cycle(links.len(), &walked, up) {
        let link = link_name(&links, link);
        return Err(UrdfError::Cycle { link });
    }
    // The joints parents first: each link's joint, the links depth first.
    let order = walked.iter().filter_map(|&(l, _)| parent_of(l));
    let order: Vec<usize> = order.collect();
    let variables = sources(&mut joints, &ats, locate)?;
    Ok(Robot {
        name: raw.name,
        links,
        joints,
        collisions: raw.collisions,
        root,
        parent_joint,
        order,
        variables,
    })
}

fn link_name(links: &[Link], link: usize) -> String {
    links.get(link).map(|l| l.name.clone()).unwrap_or_default()
}

fn joint_name(joints: &[Joint], joint: usize) -> String {
    joints
        .get(joint)
        .map(|j| j.name.clone())
        .unwrap_or_default()
}

/// Name → index, refusing a second use of a name.
fn names<'a>(
    items: impl Iterator<Item = (&'a str, usize)>,
    element: &'static str,
    locate: &dyn Fn(usize) -> At,
) -> Result<HashMap<&'a str, usize>, UrdfError> {
    let mut index = HashMap::new();
    for (i, (name, at)) in items.enumerate() {
        if index.insert(name, i).is_some() {
            return Err(UrdfError::Duplicate {
                element,
                name: name.to_owned(),
                at: locate(at),
            });
        }
    }
    Ok(index)
}

/// A joint with its links found and its axis checked; its source comes later.
fn resolve_joint(
    raw: &RawJoint,
    links: &HashMap<&str, usize>,
    joints: &HashMap<&str, usize>,
    locate: &dyn Fn(usize) -> At,
) -> Result<Joint, UrdfError> {
    let link = |role: &'static str, name: &str| {
        links
            .get(name)
            .copied()
            .ok_or_else(|| UrdfError::MissingLink {
                joint: raw.name.clone(),
                role,
                link: name.to_owned(),
                at: locate(raw.at),
            })
    };
    let (parent, child) = (link("parent", &raw.parent)?, link("child", &raw.child)?);
    let axis = match raw.axis.try_normalize() {
        Some(axis) => axis,
        // Fixed and floating joints do not use their axis.
        None if matches!(raw.kind, JointKind::Fixed | JointKind::Floating) => Vec3::ZERO,
        None => {
            return Err(UrdfError::ZeroAxis {
                joint: raw.name.clone(),
                kind: raw.kind.name(),
                at: locate(raw.at),
            });
        }
    };
    if let Some(limits) = raw.limits {
        let bounded = matches!(raw.kind, JointKind::Revolute | JointKind::Prismatic);
        if bounded && limits.lower > limits.upper {
            return Err(UrdfError::BadLimits {
                joint: raw.name.clone(),
                lower: limits.lower,
                upper: limits.upper,
                at: locate(raw.at),
            });
        }
    }
    let mimic = match &raw.mimic {
        Some(mimic) => Some(Mimic {
            joint: joints.get(mimic.master.as_str()).copied().ok_or_else(|| {
                UrdfError::MissingMaster {
                    joint: raw.name.clone(),
                    master: mimic.master.clone(),
                    at: locate(raw.at),
                }
            })?,
            multiplier: mimic.multiplier,
            offset: mimic.offset,
        }),
        None => None,
    };
    Ok(Joint {
        name: raw.name.clone(),
        kind: raw.kind,
        parent,
        child,
        origin: raw.origin,
        axis,
        limits: raw.limits,
        mimic,
        source: Source::None,
    })
}

/// Gives each joint its [`Source`] and returns the variables, refusing mimic cycles
/// and mimics of (or on) joints that do not take one value.
fn sources(
    joints: &mut [Joint],
    ats: &[usize],
    locate: &dyn Fn(usize) -> At,
) -> Result<Vec<(usize, usize)>, UrdfError> {
    let mut variables = Vec::new();
    for (j, joint) in joints.iter_mut().enumerate() {
        if joint.mimic.is_none() {
            let values = joint.kind.values();
            if values > 0 {
                joint.source = Source::Own(variables.len());
                variables.extend((0..values).map(|place| (j, place)));
            }
        }
    }
    for j in 0..joints.len() {
        let Some(joint) = joints.get(j) else { continue };
        let Some(mimic) = joint.mimic.clone() else {
            continue;
        };
        let at = ats.get(j).copied().unwrap_or_default();
        let bad = |master: usize| UrdfError::BadMimic {
            joint: joint.name.clone(),
            master: joint_name(joints, master),
            at: locate(at),
        };
        if joint.kind.values() != 1 {
            return Err(bad(mimic.joint));
        }
        let (mut multiplier, mut offset) = (mimic.multiplier, mimic.offset);
        let mut master = mimic.joint;
        let mut steps = 0;
        let source = loop {
            let Some(next) = joints.get(master) else {
                return Err(bad(master));
            };
            if next.kind.values() != 1 {
                return Err(bad(master));
            }
            match (&next.mimic, next.source) {
                (None, Source::Own(variable)) => {
                    break Source::Mimic {
                        variable,
                        multiplier,
                        offset,
                    };
                }
                (Some(up), _) if steps < joints.len() => {
                    // value = m·(m_up·q + o_up) + o
                    offset += multiplier * up.offset;
                    multiplier *= up.multiplier;
                    master = up.joint;
                    steps += 1;
                }
                (Some(_), _) => {
                    return Err(UrdfError::MimicCycle {
                        joint: joint.name.clone(),
                    });
                }
                (None, _) => return Err(bad(master)),
            }
        };
        if let Some(joint) = joints.get_mut(j) {
            joint.source = source;
        }
    }
    Ok(variables)
}
