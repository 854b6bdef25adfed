//! Reading a sweep directory: the manifest, the config text and the trace of every completed run
//! (read once, by [`super::steps`], with errors that name the file and line), with the fields
//! the statistics and plots use drawn out of each trace.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use super::Metric;
use super::error::ReportError;
use super::final_front::{FinalFront, final_front};
pub(crate) use super::steps::parse_sense;
use super::steps::{RunSteps, read_run};
use crate::config::{ARCHIVE_KEY, METRIC_KEY, REPORT_TABLE, TIME_KEY};
use crate::{CONFIG_FILE, MANIFEST_FILE, Manifest, RUNS_DIR, RunSpec};
use bosweep_problems::Sense;

/// The fields of one trace step that a report uses.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Step {
    pub evals: usize,
    /// The recommendation's regret (the trace's `simple_regret`): the inference measure.
    pub simple_regret: Option<f64>,
    /// The regret of the best point evaluated so far, its noise-free objective of interest
    /// (the least `instant_regret` up to this step): COCO's measure, on which runtimes are
    /// counted. `None` until a step's regret is known.
    pub best_evaluated_regret: Option<f64>,
    pub cumulative_regret: Option<f64>,
    /// `None` only where the trace wrote `null` (a non-finite value).
    pub best_value: Option<f64>,
    /// On a constrained problem, the fraction of the steps so far whose point was feasible;
    /// `None` elsewhere.
    pub feasible_fraction: Option<f64>,
    /// `model_seconds + acq_seconds`.
    pub seconds: f64,
    /// When the evaluation finished on the run's simulated clock; `None` for untimed runs.
    pub finish: Option<f64>,
}

/// One completed run's trace.
#[derive(Clone, Debug)]
pub(crate) struct Trace {
    /// The header's `"sense"`, where it has a recognised one.
    pub sense: Option<Sense>,
    /// The header's `"device"`, where it has one.
    pub device: Option<String>,
    /// At least one step, `evals` non-decreasing.
    pub steps: Vec<Step>,
    /// `Some` for a run read from a reference archive, which keeps only some of its steps.
    pub compacted: Option<Compacted>,
    /// The number of objectives of a run on several (docs/conventions.md, "Several
    /// objectives"), whose regret is the hypervolume difference; `None` on one.
    pub objectives: Option<usize>,
    /// Such a run's final non-dominated set, for the plots in objective space; `None` on one
    /// objective, for an archived run (which keeps no points) and for a run cut at a time.
    pub final_front: Option<Arc<FinalFront>>,
    /// Whether the run observed its objective of interest itself at every step: no noise (`y`
    /// is `f`), no context, no time. Such a problem is a noiseless static black box, COCO's
    /// setting, whose default measure is the best evaluated point's regret.
    pub noise_free: bool,
    /// Whether the problem has black-box constraints (the header names them:
    /// docs/conventions.md, "Constraints"), so that a missing final value means that the run
    /// found no feasible point, the worst result, not an unknown one.
    pub constrained: bool,
    /// On a constrained problem, the evaluations spent when the first feasible point was
    /// evaluated; `None` while none has been (and on an unconstrained problem).
    pub first_feasible: Option<usize>,
}

/// What an archived run keeps of the steps it left out: their number and the seconds they
/// took. Its kept steps hold the values at each quarter of the budget, at the first step to
/// reach each precision target and at the end (`archive`), so that final values, values at
/// those budgets, ERT and runtime distributions are exact; curves between them are not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Compacted {
    /// The steps the run took.
    pub steps: usize,
    /// `model_seconds + acq_seconds` over all of them.
    pub seconds: f64,
}

/// Hand-made steps and traces for the report's unit tests.
#[cfg(test)]
impl Step {
    /// A step at `evals` evaluations whose simple regret (and best evaluated regret) is
    /// `regret`, nothing else known.
    pub fn with_regret(evals: usize, regret: f64) -> Self {
        Self {
            evals,
            simple_regret: Some(regret),
            best_evaluated_regret: Some(regret),
            cumulative_regret: None,
            best_value: None,
            feasible_fraction: None,
            seconds: 0.0,
            finish: None,
        }
    }
}

#[cfg(test)]
impl Trace {
    /// A trace of `steps` without a sense or device.
    pub fn of_steps(steps: impl IntoIterator<Item = Step>) -> Self {
        Self {
            sense: None,
            device: None,
            steps: steps.into_iter().collect(),
            compacted: None,
            objectives: None,
            final_front: None,
            noise_free: true,
            constrained: false,
            first_feasible: None,
        }
    }

