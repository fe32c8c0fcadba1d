//! The examples' one command-line convention, as one piece of code: every example's
//! `main` is [`run_main`], and its options are read through [`Args`].
//!
//! - `-h` or `--help`, anywhere: the usage on stdout, exit 0.
//! - A command line of the wrong shape (an unknown option, an option that means
//!   nothing with the others, an option without its value, an operand too many or
//!   missing): one line on stderr naming the argument at fault, exit 2
//!   ([`ArgError::Usage`]).
//! - A value the program cannot use (`--frames 0`, `--time -1`), a file that cannot
//!   be read or written, a failed check: one line on stderr, exit 1
//!   ([`ArgError::Value`], or the error the program's run returns).
//! - A closed stdout (`frame_loop | head -1`): the program stops quietly, exit 0.
//!
//! Options take their value as the next argument or after `=` (`--frames 10`,
//! `--frames=10`).
//!
//! ```
//! use scenewalk_examples::args::{Arg, ArgError, Args};
//! let mut args = Args::new(["--frames=10", "scene.gltf", "--time", "-1"].map(String::from));
//! assert_eq!(args.next_arg(), Ok(Some(Arg::Option("--frames".into()))));
//! assert_eq!(args.number("--frames", 1..=100), Ok(10));
//! assert_eq!(args.next_arg(), Ok(Some(Arg::Operand("scene.gltf".into()))));
//! assert_eq!(args.next_arg(), Ok(Some(Arg::Option("--time".into()))));
//! assert!(matches!(args.seconds("--time"), Err(ArgError::Value(m)) if m.contains("--time")));
//! assert_eq!(args.next_arg(), Ok(None));
//! ```

use std::error::Error;
use std::fmt::Display;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;

/// The latest time `--time` accepts, in seconds (about 11.6 days): past it an `f32`
/// time no longer tells frames apart, and every animation has long ended.
pub const MAX_SECONDS: f32 = 1e6;

/// A command line refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// The command line's shape is wrong (exit 2): the message names the argument.
    Usage(String),
    /// A value the program cannot use (exit 1): the message names the option.
    Value(String),
}

impl ArgError {
    /// The exit status: 2 for [`ArgError::Usage`], 1 for [`ArgError::Value`].
    pub fn exit_code(&self) -> u8 {
        match self {
            ArgError::Usage(_) => 2,
            ArgError::Value(_) => 1,
        }
    }

    /// `option` is not one of the program's.
    pub fn unknown(option: &str) -> Self {
        ArgError::Usage(format!("unknown option {option}"))
    }
}

impl Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Usage(message) | ArgError::Value(message) => f.write_str(message),
        }
    }
}

impl Error for ArgError {}

/// One argument, as [`Args::next_arg`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// `-h` or `--help`.
    Help,
    /// An option (`--frames`; its value, if it takes one, comes from [`Args::value`] or
    /// a typed reader).
    Option(String),
    /// Anything else: a file, say.
    Operand(String),
}

/// The arguments after the program's name, read one by one.
#[derive(Clone, Debug)]
pub struct Args {
    rest: std::vec::IntoIter<String>,
    /// The value given after `=` to the option read last, not yet taken.
    attached: Option<(String, String)>,
}

impl Args {
    /// The arguments `args` (without the program's name).
    pub fn new(args: impl IntoIterator<Item = String>) -> Self {
        Self {
            rest: args.into_iter().collect::<Vec<_>>().into_iter(),
            attached: None,
        }
    }

    /// The next argument (`None` after the last).
    ///
    /// Errors: the option read before took no value, and one was given after `=`.
    pub fn next_arg(&mut self) -> Result<Option<Arg>, ArgError> {
        if let Some((option, _)) = self.attached.take() {
            return Err(ArgError::Usage(format!("{option} takes no value")));
        }
        let Some(arg) = self.rest.next() else {
            return Ok(None);
        };
        Ok(Some(match arg.as_str() {
            "-h" | "--help" => Arg::Help,
            _ if arg.starts_with("--") => match arg.split_once('=') {
                Some((option, value)) => {
                    self.attached = Some((option.to_string(), value.to_string()));
                    Arg::Option(option.to_string())
                }
                None => Arg::Option(arg),
            },
            _ if arg.starts_with('-') && arg.len() > 1 => Arg::Option(arg),
            _ => Arg::Operand(arg),
        }))
    }

    /// The value of `option`, just read: after its `=`, or the next argument.
    ///
    /// Errors: there is none (the option came last, or another option follows it).
    pub fn value(&mut self, option: &str) -> Result<String, ArgError> {
        if let Some((_, value)) = self.attached.take() {
            return Ok(value);
        }
        let next = self.rest.as_slice().first();
        match next {
            Some(value) if !value.starts_with("--") && !value.is_empty() => {
                Ok(self.rest.next().unwrap_or_default())
            }
            _ => Err(ArgError::Usage(format!("{option} needs a value"))),
        }
    }

