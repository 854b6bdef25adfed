//! One archived run as a line of `runs.jsonl`: the run as the manifest lists it, what its
//! trace's header says (sense, device), its steps' number and seconds, and the steps it keeps
//! (`keep`), as columns.

use serde::{Deserialize, Serialize};

use crate::RunSpec;
use crate::report::load::{Compacted, CompletedRun, Step, Trace, parse_sense};

/// A line of `runs.jsonl`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RunRecord {
    /// The run, as the sweep's manifest lists it.
    pub run: RunSpec,
    /// The trace header's sense (`minimize`, `maximize`), where it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sense: Option<String>,
    /// The trace header's device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
    /// The number of objectives of a run on several ([`Trace::objectives`]); absent for one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<usize>,
    /// Whether the run observed its objective of interest itself at every step
    /// ([`Trace::noise_free`]); sets made before it was recorded read as `false`.
    #[serde(default)]
    pub noise_free: bool,
    /// Whether the problem has black-box constraints ([`Trace::constrained`]); absent
    /// (`false`) for an unconstrained one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub constrained: bool,
    /// The evaluations at the first feasible point ([`Trace::first_feasible`]), on a
    /// constrained problem where one was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_feasible: Option<usize>,
    /// The steps the run took.
    pub steps: usize,
    /// `model_seconds + acq_seconds` over every step.
    pub seconds: f64,
    /// The kept steps.
    pub kept: KeptSteps,
}

/// The kept steps as columns, one entry per step (`null` where the trace has none).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KeptSteps {
    pub evals: Vec<usize>,
    pub simple_regret: Vec<Option<f64>>,
    /// The best evaluated point's regret; empty in sets made before it was kept (it is then
    /// unknown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_evaluated_regret: Vec<Option<f64>>,
    pub cumulative_regret: Vec<Option<f64>>,
    pub best_value: Vec<Option<f64>>,
    /// Simulated finish times, for timed runs only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish: Option<Vec<f64>>,
}

impl RunRecord {
    /// The record of `run`, keeping the steps at `kept` (indices into its trace, ascending).
    pub fn of(run: &CompletedRun, kept: &[usize]) -> Self {
        let trace = &run.trace;
        let steps: Vec<&Step> = kept.iter().map(|&i| &trace.steps[i]).collect();
        let column = |f: fn(&Step) -> Option<f64>| steps.iter().map(|s| f(s)).collect();
        Self {
            run: run.spec.clone(),
            sense: trace.sense.map(|s| s.as_str().to_owned()),
            device: trace.device.clone(),
            objectives: trace.objectives,
            noise_free: trace.noise_free,
            constrained: trace.constrained,
            first_feasible: trace.first_feasible,
            steps: trace.steps.len(),
            seconds: trace.steps.iter().map(|s| s.seconds).sum(),
            kept: KeptSteps {
                evals: steps.iter().map(|s| s.evals).collect(),
                simple_regret: column(|s| s.simple_regret),
                best_evaluated_regret: column(|s| s.best_evaluated_regret),
                cumulative_regret: column(|s| s.cumulative_regret),
                best_value: column(|s| s.best_value),
                finish: trace
                    .is_timed()
                    .then(|| steps.iter().flat_map(|s| s.finish).collect()),
            },
        }
    }

    /// The archived run as the report reads runs, or what is wrong with the record.
    pub fn into_run(self) -> Result<CompletedRun, String> {
        let kept = &self.kept;
        let n = kept.evals.len();
        if n == 0 {
            return Err("kept: no step (a run keeps at least its last)".into());
        }
        let lengths = [
            ("simple_regret", kept.simple_regret.len()),
            ("cumulative_regret", kept.cumulative_regret.len()),
            ("best_value", kept.best_value.len()),
            ("finish", kept.finish.as_ref().map_or(n, Vec::len)),
            (
                "best_evaluated_regret",
                match kept.best_evaluated_regret.len() {
                    0 => n,
                    len => len,
                },
            ),
        ];
        if let Some((name, len)) = lengths.iter().find(|(_, len)| *len != n) {
            return Err(format!("kept.{name}: {len} values for {n} steps"));
        }
        if n > self.steps {
            return Err(format!("kept: {n} steps of a run that took {}", self.steps));
        }
        if kept.evals.windows(2).any(|w| w[1] < w[0]) {
            return Err("kept.evals: decreasing".into());
        }
        // The rule of a complete trace (`crate::read_complete`): the run ends at its budget.
        let spent = kept.evals[n - 1];
        if spent != self.run.budget {
            return Err(format!(
                "kept.evals: the run is not complete: it ends at {spent} of its {} evaluations",
                self.run.budget
            ));
        }
        if !(self.seconds >= 0.0 && self.seconds.is_finite()) {
            return Err(format!("seconds: {} is not a duration", self.seconds));
        }
        let sense = match &self.sense {
            Some(s) => Some(parse_sense(s).ok_or_else(|| format!("sense: unknown {s:?}"))?),
            None => None,
        };
        let steps = (0..n)
            .map(|i| Step {
                evals: kept.evals[i],
                simple_regret: kept.simple_regret[i],
                best_evaluated_regret: kept.best_evaluated_regret.get(i).copied().flatten(),
                cumulative_regret: kept.cumulative_regret[i],
                best_value: kept.best_value[i],
                // Plotted only as a curve, which an archived run keeps too few steps for.
                feasible_fraction: None,
                // The seconds are the run's, kept whole in `compacted`.
                seconds: 0.0,
                finish: kept.finish.as_ref().map(|f| f[i]),
            })
            .collect();
        Ok(CompletedRun {
            spec: self.run,
            trace: Trace {
                sense,
                device: self.device,
                steps,
                compacted: Some(Compacted {
                    steps: self.steps,
                    seconds: self.seconds,
                }),
                objectives: self.objectives,
                final_front: None,
                noise_free: self.noise_free,
                constrained: self.constrained,
                first_feasible: self.first_feasible,
            },
        })
    }
}
