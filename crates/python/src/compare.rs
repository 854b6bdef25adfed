//! `bosweep.compare`: two sweep directories compared with paired statistics, as
//! `bosweep compare A B` does; the files written, the rows returned.

use std::path::PathBuf;

use bosweep_sweep::compare::{
    CompareError, CompareOptions, DEFAULT_BUDGETS, PooledRow, compare_sweeps, default_out_dir,
    write_comparison,
};
use bosweep_sweep::report::Metric;
use bosweep_sweep::report::archive::ArchiveMeta;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::errors::{invalid, to_py};

/// Compares `a` (the baseline) and `b` (the change), each a sweep directory, an archive set's
/// directory or the name of a shipped archive set, and writes `compare.md`, `compare.html`,
/// `compare.csv` and `compare-pooled.csv` into `out` (default `b/compare-vs-<a's name>`;
/// required where `b` is an archive set). Returns `files`, `pairs`, `metric`, `a_archive` and
/// `b_archive` (the set's name, version, commit and device where that side is an archive set,
/// else `None`), `only_in_a`, `only_in_b`, `unpaired` (one dict per run left without a
/// partner), `rows` (one dict per algorithm × problem × budget fraction, the columns of
/// `compare.csv`), `worse` (the rows where B is significantly worse at the final budget),
/// `pooled` (one dict per algorithm × budget fraction over all its problems, the columns of
/// `compare-pooled.csv`) and `pooled_worse` (those where B is significantly worse at the final
/// budget).
#[pyfunction]
#[pyo3(signature = (a, b, metric=None, out=None, budgets=None))]
pub fn compare<'py>(
    py: Python<'py>,
    a: PathBuf,
    b: PathBuf,
    metric: Option<&str>,
    out: Option<PathBuf>,
    budgets: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let metric = metric
        .map(|m| {
            m.parse::<Metric>()
                .map_err(|e| invalid(format!("metric: {e}")))
        })
        .transpose()?;
    let options = CompareOptions {
        metric,
        budgets: budgets.unwrap_or_else(|| DEFAULT_BUDGETS.to_vec()),
    };
    let out = match out {
        Some(out) => out,
        None => default_out_dir(&a, &b).ok_or_else(|| {
            invalid(format!(
                "out: {} is an archive set; give the directory for the comparison's files",
                b.display()
            ))
        })?,
    };
    let (comparison, files) = py
        .detach(|| {
            let comparison = compare_sweeps(&a, &b, &options)?;
            let files = write_comparison(&comparison, &out)?;
            Ok::<_, CompareError>((comparison, files))
        })
        .map_err(to_py)?;
    let dict = PyDict::new(py);
    dict.set_item("files", files)?;
    dict.set_item("pairs", comparison.pairs)?;
    dict.set_item("metric", comparison.metric_name())?;
    let reference = |set: &Option<ArchiveMeta>| set.as_ref().map(ArchiveMeta::reference);
    dict.set_item("a_archive", reference(&comparison.a_archive))?;
    dict.set_item("b_archive", reference(&comparison.b_archive))?;
    dict.set_item("only_in_a", &comparison.only_in_a)?;
    dict.set_item("only_in_b", &comparison.only_in_b)?;
    let unpaired = comparison
        .unpaired
        .iter()
        .map(|u| {
            let d = PyDict::new(py);
            d.set_item("algorithm", &u.algorithm)?;
            d.set_item("problem", &u.problem)?;
            d.set_item("replicate", u.replicate)?;
            d.set_item("missing_from", format!("{:?}", u.missing_from))?;
            d.set_item("planned", u.planned)?;
            Ok(d)
        })
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("unpaired", unpaired)?;
    let row = |r: &bosweep_sweep::compare::CompareRow| -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("algorithm", &r.algorithm)?;
        d.set_item("problem", &r.problem)?;
        d.set_item("budget_fraction", r.budget_fraction)?;
        d.set_item("evals", r.evals)?;
        d.set_item("metric", r.metric)?;
        d.set_item("pairs", r.pairs)?;
        d.set_item("median_a", r.median_a)?;
        d.set_item("median_b", r.median_b)?;
        d.set_item("median_difference", r.median_difference)?;
        d.set_item("rank_biserial", r.rank_biserial)?;
        d.set_item("w_plus", r.test.map(|t| t.w_plus))?;
        d.set_item("p_value", r.test.map(|t| t.p_value))?;
        d.set_item("p_holm", r.p_holm)?;
        d.set_item("verdict", r.verdict.to_string())?;
        Ok(d)
    };
    let rows = comparison
        .rows
        .iter()
        .map(row)
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("rows", rows)?;
    let worse = comparison
        .worse_at_final_budget()
        .into_iter()
        .map(row)
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("worse", worse)?;
    let pooled_row = |r: &PooledRow| -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("algorithm", &r.algorithm)?;
        d.set_item("budget_fraction", r.budget_fraction)?;
        d.set_item("problems", r.problems)?;
        d.set_item("pairs", r.pairs)?;
        d.set_item("problems_better", r.problems_better)?;
        d.set_item("problems_worse", r.problems_worse)?;
        d.set_item("w_plus", r.test.map(|t| t.w_plus))?;
        d.set_item("w_minus", r.w_minus)?;
        d.set_item("p_value", r.test.map(|t| t.p_value))?;
        d.set_item("p_holm", r.p_holm)?;
        d.set_item("verdict", r.verdict.to_string())?;
        Ok(d)
    };
    let pooled = comparison
        .pooled
        .iter()
        .map(pooled_row)
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("pooled", pooled)?;
    let pooled_worse = comparison
        .pooled_worse_at_final_budget()
        .into_iter()
        .map(pooled_row)
        .collect::<PyResult<Vec<_>>>()?;
    dict.set_item("pooled_worse", pooled_worse)?;
    Ok(dict)
}
