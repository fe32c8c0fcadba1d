//! Round-robin timing: every contender of a case runs in turn, rep after rep, so
//! drift and other processes on a shared machine hit all of them alike.

use std::time::Instant;

/// One way of doing a case's job.
pub struct Contender<'a> {
    /// Its name in the report.
    pub name: String,
    /// How many nodes (or other elements) one run handles, for the per-node time.
    pub elements: u64,
    /// Bytes per element its data holds, if measured.
    pub bytes_per_node: Option<f64>,
    /// One run; returns a checksum (the nodes it counted, say) that must equal the
    /// other contenders' for the comparison to mean anything.
    pub run: Box<dyn FnMut() -> u64 + 'a>,
    /// Untimed work before each run ([`before_each`](Self::before_each)).
    pub prepare: Option<Box<dyn FnMut() + 'a>>,
}

impl<'a> Contender<'a> {
    /// A contender handling `elements` per run.
    pub fn new(name: &str, elements: u64, run: impl FnMut() -> u64 + 'a) -> Self {
        Self {
            name: name.to_string(),
            elements,
            bytes_per_node: None,
            run: Box::new(run),
            prepare: None,
        }
    }

    /// Sets work that runs, untimed, just before each run: the edits an incremental
    /// update then brings into its results, say.
    pub fn before_each(mut self, prepare: impl FnMut() + 'a) -> Self {
        self.prepare = Some(Box::new(prepare));
        self
    }

    /// Sets the bytes per element its data holds.
    pub fn bytes(mut self, bytes_per_node: f64) -> Self {
        self.bytes_per_node = Some(bytes_per_node);
        self
    }
}

/// How many runs: unmeasured warm-up rounds, then measured ones.
#[derive(Clone, Copy, Debug)]
pub struct Reps {
    /// Rounds run before measuring.
    pub warmup: usize,
    /// Rounds measured.
    pub measured: usize,
}

/// A contender's times over the measured rounds, in nanoseconds per run.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The contender's name.
    pub name: String,
    /// Elements per run.
    pub elements: u64,
    /// Median time of one run.
    pub median: f64,
    /// Best time of one run.
    pub min: f64,
    /// Bytes per element, if measured.
    pub bytes_per_node: Option<f64>,
    /// The checksum of its runs.
    pub checksum: u64,
}

/// Each contender's checksum, for a message when they disagree: `name 12, other 13`.
///
/// ```
/// use scenewalk_examples::report::{Measured, checksums};
/// let m = |name: &str, checksum| Measured {
///     name: name.into(), elements: 1, median: 1.0, min: 1.0, bytes_per_node: None, checksum,
/// };
/// assert_eq!(checksums(&[m("hand", 12), m("action", 13)]), "hand 12, action 13");
/// ```
pub fn checksums(measured: &[Measured]) -> String {
    let each: Vec<String> = measured
        .iter()
        .map(|m| format!("{} {}", m.name, m.checksum))
        .collect();
    each.join(", ")
}

/// Runs the contenders in alternation: each round runs every contender once, starting
/// one further along each round so no contender always follows the same one; a
/// contender's [`before_each`](Contender::before_each) step runs just before its run,
/// outside the timed span. Returns
/// each contender's median and best time over the measured rounds, in input order.
///
/// A contender whose checksum changes between runs keeps the first one; callers
/// compare checksums across contenders ([`Measured::checksum`]).
///
/// With `BENCH_REPORT_COUNT=NAME` in the environment only the contender named `NAME`
/// runs, every round, for counts under valgrind: a run with a name no contender has
/// counts the set-up, to subtract (its times then mean nothing).
///
/// ```
/// use scenewalk_examples::report::{Contender, Reps, round_robin};
/// let data: Vec<u64> = (0..1000).collect();
/// let mut contenders = vec![
///     Contender::new("loop", 1000, || { let mut s = 0; for &x in &data { s += x; } s }),
///     Contender::new("iter", 1000, || data.iter().sum()),
/// ];
/// let measured = round_robin(&mut contenders, Reps { warmup: 1, measured: 5 });
/// assert_eq!(measured.len(), 2);
/// assert_eq!(measured[0].checksum, measured[1].checksum);
/// assert!(measured.iter().all(|m| m.min <= m.median));
/// ```
pub fn round_robin(contenders: &mut [Contender<'_>], reps: Reps) -> Vec<Measured> {
    let n = contenders.len();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(reps.measured); n];
    let mut checksums: Vec<Option<u64>> = vec![None; n];
    let counted = std::env::var("BENCH_REPORT_COUNT").ok();
    for round in 0..reps.warmup + reps.measured {
        for k in 0..n {
            let i = (round + k) % n;
            if counted
                .as_ref()
                .is_some_and(|name| *name != contenders[i].name)
            {
                continue;
            }
            if let Some(prepare) = &mut contenders[i].prepare {
                prepare();
            }
            let start = Instant::now();
            let sum = std::hint::black_box((contenders[i].run)());
            let elapsed = start.elapsed().as_nanos() as f64;
            checksums[i].get_or_insert(sum);
            if round >= reps.warmup {
                times[i].push(elapsed);
            }
        }
    }
    contenders
        .iter()
        .zip(times)
        .zip(checksums)
        .map(|((c, mut t), sum)| {
            t.sort_by(f64::total_cmp);
            Measured {
                name: c.name.clone(),
                elements: c.elements,
                median: t.get(t.len() / 2).copied().unwrap_or(f64::NAN),
                min: t.first().copied().unwrap_or(f64::NAN),
                bytes_per_node: c.bytes_per_node,
                checksum: sum.unwrap_or(0),
            }
        })
        .collect()
}
