//! The report as data: the summary rows, each problem's best algorithm, paired tests and plotted
//! series, the ranks across problems and the runtime distributions, computed once from a loaded
//! sweep (and, at a chosen simulated time, the same statistics on the runs cut at that time).
//! The writers (the CSV tables, `report.md`, the plots, `report.html`) only render it.

use std::collections::HashSet;

use super::compare::{self, PairedComparison, ProblemScores, Ranks};
use super::curves::{self, CurvePoint, Sampling, curve};
use super::ecdf::{self, Budget};
use super::fronts::{self, Fronts};
use super::load::{CompletedRun, Step, Sweep, Trace, default_metric};
use super::plot::Series;
use super::scores::{self, ERT_TARGETS, Ert, Scores};
use super::summary::{BestBy, SummaryRow, mark_best, summary_row};
use super::{
    Metric, RUNTIME_PLOT, RUNTIME_SIMULATED_TIME_PLOT, SCORES_PLOT, file_safe, first_appearances,
};
use crate::{RunSpec, Setting};
use bosweep_problems::Sense;

/// Everything the report shows.
pub(crate) struct ReportModel {
    /// `summary.csv`'s rows: per problem, then per algorithm, in manifest order.
    pub rows: Vec<SummaryRow>,
    /// Per problem, in the order of `rows`.
    pub sections: Vec<Section>,
    /// The average ranks across problems, where at least two algorithms can be ranked.
    pub ranks: Option<Ranks>,
    /// COCO's runtime distribution over the problems with a known optimum, where there is one.
    pub runtime: Option<Plot>,
    /// The runtimes it pools: every run of a problem with a known optimum, per target.
    pub runtimes: Vec<RunRuntimes>,
    /// The same against simulated time, where every run it pools is timed.
    pub runtime_simulated_time: Option<Plot>,
    /// The statistics at the chosen simulated time, where one was chosen.
    pub at_time: Option<AtTime>,
    /// Bayesmark's normalised scores across problems, where random search ran on a problem
    /// with a known optimum.
    pub scores: Option<Scores>,
    /// Each algorithm's scores per problem, best first, against the fraction of problems.
    pub score_plot: Option<Plot>,
}

/// The rows and ranks at a chosen simulated time, every run's trace cut there
/// ([`Trace::truncated`]); each problem's part is its [`Section::at_time`].
pub(crate) struct AtTime {
    pub time: f64,
    /// `summary-at-time.csv`'s rows, in the order (and with the row ranges) of
    /// [`ReportModel::rows`].
    pub rows: Vec<SummaryRow>,
    pub ranks: Option<Ranks>,
}

/// One problem's best and paired tests at the chosen simulated time.
pub(crate) struct SectionAtTime {
    pub best_by: BestBy,
    pub comparisons: Vec<PairedComparison>,
    /// Completed runs of the problem with no step finished by then, left out of its statistics.
    pub absent: usize,
}

/// One run's runtimes to the runtime distribution's targets ([`ecdf::targets`]), in
/// evaluations: `runtimes.csv`'s rows.
pub(crate) struct RunRuntimes {
    pub problem: String,
    pub algorithm: String,
    pub replicate: usize,
    /// The evaluations the run spent.
    pub evaluations: usize,
    /// Per target, the evaluations until its best evaluated point reached it; `None` where it
    /// never did.
    pub runtimes: Vec<Option<f64>>,
}

/// One problem's part of the report.
pub(crate) struct Section {
    pub problem: String,
    /// The name of the family member the problem is (`f8 Rosenbrock, original` of a `bbob`
    /// setting with `function = 8`), where it is one ([`bosweep_problems::Problem::title`]).
    pub title: Option<String>,
    /// The number of objectives of a problem of several, whose regret is the hypervolume
    /// difference and whose best value is the hypervolume; `None` for one.
    pub objectives: Option<usize>,
    /// Its rows: `rows[first_row..first_row + rows]` of [`ReportModel::rows`].
    pub first_row: usize,
    pub rows: usize,
    pub best_by: BestBy,
    /// Every other algorithm against the best, paired by replicate.
    pub comparisons: Vec<PairedComparison>,
    /// The same at the chosen simulated time ([`ReportModel::at_time`]), where one was chosen.
    pub at_time: Option<SectionAtTime>,
    /// Its plots in the order shown: the simple regret (or, where regrets are unknown, the best
    /// value), where regrets are known the cumulative regret, the best value and the simple
    /// regret against time, where every completed run is timed the simple regret (or best
    /// value) against simulated time, then the seconds per iteration. Empty where no run of the
    /// problem has completed.
    pub plots: Vec<Plot>,
    /// Per algorithm with completed runs, its expected running time to each of
    /// [`ERT_TARGETS`]; empty where the problem's regrets are unknown.
    pub ert: Vec<(String, Vec<Ert>)>,
    /// A problem of several objectives' figures in objective space, where its runs keep their
    /// final fronts.
    pub fronts: Option<Fronts>,
    pub missing: Vec<RunSpec>,
}