    /// A trace whose k-th step (k from 1) is at k evaluations with simple regret `regrets[k-1]`.
    pub fn of_regrets(regrets: &[f64]) -> Self {
        Self::of_steps(
            regrets
                .iter()
                .enumerate()
                .map(|(i, &r)| Step::with_regret(i + 1, r)),
        )
    }
}

impl Trace {
    pub fn last(&self) -> &Step {
        self.steps.last().expect("a trace has at least one step")
    }

    /// Whether the run is of a constrained problem and evaluated no feasible point: the worst
    /// result, which the summary counts, pairs and ERT hold against it.
    pub fn never_feasible(&self) -> bool {
        self.constrained && self.first_feasible.is_none()
    }

    /// Whether every step has a `finish` on the simulated clock (runs with a runtime model,
    /// workers or batches), so that the run can be read against simulated time.
    pub fn is_timed(&self) -> bool {
        self.steps.iter().all(|s| s.finish.is_some())
    }

    /// The run as it stood at simulated time `time`: its steps finished at or before it
    /// (steps are written in the order they finish). `None` where no step had finished by then,
    /// or the trace is untimed.
    pub fn truncated(&self, time: f64) -> Option<Trace> {
        let steps: Vec<Step> = self
            .steps
            .iter()
            .filter(|s| s.finish.is_some_and(|f| f <= time))
            .cloned()
            .collect();
        let last = steps.last()?.evals;
        Some(Trace {
            sense: self.sense,
            device: self.device.clone(),
            steps,
            compacted: self.compacted,
            objectives: self.objectives,
            final_front: None,
            noise_free: self.noise_free,
            constrained: self.constrained,
            // Steps are written as they finish, so the kept ones are the trace's beginning.
            first_feasible: self.first_feasible.filter(|&e| e <= last),
        })
    }
}

#[derive(Clone)]
pub(crate) struct CompletedRun {
    pub spec: RunSpec,
    pub trace: Trace,
}

/// Everything a report is made from.
pub(crate) struct Sweep {
    /// The text of `config.toml`, where the directory has one.
    pub config: Option<String>,
    /// Every run of the manifest, in manifest order.
    pub runs: Vec<RunSpec>,
    /// The runs with a trace under `runs/`, in manifest order.
    pub completed: Vec<CompletedRun>,
    /// The runs without one (not run yet, still running, or failed), in manifest order.
    pub missing: Vec<RunSpec>,
    /// Every step of each completed run, in the order of `completed`.
    pub steps: Vec<RunSteps>,
}

/// The `[report] metric` of the sweep's config text (`None` without one, or without a config).
/// The config was checked when the sweep ran; this reads the one key again, so that a hand-edited
/// file still gets an error that names it.
pub(crate) fn configured_metric(
    dir: &Path,
    config: Option<&str>,
) -> Result<Option<Metric>, ReportError> {
    let Some(metric) = report_key(dir, config, METRIC_KEY)? else {
        return Ok(None);
    };
    let error = config_error(dir);
    let name = metric.as_str().ok_or_else(|| {
        error(format!(
            "[{REPORT_TABLE}] {METRIC_KEY}: expected a string, found {metric}"
        ))
    })?;
    name.parse()
        .map(Some)
        .map_err(|e| error(format!("[{REPORT_TABLE}] {METRIC_KEY}: {e}")))
}

/// The `[report] time` of the sweep's config text, read again as [`configured_metric`] reads
/// the metric: a positive finite simulated time, or `None` without one.
pub(crate) fn configured_time(
    dir: &Path,
    config: Option<&str>,
) -> Result<Option<f64>, ReportError> {
    let Some(time) = report_key(dir, config, TIME_KEY)? else {
        return Ok(None);
    };
    let value = match time {
        toml::Value::Integer(i) => Some(i as f64),
        toml::Value::Float(x) => Some(x),
        _ => None,
    };
    match value {
        Some(t) if t > 0.0 && t.is_finite() => Ok(Some(t)),
        _ => Err(config_error(dir)(format!(
            "[{REPORT_TABLE}] {TIME_KEY}: expected a positive finite simulated time, found {time}"
        ))),
    }
}

