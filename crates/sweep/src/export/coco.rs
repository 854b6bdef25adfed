//! A sweep's runs on the problem `bbob` as COCO data, which COCO's post-processing (`cocopp`)
//! reads: one folder per algorithm setting, holding per function a `bbobexp_fF.info` index and
//! `data_fF/bbobexp_fF_DIMd.{dat,tdat}` with one block per run.
//!
//! The layout and lines are those cocoex 2.8.2's `bbob` logger writes (`data_format =
//! 'bbob-new2'`): each block starts with a `%` header naming f_opt, and each row holds the
//! evaluations, the constraint evaluations (0), the best noise-free f − f_opt so far, the
//! measured f, the best measured f and the point. Every evaluated step is a row of both files,
//! where COCO's logger thins them to targets (`.dat`) and evaluation counts (`.tdat`); cocopp
//! reads either. Each run is one trial of its (function, dimension), labelled with its
//! `instance` — replicates of one instance become repeated trials, as in COCO's 2009 setup.
//! [`export_coco`] writes the `bbob-biobj` runs too, through `coco_biobj`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::coco_biobj::{BBOB_BIOBJ, write_biobj};
use super::coco_common::{ExportError, c_exp, folder_name, integer_parameter, write_file};
use crate::report::{ReportError, read_run};
use crate::{MANIFEST_FILE, Manifest, RunSpec};
use bosweep_problems::ParamValue;

/// The problem whose runs are exported.
const BBOB: &str = "bbob";

/// What [`export_coco`] wrote.
#[derive(Debug)]
pub struct CocoExport {
    /// One folder per algorithm setting, the argument `cocopp` takes.
    pub algorithms: Vec<PathBuf>,
    /// The runs written (completed runs on `bbob`).
    pub runs: usize,
    /// One folder per algorithm setting of the `bbob-biobj` runs, under `bbob-biobj/`.
    pub biobj_algorithms: Vec<PathBuf>,
    /// The `bbob-biobj` runs written.
    pub biobj_runs: usize,
}

/// One evaluated step of a trace.
struct Row {
    evals: usize,
    f: f64,
    y: f64,
    x: Vec<f64>,
}

/// One completed run, read and placed.
struct Trial {
    function: usize,
    dim: usize,
    instance: usize,
    fopt: f64,
    rows: Vec<Row>,
}

/// Writes the completed `bbob` runs of the sweep in `sweep_dir` under `out` in COCO's format,
/// and its `bbob-biobj` runs under `out/bbob-biobj` in COCO's bi-objective format. Runs on
/// other problems, and runs without a trace yet, are left out.
pub fn export_coco(sweep_dir: &Path, out: &Path) -> Result<CocoExport, ExportError> {
    let manifest = Manifest::read(sweep_dir).map_err(|source| ReportError::Manifest {
        path: sweep_dir.join(MANIFEST_FILE),
        source,
    })?;
    let mut by_algorithm: BTreeMap<String, Vec<Trial>> = BTreeMap::new();
    for spec in manifest.runs.iter().filter(|s| s.problem.name == BBOB) {
        let path = Manifest::trace_path(sweep_dir, spec);
        if path.is_file() {
            let trial = read_trial(spec, &path)?;
            by_algorithm
                .entry(folder_name(&spec.algorithm))
                .or_default()
                .push(trial);
        }
    }
    let (biobj_algorithms, biobj_runs) = write_biobj(sweep_dir, &manifest, &out.join(BBOB_BIOBJ))?;
    if by_algorithm.is_empty() && biobj_runs == 0 {
        return Err(ExportError::NothingToExport {
            dir: sweep_dir.to_path_buf(),
        });
    }
    let mut algorithms = Vec::new();
    let mut runs = 0;
    for (algorithm, trials) in &by_algorithm {
        let folder = out.join(algorithm);
        write_algorithm(&folder, algorithm, trials)?;
        runs += trials.len();
        algorithms.push(folder);
    }
    Ok(CocoExport {
        algorithms,
        runs,
        biobj_algorithms,
        biobj_runs,
    })
}

fn read_trial(spec: &RunSpec, path: &Path) -> Result<Trial, ExportError> {
    let given: Vec<(&str, ParamValue)> = spec
        .problem
        .params
        .iter()
        .map(|(k, v)| (k.as_str(), ParamValue::from(v)))
        .collect();
    let problem = bosweep_problems::build(BBOB, &given).map_err(|e| ExportError::Problem {
        run: spec.key(),
        message: e.to_string(),
    })?;
    let parameter = |name: &str| integer_parameter(problem.as_ref(), name);
    let fopt = problem
        .optimum(1)
        .expect("every bbob instance knows its optimum")
        .value;
    Ok(Trial {
        function: parameter("function"),
        dim: problem.dim(),
        instance: parameter("instance"),
        fopt,
        rows: read_rows(spec, path)?,
    })
}

