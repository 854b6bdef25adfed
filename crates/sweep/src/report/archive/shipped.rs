//! The sets bosweep ships, compiled in from the repository's `archive/` directory so that any
//! installed binary can report and compare against them.

/// One shipped set's three files.
pub(super) struct ShippedSet {
    pub name: &'static str,
    pub meta: &'static str,
    pub config: &'static str,
    pub runs: &'static str,
}

/// The set in `archive/<name>/`.
macro_rules! shipped {
    ($name:literal) => {
        ShippedSet {
            name: $name,
            meta: include_str!(concat!("../../../../../archive/", $name, "/archive.toml")),
            config: include_str!(concat!("../../../../../archive/", $name, "/config.toml")),
            runs: include_str!(concat!("../../../../../archive/", $name, "/runs.jsonl")),
        }
    };
}

pub(super) const SHIPPED: [ShippedSet; 6] = [
    shipped!("bbob-baselines"),
    shipped!("baselines-rahbo"),
    shipped!("baselines-sbo-kde"),
    shipped!("baselines-pe-gp-ucb"),
    shipped!("uhe-bo"),
    shipped!("boke-reduced"),
];
