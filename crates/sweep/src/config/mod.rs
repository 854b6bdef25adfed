//! Sweep configs: a TOML file naming the algorithms, problems, budget, initial design,
//! replicates and sweep seed of a benchmark sweep, checked against the registries and expanded
//! into its runs.
//!
//! # Schema
//!
//! ```toml
//! seed = 1          # sweep seed, an integer ≥ 0 (default 0)
//! replicates = 5    # runs per (algorithm setting, problem setting), ≥ 1 (default 1)
//! budget = 40       # evaluations per run, ≥ 1 (required)
//! init = 10         # initial-design points per run, ≤ budget (default 10, as `bosweep run`)
//!
//! [[algorithm]]                      # one table per algorithm entry, at least one
//! name = "gp-ucb"                    # a name of `bosweep list`
//! ucb_multiplier = [1.0, 2.0, 4.0]   # a list expands into a grid
//! fit = "mle"
//!
//! [[algorithm]]
//! name = "random"
//!
//! [[problem]]                        # one table per problem entry, at least one
//! name = "ackley"
//! dim = [2, 5]
//! noise_std = 0.1
//! budget = 60                        # optional per-problem override of `budget` and `init`
//!
//! [report]                           # optional
//! metric = "cumulative-regret"       # what the report compares (default "simple-regret")
//! time = 20.0                        # also compare at this simulated time (timed runs only)
//! ```
//!
//! - Keys: [`CONFIG_KEYS`] lists every key of the top level, `[[algorithm]]`, `[[problem]]` and
//!   `[report]` with what it accepts and its default; any other key of the top level or
//!   `[report]` is an error. `[report]` has the keys `metric`, a [`crate::report::Metric`]
//!   name: `simple-regret`, `cumulative-regret` or `best-value`, `time`, a positive finite
//!   simulated time at which the report also compares the algorithms (on each run's steps
//!   finished by then), and `archive`, archive sets to report beside the sweep.
//! - Every key of an `[[algorithm]]` or `[[problem]]` table that [`CONFIG_KEYS`] does not list
//!   is a parameter of the named algorithm or problem (`bosweep list` shows them), checked
//!   against its declaration: unknown keys and values outside the accepted range are errors
//!   that list what is allowed, and every expanded setting is built once.
//! - Values: integers and floats become numbers, strings stay strings, booleans become the
//!   words `"true"`/`"false"`. A list of such values (not empty, not nested) expands into a
//!   grid: the cartesian product over all list-valued keys of an entry. Tables, date-times,
//!   empty lists and lists of lists are errors; so is a string where a number is expected.
//!
//! # Expansion
//!
//! The runs, in the order that defines [`RunSpec::index`] (and so `--shard I/N`): for each
//! problem entry in config order, each setting of its grid; for each algorithm entry in config
//! order, each setting of its grid; each replicate `0..replicates`. A grid enumerates its keys
//! in sorted order, the first key varying slowest, each key's values in list order: `a = [1, 2]`,
//! `b = ["x", "y"]` gives `(1, x), (1, y), (2, x), (2, y)`. Each run's seed is
//! [`run_seed`]`(seed, &spec.key())`, so it depends on the sweep seed and the run's identity
//! only, never on its position. The initial design has its own seed,
//! [`run_seed`]`(seed, &design_key(problem, replicate))`, so every algorithm of one problem
//! setting and replicate starts from the same points (paired comparisons). Two runs with the same key (the same algorithm and problem
//! labels, e.g. an entry given twice or a value listed twice) are an error naming both lines.
//!
//! # Use
//!
//! ```
//! use bosweep_sweep::SweepConfig;
//!
//! let text = r#"
//! seed = 1
//! replicates = 2
//! budget = 20
//! init = 5
//!
//! [[algorithm]]
//! name = "gp-ucb"
//! ucb_multiplier = [1, 2]
//!
//! [[problem]]
//! name = "ackley"
//! dim = [2, 5]
//! "#;
//! let config = SweepConfig::parse(text, "example.toml")?;
//! let runs = config.runs();
//! assert_eq!(runs.len(), 2 * 2 * 2);
//! assert_eq!(runs[0].key(), "gp-ucb[ucb_multiplier=1]|ackley[dim=2]|0");
//! assert_eq!(runs[3].key(), "gp-ucb[ucb_multiplier=2]|ackley[dim=2]|1");
//!
//! let bad = SweepConfig::parse(&text.replace("dim = [2, 5]", "dim = [2, 0]"), "example.toml");
//! assert_eq!(
//!     bad.unwrap_err().to_string(),
//!     "example.toml line 13: problem \"ackley\": parameter dim = 0 is invalid \
//!      (must be an integer in 1..=10000)"
//! );
//! # Ok::<(), bosweep_sweep::ConfigError>(())
//! ```
//!
//! # Errors
//!
//! Every [`ConfigError`] names the file and the 1-based line of the offending key (the line of
//! the list element for a bad element of a list, the table header for a missing `name` or for a
//! setting that fails as a whole), and the key and value:
//! `quick.toml line 9: algorithm "gp-ucb": parameter ucb_multiplier = -1 is invalid (must be a
//! number in [0, 1000000])`. TOML syntax errors also give the column; a missing `budget` or
//! a config without `[[algorithm]]` or `[[problem]]` tables is reported at line 1. A config
//! that expands into more than [`MAX_RUNS`] runs is refused.

mod expand;
mod keys;
mod metric;
mod parse;
mod schema;

pub use keys::{
    ARCHIVE_KEY, CONFIG_KEYS, ConfigKey, ConfigTable, METRIC_KEY, REPORT_TABLE, TIME_KEY,
};
pub use metric::Metric;
pub use schema::{ConfigError, DEFAULT_INIT, MAX_RUNS, ProblemSetting, SweepConfig, config_hash};
