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
//!   final best value and of the final cumulative regret; the rank, `best`, `tied` (within
//!   one standard error of the best in the compared [`Metric`], [`within_one_se`]) or empty;
//!   and the mean normalised score against random search (below); on a constrained problem
//!   (docs/conventions.md, "Constraints"), the runs that evaluated no feasible point (left out
//!   of the means, and ranked after every run that did) and the median evaluations to the
//!   first feasible point.
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
//!   `plots/<problem>-seconds.{svg,png}`: per algorithm the mean over replicates with a ± one
//!   standard error band against evaluations, 1136×757 by default (the width of `report.html`'s
//!   text column). The y axis of regret and seconds is logarithmic where every plotted mean is
//!   positive ([`YScale::Auto`], the default; [`YScale::Linear`] turns that off); best values
//!   are always on a linear axis. Runs of different lengths are aggregated at each `evals` value
//!   over the runs that reached it: simple regret and best value hold from one step to the
//!   next, seconds count at the step's own `evals` only. Against time, a run that has ended
//!   keeps its final value, so that the curve ends on the final mean.
//!   File names are the problem label with characters outside `[A-Za-z0-9._=-]` replaced by `_`
//!   (cut at 100 characters, `-2`, `-3`, … appended where two problems' names coincide).
//! - For a problem of several objectives (docs/guide/multi-objective.md, "Reading the report"):
//!   its curves named for what they show, `plots/<problem>-hv-difference`, `-hypervolume`,
//!   `-hv-difference-time` (and against simulated time, as above) beside `-seconds`; and in
//!   objective space (`final_front`, `fronts`, `front_plot`) `plots/<problem>-front.{svg,png}`,
//!   the final non-dominated set of each algorithm's median run by final hypervolume, and in two
//!   objectives `plots/<problem>-attainment.{svg,png}`, the median, best and worst attainment
//!   surfaces of each algorithm's runs; `report.md` shows both under the curves with captions
//!   naming the median runs.
//! - `plots/runtime-distribution.{svg,png}` ([`RUNTIME_PLOT`]): COCO's empirical cumulative
//!   distribution of runtimes over the problems with a known optimum.
//! - `scores.csv` ([`SCORES_COLUMNS`]) and `plots/normalised-scores.{svg,png}`
//!   ([`SCORES_PLOT`]), where random search (`random`) ran on a problem with a known optimum:
//!   Bayesmark's normalised score, `100 · (1 − r / r̄)` with `r` a run's final simple regret (its
//!   cumulative regret where the report compares those) and `r̄` random search's mean of it on
//!   the problem, per algorithm the mean and median over problems
//!   of its mean score, and their profile (each algorithm's per-problem scores, best first,
//!   below −100 drawn at −100);
//!   `report.md` shows them under the ranks.
//! - `ert.csv` ([`ERT_COLUMNS`]): per problem with a known optimum, algorithm and target Δf
//!   ∈ {10, 0.1, 10⁻³, 10⁻⁵}, COCO's expected running time (the evaluations of every run until
//!   it first reached Δf, or all of them, divided by the runs that reached it; empty where none
//!   did); `report.md` shows it under each problem's paired tests.
//! - Against simulated time, for parallel runs (`batch`, `workers`, `runtime`: every step has a
//!   `finish` on the run's simulated clock): `plots/<problem>-regret-simulated-time.{svg,png}`
//!   (or `-best-value-simulated-time` where the problem's regrets are unknown) where every
//!   completed run of the problem is timed, a run's value at time τ being that of its last step
//!   finished by τ, held after its end, none before its first finish; and
//!   `plots/runtime-distribution-simulated-time.{svg,png}` ([`RUNTIME_SIMULATED_TIME_PLOT`])
//!   where every run it pools is timed, a runtime being the `finish` of the first step whose
//!   simple regret reached the target.
//! - At a chosen simulated time T ([`ReportOptions::time`], `bosweep report --time T`, or the
//!   config's `[report] time`): `summary-at-time.csv` ([`SUMMARY_AT_TIME_FILE`]),
//!   `comparisons-at-time.csv` and `ranks-at-time.csv` (the columns of the final ones), and in
//!   `report.md` a section "At simulated time T" under each problem's table and under the
//!   ranks: the same statistics on every run's trace cut at T (its steps finished by then; a
//!   run with no step by then is left out, and counted). Every completed run must then be timed:
//!   an untimed one is an error naming its trace ([`ReportError::Untimed`]).
//!
//! The report is computed once (`model`: the rows, each problem's best, tests and plotted series,
//! the ranks), then rendered by writers that compute nothing: the CSV tables (`tables`,
//! `long_table`), `report.md` (`markdown`), the plots (`plot`, `cd_plot`, `front_plot`) and
//! `report.html` (`html`).
//!
//! Everything is read and checked before anything is written: a missing manifest, a malformed
//! trace (the error names the file and line) or a sweep without any completed run writes nothing.

