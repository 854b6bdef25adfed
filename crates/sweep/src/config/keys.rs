//! Every key a sweep config accepts besides the algorithms' and problems' own parameters, as
//! data: the parser reads only the keys listed here and names them in its messages, and
//! `bosweep reference` writes the user's guide's table of config keys from the same list, so the
//! guide cannot drift from what the parser accepts.

use crate::plan::RUN_KEYS;

/// The optional `[report]` table: how the sweep's report compares the algorithms.
pub const REPORT_TABLE: &str = "report";
/// `[report] metric`: a [`crate::report::Metric`] name.
pub const METRIC_KEY: &str = "metric";
/// `[report] time`: a positive simulated time at which the report also compares the algorithms.
pub const TIME_KEY: &str = "time";
/// `[report] archive`: archive sets (directories or shipped names) to report beside the sweep.
pub const ARCHIVE_KEY: &str = "archive";
/// `runtime = "…"` at the top level or in a `[[problem]]` table: a [`crate::RuntimeModel`].
pub(super) const RUNTIME_KEY: &str = "runtime";

/// `batch` and `workers` of an `[[algorithm]]` table or the top level: the run's parallel
/// settings, declared where every run checks them.
pub(super) use crate::schedule::{BATCH, WORKERS};

/// The table of a config a key belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigTable {
    /// The top level of the file.
    TopLevel,
    /// An `[[algorithm]]` table.
    Algorithm,
    /// A `[[problem]]` table.
    Problem,
    /// The `[report]` table.
    Report,
}

impl ConfigTable {
    /// Every table, in the order the user's guide documents them.
    pub const ALL: [ConfigTable; 4] = [
        ConfigTable::TopLevel,
        ConfigTable::Algorithm,
        ConfigTable::Problem,
        ConfigTable::Report,
    ];

    /// The table as a config writes its header (`[[algorithm]]`), or `top level`.
    pub fn header(self) -> &'static str {
        match self {
            Self::TopLevel => "top level",
            Self::Algorithm => "[[algorithm]]",
            Self::Problem => "[[problem]]",
            Self::Report => "[report]",
        }
    }

    /// The documented keys of this table, in the order of [`CONFIG_KEYS`] (the order messages
    /// list them in).
    pub fn keys(self) -> impl Iterator<Item = &'static str> {
        CONFIG_KEYS
            .iter()
            .filter(move |k| k.table == self)
            .map(|k| k.key)
    }

    /// Whether `key` is a documented key of this table.
    pub fn has(self, key: &str) -> bool {
        self.keys().any(|k| k == key)
    }
}

/// One accepted key of a sweep config, in words for the user's guide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigKey {
    /// The table it belongs to.
    pub table: ConfigTable,
    /// The key as written in the file.
    pub key: &'static str,
    /// What values it takes.
    pub accepted: &'static str,
    /// What holds when the key is absent (`required` where it must be given).
    pub default: &'static str,
    /// What it does.
    pub meaning: &'static str,
}

/// `label` of an `[[algorithm]]` or `[[problem]]` table, which both take alike.
const fn label(table: ConfigTable) -> ConfigKey {
    ConfigKey {
        table,
        key: "label",
        accepted: "a non-empty string",
        default: "name[key=value,…] of the parameters given; a command's or callable's without \
                  its bounds, sense, timeout and parallel",
        meaning: "the name reports show; display only, so run keys, seeds and trace file names \
                  do not change",
    }
}

