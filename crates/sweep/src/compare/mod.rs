//! Comparing two sweep directories — a baseline A and a change B — with paired statistics: did
//! the change help?
//!
//! [`compare_sweeps`] reads both directories as the report does, pairs their runs
//! (`pairing`: algorithms by display label, runs by problem and replicate, the pair sharing
//! its initial design and budget) and, per algorithm in both, per problem and per budget
//! fraction ([`CompareOptions::budgets`]), tests the differences B − A of the metric by the
//! Wilcoxon signed-rank test (`paired`), Holm-corrected over the algorithm's problems at that
//! budget (Demšar 2006); and per algorithm and budget fraction, over all its problems at once,
//! by the stratified signed-rank test (`pooled`), Holm-corrected over the algorithms.
//! [`write_comparison`] writes `compare.md`, `compare.html`, `compare.csv` ([`COMPARE_COLUMNS`])
//! and `compare-pooled.csv` ([`POOLED_COLUMNS`]).

mod error;
mod paired;
mod pairing;
mod pooled;
mod render;

use std::fmt;
use std::path::{Path, PathBuf};

use bosweep_core::stats::{SignedRank, holm, signed_rank_pairs_needed};

pub use error::{CompareError, UnpairableRuns};
pub use pairing::{Side, Unpaired};
pub use pooled::PooledRow;
pub use render::summary_text;

use crate::report::archive::{self, ArchiveMeta};
use crate::report::compare::{ALPHA, metric as value_of};
use crate::report::load::{self, CompletedRun, Step, Sweep};
use crate::report::{BestBy, Metric};
use paired::{PairedStats, paired_stats};
use pairing::Cell;

/// The Markdown comparison's file name in the output directory.
pub const COMPARE_MD_FILE: &str = "compare.md";
/// `compare.md` as one self-contained web page.
pub const COMPARE_HTML_FILE: &str = "compare.html";
/// One row per algorithm × problem × budget ([`COMPARE_COLUMNS`]).
pub const COMPARE_CSV_FILE: &str = "compare.csv";
/// One row per algorithm × budget, its problems pooled ([`POOLED_COLUMNS`]).
pub const POOLED_CSV_FILE: &str = "compare-pooled.csv";

/// The columns of `compare-pooled.csv`, in order.
pub const POOLED_COLUMNS: [&str; 11] = [
    "algorithm",
    "budget_fraction",
    "problems",
    "pairs",
    "problems_better",
    "problems_worse",
    "w_plus",
    "w_minus",
    "p_value",
    "p_holm",
    "verdict",
];
/// What [`Comparison::metric_name`] says without a chosen metric.
pub const PER_PROBLEM: &str = "each problem's default";

/// The budget fractions compared by default.
pub const DEFAULT_BUDGETS: [f64; 4] = [0.25, 0.5, 0.75, 1.0];

/// The columns of `compare.csv`, in order.
pub const COMPARE_COLUMNS: [&str; 16] = [
    "algorithm",
    "problem",
    "budget_fraction",
    "evals",
    "metric",
    "pairs",
    "median_a",
    "median_b",
    "median_difference",
    "rank_biserial",
    "w_plus",
    "w_minus",
    "p_value",
    "p_holm",
    "verdict",
    "significant",
];

/// What [`compare_sweeps`] compares.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareOptions {
    /// The metric; `None` takes B's config `[report] metric`, else each problem's default
    /// ([`Metric::default_for`], read from B's runs)
    /// (a problem whose regrets are unknown is compared on its best value).
    pub metric: Option<Metric>,
    /// Fractions of each run's budget, each in (0, 1]: a run's value at fraction f is the
    /// metric of its last step with `evals ≤ f × budget`; at 1, its last step (the report's
    /// final metric). 1 is always compared (`--fail-if-worse` reads it).
    pub budgets: Vec<f64>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        Self {
            metric: None,
            budgets: DEFAULT_BUDGETS.to_vec(),
        }
    }
}

