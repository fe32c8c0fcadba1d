//! libFuzzer target: arbitrary bytes decoded as a sequence of graph edits.
#![no_main]

#[path = "../harness/edits.rs"]
mod edits;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    edits::run(data);
});
