#![no_main]
//! See `bosweep_fuzz::objective_output` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep_fuzz::objective_output(data));
