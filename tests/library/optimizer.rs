//! The library's `Optimizer`: typed settings that build what the registry builds, ask/tell that
//! makes the decisions of a run with the same seed, and the ask/tell protocol's rules.

use bosweep::algorithms::{
    self, Algorithm, AlgorithmError, AlgorithmSettings, Ei, FitChoice, GpSettings, GpUcb,
    Optimizer, OptimizerError, RandomSearchSettings, Registered, Requirement, UcbSchedule,
};
use bosweep::compute::CpuEngine;
use bosweep::model::KernelFamily;
use bosweep::params::ParamValue;
use bosweep::problems::{self, Observation};

use crate::common::{self, RunRequest, same_parameters, traced_run};

#[test]
fn typed_settings_build_what_their_keys_build() {
    same_parameters(&GpUcb::default(), &[]);
    same_parameters(&Ei::default(), &[]);
    same_parameters(&RandomSearchSettings::default(), &[]);
    same_parameters(
        &GpUcb::default()
            .ucb_multiplier(1.5)
            .gp(|gp| {
                gp.kernel(KernelFamily::RationalQuadratic)
                    .rq_alpha(0.7)
                    .fit(FitChoice::Mle)
            })
            .maximizer(|m| m.grid_size(512)),
        &[
            ("ucb_multiplier", 1.5.into()),
            ("kernel", "rq".into()),
            ("rq_alpha", 0.7.into()),
            ("fit", "mle".into()),
            ("grid_size", 512.0.into()),
        ],
    );
    same_parameters(
        &GpUcb::default()
            .beta_schedule(UcbSchedule::Srinivas)
            .delta(0.05),
        &[("beta_schedule", "srinivas".into()), ("delta", 0.05.into())],
    );
    same_parameters(
        &Ei::default().gp(|gp| {
            gp.noise_var(1e-3)
                .warm_start(false)
                .fit(FitChoice::MapDimensionScaled)
        }),
        &[
            ("noise_var", 1e-3.into()),
            ("warm_start", "false".into()),
            ("fit", "map-dsp".into()),
        ],
    );
    same_parameters(
        &Registered::new("boke").with("kappa", 3.0),
        &[("kappa", 3.0.into())],
    );
}

#[test]
fn typed_values_out_of_range_get_the_registry_message() {
    let settings = GpUcb {
        gp: GpSettings {
            lengthscale: -1.0,
            ..GpSettings::default()
        },
        ..GpUcb::default()
    };
    let err = common::build_error(settings);
    assert_eq!(
        err.to_string(),
        "algorithm gp-ucb: parameter lengthscale = -1 is invalid (must be a number in [1e-6, 1000000])"
    );
    let err = common::build_error(Registered::new("nope"));
    assert!(
        err.to_string().starts_with("unknown algorithm \"nope\""),
        "{err}"
    );
    let err = Optimizer::builder(Ei::default())
        .bounds(&[(1.0, 0.0)])
        .build()
        .err()
        .unwrap();
    assert!(err.to_string().starts_with("bounds: "), "{err}");
    let err = Optimizer::builder(Ei::default()).build().err().unwrap();
    assert_eq!(err.to_string(), "bounds: give the box, or a problem");
}

