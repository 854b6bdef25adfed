//! The recipe of one run, written once for every way a run is made: `bosweep run`, Python's
//! `bosweep.run` and each run of a sweep. [`PreparedRun::new`] builds the algorithm from its
//! registry name and parameters and checks it against the problem and the run settings (the
//! problem kind it needs, the batch or workers it can take, the runtime model's coordinate);
//! [`PreparedRun::check_memory`] and [`PreparedRun::check_libraries`] are the checks a single
//! run owes its caller before it starts (a sweep makes them once for all its runs, against the
//! runs it holds at once); [`PreparedRun::run`] runs it.

use bosweep_algorithms::{self as algorithms, Algorithm, AlgorithmError};
use bosweep_core::params::ParamValue;
use bosweep_engine::Engine;
use bosweep_problems::Problem;

use crate::memory::check_run_fits;
use crate::run::{RunConfig, RunError, RunSummary, run_stoppable};
use crate::schedule::{Parallel, ParallelError};
use crate::stop::StopSignal;
use crate::trace::TraceWriter;

/// One run with its parts built and checked against each other.
pub struct PreparedRun {
    problem: Box<dyn Problem>,
    algorithm: Box<dyn Algorithm>,
    algorithm_name: String,
    given: Vec<(String, ParamValue)>,
    config: RunConfig,
}

/// Which part of a run is wrong: each caller names it in its own terms (a flag, a keyword, a
/// config line).
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    /// The algorithm: an unknown name, a parameter out of range, a problem it cannot run on, a
    /// peer library that is not installed.
    #[error(transparent)]
    Algorithm(#[from] AlgorithmError),
    /// The run settings: a batch or worker count the algorithm cannot take, a runtime model
    /// the problem cannot use.
    #[error(transparent)]
    Parallel(#[from] ParallelError),
    /// The budget: more memory than the machine has.
    #[error("{0}")]
    Memory(String),
}

/// Algorithm `algorithm` built with the `given` parameters and checked against `problem` and
/// `parallel`: the checks every run makes, which a sweep's config makes for each of its pairs
/// before any run starts.
pub fn checked_algorithm(
    problem: &dyn Problem,
    algorithm: &str,
    given: &[(&str, ParamValue)],
    parallel: &Parallel,
) -> Result<Box<dyn Algorithm>, PrepareError> {
    let mut built = algorithms::build(algorithm, given)?;
    algorithms::check_pair(algorithm, built.as_mut(), problem)?;
    parallel.check(built.as_ref(), algorithm, problem.dim())?;
    Ok(built)
}

impl PreparedRun {
    /// Algorithm `algorithm` with the `given` parameters, on `problem`, as `config` says; an
    /// error names what does not fit.
    pub fn new(
        problem: Box<dyn Problem>,
        algorithm: &str,
        given: &[(&str, ParamValue)],
        config: RunConfig,
    ) -> Result<Self, PrepareError> {
        let built = checked_algorithm(problem.as_ref(), algorithm, given, &config.parallel)?;
        Ok(Self {
            problem,
            algorithm: built,
            algorithm_name: algorithm.to_owned(),
            given: given
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
            config,
        })
    }

    /// The budget's peak memory fits what the machine has available now.
    pub fn check_memory(&self) -> Result<(), PrepareError> {
        check_run_fits(
            self.algorithm.as_ref(),
            &self.algorithm_name,
            self.config.budget,
            self.problem.dim(),
        )
        .map_err(PrepareError::Memory)
    }

    /// A peer library's interpreter has the bosweep package and the library (nothing to check
    /// for bosweep's own algorithms). Made last by a single run: what bosweep checks itself is
    /// said before the user is sent to install anything.
    pub fn check_libraries(&self) -> Result<(), PrepareError> {
        let given: Vec<(&str, ParamValue)> = self
            .given
            .iter()
            .map(|(k, v)| (k.as_str(), v.clone()))
            .collect();
        if let Some(check) = algorithms::preflight(&self.algorithm_name, &given)? {
            check.run()?;
        }
        Ok(())
    }

    /// The problem the run optimises.
    pub fn problem(&self) -> &dyn Problem {
        self.problem.as_ref()
    }

    /// The run, with `engine`, into `trace`, checking `stop` before each step.
    pub fn run(
        mut self,
        engine: &dyn Engine,
        trace: &mut TraceWriter,
        stop: &StopSignal,
    ) -> Result<RunSummary, RunError> {
        run_stoppable(
            self.problem.as_ref(),
            self.algorithm.as_mut(),
            &self.algorithm_name,
            engine,
            &self.config,
            trace,
            stop,
        )
    }
}
