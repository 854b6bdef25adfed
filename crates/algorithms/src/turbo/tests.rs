use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::algorithm::{CandidateRule, TurboAlgorithm};
use super::candidates::{perturbation_probability, perturbed_candidates};
use super::settings::Turbo;
use super::thompson::{JointPosterior, ThompsonBatch};
use super::trust_region::{
    Change, Outcome, RegionSchedule, TrustRegion, constrained_success, default_failure_tolerance,
    improves, side_weights,
};
use crate::testing::resolve;
use bosweep_core::params::Settings;
use bosweep_engine::{CpuEngine, Engine, Points};
use bosweep_model::{GpSpec, GpState, Kernel, KernelFamily, KernelKind, Noise};
use bosweep_problems::Domain;
use bosweep_toolkit::surrogate::OutputTransform;
use bosweep_toolkit::{Algorithm, AlgorithmSettings, AskContext, Feedback, History};

fn schedule() -> RegionSchedule {
    RegionSchedule {
        length_init: 0.8,
        length_min: 0.5f64.powi(7),
        length_max: 1.6,
        success_tolerance: 3,
        failure_tolerance: 0,
    }
}

const SUCCESS: (f64, f64) = (2.0, 1.0);
const FAILURE: (f64, f64) = (1.0, 1.0);

fn counted(success: bool) -> Outcome {
    Outcome {
        success,
        change: Change::Counted,
    }
}

/// Three successes double the side; a failure in between resets the run of successes; the side
/// never doubles beyond `length_max`.
#[test]
fn three_consecutive_successes_double_the_side_up_to_its_maximum() {
    let mut region = TrustRegion::new(schedule(), 2);
    let step = |r: &mut TrustRegion, (new, best): (f64, f64)| r.update(new, best, 1);
    assert_eq!(step(&mut region, SUCCESS), counted(true));
    assert_eq!(step(&mut region, SUCCESS), counted(true));
    assert_eq!(region.successes(), 2);
    assert_eq!(step(&mut region, FAILURE), counted(false));
    assert_eq!((region.successes(), region.failures()), (0, 1));
    for _ in 0..2 {
        assert_eq!(step(&mut region, SUCCESS), counted(true));
    }
    assert_eq!(region.failures(), 0);
    assert_eq!(region.length(), 0.8);
    let outcome = step(&mut region, SUCCESS);
    assert_eq!(outcome.change, Change::Expanded);
    assert_eq!((region.length(), region.successes()), (1.6, 0));
    for _ in 0..2 {
        step(&mut region, SUCCESS);
    }
    assert_eq!(step(&mut region, SUCCESS).change, Change::Expanded);
    assert_eq!(region.length(), 1.6, "capped at length_max");
}

/// In 2-d one point at a time the failure tolerance is ⌈max(4, 2)⌉ = 4: four failures halve the
/// side, a success in between resets the run of failures.
#[test]
fn failure_tolerance_consecutive_failures_halve_the_side() {
    let mut region = TrustRegion::new(schedule(), 2);
    assert_eq!(region.failure_tolerance(1), 4);
    for _ in 0..3 {
        assert_eq!(region.update(FAILURE.0, FAILURE.1, 1), counted(false));
    }
    assert_eq!(region.update(SUCCESS.0, SUCCESS.1, 1), counted(true));
    for _ in 0..3 {
        assert_eq!(region.update(FAILURE.0, FAILURE.1, 1), counted(false));
    }
    assert_eq!(region.failures(), 3);
    assert_eq!(
        region.update(FAILURE.0, FAILURE.1, 1).change,
        Change::Shrunk
    );
    assert_eq!((region.length(), region.failures()), (0.4, 0));
    // A given tolerance replaces the rule.
    let mut given = TrustRegion::new(
        RegionSchedule {
            failure_tolerance: 2,
            ..schedule()
        },
        30,
    );
    assert_eq!(given.failure_tolerance(1), 2);
    given.update(FAILURE.0, FAILURE.1, 1);
    assert_eq!(given.update(FAILURE.0, FAILURE.1, 1).change, Change::Shrunk);
}

/// `⌈max(4/q, d/q)⌉` for several dimensions and batch sizes.
#[test]
fn the_failure_tolerance_follows_the_papers_rule() {
    for (d, q, expected) in [
        (2, 1, 4),
        (10, 1, 10),
        (10, 4, 3),
        (2, 4, 1),
        (3, 2, 2),
        (6, 4, 2),
        (200, 100, 2),
        (200, 1, 200),
        (5, 8, 1),
    ] {
        assert_eq!(
            default_failure_tolerance(d, q),
            expected,
            "d = {d}, q = {q}"
        );
    }
}

