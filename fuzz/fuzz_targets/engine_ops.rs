#![no_main]
//! See `bosweep_fuzz::engine_ops` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep_fuzz::engine_ops(data));
