//! The command line of `bench_report`.

use super::Reps;

/// What `bench_report --help` prints.
pub const USAGE: &str = "\
Usage: cargo run --release -p scenewalk-examples --example bench_report -- [OPTIONS]

Measures every contender of every case in round-robin rounds, prints one line per
contender (case, contender, ns/node, median and best ratio to the case's baseline,
bytes/node) and a speed-up summary of the parallel cases, then rewrites the
`bench_report:full` section of docs/benchmarks.md.

Options:
  --quick            smaller data and fewer rounds (under a minute; print only)
  --big              case j also on 10M-node trees (needs a big machine, tens of GiB)
  --threads LIST     thread counts of case j, e.g. 1,2,4,8,16
                     (default: 1 and 2, or 1 alone on a one-core machine)
  --only LIST        run only these cases, e.g. i,j (does not rewrite the file)
  --no-write         print only; leave docs/benchmarks.md as it is
  --scale            the 100M-node scale check instead of the cases
                     (rewrites the `bench_report:scale` section)
  -h, --help         print this and exit
";

/// The most threads `--threads` accepts per count.
pub const MAX_THREADS: usize = 1024;

/// What the command line asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Smaller data and fewer rounds.
    pub quick: bool,
    /// The parallel case also on 10M-node trees.
    pub big: bool,
    /// The scale check instead of the cases.
    pub scale: bool,
    /// The cases to run (their letters); `None`: all.
    pub only: Option<Vec<String>>,
    /// The thread counts of the parallel case, ascending, without repeats.
    pub threads: Vec<usize>,
    /// Whether to rewrite `docs/benchmarks.md` (not with `--no-write`, `--only` or
    /// `--quick`).
    pub write: bool,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `-h` or `--help`: print [`USAGE`], run nothing.
    Help,
    /// Measure.
    Run(Options),
}

/// A command line `bench_report` refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsageError {
    /// An argument that is no option of `bench_report`.
    #[error("unknown option `{0}`")]
    Unknown(String),
    /// An option that takes a value came last, or with an empty value.
    #[error("`{0}` needs a value")]
    MissingValue(&'static str),
    /// `--only` named a case that does not exist.
    #[error("--only: no case `{case}` (the cases are {known})")]
    UnknownCase {
        /// The letter given.
        case: String,
        /// The letters there are, comma-separated.
        known: String,
    },
    /// `--threads` got something other than counts from 1 to [`MAX_THREADS`].
    #[error("--threads: `{0}` is not a thread count from 1 to {MAX_THREADS}")]
    BadThreads(String),
    /// `--quick` and `--big` ask for opposite sizes.
    #[error("--quick and --big cannot be combined")]
    QuickAndBig,
}

impl From<UsageError> for crate::args::ArgError {
    /// The examples' convention: a wrong shape of command line is a usage error (exit
    /// 2), a case or thread count that does not exist a bad value (exit 1).
    fn from(e: UsageError) -> Self {
        match e {
            UsageError::UnknownCase { .. } | UsageError::BadThreads(_) => {
                Self::Value(e.to_string())
            }
            _ => Self::Usage(e.to_string()),
        }
    }
}

/// The thread counts of the parallel case when `--threads` is not given: 1 and 2, or
/// 1 alone on a machine with one core.
///
/// ```
/// use scenewalk_examples::report::default_threads;
/// assert_eq!(default_threads(16), [1, 2]);
/// assert_eq!(default_threads(1), [1]);
/// ```
pub fn default_threads(cores: usize) -> Vec<usize> {
    let mut threads = vec![1, cores.clamp(1, 2)];
    threads.dedup();
    threads
}

impl Options {
    /// Parses the arguments after the program name. `cases` are the letters `--only`
    /// accepts, `cores` the machine's core count (for the default thread counts).
    ///
    /// Errors: an unknown option, a missing value, an unknown case, a thread count
    /// that is not a number from 1 to [`MAX_THREADS`], `--quick` with `--big`.
    ///
    /// ```
    /// use scenewalk_examples::report::{Command, Options, UsageError};
    /// let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    /// assert_eq!(Options::parse(args(&["--quick", "-h"]), &["a"], 2), Ok(Command::Help));
    /// let Ok(Command::Run(o)) = Options::parse(args(&["--only", "a", "--threads", "4,1"]), &["a"], 2)
    /// else { panic!() };
    /// assert_eq!((o.threads, o.write), (vec![1, 4], false));
    /// assert_eq!(
    ///     Options::parse(args(&["--fast"]), &["a"], 2),
    ///     Err(UsageError::Unknown("--fast".into()))
    /// );
    /// ```
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        cases: &[&str],
        cores: usize,
    ) -> Result<Command, UsageError> {
        let mut options = Options {
            quick: false,
            big: false,
            scale: false,
            only: None,
            threads: default_threads(cores),
            write: true,
        };
        let mut no_write = false;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let mut value = |flag: &'static str| {
                args.next()
                    .filter(|v| !v.is_empty())
                    .ok_or(UsageError::MissingValue(flag))
            };
            match arg.as_str() {
                "-h" | "--help" => return Ok(Command::Help),
                "--quick" => options.quick = true,
                "--big" => options.big = true,
                "--scale" => options.scale = true,
                "--no-write" => no_write = true,
                "--only" => {
                    let list = value("--only")?;
                    let only: Vec<String> = list.split(',').map(str::to_string).collect();
                    if let Some(case) = only.iter().find(|c| !cases.contains(&c.as_str())) {
                        return Err(UsageError::UnknownCase {
                            case: case.clone(),
                            known: cases.join(","),
                        });
                    }
                    options.only = Some(only);
                }
                "--threads" => {
                    let list = value("--threads")?;
                    let mut threads = list
                        .split(',')
                        .map(|t| match t.trim().parse::<usize>() {
                            Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
                            _ => Err(UsageError::BadThreads(t.to_string())),
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    threads.sort_unstable();
                    threads.dedup();
                    options.threads = threads;
                }
                _ => return Err(UsageError::Unknown(arg)),
            }
        }
        if options.quick && options.big {
            return Err(UsageError::QuickAndBig);
        }
        options.write = !no_write && !options.quick && options.only.is_none();
        Ok(Command::Run(options))
    }

    /// Warm-up and measured rounds of a case.
    pub fn reps(&self) -> Reps {
        Reps {
            warmup: 2,
            measured: if self.quick { 9 } else { 11 },
        }
    }
}
