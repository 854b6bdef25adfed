//! `report.md`: the config, the ranks across problems, and per problem its summary table with
//! the best algorithm in bold and its ties in italics, the paired tests, at a chosen simulated
//! time a short table and the paired tests then, the expected running times, the plots and the
//! missing runs; the normalised scores across problems.

use std::path::Path;

use super::archive::ArchiveUse;
use super::compare::{ALPHA, PairedComparison, Ranks, cliques};
use super::front_plot::reference_text;
use super::fronts::Fronts;
use super::load::{Sweep, relative_trace_path};
use super::model::{ReportModel, SectionAtTime};
use super::scores::{Ert, Scores};
use super::{
    BestBy, ERT_FILE, PLOTS_DIR, RANKS_PLOT, RUNTIME_PLOT, RUNTIME_SIMULATED_TIME_PLOT,
    RUNTIMES_FILE, SCORES_FILE, SCORES_PLOT, SummaryRow,
};
use crate::CONFIG_FILE;
use crate::placement::ENGINE_CALLS_KEY;
use bosweep_core::io::format_number;

/// A table number: four significant digits, scientific outside [1e-3, 1e5); "–" when unknown.
pub(crate) fn md_number(v: Option<f64>) -> String {
    let Some(v) = v else { return "–".into() };
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if (1e-3..1e5).contains(&a) {
        let decimals = (3 - a.log10().floor() as i32).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        format!("{v:.3e}")
    }
}

/// A label as inline code that is safe inside a table cell.
fn code(label: &str) -> String {
    format!("`{}`", label.replace('`', "'").replace('|', "\\|"))
}

/// A fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat(longest.max(2) + 1)
}

/// `Devices: `cpu (…)` (78 runs), `gpu (…)` (2 runs).`: the device each completed run's trace
/// header names, most runs first, so that a sweep resumed on another device says so.
fn devices_line(sweep: &Sweep) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for run in &sweep.completed {
        let device = run
            .trace
            .device
            .clone()
            .unwrap_or_else(|| "unrecorded".into());
        match counts.iter_mut().find(|(d, _)| *d == device) {
            Some((_, n)) => *n += 1,
            None => counts.push((device, 1)),
        }
    }
    counts.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let listed: Vec<String> = counts
        .iter()
        .map(|(d, n)| format!("{} ({n} run{})", code(d), if *n == 1 { "" } else { "s" }))
        .collect();
    format!("Devices: {}.\n\n", listed.join(", "))
}

/// The engine calls of every step of every completed run that a routed engine placed on (the
/// CPU, the GPU): the sums of the steps' `extra.engine_calls`; `None` where no step has them.
fn routed_calls(sweep: &Sweep) -> Option<(u64, u64)> {
    let counts: Vec<&serde_json::Value> = sweep
        .steps
        .iter()
        .flat_map(|run| &run.steps)
        .filter_map(|step| step.extra.get(ENGINE_CALLS_KEY))
        .collect();
    let sum = |key: &str| counts.iter().filter_map(|c| c[key].as_u64()).sum();
    (!counts.is_empty()).then(|| (sum("cpu"), sum("gpu")))
}

