//! LogEI's and qLogNEI's GP model against BoTorch's default `SingleTaskGP` fitted by
//! `fit_gpytorch_mll` on fixed data (`benches/peers/botorch_model_reference.py` wrote
//! `data/botorch_model.json` with BoTorch 0.18.1): from the same start (the priors' modes) one fit
//! each must reach the same optimum of the same objective, the log marginal likelihood plus the
//! log priors of the parameters. They agree to about 1e-8 in that objective and 1e-4 in the
//! hyperparameters (the two L-BFGS runs stop at their own tolerances); the bounds below leave a
//! factor of about ten.

use crate::common::rel_err;

use bosweep::algorithms::GpSettings;
use bosweep::compute::Points;
use bosweep::model::Noise;
use bosweep::surrogate::{GpModel, ModelOptions};
use serde_json::Value;

/// One case of the reference: the data and what BoTorch fitted on them (model units: inputs in
/// the unit cube, outcomes standardised with the unbiased std).
struct Case {
    dim: usize,
    x: Vec<Vec<f64>>,
    y: Vec<f64>,
    lengthscales: Vec<f64>,
    noise_variance: f64,
    mean: f64,
    log_marginal_likelihood: f64,
    log_prior: f64,
}

fn cases() -> Vec<Case> {
    let json: Value = serde_json::from_str(include_str!("data/botorch_model.json")).unwrap();
    json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let number = |key: &str| c[key].as_f64().unwrap();
            let numbers =
                |key: &str| -> Vec<f64> { serde_json::from_value(c[key].clone()).unwrap() };
            Case {
                dim: c["dim"].as_u64().unwrap() as usize,
                x: serde_json::from_value(c["x"].clone()).unwrap(),
                y: numbers("y"),
                lengthscales: numbers("lengthscales"),
                noise_variance: number("noise_variance"),
                mean: number("mean"),
                log_marginal_likelihood: number("log_marginal_likelihood"),
                log_prior: number("log_prior"),
            }
        })
        .collect()
}

/// bosweep's fit of BoTorch's model on `case`: one start, at the priors' modes, as
/// `fit_gpytorch_mll` makes.
fn fit(case: &Case) -> GpModel {
    let gp = GpSettings::botorch().fit_restarts(0).warm_start(false);
    let (kernel, fit) = gp.fit_start(case.dim).unwrap();
    let unit = ModelOptions::for_box(&vec![0.0; case.dim], &vec![1.0; case.dim])
        .unwrap()
        .with_fit(fit);
    GpModel::fit(&Points::from_rows(&case.x).unwrap(), &case.y, kernel, &unit).unwrap()
}

#[test]
fn the_model_is_botorchs_single_task_gp() {
    let gp = GpSettings::botorch();
    for dim in [2, 4, 6] {
        let (kernel, _) = gp.fit_start(dim).unwrap();
        // The lengthscale prior's mode, exp(√2 + ½ ln d − 3), and no outputscale (variance 1).
        let mode = (std::f64::consts::SQRT_2 + 0.5 * (dim as f64).ln() - 3.0).exp();
        assert!(
            kernel
                .lengthscales()
                .iter()
                .all(|l| rel_err(*l, mode) < 1e-12)
        );
        assert_eq!(kernel.signal_variance(), 1.0);
    }
}

#[test]
fn fits_the_hyperparameters_botorch_fits_on_fixed_data() {
    for case in cases() {
        let model = fit(&case);
        let result = model.fit_result();
        let d = case.dim;
        // The same objective at BoTorch's optimum and at ours: ours at least as high (up to the
        // two optimisers' tolerances), and the same point.
        let ours = result.log_marginal_likelihood + result.log_prior;
        let theirs = case.log_marginal_likelihood + case.log_prior;
        assert!(
            ours >= theirs - 1e-6 * theirs.abs().max(1.0),
            "d = {d}: log posterior {ours} below BoTorch's {theirs}"
        );
        assert!(
            rel_err(ours, theirs) < 1e-6,
            "d = {d}: log posterior {ours}, BoTorch's {theirs}"
        );
        assert!(
            rel_err(result.log_marginal_likelihood, case.log_marginal_likelihood) < 1e-4,
            "d = {d}: log marginal likelihood {}, BoTorch's {}",
            result.log_marginal_likelihood,
            case.log_marginal_likelihood
        );
        for (i, (l, expected)) in result
            .kernel
            .lengthscales()
            .iter()
            .zip(&case.lengthscales)
            .enumerate()
        {
            assert!(
                rel_err(*l, *expected) < 1e-3,
                "d = {d}: lengthscale {i} is {l}, BoTorch's {expected}"
            );
        }
        assert_eq!(
            result.kernel.signal_variance(),
            1.0,
            "d = {d}: no outputscale"
        );
        let Noise::Homoscedastic(noise) = result.noise else {
            panic!(
                "d = {d}: a fitted homoscedastic noise, not {:?}",
                result.noise
            );
        };
        assert!(
            rel_err(noise, case.noise_variance) < 1e-3,
            "d = {d}: noise variance {noise}, BoTorch's {}",
            case.noise_variance
        );
        assert!(
            (result.mean - case.mean).abs() < 2e-3,
            "d = {d}: constant mean {}, BoTorch's {}",
            result.mean,
            case.mean
        );
    }
}
