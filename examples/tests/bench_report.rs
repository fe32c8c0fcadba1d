//! The parts of `bench_report` that are not measurements: its command line, the
//! untimed step before each run, and the speed-up summary of the parallel case.

use scenewalk_examples::report::{
    Command, Contender, MAX_THREADS, Options, Reps, Row, UsageError, round_robin, speed_ups,
};
use std::cell::Cell;

const CASES: &[&str] = &["a", "b", "i", "j"];

fn parse(args: &[&str]) -> Result<Command, UsageError> {
    Options::parse(args.iter().map(|a| a.to_string()), CASES, 16)
}

fn options(args: &[&str]) -> Options {
    match parse(args) {
        Ok(Command::Run(options)) => options,
        other => panic!("{args:?} gave {other:?}"),
    }
}

#[test]
fn help_runs_nothing_wherever_it_stands() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["--quick", "--help"],
        &["--only", "j", "-h", "--threads", "4"],
    ] {
        assert_eq!(parse(args), Ok(Command::Help), "{args:?}");
    }
}

#[test]
fn unknown_options_and_bad_values_are_refused() {
    assert_eq!(
        parse(&["--fast"]),
        Err(UsageError::Unknown("--fast".into()))
    );
    assert_eq!(parse(&["quick"]), Err(UsageError::Unknown("quick".into())));
    assert_eq!(parse(&["--only"]), Err(UsageError::MissingValue("--only")));
    assert_eq!(
        parse(&["--threads", ""]),
        Err(UsageError::MissingValue("--threads"))
    );
    assert_eq!(
        parse(&["--only", "a,z"]),
        Err(UsageError::UnknownCase {
            case: "z".into(),
            known: "a,b,i,j".into()
        })
    );
    let too_many = (MAX_THREADS + 1).to_string();
    for bad in ["0", "two", "1,,2", "-1", too_many.as_str()] {
        assert!(
            matches!(parse(&["--threads", bad]), Err(UsageError::BadThreads(_))),
            "{bad}"
        );
    }
    assert_eq!(parse(&["--quick", "--big"]), Err(UsageError::QuickAndBig));
}

#[test]
fn options_say_what_the_command_line_asked() {
    let all = options(&[]);
    assert_eq!(
        all,
        Options {
            quick: false,
            big: false,
            scale: false,
            only: None,
            threads: vec![1, 2],
            write: true,
        }
    );
    let some = options(&[
        "--quick",
        "--only",
        "i,j",
        "--threads",
        "16,1,4,4,2,8",
        "--no-write",
    ]);
    assert!(some.quick && !some.big && !some.write);
    assert_eq!(some.only, Some(vec!["i".to_string(), "j".to_string()]));
    assert_eq!(some.threads, [1, 2, 4, 8, 16], "sorted, repeats dropped");
    assert!(!options(&["--only", "a"]).write, "--only never rewrites");
    assert!(!options(&["--no-write"]).write);
    assert!(!options(&["--quick"]).write, "--quick prints only");
    assert!(options(&["--big"]).big);
    assert!(options(&["--scale"]).scale);
    let one_core = Options::parse(Vec::new(), CASES, 1);
    assert!(matches!(one_core, Ok(Command::Run(o)) if o.threads == [1]));
}

#[test]
fn the_step_before_each_run_runs_before_every_run_and_only_then() {
    let prepared = Cell::new(0u64);
    let (plain_runs, prepared_runs) = (Cell::new(0u64), Cell::new(0u64));
    let mut contenders = vec![
        Contender::new("plain", 1, || {
            plain_runs.set(plain_runs.get() + 1);
            0
        }),
        Contender::new("prepared", 1, || {
            // The state the step left: one step per run, the step first.
            assert_eq!(prepared.get(), prepared_runs.get() + 1);
            prepared_runs.set(prepared_runs.get() + 1);
            prepared.get()
        })
        .before_each(|| prepared.set(prepared.get() + 1)),
    ];
    let reps = Reps {
        warmup: 2,
        measured: 5,
    };
    let measured = round_robin(&mut contenders, reps);
    assert_eq!((plain_runs.get(), prepared_runs.get()), (7, 7));
    assert_eq!(prepared.get(), 7, "the plain contender has no step");
    assert_eq!(measured[1].checksum, 1, "the first run's checksum");
}

fn row(case: &str, contender: &str, ratio: f64) -> Row {
    Row {
        case: case.into(),
        contender: contender.into(),
        ns_per_node: 1.0,
        ratio,
        min_ratio: ratio,
        bytes_per_node: None,
    }
}

#[test]
fn the_speed_up_summary_inverts_the_ratios_of_the_parallel_cases() {
    let rows = [
        row("b. world", "raw_linear_loop", 1.0),
        row("b. world", "threads_2", 0.5),
        row("j. update", "sequential", 1.0),
        row("j. update", "threads_1", 1.25),
        row("j. update", "threads_4", 0.25),
        row("j. copy", "sequential", 1.0),
        row("j. copy", "threads_2", 0.5),
    ];
    let summary = speed_ups(&rows).expect("two cases have a sequential baseline");
    let lines: Vec<Vec<&str>> = summary
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    // A title, the header, then one line per case in row order; a count a case did
    // not measure is `-`.
    assert_eq!(lines[1][lines[1].len() - 3..], ["1", "2", "4"]);
    assert_eq!(lines[2], ["j.", "update", "0.80", "-", "4.00"]);
    assert_eq!(lines[3], ["j.", "copy", "-", "2.00", "-"]);
    assert_eq!(lines.len(), 4, "case b has no `sequential` contender");
    assert_eq!(speed_ups(&rows[..2]), None);
}

#[test]
fn small_ratios_keep_three_significant_digits() {
    let mut r = row("i. incremental", "incremental_leaf", 0.004_56);
    r.min_ratio = 0.000_012_34;
    r.ns_per_node = 0.012_3;
    let fields: Vec<String> = r.line().split_whitespace().map(str::to_string).collect();
    assert_eq!(fields[3..6], ["0.0123", "0.00456", "1.23e-5"]);
    let md = scenewalk_examples::report::table(&[r]);
    assert!(md.contains("| 0.0123 | 0.00456 | 1.23e-5 |"), "{md}");
    // From 0.1 up, two decimals as before.
    let big = row("a", "b", 12.345);
    assert!(big.line().contains(" 12.35 ") || big.line().contains(" 12.34 "));
}