/// `report.md` for the sweep in `dir`: with `every_plot_shown` every plot of a problem as an
/// image (`report.html`, where they are embedded), else only its first, the others linked.
pub(crate) fn render(
    dir: &Path,
    sweep: &Sweep,
    model: &ReportModel,
    archives: &[ArchiveUse],
    every_plot_shown: bool,
) -> String {
    let (rows, sections) = (&model.rows, &model.sections);
    let mut out = String::new();
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());
    out.push_str(&format!("# Sweep report: {name}\n\n"));
    out.push_str(&format!(
        "{} of {} runs completed ({} missing). Written by bosweep {}.\n\n\
         The tables hold the columns of `summary.csv`, over each pair's completed runs, all \
         taken at each run's last step: two final regrets, each answering its own question — \
         the **best evaluated regret**, of the best point the run evaluated (its noise-free \
         objective; COCO's measure, which peers report and on which runtimes are counted), and \
         the **recommendation's regret** (the trace's simple regret), of the point the method \
         would deploy, which GP methods pick from their model and may be worse — with their \
         standard errors (s.e.) and the recommendation's median; the mean final cumulative \
         regret, best value (in the problem's own sense) and evaluations; and the seconds per \
         iteration (model fitting + acquisition) averaged over every step. The metric that picks \
         the best is in bold in its column: `[report] metric`, else the best evaluated regret on \
         problems whose runs observe their objective itself (noise-free, no context, no time) and \
         the recommendation's regret on the others. A dash marks a value that is unknown \
         (regrets where the optimum is unknown) or undefined. The best algorithm is in bold; \
         algorithms whose mean is within one standard error of the best's \
         (|m − m_best| ≤ √(se² + se_best²): not distinguishable at this many replicates) are in \
         italics.\n\n",
        sweep.completed.len(),
        sweep.runs.len(),
        sweep.missing.len(),
        env!("CARGO_PKG_VERSION"),
    ));
    out.push_str(&devices_line(sweep));
    if let Some((cpu, gpu)) = routed_calls(sweep) {
        out.push_str(&format!(
            "Engine calls routed by size (`--route auto`): {cpu} on the CPU backend, {gpu} on \
             the GPU.\n\n"
        ));
    }
    if !archives.is_empty() {
        out.push_str(&archives_section(archives));
    }
    out.push_str(&format!("## Config (`{CONFIG_FILE}`)\n\n"));
    match sweep.config.as_deref() {
        Some(text) => {
            let f = fence(text);
            out.push_str(&format!("{f}toml\n{}", text));
            if !text.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!("{f}\n\n"));
        }
        None => out.push_str(&format!("(no `{CONFIG_FILE}` in the sweep directory)\n\n")),
    }

    let ranks_then = model
        .at_time
        .as_ref()
        .and_then(|t| Some((t.time, t.ranks.as_ref()?)));
    match (&model.ranks, ranks_then) {
        (Some(ranks), then) => out.push_str(&ranks_section(ranks, then)),
        (None, Some((time, then))) => {
            out.push_str("## Across problems\n\n");
            out.push_str(&ranks_at_time(time, then));
        }
        (None, None) => {}
    }
    if model.runtime.is_some() {
        out.push_str(&format!(
            "## Runtime distribution\n\n\
             COCO's empirical cumulative distribution of runtimes: for every run of a problem \
             with a known optimum and each of 51 precision targets Δf = 10², 10^1.8, …, 10⁻⁸, \
             the evaluations until the best point evaluated first reached Δf (its noise-free \
             f − f_opt, whatever the method recommends: COCO's runtime); per algorithm, the \
             fraction of (run, target) pairs reached within each number of evaluations, pooled \
             over the problems. Each run's runtimes are in `{RUNTIMES_FILE}`.\n\n\
             ![runtime distribution]({PLOTS_DIR}/{RUNTIME_PLOT}.png)\n\n"
        ));
    }
    if model.runtime_simulated_time.is_some() {
        out.push_str(&format!(
            "The same against simulated time (every run is timed): a runtime is the simulated \
             time at which the evaluation that first reached the target finished.\n\n\
             ![runtime distribution vs simulated time]\
             ({PLOTS_DIR}/{RUNTIME_SIMULATED_TIME_PLOT}.png)\n\n"
        ));
    }
    if let Some(scores) = &model.scores {
        out.push_str(&scores_section(scores));
    }
    for section in sections {
        let title = section
            .title
            .as_ref()
            .map_or_else(String::new, |t| format!(": {t}"));
        out.push_str(&format!("## Problem {}{title}\n\n", code(&section.problem)));
        if let Some(m) = section.objectives {
            out.push_str(&format!(
                "A problem of {m} objectives: its regret is the hypervolume difference HV_max − HV \
                 of the non-dominated points evaluated so far (the log hypervolume difference on \
                 a plot's log scale, and Δf below), its best value their hypervolume (maximised).\n\n"
            ));
        }
        let section_rows = &rows[section.first_row..section.first_row + section.rows];
        let several = section.objectives.is_some();
        let metric = format!("final {}", metric_words(section.best_by, several));
        out.push_str(&summary_table(
            section_rows,
            section.best_by,
            Columns::All,
            several,
        ));
        out.push_str(&best_line(section_rows, section.best_by, &metric, several));
        out.push_str(&feasibility_table(section_rows));
        out.push_str(&comparisons_table(
            &section.comparisons,
            section.best_by,
            &metric,
        ));
        if let (Some(at_time), Some(then)) = (&model.at_time, &section.at_time) {
            let then_rows = &at_time.rows[section.first_row..section.first_row + section.rows];
            out.push_str(&at_time_section(at_time.time, then_rows, then, several));
        }
        if !section.ert.is_empty() {
            out.push_str(&ert_table(&section.ert));
        }
        if section.plots.is_empty() {
            out.push_str("No plots: no run of this problem has completed.\n\n");
        } else {
            let links: Vec<String> = section
                .plots
                .iter()
                .map(|plot| {
                    let (what, stem) = (&plot.what, &plot.name);
                    format!("{what} [PNG]({PLOTS_DIR}/{stem}.png) · [SVG]({PLOTS_DIR}/{stem}.svg)")
                })
                .collect();
            out.push_str(&format!("Plots: {}\n\n", links.join("; ")));
            let shown = if every_plot_shown {
                section.plots.len()
            } else {
                1
            };
            for plot in &section.plots[..shown] {
                out.push_str(&format!(
                    "![{}]({PLOTS_DIR}/{}.png)\n\n",
                    plot.what, plot.name
                ));
                if let Some(caption) = plot.caption {
                    out.push_str(&format!("{caption}\n\n"));
                }
            }
        }
        if let Some(fronts) = &section.fronts {
            out.push_str(&objective_space(fronts));
        }
        if !section.missing.is_empty() {
            let list: Vec<String> = section
                .missing
                .iter()
                .map(|r| {
                    format!(
                        "{} replicate {} (`{}`)",
                        code(&r.algorithm.display_label()),
                        r.replicate,
                        relative_trace_path(r).display()
                    )
                })
                .collect();
            out.push_str(&format!(
                "Missing runs ({}): {}\n\n",
                section.missing.len(),
                list.join("; ")
            ));
        }
    }
    out
}