/// From 0.8 the side halves to 0.8/2⁷ = 0.00625 < 0.5⁷ on the seventh halving: the region
/// restarts, back at `length_init` with its counters reset.
#[test]
fn the_region_restarts_once_the_side_falls_below_its_minimum() {
    let mut region = TrustRegion::new(schedule(), 2);
    let mut changes = Vec::new();
    for _ in 0..7 * 4 {
        changes.push(region.update(FAILURE.0, FAILURE.1, 1).change);
    }
    let halvings: Vec<usize> = (0..changes.len())
        .filter(|&i| changes[i] != Change::Counted)
        .collect();
    assert_eq!(halvings, vec![3, 7, 11, 15, 19, 23, 27]);
    assert!(changes[..27].iter().all(|c| *c != Change::Restart));
    assert_eq!(changes[27], Change::Restart);
    assert_eq!(region, TrustRegion::new(schedule(), 2));
    // Six halvings leave 0.0125, above the minimum.
    let mut region = TrustRegion::new(schedule(), 2);
    for _ in 0..6 * 4 {
        region.update(FAILURE.0, FAILURE.1, 1);
    }
    assert_eq!(region.length(), 0.8 / 64.0);
}

/// A success needs more than `10⁻³ |best|` of improvement, for positive and negative bests.
#[test]
fn success_is_an_improvement_by_more_than_a_thousandth_of_the_best() {
    assert!(!improves(10.01, 10.0));
    assert!(improves(10.0101, 10.0));
    assert!(!improves(-9.99, -10.0));
    assert!(improves(-9.9899, -10.0));
    assert!(!improves(5.0, 5.0));
    // At a best of 0 any strict improvement counts.
    assert!(improves(1e-300, 0.0));
    assert!(!improves(0.0, 0.0));
}

/// The side weights have geometric mean 1 and keep the lengthscales' ratios; the region is
/// clipped to the cube.
#[test]
fn the_region_is_scaled_by_the_lengthscales_and_clipped_to_the_cube() {
    let weights = side_weights(&[0.1, 0.4, 1.6]);
    assert!((weights.iter().product::<f64>() - 1.0).abs() < 1e-12);
    assert!((weights[0] - 0.25).abs() < 1e-12 && (weights[2] - 4.0).abs() < 1e-12);
    let region = TrustRegion::new(schedule(), 3);
    let (lower, upper) = region.bounds(&[0.5, 0.9, 0.5], &[0.1, 0.4, 1.6]);
    let expected_lower = [0.5 - 0.1, 0.9 - 0.4, 0.0];
    let expected_upper = [0.5 + 0.1, 1.0, 1.0];
    for i in 0..3 {
        assert!((lower[i] - expected_lower[i]).abs() < 1e-12, "{lower:?}");
        assert!((upper[i] - expected_upper[i]).abs() < 1e-12, "{upper:?}");
    }
}

/// Every candidate leaves the centre in at least one coordinate, lies in the region, and keeps
/// the others at the centre's; the perturbed share is `min(20/d, 1)` within 5 standard errors.
#[test]
fn candidates_perturb_about_twenty_coordinates_and_stay_in_the_region() {
    for (dim, count) in [(5, 200), (40, 1000), (100, 1000)] {
        let mut rng = ChaCha8Rng::seed_from_u64(dim as u64);
        let centre: Vec<f64> = (0..dim).map(|_| rng.random::<f64>()).collect();
        let lower: Vec<f64> = centre.iter().map(|c| (c - 0.1f64).max(0.0)).collect();
        let upper: Vec<f64> = centre.iter().map(|c| (c + 0.1f64).min(1.0)).collect();
        let candidates =
            perturbed_candidates(&centre, (lower.clone(), upper.clone()), count, &mut rng).unwrap();
        assert_eq!(candidates.rows(), count);
        let mut perturbed = 0usize;
        for row in candidates.iter() {
            let moved = (0..dim).filter(|&j| row[j] != centre[j]).count();
            assert!(moved >= 1, "a candidate equals the centre");
            assert!((0..dim).all(|j| lower[j] <= row[j] && row[j] <= upper[j]));
            perturbed += moved;
        }
        let p = perturbation_probability(dim);
        let share = perturbed as f64 / (count * dim) as f64;
        let se = (p * (1.0 - p) / (count * dim) as f64).sqrt();
        println!("d = {dim}: perturbed share {share:.4}, expected {p:.4}");
        if p == 1.0 {
            assert_eq!(share, 1.0);
        } else {
            // At least one per candidate adds about (1 − p)^d per candidate.
            let floor = (1.0 - p).powi(dim as i32) / dim as f64;
            assert!((share - p - floor).abs() < 5.0 * se, "{share} against {p}");
        }
    }
}

