//! Reports on a sweep directory (`crate` fixes its layout): a CSV summary, a Markdown and an
//! HTML report and plots, all written into the directory.
//!
//! [`write_report`] reads `manifest.json`, `config.toml` and the trace of every completed run
//! (`runs/<trace_file>`; a run without one is *missing*: not run yet, still running or failed)
//! and writes:
//!
//! - `summary.csv`: one row per problem × algorithm pair of the manifest (problems, then
//!   algorithms, in manifest order; labels from [`crate::Setting::label`]) with the
//!   columns of [`SUMMARY_COLUMNS`]: completed runs; the final simple regret's mean, standard
//!   error (sample standard deviation over √n; empty for a single run) and median; the final
//!   cumulative regret's mean; the mean of the last `best_value` (in the problem's own sense);
//!   the mean of the final `evals`; seconds per iteration, the mean of
//!   `model_seconds + acq_seconds` over every step of every run; the standard errors of the
//!   final best value and of the final cumulative regret; and the rank, `best`, `tied` (within
//!   one standard error of the best in the compared [`Metric`], [`within_one_se`]) or empty.
//!   Empty cells where a quantity is unknown (regrets are `null` where the optimum is unknown)
//!   or no run has completed.
//! - `report.md`: the config, then per problem a table of the same columns with the best
//!   algorithm in bold (lowest mean final simple regret, or cumulative regret, or the best mean
//!   best value, as [`ReportOptions::metric`] or the config's `[report] metric` says; where
//!   regrets are unknown, the best mean best value in the sense of the traces' header) and its
//!   ties in italics, its plots, and the missing runs.
//! - `report.html` ([`HTML_REPORT_FILE`]): `report.md` as one self-contained page (the plots
//!   embedded, a contents list), written last.
//! - `steps.csv` and `steps.parquet` ([`STEPS_COLUMNS`]): every step of every completed run, in
//!   long format (Parquet typed: points as lists of doubles, unknown values null).
//! - `comparisons.csv` ([`COMPARISON_COLUMNS`]): per problem,
//!   every algorithm against the best by the paired Wilcoxon signed-rank test on the final
//!   metric (named in its last column), runs paired by replicate, p Holm-adjusted over the
//!   problem's comparisons (Demšar 2006); `report.md` shows it under each problem's table.
//! - `ranks.csv` and `plots/ranks.{svg,png}`: average ranks across problems with the Nemenyi
//!   critical difference and its diagram, where at least two algorithms can be ranked.
//! - `plots/<problem>-regret.{svg,png}` (or `-best-value` where the problem's regrets are
//!   unknown; where they are known, `-cumulative-regret`, `-best-value` and `-regret-time`
//!   against the milliseconds spent in model fitting and acquisition beside it) and
//!   `plots/<problem>-seconds.{svg,png}`: per algorithm the mean over replicates
//!   with a ± one standard error band against evaluations, 900×600 by default. The y axis of
//!   regret and seconds is logarithmic where every plotted mean is positive ([`YScale::Auto`],
//!   the default; [`YScale::Linear`] turns that off); best values are always on a linear axis. Runs of different lengths are
//!   aggregated at each `evals` value over the runs that reached it: simple regret and best
//!   value hold from one step to the next, seconds count at the step's own `evals` only.
//!   File names are the problem label with characters outside `[A-Za-z0-9._=-]` replaced by `_`
//!   (cut at 100 characters, `-2`, `-3`, … appended where two problems' names coincide).
//! - `plots/runtime-distribution.{svg,png}` ([`RUNTIME_PLOT`]): COCO's empirical cumulative
//!   distribution of runtimes over the problems with a known optimum.
//!
//! Everything is read and checked before anything is written: a missing manifest, a malformed
//! trace (the error names the file and line) or a sweep without any completed run writes nothing.

mod cd_plot;
mod compare;
mod curves;
mod ecdf;
mod error;
mod html;
mod load;
mod long_table;
mod plot;
mod steps;
mod tables;
mod text;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

pub use crate::config::Metric;
pub use error::ReportError;
pub use long_table::STEPS_COLUMNS;
pub(crate) use steps::read_run;
pub use steps::{RunSteps, read_steps};

use crate::{RunSpec, Setting};
use bosweep_core::stats::{describe, mean};
use bosweep_problems::Sense;
use curves::{Sampling, curve};
use load::{CompletedRun, Trace};
use plot::{PlotSpec, Series};