/// A problem of several objectives' figures in objective space, each with the caption that says
/// how to read it: which run is each algorithm's median one, and what the attainment surfaces
/// are.
fn objective_space(fronts: &Fronts) -> String {
    let mut out = String::from("### In objective space\n\n");
    let m = fronts.m();
    let view = match m {
        2 => "Each axis is one objective in its own sense".to_owned(),
        3 | 4 => format!(
            "The {m} objectives are shown as their pairwise projections, each axis one objective \
             in its own sense"
        ),
        _ => format!(
            "Of the {m} objectives the f1–f2 projection is shown, each axis in its objective's \
             own sense"
        ),
    };
    let mut marks = Vec::new();
    if fronts.true_front.is_some() {
        marks.push("the true front's sample in grey");
    }
    let reference;
    if let Some(r) = &fronts.reference_point {
        reference = if fronts.reference_shown {
            "the reference point as a black cross".to_owned()
        } else {
            format!(
                "the reference point {} is outside the view, far from the points",
                reference_text(r, &fronts.senses)
            )
        };
        marks.push(reference.as_str());
    }
    let marks = if marks.is_empty() {
        String::new()
    } else {
        format!("; {}", marks.join("; "))
    };
    match fronts.front_figure() {
        Some(name) => {
            let runs: Vec<String> = fronts
                .medians
                .iter()
                .map(|r| {
                    format!(
                        "{} replicate {} of {} (final hypervolume {})",
                        code(&r.algorithm),
                        r.replicate,
                        r.runs,
                        md_number(Some(r.hypervolume))
                    )
                })
                .collect();
            out.push_str(&format!(
                "![final non-dominated sets of the median runs]({PLOTS_DIR}/{name}.png)\n\n\
                 The final non-dominated set of each algorithm's median run: of its runs, the one \
                 whose final hypervolume is the median (the lower of the two middle ones for an \
                 even number of runs), a typical run rather than the best. Median runs: {}. \
                 {view}{marks}. [SVG]({PLOTS_DIR}/{name}.svg)\n\n",
                runs.join("; ")
            ));
        }
        None => out.push_str(
            "No final fronts are drawn: the runs have no hypervolume (no reference point) to \
             choose each algorithm's median run by.\n\n",
        ),
    }
    if let Some(name) = fronts.attainment_figure() {
        let runs: Vec<String> = fronts
            .attainment
            .iter()
            .map(|a| {
                format!(
                    "{} {} run{} (median k = {})",
                    code(&a.algorithm),
                    a.runs,
                    if a.runs == 1 { "" } else { "s" },
                    a.median_level
                )
            })
            .collect();
        out.push_str(&format!(
            "![attainment surfaces]({PLOTS_DIR}/{name}.png)\n\n\
             The empirical attainment surfaces of each algorithm's final non-dominated sets over \
             its r runs (Fonseca, Grunert da Fonseca & Hall 2001): the k-surface bounds the \
             region of objective space that at least k of the runs reached (a point of it is \
             dominated or equalled by a point of k runs' sets). Thick: the median surface, k = \
             ⌈r/2⌉, which half the runs attain; thin: k = 1, the best any run reached, and k = r, \
             what every run reached. {}{marks}. Runs: {}. [SVG]({PLOTS_DIR}/{name}.svg)\n\n",
            "Each axis is one objective in its own sense",
            runs.join("; ")
        ));
    }
    out
}