/// A GP on 12 points in 2-d, and 6 candidates around one of them.
fn small_gp() -> (GpState, Points) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let train: Vec<f64> = (0..24).map(|_| rng.random::<f64>()).collect();
    let train = Points::new(train, 2).unwrap();
    let targets: Vec<f64> = train
        .iter()
        .map(|x| (6.0 * x[0]).sin() + x[1] * x[1])
        .collect();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.5], 1.3).unwrap();
    let gp = GpState::fit(
        train,
        &targets,
        GpSpec::new(kernel, Noise::Homoscedastic(1e-3)).mean(0.2),
    )
    .unwrap();
    let candidates = Points::new(
        vec![
            0.1, 0.2, 0.15, 0.25, 0.5, 0.5, 0.55, 0.45, 0.9, 0.1, 0.3, 0.8,
        ],
        2,
    )
    .unwrap();
    (gp, candidates)
}

/// `k(a, b) − k_aᵀ (K + σ²I)⁻¹ k_b` from a fresh factorisation of the data's covariance.
fn reference_covariance(gp: &GpState, candidates: &Points) -> DMatrix<f64> {
    let kernel = gp.kernel();
    let train = gp.train();
    let n = train.rows();
    let k = DMatrix::from_fn(n, n, |i, j| {
        kernel.eval(train.row(i), train.row(j)) + if i == j { 1e-3 } else { 0.0 }
    });
    let m = candidates.rows();
    let kxc = DMatrix::from_fn(n, m, |i, j| kernel.eval(train.row(i), candidates.row(j)));
    let solved = k.cholesky().unwrap().solve(&kxc);
    DMatrix::from_fn(m, m, |a, b| {
        kernel.eval(candidates.row(a), candidates.row(b)) - kxc.column(a).dot(&solved.column(b))
    })
}

/// The joint posterior's mean is the engine's posterior mean, its factor reproduces the
/// posterior covariance (the engine's variances on the diagonal), and 40 000 sample paths have
/// that mean and covariance within sampling error.
#[test]
fn sample_paths_have_the_posteriors_mean_and_covariance() {
    let engine = CpuEngine::new();
    let (gp, candidates) = small_gp();
    let joint = JointPosterior::new(&engine, &gp, &candidates).unwrap();
    let marginal = engine.posterior(&gp, &candidates).unwrap();
    let covariance = reference_covariance(&gp, &candidates);
    let rebuilt = joint.factor() * joint.factor().transpose();
    let m = candidates.rows();
    for i in 0..m {
        assert!((joint.mean()[i] - marginal.mean[i]).abs() < 1e-10);
        assert!((covariance[(i, i)] - marginal.variance[i]).abs() < 1e-10);
        for j in 0..m {
            let jitter = if i == j { joint.jitter() } else { 0.0 };
            assert!((rebuilt[(i, j)] - covariance[(i, j)] - jitter).abs() < 1e-10);
        }
    }
    let draws = 40_000;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let paths: Vec<Vec<f64>> = (0..draws).map(|_| joint.sample(&mut rng)).collect();
    let mean: Vec<f64> = (0..m)
        .map(|i| paths.iter().map(|p| p[i]).sum::<f64>() / draws as f64)
        .collect();
    for i in 0..m {
        let se = (covariance[(i, i)] / draws as f64).sqrt();
        assert!(
            (mean[i] - marginal.mean[i]).abs() < 5.0 * se,
            "mean {i}: {} against {}",
            mean[i],
            marginal.mean[i]
        );
        for j in 0..m {
            let empirical = paths
                .iter()
                .map(|p| (p[i] - mean[i]) * (p[j] - mean[j]))
                .sum::<f64>()
                / (draws - 1) as f64;
            // The standard error of a sample covariance: √((σ_ii σ_jj + σ_ij²) / N).
            let se = ((covariance[(i, i)] * covariance[(j, j)] + covariance[(i, j)].powi(2))
                / draws as f64)
                .sqrt();
            assert!(
                (empirical - covariance[(i, j)]).abs() < 5.0 * se + 1e-12,
                "covariance ({i}, {j}): {empirical} against {}",
                covariance[(i, j)]
            );
        }
    }
}

