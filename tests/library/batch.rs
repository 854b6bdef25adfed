//! Batches of GP-UCB and EI: both pending-point strategies (the Kriging believer and local
//! penalisation) give distinct points, repeatably, over a box and over a finite allowed set;
//! GP-BUCB's multiplier under the believer; EI's incumbent counts the believed values; the batch
//! parameters are checked like every other.

use bosweep::algorithms::{
    self, Algorithm, AlgorithmSettings, AskContext, Ei, Feedback, GpUcb, Optimizer,
    PendingStrategy, RandomSearchSettings, Registered,
};
use bosweep::compute::{CpuEngine, Points};
use bosweep::params::ParamValue;
use bosweep::problems::Domain;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::common::{TestProblem, observed_exactly};

/// The objective of these tests: one smooth peak at (0.3, 0.6) of the unit square.
fn peak(x: &[f64]) -> f64 {
    -(x[0] - 0.3).powi(2) - (x[1] - 0.6).powi(2)
}

/// GP-UCB and EI under both strategies, with a small grid.
fn every_batch_method() -> Vec<(String, Box<dyn AlgorithmSettings>)> {
    let mut methods: Vec<(String, Box<dyn AlgorithmSettings>)> = Vec::new();
    for strategy in [
        PendingStrategy::KrigingBeliever,
        PendingStrategy::LocalPenalization,
    ] {
        methods.push((
            format!("gp-ucb {strategy:?}"),
            Box::new(
                GpUcb::default()
                    .maximizer(|m| m.grid_size(256))
                    .pending(strategy),
            ),
        ));
        methods.push((
            format!("ei {strategy:?}"),
            Box::new(
                Ei::default()
                    .maximizer(|m| m.grid_size(256))
                    .pending(strategy),
            ),
        ));
    }
    methods
}

/// `settings` as the registry's name and keys, for the builder (which takes them by value).
fn registered(settings: &dyn AlgorithmSettings) -> Registered {
    settings
        .given()
        .into_iter()
        .fold(Registered::new(settings.name()), |r, (k, v)| r.with(k, v))
}

/// Sixteen points asked at once after the design on the unit square are pairwise distinct,
/// inside the box, the same for the same seed; the first is the sequential step's, whatever the
/// strategy.
#[test]
fn batches_of_sixteen_are_distinct_and_repeat_with_their_seed() {
    let batch = |settings: &dyn AlgorithmSettings, q: usize| {
        let builder = Optimizer::builder(registered(settings)).maximize().seed(5);
        crate::common::batch_after_design(builder, peak, q)
    };
    for (what, settings) in every_batch_method() {
        let points = batch(settings.as_ref(), 16);
        assert_eq!(points.len(), 16, "{what}");
        assert!(
            points.iter().flatten().all(|v| (0.0..=1.0).contains(v)),
            "{what}: {points:?}"
        );
        crate::common::assert_apart(&points, 1e-6, &what);
        assert_eq!(batch(settings.as_ref(), 16), points, "{what}");
        assert_eq!(batch(settings.as_ref(), 1), points[..1], "{what}");
    }
}

/// The lattice {0, 0.25, …, 1}² (of `side` = 5) with the peak's values: a problem whose domain
/// is a finite allowed set.
fn lattice_problem(side: usize) -> TestProblem {
    let step = 1.0 / (side - 1) as f64;
    let rows: Vec<[f64; 2]> = (0..side * side)
        .map(|i| [(i / side) as f64 * step, (i % side) as f64 * step])
        .collect();
    TestProblem {
        name: "lattice",
        domain: Domain::cube(0.0, 1.0, 2).unwrap(),
        observe: observed_exactly,
        objective: Some(peak),
        sets: vec![Points::from_rows(&rows).unwrap()],
        knows_optimum: false,
    }
}

/// Over a finite allowed set a batch as large as the set less the told points never repeats a
/// point, whatever the strategy; asking for more than the set holds is refused, naming why.
#[test]
fn batches_over_an_allowed_set_never_repeat_a_point() {
    let lattice = |settings: &dyn AlgorithmSettings, side: usize, init: usize| {
        let mut opt = Optimizer::builder(registered(settings))
            .problem(Box::new(lattice_problem(side)))
            .seed(3)
            .init(init)
            .build()
            .unwrap();
        for x in opt.ask(init).unwrap() {
            opt.tell(&x, peak(&x)).unwrap();
        }
        opt
    };
    let set = lattice_problem(5).sets.remove(0);
    // Random search too: its batch draws among the rows not pending.
    let random: (String, Box<dyn AlgorithmSettings>) =
        ("random".into(), Box::new(RandomSearchSettings::default()));
    for (what, settings) in every_batch_method().into_iter().chain([random]) {
        let points = lattice(settings.as_ref(), 5, 5).ask(20).unwrap();
        assert_eq!(points.len(), 20, "{what}");
        crate::common::assert_apart(&points, 1e-6, &what);
        assert!(
            points
                .iter()
                .all(|x| set.iter().any(|row| row == x.as_slice())),
            "{what}: {points:?}"
        );

        let mut opt = lattice(settings.as_ref(), 2, 2);
        let err = opt.ask(5).unwrap_err().to_string();
        assert!(
            err.contains("every one of the 4 points of the allowed set is pending"),
            "{what}: {err}"
        );
        assert_eq!(opt.pending().len(), 4, "{what}");
    }
}

