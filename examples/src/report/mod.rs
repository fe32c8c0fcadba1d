//! The pieces of `bench_report` that are not a benchmark case: its command line, the
//! round-robin timer, the result rows, their table and speed-up summary, and the
//! rewrite of a marked section of a Markdown file. The cases themselves live with the example (`examples/bench_report/`), since
//! some contenders are other crates, which are dev-dependencies only.

mod harness;
mod markdown;
mod options;

pub use harness::{Contender, Measured, Reps, checksums, round_robin};
pub use markdown::{MarkerError, replace_marked};
pub use options::{Command, MAX_THREADS, Options, USAGE, UsageError, default_threads};

/// The contender every ratio of a parallel case is taken against.
pub const SEQUENTIAL: &str = "sequential";

/// The name of a parallel case's contender that runs on `threads` threads.
pub fn threads_contender(threads: usize) -> String {
    format!("threads_{threads}")
}

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
    /// the best-time ratio and the bytes per node ([`figure`] writes the numbers).
    pub fn line(&self) -> String {
        let bytes = self
            .bytes_per_node
            .map_or_else(|| "-".to_string(), |b| format!("{b:.1}"));
        format!(
            "{:<26} {:<40} {:>9} {:>7} {:>7} {:>7}",
            self.case,
            self.contender,
            figure(self.ns_per_node),
            figure(self.ratio),
            figure(self.min_ratio),
            bytes
        )
    }
}

/// A time or a ratio for the report: two decimals from 0.1 up, three significant
/// digits below (a patch at 0.4 % of a full update reads `0.00400`, not `0.00`), in
/// exponent form below 0.001.
///
/// ```
/// use scenewalk_examples::report::figure;
/// assert_eq!(figure(1.0), "1.00");
/// assert_eq!(figure(0.0456), "0.0456");
/// assert_eq!(figure(0.000_012_3), "1.23e-5");
/// ```
pub fn figure(x: f64) -> String {
    let magnitude = x.abs();
    if !x.is_finite() || magnitude >= 0.1 || magnitude == 0.0 {
        format!("{x:.2}")
    } else if magnitude >= 0.001 {
        let decimals = (2.0 - magnitude.log10().floor()) as usize;
        format!("{x:.decimals$}")
    } else {
        format!("{x:.2e}")
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
            "| {} | `{}` | {} | {} | {} | {} |\n",
            r.case,
            r.contender,
            figure(r.ns_per_node),
            figure(r.ratio),
            figure(r.min_ratio),
            bytes
        ));
    }
    out
}

/// The speed-ups of the parallel cases as a plain-text table, one line per case that
/// has a [`SEQUENTIAL`] contender and one column per thread count of its
/// `threads_N` contenders ([`threads_contender`]): the sequential median over the
/// median on N threads, the inverse of the rows' ratio (`-` where a case did not
/// run that count). `None` if no case has both.
///
/// ```
/// use scenewalk_examples::report::{Row, speed_ups};
/// let row = |contender: &str, ratio: f64| Row {
///     case: "j. update".into(),
///     contender: contender.into(),
///     ns_per_node: 1.0,
///     ratio,
///     min_ratio: ratio,
///     bytes_per_node: None,
/// };
/// let summary = speed_ups(&[row("sequential", 1.0), row("threads_8", 0.2)]).unwrap();
/// assert!(summary.lines().last().unwrap().ends_with("5.00"));
/// ```
pub fn speed_ups(rows: &[Row]) -> Option<String> {
    let threads_of = |r: &Row| {
        r.contender
            .strip_prefix("threads_")
            .and_then(|t| t.parse::<usize>().ok())
    };
    let mut cases: Vec<&str> = Vec::new();
    for r in rows {
        if r.contender == SEQUENTIAL && !cases.contains(&r.case.as_str()) {
            cases.push(&r.case);
        }
    }
    cases.retain(|c| rows.iter().any(|r| r.case == *c && threads_of(r).is_some()));
    if cases.is_empty() {
        return None;
    }
    let mut counts: Vec<usize> = rows
        .iter()
        .filter(|r| cases.contains(&r.case.as_str()))
        .filter_map(threads_of)
        .collect();
    counts.sort_unstable();
    counts.dedup();
    let mut out =
        String::from("speed-up over sequential (sequential median / median on N threads):\n");
    out.push_str(&format!("{:<26}", "case \\ threads"));
    for n in &counts {
        out.push_str(&format!(" {n:>7}"));
    }
    out.push('\n');
    for case in cases {
        out.push_str(&format!("{case:<26}"));
        for &n in &counts {
            let ratio = rows
                .iter()
                .find(|r| r.case == case && threads_of(r) == Some(n))
                .map(|r| r.ratio);
            match ratio {
                Some(ratio) => out.push_str(&format!(" {:>7.2}", 1.0 / ratio)),
                None => out.push_str(&format!(" {:>7}", "-")),
            }
        }
        out.push('\n');
    }
    Some(out)
}
