//! The typed settings of the contextual methods: defaults, what the schedule's words mean,
//! round trips through the registry, range checks, and a run through the [`Optimizer`] with
//! observed contexts.

use super::{
    ContextualSettings, DrboKde, DrboMmd, DrboMmdMinimax, InfimumSettings, JointFit, JointKernel,
    KappaSchedule, KdeSettings, OptimizerProfile, SboKde, StableOpt, UcbMultiplier,
};
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_model::BandwidthRule;
use bosweep_problems::Observation;
use bosweep_toolkit::{AlgorithmSettings, Optimizer};

#[test]
fn defaults_are_the_papers() {
    let sbo = SboKde::default();
    assert_eq!(sbo.shared.ucb(), UcbMultiplier::Constant(1.5));
    assert_eq!(sbo.shared.kernel, JointKernel::Matern52);
    assert_eq!(sbo.shared.raw_samples, 0);
    assert_eq!(sbo.shared.budget(true), (32, 5));
    assert_eq!(sbo.shared.budget(false), (1024, 50));
    assert_eq!(sbo.kde.samples, 1024);
    assert_eq!(DrboMmdMinimax::default().grid_size, 1024);
    assert_eq!(DrboMmd::default().grid_size, 100);
}

/// The shared settings with every field away from its default.
fn changed_shared() -> ContextualSettings {
    ContextualSettings {
        kernel: JointKernel::SquaredExponential,
        fit: JointFit::Mle,
        lengthscale: 0.5,
        signal_var: 2.0,
        noise_var: 0.1,
        beta_schedule: KappaSchedule::Theory,
        ucb_multiplier: 0.9,
        theory_a: 2.0,
        theory_b: 3.0,
        theory_r: 4.0,
        optimizer_profile: OptimizerProfile::Full,
        raw_samples: 128,
        restarts: 7,
        max_iters: 33,
        tolerance: 1e-7,
        gradient_tolerance: 1e-4,
        context_lo: -1.0,
        context_hi: 2.0,
    }
}

#[test]
fn the_schedule_and_the_budget_read_their_parameters() {
    let shared = changed_shared();
    assert_eq!(
        shared.ucb(),
        UcbMultiplier::Theory {
            a: 2.0,
            b: 3.0,
            r: 4.0
        }
    );
    assert_eq!(shared.budget(true), (128, 7));
    let constant = shared.beta_schedule(KappaSchedule::Constant);
    assert_eq!(constant.ucb(), UcbMultiplier::Constant(0.9));
}

#[test]
fn changed_settings_round_trip() {
    let kde = KdeSettings {
        samples: 50,
        bandwidth: BandwidthRule::Scott,
    };
    let sbo = SboKde {
        shared: changed_shared(),
        kde: kde.clone(),
    };
    assert_eq!(SboKde::read(&resolve(&sbo)), sbo);
    let drbo = DrboKde {
        shared: changed_shared(),
        kde,
        infimum: InfimumSettings { infimum_points: 40 },
        l1_radius_scale: 0.5,
    };
    assert_eq!(DrboKde::read(&resolve(&drbo)), drbo);
    let minimax = DrboMmdMinimax {
        shared: changed_shared(),
        grid_size: 64,
    };
    assert_eq!(DrboMmdMinimax::read(&resolve(&minimax)), minimax);
    let mmd = DrboMmd {
        shared: changed_shared(),
        grid_size: 25,
        mmd_radius_scale: 2.0,
    };
    assert_eq!(DrboMmd::read(&resolve(&mmd)), mmd);
    let stable = StableOpt {
        shared: changed_shared(),
        infimum: InfimumSettings { infimum_points: 12 },
    };
    assert_eq!(StableOpt::read(&resolve(&stable)), stable);
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: &dyn AlgorithmSettings| match settings.build() {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{} built out of range", settings.name()),
    };
    let sbo = SboKde::default().shared(|s| s.ucb_multiplier(-1.0));
    assert!(message(&sbo).contains("parameter ucb_multiplier"));
    assert!(
        message(&DrboKde::default().l1_radius_scale(-0.5)).contains("parameter l1_radius_scale")
    );
    assert!(message(&DrboMmd::default().grid_size(0)).contains("parameter grid_size = 0"));
    assert!(message(&DrboMmdMinimax::default().grid_size(0)).contains("parameter grid_size = 0"));
    let stable = StableOpt {
        infimum: InfimumSettings { infimum_points: 0 },
        ..StableOpt::default()
    };
    assert!(message(&stable).contains("parameter infimum_points = 0"));
    // A box the wrong way round passes each range but not the method's own check.
    let mut inverted = SboKde::default();
    inverted.shared.context_lo = 1.0;
    inverted.shared.context_hi = 0.0;
    assert!(message(&inverted).contains("context_lo = 1 must be below context_hi = 0"));
}

/// `steps` asks and tells of StableOpt on `−(x − c)²` with contexts cycling in [0, 1]: the
/// points asked and the recommendation.
fn stableopt_run(steps: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
    let mut settings = StableOpt {
        infimum: InfimumSettings { infimum_points: 16 },
        ..StableOpt::default()
    };
    settings.shared.raw_samples = 32;
    settings.shared.restarts = 2;
    settings.shared.max_iters = 20;
    let mut opt = Optimizer::builder(settings)
        .bounds(&[(-1.0, 2.0)])
        .context_bounds(&[(0.0, 1.0)])
        .seed(5)
        .init(3)
        .maximize()
        .build()
        .unwrap();
    let mut asked = Vec::new();
    for step in 0..steps {
        let x = opt.ask(1).unwrap().remove(0);
        let c = [0.2, 0.5, 0.8][step % 3];
        let y = -(x[0] - c).powi(2);
        opt.tell_observation(&x, Observation::new(vec![y], Some(vec![c])))
            .unwrap();
        asked.push(x);
    }
    (asked, opt.recommend().unwrap().to_vec())
}

#[test]
fn the_optimizer_runs_stableopt_reproducibly_inside_the_bounds() {
    let (asked, recommended) = stableopt_run(6);
    assert_eq!(stableopt_run(6), (asked.clone(), recommended.clone()));
    assert_eq!(asked.len(), 6);
    assert!(asked.iter().flatten().all(|v| (-1.0..=2.0).contains(v)));
    // The recommendation is one of the evaluated decisions.
    assert!(asked.contains(&recommended));
}
