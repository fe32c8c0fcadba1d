//! Reading the XML: elements, attributes, numbers and mesh paths.

use super::check::{RawJoint, RawMimic, RawRobot, build};
use super::error::{At, UrdfError};
use super::model::{Collision, JointKind, Limits, Link, Robot, Shape};
use super::motion::rpy;
use roxmltree::{Document, Node};
use scenewalk_core::glam::{Affine3A, Vec3};
use std::path::{Path, PathBuf};

/// The regular file at `path` as UTF-8 text (`InvalidData` if it is not), refused past
/// `limit` bytes ([`read_regular`](crate::read_regular)): URDF and SRDF files.
pub(super) fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    let bytes = crate::read_regular(path, limit)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// Where mesh files are looked for.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Folders that contain package folders: `package://NAME/rest` is
    /// `ROOT/NAME/rest` for the first root where that file exists. Relative mesh
    /// names are tried against the URDF's folder first, then against these.
    pub package_roots: Vec<PathBuf>,
}

/// Reads the URDF file at `path`; its folder is the base of relative mesh names.
/// Errors: [`UrdfError`].
pub fn import(path: impl AsRef<Path>, options: &ImportOptions) -> Result<Robot, UrdfError> {
    let path = path.as_ref();
    let text = read_text(path, u64::MAX).map_err(|source| UrdfError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read(&text, path.parent(), options)
}

/// Reads a URDF from text; relative mesh names resolve against the package roots
/// only. Errors: [`UrdfError`].
pub fn parse(text: &str, options: &ImportOptions) -> Result<Robot, UrdfError> {
    read(text, None, options)
}

/// The reader's context: the document, for positions, and the mesh search paths.
struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    /// The byte offset of each line's start, to place elements in O(log n)
    /// (`Document::text_pos_at` scans from the start of the text each time).
    lines: Vec<usize>,
    base: Option<&'a Path>,
    options: &'a ImportOptions,
}

fn read(text: &str, base: Option<&Path>, options: &ImportOptions) -> Result<Robot, UrdfError> {
    let doc = Document::parse(text).map_err(|err| UrdfError::Xml(err.to_string()))?;
    let robot = doc.root_element();
    if robot.tag_name().name() != "robot" {
        return Err(UrdfError::NotRobot(robot.tag_name().name().to_owned()));
    }
    let lines = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let reader = Reader {
        doc: &doc,
        lines,
        base,
        options,
    };
    let mut raw = RawRobot {
        name: robot.attribute("name").unwrap_or_default().to_owned(),
        ..RawRobot::default()
    };
    for child in robot.children().filter(Node::is_element) {
        match child.tag_name().name() {
            "link" => reader.link(child, &mut raw)?,
            "joint" => raw.joints.push(reader.joint(child)?),
            _ => {}
        }
    }
    build(raw, &|offset| reader.locate(offset))
}

impl Reader<'_, '_> {
    fn at(&self, node: Node<'_, '_>) -> At {
        self.locate(node.range().start)
    }

    /// The line and column of a byte offset (for an error only: the column counts the
    /// characters of its line).
    fn locate(&self, offset: usize) -> At {
        let line = self.lines.partition_point(|&start| start <= offset);
        let start = self.lines.get(line.saturating_sub(1)).copied().unwrap_or(0);
        let text = self.doc.input_text();
        let column = text.get(start..offset).map_or(0, |s| s.chars().count());
        At {
            line: line as u32,
            column: column as u32 + 1,
        }
    }

    /// `<tag name="...">`, for messages.
    fn label(node: Node<'_, '_>) -> String {
        match node.attribute("name") {
            Some(name) => format!("{} name=\"{name}\"", node.tag_name().name()),
            None => node.tag_name().name().to_owned(),
        }
    }