/// The summary table's file name inside the sweep directory.
pub const SUMMARY_FILE: &str = "summary.csv";
/// The Markdown report's file name inside the sweep directory.
pub const REPORT_FILE: &str = "report.md";
/// `report.md` as one self-contained web page (plots embedded), in the sweep directory.
pub const HTML_REPORT_FILE: &str = "report.html";
/// Every step of every completed run, one row each ([`STEPS_COLUMNS`]).
pub const STEPS_FILE: &str = "steps.csv";
/// The long table of every step as Parquet, in the sweep directory.
pub const STEPS_PARQUET_FILE: &str = "steps.parquet";
/// The paired tests against each problem's best algorithm.
pub const COMPARISONS_FILE: &str = "comparisons.csv";
/// The average ranks across problems (where at least two algorithms can be ranked).
pub const RANKS_FILE: &str = "ranks.csv";
/// The critical-difference diagram's name in the plots' directory (`.svg`, `.png`).
pub const RANKS_PLOT: &str = "ranks";
/// The runtime distribution's name in the plots' directory (`.svg`, `.png`).
pub const RUNTIME_PLOT: &str = "runtime-distribution";
/// The plots' directory inside the sweep directory.
pub const PLOTS_DIR: &str = "plots";

/// The columns of `summary.csv`, in order.
pub const SUMMARY_COLUMNS: [&str; 13] = [
    "problem",
    "algorithm",
    "runs",
    "simple_regret_mean",
    "simple_regret_se",
    "simple_regret_median",
    "cumulative_regret_mean",
    "best_value_mean",
    "evals_mean",
    "seconds_per_iter_mean",
    "best_value_se",
    "cumulative_regret_se",
    "rank",
];

/// The columns of `comparisons.csv`, in order.
pub const COMPARISON_COLUMNS: [&str; 11] = [
    "problem",
    "algorithm",
    "best",
    "pairs",
    "median_difference",
    "w_plus",
    "statistic",
    "p_value",
    "p_holm",
    "verdict",
    "metric",
];

/// The y axis of the regret (or best value) and timing plots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum YScale {
    /// Logarithmic regret and seconds axes where every plotted mean is positive, else linear
    /// (best-value plots are always linear).
    #[default]
    Auto,
    /// Always linear.
    Linear,
}

/// How [`write_report_with`] draws its plots and compares the algorithms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportOptions {
    pub y_scale: YScale,
    /// Plot size in pixels (also the SVG's).
    pub width: u32,
    pub height: u32,
    /// The metric of the comparisons; `None` takes the sweep config's `[report] metric`, and
    /// [`Metric::SimpleRegret`] where it has none.
    pub metric: Option<Metric>,
}

impl Default for ReportOptions {
    fn default() -> Self {
        Self {
            y_scale: YScale::Auto,
            width: 900,
            height: 600,
            metric: None,
        }
    }
}

/// One row of `summary.csv`: a problem × algorithm pair. Statistics are over completed runs;
/// `None` is an empty cell.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    pub problem: String,
    pub algorithm: String,
    /// Completed runs.
    pub runs: usize,
    pub simple_regret_mean: Option<f64>,
    /// Standard error of the mean; `None` with fewer than two values.
    pub simple_regret_se: Option<f64>,
    pub simple_regret_median: Option<f64>,
    pub cumulative_regret_mean: Option<f64>,
    /// Standard error of the final cumulative regret's mean; `None` with fewer than two values.
    pub cumulative_regret_se: Option<f64>,
    pub best_value_mean: Option<f64>,
    /// Standard error of the final best value's mean; `None` with fewer than two values.
    pub best_value_se: Option<f64>,
    pub evals_mean: Option<f64>,
    pub seconds_per_iter_mean: Option<f64>,
    /// The problem's best algorithm (bold in `report.md`).
    pub best: bool,
    /// Not the best, but its mean lies within one standard error of the best's (see
    /// [`within_one_se`]); italic in `report.md`.
    pub tied: bool,
}

/// Whether two means are within one standard error of their difference,
/// `|m₁ − m₂| ≤ √(se₁² + se₂²)`: at this many replicates the sweep cannot tell them apart.
/// Never with an unknown standard error (a single run).
pub fn within_one_se(a: (f64, Option<f64>), b: (f64, Option<f64>)) -> bool {
    match (a.1, b.1) {
        (Some(sa), Some(sb)) => (a.0 - b.0).abs() <= (sa * sa + sb * sb).sqrt(),
        _ => false,
    }
}