pub mod archive;
mod cd_plot;
pub(crate) mod compare;
mod curves;
mod ecdf;
mod error;
mod final_front;
mod front_plot;
mod fronts;
pub(crate) mod html;
pub(crate) mod load;
mod long_table;
pub(crate) mod markdown;
mod model;
mod plot;
mod scores;
mod steps;
mod summary;
pub(crate) mod tables;
mod text;

use std::path::{Path, PathBuf};

pub use crate::config::Metric;
pub use error::ReportError;
pub use long_table::STEPS_COLUMNS;
pub(crate) use steps::read_run;
pub use steps::{RunSteps, read_steps};

pub(crate) use summary::BestBy;
pub use summary::{SummaryRow, within_one_se};

use crate::RunSpec;
use load::Sweep;
use model::ReportModel;
use plot::PlotSpec;

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
/// The normalised scores' profile in the plots' directory (`.svg`, `.png`).
pub const SCORES_PLOT: &str = "normalised-scores";
/// The normalised scores across problems: one row per algorithm.
pub const SCORES_FILE: &str = "scores.csv";
/// The columns of [`SCORES_FILE`], in order.
pub const SCORES_COLUMNS: [&str; 5] = [
    "algorithm",
    "problems",
    "mean_score",
    "median_score",
    "reference",
];
/// The expected running times: one row per problem, algorithm and target.
pub const ERT_FILE: &str = "ert.csv";
/// The columns of [`ERT_FILE`], in order.
pub const ERT_COLUMNS: [&str; 6] = ["problem", "algorithm", "target", "runs", "successes", "ert"];
/// Each run's runtimes to the runtime distribution's targets: one row per run and target.
pub const RUNTIMES_FILE: &str = "runtimes.csv";
/// The columns of [`RUNTIMES_FILE`], in order: the run, the evaluations it spent, the target
/// Δf and the evaluations until its best evaluated point reached it (empty where it never did).
pub const RUNTIMES_COLUMNS: [&str; 6] = [
    "problem",
    "algorithm",
    "replicate",
    "evaluations",
    "target",
    "runtime",
];
/// The runtime distribution against simulated time, in the plots' directory.
pub const RUNTIME_SIMULATED_TIME_PLOT: &str = "runtime-distribution-simulated-time";
/// `summary.csv`'s columns at the chosen simulated time ([`ReportOptions::time`]).
pub const SUMMARY_AT_TIME_FILE: &str = "summary-at-time.csv";
/// `comparisons.csv`'s columns at the chosen simulated time.
pub const COMPARISONS_AT_TIME_FILE: &str = "comparisons-at-time.csv";
/// `ranks.csv`'s columns at the chosen simulated time.
pub const RANKS_AT_TIME_FILE: &str = "ranks-at-time.csv";
/// The plots' directory inside the sweep directory.
pub const PLOTS_DIR: &str = "plots";

/// The columns of `summary.csv`, in order.
pub const SUMMARY_COLUMNS: [&str; 19] = [
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
    "score_mean",
    "best_evaluated_regret_mean",
    "best_evaluated_regret_se",
    "best_evaluated_regret_median",
    "infeasible_runs",
    "first_feasible_median",
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
#[derive(Clone, Debug, PartialEq)]
pub struct ReportOptions {
    /// Linear or logarithmic y axes.
    pub y_scale: YScale,
    /// Plot size in pixels (also the SVG's).
    pub width: u32,
    /// Plot height in pixels.
    pub height: u32,
    /// The metric of the comparisons; `None` takes the sweep config's `[report] metric`, and
    /// where it has none each problem's default ([`Metric::default_for`]).
    pub metric: Option<Metric>,
    /// A simulated time at which the report also compares the algorithms (each run's steps
    /// finished by then); `None` takes the sweep config's `[report] time`, and no such
    /// comparison where it has none. Every completed run must then be timed.
    pub time: Option<f64>,
    /// Archive sets to report beside the sweep ([`archive::open_set`]: a set's directory or a
    /// shipped set's name): their runs of the sweep's problems join the tables, tests, ranks,
    /// scores and runtime distributions as algorithms named `<label> [<set>]`. Not with a
    /// simulated time. Empty takes the sweep config's `[report] archive`, and none where it has
    /// none.
    pub archives: Vec<String>,
}

impl Default for ReportOptions {
    fn default() -> Self {
        Self {
            y_scale: YScale::Auto,
            width: html::CONTENT_WIDTH,
            height: html::CONTENT_WIDTH * 2 / 3,
            metric: None,
            time: None,
            archives: Vec::new(),
        }
    }
}

/// What [`write_report`] found and wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportSummary {
    /// The rows of `summary.csv`, in its order.
    pub rows: Vec<SummaryRow>,
    /// Runs the manifest lists.
    pub total_runs: usize,
    /// Runs with a completed trace, the ones reported on.
    pub completed_runs: usize,
    /// The manifest's runs without a trace, in manifest order.
    pub missing: Vec<RunSpec>,
    /// Every file written: `summary.csv`, `report.md`, the tables, the plots (SVG and PNG), then
    /// `report.html`.
    pub files: Vec<PathBuf>,
}

