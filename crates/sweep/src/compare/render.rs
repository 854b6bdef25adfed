//! The comparison's files — `compare.md`, `compare.csv`, `compare-pooled.csv` and `compare.html`
//! (the Markdown as one self-contained page, the report's style) — and the short summary the
//! command line prints.
//! They render a [`Comparison`] and compute nothing.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bosweep_core::io::format_number;

use super::{
    COMPARE_COLUMNS, COMPARE_CSV_FILE, COMPARE_HTML_FILE, COMPARE_MD_FILE, CompareRow, Comparison,
    POOLED_COLUMNS, POOLED_CSV_FILE, PooledRow, Side, Unpaired, Verdict,
};
use crate::report::ReportError;
use crate::report::archive::ArchiveMeta;
use crate::report::compare::ALPHA;
use crate::report::html;
use crate::report::markdown::md_number as shown;
use crate::report::tables::{csv_number, write_table};

/// Writes the three files into `out` (created where missing) and returns their paths.
pub(super) fn write_all(comparison: &Comparison, out: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Write { path, source }
    };
    std::fs::create_dir_all(out).map_err(write_err(out))?;
    let markdown_path = out.join(COMPARE_MD_FILE);
    let markdown = markdown(comparison);
    std::fs::write(&markdown_path, &markdown).map_err(write_err(&markdown_path))?;
    let csv_path = out.join(COMPARE_CSV_FILE);
    write_table(
        &csv_path,
        COMPARE_COLUMNS,
        comparison.rows.iter().map(record),
    )?;
    let pooled_path = out.join(POOLED_CSV_FILE);
    write_table(
        &pooled_path,
        POOLED_COLUMNS,
        comparison.pooled.iter().map(pooled_record),
    )?;
    let html_path = out.join(COMPARE_HTML_FILE);
    let page = html::render(out, &markdown)?;
    std::fs::write(&html_path, page).map_err(write_err(&html_path))?;
    Ok(vec![markdown_path, csv_path, pooled_path, html_path])
}

/// One row of `compare-pooled.csv`.
fn pooled_record(r: &PooledRow) -> [String; POOLED_COLUMNS.len()] {
    [
        r.algorithm.clone(),
        format_number(r.budget_fraction),
        r.problems.to_string(),
        r.pairs.to_string(),
        r.problems_better.to_string(),
        r.problems_worse.to_string(),
        csv_number(r.test.map(|t| t.w_plus)),
        csv_number(r.w_minus),
        csv_number(r.test.map(|t| t.p_value)),
        csv_number(r.p_holm),
        r.verdict.to_string(),
    ]
}

/// One row of `compare.csv`.
fn record(r: &CompareRow) -> [String; COMPARE_COLUMNS.len()] {
    let w_minus = r.test.map(|t| (t.n * (t.n + 1)) as f64 / 2.0 - t.w_plus);
    [
        r.algorithm.clone(),
        r.problem.clone(),
        format_number(r.budget_fraction),
        r.evals.to_string(),
        r.metric.to_owned(),
        r.pairs.to_string(),
        csv_number(r.median_a),
        csv_number(r.median_b),
        csv_number(r.median_difference),
        csv_number(r.rank_biserial),
        csv_number(r.test.map(|t| t.w_plus)),
        csv_number(w_minus),
        csv_number(r.test.map(|t| t.p_value)),
        csv_number(r.p_holm),
        r.verdict.to_string(),
        matches!(r.verdict, Verdict::Better | Verdict::Worse).to_string(),
    ]
}

/// Who lacks an unpaired run, in words.
fn lacking(u: &Unpaired) -> &'static str {
    match (u.missing_from, u.planned) {
        (Side::A, true) => "not completed in A",
        (Side::A, false) => "not in A",
        (Side::B, true) => "not completed in B",
        (Side::B, false) => "not in B",
    }
}