/// What [`write_report`] found and wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportSummary {
    /// The rows of `summary.csv`, in its order.
    pub rows: Vec<SummaryRow>,
    pub total_runs: usize,
    pub completed_runs: usize,
    /// The manifest's runs without a trace, in manifest order.
    pub missing: Vec<RunSpec>,
    /// Every file written: `summary.csv`, `report.md`, the tables, the plots (SVG and PNG), then
    /// `report.html`.
    pub files: Vec<PathBuf>,
}

/// Writes `summary.csv`, `report.md` and `plots/` into the sweep directory `dir`, with the
/// default options (log-scale y where possible, 900×600 plots).
pub fn write_report(dir: &Path) -> Result<ReportSummary, ReportError> {
    write_report_with(dir, &ReportOptions::default())
}

/// [`write_report`] with explicit plot options.
pub fn write_report_with(
    dir: &Path,
    options: &ReportOptions,
) -> Result<ReportSummary, ReportError> {
    let sweep = load::load_sweep(dir)?;
    let metric = match options.metric {
        Some(metric) => metric,
        None => load::configured_metric(dir, sweep.config.as_deref())?.unwrap_or_default(),
    };
    let problems = ordered_labels(sweep.runs.iter().map(|r| r.problem.label()));
    let algorithms = ordered_labels(sweep.runs.iter().map(|r| r.algorithm.label()));

    let mut rows = Vec::new();
    let mut sections = Vec::new();
    let mut plot_jobs = Vec::new();
    let mut used_names = HashSet::new();
    let mut scores = Vec::new();
    // Per algorithm (palette index, display label), its runs on problems with known regrets.
    let mut runtimes: Vec<(usize, String, Vec<&Trace>)> = Vec::new();
    // Settings are told apart by their labels and shown by their display labels (the config's
    // `label`), which the config keeps distinct.
    let shown = |identity: &str, of: fn(&RunSpec) -> &Setting| {
        sweep
            .runs
            .iter()
            .map(of)
            .find(|s| s.label() == identity)
            .map_or_else(|| identity.to_owned(), Setting::display_label)
    };
    for identity in &problems {
        let of_problem = |r: &RunSpec| &r.problem.label() == identity;
        let problem = &shown(identity, |r| &r.problem);
        let cells: Vec<(usize, String, Vec<&CompletedRun>)> = algorithms
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                sweep
                    .runs
                    .iter()
                    .any(|r| of_problem(r) && &r.algorithm.label() == *a)
            })
            .map(|(i, a)| {
                let done = sweep
                    .completed
                    .iter()
                    .filter(|c| of_problem(&c.spec) && &c.spec.algorithm.label() == a)
                    .collect();
                (i, shown(a, |r| &r.algorithm), done)
            })
            .collect();
        let sense = sweep
            .completed
            .iter()
            .filter(|c| of_problem(&c.spec))
            .find_map(|c| c.trace.sense);

        let first_row = rows.len();
        for (_, algorithm, done) in &cells {
            let traces: Vec<&Trace> = done.iter().map(|c| &c.trace).collect();
            rows.push(summary_row(problem, algorithm, &traces));
        }
        let best_by = mark_best(&mut rows[first_row..], sense, metric);
        let comparisons = rows[first_row..]
            .iter()
            .find(|r| r.best)
            .map_or_else(Vec::new, |best| {
                compare::against_best(problem, &cells, &best.algorithm, best_by)
            });
        scores.push(compare::ProblemScores {
            problem: problem.clone(),
            by: best_by,
            means: rows[first_row..]
                .iter()
                .map(|r| (r.algorithm.clone(), best_by.key(r).map(|(mean, _)| mean)))
                .collect(),
        });

        // Plots: regret where any run of the problem knows it, else the best value.
        let regrets_known = cells
            .iter()
            .flat_map(|(_, _, done)| done.iter())
            .any(|c| c.trace.steps.iter().any(|s| s.simple_regret.is_some()));
        // One series per algorithm with completed runs, its points aggregated by `points`.
        let series_by = |points: &dyn Fn(&[&Trace]) -> Vec<curves::CurvePoint>| -> Vec<Series> {
            cells
                .iter()
                .filter(|(_, _, done)| !done.is_empty())
                .map(|(color, algorithm, done)| {
                    let traces: Vec<&Trace> = done.iter().map(|c| &c.trace).collect();
                    Series {
                        label: algorithm.clone(),
                        color: *color,
                        points: points(&traces),
                    }
                })
                .collect()
        };
        let series = |value: fn(&load::Step) -> Option<f64>, sampling: Sampling| {
            series_by(&|traces| curve(traces, value, sampling))
        };
        let base = unique_name(&sanitize(identity), &mut used_names);
        let (quality, quality_name, quality_label) = if regrets_known {
            (
                series(|s| s.simple_regret, Sampling::Hold),
                format!("{base}-regret"),
                "simple regret (mean ± s.e.)".to_string(),
            )
        } else {
            let sense = sense.map_or(String::new(), |s| format!(", {}", s.as_str()));
            (
                series(|s| s.best_value, Sampling::Hold),
                format!("{base}-best-value"),
                format!("best value (mean ± s.e.{sense})"),
            )
        };
        let seconds = series(|s| Some(s.seconds), Sampling::Exact);
        let has_plots = cells.iter().any(|(_, _, done)| !done.is_empty());
        // Beside the simple regret, where it is known: the cumulative regret and the best value
        // so far (linear axes: a cumulative regret grows, best values have any sign).
        let extra_plots: Vec<(&'static str, PlotJob)> = if regrets_known {
            let sense = sense.map_or(String::new(), |s| format!(", {}", s.as_str()));
            let timed = series_by(&|traces| curves::time_curve(traces, |s| s.simple_regret));
            vec![
                (
                    "cumulative regret vs evaluations",
                    PlotJob::new(
                        problem,
                        format!("{base}-cumulative-regret"),
                        EVALUATIONS,
                        "cumulative regret (mean ± s.e.)".into(),
                        series(|s| s.cumulative_regret, Sampling::Hold),
                        false,
                    ),
                ),
                (
                    "best value vs evaluations",
                    PlotJob::new(
                        problem,
                        format!("{base}-best-value"),
                        EVALUATIONS,
                        format!("best value so far (mean ± s.e.{sense})"),
                        series(|s| s.best_value, Sampling::Hold),
                        false,
                    ),
                ),
                (
                    "simple regret vs time",
                    PlotJob::new(
                        problem,
                        format!("{base}-regret-time"),
                        "milliseconds in model fitting and acquisition",
                        "simple regret (mean ± s.e.)".into(),
                        timed,
                        true,
                    ),
                ),
            ]
        } else {
            Vec::new()
        };
        if regrets_known {
            let traces = cells
                .iter()
                .flat_map(|(color, label, done)| done.iter().map(move |c| (color, label, c)));
            for (color, label, run) in traces {
                match runtimes.iter_mut().find(|(c, _, _)| c == color) {
                    Some((_, _, all)) => all.push(&run.trace),
                    None => runtimes.push((*color, label.clone(), vec![&run.trace])),
                }
            }
        }
        let missing: Vec<&RunSpec> = sweep.missing.iter().filter(|r| of_problem(r)).collect();
        sections.push(tables::Section {
            problem: problem.clone(),
            first_row,
            rows: rows.len() - first_row,
            best_by,
            quality_plot: quality_name.clone(),
            quality_what: if regrets_known {
                "simple regret"
            } else {
                "best value"
            },
            seconds_plot: format!("{base}-seconds"),
            extra_plots: extra_plots
                .iter()
                .map(|(what, job)| (*what, job.name.clone()))
                .collect(),
            missing: missing.into_iter().cloned().collect(),
            has_plots,
            comparisons,
        });
        if has_plots {
            // Best values have any sign and no natural zero: always a linear axis.
            plot_jobs.push(PlotJob::new(
                problem,
                quality_name,
                EVALUATIONS,
                quality_label,
                quality,
                regrets_known,
            ));
            plot_jobs.extend(extra_plots.into_iter().map(|(_, job)| job));
            plot_jobs.push(PlotJob::new(
                problem,
                format!("{base}-seconds"),
                EVALUATIONS,
                "seconds per iteration (mean ± s.e.)".into(),
                seconds,
                true,
            ));
        }
    }
    let runtime_plot = !runtimes.is_empty();
    if runtime_plot {
        runtimes.sort_by_key(|(color, _, _)| *color);
        let series = runtimes
            .iter()
            .map(|(color, label, traces)| Series {
                label: label.clone(),
                color: *color,
                points: ecdf::runtime_distribution(traces),
            })
            .collect();
        plot_jobs.push(PlotJob::new(
            "runtime distribution over every problem with a known optimum",
            RUNTIME_PLOT.into(),
            EVALUATIONS,
            "fraction of (run, Δf target) pairs reached".into(),
            series,
            false,
        ));
    }

    let ranks = compare::average_ranks(&scores);

    // Everything is read and checked: write.
    let mut files = Vec::new();
    let summary_path = dir.join(SUMMARY_FILE);
    tables::write_csv(&summary_path, &rows)?;
    files.push(summary_path);
    let steps_path = dir.join(STEPS_FILE);
    long_table::write_steps(&steps_path, &sweep.steps)?;
    files.push(steps_path);
    let parquet_path = dir.join(STEPS_PARQUET_FILE);
    long_table::write_steps_parquet(&parquet_path, &sweep.steps)?;
    files.push(parquet_path);
    let comparisons_path = dir.join(COMPARISONS_FILE);
    let comparisons: Vec<(&compare::PairedComparison, BestBy)> = sections
        .iter()
        .flat_map(|s| s.comparisons.iter().map(|c| (c, s.best_by)))
        .collect();
    tables::write_comparisons(&comparisons_path, &comparisons)?;
    files.push(comparisons_path);
    if let Some(ranks) = &ranks {
        let ranks_path = dir.join(RANKS_FILE);
        tables::write_ranks(&ranks_path, ranks)?;
        files.push(ranks_path);
    }
    let report_path = dir.join(REPORT_FILE);
    let markdown = |every_plot_shown| {
        let overview = tables::Overview {
            ranks: ranks.as_ref(),
            runtime_plot,
            every_plot_shown,
        };
        tables::markdown(
            dir,
            sweep.config.as_deref(),
            &sweep,
            &rows,
            &sections,
            &overview,
        )
    };
    let report = markdown(false);
    std::fs::write(&report_path, &report).map_err(|source| ReportError::Write {
        path: report_path.clone(),
        source,
    })?;
    files.push(report_path);

    let plots_dir = dir.join(PLOTS_DIR);
    std::fs::create_dir_all(&plots_dir).map_err(|source| ReportError::Write {
        path: plots_dir.clone(),
        source,
    })?;
    if let Some(ranks) = &ranks {
        let svg = plots_dir.join(format!("{RANKS_PLOT}.svg"));
        let png = plots_dir.join(format!("{RANKS_PLOT}.png"));
        cd_plot::draw(ranks, &svg, &png)?;
        files.push(svg);
        files.push(png);
    }
    for job in &plot_jobs {
        let (name, series) = (&job.name, &job.series);
        let all_positive = series
            .iter()
            .flat_map(|s| s.points.iter())
            .all(|p| p.mean > 0.0)
            && series.iter().any(|s| !s.points.is_empty());
        let spec = PlotSpec {
            title: &job.title,
            x_label: job.x_label,
            y_label: &job.y_label,
            series,
            log_y: job.may_log && options.y_scale == YScale::Auto && all_positive,
            width: options.width,
            height: options.height,
        };
        let svg = plots_dir.join(format!("{name}.svg"));
        let png = plots_dir.join(format!("{name}.png"));
        plot::draw(&spec, &svg, &png)?;
        files.push(svg);
        files.push(png);
    }

    // Last: the page embeds the plots just drawn.
    let html_path = dir.join(HTML_REPORT_FILE);
    std::fs::write(&html_path, html::render(dir, &markdown(true))?).map_err(|source| {
        ReportError::Write {
            path: html_path.clone(),
            source,
        }
    })?;
    files.push(html_path);

    Ok(ReportSummary {
        rows,
        total_runs: sweep.runs.len(),
        completed_runs: sweep.completed.len(),
        missing: sweep.missing,
        files,
    })
}

