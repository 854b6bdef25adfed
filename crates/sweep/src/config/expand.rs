//! Grid expansion: each entry's list-valued keys into settings (first key varying slowest),
//! every setting built once, duplicates and incompatible algorithm-problem pairs refused.

use std::collections::HashMap;

use super::parse::{Entry, Parser, strip_owner};
use super::schema::{ConfigError, MAX_RUNS, ProblemSetting};
use crate::plan::{Setting, SettingValue};
use bosweep_algorithms as algorithms;
use bosweep_problems as problems;

impl Entry {
    fn grid_size(&self) -> Option<usize> {
        self.params
            .iter()
            .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len()))
    }

    /// The settings of the grid: keys in sorted order, the first key varying slowest.
    fn expand(&self) -> Vec<Setting> {
        let mut combos: Vec<Vec<(String, SettingValue)>> = vec![Vec::new()];
        for (key, values) in &self.params {
            combos = combos
                .into_iter()
                .flat_map(|combo| {
                    values.iter().map(move |v| {
                        let mut next = combo.clone();
                        next.push((key.clone(), v.value.clone()));
                        next
                    })
                })
                .collect();
        }
        combos
            .into_iter()
            .map(|params| Setting::new(self.name, params))
            .collect()
    }
}

impl Parser<'_> {
    /// Refuses an algorithm setting paired with a problem setting it cannot run on
    /// ([`algorithms::check_pair`]), at the algorithm's line, before any run starts.
    pub(super) fn check_pairs(
        &self,
        algorithms: &[(&Entry, Setting)],
        problems: &[ProblemSetting],
    ) -> Result<(), ConfigError> {
        for problem_setting in problems {
            let setting = &problem_setting.setting;
            // Every setting built once already in `expand_all`; a failure here cannot happen.
            let Ok(problem) = problems::build(&setting.name, &setting.param_values()) else {
                continue;
            };
            for (entry, algorithm_setting) in algorithms {
                let Ok(mut algorithm) =
                    algorithms::build(&algorithm_setting.name, &algorithm_setting.param_values())
                else {
                    continue;
                };
                algorithms::check_pair(entry.name, algorithm.as_mut(), problem.as_ref()).map_err(
                    |e| {
                        self.error(
                            entry.header_line,
                            format!("{e} (problem setting {})", setting.label()),
                        )
                    },
                )?;
            }
        }
        Ok(())
    }

    /// Every entry's grid, each setting built once; a setting given twice (same label) is an
    /// error naming both lines, since its runs would have the same keys.
    pub(super) fn expand_all<'e>(
        &self,
        entries: &'e [Entry],
    ) -> Result<Vec<(&'e Entry, Setting)>, ConfigError> {
        let mut out = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        for entry in entries {
            let word = entry.kind.word();
            if entry.grid_size().is_none_or(|n| n > MAX_RUNS) {
                return Err(self.error(
                    entry.header_line,
                    format!(
                        "{word} \"{}\": the grid has more than {MAX_RUNS} settings",
                        entry.name
                    ),
                ));
            }
            for setting in entry.expand() {
                let label = setting.label();
                if let Some(&earlier) = seen.get(&label) {
                    return Err(self.error(
                        entry.header_line,
                        format!(
                            "{word} \"{}\": duplicate runs: setting {label} at line {} repeats the one at line {earlier} (runs are identified by their labels)",
                            entry.name, entry.header_line
                        ),
                    ));
                }
                entry.kind.build(&setting).map_err(|m| {
                    self.error(
                        entry.header_line,
                        format!(
                            "{word} \"{}\": setting {label}: {}",
                            entry.name,
                            strip_owner(m, entry.kind, entry.name)
                        ),
                    )
                })?;
                seen.insert(label, entry.header_line);
                out.push((entry, setting));
            }
        }
        Ok(out)
    }
}
