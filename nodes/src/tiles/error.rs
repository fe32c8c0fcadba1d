//! What can be wrong with a tileset, a subtree or a content URI.

use scenewalk_core::GraphError;

/// A tileset, subtree or URI that cannot be read; each names the file and the place.
#[derive(Debug, thiserror::Error)]
pub enum TilesError {
    /// The file is not JSON (or not UTF-8 JSON).
    #[error("{uri}: not JSON: {source}")]
    NotJson {
        /// The file.
        uri: String,
        /// What the JSON parser said, with line and column.
        source: serde_json::Error,
    },
    /// A value is missing, of the wrong kind or out of range.
    #[error("{uri}: {at}: {what}")]
    Invalid {
        /// The file.
        uri: String,
        /// Where in it (`root.children[2].geometricError`).
        at: String,
        /// What is wrong.
        what: String,
    },
    /// A URI that leaves the tileset's folder (`../`, an absolute path, another host).
    #[error("{uri}: the URI {reference:?} leaves the tileset's folder")]
    Escapes {
        /// The file that holds the reference.
        uri: String,
        /// The reference.
        reference: String,
    },
    /// An external tileset that (indirectly) contains itself.
    #[error("external tilesets form a cycle: {chain}")]
    Cycle {
        /// The files, outermost first, ending with the repeated one.
        chain: String,
    },
    /// A subtree file that is cut short or whose parts do not fit.
    #[error("{uri}: subtree: {what}")]
    Subtree {
        /// The subtree file.
        uri: String,
        /// What is wrong.
        what: String,
    },
    /// More than a limit allows (tiles in one file, nesting of external tilesets, bytes).
    #[error("{uri}: {what} (limit {limit})")]
    TooLarge {
        /// The file.
        uri: String,
        /// What is too large.
        what: String,
        /// The limit.
        limit: u64,
    },
    /// A graph edit failed (a stale parent).
    #[error(transparent)]
    Graph(#[from] GraphError),
}

impl TilesError {
    pub(crate) fn invalid(uri: &str, at: &str, what: impl Into<String>) -> Self {
        TilesError::Invalid {
            uri: uri.to_owned(),
            at: at.to_owned(),
            what: what.into(),
        }
    }

    pub(crate) fn subtree(uri: &str, what: impl Into<String>) -> Self {
        TilesError::Subtree {
            uri: uri.to_owned(),
            what: what.into(),
        }
    }
}