const EVALUATIONS: &str = "evaluations";

/// One plot to draw once everything is read.
struct PlotJob {
    title: String,
    /// File stem under `plots/`.
    name: String,
    x_label: &'static str,
    y_label: String,
    series: Vec<Series>,
    /// A log y axis where every mean is positive (regrets, seconds).
    may_log: bool,
}

impl PlotJob {
    fn new(
        title: &str,
        name: String,
        x_label: &'static str,
        y_label: String,
        series: Vec<Series>,
        may_log: bool,
    ) -> Self {
        Self {
            title: title.to_owned(),
            name,
            x_label,
            y_label,
            series,
            may_log,
        }
    }
}

/// Distinct labels in order of first appearance.
fn ordered_labels(labels: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = HashSet::new();
    labels.filter(|l| seen.insert(l.clone())).collect()
}

fn summary_row(problem: &str, algorithm: &str, traces: &[&Trace]) -> SummaryRow {
    let finals = |f: fn(&load::Step) -> Option<f64>| -> Vec<f64> {
        traces.iter().filter_map(|t| f(t.last())).collect()
    };
    let simple = describe(&finals(|s| s.simple_regret));
    let cumulative = describe(&finals(|s| s.cumulative_regret));
    let best_value = describe(&finals(|s| s.best_value));
    let seconds: Vec<f64> = traces
        .iter()
        .flat_map(|t| t.steps.iter().map(|s| s.seconds))
        .collect();
    SummaryRow {
        problem: problem.to_string(),
        algorithm: algorithm.to_string(),
        runs: traces.len(),
        simple_regret_mean: simple.map(|d| d.mean),
        simple_regret_se: simple.and_then(|d| d.se),
        simple_regret_median: simple.map(|d| d.median),
        cumulative_regret_mean: cumulative.map(|d| d.mean),
        cumulative_regret_se: cumulative.and_then(|d| d.se),
        best_value_mean: best_value.map(|d| d.mean),
        best_value_se: best_value.and_then(|d| d.se),
        evals_mean: mean(&finals(|s| Some(s.evals as f64))),
        seconds_per_iter_mean: mean(&seconds),
        best: false,
        tied: false,
    }
}

