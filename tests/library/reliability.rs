//! Reliability checks that iterate over the whole registry, so that every algorithm and problem,
//! present and future, is held to them: a few steps of every algorithm on a problem it can run
//! on (no panic, finite decisions inside the domain, the same trace from the same seed), every
//! declared parameter fed bad values (an error naming the owner, the key and the value), every
//! memory estimate sane, and ill-conditioned GPs reported in the trace.

use crate::common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::Command;

use bosweep::algorithms::Requirement;
use bosweep::algorithms::{self, AlgorithmEntry, AlgorithmError};
use bosweep::algorithms::{Algorithm, AskContext, Feedback, Proposal};
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::params::{ParamKind, ParamSpec, ParamValue};
use bosweep::problems::{self, ProblemError};
use bosweep::sweep::RunConfig;
use common::{RunRequest, required_parameters, runs_without_python, traced_run, without_timings};
use serde_json::Value;

/// Algorithms that need something of the problem say so through a parameter that ties them to
/// it, and the code enforces that tie at run time:
/// - the unknown-prior family (PE-GP-UCB's) takes the candidate priors of a time-varying
///   problem ([`Requirement::CandidatePriors`]);
/// - `context_lo`/`context_hi` bound an observed context (the SBO/DRBO family fails without
///   one);
/// - `alpha_source` takes the risk coefficient from a heteroscedastic problem, and the oracle
///   variant its true noise variance (the RAHBO family, `Algorithm::prepare`).
///
/// Everything else runs on any box-constrained problem; Forrester (d = 1) is the cheapest.
fn compatible_problem(entry: &AlgorithmEntry) -> &'static str {
    let declares = |name: &str| entry.parameters().iter().find(|s| s.name == name);
    if entry.requires == Requirement::CandidatePriors {
        return "pe-toy";
    }
    if declares("context_lo").is_some() {
        return "newsvendor";
    }
    if declares("alpha_source").is_some() {
        return "sine-hetero";
    }
    // Methods for several objectives only.
    if ["qlognehvi", "qlognparego"].contains(&entry.name) {
        return "branin-currin";
    }
    "forrester"
}

/// The smallest settings of the parameters that size the work of a step (grids, starts,
/// samples, repeats), wherever an algorithm declares them, clamped into the declared range.
fn cheap_parameters(entry: &AlgorithmEntry) -> Vec<(&'static str, ParamValue)> {
    const CHEAP: &[(&str, usize)] = &[
        ("grid_size", 64),
        ("top_k", 2),
        ("max_iters", 5),
        ("random_starts", 0),
        ("mcmc_burn_in", 2),
        ("mcmc_samples", 2),
        ("wdf_max_steps", 3),
        ("k", 2),
        ("us_rounds", 1),
        ("samples", 16),
        ("infimum_points", 16),
        ("raw_samples", 32),
        ("restarts", 2),
        ("candidates", 64),
        ("starts", 2),
    ];
    entry
        .parameters()
        .iter()
        .filter_map(|spec| {
            let (_, value) = CHEAP.iter().find(|(name, _)| *name == spec.name)?;
            match spec.kind {
                ParamKind::Integer { min, max, .. } => Some((
                    spec.name,
                    ParamValue::Number((*value).clamp(min, max) as f64),
                )),
                _ => None,
            }
        })
        .chain(required_parameters(entry.name))
        .collect()
}

fn smoke_run(entry: &AlgorithmEntry, seed: u64) -> Vec<Value> {
    let params = cheap_parameters(entry);
    let request = RunRequest {
        algo: entry.name,
        params: &params,
        problem: compatible_problem(entry),
        budget: 10,
        init: 3,
        seed,
    };
    catch_unwind(AssertUnwindSafe(|| {
        traced_run(&CpuEngine::new(), &request).1
    }))
    .unwrap_or_else(|_| panic!("{} on {} panicked", entry.name, request.problem))
}

fn numbers(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("{value} is not an array"))
        .iter()
        .map(|v| v.as_f64().unwrap_or(f64::NAN))
        .collect()
}