/// One plot: what it shows and its curves.
pub(crate) struct Plot {
    /// What against what, as the report names it (`"simple regret vs evaluations"`).
    pub what: String,
    pub title: String,
    /// File stem under `plots/`.
    pub name: String,
    pub x: XAxis,
    pub y_label: String,
    pub series: Vec<Series>,
    /// A log y axis where every mean is positive (regrets, seconds).
    pub may_log: bool,
    /// What a reader must know to read it, printed under it where it is shown.
    pub caption: Option<&'static str>,
    /// A fixed y axis: a runtime distribution's 0 to 1, COCO's convention, so that curves of
    /// different sweeps read alike.
    pub fixed_y: Option<(f64, f64)>,
}

/// The caption of the recommendation's regret curves.
const RECOMMENDATION_CAPTION: &str = "The recommendation's regret is measured at the point the \
     method recommends after each evaluation, so a curve can rise where a method recommends a \
     worse point than before (a GP whose posterior moved); the best evaluated regret never rises.";

/// The caption of a problem of several objectives' hypervolume difference curves.
const HV_DIFFERENCE_CAPTION: &str = "The hypervolume difference HV_max − HV of the non-dominated \
     points evaluated so far (the recommendation of a run on several objectives is that set, so \
     the best evaluated and the recommended differ in nothing), on a logarithmic axis where every \
     mean is positive: its decades read as the log10 hypervolume difference.";

/// What a plot's x axis measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum XAxis {
    Evaluations,
    /// Wall-clock milliseconds in model fitting and acquisition.
    Milliseconds,
    /// The runs' simulated clock.
    SimulatedTime,
    /// The fraction of problems, for a profile of per-problem scores.
    ProblemFraction,
}

impl XAxis {
    pub fn label(self) -> &'static str {
        match self {
            XAxis::Evaluations => "evaluations",
            XAxis::Milliseconds => "milliseconds in model fitting and acquisition",
            XAxis::SimulatedTime => "simulated time",
            XAxis::ProblemFraction => "fraction of problems",
        }
    }

    /// Whether it counts (evaluations): ticks then fall on whole numbers only.
    pub fn counts(self) -> bool {
        self == XAxis::Evaluations
    }
}

/// One algorithm on one problem: its palette index (its place in the sweep), its display label
/// and its completed runs ([`compare::against_best`] takes them as they are).
type Cell<'a> = (usize, String, Vec<&'a CompletedRun>);

/// One problem's statistics on a set of its runs: the summary rows (one per algorithm of its
/// cells), the best algorithm and its ties, the paired tests against it and the means that rank
/// it across problems.
struct Judged {
    rows: Vec<SummaryRow>,
    best_by: BestBy,
    comparisons: Vec<PairedComparison>,
    scores: ProblemScores,
}

/// [`Judged`] on the runs of `cells`, the best chosen by `metric` (in `sense` where by the best
/// value).
fn judge(problem: &str, cells: &[Cell], sense: Option<Sense>, metric: Metric) -> Judged {
    let mut rows: Vec<SummaryRow> = cells
        .iter()
        .map(|(_, algorithm, done)| {
            let traces: Vec<&Trace> = done.iter().map(|c| &c.trace).collect();
            summary_row(problem, algorithm, &traces)
        })
        .collect();
    let best_by = mark_best(&mut rows, sense, metric);
    let comparisons = rows.iter().find(|r| r.best).map_or_else(Vec::new, |best| {
        compare::against_best(problem, cells, &best.algorithm, best_by)
    });
    let scores = ProblemScores {
        problem: problem.to_owned(),
        by: best_by,
        means: rows
            .iter()
            .map(|r| (r.algorithm.clone(), best_by.key(r).map(|(mean, _)| mean)))
            .collect(),
        infeasible_runs: rows
            .iter()
            .filter_map(|r| Some((r.algorithm.clone(), r.infeasible_runs?)))
            .collect(),
    };
    Judged {
        rows,
        best_by,
        comparisons,
        scores,
    }
}