/// What the comparison concludes about one algorithm on one problem at one budget, at α = 0.05
/// after Holm's correction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// B is significantly better (lower regret; the better best value in the problem's sense).
    Better,
    /// B is significantly worse.
    Worse,
    /// Enough pairs, but no significant difference (every pair equal included).
    NotDistinguishable,
    /// Too few pairs for the test ever to reach p < α.
    CannotConclude {
        /// Pairs there are.
        pairs: usize,
        /// Pairs the test needs at least.
        needed: usize,
    },
    /// The problem has neither the chosen regret nor a recorded sense: nothing to compare.
    UnknownMetric,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Better => f.write_str("B better"),
            Verdict::Worse => f.write_str("B worse"),
            Verdict::NotDistinguishable => f.write_str("not distinguishable"),
            Verdict::CannotConclude { pairs, needed } => write!(
                f,
                "cannot conclude: {pairs} pair{} (at least {needed} needed for p < {ALPHA})",
                if *pairs == 1 { "" } else { "s" }
            ),
            Verdict::UnknownMetric => f.write_str("cannot conclude: the metric is unknown"),
        }
    }
}

/// One algorithm on one problem at one budget fraction.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRow {
    /// The algorithm's display label.
    pub algorithm: String,
    /// The problem's label.
    pub problem: String,
    /// The fraction of the budget.
    pub budget_fraction: f64,
    /// The evaluations it stands for (the budget of the first pair times the fraction, rounded
    /// down).
    pub evals: usize,
    /// The metric compared, as `compare.csv` names it (`best-evaluated-regret`, …).
    pub metric: &'static str,
    /// Replicates completed in both with a value at this budget.
    pub pairs: usize,
    /// Median of A's values.
    pub median_a: Option<f64>,
    /// Median of B's values.
    pub median_b: Option<f64>,
    /// Median of the paired differences B − A.
    pub median_difference: Option<f64>,
    /// The matched-pairs rank-biserial correlation (W+ − W−)/(W+ + W−) of B − A; `None` where
    /// every pair is equal.
    pub rank_biserial: Option<f64>,
    /// The signed-rank test of B − A; `None` where every pair is equal (or there is none).
    pub test: Option<SignedRank>,
    /// Holm-adjusted over the algorithm's problems at this budget fraction.
    pub p_holm: Option<f64>,
    /// What it concludes.
    pub verdict: Verdict,
}

/// Two sweeps compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The baseline directory.
    pub a: PathBuf,
    /// The changed directory.
    pub b: PathBuf,
    /// The metric asked for (a problem without its regrets is compared on its best value);
    /// `None`: each problem's default ([`Metric::default_for`]).
    pub metric: Option<Metric>,
    /// The budget fractions compared, ascending, ending at 1.
    pub budgets: Vec<f64>,
    /// Per algorithm in both (A's order), per problem, per budget fraction.
    pub rows: Vec<CompareRow>,
    /// Per algorithm in both, per budget fraction: its problems pooled ([`PooledRow`]).
    pub pooled: Vec<PooledRow>,
    /// Paired runs (algorithm × problem × replicate completed in both).
    pub pairs: usize,
    /// Algorithms of A only, by display label: listed, not compared.
    pub only_in_a: Vec<String>,
    /// Algorithms of B only.
    pub only_in_b: Vec<String>,
    /// Runs of an algorithm in both with no completed partner, left out.
    pub unpaired: Vec<Unpaired>,
    /// A's description where A is an archive set.
    pub a_archive: Option<ArchiveMeta>,
    /// B's description where B is an archive set.
    pub b_archive: Option<ArchiveMeta>,
}

impl Comparison {
    /// The metric's name, or what stands for it without a choice.
    pub fn metric_name(&self) -> &'static str {
        self.metric.map_or(PER_PROBLEM, Metric::as_str)
    }

    /// The rows at the final budget where B is significantly worse.
    pub fn worse_at_final_budget(&self) -> Vec<&CompareRow> {
        self.rows
            .iter()
            .filter(|r| r.budget_fraction == 1.0 && r.verdict == Verdict::Worse)
            .collect()
    }

    /// The algorithms whose problems, pooled, show B significantly worse at the final budget.
    pub fn pooled_worse_at_final_budget(&self) -> Vec<&PooledRow> {
        self.pooled
            .iter()
            .filter(|r| r.budget_fraction == 1.0 && r.verdict == Verdict::Worse)
            .collect()
    }
}

