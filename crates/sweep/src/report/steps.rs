//! Every step of every completed run of a sweep directory, each field of the trace schema typed
//! ([`StepRecord`], the type runs write): what a program analysing a sweep reads (the Python
//! package's `bosweep.load` makes a table of it).

use std::path::Path;

use serde_json::{Map, Value};

use super::error::ReportError;
use crate::{MANIFEST_FILE, Manifest, RunSpec, StepRecord, read_complete};
use bosweep_problems::Sense;

/// A completed run: its place in the sweep, its trace header and its steps.
#[derive(Clone, Debug)]
pub struct RunSteps {
    /// The run as the manifest lists it.
    pub spec: RunSpec,
    /// The trace's header object: the run's settings, seeds, sense, device and version.
    pub header: Map<String, Value>,
    /// Every step, in order.
    pub steps: Vec<StepRecord>,
}

/// The completed runs of the sweep in `dir`, in manifest order (runs without a trace, not run
/// yet or failed, are left out). A trace that is not its whole run is an error naming its file
/// and line.
pub fn read_steps(dir: &Path) -> Result<Vec<RunSteps>, ReportError> {
    let manifest = Manifest::read(dir).map_err(|source| ReportError::Manifest {
        path: dir.join(MANIFEST_FILE),
        source,
    })?;
    let mut runs = Vec::new();
    for spec in &manifest.runs {
        let path = Manifest::trace_path(dir, spec);
        if path.is_file() {
            runs.push(read_run(spec, &path)?);
        }
    }
    Ok(runs)
}

/// `spec`'s completed trace at `path`: refused unless it holds the whole run
/// ([`read_complete`]).
pub(crate) fn read_run(spec: &RunSpec, path: &Path) -> Result<RunSteps, ReportError> {
    let trace = read_complete(path, spec.seed, spec.budget)?;
    Ok(RunSteps {
        spec: spec.clone(),
        header: trace.header,
        steps: trace.steps,
    })
}

/// A sense as trace headers write it (`sense`, each of `senses`): `minimize` or `maximize`, and
/// the spellings `minimise`, `min`, `maximise`, `max`; `None` for any other word.
pub(crate) fn parse_sense(s: &str) -> Option<Sense> {
    match s {
        "minimize" | "minimise" | "min" => Some(Sense::Minimize),
        "maximize" | "maximise" | "max" => Some(Sense::Maximize),
        _ => None,
    }
}