/// A batch's draws never choose a candidate twice; once all are chosen there is none left.
#[test]
fn a_batch_never_chooses_a_candidate_twice() {
    let engine = CpuEngine::new();
    let (gp, candidates) = small_gp();
    let mut batch = ThompsonBatch::new(JointPosterior::new(&engine, &gp, &candidates).unwrap());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut chosen: Vec<usize> = (0..6).map(|_| batch.next(&mut rng).unwrap()).collect();
    assert!(!batch.has_unchosen());
    assert_eq!(batch.next(&mut rng), None);
    chosen.sort_unstable();
    assert_eq!(chosen, vec![0, 1, 2, 3, 4, 5]);
}

/// Drives the algorithm by hand on `[0, 1]²`, one ask at a time or with pending points.
struct Bench {
    algorithm: TurboAlgorithm,
    engine: CpuEngine,
    domain: Domain,
    rng: ChaCha8Rng,
}

impl Bench {
    fn new(settings: &Turbo) -> Self {
        Self {
            algorithm: TurboAlgorithm::new(
                resolve(settings),
                settings.clone(),
                CandidateRule::Turbo,
            ),
            engine: CpuEngine::new(),
            domain: Domain::cube(0.0, 1.0, 2).unwrap(),
            rng: ChaCha8Rng::seed_from_u64(3),
        }
    }

    fn ask(&mut self, pending: &[Vec<f64>]) -> Vec<f64> {
        let mut ctx = AskContext {
            engine: &self.engine,
            reference: &self.engine,
            domain: &self.domain,
            allowed: None,
            t: 2,
            pending,
            rng: &mut self.rng,
        };
        self.algorithm.ask(&mut ctx).unwrap().x
    }

    /// Asks `q` points as one batch.
    fn ask_batch(&mut self, q: usize) -> Vec<Vec<f64>> {
        let mut batch = Vec::new();
        for _ in 0..q {
            let x = self.ask(&batch);
            batch.push(x);
        }
        batch
    }

    fn tell(&mut self, x: &[f64], y: f64) {
        let feedback = Feedback {
            x,
            y,
            repeats: &[y],
            context: None,
            t: 1,
            objectives: &[],
            constraints: &[],
        };
        self.algorithm.tell(&feedback).unwrap();
    }

    fn extra(&mut self, key: &str) -> serde_json::Value {
        self.algorithm.extra()[key].clone()
    }
}

/// A smooth value to maximise, best at (0.3, 0.7).
fn value(x: &[f64]) -> f64 {
    -((x[0] - 0.3).powi(2) + (x[1] - 0.7).powi(2))
}

fn told_design(settings: &Turbo) -> Bench {
    let mut bench = Bench::new(settings);
    for x in [[0.1, 0.1], [0.9, 0.2], [0.5, 0.5], [0.2, 0.8], [0.7, 0.9]] {
        bench.tell(&x, value(&x));
    }
    bench
}

/// A batch of four is four distinct candidates of one fit, all in the region around the best
/// point; the counters move once the four are told, with failure tolerance ⌈max(4/4, 2/4)⌉ = 1.
#[test]
fn a_batch_is_distinct_candidates_and_moves_the_counters_once() {
    let settings = Turbo::default().n_candidates(64);
    let mut bench = told_design(&settings);
    let batch = bench.ask_batch(4);
    for (i, x) in batch.iter().enumerate() {
        assert!(batch[..i].iter().all(|y| y != x), "{batch:?}");
        // Centre (0.2, 0.8); side at most 0.8 · max weight ≤ 0.8 · 2 in 2-d, clipped.
        assert!(bench.domain.contains(x));
    }
    assert_eq!(bench.extra("batch"), 4);
    assert_eq!(bench.extra("failure_tolerance"), 1);
    assert_eq!(bench.extra("phase"), "region");
    for x in &batch[..3] {
        bench.tell(x, -10.0);
        assert_eq!(bench.extra("failures"), 0);
        assert_eq!(bench.extra("length"), 0.8);
    }
    bench.tell(&batch[3], -10.0);
    // One failed batch halves the side at failure tolerance 1.
    assert_eq!(bench.extra("length"), 0.4);
    assert_eq!(bench.extra("failures"), 0);
}

