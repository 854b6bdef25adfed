//! A sweep's runs on the problem `bbob-biobj` as COCO's bi-objective data, which `cocopp`
//! reads: per algorithm setting one `bbob-biobj_hyp.info` index and, under `data/`, per
//! (function, dimension) `bbob-biobj_fFF_dDD_hyp.{dat,tdat}` with one block per run.
//!
//! The lines are those cocoex 2.8.2's `bbob-biobj` logger writes (`logger_biobj.c`, indicator
//! `hyp`): a block's header names the instance and the reference value (COCO's best-known
//! normalised hypervolume, 1.0 where COCO has none), and each row holds the evaluations and
//! COCO's indicator `reference − HV + penalty`. HV is the run's hypervolume from the trace
//! (measured from the nadir point, as COCO does) divided by the area of the ideal–nadir box,
//! which is COCO's hypervolume in its normalised objective space; while it is 0, the penalty is
//! the normalised distance to that box of the run's closest point so far, else 0. COCO rounds
//! normalised values to 5·10⁻¹³ and thins rows to targets; here every step is a row of both
//! files, as in the `bbob` export. A run with `noise_std > 0` has its penalty measured on the
//! observed values (COCO's suite has no noise).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::coco_common::{ExportError, c_exp, folder_name, integer_parameter, write_file};
use crate::report::read_run;
use crate::{Manifest, RunSpec};
use bosweep_problems::ParamValue;
use bosweep_problems::multi_objective::BbobBiobj;

/// The problem whose runs are exported here.
pub(super) const BBOB_BIOBJ: &str = "bbob-biobj";

/// The `.info` file's `folder`, under which cocopp looks for the data files.
const DATA: &str = "data";

/// One completed run, read and placed.
struct Trial {
    function: usize,
    dim: usize,
    instance: usize,
    name: String,
    reference: f64,
    /// `(evaluations, indicator)` of every step.
    rows: Vec<(usize, f64)>,
}

/// Writes the completed `bbob-biobj` runs of `manifest` under `out`, one folder per algorithm
/// setting; returns the folders and the number of runs.
pub(super) fn write_biobj(
    sweep_dir: &Path,
    manifest: &Manifest,
    out: &Path,
) -> Result<(Vec<PathBuf>, usize), ExportError> {
    let mut by_algorithm: BTreeMap<String, Vec<Trial>> = BTreeMap::new();
    for spec in manifest
        .runs
        .iter()
        .filter(|s| s.problem.name == BBOB_BIOBJ)
    {
        let path = Manifest::trace_path(sweep_dir, spec);
        if path.is_file() {
            let trial = read_trial(spec, &path)?;
            by_algorithm
                .entry(folder_name(&spec.algorithm))
                .or_default()
                .push(trial);
        }
    }
    let mut folders = Vec::new();
    let mut runs = 0;
    for (algorithm, trials) in &by_algorithm {
        let folder = out.join(algorithm);
        write_algorithm(&folder, algorithm, trials)?;
        runs += trials.len();
        folders.push(folder);
    }
    Ok((folders, runs))
}

fn read_trial(spec: &RunSpec, path: &Path) -> Result<Trial, ExportError> {
    let given: Vec<(&str, ParamValue)> = spec
        .problem
        .params
        .iter()
        .map(|(k, v)| (k.as_str(), ParamValue::from(v)))
        .collect();
    let problem_error = |message: String| ExportError::Problem {
        run: spec.key(),
        message,
    };
    let built =
        bosweep_problems::build(BBOB_BIOBJ, &given).map_err(|e| problem_error(e.to_string()))?;
    let parameter = |name: &str| integer_parameter(built.as_ref(), name);
    let (function, instance, dim) = (parameter("function"), parameter("instance"), built.dim());
    let problem =
        BbobBiobj::new(function, instance, dim).map_err(|e| problem_error(e.to_string()))?;
    let reference = problem.best_normalised_hypervolume().unwrap_or(1.0);
    let (fa, fb) = problem.bbob_functions();
    let (ia, ib) = problem.bbob_instances();
    Ok(Trial {
        function,
        dim,
        instance,
        name: format!("bbob_f{fa:03}_i{ia:02}_d{dim:02}__bbob_f{fb:03}_i{ib:02}_d{dim:02}"),
        reference,
        rows: indicator_rows(&problem, reference, spec, path)?,
    })
}