/// The archive sets beside the sweep: which numbers are theirs, where they come from, and
/// whether their runs share the sweep's initial designs.
fn archives_section(archives: &[ArchiveUse]) -> String {
    let mut out = String::from(
        "## Archived results beside this sweep\n\n\
         The algorithms named `label [set]` were not run by this sweep: their numbers come from \
         the archive set named, which keeps each run's final values, its values at each quarter \
         of the budget and its first evaluation to each precision target. They join the tables, \
         paired tests, ranks, normalised scores, ERT and runtime distribution; their curves are \
         not plotted, and their seconds per iteration are the set's own, measured on its \
         device.\n\n\
         | set | version | commit | device | created | runs used | problems | designs shared |\n\
         |---|--:|---|---|---|--:|--:|--:|\n",
    );
    for a in archives {
        let m = &a.meta;
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} of {} |\n",
            code(&m.name),
            m.version,
            code(&m.commit),
            code(&m.device),
            m.created,
            a.runs,
            a.problems.len(),
            a.shared_designs,
            a.runs
        ));
    }
    out.push('\n');
    for a in archives {
        out.push_str(&format!(
            "{} ({}): {} Made by `{}` with bosweep {}.",
            code(&a.meta.name),
            a.origin,
            a.meta.description.trim(),
            a.meta.command,
            a.meta.bosweep_version
        ));
        if a.other_budget > 0 {
            out.push_str(&format!(
                " {} of its runs on this sweep's problems are left out: their budget is not \
                 this sweep's.",
                a.other_budget
            ));
        }
        if a.shared_designs < a.runs {
            out.push_str(&format!(
                " Only {} of its {} runs share this sweep's initial design (same `seed` and \
                 `init` in the config): they join the tables, ranks and scores, but the paired \
                 tests leave the others out, having no partner of the same design.",
                a.shared_designs, a.runs
            ));
        }
        out.push_str("\n\n");
    }
    out
}

/// On a constrained problem, each algorithm's runs without a feasible point and its median
/// evaluations to the first feasible one, with what they mean for the table above; empty on an
/// unconstrained problem.
fn feasibility_table(rows: &[SummaryRow]) -> String {
    if rows.iter().all(|r| r.infeasible_runs.is_none()) {
        return String::new();
    }
    let mut out = String::from(
        "A constrained problem: values and regrets are those of feasible points only. A run \
         that evaluated no feasible point has none, is left out of the means above and ranks \
         after every run that did (the best is chosen among the algorithms with the fewest such \
         runs, and paired tests count it as the worse of its pair).\n\n\
         | algorithm | runs without a feasible point | evaluations to the first feasible point \
         (median) |\n|---|--:|--:|\n",
    );
    for row in rows {
        out.push_str(&format!(
            "| {} | {} of {} | {} |\n",
            code(&row.algorithm),
            row.infeasible_runs.unwrap_or(0),
            row.runs,
            md_number(row.first_feasible_median)
        ));
    }
    out.push('\n');
    out
}

/// Which columns of the summary a problem's table shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Columns {
    /// Every column of the final table.
    All,
    /// The short table at a simulated time: no median, no seconds per iteration.
    Short,
}

