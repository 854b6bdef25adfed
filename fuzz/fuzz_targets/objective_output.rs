#![no_main]
//! See `bosweep::fuzz::objective_output` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep::fuzz::objective_output(data));