/// The metric of a problem whose runs are `cells`: `chosen`, else its default
/// ([`default_metric`]).
fn metric_of(chosen: Option<Metric>, cells: &[Cell]) -> Metric {
    chosen.unwrap_or_else(|| {
        default_metric(cells.iter().flat_map(|(_, _, done)| done.iter().copied()))
    })
}

/// The report of `sweep`, each problem's best chosen by `metric` (or its default); with a
/// `time`, also at that simulated time (every completed run must then be timed:
/// [`Trace::is_timed`]).
pub(crate) fn build(sweep: &Sweep, chosen: Option<Metric>, time: Option<f64>) -> ReportModel {
    let problems = first_appearances(sweep.runs.iter().map(|r| r.problem.label()));
    let algorithms = first_appearances(sweep.runs.iter().map(|r| r.algorithm.label()));
    // Every completed run as it stood at the chosen time, where it had a step by then.
    let truncated: Option<(f64, Vec<CompletedRun>)> = time.map(|t| {
        let runs = sweep
            .completed
            .iter()
            .filter_map(|c| {
                Some(CompletedRun {
                    spec: c.spec.clone(),
                    trace: c.trace.truncated(t)?,
                })
            })
            .collect();
        (t, runs)
    });
    let mut rows = Vec::new();
    let mut rows_at_time = Vec::new();
    let mut sections = Vec::new();
    let mut used_names = HashSet::new();
    let mut scores = Vec::new();
    let mut scores_at_time = Vec::new();
    // (palette index, algorithm, mean normalised score) per problem with a reference, and
    // the references' labels.
    let mut normalised = Vec::new();
    let mut references: Vec<String> = Vec::new();
    // The regret each problem is scored on.
    let mut scored: Vec<BestBy> = Vec::new();
    // Per algorithm (palette index, display label), its runs on problems with known regrets.
    let mut runtimes: Vec<(usize, String, Vec<&Trace>)> = Vec::new();
    let mut run_runtimes = Vec::new();
    for identity in &problems {
        let of_problem = |r: &RunSpec| &r.problem.label() == identity;
        let problem = shown(sweep, identity, |r| &r.problem);
        let title = sweep
            .runs
            .iter()
            .find(|r| &r.problem.label() == identity)
            .and_then(|r| title_of(&r.problem));
        let cells = cells_of(sweep, &sweep.completed, identity, &algorithms);
        let sense = sweep
            .completed
            .iter()
            .filter(|c| of_problem(&c.spec))
            .find_map(|c| c.trace.sense);

        let first_row = rows.len();
        let metric = metric_of(chosen, &cells);
        scored.push(scores::scored_by(metric));
        let judged = judge(&problem, &cells, sense, metric);
        let mut judged_rows = judged.rows;
        if let Some(reference) = score(&mut judged_rows, &cells, metric) {
            normalised.extend(judged_rows.iter().zip(&cells).filter_map(
                |(row, (color, algorithm, _))| Some((*color, algorithm.clone(), row.score_mean?)),
            ));
            if !references.contains(&reference) {
                references.push(reference);
            }
        }
        rows.extend(judged_rows);
        scores.push(judged.scores);
        let at_time = truncated.as_ref().map(|(_, runs)| {
            let cells_then = cells_of(sweep, runs, identity, &algorithms);
            let mut then = judge(&problem, &cells_then, sense, metric);
            score(&mut then.rows, &cells_then, metric);
            rows_at_time.extend(then.rows);
            scores_at_time.push(then.scores);
            let runs_of = |cells: &[Cell]| cells.iter().map(|(_, _, d)| d.len()).sum::<usize>();
            SectionAtTime {
                best_by: then.best_by,
                comparisons: then.comparisons,
                absent: runs_of(&cells) - runs_of(&cells_then),
            }
        });

        // Regret plots where any run of the problem knows it, else the best value.
        let regrets_known = cells
            .iter()
            .flat_map(|(_, _, done)| done.iter())
            .any(|c| c.trace.steps.iter().any(|s| s.simple_regret.is_some()));
        if regrets_known {
            add_runs(&mut runtimes, &cells);
            run_runtimes.extend(cells.iter().flat_map(|(_, algorithm, done)| {
                done.iter().map(|c| RunRuntimes {
                    problem: problem.clone(),
                    algorithm: algorithm.clone(),
                    replicate: c.spec.replicate,
                    evaluations: c.trace.last().evals,
                    runtimes: ecdf::targets()
                        .into_iter()
                        .map(|target| ecdf::runtime(&c.trace, target, Budget::Evaluations))
                        .collect(),
                })
            }));
        }
        let name = unique_name(&sanitize(&problem), &mut used_names);
        let has_runs = cells.iter().any(|(_, _, done)| !done.is_empty());
        let objectives = cells
            .iter()
            .flat_map(|(_, _, done)| done.iter())
            .find_map(|c| c.trace.objectives);
        let setting = sweep
            .runs
            .iter()
            .find(|r| &r.problem.label() == identity)
            .map(|r| &r.problem);
        sections.push(Section {
            plots: if has_runs {
                problem_plots(
                    &problem,
                    &name,
                    &cells,
                    sense,
                    regrets_known,
                    judged.best_by,
                    objectives.is_some(),
                )
            } else {
                Vec::new()
            },
            fronts: objectives.and_then(|_| {
                fronts::fronts(&problem, &name, &cells, setting.and_then(true_front_of))
            }),
            ert: if regrets_known {
                ert_rows(&cells)
            } else {
                Vec::new()
            },
            objectives,
            problem,
            title,
            first_row,
            rows: rows.len() - first_row,
            best_by: judged.best_by,
            comparisons: judged.comparisons,
            at_time,
            missing: sweep
                .missing
                .iter()
                .filter(|r| of_problem(r))
                .cloned()
                .collect(),
        });
    }
    runtimes.sort_by_key(|(color, _, _)| *color);
    let all_timed = runtimes
        .iter()
        .flat_map(|(_, _, traces)| traces)
        .all(|t| t.is_timed());
    let what = match scored.first() {
        Some(first) if scored.iter().all(|by| by == first) => first.what(),
        _ => "regret (each problem's own)",
    };
    let normalised = scores::across_problems(&normalised, what, references);
    ReportModel {
        score_plot: normalised.as_ref().map(score_plot),
        scores: normalised,
        ranks: compare::average_ranks(&scores),
        runtime: (!runtimes.is_empty()).then(|| runtime_plot(&runtimes, Budget::Evaluations)),
        runtimes: run_runtimes,
        runtime_simulated_time: (!runtimes.is_empty() && all_timed)
            .then(|| runtime_plot(&runtimes, Budget::SimulatedTime)),
        at_time: truncated.map(|(time, _)| AtTime {
            time,
            rows: rows_at_time,
            ranks: compare::average_ranks(&scores_at_time),
        }),
        rows,
        sections,
    }
}

