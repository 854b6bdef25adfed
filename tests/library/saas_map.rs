//! SAASBO-MAP (`saasbo-map`) and its model, the `map-saas` fit, against BoTorch's
//! `get_fitted_map_saas_model` on fixed data (`benches/peers/saas_map_reference.py` wrote
//! `data/saas_map.json` with BoTorch 0.18.1: 30 points in 20 dimensions of which two, 3 and 11,
//! matter). bosweep's MAP objective at BoTorch's optimum is BoTorch's; bosweep's fit from the same
//! start reaches an objective at least as high and the same two dimensions. Runs on
//! `hartmann6-embedded` repeat from their seed and beat random search.

use crate::common::{self, RunRequest, median, rel_err, seeded_run, steps, without_timings};

use bosweep::algorithms::{GpSettings, SaasboMap};
use bosweep::compute::{CpuEngine, Points};
use bosweep::model::{
    FitMode, Kernel, KernelKind, LogHyperparameters, Noise, Priors, log_marginal_likelihood,
};
use bosweep::params::ParamValue;
use bosweep::problems;
use bosweep::surrogate::{GpModel, ModelOptions};
use serde_json::Value;

/// The reference: the data and what BoTorch fitted on them (model units: inputs in the unit
/// cube, outcomes standardised with the unbiased std).
struct Reference {
    active: Vec<usize>,
    x: Vec<Vec<f64>>,
    y: Vec<f64>,
    lengthscales: Vec<f64>,
    tau: f64,
    outputscale: f64,
    noise_variance: f64,
    mean: f64,
    log_marginal_likelihood: f64,
    log_prior: f64,
}

fn reference() -> Reference {
    let json: Value = serde_json::from_str(include_str!("data/saas_map.json")).unwrap();
    let number = |key: &str| json[key].as_f64().unwrap();
    let numbers = |key: &str| -> Vec<f64> { serde_json::from_value(json[key].clone()).unwrap() };
    Reference {
        active: serde_json::from_value(json["active"].clone()).unwrap(),
        x: serde_json::from_value(json["x"].clone()).unwrap(),
        y: numbers("y"),
        lengthscales: numbers("lengthscales"),
        tau: number("tau"),
        outputscale: number("outputscale"),
        noise_variance: number("noise_variance"),
        mean: number("mean"),
        log_marginal_likelihood: number("log_marginal_likelihood"),
        log_prior: number("log_prior"),
    }
}