/// Asked and told by hand on Branin's box with Branin's values, every algorithm makes the
/// decisions and recommendations of a run of the same seed (a noise-free problem: the run
/// draws no observation noise from the stream the algorithm also draws from).
#[test]
fn ask_tell_makes_the_decisions_of_a_run() {
    let engine = CpuEngine::new();
    let cases: [(&str, Box<dyn AlgorithmSettings>); 4] = [
        ("gp-ucb", Box::new(GpUcb::default())),
        ("ei", Box::new(Ei::default())),
        ("random", Box::new(RandomSearchSettings::default())),
        ("boke", Box::new(Registered::new("boke"))),
    ];
    let branin = problems::build("branin", &[]).unwrap();
    let bounds: Vec<(f64, f64)> = (0..2)
        .map(|i| (branin.domain().lower()[i], branin.domain().upper()[i]))
        .collect();
    for (name, settings) in cases {
        let request = RunRequest {
            algo: name,
            params: &[],
            problem: "branin",
            budget: 9,
            init: 4,
            seed: 5,
        };
        let (_, lines) = traced_run(&engine, &request);
        let mut opt = Optimizer::builder(Boxed(settings))
            .bounds(&bounds)
            .seed(5)
            .init(4)
            .minimize()
            .build()
            .unwrap();
        for (i, step) in lines[1..].iter().enumerate() {
            let x = opt.ask(1).unwrap().remove(0);
            assert_eq!(serde_json::json!(x), step["x"], "{name} step {}", i + 1);
            let y = step["y"].as_f64().unwrap();
            opt.tell(&x, y).unwrap();
            assert_eq!(
                serde_json::json!(opt.recommend().unwrap()),
                step["recommended_x"],
                "{name} step {}",
                i + 1
            );
        }
        assert_eq!(opt.steps(), 9);
    }
}

/// Boxed settings as settings, so that one list holds several kinds.
struct Boxed(Box<dyn AlgorithmSettings>);

impl AlgorithmSettings for Boxed {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn given(&self) -> Vec<(&str, ParamValue)> {
        self.0.given()
    }

    fn build(&self) -> Result<Box<dyn Algorithm>, AlgorithmError> {
        self.0.build()
    }

    fn requires(&self) -> Result<Requirement, AlgorithmError> {
        self.0.requires()
    }

    fn check_libraries(&self) -> Result<(), AlgorithmError> {
        self.0.check_libraries()
    }
}

fn invalid(result: Result<impl std::fmt::Debug, OptimizerError>) -> String {
    match result {
        Err(OptimizerError::Invalid(message)) => message,
        other => panic!("expected an invalid call, got {other:?}"),
    }
}

/// The initial design can be asked in batches and told in any order; past it, once the design
/// is told, GP-UCB proposes batches (its Kriging believer takes the pending points into account).
#[test]
fn ask_hands_out_the_design_then_the_algorithms_batches() {
    let mut opt = Optimizer::builder(GpUcb::default())
        .bounds(&[(0.0, 1.0), (0.0, 2.0)])
        .seed(3)
        .init(5)
        .build()
        .unwrap();
    assert_eq!(
        invalid(opt.ask(0)),
        "ask: n = 0 (ask for at least one point)"
    );
    let first = opt.ask(3).unwrap();
    let rest = opt.ask(8).unwrap();
    assert_eq!((first.len(), rest.len()), (3, 2));
    // The design is the one every algorithm of a sweep replicate with this seed starts from.
    let domain = bosweep::problems::Domain::new(vec![0.0, 0.0], vec![1.0, 2.0]).unwrap();
    let design = algorithms::optimizer::box_design(
        &domain,
        5,
        &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(3),
    )
    .unwrap();
    assert_eq!([first.clone(), rest.clone()].concat(), design);
    let steps: Vec<usize> = opt.pending().iter().map(|p| p.step).collect();
    assert_eq!(steps, [1, 2, 3, 4, 5]);

    let message = invalid(opt.ask(1));
    assert!(
        message.starts_with(&format!(
            "ask: the point {:?} asked at step 1 has not been told yet",
            first[0]
        )),
        "{message}"
    );
    let f = |x: &[f64]| (x[0] - 0.3).powi(2) + (x[1] - 1.0).powi(2);
    for x in rest.iter().chain(first.iter().rev()) {
        opt.tell(x, f(x)).unwrap();
    }
    assert!(opt.pending().is_empty());
    assert_eq!(
        invalid(opt.tell(&[0.5, 0.5], 1.0)),
        "tell: no point was asked (ask first)"
    );
    let next = opt.ask(4).unwrap();
    assert_eq!(next.len(), 4);
    let steps: Vec<usize> = opt.pending().iter().map(|p| p.step).collect();
    assert_eq!(steps, [6, 7, 8, 9]);
    assert_eq!(
        invalid(opt.tell(&[0.5, 0.5], 1.0)),
        "tell: x = [0.5, 0.5] is not one of the 4 points asked and not told"
    );
    assert_eq!(
        invalid(opt.tell(&next[0], f64::NAN)),
        "tell: value 0 of y is NaN (must be finite)"
    );
    assert_eq!(
        invalid(opt.tell_observation(&next[0], Observation::new(vec![1.0, 2.0], None))),
        "tell: 2 values for a point asked with repeats = 1"
    );
    assert_eq!(
        invalid(opt.tell_observation(&next[0], Observation::new(vec![1.0], Some(vec![0.5])))),
        "tell: a context was given to an optimizer without context_bounds"
    );
    for x in &next {
        opt.tell(x, f(x)).unwrap();
    }
    assert_eq!(opt.steps(), 9);
}

