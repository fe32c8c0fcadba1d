//! Rewriting the generated part of a hand-written Markdown file.

/// A marked section that cannot be rewritten.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MarkerError {
    /// The end marker is missing, or comes before the begin marker.
    #[error("section `{0}`: begin marker without an end marker after it")]
    Unterminated(String),
}

/// Replaces what lies between `<!-- {tag}:begin -->` and `<!-- {tag}:end -->` with
/// `body`, leaving the rest of `doc` as it is; appends a new marked section at the end
/// when `doc` has none.
///
/// ```
/// use scenewalk_examples::report::replace_marked;
/// let doc = "# Hand\ntext\n<!-- t:begin -->\nold\n<!-- t:end -->\nmore\n";
/// let new = replace_marked(doc, "t", "new\n")?;
/// assert_eq!(new, "# Hand\ntext\n<!-- t:begin -->\nnew\n<!-- t:end -->\nmore\n");
/// assert_eq!(replace_marked(&new, "t", "new\n")?, new);
/// # Ok::<(), scenewalk_examples::report::MarkerError>(())
/// ```
pub fn replace_marked(doc: &str, tag: &str, body: &str) -> Result<String, MarkerError> {
    let begin = format!("<!-- {tag}:begin -->\n");
    let end = format!("<!-- {tag}:end -->");
    let Some(start) = doc.find(&begin) else {
        let sep = if doc.is_empty() || doc.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        return Ok(format!("{doc}{sep}\n{begin}{body}{end}\n"));
    };
    let inner = start + begin.len();
    let Some(stop) = doc[inner..].find(&end) else {
        return Err(MarkerError::Unterminated(tag.to_string()));
    };
    Ok(format!("{}{}{}", &doc[..inner], body, &doc[inner + stop..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_a_section_when_there_is_none() {
        let new = replace_marked("# Doc\nhand", "x", "gen\n").unwrap();
        assert_eq!(
            new,
            "# Doc\nhand\n\n<!-- x:begin -->\ngen\n<!-- x:end -->\n"
        );
        // A second pass replaces, not appends.
        let again = replace_marked(&new, "x", "other\n").unwrap();
        assert_eq!(
            again,
            "# Doc\nhand\n\n<!-- x:begin -->\nother\n<!-- x:end -->\n"
        );
    }

    #[test]
    fn leaves_other_sections_alone() {
        let doc = "<!-- a:begin -->\n1\n<!-- a:end -->\n<!-- b:begin -->\n2\n<!-- b:end -->\n";
        let new = replace_marked(doc, "b", "3\n").unwrap();
        assert_eq!(
            new,
            "<!-- a:begin -->\n1\n<!-- a:end -->\n<!-- b:begin -->\n3\n<!-- b:end -->\n"
        );
    }

    #[test]
    fn refuses_an_unterminated_section() {
        assert_eq!(
            replace_marked("<!-- a:begin -->\nno end", "a", "x"),
            Err(MarkerError::Unterminated("a".into()))
        );
    }
}
