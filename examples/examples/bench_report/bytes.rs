//! Bytes per node, counted by `allocation-counter`'s global allocator.

use scenewalk_examples::report::Contender;

/// Builds a value and returns it with the bytes it still holds once built (freed
/// temporaries are not counted; spare `Vec` capacity is).
pub fn held<T>(build: impl FnOnce() -> T) -> (T, f64) {
    let mut out = None;
    let info = allocation_counter::measure(|| out = Some(build()));
    match out {
        Some(value) => (value, info.bytes_current.max(0) as f64),
        None => unreachable!("measure runs the closure"),
    }
}

/// Runs the contender once, and sets its bytes per node: `data_bytes` (what its data
/// holds) plus the most that one run allocates at a time, over its elements. Returns
/// the run's checksum.
pub fn with_run_bytes(contender: &mut Contender<'_>, data_bytes: f64) -> u64 {
    let mut sum = 0;
    let info = allocation_counter::measure(|| sum = (contender.run)());
    let per_node = (data_bytes + info.bytes_max as f64) / contender.elements.max(1) as f64;
    contender.bytes_per_node = Some(per_node);
    sum
}

/// Checks that every contender returns the same checksum, printing them if not.
pub fn same_checksums(case: &str, contenders: &mut [(Contender<'_>, f64)]) -> Vec<u64> {
    let sums: Vec<u64> = contenders
        .iter_mut()
        .map(|(c, bytes)| with_run_bytes(c, *bytes))
        .collect();
    if sums.windows(2).any(|w| w[0] != w[1]) {
        for ((c, _), s) in contenders.iter().zip(&sums) {
            eprintln!("{case}: {} checksum {s}", c.name);
        }
        panic!("{case}: contenders disagree; the comparison would mean nothing");
    }
    sums
}