/// The evaluated steps of `spec`'s trace at `path`.
fn read_rows(spec: &RunSpec, path: &Path) -> Result<Vec<Row>, ExportError> {
    let run = read_run(spec, path)?;
    let finite = |value: Option<f64>, iter: usize, field: &'static str| {
        value.ok_or_else(|| ExportError::NotFinite {
            path: path.to_path_buf(),
            iter,
            field,
        })
    };
    run.steps
        .into_iter()
        .map(|step| {
            Ok(Row {
                evals: step.evals,
                f: finite(step.f, step.iter, "f")?,
                y: finite(step.y, step.iter, "y")?,
                x: step.x,
            })
        })
        .collect()
}

/// The block of one trial in a `.dat`/`.tdat` file, and its final `(evaluations, best Δf)`.
fn block(trial: &Trial) -> (String, usize, f64) {
    let mut text = format!(
        "% f evaluations | g evaluations | best noise-free fitness - Fopt ({}) + sum g_i+ | measured fitness | best measured fitness or single-digit g-values | x1 | x2...\n",
        c_exp(trial.fopt, 12)
    );
    let mut best_f = f64::INFINITY;
    let mut best_y = f64::INFINITY;
    for row in &trial.rows {
        best_f = best_f.min(row.f);
        best_y = best_y.min(row.y);
        let _ = write!(
            text,
            "{} 0 {} {} {}",
            row.evals,
            c_exp(best_f - trial.fopt, 9),
            c_exp(row.y, 9),
            c_exp(best_y, 9)
        );
        for x in &row.x {
            let _ = write!(text, " {}", c_exp(*x, 4));
        }
        text.push('\n');
    }
    let last = trial.rows.last().expect("a trial has rows").evals;
    (text, last, best_f - trial.fopt)
}

/// One algorithm's folder: per function an `.info` file with a three-line entry per dimension
/// (attributes, a comment, the data file and `instance:evaluations|final Δf` per trial).
fn write_algorithm(folder: &Path, algorithm: &str, trials: &[Trial]) -> Result<(), ExportError> {
    let mut groups: BTreeMap<(usize, usize), Vec<&Trial>> = BTreeMap::new();
    for trial in trials {
        groups
            .entry((trial.function, trial.dim))
            .or_default()
            .push(trial);
    }
    let mut infos: BTreeMap<usize, String> = BTreeMap::new();
    for ((function, dim), trials) in &groups {
        let data = format!("data_f{function}/bbobexp_f{function}_DIM{dim}");
        let mut dat = String::new();
        let mut index = format!("{data}.dat");
        for trial in trials {
            let (text, evals, delta) = block(trial);
            dat.push_str(&text);
            let _ = write!(index, ", {}:{evals}|{}", trial.instance, c_short(delta));
        }
        write_file(&folder.join(format!("{data}.dat")), &dat)?;
        write_file(&folder.join(format!("{data}.tdat")), &dat)?;
        let info = infos.entry(*function).or_default();
        let _ = writeln!(
            info,
            "suite = 'bbob', funcId = {function}, DIM = {dim}, Precision = 1.000e-08, algId = '{algorithm}', coco_version = 'bosweep {}', logger = 'bbob', data_format = 'bbob-new2'",
            env!("CARGO_PKG_VERSION")
        );
        let _ = writeln!(info, "% exported by bosweep export-coco");
        let _ = writeln!(info, "{index}");
    }
    for (function, info) in &infos {
        write_file(&folder.join(format!("bbobexp_f{function}.info")), info)?;
    }
    Ok(())
}

/// `x` as C's `%.1e`, the final Δf of an `.info` entry.
fn c_short(x: f64) -> String {
    c_exp(x, 1).trim_start_matches('+').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strings C's printf gives (the probe of cocoex's logger wrote `+7.422764195e+06`).
    #[test]
    fn numbers_print_as_c_printf_does() {
        assert_eq!(c_exp(7_422_764.195, 9), "+7.422764195e+06");
        assert_eq!(c_exp(-0.001_23, 4), "-1.2300e-03");
        assert_eq!(c_exp(0.0, 4), "+0.0000e+00");
        assert_eq!(c_exp(-161.43, 12), "-1.614300000000e+02");
        assert_eq!(c_exp(1e-300, 1), "+1.0e-300");
        assert_eq!(c_short(32.1), "3.2e+01");
        assert_eq!(c_short(7.4e6), "7.4e+06");
    }
}