/// Every key of the top level, `[[algorithm]]`, `[[problem]]` and `[report]`, table by table in
/// the order error messages list them. An `[[algorithm]]` or `[[problem]]` table also takes the
/// named algorithm's or problem's parameters, which their registries declare.
pub const CONFIG_KEYS: &[ConfigKey] = &[
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "seed",
        accepted: "an integer ≥ 0",
        default: "0",
        meaning: "the sweep seed: each run's seed derives from it and the run's key, never from \
                  its position, so results do not depend on threads, order or shards",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "replicates",
        accepted: "an integer ≥ 1",
        default: "1",
        meaning: "runs per (algorithm setting, problem setting) pair, each with its own seed",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "budget",
        accepted: "an integer ≥ 1",
        default: "required",
        meaning: "evaluations per run, the initial design included",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "init",
        accepted: "an integer ≥ 0, at most the budget",
        default: "10",
        meaning: "points of each run's initial design (shared by every algorithm of one problem \
                  setting and replicate)",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "batch",
        accepted: "an integer in 1..=4096",
        default: "1",
        meaning: "points asked together and evaluated in parallel (synchronous batches), for \
                  every [[algorithm]] table that gives neither batch nor workers",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "workers",
        accepted: "an integer in 1..=4096",
        default: "1",
        meaning: "asynchronous workers on a simulated clock, for every [[algorithm]] table that \
                  gives neither batch nor workers",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: RUNTIME_KEY,
        accepted: "a runtime model: constant[:time=T], linear:coordinate=I[,base=B][,slope=S], \
                   lognormal[:median=M][,sigma=S] or wall",
        default: "none: untimed one point at a time, constant:time=1 with batch or workers",
        meaning: "how long each evaluation takes on the run's simulated clock, for every \
                  [[problem]] table without its own",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "algorithm",
        accepted: "[[algorithm]] tables",
        default: "required (at least one)",
        meaning: "the algorithms to compare, each table a grid of settings",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: "problem",
        accepted: "[[problem]] tables",
        default: "required (at least one)",
        meaning: "the problems to run them on, each table a grid of settings",
    },
    ConfigKey {
        table: ConfigTable::TopLevel,
        key: REPORT_TABLE,
        accepted: "a [report] table",
        default: "none",
        meaning: "how the sweep's report compares the algorithms",
    },
    ConfigKey {
        table: ConfigTable::Algorithm,
        key: "name",
        accepted: "an algorithm's name",
        default: "required",
        meaning: "the algorithm",
    },
    label(ConfigTable::Algorithm),
    ConfigKey {
        table: ConfigTable::Algorithm,
        key: "batch",
        accepted: "an integer in 1..=4096, or a list of them",
        default: "the top-level batch where the table gives neither batch nor workers, else 1",
        meaning: BATCH.spec().description,
    },
    ConfigKey {
        table: ConfigTable::Algorithm,
        key: "workers",
        accepted: "an integer in 1..=4096, or a list of them",
        default: "the top-level workers where the table gives neither batch nor workers, else 1",
        meaning: WORKERS.spec().description,
    },
    ConfigKey {
        table: ConfigTable::Problem,
        key: "name",
        accepted: "a problem's name",
        default: "required",
        meaning: "the problem",
    },
    label(ConfigTable::Problem),
    ConfigKey {
        table: ConfigTable::Problem,
        key: "budget",
        accepted: "an integer ≥ 1",
        default: "the top-level budget",
        meaning: "evaluations per run on this problem",
    },
    ConfigKey {
        table: ConfigTable::Problem,
        key: "init",
        accepted: "an integer ≥ 0, at most the budget",
        default: "the top-level init",
        meaning: "points of each run's initial design on this problem",
    },
    ConfigKey {
        table: ConfigTable::Problem,
        key: RUNTIME_KEY,
        accepted: "a runtime model, as the top-level runtime",
        default: "the top-level runtime",
        meaning: "how long each evaluation of this problem takes on the simulated clock",
    },
    ConfigKey {
        table: ConfigTable::Report,
        key: METRIC_KEY,
        accepted: "best-evaluated-regret, recommendation-regret, cumulative-regret or best-value \
                   (simple-regret: recommendation-regret)",
        default: "per problem: best-evaluated-regret where its runs observe their objective \
                  of interest itself (noise-free, no context, no time), else \
                  recommendation-regret",
        meaning: "the final metric that picks each problem's best algorithm, the paired tests \
                  and the ranks",
    },
    ConfigKey {
        table: ConfigTable::Report,
        key: TIME_KEY,
        accepted: "a positive finite number",
        default: "none",
        meaning: "also compare the algorithms at this simulated time, on each run's steps \
                  finished by then (timed runs only: runtime, batch or workers)",
    },
    ConfigKey {
        table: ConfigTable::Report,
        key: ARCHIVE_KEY,
        accepted: "a list of archive sets: shipped names or directories",
        default: "none",
        meaning: "finished studies to report beside the sweep",
    },
];

