//! RAHBO's settings: defaults, values through the registry and back, and the checks.

use super::settings::*;
use crate::testing::resolve;
use bosweep_core::params::{Choice, Settings};
use bosweep_problems::Observation;
use bosweep_toolkit::{AlgorithmSettings, Optimizer};

/// Every shared parameter away from its default.
fn changed_risk() -> RahboRisk {
    RahboRisk::default()
        .alpha(2.5)
        .alpha_source(AlphaSource::Parameter)
        .k(4)
        .lambda(0.5)
        .beta_mode(BetaMode::Theory)
        .beta_f_mult(1.5)
        .beta_var_mult(0.5)
        .delta(0.05)
        .norm_bound_f(2.0)
        .norm_bound_var(3.0)
}

/// Every shared parameter away from its default.
fn changed_models() -> RahboModels {
    RahboModels::default()
        .vargp_noise(VarianceNoise::Value)
        .vargp_noise_value(0.3)
        .rho2_max(4.0)
        .rho2_min(0.01)
        .plugin_floor(0.1)
        .clamp_lcb_var(true)
        .report(ReportRule::Corollary)
        .fit(HyperparameterFit::Mle)
        .prior_mean(PriorMean::Zero)
        .refit_every(3)
        .lengthscale(0.5)
        .grid_size(128)
}

#[test]
fn defaults_are_the_papers() {
    let rahbo = Rahbo::default();
    assert_eq!(rahbo.risk.k, 10);
    assert_eq!(rahbo.risk.beta_mode, BetaMode::Constant);
    assert_eq!(
        (rahbo.risk.beta_f_mult, rahbo.risk.beta_var_mult),
        (2.0, 2.0)
    );
    assert_eq!(rahbo.fgp_noise, ObjectiveNoise::UcbVarOverK);
    assert_eq!(rahbo.models.report, ReportRule::FinalLcb);
    assert_eq!(
        GpUcbHetero::default().gpucb_noise,
        GpUcbNoise(ObjectiveNoise::SampleVarOverK)
    );
    assert_eq!(RahboUs::default().us_rounds, 10);
}

#[test]
fn every_field_changed_round_trips() {
    let rahbo = Rahbo {
        risk: changed_risk(),
        fgp_noise: ObjectiveNoise::SampleVar,
        models: changed_models(),
    };
    assert_eq!(Rahbo::read(&resolve(&rahbo)), rahbo);
    let known = RahboKnownVar::default()
        .risk(|_| changed_risk().beta_mode(BetaMode::Constant))
        .fgp_noise(ObjectiveNoise::SampleVarOverK)
        .models(|_| changed_models().vargp_noise(VarianceNoise::Conservative));
    assert_eq!(RahboKnownVar::read(&resolve(&known)), known);
    let us = RahboUs::default()
        .risk(|_| changed_risk())
        .models(|_| changed_models())
        .us_rounds(3);
    assert_eq!(RahboUs::read(&resolve(&us)), us);
    let hetero = GpUcbHetero {
        risk: changed_risk(),
        gpucb_noise: GpUcbNoise(ObjectiveNoise::UcbVarOverK),
        models: changed_models(),
    };
    assert_eq!(GpUcbHetero::read(&resolve(&hetero)), hetero);
}

#[test]
fn the_baselines_noise_words_are_listed_from_its_default() {
    let words = |key| {
        let spec = GpUcbHetero::table().iter().find(|p| p.name == key).unwrap();
        format!("{:?}", spec.kind)
    };
    assert!(
        words("gpucb_noise").contains(r#"["sample_var_over_k", "sample_var", "ucb_var_over_k"]"#)
    );
    assert_eq!(GpUcbNoise(ObjectiveNoise::SampleVar).word(), "sample_var");
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: &dyn AlgorithmSettings| settings.build().err().unwrap().to_string();
    assert!(message(&Rahbo::default().risk(|r| r.alpha(-1.0))).contains("parameter alpha = -1"));
    assert!(message(&RahboUs::default().risk(|r| r.k(0))).contains("parameter k = 0"));
    // The sample variance needs two repeats: only the known-variance method takes one.
    assert!(message(&Rahbo::default().risk(|r| r.k(1))).contains("rahbo: k = 1"));
    assert!(message(&GpUcbHetero::default().risk(|r| r.k(1))).contains("gp-ucb-hetero: k = 1"));
    assert!(RahboKnownVar::default().risk(|r| r.k(1)).build().is_ok());
}

/// Asks and tells `rounds` points of `settings` on a 1-D function whose repeats spread
/// more to the right; the points asked and the last recommendation.
fn run(settings: impl AlgorithmSettings + 'static, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut opt = Optimizer::builder(settings)
        .bounds(&[(0.0, 2.0)])
        .seed(seed)
        .init(3)
        .maximize()
        .build()
        .unwrap();
    let mut asked = Vec::new();
    for _ in 0..6 {
        for x in opt.ask(1).unwrap() {
            let repeats = opt.pending()[0].repeats;
            let ys = (0..repeats)
                .map(|i| (3.0 * x[0]).sin() + x[0] * (i as f64 - 1.0))
                .collect();
            opt.tell_observation(&x, Observation::new(ys, None))
                .unwrap();
            asked.push(x);
        }
    }
    (asked, opt.recommend().unwrap().to_vec())
}

#[test]
fn the_optimizer_runs_rahbo_reproducibly_inside_the_box() {
    let settings = || {
        Rahbo::default()
            .risk(|r| r.k(3))
            .models(|m| m.grid_size(64))
    };
    let (asked, recommended) = run(settings(), 5);
    assert_eq!(asked.len(), 6);
    assert!(asked.iter().all(|x| (0.0..=2.0).contains(&x[0])));
    assert!(asked.contains(&recommended));
    assert_eq!(run(settings(), 5), (asked, recommended));
}
