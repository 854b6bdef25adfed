//! SAASBO with the fully Bayesian SAAS model (`saasbo`) against BoTorch 0.18.1 and NumPyro 0.22
//! on fixed data (`benches/peers/saas_fully_bayesian_reference.py` wrote
//! `data/saas_fully_bayesian.json`: 12 points in 4 dimensions, outcomes standardised):
//!
//! - the log density NUTS samples is NumPyro's (its potential energy, negated) to rounding;
//! - a long bosweep chain's posterior means of every coordinate are NumPyro's long run's within
//!   Monte Carlo error, and so are its standard deviations within 10 %;
//! - qLogNEI averaged over three fixed draws is BoTorch's `qLogNoisyExpectedImprovement` on a
//!   `SaasFullyBayesianSingleTaskGP` holding them, with the same base samples.
//!
//! Runs repeat from their seed, and batches sample their pending points jointly.

use crate::common::{self, RunRequest, seeded_run, steps, without_timings};

use bosweep::acquisition::{
    Acquisition, BaseSamples, LogMeanExpEnsemble, QLogNoisyExpectedImprovement,
};
use bosweep::compute::{CpuEngine, Points};
use bosweep::model::{
    GpSpec, GpState, Kernel, KernelKind, MIN_NOISE, Noise, NutsSchedule, SaasPosterior,
    sample_saas_posterior,
};
use bosweep::params::ParamValue;
use bosweep::problems;
use nalgebra::DMatrix;
use serde_json::Value;

fn reference() -> Value {
    serde_json::from_str(include_str!("data/saas_fully_bayesian.json")).unwrap()
}

fn numbers(value: &Value) -> Vec<f64> {
    serde_json::from_value(value.clone()).unwrap()
}

fn rows(value: &Value) -> Vec<Vec<f64>> {
    serde_json::from_value(value.clone()).unwrap()
}

fn data(json: &Value) -> (Points, Vec<f64>) {
    (
        Points::from_rows(&rows(&json["train_x"])).unwrap(),
        numbers(&json["train_y"]),
    )
}

#[test]
fn the_log_density_is_numpyros() {
    let json = reference();
    let (x, y) = data(&json);
    let mut posterior = SaasPosterior::new(&x, &y).unwrap();
    let mut gradient = vec![0.0; posterior.dim()];
    for point in json["log_density"].as_array().unwrap() {
        let theta = numbers(&point["theta"]);
        let expect = point["value"].as_f64().unwrap();
        let got = posterior.log_density(&theta, &mut gradient).unwrap();
        assert!(
            (got - expect).abs() < 1e-10 * expect.abs(),
            "at {theta:?}: {got} vs NumPyro's {expect}"
        );
    }
}

/// The unconstrained coordinates of a kept draw, as NUTS moved in them.
fn coordinates(draw: &bosweep::model::SaasHyperparameters) -> Vec<f64> {
    let log_tau = draw.shrinkage.ln();
    let mut theta = vec![
        draw.outputscale.ln(),
        draw.mean,
        (draw.noise - MIN_NOISE).ln(),
        log_tau,
    ];
    theta.extend(draw.lengthscales.iter().map(|l| -2.0 * l.ln() - log_tau));
    theta
}