/// The outcomes as BoTorch's `Standardize` sees them: centred, divided by the unbiased std.
fn standardised(y: &[f64]) -> Vec<f64> {
    let n = y.len() as f64;
    let mean = y.iter().sum::<f64>() / n;
    let std = (y.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    y.iter().map(|v| (v - mean) / std).collect()
}

/// The priors `saasbo-map`'s fit uses in `dim` dimensions.
fn saas_priors(dim: usize) -> Priors {
    let (_, fit) = GpSettings::saas_map().fit_start(dim).unwrap();
    let FitMode::Map { priors } = fit.mode else {
        panic!("saasbo-map's fit is MAP, not {:?}", fit.mode);
    };
    priors
}

/// The model is BoTorch's: its priors, and its fit's start and bounds (the script checks
/// BoTorch's side of each).
#[test]
fn the_model_is_botorchs_map_saas_model() {
    let dim = 20;
    assert_eq!(saas_priors(dim), Priors::botorch_saas());
    let (kernel, fit) = GpSettings::saas_map().fit_start(dim).unwrap();
    assert_eq!(kernel.kind(), KernelKind::Matern52);
    assert_eq!(kernel.lengthscales(), vec![1.0; dim].as_slice());
    assert_eq!(kernel.signal_variance(), 10.0);
    assert!(fit.fit_signal_variance);
    assert_eq!(
        (fit.lengthscale_bounds.lower, fit.lengthscale_bounds.upper),
        (0.01, 1e4)
    );
    assert_eq!(
        (
            fit.signal_variance_bounds.lower,
            fit.signal_variance_bounds.upper
        ),
        (1e-2, 1e4)
    );
    assert_eq!(
        (fit.noise_bounds.lower, fit.noise_bounds.upper),
        (1e-4, 1.0)
    );
    assert_eq!(
        fit.noise,
        bosweep::model::NoiseSpec::Fitted { initial: 1e-2 }
    );
    assert_eq!((fit.random_starts, fit.warm_start), (0, None));
    let saas = Priors::botorch_saas().saas.unwrap();
    assert_eq!(
        (saas.bounds.lower, saas.bounds.upper, saas.initial),
        (1e-3, 10.0, 0.1)
    );
}

/// At BoTorch's optimum, bosweep's log marginal likelihood and log prior are BoTorch's (both
/// compute the same closed forms in f64; they agree to about 1e-13).
#[test]
fn the_map_objective_at_botorchs_optimum_is_botorchs() {
    let r = reference();
    let dim = r.lengthscales.len();
    let x = Points::from_rows(&r.x).unwrap();
    let z = standardised(&r.y);
    let kernel = Kernel::new(KernelKind::Matern52, r.lengthscales.clone(), r.outputscale).unwrap();
    let noise = Noise::Homoscedastic(r.noise_variance);
    let lml = log_marginal_likelihood(&x, &z, &kernel, &noise, r.mean, 1.0)
        .unwrap()
        .value;
    let log_lengthscales: Vec<f64> = r.lengthscales.iter().map(|l| l.ln()).collect();
    let log_prior = saas_priors(dim)
        .log_density(&LogHyperparameters {
            log_lengthscales: &log_lengthscales,
            log_shrinkage: Some(r.tau.ln()),
            log_signal_variance: Some(r.outputscale.ln()),
            log_noise_variance: Some(r.noise_variance.ln()),
            mean: Some(r.mean),
        })
        .unwrap()
        .value;
    println!(
        "log marginal likelihood {lml} (BoTorch {}), log prior {log_prior} (BoTorch {})",
        r.log_marginal_likelihood, r.log_prior
    );
    assert!(
        rel_err(lml, r.log_marginal_likelihood) < 1e-9,
        "log marginal likelihood {lml}, BoTorch's {}",
        r.log_marginal_likelihood
    );
    assert!(
        rel_err(log_prior, r.log_prior) < 1e-9,
        "log prior {log_prior}, BoTorch's {}",
        r.log_prior
    );
    let ours = lml + log_prior;
    let theirs = r.log_marginal_likelihood + r.log_prior;
    assert!(rel_err(ours, theirs) < 1e-9, "{ours} vs {theirs}");
}

/// bosweep's fit from BoTorch's start, one L-BFGS run as `fit_gpytorch_mll` makes, reaches a
/// MAP objective at least as high as BoTorch's, up to the difference of the two bounds' handling
/// (BoTorch's L-BFGS-B stops on its bounds, at τ = 1e-3 and noise 1e-4 here; bosweep's softplus
/// box approaches them); its shrinkage goes to the lower bound (the prior decreases in τ); and
/// the two dimensions that matter get the two shortest lengthscales, ten times shorter than any
/// other.
#[test]
fn fits_an_objective_as_high_as_botorchs_and_finds_the_two_dimensions() {
    let r = reference();
    let dim = r.lengthscales.len();
    let (kernel, fit) = GpSettings::saas_map().fit_start(dim).unwrap();
    let unit = ModelOptions::for_box(&vec![0.0; dim], &vec![1.0; dim])
        .unwrap()
        .with_fit(fit);
    let model = GpModel::fit(&Points::from_rows(&r.x).unwrap(), &r.y, kernel, &unit).unwrap();
    let result = model.fit_result();
    let ours = result.log_posterior;
    let theirs = r.log_marginal_likelihood + r.log_prior;
    let lengthscales = result.kernel.lengthscales();
    println!(
        "log posterior {ours} (BoTorch {theirs}), τ {:?} (BoTorch {}), outputscale {} (BoTorch \
         {}), noise {:?} (BoTorch {}), mean {} (BoTorch {}), {} evaluations\nlengthscales \
         {lengthscales:?}\nBoTorch's {:?}",
        result.shrinkage,
        r.tau,
        result.kernel.signal_variance(),
        r.outputscale,
        result.noise,
        r.noise_variance,
        result.mean,
        r.mean,
        result.evaluations,
        r.lengthscales
    );
    assert!(
        ours >= theirs - 1e-3,
        "log posterior {ours} below BoTorch's {theirs}"
    );
    let tau = result
        .shrinkage
        .expect("the SAAS fit reports its shrinkage");
    assert!((1e-3..2e-3).contains(&tau), "τ = {tau}");
    let mut order: Vec<usize> = (0..dim).collect();
    order.sort_by(|a, b| lengthscales[*a].total_cmp(&lengthscales[*b]));
    let mut shortest = order[..2].to_vec();
    shortest.sort_unstable();
    assert_eq!(shortest, r.active, "lengthscales {lengthscales:?}");
    assert!(
        lengthscales[order[2]] > 10.0 * lengthscales[order[1]],
        "lengthscales {lengthscales:?}"
    );
}

/// The dimension, budget and initial design of the runs on `hartmann6-embedded`.
const DIM: usize = 20;
const BUDGET: usize = 40;
const INIT: usize = 10;

/// A run of `algo` with `params` on Hartmann-6 embedded in 20 dimensions from `seed`: the
/// trace's step lines.
fn traced(algo: &str, params: &[(&str, ParamValue)], seed: u64) -> Vec<Value> {
    let problem = problems::build(
        "hartmann6-embedded",
        &[("dim", ParamValue::Number(DIM as f64))],
    )
    .unwrap();
    let request = RunRequest {
        algo,
        params,
        problem: "hartmann6-embedded",
        budget: BUDGET,
        init: INIT,
        seed,
    };
    steps(seeded_run(problem.as_ref(), &CpuEngine::new(), &request).1)
}

/// The lowest value of a run (Hartmann-6 is minimised).
fn lowest(lines: &[Value]) -> f64 {
    lines
        .iter()
        .map(|l| l["y"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min)
}

/// The same seed gives the same trace; by the last step the model's six shortest lengthscales
/// are Hartmann-6's six dimensions (the first six; about 0.2 to 0.3 in the unit cube, the
/// others 10 or more, most of them near the upper bound 1e4).
#[test]
fn runs_repeat_from_their_seed_and_find_the_active_dimensions() {
    let lines = traced("saasbo-map", &[], 1);
    assert_eq!(lines.len(), BUDGET);
    assert_eq!(
        without_timings(&lines),
        without_timings(&traced("saasbo-map", &[], 1)),
        "the same seed gave a different trace"
    );
    let last = common::numbers(&lines.last().unwrap()["extra"]["lengthscales"]);
    let mut order: Vec<usize> = (0..DIM).collect();
    order.sort_by(|a, b| last[*a].total_cmp(&last[*b]));
    let found = order[..6].iter().filter(|d| **d < 6).count();
    println!("lengthscales {last:?}: {found} of the six shortest are active");
    assert_eq!(found, 6, "lengthscales {last:?}");
}

/// Over seeds 1 to 5 (each seed's 10-point initial design shared by both methods), every
/// SAASBO-MAP run ends below random search's run from the same seed, and SAASBO-MAP's median is
/// below random search's best run (about −3.07 against −2.83; the optimum is −3.32). Seed 5's
/// design is poor (random search ends at −0.59) and SAASBO-MAP's run at −1.43 only, which is why
/// the comparison is paired rather than against random search's median (−1.78).
#[test]
fn beats_random_search_on_hartmann6_embedded_in_20_dimensions() {
    let seeds = 1..=5u64;
    let saas: Vec<f64> = seeds
        .clone()
        .map(|s| lowest(&traced("saasbo-map", &[], s)))
        .collect();
    let random: Vec<f64> = seeds.map(|s| lowest(&traced("random", &[], s))).collect();
    println!("saasbo-map {saas:?}\nrandom {random:?}");
    assert!(
        saas.iter().zip(&random).all(|(s, r)| s < r),
        "saasbo-map {saas:?}, random {random:?}"
    );
    let best_random = random.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        median(saas.clone()) < best_random,
        "saasbo-map {saas:?}, random's best {best_random}"
    );
}

/// The typed settings build what the registry builds from the same keys.
#[test]
fn settings_are_the_registry_declaration() {
    common::same_parameters(&SaasboMap::default(), &[]);
    common::same_parameters(
        &SaasboMap::default().mc_samples(64),
        &[("mc_samples", 64.0.into())],
    );
}
