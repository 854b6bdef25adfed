#![no_main]
//! See `bosweep_fuzz::sweep_config` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep_fuzz::sweep_config(data));