/// Asks `algorithm` (told `design` with the peak's values) on the unit square with `pending`
/// points pending, returning its proposal and the step's `extra`.
fn ask_with_pending(
    algorithm: &mut dyn Algorithm,
    pending: &[Vec<f64>],
    t: usize,
) -> (Vec<f64>, serde_json::Map<String, serde_json::Value>) {
    let engine = CpuEngine::new();
    let domain = Domain::cube(0.0, 1.0, 2).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let proposal = algorithm
        .ask(&mut AskContext {
            engine: &engine,
            reference: &engine,
            domain: &domain,
            allowed: None,
            t,
            pending,
            rng: &mut rng,
        })
        .unwrap();
    let extra = algorithm.step_log().unwrap().extra.clone();
    (proposal.x, extra)
}

const DESIGN: [[f64; 2]; 5] = [[0.1, 0.1], [0.9, 0.2], [0.5, 0.5], [0.2, 0.9], [0.8, 0.8]];

fn told(name: &str, given: &[(&str, ParamValue)], design: &[[f64; 2]]) -> Box<dyn Algorithm> {
    let mut algorithm = algorithms::build(name, given).unwrap();
    for (i, x) in design.iter().enumerate() {
        let y = peak(x);
        algorithm
            .tell(&Feedback {
                x,
                y,
                repeats: &[y],
                context: None,
                t: i + 1,
                objectives: &[],
                constraints: &[],
            })
            .unwrap();
    }
    algorithm
}

/// Under the believer, GP-BUCB multiplies κ by exp(C) once a point is pending (constant
/// schedule: exp(C)·κ; Srinivas: √β at the observations told plus one, times exp(C)); with
/// nothing pending, or under local penalisation, κ is the sequential one. Local penalisation
/// records its Lipschitz estimate only with points pending.
#[test]
fn the_bucb_multiplier_applies_to_the_believer_with_points_pending() {
    let given = [
        ("grid_size", 128.0.into()),
        ("ucb_multiplier", 1.5.into()),
        ("bucb_c", 0.5.into()),
    ];
    let mut ucb = told("gp-ucb", &given, &DESIGN);
    let (first, extra) = ask_with_pending(ucb.as_mut(), &[], 6);
    assert_eq!(extra["ucb_multiplier"], 1.5);
    assert!(!extra.contains_key("lipschitz"));
    let (second, extra) = ask_with_pending(ucb.as_mut(), std::slice::from_ref(&first), 7);
    assert_eq!(extra["ucb_multiplier"], 1.5 * 0.5f64.exp());
    assert_ne!(second, first);

    let srinivas = [
        ("grid_size", 128.0.into()),
        ("beta_schedule", "srinivas".into()),
        ("delta", 0.1.into()),
        ("bucb_c", 0.5.into()),
    ];
    let mut ucb = told("gp-ucb", &srinivas, &DESIGN);
    // Step 9 with five observations told: β is taken at t = 6.
    let (_, extra) = ask_with_pending(ucb.as_mut(), &[vec![0.3, 0.3]], 9);
    let beta = 2.0 * (128.0 * 36.0 * std::f64::consts::PI.powi(2) / 0.6).ln();
    let kappa = extra["ucb_multiplier"].as_f64().unwrap();
    assert!(
        (kappa - beta.sqrt() * 0.5f64.exp()).abs() < 1e-12,
        "{kappa}"
    );

    let mut penalized = told(
        "gp-ucb",
        &[&given[..], &[("pending", "penalize".into())]].concat(),
        &DESIGN,
    );
    let (first, extra) = ask_with_pending(penalized.as_mut(), &[], 6);
    assert!(!extra.contains_key("lipschitz"));
    let (second, extra) = ask_with_pending(penalized.as_mut(), std::slice::from_ref(&first), 7);
    assert_eq!(extra["ucb_multiplier"], 1.5);
    let lipschitz = extra["lipschitz"].as_f64().unwrap();
    assert!(lipschitz.is_finite() && lipschitz > 0.0, "{lipschitz}");
    assert_ne!(second, first);
}

/// Under the believer EI's incumbent is the best of the observed and the believed values: with
/// a point pending at the peak, inside a ring of the best observations, the posterior mean there
/// beats every observation and becomes `best_f`.
#[test]
fn the_believers_incumbent_counts_the_believed_values() {
    let ring = [
        [0.25, 0.6],
        [0.35, 0.6],
        [0.3, 0.55],
        [0.3, 0.65],
        [0.9, 0.1],
        [0.1, 0.1],
        [0.9, 0.9],
    ];
    let mut ei = told("ei", &[("grid_size", 128.0.into())], &ring);
    let best_observed = ring.iter().map(|x| peak(x)).fold(f64::MIN, f64::max);
    let (_, extra) = ask_with_pending(ei.as_mut(), &[], 6);
    assert_eq!(extra["best_f"], best_observed);
    let (x, extra) = ask_with_pending(ei.as_mut(), &[vec![0.3, 0.6]], 7);
    let best_f = extra["best_f"].as_f64().unwrap();
    assert!(best_f > best_observed, "{best_f} ≤ {best_observed}");
    assert_ne!(x, vec![0.3, 0.6]);
}

/// The batch parameters take the registry's checks and words.
#[test]
fn batch_parameters_are_checked_and_named() {
    let err = crate::common::build_error(GpUcb::default().bucb_c(11.0));
    assert_eq!(
        err.to_string(),
        "algorithm gp-ucb: parameter bucb_c = 11 is invalid (must be a number in [0, 10])"
    );
    crate::common::same_parameters(
        &Ei::default().pending(PendingStrategy::LocalPenalization),
        &[("pending", "penalize".into())],
    );
    crate::common::same_parameters(&GpUcb::default().bucb_c(2.5), &[("bucb_c", 2.5.into())]);
}
