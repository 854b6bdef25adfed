#![no_main]
//! See `bosweep::fuzz::sweep_config` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep::fuzz::sweep_config(data));
