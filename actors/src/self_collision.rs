//! Self-collision of a robot: which of its links' collision meshes touch at a pose.

use crate::collide::{Collide, ContactMode, padded};
use scenewalk_core::glam::Affine3A;
use scenewalk_core::{Aabb, Invariant};
use scenewalk_nodes::urdf::{CollisionMesh, Robot, Srdf};

/// A pair of links, `a < b` (link indices of the robot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkPair {
    /// The lower link index.
    pub a: usize,
    /// The higher link index.
    pub b: usize,
}

impl LinkPair {
    /// The pair of `x` and `y` in either order.
    pub fn new(x: usize, y: usize) -> Self {
        Self {
            a: x.min(y),
            b: x.max(y),
        }
    }
}

/// Why a self-collision model or query was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SelfCollisionError {
    /// A collision mesh names a link the robot does not have.
    #[error("collision mesh {mesh} names link {link}, but the robot has {links} links")]
    NoSuchLink {
        /// The mesh's place in the list passed.
        mesh: usize,
        /// The link index it names.
        link: usize,
        /// How many links the robot has.
        links: usize,
    },
    /// An SRDF's `<disable_collisions>` names a link the robot does not have.
    #[error(
        "the SRDF disables collisions of link {name:?}, which the robot {robot:?} does not have"
    )]
    UnknownSrdfLink {
        /// The link's name, as the SRDF writes it.
        name: String,
        /// The robot's name.
        robot: String,
    },
    /// The query's pose table is not one pose per link.
    #[error("{got} link poses for a robot of {expected} links")]
    WrongPoseCount {
        /// The robot's link count.
        expected: usize,
        /// The poses passed.
        got: usize,
    },
    /// A link with collision geometry has a pose with a NaN or an infinity.
    #[error("the pose of link {link:?} is not finite")]
    NotFinite {
        /// The link's name.
        link: String,
    },
}

/// A robot's self-collision model: its collision meshes grouped by link, and the link
/// pairs worth checking. Built once; each query takes the links' world poses and a
/// [`SelfCollisionWorkspace`] (per evaluation, so threads and batches need no locks).
///
/// The pairs checked are every pair of links that both have geometry, except
/// - **adjacent** links: a link and its nearest ancestor that has geometry (a link
///   hanging from a geometry-less one is adjacent to the first one above it that has
///   some, as planners count it);
/// - pairs the SRDF disables (`<disable_collisions>`, whatever the reason).
///
/// A query ([`check`](SelfCollision::check)) places each element's mesh at
/// `link pose · placement`, then runs a **broad phase** on the links' world boxes (the
/// union of their elements' boxes), then, for a pair whose boxes overlap, compares
/// element against element: their world boxes, then their meshes through [`Collide`]
/// (the dual-tree descent of both BVHs with the exact triangle test), stopping at the
/// first triangle contact of the pair. A pair collides when some triangle of one link
/// touches some triangle of the other ([`triangles_intersect`]); one mesh inside the
/// other without their surfaces touching does not count.
///
/// [`triangles_intersect`]: scenewalk_nodes::triangles_intersect
///
/// ```
/// use scenewalk_actors::{LinkPair, SelfCollision};
/// use scenewalk_core::glam::{Affine3A, Vec3};
/// use scenewalk_nodes::urdf::{parse, ImportOptions, Tessellation};
/// // Three boxes in a chain; `a` and `c` collide when the chain folds.
/// let robot = parse(r#"<robot name="chain">
///   <link name="a"><collision><geometry><box size="1 0.2 0.2"/></geometry></collision></link>
///   <link name="b"><collision><geometry><box size="1 0.2 0.2"/></geometry></collision></link>
///   <link name="c"><collision><geometry><box size="1 0.2 0.2"/></geometry></collision></link>
///   <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
///   <joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>
/// </robot>"#, &ImportOptions::default())?;
/// let meshes = robot.collision_meshes(&Tessellation::default())?;
/// let model = SelfCollision::new(&robot, meshes, None)?;
/// assert_eq!(model.pairs(), [LinkPair::new(0, 2)]); // a-b and b-c are adjacent
///
/// let mut workspace = model.workspace();
/// let apart = [0.0, 1.2, 2.4].map(|x| Affine3A::from_translation(Vec3::X * x));
/// assert!(model.check(&apart, &mut workspace)?.is_empty());
/// let folded = [0.0, 1.2, 0.5].map(|x| Affine3A::from_translation(Vec3::X * x));
/// assert_eq!(model.check(&folded, &mut workspace)?, [LinkPair::new(0, 2)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SelfCollision {
    names: Vec<String>,
    /// The elements, grouped by link (stable within a link).
    elements: Vec<CollisionMesh>,
    /// Per link: its elements' range in `elements`.
    spans: Vec<(usize, usize)>,
    /// Links with geometry, ascending.
    geometric: Vec<usize>,
    pairs: Vec<LinkPair>,
}