/// Failing every step one at a time shrinks the region seven times (4 failures each in 2-d),
/// then the algorithm restarts: the next `restart_design` asks are a Latin hypercube over the
/// box, whose values leave the counters alone, and the GP forgets the old data.
#[test]
fn a_collapsed_region_restarts_from_a_fresh_design() {
    let settings = Turbo::default().n_candidates(32).restart_design(3);
    let mut bench = told_design(&settings);
    for step in 0..28 {
        let x = bench.ask(&[]);
        assert_eq!(bench.extra("restarts"), 0, "step {step}");
        bench.tell(&x, -10.0);
    }
    assert_eq!(bench.extra("restarts"), 1);
    assert_eq!(bench.extra("length"), 0.8);
    assert!(bench.algorithm.data.is_empty());
    let design: Vec<Vec<f64>> = (0..3)
        .map(|_| {
            let x = bench.ask(&[]);
            assert_eq!(bench.extra("phase"), "design");
            bench.tell(&x, -5.0);
            x
        })
        .collect();
    // One point in each third of each coordinate.
    for j in 0..2 {
        let mut strata: Vec<usize> = design.iter().map(|x| (x[j] * 3.0) as usize).collect();
        strata.sort_unstable();
        assert_eq!(strata, vec![0, 1, 2]);
    }
    assert_eq!(bench.algorithm.data.len(), 3);
    assert_eq!(bench.extra("failures"), 0);
    bench.ask(&[]);
    assert_eq!(bench.extra("phase"), "region");
    // The best of the whole run stays the recommendation.
    let engine = CpuEngine::new();
    assert_eq!(bench.algorithm.recommend(&engine).unwrap(), vec![0.2, 0.8]);
}

/// With two points out at a time (asynchronous workers), a point asked before a restart and
/// told after it enters the run's history (the recommendation) but not the new restart's data.
#[test]
fn a_point_asked_before_a_restart_counts_only_for_the_best_value() {
    let settings = Turbo::default()
        .n_candidates(32)
        .restart_design(2)
        .failure_tolerance(1)
        .length_min(0.5);
    let mut bench = told_design(&settings);
    let a = bench.ask(&[]);
    let b = bench.ask(std::slice::from_ref(&a));
    assert_eq!(bench.extra("batch"), 2);
    bench.tell(&a, -10.0);
    assert_eq!(bench.extra("restarts"), 0);
    let c = bench.ask(std::slice::from_ref(&b));
    // The group {a, b} fails: 0.8 halves to 0.4, below length_min = 0.5.
    bench.tell(&b, -10.0);
    assert_eq!(bench.extra("restarts"), 1);
    assert!(bench.algorithm.data.is_empty());
    bench.tell(&c, 100.0);
    assert!(bench.algorithm.data.is_empty());
    let engine = CpuEngine::new();
    assert_eq!(bench.algorithm.recommend(&engine).unwrap(), c);
    bench.ask(&[]);
    assert_eq!(bench.extra("phase"), "design");
}