/// How a problem's best algorithm was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BestBy {
    SimpleRegret,
    CumulativeRegret,
    BestValue(Sense),
    /// No regrets and no recorded sense (or no completed run): no best algorithm.
    Undecided,
}

impl BestBy {
    /// A row's mean final metric and its standard error.
    fn key(self, row: &SummaryRow) -> Option<(f64, Option<f64>)> {
        match self {
            BestBy::SimpleRegret => row.simple_regret_mean.map(|m| (m, row.simple_regret_se)),
            BestBy::CumulativeRegret => row
                .cumulative_regret_mean
                .map(|m| (m, row.cumulative_regret_se)),
            BestBy::BestValue(_) => row.best_value_mean.map(|m| (m, row.best_value_se)),
            BestBy::Undecided => None,
        }
    }

    /// The metric in words, as the report's sentences name it.
    pub fn what(self) -> &'static str {
        match self {
            BestBy::SimpleRegret => "simple regret",
            BestBy::CumulativeRegret => "cumulative regret",
            BestBy::BestValue(_) | BestBy::Undecided => "best value",
        }
    }

    /// The name of `comparisons.csv`'s `metric` column.
    pub fn column(self) -> &'static str {
        match self {
            BestBy::SimpleRegret => Metric::SimpleRegret.as_str(),
            BestBy::CumulativeRegret => Metric::CumulativeRegret.as_str(),
            BestBy::BestValue(_) | BestBy::Undecided => Metric::BestValue.as_str(),
        }
    }
}

