#![no_main]
//! See `bosweep_fuzz::archive_reader` for the invariants checked.

libfuzzer_sys::fuzz_target!(|data: &[u8]| bosweep_fuzz::archive_reader(data));
