//! The unknown-prior methods' settings: defaults, values through the registry and back, and
//! the rule each sets.

use super::*;
use crate::testing::resolve;
use bosweep_core::params::Settings as _;
use bosweep_toolkit::{AlgorithmSettings, Optimizer};

/// Every shared field away from its default.
const CHANGED: UnknownPriorSettings = UnknownPriorSettings {
    noise_std: 0.3,
    delta: 0.05,
    horizon: 50,
    beta_scale: 0.5,
    posterior: PosteriorPath::Engine,
};

#[test]
fn defaults_are_the_papers() {
    let pe = PeGpUcb::default();
    assert_eq!(pe.shared.noise_std, 0.1);
    assert_eq!(pe.shared.horizon, 0);
    assert!(pe.guard && !pe.xi_strict);
    assert_eq!(OracleGpUcb::default().prior, 2);
}

#[test]
fn every_field_changed_round_trips() {
    let pe = PeGpUcb {
        shared: CHANGED,
        xi_strict: true,
        guard: false,
    };
    assert_eq!(PeGpUcb::read(&resolve(&pe)), pe);
    let rb = RegretBalancing {
        shared: CHANGED,
        xi_strict: true,
        rb_literal_lhs: true,
    };
    assert_eq!(RegretBalancing::read(&resolve(&rb)), rb);
    let mle = MleGpUcb { shared: CHANGED };
    assert_eq!(MleGpUcb::read(&resolve(&mle)), mle);
    let fb = FullyBayesGpUcb { shared: CHANGED };
    assert_eq!(FullyBayesGpUcb::read(&resolve(&fb)), fb);
    let oracle = OracleGpUcb {
        shared: CHANGED,
        prior: 0,
    };
    assert_eq!(OracleGpUcb::read(&resolve(&oracle)), oracle);
}

#[test]
fn out_of_range_values_are_refused_by_name() {
    let message = |settings: &dyn AlgorithmSettings| settings.build().err().unwrap().to_string();
    let pe = PeGpUcb::default().shared(|s| s.delta(1.5));
    assert!(message(&pe).contains("parameter delta = 1.5"));
    let mle = MleGpUcb::default().shared(|s| s.noise_std(0.0));
    assert!(message(&mle).contains("parameter noise_std = 0"));
    let rb = RegretBalancing::default().shared(|s| s.beta_scale(-1.0));
    assert!(message(&rb).contains("parameter beta_scale = -1"));
}

/// The points `settings` asks in 6 steps on the paper's toy problem (a fixed instance),
/// told their noise-free values, and the last recommendation.
fn run(settings: impl AlgorithmSettings + 'static, seed: u64) -> (Vec<Vec<f64>>, Vec<f64>) {
    let toy = || bosweep_problems::build("pe-toy", &[("instance", 3.0.into())]).unwrap();
    let problem = toy();
    let mut opt = Optimizer::builder(settings)
        .problem(toy())
        .seed(seed)
        .init(0)
        .build()
        .unwrap();
    let mut asked = Vec::new();
    for _ in 0..6 {
        let x = opt.ask(1).unwrap().remove(0);
        let step = opt.pending()[0].step;
        if let Some(set) = problem.allowed_set(step) {
            assert!(
                set.iter().any(|c| c == x.as_slice()),
                "{x:?} is not allowed"
            );
        }
        let y = problem.objective_of_interest(&x, step).unwrap();
        opt.tell(&x, y).unwrap();
        asked.push(x);
    }
    (asked, opt.recommend().unwrap().to_vec())
}

#[test]
fn the_optimizer_runs_pe_gp_ucb_on_the_toy_problem_reproducibly() {
    let (asked, recommended) = run(PeGpUcb::default(), 4);
    assert_eq!(asked.len(), 6);
    // The recommendation is the last point evaluated.
    assert_eq!(Some(&recommended), asked.last());
    assert_eq!(run(PeGpUcb::default(), 4), (asked, recommended));
}