/// The same seed gives the same points; the trace's fields are there.
#[test]
fn asks_repeat_from_the_seed() {
    let settings = Turbo::default().n_candidates(64);
    let run = || {
        let mut bench = told_design(&settings);
        (0..4)
            .map(|_| {
                let x = bench.ask(&[]);
                bench.tell(&x, value(&x));
                x
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
    let mut bench = told_design(&settings);
    bench.ask(&[]);
    let extra = bench.algorithm.extra();
    for key in [
        "length",
        "successes",
        "failures",
        "failure_tolerance",
        "batch",
        "restarts",
        "phase",
        "jitter",
    ] {
        assert!(extra.contains_key(key), "{key}: {extra:?}");
    }
}

#[test]
fn settings_defaults_are_the_papers_and_round_trip() {
    let defaults = Turbo::default();
    assert_eq!(
        (
            defaults.n_candidates,
            defaults.length_init,
            defaults.length_min,
            defaults.length_max,
            defaults.success_tolerance,
            defaults.failure_tolerance,
        ),
        (0, 0.8, 0.5f64.powi(7), 1.6, 3, 0)
    );
    assert_eq!(defaults.gp.kernel, KernelFamily::Matern52);
    assert_eq!(CandidateRule::Turbo.count(defaults.n_candidates, 10), 1000);
    assert_eq!(CandidateRule::Turbo.count(defaults.n_candidates, 80), 5000);
    // SCBO's tutorial rule: min(5000, max(2000, 200·d)).
    for (dim, count) in [(2, 2000), (12, 2400), (30, 5000)] {
        assert_eq!(CandidateRule::Scbo.count(0, dim), count);
    }
    assert_eq!(CandidateRule::Scbo.count(300, 30), 300);
    let changed = Turbo::default()
        .n_candidates(300)
        .length_init(0.5)
        .length_min(0.01)
        .length_max(1.0)
        .success_tolerance(2)
        .failure_tolerance(5)
        .restart_design(7)
        .gp(|gp| gp.kernel(KernelFamily::Matern32));
    assert_eq!(Turbo::read(&resolve(&changed)), changed);
    let err = Turbo::default().length_init(2.0).build().err().unwrap();
    assert!(err.to_string().contains("length_init = 2"), "{err}");
}

/// SCBO's success rule by hand, on data whose points carry their total violations: a feasible
/// group best beats an infeasible earlier best outright and a feasible one by TuRBO's relative
/// rule; an infeasible group best succeeds only by a smaller violation than an infeasible
/// earlier best, never over a feasible one; with no earlier point, any group best succeeds.
#[test]
fn scbo_counts_feasibility_first() {
    let data = |points: &[(f64, f64)]| {
        let mut history = History::default();
        for (i, &(y, c)) in points.iter().enumerate() {
            history.push_constrained(&[i as f64], y, &[c]);
        }
        history
    };
    // Earlier (0, 1), group (2): (value, constraint value).
    let cases = [
        ([(1.0, 0.5), (0.0, 2.0), (-5.0, -1.0)], true), // feasible over infeasible
        ([(1.0, -0.5), (0.0, 2.0), (1.5, -1.0)], true), // feasible, better by > 1e-3
        ([(1.0, -0.5), (0.0, 2.0), (1.0005, -1.0)], false), // feasible, not better enough
        ([(1.0, 0.5), (0.0, 2.0), (9.0, 0.4)], true),   // infeasible, smaller violation
        ([(1.0, 0.5), (0.0, 2.0), (9.0, 0.6)], false),  // infeasible, larger violation
        ([(1.0, -0.5), (0.0, 2.0), (9.0, 0.1)], false), // infeasible never beats feasible
    ];
    for (points, success) in cases {
        assert_eq!(
            constrained_success(&data(&points), &[2]),
            success,
            "{points:?}"
        );
    }
    assert!(constrained_success(&data(&[(0.0, 3.0)]), &[0]));
}

/// A GP through `targets` at `points` with noise 1e-10: its joint posterior there is the
/// targets themselves, so a Thompson path reads them back.
fn interpolating_gp(points: &Points, targets: &[f64]) -> GpState {
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.3], 1.0).unwrap();
    GpState::fit(
        points.clone(),
        targets,
        GpSpec::new(kernel, Noise::Homoscedastic(1e-10)),
    )
    .unwrap()
}

/// The constrained Thompson draw picks the best objective among the candidates sampled
/// feasible (the constraint's units through its standardisation), never one chosen before,
/// and, once none of those left is feasible, the least violating.
#[test]
fn scbo_draws_the_best_feasible_candidate_else_the_least_violating() {
    let engine = CpuEngine::new();
    let candidates =
        Points::new(vec![0.1, 0.1, 0.5, 0.2, 0.9, 0.3, 0.2, 0.8, 0.7, 0.7], 2).unwrap();
    let objective = interpolating_gp(&candidates, &[5.0, 1.0, 4.0, 3.0, 2.0]);
    // In the constraint's units (mean 1, std 2): −1, 1, −1, 3, 2 (feasible: 0 and 2).
    let output = OutputTransform {
        mean: 1.0,
        std: 2.0,
    };
    let constraint = interpolating_gp(&candidates, &[-1.0, 0.0, -1.0, 1.0, 0.5]);
    let mut batch =
        ThompsonBatch::new(JointPosterior::new(&engine, &objective, &candidates).unwrap());
    let constraints = [(
        JointPosterior::new(&engine, &constraint, &candidates).unwrap(),
        output,
    )];
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let chosen: Vec<usize> = (0..5)
        .map(|_| batch.next_constrained(&constraints, &mut rng).unwrap())
        .collect();
    // Feasible 0 (5.0) then 2 (4.0); then the violations 1 (1), 4 (2), 3 (3).
    assert_eq!(chosen, [0, 2, 1, 4, 3]);
    assert_eq!(batch.next_constrained(&constraints, &mut rng), None);
}