/// Each algorithm of `algorithms` (labels, in sweep order) that the sweep runs on the problem
/// labelled `problem`, with its runs of `completed` there (the sweep's, or them cut at a time).
fn cells_of<'a>(
    sweep: &Sweep,
    completed: &'a [CompletedRun],
    problem: &str,
    algorithms: &[String],
) -> Vec<Cell<'a>> {
    let of_problem = |r: &RunSpec| r.problem.label() == problem;
    algorithms
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            sweep
                .runs
                .iter()
                .any(|r| of_problem(r) && &r.algorithm.label() == *a)
        })
        .map(|(i, a)| {
            let done = completed
                .iter()
                .filter(|c| of_problem(&c.spec) && &c.spec.algorithm.label() == a)
                .collect();
            (i, shown(sweep, a, |r| &r.algorithm), done)
        })
        .collect()
}

/// Adds the completed runs of `cells` to each algorithm's runs in `runs` (palette index, display
/// label, traces), in the order algorithms first have one.
fn add_runs<'a>(runs: &mut Vec<(usize, String, Vec<&'a Trace>)>, cells: &[Cell<'a>]) {
    for (color, label, done) in cells.iter().filter(|(_, _, done)| !done.is_empty()) {
        let traces = done.iter().map(|c| &c.trace);
        match runs.iter_mut().find(|(c, _, _)| c == color) {
            Some((_, _, all)) => all.extend(traces),
            None => runs.push((*color, label.clone(), traces.collect())),
        }
    }
}