/// The default output directory: `B/compare-vs-<A's directory name>`; `None` where B is not a
/// directory to write into (an archive set, shipped or in its own directory).
pub fn default_out_dir(a: &Path, b: &Path) -> Option<PathBuf> {
    if !b.is_dir() || archive::is_set_dir(b) {
        return None;
    }
    let name = std::path::absolute(a)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "a".into());
    Some(b.join(format!("compare-vs-{}", crate::report::file_safe(&name))))
}

/// Compares `a` (the baseline) and `b` (the change): each a sweep directory, an archive set's
/// directory or the name of a shipped set ([`archive::open_set`]). Refuses pairs whose initial
/// designs or budgets differ, sides with no run to pair, budget fractions outside (0, 1], and
/// against an archive set, budget fractions other than those it keeps
/// ([`archive::KEPT_FRACTIONS`] and 1).
pub fn compare_sweeps(
    a: &Path,
    b: &Path,
    options: &CompareOptions,
) -> Result<Comparison, CompareError> {
    let budgets = budget_fractions(&options.budgets)?;
    let ((sweep_a, a_archive), (sweep_b, b_archive)) = (read_side(a)?, read_side(b)?);
    for set in a_archive.iter().chain(&b_archive) {
        if let Some(&fraction) = budgets.iter().find(|&&f| !archive::is_kept_fraction(f)) {
            return Err(CompareError::ArchiveBudget {
                set: set.name.clone(),
                fraction,
            });
        }
    }
    let metric = match options.metric {
        Some(metric) => Some(metric),
        None => load::configured_metric(b, sweep_b.config.as_deref()).map_err(|source| {
            CompareError::Read {
                dir: b.to_path_buf(),
                source,
            }
        })?,
    };
    let pairing = pairing::pair((a, &sweep_a), (b, &sweep_b))?;
    let mut rows: Vec<Tested> = pairing
        .cells
        .iter()
        .flat_map(|cell| {
            let by = compared_by(cell, metric);
            budgets.iter().map(move |&f| {
                let (row, values) = row(cell, by, f);
                Tested { row, by, values }
            })
        })
        .collect();
    let pooled = pooled::pool(&rows);
    holm_adjust(&mut rows);
    // Holm's correction over an algorithm's m problems at a budget asks the smallest p for
    // p < α/m, which the exact test's 2/2ⁿ reaches from more pairs the more problems there are.
    let family_size = |row: &CompareRow| {
        rows.iter()
            .filter(|t| {
                t.row.algorithm == row.algorithm
                    && t.row.budget_fraction.to_bits() == row.budget_fraction.to_bits()
                    && t.by != BestBy::Undecided
            })
            .count()
    };
    let needed: Vec<usize> = rows
        .iter()
        .map(|t| signed_rank_pairs_needed(ALPHA / family_size(&t.row).max(1) as f64))
        .collect();
    for (Tested { row, by, .. }, needed) in rows.iter_mut().zip(needed) {
        row.verdict = verdict(row, *by, needed);
    }
    Ok(Comparison {
        a: a.to_path_buf(),
        b: b.to_path_buf(),
        metric,
        budgets,
        pairs: pairing.cells.iter().map(|c| c.pairs.len()).sum(),
        rows: rows.into_iter().map(|t| t.row).collect(),
        pooled,
        only_in_a: pairing.only_in_a,
        only_in_b: pairing.only_in_b,
        unpaired: pairing.unpaired,
        a_archive,
        b_archive,
    })
}

/// One side of a comparison: the sweep in the directory `given`, else the archive set there or
/// of that name, with its description.
fn read_side(given: &Path) -> Result<(Sweep, Option<ArchiveMeta>), CompareError> {
    let is_sweep = given.join(crate::MANIFEST_FILE).is_file();
    if !is_sweep && (archive::is_set_dir(given) || !given.exists()) {
        let set = archive::open_set(&given.to_string_lossy())?;
        let meta = set.meta.clone();
        return Ok((set.into_sweep(), Some(meta)));
    }
    let sweep = load::load_sweep(given).map_err(|source| CompareError::Read {
        dir: given.to_path_buf(),
        source,
    })?;
    Ok((sweep, None))
}

/// Writes `compare.md`, `compare.csv` and `compare.html` into `out` (created where missing) and
/// returns their paths.
pub fn write_comparison(comparison: &Comparison, out: &Path) -> Result<Vec<PathBuf>, CompareError> {
    render::write_all(comparison, out).map_err(CompareError::Write)
}