/// Marks the row of the best mean final `metric` (lowest regret; where no row has that regret,
/// or the metric is the best value, the best mean best value in `sense`; ties of the means go to
/// the first in manifest order), and the rows whose mean lies within one standard error of it
/// ([`within_one_se`]).
fn mark_best(rows: &mut [SummaryRow], sense: Option<Sense>, metric: Metric) -> BestBy {
    let regret = match metric {
        Metric::SimpleRegret => Some(BestBy::SimpleRegret),
        Metric::CumulativeRegret => Some(BestBy::CumulativeRegret),
        Metric::BestValue => None,
    };
    let by = match (regret, sense) {
        (Some(by), _) if rows.iter().any(|r| by.key(r).is_some()) => by,
        (_, Some(sense)) => BestBy::BestValue(sense),
        _ => return BestBy::Undecided,
    };
    let better = |a: f64, b: f64| match by {
        BestBy::BestValue(sense) => sense.is_better(a, b),
        _ => a < b,
    };
    let mut best: Option<(usize, (f64, Option<f64>))> = None;
    for (i, row) in rows.iter().enumerate() {
        if let Some(v) = by.key(row)
            && best.is_none_or(|(_, b)| better(v.0, b.0))
        {
            best = Some((i, v));
        }
    }
    let Some((index, best)) = best else {
        return BestBy::Undecided;
    };
    for (i, row) in rows.iter_mut().enumerate() {
        row.best = i == index;
        row.tied = i != index && by.key(row).is_some_and(|v| within_one_se(v, best));
    }
    by
}

/// A label as a file name: characters outside `[A-Za-z0-9._=-]` become `_` (`_` for an empty
/// label).
pub(crate) fn file_safe(label: &str) -> String {
    let s: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._=-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "_".into() } else { s }
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