/// The title of the problem `setting` builds, where it builds here and is one of a family.
fn title_of(setting: &Setting) -> Option<String> {
    bosweep_problems::find(&setting.name)
        .ok()?
        .build(&setting.param_values())
        .ok()?
        .title()
}

/// The sample of the true Pareto front (each objective in its own sense) of the problem
/// `setting` builds, where it builds here and its source publishes one: the report's traces do
/// not carry it, and the problem rebuilt from its setting is the same problem the runs saw.
fn true_front_of(setting: &Setting) -> Option<Vec<Vec<f64>>> {
    let problem = bosweep_problems::find(&setting.name)
        .ok()?
        .build(&setting.param_values())
        .ok()?;
    Some(problem.objectives()?.front()?.to_vec())
}

/// The display label (the config's `label`) of the setting whose label is `identity`: settings
/// are told apart by their labels, which the config keeps distinct, and shown by these.
fn shown(sweep: &Sweep, identity: &str, of: fn(&RunSpec) -> &Setting) -> String {
    sweep
        .runs
        .iter()
        .map(of)
        .find(|s| s.label() == identity)
        .map_or_else(|| identity.to_owned(), Setting::display_label)
}

/// A problem's plots ([`Section::plots`]), their files named from `name`.
fn problem_plots(
    problem: &str,
    name: &str,
    cells: &[Cell],
    sense: Option<Sense>,
    regrets_known: bool,
    best_by: BestBy,
    several: bool,
) -> Vec<Plot> {
    let constrained = cells
        .iter()
        .flat_map(|(_, _, done)| done.iter())
        .any(|c| c.trace.constrained);
    // One series per algorithm with completed runs, its points aggregated by `points`; archived
    // runs keep too few steps for a curve.
    let series_by = |points: &dyn Fn(&[&Trace]) -> Vec<CurvePoint>| -> Vec<Series> {
        cells
            .iter()
            .filter_map(|(color, algorithm, done)| {
                let traces: Vec<&Trace> = done
                    .iter()
                    .map(|c| &c.trace)
                    .filter(|t| t.compacted.is_none())
                    .collect();
                (!traces.is_empty()).then(|| Series {
                    label: algorithm.clone(),
                    color: *color,
                    points: points(&traces),
                })
            })
            .collect()
    };
    let series = |value: fn(&Step) -> Option<f64>, sampling: Sampling| {
        series_by(&|traces| curve(traces, value, sampling))
    };
    let sense = sense.map_or(String::new(), |s| format!(", {}", s.as_str()));
    let plot = |what: &str, suffix: &str, x, y_label: String, series, may_log| Plot {
        what: what.to_owned(),
        title: problem.to_owned(),
        name: format!("{name}-{suffix}"),
        x,
        y_label,
        series,
        may_log,
        caption: None,
        fixed_y: None,
    };
    let recommendation = |plot: Plot| Plot {
        caption: Some(RECOMMENDATION_CAPTION),
        ..plot
    };
    let mut plots = Vec::new();
    let difference = |what: &str, suffix: &str, x, series| Plot {
        caption: Some(HV_DIFFERENCE_CAPTION),
        ..plot(
            what,
            suffix,
            x,
            "hypervolume difference HV_max − HV (mean ± s.e.)".into(),
            series,
            true,
        )
    };
    if several {
        // The recommendation of a run on several objectives is its front: both regrets are the
        // hypervolume difference (one plot), there is no cumulative regret, and the best value
        // is the hypervolume.
        if regrets_known {
            plots.push(difference(
                "hypervolume difference vs evaluations",
                "hv-difference",
                XAxis::Evaluations,
                series(|s| s.best_evaluated_regret, Sampling::Hold),
            ));
        }
        plots.push(plot(
            "hypervolume vs evaluations",
            "hypervolume",
            XAxis::Evaluations,
            "hypervolume of the non-dominated points (mean ± s.e., maximised)".into(),
            series(|s| s.best_value, Sampling::Hold),
            false,
        ));
        if regrets_known {
            plots.push(difference(
                "hypervolume difference vs time",
                "hv-difference-time",
                XAxis::Milliseconds,
                series_by(&|traces| curves::time_curve(traces, |s| s.simple_regret)),
            ));
        }
    } else if regrets_known {
        // Both final regrets, the one that picks the problem's best first: the best evaluated
        // point's, which never rises, and the recommendation's, which rises where a method
        // recommends a worse point than before (a GP's posterior moved).
        let best_evaluated = plot(
            "best evaluated regret vs evaluations",
            "best-evaluated-regret",
            XAxis::Evaluations,
            "regret of the best point evaluated (mean ± s.e.)".into(),
            series(|s| s.best_evaluated_regret, Sampling::Hold),
            true,
        );
        let recommended = recommendation(plot(
            "recommendation's regret vs evaluations",
            "regret",
            XAxis::Evaluations,
            "regret of the recommended point (mean ± s.e.)".into(),
            series(|s| s.simple_regret, Sampling::Hold),
            true,
        ));
        if best_by == BestBy::BestEvaluatedRegret {
            plots.extend([best_evaluated, recommended]);
        } else {
            plots.extend([recommended, best_evaluated]);
        }
        // Beside the simple regret: the cumulative regret (none on a constrained problem) and
        // the best value so far (linear axes: a cumulative regret grows, best values have any
        // sign), and the simple regret against time.
        if !constrained {
            plots.push(plot(
                "cumulative regret vs evaluations",
                "cumulative-regret",
                XAxis::Evaluations,
                "cumulative regret (mean ± s.e.)".into(),
                series(|s| s.cumulative_regret, Sampling::Hold),
                false,
            ));
        }
        plots.push(plot(
            "best value vs evaluations",
            "best-value",
            XAxis::Evaluations,
            format!("best value so far (mean ± s.e.{sense})"),
            series(|s| s.best_value, Sampling::Hold),
            false,
        ));
        plots.push(recommendation(plot(
            "recommendation's regret vs time",
            "regret-time",
            XAxis::Milliseconds,
            "regret of the recommended point (mean ± s.e.)".into(),
            series_by(&|traces| curves::time_curve(traces, |s| s.simple_regret)),
            true,
        )));
    } else {
        // Best values have any sign and no natural zero: always a linear axis.
        plots.push(plot(
            "best value vs evaluations",
            "best-value",
            XAxis::Evaluations,
            format!("best value (mean ± s.e.{sense})"),
            series(|s| s.best_value, Sampling::Hold),
            false,
        ));
    }
    // Parallel runs: against the simulated clock, where every run of the problem keeps one.
    let timed = cells
        .iter()
        .flat_map(|(_, _, done)| done.iter())
        .all(|c| c.trace.is_timed());
    if timed {
        let against_time = |value: fn(&Step) -> Option<f64>| {
            series_by(&move |traces| curves::simulated_time_curve(traces, value))
        };
        plots.push(if several && regrets_known {
            difference(
                "hypervolume difference vs simulated time",
                "hv-difference-simulated-time",
                XAxis::SimulatedTime,
                against_time(|s| s.simple_regret),
            )
        } else if several {
            plot(
                "hypervolume vs simulated time",
                "hypervolume-simulated-time",
                XAxis::SimulatedTime,
                "hypervolume (mean ± s.e., maximised)".into(),
                against_time(|s| s.best_value),
                false,
            )
        } else if regrets_known {
            recommendation(plot(
                "recommendation's regret vs simulated time",
                "regret-simulated-time",
                XAxis::SimulatedTime,
                "regret of the recommended point (mean ± s.e.)".into(),
                against_time(|s| s.simple_regret),
                true,
            ))
        } else {
            plot(
                "best value vs simulated time",
                "best-value-simulated-time",
                XAxis::SimulatedTime,
                format!("best value (mean ± s.e.{sense})"),
                against_time(|s| s.best_value),
                false,
            )
        });
    }
    if constrained {
        plots.push(Plot {
            fixed_y: Some((0.0, 1.0)),
            ..plot(
                "feasible fraction vs evaluations",
                "feasible-fraction",
                XAxis::Evaluations,
                "fraction of the points so far that are feasible (mean ± s.e.)".into(),
                series(|s| s.feasible_fraction, Sampling::Exact),
                false,
            )
        });
    }
    plots.push(plot(
        "seconds per iteration vs evaluations",
        "seconds",
        XAxis::Evaluations,
        "seconds per iteration (mean ± s.e.)".into(),
        series(|s| Some(s.seconds), Sampling::Exact),
        true,
    ));
    plots
}