/// One chain of 20 000 draws after 1000 warmup steps, every draw kept. The Monte Carlo error
/// of bosweep's means is estimated from 40 batch means, NumPyro's from its effective sample
/// size; every mean must lie within 4 combined standard errors, every standard deviation within
/// 10 %. A wrong prior, Jacobian or gradient moves some coordinate's mean by far more (a missing
/// Jacobian term on `ln τ` shifts its mean by about one standard deviation).
#[test]
fn a_long_chain_has_numpyros_posterior() {
    let json = reference();
    let (x, y) = data(&json);
    let schedule = NutsSchedule {
        warmup: 1000,
        samples: 20_000,
        thinning: 1,
        max_tree_depth: 6,
    };
    let chain = sample_saas_posterior(&x, &y, &schedule, 7).unwrap();
    let draws: Vec<Vec<f64>> = chain.draws.iter().map(coordinates).collect();
    let reference = &json["posterior"];
    let (ref_mean, ref_sd, ref_ess) = (
        numbers(&reference["mean"]),
        numbers(&reference["sd"]),
        numbers(&reference["ess"]),
    );
    const BATCHES: usize = 40;
    let per_batch = draws.len() / BATCHES;
    for j in 0..ref_mean.len() {
        let column: Vec<f64> = draws.iter().map(|d| d[j]).collect();
        let n = column.len() as f64;
        let mean = column.iter().sum::<f64>() / n;
        let sd = (column.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
        let batch_means: Vec<f64> = column
            .chunks(per_batch)
            .take(BATCHES)
            .map(|b| b.iter().sum::<f64>() / b.len() as f64)
            .collect();
        let spread =
            batch_means.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / (BATCHES - 1) as f64;
        let own_error = (spread / BATCHES as f64).sqrt();
        let ref_error = ref_sd[j] / ref_ess[j].sqrt();
        let bound = 4.0 * own_error.hypot(ref_error);
        println!(
            "coordinate {j}: mean {mean:.4} vs {:.4} (bound {bound:.4}), sd {sd:.4} vs {:.4}",
            ref_mean[j], ref_sd[j]
        );
        assert!(
            (mean - ref_mean[j]).abs() < bound,
            "coordinate {j}: mean {mean} vs NumPyro's {} (bound {bound})",
            ref_mean[j]
        );
        assert!(
            (sd / ref_sd[j] - 1.0).abs() < 0.1,
            "coordinate {j}: sd {sd} vs NumPyro's {}",
            ref_sd[j]
        );
    }
    // NumPyro's run diverges now and then too; a broken gradient diverges on most draws.
    assert!(
        chain.divergences < draws.len() / 500,
        "{} divergences",
        chain.divergences
    );
}

#[test]
fn the_ensemble_acquisition_is_botorchs() {
    let json = reference();
    let (x, y) = data(&json);
    let ensemble = &json["ensemble"];
    let (outputscale, mean, noise) = (
        numbers(&ensemble["outputscale"]),
        numbers(&ensemble["mean"]),
        numbers(&ensemble["noise"]),
    );
    let states: Vec<GpState> = rows(&ensemble["lengthscales"])
        .into_iter()
        .enumerate()
        .map(|(m, lengthscales)| {
            let kernel = Kernel::new(KernelKind::Matern52, lengthscales, outputscale[m]).unwrap();
            let spec = GpSpec::new(kernel, Noise::Homoscedastic(noise[m])).mean(mean[m]);
            GpState::fit(x.clone(), &y, spec).unwrap()
        })
        .collect();
    let base = rows(&ensemble["base_samples"]);
    let base = BaseSamples::from_matrix(DMatrix::from_fn(base.len(), base[0].len(), |s, j| {
        base[s][j]
    }))
    .unwrap();
    let engine = CpuEngine::new();
    let none = Points::new(Vec::new(), x.dim()).unwrap();
    let members = states
        .iter()
        .map(|gp| QLogNoisyExpectedImprovement::new(gp, &engine, &x, &none, &base).unwrap())
        .collect();
    let acquisition = LogMeanExpEnsemble::new(members).unwrap();
    let candidates = Points::from_rows(&rows(&ensemble["candidates"])).unwrap();
    let got = acquisition.evaluate(&engine, &candidates).unwrap();
    let expect = numbers(&ensemble["values"]);
    for (g, e) in got.iter().zip(&expect) {
        assert!(
            (g - e).abs() < 1e-9 * e.abs().max(1.0),
            "{got:?} vs {expect:?}"
        );
    }
}

/// A short schedule (64 warmup steps, 64 draws, every 16th kept: 4 models), so that the runs
/// stay quick.
fn short() -> Vec<(&'static str, ParamValue)> {
    vec![
        ("warmup", ParamValue::Number(64.0)),
        ("samples", ParamValue::Number(64.0)),
        ("thinning", ParamValue::Number(16.0)),
    ]
}

fn traced(seed: u64) -> Vec<Value> {
    let params = short();
    let problem = problems::build("branin", &[]).unwrap();
    let request = RunRequest {
        algo: "saasbo",
        params: &params,
        problem: "branin",
        budget: 14,
        init: 6,
        seed,
    };
    steps(seeded_run(problem.as_ref(), &CpuEngine::new(), &request).1)
}

#[test]
fn runs_repeat_from_their_seed_with_one_model_per_kept_draw() {
    let lines = traced(3);
    assert_eq!(lines.len(), 14);
    assert_eq!(
        without_timings(&lines),
        without_timings(&traced(3)),
        "the same seed gave a different trace"
    );
    let last = &lines.last().unwrap()["extra"];
    assert_eq!(last["models"], 4);
    assert_eq!(common::numbers(&last["lengthscales"]).len(), 2);
}

/// Four points asked at once after a 6-point design on the unit square (one peak at
/// (0.3, 0.6)) are distinct, inside the box and the same for the same seed; the first is the
/// sequential step's, since it is asked with nothing pending.
#[test]
fn batches_sample_their_pending_points_jointly_and_repeat() {
    use bosweep::algorithms::{Optimizer, Saasbo};
    let settings = Saasbo::default().warmup(64).samples(64).thinning(16);
    let peak = |x: &[f64]| -(x[0] - 0.3).powi(2) - (x[1] - 0.6).powi(2);
    let batch = |q: usize| {
        let builder = Optimizer::builder(settings.clone()).maximize().seed(5);
        common::batch_after_design(builder, peak, q)
    };
    let points = batch(4);
    assert_eq!(points.len(), 4);
    assert!(
        points.iter().flatten().all(|v| (0.0..=1.0).contains(v)),
        "{points:?}"
    );
    common::assert_apart(&points, 1e-6, "saasbo");
    assert_eq!(batch(4), points);
    assert_eq!(batch(1), points[..1]);
}