/// Writes `summary.csv`, `report.md` and `plots/` into the sweep directory `dir`, with the
/// default options (log-scale y where possible, plots as wide as `report.html`'s text column).
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
        Some(metric) => Some(metric),
        None => load::configured_metric(dir, sweep.config.as_deref())?,
    };
    let time = match options.time {
        Some(time) => Some(time),
        None => load::configured_time(dir, sweep.config.as_deref())?,
    };
    let given = if options.archives.is_empty() {
        load::configured_archives(dir, sweep.config.as_deref())?
    } else {
        options.archives.clone()
    };
    if let (Some(_), Some(set)) = (time, given.first()) {
        return Err(ReportError::Archive(Box::new(
            archive::ArchiveError::AtTime { set: set.clone() },
        )));
    }
    if time.is_some()
        && let Some(untimed) = sweep.completed.iter().find(|c| !c.trace.is_timed())
    {
        return Err(ReportError::Untimed {
            path: crate::Manifest::trace_path(dir, &untimed.spec),
        });
    }
    let sets = archive::open_sets(&given).map_err(|e| ReportError::Archive(Box::new(e)))?;
    // The sweep is copied only to put archived runs beside its own.
    let (merged, archives) = if sets.is_empty() {
        (None, Vec::new())
    } else {
        let (merged, uses) =
            archive::beside(&sweep, &sets).map_err(|e| ReportError::Archive(Box::new(e)))?;
        (Some(merged), uses)
    };
    let model = model::build(merged.as_ref().unwrap_or(&sweep), metric, time);

    // Everything is read and checked: write.
    let mut files = write_tables(dir, &sweep, &model)?;
    let report = markdown::render(dir, &sweep, &model, &archives, false);
    files.push(write_text(dir.join(REPORT_FILE), &report)?);
    files.extend(draw_plots(&dir.join(PLOTS_DIR), &model, options)?);
    // Last: the page embeds the plots just drawn.
    let page = html::render(dir, &markdown::render(dir, &sweep, &model, &archives, true))?;
    files.push(write_text(dir.join(HTML_REPORT_FILE), &page)?);

    Ok(ReportSummary {
        rows: model.rows,
        total_runs: sweep.runs.len(),
        completed_runs: sweep.completed.len(),
        missing: sweep.missing,
        files,
    })
}

/// Writes `summary.csv`, the long tables, `comparisons.csv` and `ranks.csv` (where there are
/// ranks), and at a chosen simulated time their `-at-time` counterparts, into `dir`, and
/// returns their paths.
fn write_tables(
    dir: &Path,
    sweep: &Sweep,
    model: &ReportModel,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut files = Vec::new();
    let summary_path = dir.join(SUMMARY_FILE);
    tables::write_csv(&summary_path, &model.rows)?;
    files.push(summary_path);
    let steps_path = dir.join(STEPS_FILE);
    long_table::write_steps(&steps_path, &sweep.steps)?;
    files.push(steps_path);
    let parquet_path = dir.join(STEPS_PARQUET_FILE);
    long_table::write_steps_parquet(&parquet_path, &sweep.steps)?;
    files.push(parquet_path);
    let comparisons = model
        .sections
        .iter()
        .flat_map(|s| s.comparisons.iter().map(|c| (c, s.best_by)));
    files.extend(write_comparisons_and_ranks(
        dir,
        [COMPARISONS_FILE, RANKS_FILE],
        comparisons,
        model.ranks.as_ref(),
    )?);
    if let Some(scores) = &model.scores {
        let path = dir.join(SCORES_FILE);
        tables::write_scores(&path, scores)?;
        files.push(path);
    }
    if model.sections.iter().any(|s| !s.ert.is_empty()) {
        let path = dir.join(ERT_FILE);
        tables::write_ert(&path, &model.sections)?;
        files.push(path);
    }
    if !model.runtimes.is_empty() {
        let path = dir.join(RUNTIMES_FILE);
        tables::write_runtimes(&path, &model.runtimes)?;
        files.push(path);
    }
    if let Some(at_time) = &model.at_time {
        let path = dir.join(SUMMARY_AT_TIME_FILE);
        tables::write_csv(&path, &at_time.rows)?;
        files.push(path);
        let comparisons = model.sections.iter().flat_map(|s| {
            s.at_time
                .iter()
                .flat_map(|t| t.comparisons.iter().map(|c| (c, t.best_by)))
        });
        files.extend(write_comparisons_and_ranks(
            dir,
            [COMPARISONS_AT_TIME_FILE, RANKS_AT_TIME_FILE],
            comparisons,
            at_time.ranks.as_ref(),
        )?);
    }
    Ok(files)
}