/// The runtime distribution of each algorithm's `runs` (palette index, label, traces) in
/// `budget`.
fn runtime_plot(runs: &[(usize, String, Vec<&Trace>)], budget: Budget) -> Plot {
    let (what, name, x) = match budget {
        Budget::Evaluations => ("runtime distribution", RUNTIME_PLOT, XAxis::Evaluations),
        Budget::SimulatedTime => (
            "runtime distribution vs simulated time",
            RUNTIME_SIMULATED_TIME_PLOT,
            XAxis::SimulatedTime,
        ),
    };
    Plot {
        what: what.into(),
        title: "runtime distribution over every problem with a known optimum".into(),
        name: name.into(),
        x,
        y_label: "fraction of (run, Δf target) pairs reached".into(),
        series: runs
            .iter()
            .map(|(color, label, traces)| Series {
                label: label.clone(),
                color: *color,
                points: ecdf::runtime_distribution(traces, budget),
            })
            .collect(),
        may_log: false,
        caption: None,
        fixed_y: Some((0.0, 1.0)),
    }
}

/// Sets each row's mean normalised score (`rows` in the order of `cells`, one problem's) on
/// the regret `metric` makes it score ([`scores::scored_by`]), against the problem's
/// random-search runs among `cells`; returns their display label, or `None` (and sets nothing)
/// without them.
fn score(rows: &mut [SummaryRow], cells: &[Cell], metric: Metric) -> Option<String> {
    let runs: Vec<&[&CompletedRun]> = cells.iter().map(|(_, _, d)| d.as_slice()).collect();
    let regret = scores::scored_by(metric);
    let (reference, mean) = scores::reference_regret(&runs, regret)?;
    for (row, (_, _, done)) in rows.iter_mut().zip(cells) {
        let traces: Vec<&Trace> = done.iter().map(|c| &c.trace).collect();
        row.score_mean = scores::mean_score(&traces, regret, mean);
    }
    Some(reference)
}

