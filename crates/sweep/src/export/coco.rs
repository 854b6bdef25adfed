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
//!
//! Runs on `bbob-constrained` are written in the same format under `bbob-constrained/`, as
//! cocoex's logger writes that suite: each evaluation also counts one constraint evaluation
//! (bosweep's problems return all constraints with the objective, and cocopp adds the two
//! counts), the third column is the best `max(f, f_opt) + Σ_j max(c_j, 0)` so far, less f_opt,
//! and the fifth holds one digit per constraint (0 where `c_j ≤ 0`, then ≈ 8 + log10 c_j, 9 above
//! 1). [`export_coco`] writes the `bbob-biobj` runs too, through `coco_biobj`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::coco_biobj::{BBOB_BIOBJ, write_biobj};
use super::coco_common::{ExportError, c_exp, folder_name, integer_parameter, write_file};
use crate::report::{ReportError, read_run};
use crate::{MANIFEST_FILE, Manifest, RunSpec};
use bosweep_problems::{ParamValue, violation};

/// The problems whose runs are exported in COCO's `bbob` format; each is also the name of
/// COCO's suite.
const BBOB: &str = "bbob";
const BBOB_CONSTRAINED: &str = "bbob-constrained";

/// What [`export_coco`] wrote: one entry per COCO suite with runs in the sweep.
#[derive(Debug)]
pub struct CocoExport {
    /// `bbob`, then `bbob-constrained` and `bbob-biobj`, each where the sweep has runs on it.
    pub suites: Vec<SuiteExport>,
}

/// The runs of one COCO suite that [`export_coco`] wrote.
#[derive(Debug)]
pub struct SuiteExport {
    /// COCO's name of the suite, which is bosweep's name of the problem.
    pub suite: &'static str,
    /// One folder per algorithm setting, the argument `cocopp` takes.
    pub algorithms: Vec<PathBuf>,
    /// The completed runs written.
    pub runs: usize,
}

/// One evaluated step of a trace.
struct Row {
    evals: usize,
    f: f64,
    y: f64,
    /// The constraint values observed (none on `bbob`).
    constraints: Vec<f64>,
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
/// its `bbob-constrained` runs under `out/bbob-constrained` in the same format, and its
/// `bbob-biobj` runs under `out/bbob-biobj` in COCO's bi-objective format. Runs on other
/// problems, and runs without a trace yet, are left out.
pub fn export_coco(sweep_dir: &Path, out: &Path) -> Result<CocoExport, ExportError> {
    let manifest = Manifest::read(sweep_dir).map_err(|source| ReportError::Manifest {
        path: sweep_dir.join(MANIFEST_FILE),
        source,
    })?;
    let (biobj_algorithms, biobj_runs) = write_biobj(sweep_dir, &manifest, &out.join(BBOB_BIOBJ))?;
    let suites: Vec<SuiteExport> = [
        write_suite(sweep_dir, &manifest, BBOB, out)?,
        write_suite(
            sweep_dir,
            &manifest,
            BBOB_CONSTRAINED,
            &out.join(BBOB_CONSTRAINED),
        )?,
        SuiteExport {
            suite: BBOB_BIOBJ,
            algorithms: biobj_algorithms,
            runs: biobj_runs,
        },
    ]
    .into_iter()
    .filter(|suite| suite.runs > 0)
    .collect();
    if suites.is_empty() {
        return Err(ExportError::NothingToExport {
            dir: sweep_dir.to_path_buf(),
        });
    }
    Ok(CocoExport { suites })
}

/// Writes the completed runs of `manifest` on `suite` (`bbob` or `bbob-constrained`) under
/// `out`, one folder per algorithm setting.
fn write_suite(
    sweep_dir: &Path,
    manifest: &Manifest,
    suite: &'static str,
    out: &Path,
) -> Result<SuiteExport, ExportError> {
    let mut by_algorithm: BTreeMap<String, Vec<Trial>> = BTreeMap::new();
    for spec in manifest.runs.iter().filter(|s| s.problem.name == suite) {
        let path = Manifest::trace_path(sweep_dir, spec);
        if path.is_file() {
            let trial = read_trial(spec, &path)?;
            by_algorithm
                .entry(folder_name(&spec.algorithm))
                .or_default()
                .push(trial);
        }
    }
    let mut algorithms = Vec::new();
    let mut runs = 0;
    for (algorithm, trials) in &by_algorithm {
        let folder = out.join(algorithm);
        write_algorithm(&folder, suite, algorithm, trials)?;
        runs += trials.len();
        algorithms.push(folder);
    }
    Ok(SuiteExport {
        suite,
        algorithms,
        runs,
    })
}

fn read_trial(spec: &RunSpec, path: &Path) -> Result<Trial, ExportError> {
    let given: Vec<(&str, ParamValue)> = spec
        .problem
        .params
        .iter()
        .map(|(k, v)| (k.as_str(), ParamValue::from(v)))
        .collect();
    let problem =
        bosweep_problems::build(&spec.problem.name, &given).map_err(|e| ExportError::Problem {
            run: spec.key(),
            message: e.to_string(),
        })?;
    let parameter = |name: &str| integer_parameter(problem.as_ref(), name);
    let fopt = problem
        .optimum(1)
        .expect("every bbob and bbob-constrained instance knows its optimum")
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
                constraints: step.constraints,
                x: step.x,
            })
        })
        .collect()
}