/// Writes the paired tests and the ranks (where there are ranks) into `dir` under `names`
/// (comparisons, ranks), and returns their paths.
fn write_comparisons_and_ranks<'a>(
    dir: &Path,
    names: [&str; 2],
    comparisons: impl Iterator<Item = (&'a compare::PairedComparison, BestBy)>,
    ranks: Option<&compare::Ranks>,
) -> Result<Vec<PathBuf>, ReportError> {
    let comparisons_path = dir.join(names[0]);
    tables::write_comparisons(&comparisons_path, &comparisons.collect::<Vec<_>>())?;
    let mut files = vec![comparisons_path];
    if let Some(ranks) = ranks {
        let ranks_path = dir.join(names[1]);
        tables::write_ranks(&ranks_path, ranks)?;
        files.push(ranks_path);
    }
    Ok(files)
}

/// Draws the critical-difference diagram, every problem's plots and the runtime distribution
/// into `plots_dir` (SVG and PNG each), and returns their paths.
fn draw_plots(
    plots_dir: &Path,
    model: &ReportModel,
    options: &ReportOptions,
) -> Result<Vec<PathBuf>, ReportError> {
    std::fs::create_dir_all(plots_dir).map_err(|source| ReportError::Write {
        path: plots_dir.to_path_buf(),
        source,
    })?;
    let mut files = Vec::new();
    if let Some(ranks) = &model.ranks {
        let svg = plots_dir.join(format!("{RANKS_PLOT}.svg"));
        let png = plots_dir.join(format!("{RANKS_PLOT}.png"));
        cd_plot::draw(ranks, &svg, &png)?;
        files.push(svg);
        files.push(png);
    }
    let plots = model
        .sections
        .iter()
        .flat_map(|s| &s.plots)
        .chain(&model.runtime)
        .chain(&model.runtime_simulated_time)
        .chain(&model.score_plot);
    for plot in plots {
        let series = &plot.series;
        let all_positive = series
            .iter()
            .flat_map(|s| s.points.iter())
            .all(|p| p.mean > 0.0)
            && series.iter().any(|s| !s.points.is_empty());
        let spec = PlotSpec {
            title: &plot.title,
            x_label: plot.x.label(),
            x_counts: plot.x.counts(),
            y_label: &plot.y_label,
            series,
            log_y: plot.may_log && options.y_scale == YScale::Auto && all_positive,
            fixed_y: plot.fixed_y,
            width: options.width,
            height: options.height,
        };
        let svg = plots_dir.join(format!("{}.svg", plot.name));
        let png = plots_dir.join(format!("{}.png", plot.name));
        plot::draw(&spec, &svg, &png)?;
        files.push(svg);
        files.push(png);
    }
    // Problems of several objectives, in objective space.
    let size = (options.width, options.height);
    for fronts in model.sections.iter().filter_map(|s| s.fronts.as_ref()) {
        let figures: [(Option<&str>, FrontDrawer); 2] = [
            (fronts.front_figure(), front_plot::draw_fronts),
            (fronts.attainment_figure(), front_plot::draw_attainment),
        ];
        for (name, draw) in figures {
            if let Some(name) = name {
                let svg = plots_dir.join(format!("{name}.svg"));
                let png = plots_dir.join(format!("{name}.png"));
                draw(fronts, &svg, &png, size)?;
                files.push(svg);
                files.push(png);
            }
        }
    }
    Ok(files)
}

/// How [`front_plot`] draws one of a problem's figures in objective space.
type FrontDrawer = fn(&fronts::Fronts, &Path, &Path, (u32, u32)) -> Result<(), ReportError>;

/// Writes `text` to `path`, and returns the path.
fn write_text(path: PathBuf, text: &str) -> Result<PathBuf, ReportError> {
    match std::fs::write(&path, text) {
        Ok(()) => Ok(path),
        Err(source) => Err(ReportError::Write { path, source }),
    }
}

/// The distinct items of `items` in order of first appearance (labels, keys).
pub(crate) fn first_appearances<T: Eq + std::hash::Hash + Clone>(
    items: impl Iterator<Item = T>,
) -> Vec<T> {
    let mut seen = std::collections::HashSet::new();
    items.filter(|item| seen.insert(item.clone())).collect()
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
