//! Grid expansion: each entry's list-valued keys into settings (first key varying slowest),
//! every setting checked once, duplicates and incompatible algorithm-problem pairs refused.

use std::collections::{BTreeMap, HashMap};

use super::keys::{REPORT_TABLE, TIME_KEY};
use super::parse::{Entry, ParallelLines, Parser, strip_owner};
use super::schema::{ConfigError, MAX_RUNS, ProblemSetting, parallel_of};
use crate::plan::{Setting, SettingValue};
use crate::recipe::{PrepareError, checked_algorithm};
use crate::schedule::Parallel;
use bosweep_problems::Problem;

impl Entry {
    fn grid_size(&self) -> Option<usize> {
        self.params
            .iter()
            .try_fold(1usize, |n, (_, values)| n.checked_mul(values.len()))
    }

    /// The settings of the grid: keys in sorted order, the first key varying slowest. With a
    /// `label`, each is displayed as the label, followed where the grid has several settings
    /// by the parameters that vary (`UCB[ucb_multiplier=2]`).
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
        let varying: Vec<&str> = self
            .params
            .iter()
            .filter(|(_, values)| values.len() > 1)
            .map(|(key, _)| key.as_str())
            .collect();
        combos
            .into_iter()
            .map(|params| {
                let setting = Setting::new(self.name, params);
                let Some((label, _)) = &self.label else {
                    return shortened(setting);
                };
                let shown: Vec<String> = setting
                    .keys()
                    .iter()
                    .filter(|(key, _)| varying.contains(&key.as_str()))
                    .map(|(key, value)| format!("{key}={value}"))
                    .collect();
                let display = if shown.is_empty() {
                    label.clone()
                } else {
                    format!("{label}[{}]", shown.join(","))
                };
                setting.displayed_as(display)
            })
            .collect()
    }
}

/// A user's own objective shown without its setup keys ([`bosweep_problems::SETUP_KEYS`]):
/// `command[cmd=./obj.sh]`. Other settings as they are.
fn shortened(setting: Setting) -> Setting {
    let Some((_, setup)) = bosweep_problems::SETUP_KEYS
        .iter()
        .find(|(name, _)| *name == setting.name)
    else {
        return setting;
    };
    let keys = setting.keys();
    let kept: Vec<(String, SettingValue)> = keys
        .iter()
        .filter(|(key, _)| !setup.contains(&key.as_str()))
        .cloned()
        .collect();
    if kept.len() == keys.len() {
        return setting;
    }
    let short = Setting::new(setting.name.clone(), kept).label();
    setting.displayed_as(short)
}

/// A setting of an entry as `expand_all` checked it: a problem's comes with its instance.
pub(super) type CheckedSetting<'e> = (&'e Entry, Setting, Option<Box<dyn Problem>>);

/// An algorithm setting whose parameters `expand_all` checked, until its pairs are checked.
pub(super) type UncheckedAlgorithm<'e> = (&'e Entry, Setting);

impl Parser<'_> {
    /// Refuses an algorithm setting paired with a problem setting it cannot run on, or with run
    /// settings it cannot take, at the line at fault, before any run starts (the checks of
    /// every run, [`checked_algorithm`]), and returns each pair's peak-memory estimate of one
    /// run. Each problem is the instance `expand_all` built; each pair gets its own algorithm,
    /// since `prepare` installs what it takes from the problem (PE-GP-UCB's candidate priors).
    pub(super) fn check_pairs(
        &self,
        algorithms: &[UncheckedAlgorithm<'_>],
        problems: &[(ProblemSetting, Box<dyn Problem>)],
        defaults: &Parallel,
        default_lines: &ParallelLines,
    ) -> Result<BTreeMap<(String, String), u64>, ConfigError> {
        let mut memory = BTreeMap::new();
        for (problem_setting, problem) in problems {
            let setting = &problem_setting.setting;
            for (entry, algorithm_setting) in algorithms {
                let parallel = parallel_of(algorithm_setting, problem_setting, defaults);
                let algorithm = checked_algorithm(
                    problem.as_ref(),
                    &algorithm_setting.name,
                    &algorithm_setting.param_values(),
                    &parallel,
                )
                .map_err(|e| match e {
                    PrepareError::Parallel(e) => self.error(
                        default_lines.of(entry, e.key),
                        format!(
                            "algorithm \"{}\": {e} (problem setting {})",
                            entry.name,
                            setting.label()
                        ),
                    ),
                    e => self.error(
                        entry.header_line,
                        format!("{e} (problem setting {})", setting.label()),
                    ),
                })?;
                memory.insert(
                    (algorithm_setting.label(), setting.label()),
                    algorithm.memory_bytes(problem_setting.budget, problem.dim()),
                );
            }
        }
        Ok(memory)
    }

    /// Refuses `[report] time` (at `line`) where some run would be untimed: the report could
    /// only refuse it after every run.
    pub(super) fn check_timed(
        &self,
        line: usize,
        algorithms: &[UncheckedAlgorithm<'_>],
        problems: &[(ProblemSetting, Box<dyn Problem>)],
        defaults: &Parallel,
    ) -> Result<(), ConfigError> {
        for (problem, _) in problems {
            for (_, algorithm) in algorithms {
                if parallel_of(algorithm, problem, defaults)
                    .runtime_model()
                    .is_none()
                {
                    return Err(self.error(
                        line,
                        format!(
                            "[{REPORT_TABLE}] {TIME_KEY}: the runs of {} on {} are untimed (one point at a time without a runtime model); give `runtime`, `batch` or `workers`, or drop the key",
                            algorithm.label(),
                            problem.setting.label()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every entry's grid, each setting checked once (a problem returned built); a setting
    /// given twice (same label) is an error naming both lines, since its runs would have the
    /// same keys.
    pub(super) fn expand_all<'e>(
        &self,
        entries: &'e [Entry],
    ) -> Result<Vec<CheckedSetting<'e>>, ConfigError> {
        let mut out = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        // Display labels, each naming one setting, or two legends would read the same.
        let mut shown: HashMap<(&str, String), usize> = HashMap::new();
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
            for mut setting in entry.expand() {
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
                let built = entry.kind.check(&setting).map_err(|m| {
                    self.error(
                        entry.header_line,
                        format!(
                            "{word} \"{}\": setting {label}: {}",
                            entry.name,
                            strip_owner(m, entry.kind, entry.name)
                        ),
                    )
                })?;
                let mut display = setting.display_label();
                // Two of the user's objectives that differ in a setup key only keep their
                // full labels rather than share a short one.
                if entry.label.is_none() && shown.contains_key(&(word, display.clone())) {
                    setting.display = None;
                    display = setting.label();
                }
                let line = entry.label.as_ref().map_or(entry.header_line, |(_, l)| *l);
                if let Some(&earlier) = shown.get(&(word, display.clone())) {
                    return Err(self.error(
                        line,
                        format!(
                            "{word} \"{}\": label \"{display}\" already names the {word} \
                             setting of line {earlier}; reports would show both the same",
                            entry.name
                        ),
                    ));
                }
                shown.insert((word, display), line);
                seen.insert(label, entry.header_line);
                out.push((entry, setting, built));
            }
        }
        Ok(out)
    }
}
