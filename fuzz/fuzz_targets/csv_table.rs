#![no_main]
//! See `bosweep_fuzz::csv_table` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep_fuzz::csv_table(data));