    /// The value of `option` as a file path.
    pub fn path(&mut self, option: &str) -> Result<PathBuf, ArgError> {
        self.value(option).map(PathBuf::from)
    }

    /// The value of `option` as a whole number in `range`.
    ///
    /// Errors: the value is missing ([`ArgError::Usage`]), not a whole number or out of
    /// the range ([`ArgError::Value`]).
    pub fn number<T>(
        &mut self,
        option: &str,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<T, ArgError>
    where
        T: FromStr + PartialOrd + Display,
    {
        let value = self.value(option)?;
        let n: T = value.parse().map_err(|_| {
            ArgError::Value(format!("{option} needs a whole number, not {value:?}"))
        })?;
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(ArgError::Value(format!(
                "{option} must be from {} to {}, not {value}",
                range.start(),
                range.end()
            )))
        }
    }

    /// The value of `option` as a time in seconds: from 0 to [`MAX_SECONDS`] (a
    /// negative, infinite or NaN time, or one past about 11 days, is refused).
    pub fn seconds(&mut self, option: &str) -> Result<f32, ArgError> {
        let value = self.value(option)?;
        match value.trim().parse::<f32>() {
            Ok(t) if (0.0..=MAX_SECONDS).contains(&t) => Ok(t),
            Ok(_) => Err(ArgError::Value(format!(
                "{option} needs seconds from 0 to {MAX_SECONDS}, not {value}"
            ))),
            Err(_) => Err(ArgError::Value(format!(
                "{option} needs a number of seconds, not {value:?}"
            ))),
        }
    }
}

/// Refuses any argument: for the examples that take none but `--help`.
///
/// ```
/// use scenewalk_examples::args::no_arguments;
/// assert!(no_arguments(Vec::new()).is_ok());
/// let err = no_arguments(vec!["--fast".into()]).unwrap_err();
/// assert_eq!((err.exit_code(), err.to_string()), (2, "unknown option --fast".into()));
/// ```
pub fn no_arguments(args: Vec<String>) -> Result<(), ArgError> {
    match Args::new(args).next_arg()? {
        None | Some(Arg::Help) => Ok(()),
        Some(Arg::Option(option)) => Err(ArgError::unknown(&option)),
        Some(Arg::Operand(operand)) => Err(ArgError::Usage(format!(
            "unexpected argument {operand:?}: this example takes no file"
        ))),
    }
}

/// An error about the file `path` in one line that names the file once: `err` as it
/// is when its text already names the file (the library's read errors do), else
/// `path: err`.
///
/// ```
/// use scenewalk_examples::args::about_file;
/// use std::path::Path;
/// let f = Path::new("a.gltf");
/// assert_eq!(about_file(f, "cannot read a.gltf: gone"), "cannot read a.gltf: gone");
/// assert_eq!(about_file(f, "not JSON"), "a.gltf: not JSON");
/// ```
pub fn about_file(path: &Path, err: impl Display) -> String {
    let (text, name) = (err.to_string(), path.display().to_string());
    if text.contains(&name) {
        text
    } else {
        format!("{name}: {text}")
    }
}

/// Whether `err`, or an error it came from, is a write to a closed pipe.
///
/// ```
/// use scenewalk_examples::args::is_closed_pipe;
/// let closed = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
/// assert!(is_closed_pipe(&closed));
/// assert!(!is_closed_pipe(&std::io::Error::from(std::io::ErrorKind::NotFound)));
/// ```
pub fn is_closed_pipe(err: &(dyn Error + 'static)) -> bool {
    let mut at = Some(err);
    while let Some(e) = at {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        at = e.source();
    }
    false
}

/// An example's `main`: reads the command line (the arguments after the program's
/// name) with `parse`, then runs `run` with what it read and stdout, following the
/// convention of this module. `usage` is what `--help` prints; `program` starts every
/// error line.
pub fn run_main<T>(
    program: &str,
    usage: &str,
    parse: impl FnOnce(Vec<String>) -> Result<T, ArgError>,
    run: impl FnOnce(T, &mut dyn Write) -> Result<(), Box<dyn Error>>,
) -> ExitCode {
    let given: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = if given.iter().any(|a| a == "-h" || a == "--help") {
        out.write_all(usage.as_bytes()).map_err(Box::from)
    } else {
        match parse(given) {
            Ok(options) => run(options, &mut out),
            Err(err) => {
                let hint = match err {
                    ArgError::Usage(_) => format!(" (see {program} --help)"),
                    ArgError::Value(_) => String::new(),
                };
                let _ = writeln!(std::io::stderr(), "{program}: {err}{hint}");
                return ExitCode::from(err.exit_code());
            }
        }
    };
    let result = result.and_then(|()| out.flush().map_err(Box::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `| head`: the reader has all it wanted.
        Err(err) if is_closed_pipe(err.as_ref()) => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(std::io::stderr(), "{program}: {err}");
            ExitCode::FAILURE
        }
    }
}