/// The block of one trial in a `.dat`/`.tdat` file, and its final `(evaluations, best Δf)`.
/// A trial with constraints gets the rows cocoex's logger writes on `bbob-constrained`.
fn block(trial: &Trial) -> (String, usize, f64) {
    let mut text = format!(
        "% f evaluations | g evaluations | best noise-free fitness - Fopt ({}) + sum g_i+ | measured fitness | best measured fitness or single-digit g-values | x1 | x2...\n",
        // C's `%13.12e`, which signs only a negative number.
        c_exp(trial.fopt, 12).trim_start_matches('+')
    );
    let mut best = f64::INFINITY;
    let mut best_y = f64::INFINITY;
    for row in &trial.rows {
        best_y = best_y.min(row.y);
        if row.constraints.is_empty() {
            best = best.min(row.f);
            let _ = write!(
                text,
                "{} 0 {} {} {}",
                row.evals,
                c_exp(best - trial.fopt, 9),
                c_exp(row.y, 9),
                c_exp(best_y, 9)
            );
        } else {
            // COCO's logged value: an infeasible point's objective cannot count below f_opt.
            best = best.min(row.f.max(trial.fopt) + violation(&row.constraints));
            let _ = write!(
                text,
                "{} {} {} {} ",
                row.evals,
                row.evals,
                c_exp(best - trial.fopt, 9),
                c_exp(row.y, 9)
            );
            text.extend(row.constraints.iter().map(|&c| single_digit(c)));
        }
        for x in &row.x {
            let _ = write!(text, " {}", c_exp(*x, 4));
        }
        text.push('\n');
    }
    let last = trial.rows.last().expect("a trial has rows").evals;
    (text, last, best - trial.fopt)
}

/// A constraint value in one digit, as cocoex's logger writes it: 0 where satisfied (≤ 0), 1 up
/// to 1e-7, then one more per decade up to 8 (1e-1 to 1), and 9 above 1.
fn single_digit(c: f64) -> char {
    const LIMITS: [f64; 9] = [0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0];
    let digit = LIMITS.iter().position(|&limit| c <= limit).unwrap_or(9);
    char::from(b'0' + digit as u8)
}

/// One algorithm's folder: per function an `.info` file with a three-line entry per dimension
/// (attributes, a comment, the data file and `instance:evaluations|final Δf` per trial).
fn write_algorithm(
    folder: &Path,
    suite: &str,
    algorithm: &str,
    trials: &[Trial],
) -> Result<(), ExportError> {
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
            "suite = '{suite}', funcId = {function}, DIM = {dim}, Precision = 1.000e-08, algId = '{algorithm}', coco_version = 'bosweep {}', logger = '{suite}', data_format = 'bbob-new2'",
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

    /// cocoex's `logger_bbob_single_digit_constraint`, at and between its limits.
    #[test]
    fn constraint_digits_are_coco_s() {
        let digits: String = [
            -3.0, 0.0, 1e-9, 1e-7, 5e-7, 1e-6, 5e-6, 2e-5, 3e-4, 4e-3, 0.05, 0.5, 1.0, 1.5, 1e9,
        ]
        .into_iter()
        .map(single_digit)
        .collect();
        assert_eq!(digits, "001122345678899");
    }
}
