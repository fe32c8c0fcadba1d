//! The pieces of `bench_report` that are not a benchmark case: the round-robin timer,
//! the result rows and their table, and the rewrite of a marked section of a Markdown
//! file. The cases themselves live with the example (`examples/bench_report/`), since
//! some contenders are other crates, which are dev-dependencies only.

mod harness;
mod markdown;

pub use harness::{Contender, Measured, Reps, round_robin};
pub use markdown::{MarkerError, replace_marked};

/// One contender's line of the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The case, e.g. `a. plain visit`.
    pub case: String,
    /// The contender, e.g. `action_depth_first_count`.
    pub contender: String,
    /// Median time per node (or per element the case counts), in nanoseconds.
    pub ns_per_node: f64,
    /// Median time over the baseline's median time in the same run.
    pub ratio: f64,
    /// Best time over the baseline's best time in the same run.
    pub min_ratio: f64,
    /// Bytes per node the contender's data holds, as counted by the allocator.
    pub bytes_per_node: Option<f64>,
}

impl Row {
    /// The rows of one case from its measurements; `baseline` names the contender
    /// every ratio is taken against (the first one if no contender has that name).
    pub fn from_measured(case: &str, measured: &[Measured], baseline: &str) -> Vec<Row> {
        let base = measured
            .iter()
            .find(|m| m.name == baseline)
            .or(measured.first());
        let (base_median, base_min) = base.map_or((f64::NAN, f64::NAN), |b| (b.median, b.min));
        measured
            .iter()
            .map(|m| Row {
                case: case.to_string(),
                contender: m.name.clone(),
                ns_per_node: m.median / m.elements as f64,
                ratio: m.median / base_median,
                min_ratio: m.min / base_min,
                bytes_per_node: m.bytes_per_node,
            })
            .collect()
    }

    /// The line printed on standard output: `case contender ns_per_node ratio`, then
    /// the best-time ratio and the bytes per node.
    pub fn line(&self) -> String {
        let bytes = self
            .bytes_per_node
            .map_or_else(|| "-".to_string(), |b| format!("{b:.1}"));
        format!(
            "{:<22} {:<40} {:>9.2} {:>7.2} {:>7.2} {:>7}",
            self.case, self.contender, self.ns_per_node, self.ratio, self.min_ratio, bytes
        )
    }
}

/// The rows as a Markdown table.
///
/// ```
/// use scenewalk_examples::report::{Row, table};
/// let rows = [Row {
///     case: "a".into(),
///     contender: "hand".into(),
///     ns_per_node: 2.5,
///     ratio: 1.0,
///     min_ratio: 1.0,
///     bytes_per_node: Some(12.0),
/// }];
/// let md = table(&rows);
/// assert!(md.contains("| a | `hand` | 2.50 | 1.00 | 1.00 | 12.0 |"));
/// ```
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| case | contender | ns / node (median) | × baseline (median) | × baseline (best) | bytes / node |\n\
         |---|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let bytes = r
            .bytes_per_node
            .map_or_else(|| "—".to_string(), |b| format!("{b:.1}"));
        out.push_str(&format!(
            "| {} | `{}` | {:.2} | {:.2} | {:.2} | {} |\n",
            r.case, r.contender, r.ns_per_node, r.ratio, r.min_ratio, bytes
        ));
    }
    out
}