/// The documented keys of `table` (`[[algorithm]]` or `[[problem]]`) that the parser reads
/// itself: all but the [`RUN_KEYS`], which are declared with the algorithm's own parameters so
/// that they are checked, listed and swept like them.
pub(super) fn reserved(table: ConfigTable) -> Vec<&'static str> {
    table.keys().filter(|k| !RUN_KEYS.contains(k)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SweepConfig;
    use crate::config::{DEFAULT_INIT, Metric};
    use crate::runtime::SYNTAX;

    /// A config that uses `key`, built from the smallest valid one; keys the smallest config
    /// already gives (`budget`, `name`, …) need nothing added.
    fn config_using(key: &ConfigKey) -> String {
        let (mut top, mut algorithm, mut problem, mut report) = ("", "", "", "");
        match (key.table, key.key) {
            (ConfigTable::TopLevel, "budget" | "algorithm" | "problem")
            | (ConfigTable::Algorithm | ConfigTable::Problem, "name") => {}
            (ConfigTable::TopLevel, "seed") => top = "seed = 3",
            (ConfigTable::TopLevel, "replicates") => top = "replicates = 2",
            (ConfigTable::TopLevel, "init") => top = "init = 4",
            (ConfigTable::TopLevel, "batch") => top = "batch = 2",
            (ConfigTable::TopLevel, "workers") => top = "workers = 2",
            (ConfigTable::TopLevel, "runtime") => top = "runtime = \"lognormal:sigma=0.5\"",
            (ConfigTable::TopLevel, "report") => report = "[report]",
            (ConfigTable::Algorithm, "label") => algorithm = "label = \"search\"",
            (ConfigTable::Algorithm, "batch") => algorithm = "batch = [1, 2]",
            (ConfigTable::Algorithm, "workers") => algorithm = "workers = 3",
            (ConfigTable::Problem, "label") => problem = "label = \"bowl\"",
            (ConfigTable::Problem, "budget") => problem = "budget = 20",
            (ConfigTable::Problem, "init") => problem = "init = 3",
            (ConfigTable::Problem, "runtime") => problem = "runtime = \"constant:time=2\"",
            (ConfigTable::Report, "metric") => report = "[report]\nmetric = \"best-value\"",
            (ConfigTable::Report, "time") => {
                top = "workers = 2";
                report = "[report]\ntime = 5.0";
            }
            (ConfigTable::Report, "archive") => report = "[report]\narchive = [\"bbob-baselines\"]",
            (table, key) => panic!("give an example of {} key {key} here", table.header()),
        }
        format!(
            "{top}\nbudget = 12\n[[algorithm]]\nname = \"random\"\n{algorithm}\n\
             [[problem]]\nname = \"branin\"\n{problem}\n{report}\n"
        )
    }

    #[test]
    fn every_documented_key_is_accepted() {
        for key in CONFIG_KEYS {
            let text = config_using(key);
            if let Err(e) = SweepConfig::parse(&text, "keys.toml") {
                panic!("{} key {}: {e}\n{text}", key.table.header(), key.key);
            }
        }
    }

    #[test]
    fn keys_not_documented_are_refused() {
        let refused = |text: &str, needle: &str| {
            let e = SweepConfig::parse(text, "keys.toml").unwrap_err();
            assert!(e.message.contains(needle), "{e}");
        };
        let base =
            "budget = 12\n[[algorithm]]\nname = \"random\"\n[[problem]]\nname = \"branin\"\n";
        refused(&format!("bugdet = 3\n{base}"), "unknown key \"bugdet\"");
        refused(
            &format!("{base}[report]\nmetrc = 1\n"),
            "unknown key \"metrc\"",
        );
        refused(
            &base.replace("\"random\"", "\"random\"\nruntime = \"wall\""),
            "unknown parameter \"runtime\"",
        );
        refused(
            &base.replace("\"branin\"", "\"branin\"\nbatch = 2"),
            "unknown parameter \"batch\"",
        );
    }

    #[test]
    fn defaults_and_accepted_values_match_the_code() {
        let find = |table: ConfigTable, key: &str| {
            CONFIG_KEYS
                .iter()
                .find(|k| k.table == table && k.key == key)
                .unwrap_or_else(|| panic!("{} key {key} is documented", table.header()))
        };
        assert_eq!(
            find(ConfigTable::TopLevel, "init").default,
            DEFAULT_INIT.to_string()
        );
        assert!(
            find(ConfigTable::TopLevel, RUNTIME_KEY)
                .accepted
                .ends_with(SYNTAX)
        );
        let metric = find(ConfigTable::Report, METRIC_KEY);
        for default in [true, false] {
            assert!(
                metric
                    .default
                    .contains(Metric::default_for(default).as_str())
            );
        }
        let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
        let (last, others) = names.split_last().unwrap();
        assert!(
            metric
                .accepted
                .starts_with(&format!("{} or {last}", others.join(", ")))
        );
        for spec in [BATCH.spec(), WORKERS.spec()] {
            let accepted = format!("{}, or a list of them", spec.kind.accepted());
            assert_eq!(find(ConfigTable::Algorithm, spec.name).accepted, accepted);
            assert_eq!(
                find(ConfigTable::TopLevel, spec.name).accepted,
                spec.kind.accepted()
            );
        }
        assert_eq!(reserved(ConfigTable::Algorithm), ["name", "label"]);
        assert_eq!(
            ConfigTable::Algorithm
                .keys()
                .filter(|k| RUN_KEYS.contains(k))
                .count(),
            RUN_KEYS.len(),
            "every run key is documented"
        );
    }
}
