//! The typed settings of the BOKE family against the registry: defaults, round trips, range
//! checks, and a run through the [`Optimizer`].

use super::{
    BetaRule, Boke, BokePlus, DensityExploration, GpUcbFixed, KrUcb, Recommendation, Widening,
};
use crate::testing::{registry_defaults, resolve};
use crate::{AlgorithmSettings, Optimizer};
use bosweep_model::{BandwidthScale, BandwidthSchedule, SmoothingKernel};

#[test]
fn defaults_are_the_registry_defaults() {
    assert_eq!(resolve(&Boke::default()), registry_defaults("boke"));
    assert_eq!(
        resolve(&BokePlus::default()),
        registry_defaults("boke-plus")
    );
    assert_eq!(
        resolve(&DensityExploration::default()),
        registry_defaults("density-exploration")
    );
    assert_eq!(resolve(&KrUcb::default()), registry_defaults("kr-ucb"));
    assert_eq!(
        resolve(&GpUcbFixed::default()),
        registry_defaults("gp-ucb-fixed")
    );
    let boke = Boke::default();
    assert_eq!(boke.ikr.surrogate.kernel, SmoothingKernel::Gaussian);
    assert_eq!(boke.ikr.surrogate.kappa, 0.3);
    assert_eq!(boke.ikr.beta, BetaRule::GeneralSet { delta: 0.1 });
    assert_eq!(boke.ikr.search.candidates, None);
    assert_eq!(BokePlus::default().p, 0.8);
    assert_eq!(GpUcbFixed::default().lengthscale, None);
}

/// BOKE's settings with every field away from its default.
fn changed_boke() -> Boke {
    let mut boke = Boke::default().kappa(1.5).lhs_init(7);
    let search = &mut boke.ikr.search;
    search.candidates = Some(300);
    search.starts = 3;
    search.refine = false;
    search.max_iters = 17;
    let surrogate = &mut boke.ikr.surrogate;
    surrogate.kernel = SmoothingKernel::Epanechnikov;
    surrogate.bandwidth = BandwidthSchedule::Silverman(BandwidthScale::Constant(0.5));
    surrogate.recommendation = Recommendation::BestMean;
    boke.ikr.beta = BetaRule::GeneralSet { delta: 0.05 };
    boke
}

#[test]
fn changed_settings_round_trip() {
    let boke = changed_boke();
    assert_eq!(Boke::from_params(&resolve(&boke)), boke);
    for bandwidth in [
        BandwidthSchedule::Scott(BandwidthScale::Data),
        BandwidthSchedule::Fixed(0.05),
    ] {
        let mut other = boke.clone();
        other.ikr.surrogate.bandwidth = bandwidth;
        other.ikr.beta = BetaRule::FiniteSet;
        assert_eq!(Boke::from_params(&resolve(&other)), other);
    }

    let plus = BokePlus {
        ikr: changed_boke().ikr,
        p: 0.5,
        dedupe_exploit: true,
    };
    assert_eq!(BokePlus::from_params(&resolve(&plus)), plus);

    let density = DensityExploration {
        ikr: changed_boke().ikr,
    };
    assert_eq!(DensityExploration::from_params(&resolve(&density)), density);

    let kr_ucb = KrUcb {
        search: changed_boke().ikr.search,
        surrogate: changed_boke().ikr.surrogate,
        widening: Widening {
            alpha: 0.5,
            tau: 0.3,
            c_multiplier: 2.0,
        },
    };
    assert_eq!(KrUcb::from_params(&resolve(&kr_ucb)), kr_ucb);

    let gp = GpUcbFixed {
        search: changed_boke().ikr.search,
        beta: 2.0,
        noise_var: 1e-3,
        lengthscale: Some(0.4),
    };
    assert_eq!(GpUcbFixed::from_params(&resolve(&gp)), gp);
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: &dyn AlgorithmSettings| match settings.build() {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{} built out of range", settings.name()),
    };
    assert!(message(&Boke::default().kappa(0.0)).contains("parameter kappa = 0"));
    assert!(message(&BokePlus::default().p(1.5)).contains("parameter p = 1.5"));
    assert!(message(&KrUcb::default().alpha(1.0)).contains("parameter alpha = 1"));
    assert!(message(&GpUcbFixed::default().beta(-1.0)).contains("parameter beta = -1"));
    let mut density = DensityExploration::default();
    density.ikr.search.starts = 0;
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
    let settings = || {
        let mut boke = Boke::default();
        boke.ikr.search.candidates = Some(200);
        boke
    };
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