#[test]
fn every_algorithm_runs_a_few_reproducible_steps_inside_the_domain() {
    for entry in algorithms::registry().filter(|e| runs_without_python(e.name)) {
        let problem_name = compatible_problem(entry);
        let problem = problems::build(problem_name, &[]).unwrap();
        let domain = problem.domain();
        let trace = smoke_run(entry, 7);
        let who = format!("{} on {problem_name}", entry.name);
        assert!(trace.len() > 4, "{who}: {} lines", trace.len());
        let mut opt_steps = 0;
        for step in &trace[1..] {
            // A run of several objectives recommends its front, not a point, and has no `y`.
            let several = step["objectives"].is_array();
            for key in ["x", "recommended_x"] {
                if several && key == "recommended_x" {
                    assert!(numbers(&step[key]).is_empty(), "{who}");
                    continue;
                }
                let x = numbers(&step[key]);
                assert!(
                    x.iter().all(|v| v.is_finite()) && domain.contains(&x),
                    "{who}: {key} = {x:?} at iter {} is not a finite point of the domain",
                    step["iter"]
                );
            }
            if several {
                assert!(
                    numbers(&step["objectives"]).iter().all(|v| v.is_finite()),
                    "{who}"
                );
            } else {
                assert!(step["y"].as_f64().is_some_and(f64::is_finite), "{who}");
            }
            opt_steps += usize::from(step["phase"] == "opt");
        }
        assert!(opt_steps > 0, "{who}: the algorithm was never asked");
        assert_eq!(
            without_timings(&trace),
            without_timings(&smoke_run(entry, 7)),
            "{who}: the same seed gave a different trace"
        );
    }
}

/// Values no parameter of `kind` accepts, each with how it is written in the error message.
fn bad_values(kind: &ParamKind) -> Vec<ParamValue> {
    let mut values = vec![
        ParamValue::Number(f64::NAN),
        ParamValue::Number(f64::INFINITY),
        ParamValue::Number(f64::NEG_INFINITY),
        ParamValue::from("nan"),
        ParamValue::from("-inf"),
    ];
    match *kind {
        ParamKind::Real { min, max, .. } => {
            values.push(ParamValue::from("twelve"));
            values.push(ParamValue::from(""));
            if min.is_finite() {
                values.push(ParamValue::Number(min - min.abs().max(1.0)));
            }
            if max.is_finite() {
                values.push(ParamValue::Number(max + max.abs().max(1.0)));
                values.push(ParamValue::from(format!("{}", max * 4.0 + 1.0)));
            }
        }
        ParamKind::Integer { min, max, .. } => {
            values.push(ParamValue::Number(-1.0));
            values.push(ParamValue::Number(min as f64 + 0.5));
            values.push(ParamValue::from("many"));
            values.push(ParamValue::Number(max as f64 + 1.0));
            if min > 0 {
                values.push(ParamValue::Number(min as f64 - 1.0));
            }
        }
        ParamKind::Choice { .. } => {
            values.truncate(3);
            values.push(ParamValue::from("no-such-option"));
            values.push(ParamValue::Number(1.0));
        }
        // Any text is text; its owner parses it when it builds.
        ParamKind::Text { .. } => {
            values.truncate(3);
            values.push(ParamValue::Number(1.0));
        }
    }
    values
}

/// The valid values at the edges of what `kind` accepts (each must build or give a clear
/// error, never a panic).
fn edge_values(kind: &ParamKind) -> Vec<ParamValue> {
    match *kind {
        ParamKind::Real { min, max, .. } => [min, max]
            .into_iter()
            .filter(|v| v.is_finite())
            .map(ParamValue::Number)
            .collect(),
        ParamKind::Integer { min, max, .. } => vec![
            ParamValue::Number(min as f64),
            ParamValue::Number(max as f64),
        ],
        ParamKind::Choice { options, .. } => options.iter().map(|o| ParamValue::from(*o)).collect(),
        ParamKind::Text { default } => vec![ParamValue::from(default), ParamValue::from("")],
    }
}

fn assert_names(message: &str, owner: &str, key: &str, value: &ParamValue) {
    for needle in [owner, key, &value.to_string()] {
        assert!(
            message.contains(needle),
            "{owner} {key} = {value}: the error does not name {needle:?}: {message}"
        );
    }
}

/// Asserts that `build`, given the bad `value` of `owner`'s `key`, neither panicked nor was
/// accepted but was refused with a configuration error naming owner, key and value;
/// `config_message` is the message of an error that is a configuration error.
fn assert_refused<E: std::fmt::Display>(
    (owner, key, value): (&str, &str, &ParamValue),
    build: impl FnOnce() -> Result<(), E> + std::panic::UnwindSafe,
    config_message: impl Fn(&E) -> Option<&str>,
) {
    let outcome =
        catch_unwind(build).unwrap_or_else(|_| panic!("{owner} {key} = {value} panicked"));
    match outcome {
        Err(e) => match config_message(&e) {
            Some(message) => assert_names(message, owner, key, value),
            None => panic!("{owner} {key} = {value}: not a config error: {e}"),
        },
        Ok(()) => panic!("{owner} {key} = {value} was accepted"),
    }
}

