//! The command-line tests, in one binary: each runs the `bosweep` executable as a user would (exit
//! codes, messages, files written), and the sweep configuration, sweep directory and report
//! checks beside them.
//!
//! Run one file's tests with its module name as the filter, e.g. `cargo test --test cli sweep::`.

mod archive;
mod book;
mod command;
mod commands;
mod common;
mod compare;
mod constrained;
mod export_coco;
mod integrity;
mod memory;
mod multi_objective;
mod quick_report;
mod reference;
mod report;
mod run;
mod sweep;
mod sweep_config;
