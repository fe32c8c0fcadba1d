//! The part of an SRDF (MoveIt's semantic robot description) that self-collision
//! reads: the link pairs a planner never checks.

use std::path::{Path, PathBuf};

/// The largest SRDF file read (64 MiB): a bigger one is refused, not loaded.
const MAX_SRDF_BYTES: u64 = 64 << 20;

/// One `<disable_collisions link1= link2= reason=/>`: a link pair never checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisabledPair {
    /// `link1`.
    pub link1: String,
    /// `link2`.
    pub link2: String,
    /// `reason` (`Adjacent`, `Never`, `Default`, ...), if given.
    pub reason: Option<String>,
}

/// An SRDF's collision settings: its `<disable_collisions>` elements (direct children
/// of `<robot>`, in file order). Groups, states and end effectors are not read.
///
/// ```
/// use scenewalk_nodes::urdf::Srdf;
/// let srdf = Srdf::parse(r#"<robot name="arm">
///     <group name="all"><joint name="j1"/></group>
///     <disable_collisions link1="base" link2="upper" reason="Adjacent"/>
/// </robot>"#)?;
/// assert_eq!(srdf.disabled.len(), 1);
/// assert_eq!(srdf.disabled[0].link2, "upper");
/// assert_eq!(srdf.disabled[0].reason.as_deref(), Some("Adjacent"));
/// # Ok::<(), scenewalk_nodes::urdf::SrdfError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Srdf {
    /// The disabled link pairs.
    pub disabled: Vec<DisabledPair>,
}

/// Why an SRDF was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SrdfError {
    /// The file could not be read (missing, not a regular file, too large, not UTF-8).
    #[error("{}: cannot read: {reason}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        reason: String,
    },
    /// The text is not well-formed XML.
    #[error("{}: not well-formed XML: {reason}", file.display())]
    Xml {
        /// The file (`<memory>` for [`Srdf::parse`]).
        file: PathBuf,
        /// The XML parser's message, with line and column.
        reason: String,
    },
    /// The root element is not `<robot>`.
    #[error("{}: the root element is <{found}>, not <robot>", file.display())]
    NotSrdf {
        /// The file.
        file: PathBuf,
        /// The root element's name.
        found: String,
    },
    /// A `<disable_collisions>` lacks `link1` or `link2`.
    #[error("{}:{line}: <disable_collisions> has no {attribute}", file.display())]
    MissingAttribute {
        /// The file.
        file: PathBuf,
        /// The element's line (from 1).
        line: u32,
        /// `link1` or `link2`.
        attribute: &'static str,
    },
}

impl Srdf {
    /// Parses SRDF text (errors name the file `<memory>`).
    pub fn parse(text: &str) -> Result<Srdf, SrdfError> {
        parse_named(text, Path::new("<memory>"))
    }

    /// Reads and parses the SRDF file at `path`.
    pub fn import(path: &Path) -> Result<Srdf, SrdfError> {
        let text = super::read::read_text(path, MAX_SRDF_BYTES).map_err(|e| SrdfError::Read {
            file: path.to_path_buf(),
            reason: e.to_string(),
        })?;
        parse_named(&text, path)
    }
}

fn parse_named(text: &str, file: &Path) -> Result<Srdf, SrdfError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| SrdfError::Xml {
        file: file.to_path_buf(),
        reason: e.to_string(),
    })?;
    let root = doc.root_element();
    if !root.has_tag_name("robot") {
        return Err(SrdfError::NotSrdf {
            file: file.to_path_buf(),
            found: root.tag_name().name().to_string(),
        });
    }
    let elements = root
        .children()
        .filter(|n| n.is_element() && n.has_tag_name("disable_collisions"));
    let mut disabled = Vec::new();
    for element in elements {
        let attribute = |attribute: &'static str| {
            element
                .attribute(attribute)
                .ok_or(SrdfError::MissingAttribute {
                    file: file.to_path_buf(),
                    line: doc.text_pos_at(element.range().start).row,
                    attribute,
                })
        };
        disabled.push(DisabledPair {
            link1: attribute("link1")?.to_string(),
            link2: attribute("link2")?.to_string(),
            reason: element.attribute("reason").map(str::to_string),
        });
    }
    Ok(Srdf { disabled })
}