/// The per-evaluation buffers of [`SelfCollision::check`]: once grown (after the first
/// query or two), a query allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct SelfCollisionWorkspace {
    collide: Collide,
    /// Per element: its world placement and world box.
    placed: Vec<(Affine3A, Aabb)>,
    /// Per link: the union of its elements' world boxes.
    link_boxes: Vec<Aabb>,
    found: Vec<LinkPair>,
    stats: SelfCollisionStats,
}

/// What the last query did, for tuning and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfCollisionStats {
    /// Link pairs whose world boxes overlapped (passed the broad phase).
    pub broad_pairs: usize,
    /// Element pairs whose meshes were compared (the narrow phase).
    pub narrow_pairs: usize,
}

impl SelfCollisionWorkspace {
    /// The statistics of the last query.
    pub fn stats(&self) -> SelfCollisionStats {
        self.stats
    }
}

impl SelfCollision {
    /// The model of `robot` with its collision meshes (from
    /// [`Robot::collision_meshes`]), minus the pairs `srdf` disables, if given.
    /// Errors: a mesh naming a link out of range, an SRDF naming an unknown link.
    pub fn new(
        robot: &Robot,
        meshes: Vec<CollisionMesh>,
        srdf: Option<&Srdf>,
    ) -> Result<SelfCollision, SelfCollisionError> {
        let links = robot.links().len();
        if let Some((mesh, m)) = meshes.iter().enumerate().find(|(_, m)| m.link >= links) {
            return Err(SelfCollisionError::NoSuchLink {
                mesh,
                link: m.link,
                links,
            });
        }
        let mut elements = meshes;
        elements.sort_by_key(|m| m.link);
        let mut spans = vec![(0, 0); links];
        for (i, m) in elements.iter().enumerate() {
            if let Some(span) = spans.get_mut(m.link) {
                *span = if span.1 == 0 {
                    (i, i + 1)
                } else {
                    (span.0, i + 1)
                };
            }
        }
        let has_geometry = |link: usize| spans.get(link).is_some_and(|s| s.1 > s.0);
        let geometric: Vec<usize> = (0..links).filter(|&l| has_geometry(l)).collect();

        let mut disabled = std::collections::HashSet::new();
        for &link in &geometric {
            // The nearest ancestor with geometry (at most `links` steps up a tree).
            let mut up = robot.parent_link(link);
            for _ in 0..links {
                match up {
                    Some(p) if has_geometry(p) => {
                        disabled.insert(LinkPair::new(link, p));
                        break;
                    }
                    Some(p) => up = robot.parent_link(p),
                    None => break,
                }
            }
        }
        let find = |name: &str| {
            robot
                .link(name)
                .ok_or_else(|| SelfCollisionError::UnknownSrdfLink {
                    name: name.to_string(),
                    robot: robot.name().to_string(),
                })
        };
        for pair in srdf.map_or(&[][..], |s| &s.disabled) {
            disabled.insert(LinkPair::new(find(&pair.link1)?, find(&pair.link2)?));
        }
        let mut pairs = Vec::new();
        for (i, &a) in geometric.iter().enumerate() {
            for &b in geometric.iter().skip(i + 1) {
                let pair = LinkPair::new(a, b);
                if !disabled.contains(&pair) {
                    pairs.push(pair);
                }
            }
        }
        Ok(SelfCollision {
            names: robot.links().iter().map(|l| l.name.clone()).collect(),
            elements,
            spans,
            geometric,
            pairs,
        })
    }

    /// The link pairs a query checks, ascending.
    pub fn pairs(&self) -> &[LinkPair] {
        &self.pairs
    }

