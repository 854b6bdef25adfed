//! config.md: every key of a sweep config, from the list the config parser accepts keys from.

use std::fmt::Write;

use super::markdown::{cell, table, title};
use bosweep::sweep::{CONFIG_KEYS, ConfigTable};

pub fn page() -> String {
    let mut text = title(
        "Sweep config keys",
        "`bosweep_sweep::CONFIG_KEYS`, the list of keys the sweep config parser accepts",
    );
    text.push_str(
        "\nA sweep config is a TOML file run by `bosweep sweep CONFIG`. Any key of the top \
         level or of `[report]` not listed here is an error, which lists the allowed keys.\n",
    );
    for config_table in ConfigTable::ALL {
        let _ = write!(text, "\n## {}\n\n", heading(config_table));
        text.push_str(&table(
            &["key", "accepted", "default", "meaning"],
            CONFIG_KEYS
                .iter()
                .filter(|k| k.table == config_table)
                .map(|k| {
                    vec![
                        format!("`{}`", cell(k.key)),
                        cell(k.accepted),
                        cell(k.default),
                        cell(k.meaning),
                    ]
                }),
        ));
        if let Some((tables, kind, page)) = parameters_of(config_table) {
            let _ = write!(
                text,
                "\nEvery other key of {tables} is a parameter of the named {kind}: see the \
                 [{kind}s reference]({page}). A list of values (numbers, strings or booleans) \
                 expands into a grid: one setting per combination of the listed values.\n"
            );
        }
    }
    text
}

/// The section title of `table`: its header as a config writes it.
fn heading(table: ConfigTable) -> String {
    match table {
        ConfigTable::TopLevel => "Top level".to_owned(),
        other => format!("`{}`", other.header()),
    }
}

/// For the tables that also take the named entry's parameters: the table in words, the kind
/// of entry and the page that lists their parameters.
fn parameters_of(table: ConfigTable) -> Option<(&'static str, &'static str, &'static str)> {
    match table {
        ConfigTable::Algorithm => Some(("an `[[algorithm]]` table", "algorithm", "algorithms.md")),
        ConfigTable::Problem => Some(("a `[[problem]]` table", "problem", "problems.md")),
        ConfigTable::TopLevel | ConfigTable::Report => None,
    }
}