/// The `[report] archive` sets of the sweep's config text, read again as [`configured_metric`]
/// reads the metric (empty without the key).
pub(crate) fn configured_archives(
    dir: &Path,
    config: Option<&str>,
) -> Result<Vec<String>, ReportError> {
    let Some(value) = report_key(dir, config, ARCHIVE_KEY)? else {
        return Ok(Vec::new());
    };
    let names = value.as_array().and_then(|items| {
        items
            .iter()
            .map(|i| i.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
    });
    names.ok_or_else(|| {
        config_error(dir)(format!(
            "[{REPORT_TABLE}] {ARCHIVE_KEY}: expected a list of archive sets, found {value}"
        ))
    })
}

/// A [`ReportError::Config`] about the sweep directory's `config.toml`.
fn config_error(dir: &Path) -> impl Fn(String) -> ReportError {
    let path = dir.join(CONFIG_FILE);
    move |message| ReportError::Config {
        path: path.clone(),
        message,
    }
}

/// The value of `[report] <key>` in the config text, where there is one.
fn report_key(
    dir: &Path,
    config: Option<&str>,
    key: &str,
) -> Result<Option<toml::Value>, ReportError> {
    let Some(text) = config else {
        return Ok(None);
    };
    let mut table: toml::Table =
        toml::from_str(text).map_err(|e| config_error(dir)(e.message().to_owned()))?;
    Ok(table
        .remove(REPORT_TABLE)
        .and_then(|mut r| r.as_table_mut()?.remove(key)))
}

/// Reads `dir`. Fails on a missing or malformed manifest, on any unreadable or malformed trace,
/// and when no run has completed.
pub(crate) fn load_sweep(dir: &Path) -> Result<Sweep, ReportError> {
    let manifest = Manifest::read(dir).map_err(|source| ReportError::Manifest {
        path: dir.join(MANIFEST_FILE),
        source,
    })?;
    let config = std::fs::read_to_string(dir.join(CONFIG_FILE)).ok();
    let mut completed = Vec::new();
    let mut missing = Vec::new();
    let mut steps = Vec::new();
    for spec in &manifest.runs {
        let path = Manifest::trace_path(dir, spec);
        if path.is_file() {
            let run = read_run(spec, &path)?;
            let mut trace = Trace::of(&run);
            trace.final_front = final_front(&run)
                .map_err(|message| ReportError::Front {
                    path: path.clone(),
                    message,
                })?
                .map(Arc::new);
            completed.push(CompletedRun {
                spec: spec.clone(),
                trace,
            });
            steps.push(run);
        } else {
            missing.push(spec.clone());
        }
    }
    if completed.is_empty() {
        return Err(ReportError::NoCompletedRuns {
            dir: dir.to_path_buf(),
            runs_dir: dir.join(RUNS_DIR),
            total: manifest.runs.len(),
        });
    }
    Ok(Sweep {
        config,
        runs: manifest.runs,
        completed,
        missing,
        steps,
    })
}

impl Trace {
    /// The fields of a completed run's trace that the report's statistics and plots use.
    fn of(run: &RunSteps) -> Self {
        let trace = if run.header.contains_key("objectives") {
            Self::of_several(run)
        } else {
            Self::of_one(run)
        };
        let constrained = run.header.contains_key("constraints");
        let mut steps = trace.steps;
        if constrained {
            let mut feasible = 0;
            for (i, (step, record)) in steps.iter_mut().zip(&run.steps).enumerate() {
                feasible += usize::from(record.feasible == Some(true));
                step.feasible_fraction = Some(feasible as f64 / (i + 1) as f64);
            }
        }
        Trace {
            steps,
            constrained,
            first_feasible: run
                .steps
                .iter()
                .find(|s| s.feasible == Some(true))
                .map(|s| s.evals)
                .filter(|_| constrained),
            ..trace
        }
    }

    /// A run on one objective.
    fn of_one(run: &RunSteps) -> Self {
        let text = |key: &str| run.header.get(key).and_then(Value::as_str);
        let mut best_evaluated: Option<f64> = None;
        Trace {
            sense: text("sense").and_then(parse_sense),
            device: text("device").map(str::to_owned),
            steps: run
                .steps
                .iter()
                .map(|s| {
                    if let Some(regret) = s.instant_regret {
                        best_evaluated = Some(best_evaluated.map_or(regret, |b| b.min(regret)));
                    }
                    Step {
                        evals: s.evals,
                        simple_regret: s.simple_regret,
                        best_evaluated_regret: best_evaluated,
                        cumulative_regret: s.cumulative_regret,
                        best_value: s.best_value,
                        feasible_fraction: None,
                        seconds: s.model_seconds + s.acq_seconds,
                        finish: s.finish,
                    }
                })
                .collect(),
            compacted: None,
            objectives: None,
            final_front: None,
            noise_free: run
                .steps
                .iter()
                .all(|s| s.y.is_some() && s.y == s.f && s.context.is_none() && s.t.is_none()),
            constrained: false,
            first_feasible: None,
        }
    }

    /// A run on several objectives (docs/conventions.md, "Several objectives"), read as one
    /// whose value is the hypervolume (maximised) and whose regret is the hypervolume
    /// difference `HV_max − HV`, floored as the trace's `log_hv_difference` is: the
    /// recommendation is the non-dominated set of the evaluated points, so its regret and the
    /// best evaluated one are the same. Plotted on a log scale, the regret is the log
    /// hypervolume difference; runtimes are counted to targets on it.
    fn of_several(run: &RunSteps) -> Self {
        let text = |key: &str| run.header.get(key).and_then(Value::as_str);
        Trace {
            sense: Some(Sense::Maximize),
            device: text("device").map(str::to_owned),
            steps: run
                .steps
                .iter()
                .map(|s| {
                    let difference = s.log_hv_difference.map(|l| 10f64.powf(l));
                    Step {
                        evals: s.evals,
                        simple_regret: difference,
                        best_evaluated_regret: difference,
                        cumulative_regret: None,
                        best_value: s.hypervolume,
                        feasible_fraction: None,
                        seconds: s.model_seconds + s.acq_seconds,
                        finish: s.finish,
                    }
                })
                .collect(),
            compacted: None,
            objectives: run
                .header
                .get("objectives")
                .and_then(Value::as_u64)
                .map(|m| m as usize),
            final_front: None,
            noise_free: run
                .steps
                .iter()
                .all(|s| s.context.is_none() && s.t.is_none()),
            constrained: false,
            first_feasible: None,
        }
    }
}

/// The metric of a problem without a chosen one, from its completed `runs`
/// ([`Metric::default_for`]): COCO's best evaluated regret where every run observed its
/// objective of interest itself ([`Trace::noise_free`]), else the recommendation's regret.
pub(crate) fn default_metric<'a>(runs: impl IntoIterator<Item = &'a CompletedRun>) -> Metric {
    let mut runs = runs.into_iter().peekable();
    let noise_free = runs.peek().is_some() && runs.all(|c| c.trace.noise_free);
    Metric::default_for(noise_free)
}