/// Each algorithm's expected running times to [`ERT_TARGETS`] on one problem, where it has
/// completed runs.
fn ert_rows(cells: &[Cell]) -> Vec<(String, Vec<Ert>)> {
    cells
        .iter()
        .filter(|(_, _, done)| !done.is_empty())
        .map(|(_, algorithm, done)| {
            let traces: Vec<&Trace> = done.iter().map(|c| &c.trace).collect();
            let erts = ERT_TARGETS
                .iter()
                .map(|&target| scores::expected_running_time(&traces, target))
                .collect();
            (algorithm.clone(), erts)
        })
        .collect()
}

/// The lowest score the profile draws: a regret many times random search's would otherwise
/// squash every other score into one line at the top.
const SCORE_PLOT_FLOOR: f64 = -100.0;

/// The profile of the normalised scores: per algorithm its per-problem scores, best first,
/// the k-th of n at x = k/n, scores below [`SCORE_PLOT_FLOOR`] drawn at it.
fn score_plot(scores: &Scores) -> Plot {
    Plot {
        what: "normalised score profile".into(),
        title: "normalised score per problem, best first (below −100 drawn at −100)".into(),
        name: SCORES_PLOT.into(),
        x: XAxis::ProblemFraction,
        y_label: "normalised score (100: optimum, 0: random search's mean)".into(),
        series: scores
            .algorithms
            .iter()
            .map(|a| {
                let n = a.per_problem.len();
                Series {
                    label: a.algorithm.clone(),
                    color: a.color,
                    points: a
                        .per_problem
                        .iter()
                        .enumerate()
                        .map(|(k, &score)| CurvePoint {
                            x: (k + 1) as f64 / n as f64,
                            mean: score.max(SCORE_PLOT_FLOOR),
                            se: None,
                            n: 1,
                        })
                        .collect(),
                }
            })
            .collect(),
        may_log: false,
        caption: None,
        fixed_y: None,
    }
}

/// A plot's file name for a label: [`file_safe`], cut at 100 characters (file systems limit
/// names to 255 bytes; [`unique_name`] separates labels that then coincide).
fn sanitize(label: &str) -> String {
    file_safe(&label.chars().take(100).collect::<String>())
}

/// `name`, or `name-2`, `name-3`, … where an earlier label sanitised to the same name.
fn unique_name(name: &str, used: &mut HashSet<String>) -> String {
    let mut candidate = name.to_string();
    let mut k = 2;
    while !used.insert(candidate.clone()) {
        candidate = format!("{name}-{k}");
        k += 1;
    }
    candidate
}