/// The fractions checked, sorted and deduplicated, 1 added where missing.
fn budget_fractions(given: &[f64]) -> Result<Vec<f64>, CompareError> {
    if let Some(&bad) = given.iter().find(|f| !(**f > 0.0 && **f <= 1.0)) {
        return Err(CompareError::Budget(bad));
    }
    let mut budgets = given.to_vec();
    budgets.push(1.0);
    budgets.sort_by(f64::total_cmp);
    budgets.dedup();
    Ok(budgets)
}

/// How a cell's runs are read: the chosen regret (or, without a choice, the default of B's
/// runs, as B's report chooses) where its runs know it, else the best value in the problem's
/// sense (as the report chooses), else nothing.
fn compared_by(cell: &Cell, metric: Option<Metric>) -> BestBy {
    let metric = metric.unwrap_or_else(|| load::default_metric(cell.pairs.iter().map(|(_, b)| *b)));
    let runs = || cell.pairs.iter().flat_map(|(a, b)| [*a, *b]);
    if let Some(by) = BestBy::regret_of(metric)
        && runs().all(|r| value_of(r.trace.last(), by).is_some())
    {
        return by;
    }
    match runs().find_map(|r| r.trace.sense) {
        Some(sense) => BestBy::BestValue(sense),
        None => BestBy::Undecided,
    }
}

/// `run`'s step at budget fraction `fraction`: its last, at 1; else its last with
/// `evals ≤ fraction × budget` (`None` where the run has none that early).
fn step_at(run: &CompletedRun, fraction: f64) -> Option<&Step> {
    if fraction >= 1.0 {
        return Some(run.trace.last());
    }
    let limit = archive::evals_at(run.spec.budget, fraction);
    run.trace.steps.iter().rev().find(|s| s.evals <= limit)
}

/// A row until its verdict is given: how its cell's runs are read, and its pairs' values
/// (A, B) at its budget fraction.
pub(super) struct Tested {
    pub row: CompareRow,
    pub by: BestBy,
    pub values: Vec<(f64, f64)>,
}

/// A cell's row at budget fraction `fraction`, before Holm's correction and the verdict, and
/// its pairs' values (A, B).
fn row(cell: &Cell, by: BestBy, fraction: f64) -> (CompareRow, Vec<(f64, f64)>) {
    let values: Vec<(f64, f64)> = cell
        .pairs
        .iter()
        .filter_map(|(a, b)| {
            let value = |r| step_at(r, fraction).and_then(|s| value_of(s, by));
            Some((value(a)?, value(b)?))
        })
        .collect();
    let PairedStats {
        pairs,
        median_a,
        median_b,
        median_difference,
        test,
        rank_biserial,
    } = paired_stats(&values);
    let row = CompareRow {
        algorithm: cell.algorithm.clone(),
        problem: cell.problem.clone(),
        budget_fraction: fraction,
        evals: archive::evals_at(cell.pairs[0].0.spec.budget, fraction),
        metric: by.column(),
        pairs,
        median_a,
        median_b,
        median_difference,
        rank_biserial,
        test,
        p_holm: None,
        // Given once every row of the algorithm is tested ([`holm_adjust`]).
        verdict: Verdict::NotDistinguishable,
    };
    (row, values)
}

/// Holm-adjusts each algorithm's p-values over its problems at each budget fraction (the rows
/// with a test and a metric).
fn holm_adjust(rows: &mut [Tested]) {
    let mut families: Vec<(String, u64)> = Vec::new();
    for Tested { row: r, .. } in rows.iter() {
        let key = (r.algorithm.clone(), r.budget_fraction.to_bits());
        if !families.contains(&key) {
            families.push(key);
        }
    }
    for (algorithm, fraction) in families {
        let tested: Vec<usize> = (0..rows.len())
            .filter(|&i| {
                let Tested { row: r, by, .. } = &rows[i];
                r.algorithm == algorithm
                    && r.budget_fraction.to_bits() == fraction
                    && r.test.is_some()
                    && *by != BestBy::Undecided
            })
            .collect();
        let p: Vec<f64> = tested
            .iter()
            .map(|&i| rows[i].row.test.map_or(1.0, |t| t.p_value))
            .collect();
        for (&i, adjusted) in tested.iter().zip(holm(&p)) {
            rows[i].row.p_holm = Some(adjusted);
        }
    }
}

