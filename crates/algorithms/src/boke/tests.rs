//! The typed settings of the BOKE family: defaults, what the flat bandwidth and β parameters
//! mean, round trips through the registry, range checks, and a run through the [`Optimizer`].

use super::{
    BandwidthConstant, BandwidthRule, BetaChoice, BetaRule, Boke, BokePlus, DensityExploration,
    GpUcbFixed, KrUcb, Recommendation,
};
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_model::{BandwidthScale, BandwidthSchedule, SmoothingKernel};
use bosweep_toolkit::{AlgorithmSettings, Optimizer};

#[test]
fn defaults_are_the_papers() {
    let boke = Boke::default();
    assert_eq!(boke.ikr.surrogate.kernel, SmoothingKernel::Gaussian);
    assert_eq!(boke.ikr.surrogate.kappa, 0.3);
    assert_eq!(
        boke.ikr.surrogate.schedule(),
        BandwidthSchedule::Scott(BandwidthScale::Constant(1.0 / 12f64.sqrt()))
    );
    assert_eq!(boke.ikr.beta_rule(), BetaRule::GeneralSet { delta: 0.1 });
    assert_eq!(boke.ikr.search.candidates, 0);
    assert_eq!(BokePlus::default().p, 0.8);
    assert_eq!(GpUcbFixed::default().lengthscale, 0.0);
}

#[test]
fn the_bandwidth_and_beta_words_say_which_numbers_act() {
    let mut kr = Boke::default().ikr.surrogate;
    kr.bandwidth_constant = 0.5;
    kr.fixed_bandwidth = 0.05;
    kr.bandwidth = BandwidthRule::Silverman;
    assert_eq!(
        kr.schedule(),
        BandwidthSchedule::Silverman(BandwidthScale::Constant(0.5))
    );
    kr.bandwidth_scale = BandwidthConstant::Data;
    assert_eq!(
        kr.schedule(),
        BandwidthSchedule::Silverman(BandwidthScale::Data)
    );
    kr.bandwidth = BandwidthRule::Fixed;
    assert_eq!(kr.schedule(), BandwidthSchedule::Fixed(0.05));
    let ikr = Boke::default().ikr.beta(BetaChoice::Finite).delta(0.05);
    assert_eq!(ikr.beta_rule(), BetaRule::FiniteSet);
}

/// BOKE's settings with every field away from its default.
fn changed_boke() -> Boke {
    Boke::default().ikr(|ikr| {
        ikr.search(|s| {
            s.lhs_init(7)
                .candidates(300)
                .starts(3)
                .refine(false)
                .max_iters(17)
        })
        .surrogate(|kr| {
            kr.kappa(1.5)
                .kernel(SmoothingKernel::Epanechnikov)
                .bandwidth(BandwidthRule::Silverman)
                .bandwidth_constant(0.5)
                .recommend(Recommendation::BestMean)
        })
        .delta(0.05)
    })
}

#[test]
fn changed_settings_round_trip() {
    let boke = changed_boke();
    assert_eq!(Boke::read(&resolve(&boke)), boke);
    let plus = BokePlus::default()
        .ikr(|_| changed_boke().ikr)
        .p(0.5)
        .dedupe_exploit(true);
    assert_eq!(BokePlus::read(&resolve(&plus)), plus);
    let density = DensityExploration::default().ikr(|_| changed_boke().ikr);
    assert_eq!(DensityExploration::read(&resolve(&density)), density);
    let kr_ucb = KrUcb::default()
        .search(|_| changed_boke().ikr.search)
        .widening(|w| w.alpha(0.5).tau(0.3).c_multiplier(2.0));
    assert_eq!(KrUcb::read(&resolve(&kr_ucb)), kr_ucb);
    let gp = GpUcbFixed::default()
        .beta(2.0)
        .noise_var(1e-3)
        .lengthscale(0.4);
    assert_eq!(GpUcbFixed::read(&resolve(&gp)), gp);
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: &dyn AlgorithmSettings| match settings.build() {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{} built out of range", settings.name()),
    };
    let boke = Boke::default().ikr(|ikr| ikr.surrogate(|kr| kr.kappa(0.0)));
    assert!(message(&boke).contains("parameter kappa = 0"));
    assert!(message(&BokePlus::default().p(1.5)).contains("parameter p = 1.5"));
    let kr_ucb = KrUcb::default().widening(|w| w.alpha(1.0));
    assert!(message(&kr_ucb).contains("parameter alpha = 1"));
    assert!(message(&GpUcbFixed::default().beta(-1.0)).contains("parameter beta = -1"));
    let density = DensityExploration::default().ikr(|ikr| ikr.search(|s| s.starts(0)));
    assert!(message(&density).contains("parameter starts = 0"));
}

/// `steps` asks and tells of BOKE on a quadratic bowl in [0, 1]²: the points asked.
fn boke_run(settings: Boke, steps: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut opt = Optimizer::builder(settings)
        .bounds(&[(0.0, 1.0); 2])
        .seed(11)
        .init(4)
        .minimize()
        .build()
        .unwrap();
    let mut asked = Vec::new();
    for _ in 0..steps {
        for x in opt.ask(1).unwrap() {
            opt.tell(&x, (x[0] - 0.3).powi(2) + (x[1] - 0.7).powi(2))
                .unwrap();
            asked.push(x);
        }
    }
    (asked, opt.recommend().unwrap().to_vec())
}

#[test]
fn the_optimizer_runs_boke_reproducibly_inside_the_bounds() {
    let settings = || Boke::default().ikr(|ikr| ikr.search(|s| s.candidates(200)));
    let (asked, recommended) = boke_run(settings(), 8);
    assert_eq!(
        boke_run(settings(), 8),
        (asked.clone(), recommended.clone())
    );
    assert_eq!(asked.len(), 8);
    assert!(asked.iter().flatten().all(|v| (0.0..=1.0).contains(v)));
    // The recommendation is the best told point (best-observed, in the minimised sense).
    let value = |x: &[f64]| (x[0] - 0.3).powi(2) + (x[1] - 0.7).powi(2);
    let best = asked
        .iter()
        .min_by(|a, b| value(a).total_cmp(&value(b)))
        .unwrap();
    assert_eq!(&recommended, best);
}