/// A problem's summary rows as a table, the best algorithm in bold (and the metric that picked
/// it), its ties in italics.
fn summary_table(rows: &[SummaryRow], best_by: BestBy, columns: Columns, several: bool) -> String {
    let all = columns == Columns::All;
    let mut out = if several {
        several_objectives_header(all)
    } else if all {
        "| algorithm | runs | best evaluated regret (mean) | s.e. | recommendation's regret \
         (mean) | s.e. | median | cumulative regret (mean) | best value (mean) | evaluations \
         (mean) | seconds / iteration |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
            .to_owned()
    } else {
        "| algorithm | runs | best evaluated regret (mean) | s.e. | recommendation's regret \
         (mean) | s.e. | cumulative regret (mean) | best value (mean) | evaluations (mean) |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|\n"
            .to_owned()
    };
    for row in rows {
        let bold = |s: String| match (row.best, row.tied) {
            (true, _) => format!("**{s}**"),
            (false, true) => format!("*{s}*"),
            _ => s,
        };
        // The metric that picked the best is in bold.
        let cell = |v: Option<f64>, of: BestBy| {
            if best_by == of {
                bold(md_number(v))
            } else {
                md_number(v)
            }
        };
        let best_value = match best_by {
            BestBy::BestValue(_) => bold(md_number(row.best_value_mean)),
            _ => md_number(row.best_value_mean),
        };
        let mut cells = vec![
            bold(code(&row.algorithm)),
            row.runs.to_string(),
            cell(row.best_evaluated_regret_mean, BestBy::BestEvaluatedRegret),
            md_number(row.best_evaluated_regret_se),
            cell(row.simple_regret_mean, BestBy::SimpleRegret),
            md_number(row.simple_regret_se),
        ];
        if all {
            cells.push(md_number(row.simple_regret_median));
        }
        // Several objectives have no cumulative regret: their column is left out.
        if !several {
            cells.push(cell(row.cumulative_regret_mean, BestBy::CumulativeRegret));
        }
        cells.extend([best_value, md_number(row.evals_mean)]);
        if all {
            cells.push(md_number(row.seconds_per_iter_mean));
        }
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out.push('\n');
    out
}

/// The header of a summary table of a problem of several objectives: the same columns, named
/// for what they hold there (both regrets are the hypervolume difference, the best value the
/// hypervolume), but for the cumulative regret, which has no counterpart there.
fn several_objectives_header(all: bool) -> String {
    let (median, seconds) = if all {
        (" median |", " seconds / iteration |")
    } else {
        ("", "")
    };
    let columns = 8 + 2 * usize::from(all);
    format!(
        "| algorithm | runs | hypervolume difference, best evaluated (mean) | s.e. | hypervolume \
         difference, recommended front (mean) | s.e. |{median} hypervolume (mean) | evaluations \
         (mean) |{seconds}\n|---|{}\n",
        "--:|".repeat(columns - 1)
    )
}

/// The metric `best_by` in words, as a problem's sentences name it: on several objectives the
/// regrets are the hypervolume difference and the best value the hypervolume.
fn metric_words(best_by: BestBy, several: bool) -> &'static str {
    match (several, best_by) {
        (true, BestBy::SimpleRegret | BestBy::BestEvaluatedRegret) => "hypervolume difference",
        (true, BestBy::BestValue(_) | BestBy::Undecided) => "hypervolume",
        _ => best_by.what(),
    }
}

/// The sentence naming a problem's best algorithm (lowest mean `metric`, e.g. "final simple
/// regret") and its ties.
fn best_line(rows: &[SummaryRow], best_by: BestBy, metric: &str, several: bool) -> String {
    let best = rows.iter().find(|r| r.best);
    let tied: Vec<String> = rows
        .iter()
        .filter(|r| r.tied)
        .map(|r| code(&r.algorithm))
        .collect();
    let ties = if tied.is_empty() {
        String::new()
    } else {
        format!(" Within one standard error of it: {}.", tied.join(", "))
    };
    match (best_by, best) {
        (
            BestBy::SimpleRegret | BestBy::BestEvaluatedRegret | BestBy::CumulativeRegret,
            Some(r),
        ) => {
            format!(
                "Best: **{}** (lowest mean {metric}).{ties}\n\n",
                code(&r.algorithm)
            )
        }
        (BestBy::BestValue(_), Some(r)) if several => format!(
            "Best: **{}** (best mean {metric}, maximised; the maximum hypervolume is unknown for \
             this problem).{ties}\n\n",
            code(&r.algorithm),
        ),
        (BestBy::BestValue(sense), Some(r)) => format!(
            "Best: **{}** (best mean {metric}, {}; regrets are unknown for this problem).{ties}\n\n",
            code(&r.algorithm),
            sense.as_str()
        ),
        _ => "Best: undecided (no regrets, and the traces record no optimisation sense).\n\n"
            .to_owned(),
    }
}