/// The path of `spec`'s trace, relative to the sweep directory (for messages and reports).
pub(crate) fn relative_trace_path(spec: &RunSpec) -> PathBuf {
    Path::new(RUNS_DIR).join(spec.trace_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trace of (evals, simple regret, finish) steps.
    fn trace(steps: &[(usize, f64, Option<f64>)]) -> Trace {
        Trace {
            sense: Some(Sense::Minimize),
            ..Trace::of_steps(steps.iter().map(|&(evals, regret, finish)| Step {
                best_value: Some(regret),
                finish,
                ..Step::with_regret(evals, regret)
            }))
        }
    }

    #[test]
    fn a_trace_cut_at_a_simulated_time_keeps_the_steps_finished_by_then() {
        // Two steps finish together at 2 (a batch), one at 3.5, one at 6.
        let t = trace(&[
            (1, 4.0, Some(1.0)),
            (2, 3.0, Some(2.0)),
            (3, 2.0, Some(2.0)),
            (4, 1.0, Some(3.5)),
            (5, 0.5, Some(6.0)),
        ]);
        assert!(t.is_timed());
        let kept = |time: f64| -> Vec<usize> {
            t.truncated(time)
                .map_or_else(Vec::new, |c| c.steps.iter().map(|s| s.evals).collect())
        };
        // At or before: a step finished exactly at the time counts.
        assert_eq!(kept(2.0), [1, 2, 3]);
        assert_eq!(kept(3.4), [1, 2, 3]);
        assert_eq!(kept(3.5), [1, 2, 3, 4]);
        assert_eq!(kept(100.0), [1, 2, 3, 4, 5]);
        let cut = t.truncated(3.5).unwrap();
        assert_eq!(cut.last().simple_regret, Some(1.0));
        assert_eq!(cut.sense, Some(Sense::Minimize));
        // Before the first finish the run has no step: it is left out.
        assert!(t.truncated(0.5).is_none());

        // A step without a finish makes the trace untimed.
        let untimed = trace(&[(1, 4.0, Some(1.0)), (2, 3.0, None)]);
        assert!(!untimed.is_timed());
    }
}
