//! Putting archive sets beside a sweep in its report: each set's runs of the sweep's problems
//! join the sweep's as algorithms of their own, named with the set's name, so that the report's
//! tables, paired tests, ranks, scores, ERT and runtime distributions hold them.

use super::{ArchiveError, ArchiveMeta, ArchivedSet};
use crate::report::first_appearances;
use crate::report::load::{CompletedRun, Sweep};
use crate::{RunSpec, Setting, SettingValue};

/// The parameter that tells an archived algorithm from the sweep's own of the same setting.
const ARCHIVE_PARAM: &str = "archive";

/// One set as a report used it.
pub(crate) struct ArchiveUse {
    pub meta: ArchiveMeta,
    pub origin: String,
    /// The sweep's problems it ran, by label.
    pub problems: Vec<String>,
    /// Its runs of those.
    pub runs: usize,
    /// Of those, the runs whose initial design and budget are those of the sweep's runs of the
    /// same problem and replicate ([`RunSpec::design_differs`]: the paired tests pair them).
    pub shared_designs: usize,
    /// Its runs of the sweep's problems left out because their budget is not the sweep's.
    pub other_budget: usize,
}

/// `sweep` with the runs of `sets` on its problems beside its own (no steps: the long tables
/// hold the sweep's runs only), and what each set gave. A set's runs of a problem whose budget
/// is not the sweep's are left out (and counted): their values are not the sweep's measure,
/// whatever their design.
pub(crate) fn beside(
    sweep: &Sweep,
    sets: &[ArchivedSet],
) -> Result<(Sweep, Vec<ArchiveUse>), ArchiveError> {
    let problems = first_appearances(sweep.runs.iter().map(|r| r.problem.label()));
    let mut runs = sweep.runs.clone();
    let mut completed = sweep.completed.clone();
    let mut uses = Vec::new();
    for set in sets {
        let name = &set.meta.name;
        let on_problems: Vec<&CompletedRun> = set
            .runs
            .iter()
            .filter(|r| problems.contains(&r.spec.problem.label()))
            .collect();
        if on_problems.is_empty() {
            return Err(ArchiveError::NoCommonProblem {
                set: name.clone(),
                sweep: problems,
                archived: set.problems(),
            });
        }
        let budget_of = |problem: &str| {
            sweep
                .runs
                .iter()
                .find(|own| own.problem.label() == problem)
                .map(|own| own.budget)
        };
        let (of_sweep, other_budget): (Vec<&CompletedRun>, Vec<&CompletedRun>) = on_problems
            .into_iter()
            .partition(|r| budget_of(&r.spec.problem.label()) == Some(r.spec.budget));
        if of_sweep.is_empty() {
            let example = &other_budget[0].spec;
            return Err(ArchiveError::OtherBudget {
                set: name.clone(),
                problem: example.problem.label(),
                archived: example.budget,
                sweep: budget_of(&example.problem.label()).unwrap_or(0),
            });
        }
        let shared_designs = of_sweep
            .iter()
            .filter(|r| sweep.runs.iter().any(|own| shares_design(own, &r.spec)))
            .count();
        for run in &of_sweep {
            let spec = RunSpec {
                algorithm: archived_setting(&run.spec.algorithm, name),
                index: runs.len(),
                ..run.spec.clone()
            };
            runs.push(spec.clone());
            completed.push(CompletedRun {
                spec,
                trace: run.trace.clone(),
            });
        }
        uses.push(ArchiveUse {
            meta: set.meta.clone(),
            origin: set.origin.clone(),
            problems: first_appearances(of_sweep.iter().map(|r| r.spec.problem.label())),
            runs: of_sweep.len(),
            shared_designs,
            other_budget: other_budget.len(),
        });
    }
    let merged = Sweep {
        config: sweep.config.clone(),
        runs,
        completed,
        missing: sweep.missing.clone(),
        steps: Vec::new(),
    };
    Ok((merged, uses))
}

/// Whether `own` (a run of the sweep) and `archived` are a pair: runs of one problem and
/// replicate from the same initial design and budget.
fn shares_design(own: &RunSpec, archived: &RunSpec) -> bool {
    own.problem.label() == archived.problem.label()
        && own.replicate == archived.replicate
        && own.design_differs(archived).is_none()
}

/// `setting` as the set `name` contributes it: a setting of its own (an `archive` parameter)
/// shown as `<label> [<name>]`.
fn archived_setting(setting: &Setting, name: &str) -> Setting {
    let mut params = setting.keys();
    params.push((ARCHIVE_PARAM.into(), SettingValue::Text(name.to_owned())));
    Setting::new(setting.name.clone(), params)
        .displayed_as(format!("{} [{name}]", setting.display_label()))
}