/// A problem's statistics at the chosen simulated time: the short table, its best and the
/// paired tests.
fn at_time_section(time: f64, rows: &[SummaryRow], then: &SectionAtTime, several: bool) -> String {
    let time = md_number(Some(time));
    let absent = match then.absent {
        0 => String::new(),
        1 => " 1 completed run had no step by then and is left out.".to_owned(),
        n => format!(" {n} completed runs had no step by then and are left out."),
    };
    let metric = format!(
        "{} at simulated time {time}",
        metric_words(then.best_by, several)
    );
    let mut out = format!(
        "### At simulated time {time}\n\n\
         Each run as it stood at simulated time {time}: its steps finished by then.{absent}\n\n"
    );
    out.push_str(&summary_table(rows, then.best_by, Columns::Short, several));
    out.push_str(&best_line(rows, then.best_by, &metric, several));
    out.push_str(&comparisons_table(&then.comparisons, then.best_by, &metric));
    out
}

/// The paired tests of a problem against its best algorithm on `metric` (e.g. "final simple
/// regret"), as a table.
fn comparisons_table(comparisons: &[PairedComparison], best_by: BestBy, metric: &str) -> String {
    let Some(first) = comparisons.first() else {
        return String::new();
    };
    let mut out = format!(
        "Paired tests against {} (Wilcoxon signed-rank on the {metric}, runs paired by \
         replicate, which share their initial design; p Holm-adjusted over this problem's {} \
         comparison{}; verdicts at α = {ALPHA}):\n\n\
         | algorithm | pairs | median difference (algorithm − best) | W+ | p | p (Holm) | verdict |\n\
         |---|--:|--:|--:|--:|--:|---|\n",
        code(&first.best),
        comparisons.len(),
        if comparisons.len() == 1 { "" } else { "s" },
    );
    for c in comparisons {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            code(&c.algorithm),
            c.pairs,
            md_number(c.median_difference),
            md_number(c.test.map(|t| t.w_plus)),
            md_number(c.test.map(|t| t.p_value)),
            md_number(c.p_holm),
            c.verdict(best_by),
        ));
    }
    out.push('\n');
    if let Some(fewest) = comparisons
        .iter()
        .filter(|c| c.pairs < c.pairs_needed)
        .map(|c| c.pairs)
        .min()
    {
        let needed = first.pairs_needed;
        out.push_str(&format!(
            "Too few pairs for a verdict: over n pairs the exact test's smallest p is 2/2ⁿ, and \
             Holm's correction over {} comparison{} asks for p < {}, which takes {needed} pairs; \
             the fewest here are {fewest}. Run at least {needed} replicates (`replicates = \
             {needed}`).\n\n",
            comparisons.len(),
            if comparisons.len() == 1 { "" } else { "s" },
            format_number(ALPHA / comparisons.len() as f64),
        ));
    }
    out
}

/// The average ranks across problems, the critical difference and its diagram; with ranks at
/// the chosen simulated time, those below.
fn ranks_section(ranks: &Ranks, at_time: Option<(f64, &Ranks)>) -> String {
    let mut out = format!(
        "## Across problems\n\n\
         Average rank of each algorithm's mean final metric (each problem's metric is the one \
         in bold in its table) over the {} problem{} on which every ranked algorithm has one; \
         1 is best, ties share their average rank.\n\n",
        ranks.problems.len(),
        if ranks.problems.len() == 1 { "" } else { "s" },
    );
    out.push_str(&ranks_table(ranks));
    out.push_str(&format!(
        "![average ranks]({PLOTS_DIR}/{RANKS_PLOT}.png)\n\n"
    ));
    if let Some((time, then)) = at_time {
        out.push_str(&ranks_at_time(time, then));
    }
    out
}