    /// The collision meshes, grouped by link.
    pub fn meshes(&self) -> &[CollisionMesh] {
        &self.elements
    }

    /// The name of link `link` (empty past the end).
    pub fn link_name(&self, link: usize) -> &str {
        self.names.get(link).map_or("", String::as_str)
    }

    /// A workspace with room for this model's tables.
    pub fn workspace(&self) -> SelfCollisionWorkspace {
        SelfCollisionWorkspace {
            placed: Vec::with_capacity(self.elements.len()),
            link_boxes: Vec::with_capacity(self.names.len()),
            found: Vec::with_capacity(self.pairs.len()),
            ..SelfCollisionWorkspace::default()
        }
    }

    /// The colliding link pairs, ascending, with the links at `poses` (world poses,
    /// indexed by link). Errors: a table that is not one pose per link, a non-finite
    /// pose of a link with geometry.
    pub fn check<'w>(
        &self,
        poses: &[Affine3A],
        workspace: &'w mut SelfCollisionWorkspace,
    ) -> Result<&'w [LinkPair], SelfCollisionError> {
        self.run(poses, workspace, false)?;
        Ok(&workspace.found)
    }

    /// Whether any checked pair collides at `poses` (stops at the first found). Errors:
    /// as [`check`](SelfCollision::check).
    pub fn collides(
        &self,
        poses: &[Affine3A],
        workspace: &mut SelfCollisionWorkspace,
    ) -> Result<bool, SelfCollisionError> {
        self.run(poses, workspace, true)?;
        Ok(!workspace.found.is_empty())
    }

    fn run(
        &self,
        poses: &[Affine3A],
        ws: &mut SelfCollisionWorkspace,
        first: bool,
    ) -> Result<(), SelfCollisionError> {
        if poses.len() != self.names.len() {
            return Err(SelfCollisionError::WrongPoseCount {
                expected: self.names.len(),
                got: poses.len(),
            });
        }
        ws.found.clear();
        ws.stats = SelfCollisionStats::default();
        ws.placed.clear();
        ws.link_boxes.clear();
        ws.link_boxes.resize(self.names.len(), Aabb::EMPTY);
        for &link in &self.geometric {
            let pose = poses
                .get(link)
                .copied()
                .invariant("a pose of a checked count");
            if !pose.is_finite() {
                return Err(SelfCollisionError::NotFinite {
                    link: self.link_name(link).to_string(),
                });
            }
        }
        for m in &self.elements {
            let pose = poses
                .get(m.link)
                .copied()
                .invariant("a pose of a checked count");
            let placement = pose * m.placement;
            let world = padded(&m.mesh.geometry().local_bounds().transformed(&placement));
            ws.placed.push((placement, world));
            if let Some(b) = ws.link_boxes.get_mut(m.link) {
                *b = b.union(&world);
            }
        }
        let SelfCollisionWorkspace {
            collide,
            placed,
            link_boxes,
            found,
            stats,
        } = ws;
        let link_box = |l: usize| link_boxes.get(l).copied().invariant("a link's box");
        for &pair in &self.pairs {
            if !link_box(pair.a).overlaps(&link_box(pair.b)) {
                continue;
            }
            stats.broad_pairs += 1;
            if self.pair_touches(pair, placed, collide, stats) {
                found.push(pair);
                if first {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Whether some element of `pair.a` touches some element of `pair.b`.
    fn pair_touches(
        &self,
        pair: LinkPair,
        placed: &[(Affine3A, Aabb)],
        collide: &mut Collide,
        stats: &mut SelfCollisionStats,
    ) -> bool {
        let span = |l: usize| {
            let (s, e) = self
                .spans
                .get(l)
                .copied()
                .invariant("a link's element span");
            s..e
        };
        for i in span(pair.a) {
            for j in span(pair.b) {
                let (Some((pi, bi)), Some((pj, bj))) = (placed.get(i), placed.get(j)) else {
                    continue;
                };
                let (Some(ei), Some(ej)) = (self.elements.get(i), self.elements.get(j)) else {
                    continue;
                };
                if !bi.overlaps(bj) {
                    continue;
                }
                stats.narrow_pairs += 1;
                if !collide
                    .meshes(&ei.mesh, pi, &ej.mesh, pj, ContactMode::First)
                    .is_empty()
                {
                    return true;
                }
            }
        }
        false
    }
}