/// A batch never proposes a pending point again: each of its points is chosen with the earlier
/// ones conditioned on as if they had returned their posterior mean, which collapses the
/// variance there. The same seed gives the same batch; a batch of one is the sequential step.
#[test]
fn gp_batches_spread_out_and_repeat_with_their_seed() {
    let f = |x: &[f64]| (x[0] - 0.3).powi(2) + (x[1] - 0.6).powi(2);
    let batch = |settings: GpUcb, q: usize| {
        common::batch_after_design(Optimizer::builder(settings).seed(11), f, q)
    };
    let settings = GpUcb::default().maximizer(|m| m.grid_size(512));
    let points = batch(settings.clone(), 4);
    assert_eq!(points.len(), 4);
    for a in &points {
        assert!(a.iter().all(|v| (0.0..=1.0).contains(v)), "{a:?}");
    }
    common::assert_apart(&points, 1e-3, "a GP-UCB batch");
    assert_eq!(batch(settings.clone(), 4), points);
    // The batch's first point is the one a sequential ask chooses.
    assert_eq!(batch(settings, 1), points[..1]);
}

/// A method without a batch version proposes one point and waits for its value: `ask(n)` with
/// n > 1 is refused after the design (as a sweep refuses its batches), and asking again before
/// telling the point is refused, naming it.
#[test]
fn methods_without_a_batch_version_ask_one_point_at_a_time() {
    let mut opt = Optimizer::builder(Registered::new("map-gp-ucb").with("grid_size", 256.0))
        .bounds(&[(0.0, 1.0)])
        .seed(2)
        .init(4)
        .build()
        .unwrap();
    for x in opt.ask(4).unwrap() {
        opt.tell(&x, (x[0] - 0.4).powi(2)).unwrap();
    }
    assert_eq!(
        invalid(opt.ask(3)),
        "ask: n = 3, but the algorithm proposes one point at a time (it has no batch version); \
         ask for one point"
    );
    let next = opt.ask(1).unwrap();
    assert_eq!(next.len(), 1);
    assert_eq!(
        invalid(opt.ask(1)),
        format!(
            "ask: the point {:?} asked at step 5 has not been told yet; the algorithm needs every \
             value told before the next point (tell first)",
            next[0]
        )
    );
}

/// Told values are minimised by default and maximised on request: the recommendation of the
/// design alone is its best point in the optimizer's sense.
#[test]
fn the_sense_decides_which_value_is_best() {
    for (maximize, want) in [(false, 0.1), (true, 0.9)] {
        let builder = Optimizer::builder(RandomSearchSettings::default())
            .bounds(&[(0.0, 1.0)])
            .init(3);
        let mut opt = if maximize {
            builder.maximize()
        } else {
            builder
        }
        .build()
        .unwrap();
        let points = opt.ask(3).unwrap();
        // Values by the order asked, not by x: the best is the point told `want`.
        let values = [0.5, 0.1, 0.9];
        for (x, y) in points.iter().zip(values) {
            opt.tell(x, y).unwrap();
        }
        let best = values.iter().position(|v| *v == want).unwrap();
        assert_eq!(opt.recommend().unwrap(), points[best].as_slice());
    }
}