/// Bayesmark's normalised scores across problems, and their profile.
fn scores_section(scores: &Scores) -> String {
    let reference: Vec<String> = scores.reference.iter().map(|r| code(r)).collect();
    let mut out = format!(
        "## Normalised scores\n\n\
         Bayesmark's normalised score of a run: 100 · (1 − r / r̄), r its final {} and r̄ random \
         search's ({}) mean of it on the same problem; 100 is the \
         optimum, 0 random search's mean, below 0 worse than it. Per algorithm the mean over \
         its runs of a problem (`summary.csv`'s `score_mean`), then the mean and median over \
         the problems where random search ran and left a positive regret (`{SCORES_FILE}`).\n\n\
         | algorithm | problems | mean score | median score |\n|---|--:|--:|--:|\n",
        scores.regret,
        reference.join(", ")
    );
    for a in &scores.algorithms {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            code(&a.algorithm),
            a.per_problem.len(),
            md_number(Some(a.mean)),
            md_number(Some(a.median)),
        ));
    }
    out.push_str(&format!(
        "\n![normalised score profile]({PLOTS_DIR}/{SCORES_PLOT}.png)\n\n"
    ));
    out
}

/// A problem's expected running times: evaluations per success to each target, with the
/// successes out of the runs.
fn ert_table(ert: &[(String, Vec<Ert>)]) -> String {
    let Some((_, first)) = ert.first() else {
        return String::new();
    };
    let targets: Vec<String> = first
        .iter()
        .map(|e| format!("Δf ≤ {}", format_number(e.target)))
        .collect();
    let mut out = format!(
        "Expected running time (COCO's ERT: the evaluations of every run until its best \
         evaluated point first reached the target, or all of them, per run that reached it; ∞ \
         where none did), with the runs that reached the target (`{ERT_FILE}`):\n\n\
         | algorithm | {} |\n|---|{}\n",
        targets.join(" | "),
        "--:|".repeat(targets.len())
    );
    for (algorithm, erts) in ert {
        let cells: Vec<String> = erts
            .iter()
            .map(|e| {
                let value = e.evaluations.map_or("∞".to_owned(), |v| md_number(Some(v)));
                format!("{value} ({}/{})", e.successes, e.runs)
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            code(algorithm),
            cells.join(" | ")
        ));
    }
    out.push('\n');
    out
}

/// The average ranks at the chosen simulated time (no diagram).
fn ranks_at_time(time: f64, ranks: &Ranks) -> String {
    let time = md_number(Some(time));
    let mut out = format!(
        "### At simulated time {time}\n\n\
         The same ranks on each algorithm's mean metric at simulated time {time}, over the {} \
         problem{} on which every ranked algorithm has one then.\n\n",
        ranks.problems.len(),
        if ranks.problems.len() == 1 { "" } else { "s" },
    );
    out.push_str(&ranks_table(ranks));
    out
}

/// The average ranks as a table, and the critical difference with the groups it does not
/// separate.
fn ranks_table(ranks: &Ranks) -> String {
    let mut out = "| algorithm | average rank |\n|---|--:|\n".to_owned();
    for (algorithm, rank) in &ranks.ranks {
        out.push_str(&format!(
            "| {} | {} |\n",
            code(algorithm),
            md_number(Some(*rank))
        ));
    }
    out.push('\n');
    match ranks.critical_difference {
        Some(cd) => {
            let groups: Vec<String> = cliques(&ranks.ranks, cd)
                .iter()
                .map(|&(i, j)| {
                    let names: Vec<String> =
                        ranks.ranks[i..=j].iter().map(|(a, _)| code(a)).collect();
                    names.join(", ")
                })
                .collect();
            let groups = if groups.is_empty() {
                "every pair of average ranks differs by more than it".to_owned()
            } else {
                format!("not separated: {}", groups.join("; "))
            };
            out.push_str(&format!(
                "Nemenyi critical difference at α = 0.05: {} ({groups}). With few problems \
                 the test is weak: read the per-problem paired tests first.\n\n",
                md_number(Some(cd))
            ));
        }
        None => {
            out.push_str("No critical difference: the Nemenyi table covers 2 to 25 algorithms.\n\n")
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_compactly() {
        assert_eq!(md_number(None), "–");
        assert_eq!(md_number(Some(0.0)), "0");
        assert_eq!(md_number(Some(0.11547005)), "0.1155");
        assert_eq!(md_number(Some(3.6666667)), "3.667");
        assert_eq!(md_number(Some(40.0)), "40");
        assert_eq!(md_number(Some(12345.6)), "12346");
        assert_eq!(md_number(Some(-2.5e-7)), "-2.500e-7");
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("plain"), "```");
        assert_eq!(code("a|b"), "`a\\|b`");
    }
}