/// The verdict of `row`, its runs read `by`, the test needing `needed` pairs.
fn verdict(row: &CompareRow, by: BestBy, needed: usize) -> Verdict {
    if by == BestBy::Undecided {
        return Verdict::UnknownMetric;
    }
    if row.pairs < needed {
        return Verdict::CannotConclude {
            pairs: row.pairs,
            needed,
        };
    }
    match (row.p_holm, row.rank_biserial) {
        (Some(p), Some(r)) if p < ALPHA && r != 0.0 => {
            if (r > 0.0) == by.higher_is_better() {
                Verdict::Better
            } else {
                Verdict::Worse
            }
        }
        _ => Verdict::NotDistinguishable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_problems::Sense;

    /// A row of `pairs` pairs with Holm's p `p_holm` and rank-biserial `r`.
    fn row(pairs: usize, p_holm: f64, r: f64) -> CompareRow {
        CompareRow {
            algorithm: "mine".into(),
            problem: "p".into(),
            budget_fraction: 1.0,
            evals: 10,
            metric: "simple-regret",
            pairs,
            median_a: None,
            median_b: None,
            median_difference: None,
            rank_biserial: Some(r),
            test: None,
            p_holm: Some(p_holm),
            verdict: Verdict::NotDistinguishable,
        }
    }

    #[test]
    fn verdicts_read_the_sign_in_the_problems_sense() {
        let v = |row: &CompareRow, by| verdict(row, by, 6);
        // B − A mostly negative: lower regret is better, a lower maximised value worse.
        assert_eq!(
            v(&row(6, 0.03, -1.0), BestBy::SimpleRegret),
            Verdict::Better
        );
        assert_eq!(
            v(&row(6, 0.03, -1.0), BestBy::BestValue(Sense::Maximize)),
            Verdict::Worse
        );
        assert_eq!(
            v(&row(6, 0.03, 1.0), BestBy::BestValue(Sense::Minimize)),
            Verdict::Worse
        );
        assert_eq!(
            v(&row(6, 0.06, 1.0), BestBy::SimpleRegret),
            Verdict::NotDistinguishable
        );
        assert_eq!(
            v(&row(5, 0.0, 1.0), BestBy::SimpleRegret),
            Verdict::CannotConclude {
                pairs: 5,
                needed: 6
            }
        );
        assert_eq!(
            v(&row(6, 0.03, 1.0), BestBy::Undecided),
            Verdict::UnknownMetric
        );
        assert_eq!(
            Verdict::CannotConclude {
                pairs: 1,
                needed: 6
            }
            .to_string(),
            "cannot conclude: 1 pair (at least 6 needed for p < 0.05)"
        );
    }

    #[test]
    fn budget_fractions_end_at_one_and_refuse_values_outside_the_budget() {
        assert_eq!(
            budget_fractions(&[0.5, 0.25, 0.5]).unwrap(),
            [0.25, 0.5, 1.0]
        );
        assert_eq!(budget_fractions(&[]).unwrap(), [1.0]);
        for bad in [0.0, 1.5, f64::NAN] {
            assert!(matches!(
                budget_fractions(&[bad]),
                Err(CompareError::Budget(_))
            ));
        }
        assert_eq!(archive::evals_at(10, 0.25), 2);
    }

    #[test]
    fn holm_runs_over_each_algorithms_problems_at_one_budget() {
        let tested = |algorithm: &str, fraction: f64, p: f64| {
            let mut r = row(6, 0.0, 1.0);
            r.algorithm = algorithm.into();
            r.budget_fraction = fraction;
            r.p_holm = None;
            r.test = Some(SignedRank {
                n: 6,
                w_plus: 21.0,
                statistic: 0.0,
                p_value: p,
            });
            Tested {
                row: r,
                by: BestBy::SimpleRegret,
                values: Vec::new(),
            }
        };
        let mut rows = vec![
            tested("x", 1.0, 0.01),
            tested("x", 1.0, 0.04),
            tested("x", 0.5, 0.01),
            tested("y", 1.0, 0.02),
        ];
        holm_adjust(&mut rows);
        let p: Vec<f64> = rows.iter().map(|t| t.row.p_holm.unwrap()).collect();
        assert_eq!(p, [0.02, 0.04, 0.01, 0.02]);
    }
}