/// Checks `owner`'s parameter `spec` with its bad and its edge values, each built by `build`
/// from `with(value)`: a bad value is refused naming owner, key and value (see
/// [`assert_refused`]); an edge value is accepted or refused the same way, except by an owner
/// that cannot be built here whatever its parameters (`unbuildable`), which names itself.
fn check_values<E: std::fmt::Display>(
    (owner, spec): (&str, &ParamSpec),
    with: impl Fn(&ParamValue) -> Vec<(&'static str, ParamValue)>,
    build: impl Fn(&[(&str, ParamValue)]) -> Result<(), E> + std::panic::RefUnwindSafe,
    config_message: impl Fn(&E) -> Option<&str>,
    unbuildable: impl Fn() -> bool,
) {
    let key = spec.name;
    for value in bad_values(&spec.kind) {
        let given = with(&value);
        assert_refused((owner, key, &value), || build(&given), &config_message);
    }
    for value in edge_values(&spec.kind) {
        let given = with(&value);
        match catch_unwind(|| build(&given)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => match config_message(&e) {
                Some(message) if unbuildable() => {
                    assert!(message.contains(owner), "{message}")
                }
                Some(message) => assert_names(message, owner, key, &value),
                None => panic!("{owner} {key} = {value}: {e}"),
            },
            Err(_) => panic!("{owner} {key} = {value} panicked"),
        }
    }
}

#[test]
fn every_algorithm_parameter_rejects_bad_values_naming_algorithm_key_and_value() {
    for entry in algorithms::registry() {
        for spec in entry.parameters() {
            // The value under test, with whatever else the algorithm cannot do without.
            let with = |value: &ParamValue| -> Vec<(&str, ParamValue)> {
                let mut given: Vec<_> = required_parameters(entry.name)
                    .into_iter()
                    .filter(|(name, _)| *name != spec.name)
                    .collect();
                given.push((spec.name, value.clone()));
                given
            };
            check_values(
                (entry.name, spec),
                with,
                |given| entry.build(given).map(|_| ()),
                |e| match e {
                    AlgorithmError::Config(message) => Some(message),
                    _ => None,
                },
                || false,
            );
        }
        let unknown = [("no_such_parameter", ParamValue::Number(1.0))];
        match entry.build(&unknown) {
            Err(AlgorithmError::Config(m)) => {
                assert!(
                    m.contains(entry.name) && m.contains("no_such_parameter"),
                    "{m}"
                )
            }
            _ => panic!(
                "{}: an unknown parameter was not a config error",
                entry.name
            ),
        }
    }
}

#[test]
fn every_problem_parameter_rejects_bad_values_naming_problem_key_and_value() {
    for entry in problems::registry() {
        for spec in entry.parameters {
            check_values(
                (entry.name, spec),
                |value| vec![(spec.name, value.clone())],
                |given| entry.build(given).map(|_| ()),
                |e| match e {
                    ProblemError::Config(message) => Some(message),
                    _ => None,
                },
                // A problem that cannot be built here whatever its parameters (its data are a
                // local file) names itself.
                || entry.build(&[]).is_err(),
            );
        }
    }
}

/// A sample of the same through the command line: exit code 2 and the message on stderr.
#[test]
fn bad_parameter_values_on_the_command_line_exit_2_naming_them() {
    let cases: &[(&str, &str, &str)] = &[
        ("ei", "--param", "lengthscale=nan"),
        ("gp-ucb", "--param", "noise_var=-inf"),
        ("uhe-bo", "--param", "m_factor=inf"),
        ("mcmc-gp-ucb", "--param", "mcmc_samples=2.5"),
        ("rahbo", "--param", "k=-3"),
        ("random", "--problem-param", "noise_std=nan"),
        ("random", "--problem-param", "noise_std=lots"),
    ];
    for (algo, flag, pair) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_bosweep"))
            .args([
                "--device",
                "cpu",
                "run",
                "--algo",
                algo,
                "--problem",
                "branin",
            ])
            .args(["--budget", "3", "--init", "1", flag, pair])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{algo} {pair}: {err}");
        let (key, value) = pair.split_once('=').unwrap();
        let owner = if *flag == "--param" { *algo } else { "branin" };
        for needle in [owner, key, value] {
            assert!(err.contains(needle), "{algo} {pair}: {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// A GP-UCB over a fixed grid with zero noise that re-proposes its best point shifted by 1e-13
/// (near-duplicate inputs): no registered algorithm lets its noise go that low, so this test's
/// own algorithm drives the real run loop and trace writer into jitter escalation.
struct NearDuplicateUcb {
    xs: Vec<f64>,
    ys: Vec<f64>,
}

impl NearDuplicateUcb {
    fn gp(&self) -> Result<GpState, AlgorithmError> {
        let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.3], 1.0)?;
        Ok(GpState::fit(
            Points::new(self.xs.clone(), 1)?,
            &self.ys,
            GpSpec::new(kernel, Noise::Homoscedastic(0.0)),
        )?)
    }
}

impl Algorithm for NearDuplicateUcb {
    fn ask(&mut self, ctx: &mut AskContext<'_>) -> Result<Proposal, AlgorithmError> {
        let grid = Points::new((0..=16).map(|i| f64::from(i) / 16.0).collect(), 1)?;
        let post = ctx.engine.posterior(&self.gp()?, &grid)?;
        let ucb: Vec<f64> = post
            .mean
            .iter()
            .zip(post.std())
            .map(|(m, s)| m + 2.0 * s)
            .collect();
        ctx.engine.argmax(&ucb)?;
        let best =
            self.xs[(0..self.ys.len()).fold(0, |b, i| if self.ys[i] > self.ys[b] { i } else { b })];
        Ok(Proposal {
            x: vec![(best + 1e-13).min(1.0)],
            repeats: 1,
        })
    }

    fn tell(&mut self, feedback: &Feedback<'_>) -> Result<(), AlgorithmError> {
        self.xs.push(feedback.x[0]);
        self.ys.push(feedback.y);
        Ok(())
    }

    fn recommend(&mut self, engine: &dyn Engine) -> Result<Vec<f64>, AlgorithmError> {
        let post = engine.posterior(&self.gp()?, &Points::new(self.xs.clone(), 1)?)?;
        Ok(vec![self.xs[engine.argmax(&post.mean)?]])
    }

    fn parameters(&self) -> Vec<(String, ParamValue)> {
        Vec::new()
    }
}

#[test]
fn jitter_escalation_is_a_trace_warning_and_decisions_stay_finite() {
    let problem = problems::build("forrester", &[]).unwrap();
    let mut algorithm = NearDuplicateUcb {
        xs: Vec::new(),
        ys: Vec::new(),
    };
    let config = RunConfig {
        budget: 8,
        init: 3,
        seed: 5,
        design_seed: 5,
        parallel: Default::default(),
    };
    let (_, lines) = common::run_to_trace(
        problem.as_ref(),
        &mut algorithm,
        "near-duplicate-ucb",
        &CpuEngine::new(),
        &config,
    );
    let mut warned = 0;
    for step in &lines[1..] {
        for key in ["x", "recommended_x"] {
            assert!(numbers(&step[key]).iter().all(|v| v.is_finite()), "{step}");
        }
        if let Some(warnings) = step.get("warnings") {
            let text = warnings.to_string();
            assert!(
                text.contains("jitter") && text.contains("ill-conditioned"),
                "{text}"
            );
            warned += 1;
        }
    }
    assert!(
        warned >= 3,
        "{warned} steps carry a jitter warning:\n{}",
        Value::Array(lines)
    );
}

/// Every algorithm's memory estimate is positive, grows with the budget and the dimension, and
/// UHE-BO's counts its pseudo-data (`m_factor` times the data) and MCMC's its kept samples.
#[test]
fn every_memory_estimate_is_positive_and_grows_with_the_budget() {
    for entry in algorithms::registry() {
        let algorithm = entry.build(&required_parameters(entry.name)).unwrap();
        let small = algorithm.memory_bytes(50, 2);
        let large = algorithm.memory_bytes(5000, 2);
        assert!(small > 0, "{}", entry.name);
        assert!(large > small, "{}: {small} then {large}", entry.name);
        assert!(algorithm.memory_bytes(50, 8) >= small, "{}", entry.name);
    }
    // Budget 10, dim 2. A GP on M points holds 22 M × M matrices and a grid of, by default,
    // max(1000·2, 2000) = 2000 points with 2 + 4 reals each (12 000 reals); 8 bytes a real.
    let estimate = |algo: &str, key: &'static str, value: f64| {
        algorithms::build(algo, &[(key, ParamValue::Number(value))])
            .unwrap()
            .memory_bytes(10, 2)
    };
    let pseudo = |m: f64| estimate("uhe-bo", "m_factor", m);
    // m_factor 100: M = 1000, 22·1000² + 12 000 = 22 012 000 reals → 176 096 000 B.
    assert_eq!(pseudo(100.0), 176_096_000);
    // m_factor 1: M = 10, 22·10² + 12 000 = 14 200 reals → 113 600 B.
    assert_eq!(pseudo(1.0), 113_600);
    let samples = |s: f64| estimate("mcmc-gp-ucb", "mcmc_samples", s);
    // One kept sample: the GP alone, 14 200 reals → 113 600 B; each further sample one more
    // 10 × 10 factor: 101 samples add 100·100 = 10 000 reals → 24 200 · 8 = 193 600 B.
    assert_eq!(samples(1.0), 113_600);
    assert_eq!(samples(101.0), 193_600);
}