/// `compare.md`.
fn markdown(c: &Comparison) -> String {
    let mut md = String::new();
    let name = |p: &Path| p.display().to_string();
    let _ = writeln!(
        md,
        "# Comparison of {} against {}\n",
        name(&c.b),
        name(&c.a)
    );
    let side = |path: &Path, set: &Option<ArchiveMeta>| match set {
        Some(meta) => format!(
            "archive set `{}`: {} (its runs keep their values at each quarter of the budget)",
            meta.reference(),
            meta.description.trim().trim_end_matches('.')
        ),
        None => format!("`{}`", name(path)),
    };
    let _ = writeln!(md, "- A (baseline): {}", side(&c.a, &c.a_archive));
    let _ = writeln!(md, "- B (change): {}", side(&c.b, &c.b_archive));
    let _ = writeln!(
        md,
        "- Metric: {} (each row names its own: without a choice, the best evaluated point's \
         regret where the runs observe their objective itself, else the recommendation's; a \
         problem whose regrets are unknown: its best value, in its sense); differences are B − A.",
        c.metric_name()
    );
    let _ = writeln!(
        md,
        "- {} paired runs: one algorithm on one problem and replicate in both, sharing the \
         initial design and the budget.",
        c.pairs
    );
    let _ = writeln!(
        md,
        "- Paired Wilcoxon signed-rank test, Holm-corrected over each algorithm's problems at each \
         budget; verdicts at α = {ALPHA}. Rank-biserial: (W+ − W−)/(W+ + W−) of B − A, −1 where \
         B is below A in every pair."
    );
    if !c.only_in_a.is_empty() {
        let _ = writeln!(md, "- Only in A, not compared: {}", c.only_in_a.join(", "));
    }
    if !c.only_in_b.is_empty() {
        let _ = writeln!(md, "- Only in B, not compared: {}", c.only_in_b.join(", "));
    }
    if !c.pooled.is_empty() {
        let _ = writeln!(md, "\n## Over all problems\n");
        let _ = writeln!(
            md,
            "Each algorithm's problems pooled: the stratified signed-rank test, each problem's \
             paired improvements ranked within the problem and the ranks of B's improvements \
             added over the problems, so that every pair counts and no problem's scale \
             dominates; Holm-corrected over the algorithms at each budget. Problems better and \
             worse: those whose median B − A favours B, or A.\n"
        );
        let _ = writeln!(
            md,
            "| algorithm | budget | problems | pairs | better on | worse on | W+ | W− | p | \
             p (Holm) | verdict |"
        );
        let _ = writeln!(md, "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|:--|");
        for r in &c.pooled {
            let _ = writeln!(
                md,
                "| {} | {}% | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                r.algorithm,
                format_number(r.budget_fraction * 100.0),
                r.problems,
                r.pairs,
                r.problems_better,
                r.problems_worse,
                shown(r.test.map(|t| t.w_plus)),
                shown(r.w_minus),
                shown(r.test.map(|t| t.p_value)),
                shown(r.p_holm),
                emphasised(&r.verdict),
            );
        }
    }
    let mut algorithm = None;
    for r in &c.rows {
        if algorithm != Some(&r.algorithm) {
            algorithm = Some(&r.algorithm);
            let _ = writeln!(md, "\n## {}\n", r.algorithm);
            let _ = writeln!(
                md,
                "| problem | budget | evals | pairs | median A | median B | median B − A | \
                 rank-biserial | p | p (Holm) | verdict |"
            );
            let _ = writeln!(md, "|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|:--|");
        }
        let _ = writeln!(
            md,
            "| {} | {}% | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.problem,
            format_number(r.budget_fraction * 100.0),
            r.evals,
            r.pairs,
            shown(r.median_a),
            shown(r.median_b),
            shown(r.median_difference),
            shown(r.rank_biserial),
            shown(r.test.map(|t| t.p_value)),
            shown(r.p_holm),
            emphasised(&r.verdict),
        );
    }
    if !c.unpaired.is_empty() {
        let _ = writeln!(md, "\n## Runs without a partner\n");
        let _ = writeln!(
            md,
            "{} runs of algorithms in both have no completed partner and are left out.\n",
            c.unpaired.len()
        );
        let _ = writeln!(md, "| algorithm | problem | replicate | why |");
        let _ = writeln!(md, "|:--|:--|--:|:--|");
        for u in &c.unpaired {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                u.algorithm,
                u.problem,
                u.replicate,
                lacking(u)
            );
        }
    }
    md
}

/// Significant verdicts in bold.
fn emphasised(v: &Verdict) -> String {
    match v {
        Verdict::Better | Verdict::Worse => format!("**{v}**"),
        _ => v.to_string(),
    }
}

/// A few lines for the terminal: the pairs, what was left out, and each algorithm's verdict over
/// all its problems and per problem at the final budget.
pub fn summary_text(c: &Comparison) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{} paired runs, metric {} (B − A; B = {}, A = {})",
        c.pairs,
        c.metric_name(),
        c.b.display(),
        c.a.display()
    );
    if !c.unpaired.is_empty() {
        // A count per reason; the runs themselves are listed in compare.md (against an archive
        // set of many problems they run to hundreds).
        let mut reasons: Vec<(&str, usize)> = Vec::new();
        for u in &c.unpaired {
            match reasons.iter_mut().find(|(r, _)| *r == lacking(u)) {
                Some((_, n)) => *n += 1,
                None => reasons.push((lacking(u), 1)),
            }
        }
        let counted: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
        let _ = writeln!(
            text,
            "{} run{} without a partner, left out ({}; listed in {COMPARE_MD_FILE})",
            c.unpaired.len(),
            if c.unpaired.len() == 1 { "" } else { "s" },
            counted.join(", ")
        );
    }
    for (side, only) in [("A", &c.only_in_a), ("B", &c.only_in_b)] {
        if !only.is_empty() {
            let _ = writeln!(text, "only in {side}, not compared: {}", only.join(", "));
        }
    }
    for r in c.pooled.iter().filter(|r| r.budget_fraction == 1.0) {
        let _ = writeln!(
            text,
            "{} over {} problem{} ({} pair{}): {} (p Holm {})",
            r.algorithm,
            r.problems,
            if r.problems == 1 { "" } else { "s" },
            r.pairs,
            if r.pairs == 1 { "" } else { "s" },
            r.verdict,
            shown(r.p_holm)
        );
    }
    for r in c.rows.iter().filter(|r| r.budget_fraction == 1.0) {
        let _ = writeln!(
            text,
            "{} on {}: {} (median B − A {}, p Holm {})",
            r.algorithm,
            r.problem,
            r.verdict,
            shown(r.median_difference),
            shown(r.p_holm)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_show_four_significant_digits_as_the_report_does() {
        let s = |x| shown(Some(x));
        assert_eq!(s(0.031_25), "0.03125");
        assert_eq!(s(-3.5), "-3.5");
        assert_eq!(s(1234.4), "1234");
        assert_eq!(s(1.0e-5), "1.000e-5");
        assert_eq!(shown(None), "–");
    }
}