    fn required<'n>(&self, node: Node<'n, '_>, what: &'static str) -> Result<&'n str, UrdfError> {
        node.attribute(what).ok_or_else(|| UrdfError::Missing {
            element: Self::label(node),
            what,
            at: self.at(node),
        })
    }

    /// `N` finite numbers separated by white space.
    fn numbers<const N: usize>(
        &self,
        node: Node<'_, '_>,
        attribute: &'static str,
    ) -> Result<Option<[f32; N]>, UrdfError> {
        let Some(text) = node.attribute(attribute) else {
            return Ok(None);
        };
        let bad = || UrdfError::BadNumber {
            element: Self::label(node),
            attribute,
            value: text.to_owned(),
            expected: match N {
                1 => "a finite number",
                _ => "three finite numbers",
            },
            at: self.at(node),
        };
        let mut out = [0.0; N];
        let mut words = text.split_whitespace();
        for slot in &mut out {
            let value: f32 = words.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            if !value.is_finite() {
                return Err(bad());
            }
            *slot = value;
        }
        match words.next() {
            Some(_) => Err(bad()),
            None => Ok(Some(out)),
        }
    }

    fn number(
        &self,
        node: Node<'_, '_>,
        attribute: &'static str,
    ) -> Result<Option<f32>, UrdfError> {
        Ok(self.numbers::<1>(node, attribute)?.map(|[v]| v))
    }

    fn vec3(&self, node: Node<'_, '_>, attribute: &'static str) -> Result<Option<Vec3>, UrdfError> {
        Ok(self.numbers::<3>(node, attribute)?.map(Vec3::from_array))
    }

    /// The `<origin>` child of `node` (identity when there is none).
    fn origin(&self, node: Node<'_, '_>) -> Result<Affine3A, UrdfError> {
        let Some(origin) = child(node, "origin") else {
            return Ok(Affine3A::IDENTITY);
        };
        let xyz = self.vec3(origin, "xyz")?.unwrap_or(Vec3::ZERO);
        let [r, p, y] = self.vec3(origin, "rpy")?.unwrap_or(Vec3::ZERO).to_array();
        Ok(Affine3A::from_rotation_translation(rpy(r, p, y), xyz))
    }

    fn link(&self, node: Node<'_, '_>, raw: &mut RawRobot) -> Result<(), UrdfError> {
        let name = self.required(node, "name")?.to_owned();
        let link = raw.links.len();
        for collision in node.children().filter(|c| c.has_tag_name("collision")) {
            let bad = || UrdfError::BadGeometry {
                link: name.clone(),
                at: self.at(collision),
            };
            let geometry = child(collision, "geometry").ok_or_else(bad)?;
            let shape = geometry.children().find(Node::is_element).ok_or_else(bad)?;
            let geometry = match shape.tag_name().name() {
                "box" => Shape::Box {
                    size: Vec3::from_array(self.sizes(shape, "size")?),
                },
                "cylinder" => {
                    let ([radius], [length]) =
                        (self.sizes(shape, "radius")?, self.sizes(shape, "length")?);
                    Shape::Cylinder { radius, length }
                }
                "sphere" => {
                    let [radius] = self.sizes(shape, "radius")?;
                    Shape::Sphere { radius }
                }
                "mesh" => Shape::Mesh {
                    path: self.mesh_path(shape, &name)?,
                    scale: self.vec3(shape, "scale")?.unwrap_or(Vec3::ONE),
                },
                _ => return Err(bad()),
            };
            raw.collisions.push(Collision {
                link,
                name: collision.attribute("name").map(str::to_owned),
                origin: self.origin(collision)?,
                geometry,
            });
        }
        raw.links.push((Link { name }, node.range().start));
        Ok(())
    }

    /// A required attribute of `N` sizes (numbers of zero or more).
    fn sizes<const N: usize>(
        &self,
        node: Node<'_, '_>,
        attribute: &'static str,
    ) -> Result<[f32; N], UrdfError> {
        let text = self.required(node, attribute)?;
        let sizes = self.numbers::<N>(node, attribute)?.unwrap_or([0.0; N]);
        if sizes.iter().all(|v| *v >= 0.0) {
            return Ok(sizes);
        }
        Err(UrdfError::BadNumber {
            element: Self::label(node),
            attribute,
            value: text.to_owned(),
            expected: "a size of zero or more",
            at: self.at(node),
        })
    }

    /// The existing file a `<mesh filename>` names.
    fn mesh_path(&self, node: Node<'_, '_>, link: &str) -> Result<PathBuf, UrdfError> {
        let filename = self.required(node, "filename")?;
        let roots = self.options.package_roots.iter().map(PathBuf::as_path);
        let tried: Vec<PathBuf> = if let Some(rest) = filename.strip_prefix("package://") {
            roots.map(|root| root.join(rest)).collect()
        } else if let Some(path) = filename.strip_prefix("file://") {
            vec![PathBuf::from(path)]
        } else if Path::new(filename).is_absolute() {
            vec![PathBuf::from(filename)]
        } else {
            self.base
                .into_iter()
                .chain(roots)
                .map(|root| root.join(filename))
                .collect()
        };
        let found = tried.iter().find(|path| path.is_file());
        found.cloned().ok_or_else(|| UrdfError::MeshNotFound {
            link: link.to_owned(),
            filename: filename.to_owned(),
            tried,
            at: self.at(node),
        })
    }

    fn joint(&self, node: Node<'_, '_>) -> Result<RawJoint, UrdfError> {
        let at = node.range().start;
        let name = self.required(node, "name")?.to_owned();
        let kind_name = self.required(node, "type")?;
        let kind = JointKind::from_name(kind_name).ok_or_else(|| UrdfError::UnknownJointType {
            joint: name.clone(),
            kind: kind_name.to_owned(),
            at: self.locate(at),
        })?;
        let link = |role: &'static str| -> Result<String, UrdfError> {
            let element = child(node, role).ok_or_else(|| UrdfError::Missing {
                element: Self::label(node),
                what: role,
                at: self.locate(at),
            })?;
            Ok(self.required(element, "link")?.to_owned())
        };
        let (parent, child_link) = (link("parent")?, link("child")?);
        let axis = match child(node, "axis") {
            Some(axis) => self.vec3(axis, "xyz")?.unwrap_or(Vec3::X),
            None => Vec3::X,
        };
        let limits = match child(node, "limit") {
            Some(limit) => {
                let value = |a| Ok::<_, UrdfError>(self.number(limit, a)?.unwrap_or(0.0));
                Some(Limits {
                    lower: value("lower")?,
                    upper: value("upper")?,
                    effort: value("effort")?,
                    velocity: value("velocity")?,
                })
            }
            None => None,
        };
        let mimic = match child(node, "mimic") {
            Some(mimic) => Some(RawMimic {
                master: self.required(mimic, "joint")?.to_owned(),
                multiplier: self.number(mimic, "multiplier")?.unwrap_or(1.0),
                offset: self.number(mimic, "offset")?.unwrap_or(0.0),
            }),
            None => None,
        };
        Ok(RawJoint {
            name,
            kind,
            parent,
            child: child_link,
            origin: self.origin(node)?,
            axis,
            limits,
            mimic,
            at,
        })
    }
}

/// The first child element of `node` named `tag`.
fn child<'a, 'input>(node: Node<'a, 'input>, tag: &str) -> Option<Node<'a, 'input>> {
    node.children().find(|c| c.has_tag_name(tag))
}
