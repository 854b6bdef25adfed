//! Pairing the runs of two sweeps: an algorithm is matched by its display label (the config's
//! `label`, else its setting's label), a run by its problem's label and replicate. Paired runs
//! must share their initial design (the manifest's design seed and design size), their budget
//! and how they evaluate (batch, workers, runtime model: [`RunSpec::differs_from`]), else their
//! difference would not measure the change of the algorithm; a pair that does not is refused.
//! Runs with no completed partner are listed, the rest paired.

use std::path::Path;

use super::{CompareError, UnpairableRuns};
use crate::RunSpec;
use crate::report::first_appearances;
use crate::report::load::{CompletedRun, Sweep};

/// One of the two sweeps compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The first directory, the baseline.
    A,
    /// The second directory, the change.
    B,
}

/// A run of an algorithm both sweeps hold that has no completed partner on the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpaired {
    /// The algorithm's display label.
    pub algorithm: String,
    /// The problem's label.
    pub problem: String,
    /// The 0-based replicate.
    pub replicate: usize,
    /// The sweep without a completed run of it.
    pub missing_from: Side,
    /// Whether that sweep's manifest lists the run (it has then not completed: not run yet,
    /// still running or failed) or not at all.
    pub planned: bool,
}

/// One algorithm on one problem: its runs completed in both sweeps, (A, B) by replicate.
pub(crate) struct Cell<'a> {
    pub algorithm: String,
    pub problem: String,
    pub pairs: Vec<(&'a CompletedRun, &'a CompletedRun)>,
}

/// Both sweeps' runs, paired.
pub(crate) struct Pairing<'a> {
    /// Per common algorithm (in A's order), per problem with at least one pair.
    pub cells: Vec<Cell<'a>>,
    /// Algorithms of one sweep only, by display label, in their sweep's order.
    pub only_in_a: Vec<String>,
    pub only_in_b: Vec<String>,
    pub unpaired: Vec<Unpaired>,
}

/// Pairs the runs of `sweep_a` (read from `a`) with those of `sweep_b` (from `b`).
pub(crate) fn pair<'a>(
    (a, sweep_a): (&Path, &'a Sweep),
    (b, sweep_b): (&Path, &'a Sweep),
) -> Result<Pairing<'a>, CompareError> {
    let algorithms_a = first_appearances(sweep_a.runs.iter().map(|r| r.algorithm.display_label()));
    let algorithms_b = first_appearances(sweep_b.runs.iter().map(|r| r.algorithm.display_label()));
    let nothing = |reason: String| CompareError::NothingToPair {
        a: a.to_path_buf(),
        b: b.to_path_buf(),
        reason,
    };
    let common: Vec<&String> = algorithms_a
        .iter()
        .filter(|l| algorithms_b.contains(l))
        .collect();
    if common.is_empty() {
        return Err(nothing(format!(
            "no algorithm label is in both (A: {}; B: {}); give the versions to compare the same \
             `label` in both configs",
            algorithms_a.join(", "),
            algorithms_b.join(", ")
        )));
    }
    let mut cells: Vec<Cell> = Vec::new();
    let mut unpaired = Vec::new();
    for algorithm in common {
        let of = |sweep: &'a Sweep| -> Vec<&'a RunSpec> {
            sweep
                .runs
                .iter()
                .filter(|r| &r.algorithm.display_label() == algorithm)
                .collect()
        };
        let (runs_a, runs_b) = (of(sweep_a), of(sweep_b));
        let keys = first_appearances(
            runs_a
                .iter()
                .chain(&runs_b)
                .map(|r| (r.problem.label(), r.replicate)),
        );
        for (problem, replicate) in keys {
            let find = |runs: &[&'a RunSpec]| {
                runs.iter()
                    .find(|r| r.problem.label() == problem && r.replicate == replicate)
                    .copied()
            };
            let lacking = |missing_from, planned| Unpaired {
                algorithm: algorithm.clone(),
                problem: problem.clone(),
                replicate,
                missing_from,
                planned,
            };
            let (spec_a, spec_b) = match (find(&runs_a), find(&runs_b)) {
                (Some(x), Some(y)) => (x, y),
                (Some(_), None) => {
                    unpaired.push(lacking(Side::B, false));
                    continue;
                }
                (None, _) => {
                    unpaired.push(lacking(Side::A, false));
                    continue;
                }
            };
            if let Some(reason) = spec_a.differs_from(spec_b) {
                return Err(CompareError::Unpairable(Box::new(UnpairableRuns {
                    a: a.to_path_buf(),
                    b: b.to_path_buf(),
                    algorithm: algorithm.clone(),
                    problem,
                    replicate,
                    reason,
                })));
            }
            let (run_a, run_b) = match (completed(sweep_a, spec_a), completed(sweep_b, spec_b)) {
                (Some(x), Some(y)) => (x, y),
                (None, _) => {
                    unpaired.push(lacking(Side::A, true));
                    continue;
                }
                (_, None) => {
                    unpaired.push(lacking(Side::B, true));
                    continue;
                }
            };
            match cells
                .iter_mut()
                .find(|c| &c.algorithm == algorithm && c.problem == problem)
            {
                Some(cell) => cell.pairs.push((run_a, run_b)),
                None => cells.push(Cell {
                    algorithm: algorithm.clone(),
                    problem,
                    pairs: vec![(run_a, run_b)],
                }),
            }
        }
    }
    if cells.is_empty() {
        return Err(nothing(format!(
            "no run of an algorithm in both completed in both ({} runs without a partner)",
            unpaired.len()
        )));
    }
    Ok(Pairing {
        cells,
        only_in_a: without(&algorithms_a, &algorithms_b),
        only_in_b: without(&algorithms_b, &algorithms_a),
        unpaired,
    })
}

/// `spec`'s completed run in `sweep`, where it has completed.
fn completed<'a>(sweep: &'a Sweep, spec: &RunSpec) -> Option<&'a CompletedRun> {
    sweep.completed.iter().find(|c| c.spec.index == spec.index)
}

/// The labels of `these` not in `those`.
fn without(these: &[String], those: &[String]) -> Vec<String> {
    these
        .iter()
        .filter(|l| !those.contains(l))
        .cloned()
        .collect()
}
