//! `summary.csv`, `comparisons.csv` and `ranks.csv`, and their `-at-time` counterparts (the same
//! columns, at a chosen simulated time); `scores.csv`, `ert.csv` and `runtimes.csv`.

use std::path::Path;

use super::compare::{PairedComparison, Ranks};
use super::ecdf;
use super::model::{RunRuntimes, Section};
use super::scores::Scores;
use super::{
    BestBy, COMPARISON_COLUMNS, ERT_COLUMNS, RUNTIMES_COLUMNS, ReportError, SCORES_COLUMNS,
    SUMMARY_COLUMNS, SummaryRow,
};
use bosweep_core::io::format_number;

/// A CSV number ([`format_number`]); an empty cell where unknown.
pub(crate) fn csv_number(v: Option<f64>) -> String {
    v.map(format_number).unwrap_or_default()
}

/// `summary.csv`'s rank cell: `best`, `tied` (within one standard error of the best) or empty.
fn rank(row: &SummaryRow) -> &'static str {
    match (row.best, row.tied) {
        (true, _) => "best",
        (false, true) => "tied",
        _ => "",
    }
}

/// Writes `records` under `header` as CSV at `path`.
pub(crate) fn write_table<const N: usize>(
    path: &Path,
    header: [&str; N],
    records: impl IntoIterator<Item = [String; N]>,
) -> Result<(), ReportError> {
    let err = |e: csv::Error| ReportError::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    };
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    w.write_record(header).map_err(err)?;
    for record in records {
        w.write_record(record).map_err(err)?;
    }
    w.flush().map_err(|source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    })
}

pub(crate) fn write_comparisons(
    path: &Path,
    comparisons: &[(&PairedComparison, BestBy)],
) -> Result<(), ReportError> {
    write_table(
        path,
        COMPARISON_COLUMNS,
        comparisons.iter().map(|(c, by)| {
            [
                c.problem.clone(),
                c.algorithm.clone(),
                c.best.clone(),
                c.pairs.to_string(),
                csv_number(c.median_difference),
                csv_number(c.test.map(|t| t.w_plus)),
                csv_number(c.test.map(|t| t.statistic)),
                csv_number(c.test.map(|t| t.p_value)),
                csv_number(c.p_holm),
                c.verdict(*by),
                by.column().to_owned(),
            ]
        }),
    )
}

pub(crate) fn write_ranks(path: &Path, ranks: &Ranks) -> Result<(), ReportError> {
    let problems = ranks.problems.len().to_string();
    let cd = csv_number(ranks.critical_difference);
    write_table(
        path,
        [
            "algorithm",
            "average_rank",
            "problems",
            "critical_difference",
        ],
        ranks
            .ranks
            .iter()
            .map(|(a, r)| [a.clone(), format_number(*r), problems.clone(), cd.clone()]),
    )
}

pub(crate) fn write_csv(path: &Path, rows: &[SummaryRow]) -> Result<(), ReportError> {
    write_table(
        path,
        SUMMARY_COLUMNS,
        rows.iter().map(|r| {
            [
                r.problem.clone(),
                r.algorithm.clone(),
                r.runs.to_string(),
                csv_number(r.simple_regret_mean),
                csv_number(r.simple_regret_se),
                csv_number(r.simple_regret_median),
                csv_number(r.cumulative_regret_mean),
                csv_number(r.best_value_mean),
                csv_number(r.evals_mean),
                csv_number(r.seconds_per_iter_mean),
                csv_number(r.best_value_se),
                csv_number(r.cumulative_regret_se),
                rank(r).to_owned(),
                csv_number(r.score_mean),
                csv_number(r.best_evaluated_regret_mean),
                csv_number(r.best_evaluated_regret_se),
                csv_number(r.best_evaluated_regret_median),
                r.infeasible_runs.map(|n| n.to_string()).unwrap_or_default(),
                csv_number(r.first_feasible_median),
            ]
        }),
    )
}

/// `scores.csv`: per algorithm, best mean first, the problems it has a score on, its mean and
/// median score, and the reference it was normalised by.
pub(crate) fn write_scores(path: &Path, scores: &Scores) -> Result<(), ReportError> {
    let reference = scores.reference.join(" ");
    write_table(
        path,
        SCORES_COLUMNS,
        scores.algorithms.iter().map(|a| {
            [
                a.algorithm.clone(),
                a.per_problem.len().to_string(),
                format_number(a.mean),
                format_number(a.median),
                reference.clone(),
            ]
        }),
    )
}

/// `ert.csv`: per problem with known regrets, algorithm and target, the runs, the successes
/// and the expected running time (empty where no run reached the target).
pub(crate) fn write_ert(path: &Path, sections: &[Section]) -> Result<(), ReportError> {
    write_table(
        path,
        ERT_COLUMNS,
        sections.iter().flat_map(|section| {
            section.ert.iter().flat_map(move |(algorithm, erts)| {
                erts.iter().map(move |e| {
                    [
                        section.problem.clone(),
                        algorithm.clone(),
                        format_number(e.target),
                        e.runs.to_string(),
                        e.successes.to_string(),
                        csv_number(e.evaluations),
                    ]
                })
            })
        }),
    )
}

/// `runtimes.csv`: per run, per target of the runtime distribution, its runtime.
pub(crate) fn write_runtimes(path: &Path, runs: &[RunRuntimes]) -> Result<(), ReportError> {
    let targets = ecdf::targets();
    write_table(
        path,
        RUNTIMES_COLUMNS,
        runs.iter().flat_map(|run| {
            targets
                .iter()
                .zip(&run.runtimes)
                .map(move |(target, runtime)| {
                    [
                        run.problem.clone(),
                        run.algorithm.clone(),
                        run.replicate.to_string(),
                        run.evaluations.to_string(),
                        format_number(*target),
                        csv_number(*runtime),
                    ]
                })
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_shortest_and_unknown_empty() {
        assert_eq!(csv_number(None), "");
        assert_eq!(csv_number(Some(0.25)), "0.25");
        assert_eq!(csv_number(Some(1e-9)), "1e-9");
    }
}