/// COCO's `hyp` indicator after every step of the trace at `path`.
fn indicator_rows(
    problem: &BbobBiobj,
    reference: f64,
    spec: &RunSpec,
    path: &Path,
) -> Result<Vec<(usize, f64)>, ExportError> {
    let (ideal, nadir) = (problem.ideal(), problem.nadir());
    let area = (nadir[0] - ideal[0]) * (nadir[1] - ideal[1]);
    let mut closest = f64::INFINITY;
    read_run(spec, path)?
        .steps
        .into_iter()
        .map(|step| {
            let hypervolume = step.hypervolume.ok_or_else(|| ExportError::NotFinite {
                path: path.to_path_buf(),
                iter: step.iter,
                field: "hypervolume",
            })?;
            let normalised: Vec<f64> = (0..2)
                .map(|k| {
                    let v = step.objectives.get(k).copied().unwrap_or(f64::INFINITY);
                    ((v - ideal[k]) / (nadir[k] - ideal[k])).max(0.0)
                })
                .collect();
            closest = closest.min(distance_to_box(&normalised));
            let hv = hypervolume / area;
            let penalty = if hv > 0.0 { 0.0 } else { closest };
            Ok((step.evals, reference - hv + penalty))
        })
        .collect()
}

/// The distance of a normalised point (both coordinates ≥ 0) to the unit box `[0, 1]²`, COCO's
/// `mo_get_distance_to_ROI`.
fn distance_to_box(y: &[f64]) -> f64 {
    let (d0, d1) = ((y[0] - 1.0).max(0.0), (y[1] - 1.0).max(0.0));
    d0.hypot(d1)
}

/// `x` as C's `%.15e` prints it, the precision of COCO's bi-objective files.
fn c_precise(x: f64) -> String {
    c_exp(x, 15).trim_start_matches('+').to_string()
}

/// The `.dat` (with the target column, here the value itself) and `.tdat` blocks of one trial,
/// with the headers COCO's logger writes. `index` numbers the (function, dimension) groups where
/// COCO writes the problem's index in its suite, which cocopp does not read.
fn blocks(trial: &Trial, index: usize) -> (String, String) {
    let header = |targets: bool| {
        format!(
            "%\n% index = {index}, name = {}\n% instance = {}, reference value = {}\n% function evaluation | indicator value{}\n",
            trial.name,
            trial.instance,
            c_precise(trial.reference),
            if targets { " | target hit" } else { "" }
        )
    };
    let (mut dat, mut tdat) = (header(true), header(false));
    for &(evals, value) in &trial.rows {
        let value = c_precise(value);
        let _ = writeln!(dat, "{evals}\t{value}\t{value}");
        let _ = writeln!(tdat, "{evals}\t{value}");
    }
    (dat, tdat)
}

/// One algorithm's folder: the `.info` index (a header, then per (function, dimension) its data
/// file and `instance:evaluations|final indicator` per trial) and the data files.
fn write_algorithm(folder: &Path, algorithm: &str, trials: &[Trial]) -> Result<(), ExportError> {
    let mut groups: BTreeMap<(usize, usize), Vec<&Trial>> = BTreeMap::new();
    for trial in trials {
        groups
            .entry((trial.function, trial.dim))
            .or_default()
            .push(trial);
    }
    let mut info = format!(
        "suite = 'bbob-biobj', algorithm = '{algorithm}', indicator = 'hyp', folder = '{DATA}', coco_version = '2.8.2', settings = '' \n% exported by bosweep {} export-coco",
        env!("CARGO_PKG_VERSION")
    );
    for (index, ((function, dim), trials)) in groups.iter().enumerate() {
        let data = format!("bbob-biobj_f{function:02}_d{dim:02}_hyp");
        let _ = write!(info, "\nfunction = {function:2}, dim = {dim:2}, {data}.dat");
        let (mut dat, mut tdat) = (String::new(), String::new());
        for trial in trials {
            let (d, t) = blocks(trial, index);
            dat.push_str(&d);
            tdat.push_str(&t);
            let &(evals, last) = trial.rows.last().unwrap_or(&(0, trial.reference));
            let _ = write!(
                info,
                ", {}:{evals}|{}",
                trial.instance,
                c_exp(last, 1).trim_start_matches('+')
            );
        }
        write_file(&folder.join(DATA).join(format!("{data}.dat")), &dat)?;
        write_file(&folder.join(DATA).join(format!("{data}.tdat")), &tdat)?;
    }
    info.push('\n');
    write_file(&folder.join("bbob-biobj_hyp.info"), &info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_distance_to_the_box_is_coco_s() {
        assert_eq!(distance_to_box(&[0.5, 0.5]), 0.0);
        assert_eq!(distance_to_box(&[3.0, 0.2]), 2.0);
        assert_eq!(distance_to_box(&[0.0, 1.5]), 0.5);
        assert_eq!(distance_to_box(&[4.0, 5.0]), 5.0);
    }

    /// The numbers of a header and a row as the probe of cocoex's logger wrote them.
    #[test]
    fn numbers_print_as_coco_s_logger_does() {
        assert_eq!(c_precise(0.995718026456638), "9.957180264566380e-01");
        assert_eq!(c_precise(0.0341639979929893), "3.416399799298930e-02");
        assert_eq!(c_precise(1.0), "1.000000000000000e+00");
    }
}
