//! PE-GP-UCB and its baselines (Ziomek, Adachi and Osborne, "Time-Varying Gaussian Process
//! Bandits with Unknown Prior", AISTATS 2025): checkable cases numbered T1–T16, the number in
//! each test's name (T5, the schedules β_t and ξ_t of Theorem 4.1, is the unit test of
//! `pe_gp_ucb::schedules`), the incremental posterior against full recomputation, and the
//! problems of the paper's experiments (Section 7).

use crate::common;

use std::sync::Arc;

use bosweep::algorithms::pe_gp_ucb::algorithm::{balancing_survivors, elimination_threshold};
use bosweep::algorithms::pe_gp_ucb::schedules::beta;
use bosweep::algorithms::pe_gp_ucb::{
    PosteriorPath, PriorPosteriors, Rule, Settings, UnknownPriorSettings, UnknownPriorUcb,
};
use bosweep::algorithms::{Algorithm, AlgorithmError, AskContext, Feedback, Proposal};
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{CandidatePrior, CandidatePriors, KernelGroup};
use bosweep::model::{Kernel, KernelKind};
use bosweep::problems::time_varying::{intel, toy};
use bosweep::problems::{self, Domain, Problem, Step};
use bosweep::sweep::RunConfig;
use common::{RunRequest, rng, run_to_trace, traced_run};
use nalgebra::DMatrix;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use serde_json::{Map, Value};

fn settings(posterior: PosteriorPath) -> Settings {
    Settings {
        shared: UnknownPriorSettings {
            noise_std: 0.1,
            delta: 0.1,
            horizon: 0,
            beta_scale: 1.0,
            posterior,
        },
        xi_strict: false,
    }
}

fn algorithm(priors: Arc<CandidatePriors>, rule: Rule, settings: Settings) -> UnknownPriorUcb {
    UnknownPriorUcb::new(priors, rule, settings, Vec::new()).unwrap()
}

const PE: Rule = Rule::PriorElimination { guard: true };

/// A prior set of stationary kernels over `candidates`: `(lengthscale, ε)` per group, and
/// `(constant mean, group)` per prior.
fn stationary_set(
    candidates: &Points,
    groups: &[(f64, f64)],
    priors: &[(f64, usize)],
    horizon: usize,
) -> Arc<CandidatePriors> {
    let n = candidates.rows();
    let groups = groups
        .iter()
        .map(|&(l, epsilon)| {
            let k = Kernel::new(
                KernelKind::SquaredExponential,
                vec![l; candidates.dim()],
                1.0,
            )
            .unwrap();
            KernelGroup {
                spatial: DMatrix::from_fn(n, n, |i, j| {
                    k.eval(candidates.row(i), candidates.row(j))
                }),
                epsilon,
                stationary: Some(k),
            }
        })
        .collect();
    let priors = priors
        .iter()
        .map(|&(m, group)| CandidatePrior {
            label: format!("mean {m}"),
            mean: vec![m; n],
            group,
        })
        .collect();
    Arc::new(CandidatePriors::new(candidates.clone(), groups, priors, horizon, None).unwrap())
}

/// What one manually driven step did.
struct StepLog {
    x: Vec<f64>,
    extra: Map<String, Value>,
    alive_before: Vec<bool>,
    alive_after: Vec<bool>,
    width_sums: Vec<f64>,
}

/// The run loop without the runner: ask, observe with `observe(x, t, rng)`, tell.
fn drive(
    algo: &mut UnknownPriorUcb,
    engine: &dyn Engine,
    domain: &Domain,
    allowed: &dyn Fn(usize) -> Option<Points>,
    observe: &mut dyn FnMut(&[f64], usize, &mut ChaCha8Rng) -> f64,
    steps: usize,
    seed: u64,
) -> Vec<StepLog> {
    let mut r = rng(seed);
    let mut logs = Vec::new();
    for t in 1..=steps {
        let alive_before = algo.alive().to_vec();
        let set = allowed(t);
        let proposal = ask_at(algo, (engine, domain, set.as_ref()), t, &mut r).unwrap();
        let y = observe(&proposal.x, t, &mut r);
        algo.tell(&Feedback {
            x: &proposal.x,
            y,
            repeats: &[y],
            context: None,
            t,
            objectives: &[],
            constraints: &[],
        })
        .unwrap();
        logs.push(StepLog {
            x: proposal.x,
            extra: algo.extra(),
            alive_before,
            alive_after: algo.alive().to_vec(),
            width_sums: algo.width_sums().to_vec(),
        });
    }
    logs
}

fn selected(log: &StepLog) -> usize {
    log.extra["selected_prior"].as_u64().unwrap() as usize
}

fn number(log: &StepLog, key: &str) -> f64 {
    log.extra[key].as_f64().unwrap()
}

/// 50 candidates drawn uniformly from the unit square with `seed`, and the prior set over them
/// of two stationary kernel groups (ℓ = 0.3 and 0.15, ε = 0.05) with `priors` up to `horizon`;
/// with the generator, which goes on drawing.
fn two_group_set(
    seed: u64,
    priors: &[(f64, usize)],
    horizon: usize,
) -> (ChaCha8Rng, Points, Arc<CandidatePriors>) {
    let mut r = rng(seed);
    let candidates = common::uniform_points(&mut r, 50, 2, 0.0, 1.0);
    let set = stationary_set(&candidates, &[(0.3, 0.05), (0.15, 0.05)], priors, horizon);
    (r, candidates, set)
}

/// `algo`'s proposal at step `t` on `engine` over `domain` (and the `allowed` set), nothing
/// pending.
fn ask_at(
    algo: &mut dyn Algorithm,
    (engine, domain, allowed): (&dyn Engine, &Domain, Option<&Points>),
    t: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Proposal, AlgorithmError> {
    algo.ask(&mut AskContext {
        engine,
        reference: &CpuEngine::new(),
        domain,
        allowed,
        t,
        pending: &[],
        rng,
    })
}

/// One point, `k_s = 1`, ε = 0.19 (ρ = 0.9), R = 0.1, prior mean `m`: the posterior after
/// `y_1 = 1` at time 1, queried at times 2 and 3, by both paths.
fn one_point_posterior(m: f64, path: PosteriorPath) -> [(f64, f64); 2] {
    let candidates = Points::new(vec![0.0], 1).unwrap();
    let set = stationary_set(&candidates, &[(1.0, 0.19)], &[(m, 0)], 10);
    let mut post = PriorPosteriors::new(set, 0.1, path).unwrap();
    post.observe(0, 1, 1.0).unwrap();
    let engine = CpuEngine::new();
    [2, 3].map(|t| {
        let p = post.posterior(&engine, t, &[true]).unwrap();
        (p.mean[0][0], p.std[0][0] * p.std[0][0])
    })
}

#[test]
fn t1_t2_temporal_posterior_by_hand() {
    for path in [PosteriorPath::Incremental, PosteriorPath::Engine] {
        let [(m2, v2), (m3, v3)] = one_point_posterior(0.0, path);
        assert!((m2 - 0.891089108911).abs() < 1e-9, "{path:?}: μ(2) = {m2}");
        assert!((v2 - 0.198019801980).abs() < 1e-9, "{path:?}: σ²(2) = {v2}");
        assert!((m3 - 0.801980198020).abs() < 1e-9, "{path:?}: μ(3) = {m3}");
        assert!((v3 - 0.350396039604).abs() < 1e-9, "{path:?}: σ²(3) = {v3}");
        // T2: the residual is taken against the prior mean at the data point.
        let [(m2, _), _] = one_point_posterior(5.0, path);
        assert!((m2 - 1.435643564356).abs() < 1e-9, "{path:?}: μ(2) = {m2}");
    }
}

#[test]
fn t14_kernel_matrix_with_time_decay() {
    let k = Kernel::new(KernelKind::SquaredExponential, vec![0.3], 1.0)
        .unwrap()
        .with_time_decay(0.19)
        .unwrap();
    let expected = [[1.0, 0.9, 0.81], [0.9, 1.0, 0.9], [0.81, 0.9, 1.0]];
    for (i, row) in expected.iter().enumerate() {
        for (j, want) in row.iter().enumerate() {
            let v = k.eval(&[0.4, (i + 1) as f64], &[0.4, (j + 1) as f64]);
            assert!((v - want).abs() < 1e-12, "K[{i},{j}] = {v}");
        }
    }
}

/// Dense from-scratch posterior of one prior with spatial matrix `ks`, for any PSD `ks`.
fn dense_posterior(
    ks: &DMatrix<f64>,
    epsilon: f64,
    noise_var: f64,
    data: &[(usize, usize, f64)],
    mean: f64,
    t: usize,
) -> (Vec<f64>, Vec<f64>, f64) {
    let rho = (1.0 - epsilon).sqrt();
    let n = data.len();
    let cov =
        |a: (usize, usize), b: (usize, usize)| ks[(a.0, b.0)] * rho.powi(a.1.abs_diff(b.1) as i32);
    let mut a = DMatrix::from_fn(n, n, |i, j| {
        cov((data[i].0, data[i].1), (data[j].0, data[j].1))
    });
    for i in 0..n {
        a[(i, i)] += noise_var;
    }
    let chol = a.cholesky().unwrap();
    let r = nalgebra::DVector::from_iterator(n, data.iter().map(|d| d.2 - mean));
    let alpha = chol.solve(&r);
    let l = chol.l();
    let z = l.solve_lower_triangular(&r).unwrap();
    let evidence = -0.5 * z.norm_squared()
        - (0..n).map(|i| l[(i, i)].ln()).sum::<f64>()
        - 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln();
    let mut means = Vec::new();
    let mut vars = Vec::new();
    for c in 0..ks.nrows() {
        let k = nalgebra::DVector::from_iterator(n, data.iter().map(|d| cov((c, t), (d.0, d.1))));
        means.push(mean + k.dot(&alpha));
        vars.push(ks[(c, c)] - k.dot(&chol.solve(&k)));
    }
    (means, vars, evidence)
}

#[test]
fn incremental_equals_recomputation_over_200_steps() {
    let engine = CpuEngine::new();
    let (mut r, candidates, set) = two_group_set(7, &[(0.0, 0), (0.5, 0), (-0.5, 1)], 200);
    let mut fast = PriorPosteriors::new(set.clone(), 0.1, PosteriorPath::Incremental).unwrap();
    let mut reference = PriorPosteriors::new(set, 0.1, PosteriorPath::Engine).unwrap();
    let all = [true; 3];
    let mut worst: f64 = 0.0;
    for t in 1..=200 {
        if t <= 10 || t % 25 == 0 {
            let a = fast.posterior(&engine, t, &all).unwrap();
            let b = reference.posterior(&engine, t, &all).unwrap();
            for p in 0..3 {
                worst = worst
                    .max(common::max_abs_diff(&a.mean[p], &b.mean[p]))
                    .max(common::max_abs_diff(&a.std[p], &b.std[p]));
            }
            let (ea, eb) = (
                fast.log_evidence(&engine).unwrap(),
                reference.log_evidence(&engine).unwrap(),
            );
            for p in 0..3 {
                assert!(
                    (ea[p] - eb[p]).abs() < 1e-10 * eb[p].abs().max(1.0),
                    "t = {t}: {ea:?} vs {eb:?}"
                );
            }
        }
        let c = r.random_range(0..50);
        let x = candidates.row(c);
        let y =
            (3.0 * x[0]).sin() + x[1] * 0.01 * t as f64 + 0.1 * r.sample::<f64, _>(StandardNormal);
        fast.observe(c, t, y).unwrap();
        reference.observe(c, t, y).unwrap();
    }
    assert!(worst < 1e-10, "largest deviation {worst:e}");
}

#[test]
fn incremental_equals_dense_recomputation_for_an_empirical_covariance() {
    let engine = CpuEngine::new();
    let mut r = rng(11);
    let n = 20;
    let a = DMatrix::from_fn(n, 6, |_, _| r.sample::<f64, _>(StandardNormal));
    let ks = &a * a.transpose() / 6.0;
    let candidates = Points::new((0..n).map(|i| i as f64).collect(), 1).unwrap();
    let epsilon = 0.3;
    let set = Arc::new(
        CandidatePriors::new(
            candidates,
            vec![KernelGroup {
                spatial: ks.clone(),
                epsilon,
                stationary: None,
            }],
            vec![CandidatePrior {
                label: "cov".into(),
                mean: vec![0.2; n],
                group: 0,
            }],
            60,
            None,
        )
        .unwrap(),
    );
    let mut post = PriorPosteriors::new(set, 0.1, PosteriorPath::Incremental).unwrap();
    let mut data = Vec::new();
    for t in 1..=60 {
        let got = post.posterior(&engine, t, &[true]).unwrap();
        let (means, vars, evidence) = dense_posterior(&ks, epsilon, 0.01, &data, 0.2, t);
        let sds: Vec<f64> = vars.iter().map(|v| v.max(0.0).sqrt()).collect();
        assert!(
            common::max_abs_diff(&got.mean[0], &means) < 1e-10,
            "t = {t}"
        );
        assert!(common::max_abs_diff(&got.std[0], &sds) < 1e-10, "t = {t}");
        // T4: the prequential evidence equals −½‖z‖² − Σ ln L_ii − (n/2) ln 2π from scratch.
        let ev = post.log_evidence(&engine).unwrap()[0];
        assert!((ev - evidence).abs() < 1e-9, "t = {t}: {ev} vs {evidence}");
        let c = r.random_range(0..n);
        let y = r.sample::<f64, _>(StandardNormal);
        post.observe(c, t, y).unwrap();
        data.push((c, t, y));
    }
}

#[test]
fn t3_fast_path_equals_reference_in_a_run() {
    let engine = CpuEngine::new();
    let (_, _, set) = two_group_set(3, &[(0.0, 0), (1.0, 0), (0.5, 1)], 40);
    let domain = Domain::cube(0.0, 1.0, 2).unwrap();
    let truth = |x: &[f64], t: usize| (4.0 * x[0]).sin() + x[1] - 0.01 * t as f64;
    let mut runs = [PosteriorPath::Incremental, PosteriorPath::Engine].map(|path| {
        let mut algo = algorithm(set.clone(), PE, settings(path));
        let logs = drive(
            &mut algo,
            &engine,
            &domain,
            &|_| None,
            &mut |x, t, r| truth(x, t) + 0.1 * r.sample::<f64, _>(StandardNormal),
            40,
            5,
        );
        (algo, logs)
    });
    let [(fast, a), (reference, b)] = &mut runs;
    for (i, (la, lb)) in a.iter().zip(b.iter()).enumerate() {
        assert_eq!(la.x, lb.x, "x_t differs at step {}", i + 1);
        assert_eq!(selected(la), selected(lb), "p_t differs at step {}", i + 1);
        assert!((number(la, "ucb") - number(lb, "ucb")).abs() < 1e-9);
    }
    let ea = fast.posteriors().unwrap().log_evidence(&engine).unwrap();
    let eb = reference
        .posteriors()
        .unwrap()
        .log_evidence(&engine)
        .unwrap();
    assert!(common::max_abs_diff(&ea, &eb) < 1e-9, "{ea:?} vs {eb:?}");
}

/// T6's setting: `X = {a, b}`, `k_s = I`, ε = 0, T = 10, priors with constant means `means`.
fn two_point_set(means: &[f64]) -> Arc<CandidatePriors> {
    let candidates = Points::new(vec![0.0, 1.0], 1).unwrap();
    Arc::new(
        CandidatePriors::new(
            candidates,
            vec![KernelGroup {
                spatial: DMatrix::identity(2, 2),
                epsilon: 0.0,
                stationary: None,
            }],
            means
                .iter()
                .map(|&m| CandidatePrior {
                    label: format!("{m}"),
                    mean: vec![m; 2],
                    group: 0,
                })
                .collect(),
            10,
            None,
        )
        .unwrap(),
    )
}

fn run_noise_free(
    set: Arc<CandidatePriors>,
    rule: Rule,
    steps: usize,
) -> (UnknownPriorUcb, Vec<StepLog>) {
    let mut algo = algorithm(set, rule, settings(PosteriorPath::Incremental));
    let domain = Domain::cube(0.0, 1.0, 1).unwrap();
    let logs = drive(
        &mut algo,
        &CpuEngine::new(),
        &domain,
        &|_| None,
        &mut |_, _, _| 0.0,
        steps,
        1,
    );
    (algo, logs)
}

#[test]
fn t6_deterministic_elimination() {
    let (algo, logs) = run_noise_free(two_point_set(&[0.0, 10.0]), PE, 10);
    let first = &logs[0];
    assert!((number(first, "beta") - 3.602544892).abs() < 1e-9);
    assert!((number(first, "xi") - 0.083731595).abs() < 1e-9);
    assert_eq!(first.x, vec![0.0], "the argmax is (a, p1)");
    assert_eq!(selected(first), 1);
    assert!((number(first, "eta") + 10.0).abs() < 1e-12);
    assert!((number(first, "threshold") - 3.891909014).abs() < 1e-9);
    assert_eq!(first.extra["eliminated_prior"], 1);
    for log in &logs[1..] {
        assert_eq!(selected(log), 0);
        assert_eq!(number(log, "eta"), 0.0);
        assert!(log.extra["eliminated_prior"].is_null());
    }
    assert_eq!(algo.alive(), &[true, false]);
}

#[test]
fn t7_guard_keeps_the_last_prior_and_logs_misspecification() {
    let (algo, logs) = run_noise_free(two_point_set(&[10.0]), PE, 3);
    assert_eq!(logs[0].extra["misspecification"], true);
    assert!(logs[0].extra["eliminated_prior"].is_null());
    assert_eq!(algo.alive(), &[true]);
    // Without the guard the set empties, and the next step says why instead of guessing.
    let mut algo = algorithm(
        two_point_set(&[10.0]),
        Rule::PriorElimination { guard: false },
        settings(PosteriorPath::Incremental),
    );
    let domain = Domain::cube(0.0, 1.0, 1).unwrap();
    let engine = CpuEngine::new();
    let mut r = rng(0);
    let x = ask_at(&mut algo, (&engine, &domain, None), 1, &mut r)
        .unwrap()
        .x;
    algo.tell(&Feedback {
        x: &x,
        y: 0.0,
        repeats: &[0.0],
        context: None,
        t: 1,
        objectives: &[],
        constraints: &[],
    })
    .unwrap();
    assert_eq!(algo.alive(), &[false]);
    let err = ask_at(&mut algo, (&engine, &domain, None), 2, &mut r)
        .err()
        .unwrap();
    assert!(err.to_string().contains("eliminated"), "{err}");
}

/// A draw of `mean + GP(0, RBF ℓ)` on `grid` (jittered Cholesky).
fn gp_draw(grid: &Points, lengthscale: f64, mean: f64, r: &mut ChaCha8Rng) -> Vec<f64> {
    let n = grid.rows();
    let k = Kernel::new(KernelKind::SquaredExponential, vec![lengthscale], 1.0).unwrap();
    let mut gram = DMatrix::from_fn(n, n, |i, j| k.eval(grid.row(i), grid.row(j)));
    for i in 0..n {
        gram[(i, i)] += 1e-8;
    }
    let l = gram.cholesky().unwrap().unpack();
    let z = nalgebra::DVector::from_iterator(n, (0..n).map(|_| StandardNormal.sample(r)));
    (l * z).iter().map(|v| v + mean).collect()
}

#[test]
fn t8_true_prior_survives() {
    let engine = CpuEngine::new();
    let grid = Points::new((0..50).map(|i| i as f64 / 49.0).collect(), 1).unwrap();
    let set = stationary_set(
        &grid,
        &[(0.2, 0.0)],
        &[(0.0, 0), (1.0, 0), (2.0, 0), (3.0, 0)],
        50,
    );
    let domain = Domain::cube(0.0, 1.0, 1).unwrap();
    let seeds = 200;
    let mut removed = 0;
    for seed in 0..seeds {
        let f = gp_draw(&grid, 0.2, 1.0, &mut rng(1000 + seed));
        let mut algo = algorithm(set.clone(), PE, settings(PosteriorPath::Incremental));
        drive(
            &mut algo,
            &engine,
            &domain,
            &|_| None,
            &mut |x, _, r| {
                f[(x[0] * 49.0).round() as usize] + 0.1 * r.sample::<f64, _>(StandardNormal)
            },
            50,
            seed,
        );
        removed += usize::from(!algo.alive()[1]);
    }
    eprintln!("T8: true prior eliminated in {removed}/{seeds} seeds");
    assert!(
        removed as f64 <= 0.1 * seeds as f64,
        "true prior eliminated in {removed}/{seeds} seeds"
    );
}

fn toy_problem(instance: usize) -> Box<dyn Problem> {
    problems::build("pe-toy", &[("instance", (instance as f64).into())]).unwrap()
}

/// Runs `algo` on the toy problem (fixed instance) for `steps` steps.
fn run_toy(algo: &mut UnknownPriorUcb, instance: usize, steps: usize, seed: u64) -> Vec<StepLog> {
    let problem = toy_problem(instance);
    drive(
        algo,
        &CpuEngine::new(),
        problem.domain(),
        &|t| problem.allowed_set(t).cloned(),
        &mut |x, t, r| problem.evaluate(x, &Step::new(t, 1).unwrap(), r).unwrap().y,
        steps,
        seed,
    )
}

#[test]
fn t9_reductions() {
    let toy = toy::candidate_priors();
    let single = Arc::new(toy.subset(&[2]).unwrap());
    let xs = |rule: Rule, set: &Arc<CandidatePriors>| -> Vec<Vec<f64>> {
        let mut algo = algorithm(set.clone(), rule, settings(PosteriorPath::Incremental));
        run_toy(&mut algo, 4, 30, 9)
            .into_iter()
            .map(|l| l.x)
            .collect()
    };
    let pe = xs(PE, &single);
    assert_eq!(pe, xs(Rule::MaximumLikelihood, &single));
    assert_eq!(pe, xs(Rule::FullyBayesian, &single));
    let duplicated = Arc::new(toy.subset(&[2, 2]).unwrap());
    let mut algo = algorithm(duplicated, PE, settings(PosteriorPath::Incremental));
    let logs = run_toy(&mut algo, 4, 30, 9);
    assert_eq!(logs.iter().map(|l| l.x.clone()).collect::<Vec<_>>(), pe);
    for log in &logs {
        let expected = if log.alive_before[0] { 0 } else { 1 };
        assert_eq!(selected(log), expected);
    }
}

#[test]
fn t10_bookkeeping_invariants_and_t13_masking() {
    let radius = toy::exclusion_radius();
    let c2 = toy::hill_centre(2);
    for instance in 1..=3 {
        // β scaled down so that eliminations happen and their bookkeeping is exercised.
        let mut s = settings(PosteriorPath::Incremental);
        s.shared.beta_scale = 0.3;
        let mut algo = algorithm(toy::candidate_priors(), PE, s);
        let logs = run_toy(&mut algo, instance, 100, instance as u64);
        let problem = toy_problem(instance);
        let mut ever_removed = [false; 11];
        let mut previous_widths = vec![0.0; 11];
        for (i, log) in logs.iter().enumerate() {
            let t = i + 1;
            let counts: Vec<u64> = log.extra["counts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            assert_eq!(counts.iter().sum::<u64>(), t as u64);
            let removed = log
                .alive_before
                .iter()
                .zip(&log.alive_after)
                .filter(|(b, a)| **b && !**a)
                .count();
            assert!(removed <= 1);
            for p in 0..11 {
                assert!(
                    !(ever_removed[p] && log.alive_after[p]),
                    "prior {p} came back"
                );
                ever_removed[p] |= !log.alive_after[p];
                assert!(log.width_sums[p] >= previous_widths[p]);
            }
            previous_widths.clone_from(&log.width_sums);
            assert!(log.alive_before[selected(log)], "p_t must be alive");
            let allowed = problem.allowed_set(t).unwrap();
            assert!(allowed.iter().any(|p| p == log.x.as_slice()), "x_t ∉ X_t");
            let f = problem.objective_of_interest(&log.x, t).unwrap();
            let best = problem.optimum(t).unwrap().value;
            assert!(best - f >= 0.0);
            if t % 2 == 0 {
                assert!((log.x[0] - c2).abs() >= radius, "t = {t}: x = {:?}", log.x);
            }
        }
    }
}

#[test]
fn t13_toy_optimum_follows_the_allowed_set() {
    let problem = toy_problem(5);
    let grid: Vec<f64> = (0..toy::GRID_SIZE).map(toy::grid_point).collect();
    let f: Vec<f64> = grid
        .iter()
        .map(|x| problem.objective_of_interest(&[*x], 1).unwrap())
        .collect();
    let global = f.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let restricted = grid
        .iter()
        .zip(&f)
        .filter(|(x, _)| (**x - toy::hill_centre(2)).abs() >= toy::exclusion_radius())
        .map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(problem.optimum(1).unwrap().value, global);
    assert_eq!(problem.optimum(3).unwrap().value, global);
    assert_eq!(problem.optimum(2).unwrap().value, restricted);
    assert_eq!(problem.allowed_set(1).unwrap().rows(), toy::GRID_SIZE);
    assert!(problem.allowed_set(2).unwrap().rows() < toy::GRID_SIZE);
    // The prior means of the paper's toy problem (Section 7): prior 2's tall hill at c_2, prior 0 all short.
    // (the neighbouring hills add about 0.002 at a centre)
    assert!((toy::prior_mean(2, toy::hill_centre(2)) - 3.0).abs() < 1e-2);
    assert!((toy::prior_mean(0, toy::hill_centre(2)) - 1.0).abs() < 1e-2);
    assert!((toy::prior_mean(5, toy::hill_centre(5)) - 3.0).abs() < 1e-2);
    assert_eq!(toy::candidate_priors().priors().len(), 11);
}

#[test]
fn t11_regret_balancing_schedule_and_test() {
    let mut algo = algorithm(
        toy::candidate_priors(),
        Rule::RegretBalancing { literal: false },
        settings(PosteriorPath::Incremental),
    );
    let logs = run_toy(&mut algo, 2, 60, 4);
    let first: Vec<usize> = logs[..11].iter().map(selected).collect();
    assert_eq!(
        first,
        (0..11).collect::<Vec<_>>(),
        "round-robin before any test"
    );
    for log in &logs[..10] {
        assert!(
            log.alive_after.iter().all(|a| *a),
            "no test before every prior is sampled"
        );
    }
    for pair in logs.windows(2) {
        let counts: Vec<u64> = pair[0].extra["counts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let alive = &pair[1].alive_before;
        let least = (0..11)
            .filter(|&p| alive[p])
            .min_by_key(|&p| counts[p])
            .unwrap();
        assert_eq!(
            selected(&pair[1]),
            least,
            "the least-used surviving prior, lowest index"
        );
    }
    // The test on random states: the maximiser of L survives, and the literal form eliminates a
    // superset of what the optimistic form eliminates.
    let mut r = rng(12);
    for _ in 0..500 {
        let p = 6;
        let alive: Vec<bool> = (0..p).map(|_| r.random_range(0.0..1.0) < 0.8).collect();
        if !alive.contains(&true) {
            continue;
        }
        let counts: Vec<usize> = (0..p).map(|_| r.random_range(1..20)).collect();
        let rewards: Vec<f64> = counts
            .iter()
            .map(|&n| n as f64 * r.random_range(-1.0..1.0))
            .collect();
        let widths: Vec<f64> = counts
            .iter()
            .map(|&n| n as f64 * r.random_range(0.0..0.5))
            .collect();
        let xi_t = r.random_range(0.01..0.5);
        let optimistic = balancing_survivors(&alive, &counts, &rewards, &widths, xi_t, false);
        let literal = balancing_survivors(&alive, &counts, &rewards, &widths, xi_t, true);
        let lower = |q: usize| rewards[q] / counts[q] as f64 - (xi_t / counts[q] as f64).sqrt();
        let best = (0..p)
            .filter(|&q| alive[q])
            .max_by(|a, b| lower(*a).total_cmp(&lower(*b)))
            .unwrap();
        assert!(optimistic[best] && literal[best]);
        for q in 0..p {
            assert!(!literal[q] || optimistic[q]);
            assert!(!optimistic[q] || alive[q]);
        }
    }
    let mut unsampled = vec![3, 0, 2];
    unsampled[1] = 0;
    assert_eq!(
        balancing_survivors(
            &[true; 3],
            &unsampled,
            &[100.0, 0.0, -100.0],
            &[0.0; 3],
            0.1,
            true
        ),
        vec![true; 3]
    );
}

/// T12's weights by hand: priors with constant means 0, 1, 2 on T6's two points (`k_s = I`,
/// ε = 0), R = 0.1. Before any data the weights are uniform. After one observation y = 0, at
/// either point, prior p's evidence is N(0; m_p, 1 + R²) = N(0; m_p, 1.01), so
/// w_p ∝ exp(−m_p²/2.02):
///
/// ```text
/// −m_p²/2.02       0            −1/2.02 = −0.4950495    −4/2.02 = −1.9801980
/// exp             1             0.6095407               0.1380419            sum 1.7475826
/// exp / sum       0.5722190     0.3487908               0.0789902
/// ```
#[test]
fn t12_fully_bayesian_weights_by_hand() {
    let (_, logs) = run_noise_free(two_point_set(&[0.0, 1.0, 2.0]), Rule::FullyBayesian, 2);
    let weights = |log: &StepLog| common::numbers(&log.extra["weights"]);
    let before = weights(&logs[0]);
    assert!(
        common::max_abs_diff(&before, &[1.0 / 3.0; 3]) < 1e-15,
        "{before:?}"
    );
    let after = weights(&logs[1]);
    let want = [0.572_219_0, 0.348_790_8, 0.078_990_2];
    assert!(common::max_abs_diff(&after, &want) < 1e-7, "{after:?}");
}

#[test]
fn t12_fully_bayesian_weights_and_acquisition() {
    let engine = CpuEngine::new();
    let set = toy::candidate_priors();
    let mut algo = algorithm(
        set.clone(),
        Rule::FullyBayesian,
        settings(PosteriorPath::Incremental),
    );
    let problem = toy_problem(3);
    let mut r = rng(8);
    for t in 1..=25 {
        let mut copy = algo.posteriors().unwrap().clone();
        let allowed = problem.allowed_set(t).unwrap();
        let x = ask_at(
            &mut algo,
            (&engine, problem.domain(), Some(allowed)),
            t,
            &mut r,
        )
        .unwrap()
        .x;
        let extra = algo.extra();
        let weights = common::numbers(&extra["weights"]);
        assert!((weights.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        if t == 1 {
            assert!(weights.iter().all(|w| (w - 1.0 / 11.0).abs() < 1e-15));
        }
        // Bayes' rule with a uniform prior over the priors: w_p / w_0 = exp(L_p − L_0) for the
        // log evidences L (themselves checked against a dense recomputation above).
        let evidence = copy.log_evidence(&engine).unwrap();
        for p in 1..11 {
            let (got, want) = ((weights[p] / weights[0]).ln(), evidence[p] - evidence[0]);
            assert!(
                (got - want).abs() < 1e-9,
                "t = {t}, prior {p}: {got} vs {want}"
            );
        }
        let post = copy.posterior(&engine, t, &[true; 11]).unwrap();
        let b = beta(100, 200, 0.1, t);
        let direct = |c: usize| {
            (0..11)
                .map(|p| weights[p] * (post.mean[p][c] + b * post.std[p][c]))
                .sum::<f64>()
        };
        let best = (0..200)
            .filter(|&c| allowed.iter().any(|a| a[0] == toy::grid_point(c)))
            .max_by(|a, b| direct(*a).total_cmp(&direct(*b)))
            .unwrap();
        assert!((extra["acquisition"].as_f64().unwrap() - direct(best)).abs() < 1e-9);
        assert!((direct(best) - direct((x[0] * 199.0).round() as usize)).abs() < 1e-12);
        let y = problem
            .evaluate(&x, &Step::new(t, 1).unwrap(), &mut r)
            .unwrap()
            .y;
        algo.tell(&Feedback {
            x: &x,
            y,
            repeats: &[y],
            context: None,
            t,
            objectives: &[],
            constraints: &[],
        })
        .unwrap();
    }
}

#[test]
fn elimination_threshold_sums_noise_and_widths() {
    assert!((elimination_threshold(4, 2.5, 0.09) - (0.36f64.sqrt() + 2.5)).abs() < 1e-15);
}

#[test]
fn cli_names_run_and_trace_the_surviving_priors() {
    let engine = CpuEngine::new();
    for algo in [
        "pe-gp-ucb",
        "regret-balancing",
        "mle-gp-ucb",
        "fully-bayes-gp-ucb",
        "oracle-gp-ucb",
        "random",
    ] {
        let (summary, lines) = traced_run(
            &engine,
            &RunRequest {
                algo,
                params: &[],
                problem: "pe-toy",
                budget: 12,
                init: 0,
                seed: 2,
            },
        );
        assert_eq!(summary.steps, 12);
        let last = &lines[12];
        assert_eq!(last["t"], 12);
        assert!(last["instant_regret"].as_f64().unwrap() >= 0.0);
        if algo != "random" {
            assert!(last["extra"]["surviving_priors"].is_array(), "{algo}");
            assert!(last["extra"]["selected_prior"].is_u64(), "{algo}");
        }
    }
}

/// The candidate priors are the problem's (issue 16: no `prior_set` naming the problem again):
/// the same algorithm takes the toy's 11 priors on pe-toy and the 13 days on Intel, refuses a
/// problem that defines none, and says what it needs when asked before it was prepared.
#[test]
fn the_candidate_priors_come_from_the_problem() {
    let engine = CpuEngine::new();
    for (problem_name, count) in [("pe-toy", 11), ("intel-temp-synthetic", 13)] {
        let problem = problems::build(problem_name, &[]).unwrap();
        let mut algo = bosweep::algorithms::build("mle-gp-ucb", &[]).unwrap();
        algo.prepare(problem.as_ref()).unwrap();
        let mut r = rng(0);
        ask_at(
            algo.as_mut(),
            (&engine, problem.domain(), problem.allowed_set(1)),
            1,
            &mut r,
        )
        .unwrap();
        let extra = algo.extra();
        let selected = extra["selected_prior"].as_u64().unwrap() as usize;
        assert!(
            selected < count,
            "{problem_name}: prior {selected} of {count}"
        );
        assert_eq!(
            problem.candidate_priors().unwrap().priors().len(),
            count,
            "{problem_name}"
        );
    }
    let branin = problems::build("branin", &[]).unwrap();
    let mut algo = bosweep::algorithms::build("pe-gp-ucb", &[]).unwrap();
    let err = algo.prepare(branin.as_ref()).unwrap_err().to_string();
    assert!(err.contains("defines no candidate priors"), "{err}");
    let toy = problems::build("pe-toy", &[]).unwrap();
    let mut r = rng(0);
    let err = ask_at(
        algo.as_mut(),
        (&engine, toy.domain(), toy.allowed_set(1)),
        1,
        &mut r,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("prepare"), "{err}");
}

#[test]
fn t16_intel_stand_in() {
    let task = intel::synthetic_task().unwrap();
    let set = task.candidate_priors();
    assert_eq!(set.priors().len(), 13);
    assert_eq!(set.horizon(), 144);
    assert_eq!(task.sensors.len(), intel::SYNTHETIC_SENSORS);
    for (d, cov) in task.covariances.iter().enumerate() {
        let eig = nalgebra::SymmetricEigen::new(cov.clone());
        assert!(
            eig.eigenvalues.min() > -1e-9,
            "day {}: Cov_d not PSD",
            d + 1
        );
        assert!(intel::EPSILON_GRID.contains(&task.epsilons[d]));
    }
    // Days differ: the priors are not all the same kernel.
    assert!(
        task.epsilons.iter().any(|e| *e != task.epsilons[0])
            || (&task.covariances[0] - &task.covariances[6]).amax() > 1e-3
    );
    let problem = problems::build("intel-temp-synthetic", &[]).unwrap();
    let mut r = rng(1);
    for t in [1, 72, 144] {
        let x = [3.0];
        let obs = problem
            .evaluate(&x, &Step::new(t, 1).unwrap(), &mut r)
            .unwrap();
        let f = problem.objective_of_interest(&x, t).unwrap();
        assert_eq!(f, task.target[(t - 1, 3)]);
        assert_ne!(obs.y, f, "observations are noisy");
        let best = task.target.row(t - 1).max();
        assert_eq!(problem.optimum(t).unwrap().value, best);
    }
    assert!(
        problem
            .evaluate(&[0.0], &Step::new(145, 1).unwrap(), &mut r)
            .is_err()
    );
    // A short run on it: regret from the truth.
    let engine = CpuEngine::new();
    let (_, lines) = traced_run(
        &engine,
        &RunRequest {
            algo: "pe-gp-ucb",
            params: &[],
            problem: "intel-temp-synthetic",
            budget: 6,
            init: 0,
            seed: 3,
        },
    );
    for line in &lines[1..] {
        let t = line["t"].as_u64().unwrap() as usize;
        let f = line["f"].as_f64().unwrap();
        let expected = task.target.row(t - 1).max() - f;
        assert!((line["instant_regret"].as_f64().unwrap() - expected).abs() < 1e-12);
    }
}

#[test]
fn intel_loader_windows_interpolates_and_drops_sparse_motes() {
    let mut text = String::from("garbage line\n");
    for day in 1..=14 {
        for w in 0..144 {
            let (h, m) = (w * 10 / 60, w * 10 % 60);
            // Mote 1: every window, two readings averaged. Mote 2: misses one window in ten.
            // Mote 3: only the first hour (missing > 20 %). Mote 60: out of range.
            let v = 20.0 + day as f64 * 0.1 + w as f64 * 0.01;
            text += &format!(
                "2004-03-{day:02} {h:02}:{m:02}:05.5 1 1 {} 40 100 2.7\n",
                v - 0.5
            );
            text += &format!(
                "2004-03-{day:02} {h:02}:{m:02}:35.0 2 1 {} 40 100 2.7\n",
                v + 0.5
            );
            if w % 10 != 5 {
                text += &format!("2004-03-{day:02} {h:02}:{m:02}:10 3 2 {v} 40 100 2.7\n");
            }
            if w < 6 {
                text += &format!("2004-03-{day:02} {h:02}:{m:02}:10 4 3 {v} 40 100 2.7\n");
            }
            text += &format!("2004-03-{day:02} {h:02}:{m:02}:10 5 60 {v} 40 100 2.7\n");
            text += &format!("2004-03-{day:02} {h:02}:{m:02}:10 5 2 122.0 40 100 2.7\n");
        }
    }
    text += "2004-03-15 10:00:00 9 1 99 40 100 2.7\n";
    let data = intel::parse_lab_data(std::io::Cursor::new(text)).unwrap();
    assert_eq!(data.sensors, vec![1, 2]);
    assert_eq!(data.days.len(), 14);
    let v = |day: usize, w: usize| 20.0 + day as f64 * 0.1 + w as f64 * 0.01;
    assert!(
        (data.days[0][(7, 0)] - v(1, 7)).abs() < 1e-12,
        "window mean"
    );
    assert!(
        (data.days[4][(7, 1)] - v(5, 7)).abs() < 1e-12,
        "linear interpolation"
    );
    assert!(intel::IntelTask::from_days(&data).is_ok());
}

#[test]
fn gpu_engine_path_makes_the_same_decisions() {
    let Some(gpu) = common::gpu_f64() else {
        return;
    };
    let decisions = |engine: &dyn Engine, path: PosteriorPath| -> Vec<Vec<f64>> {
        let mut algo = algorithm(toy::candidate_priors(), PE, settings(path));
        let problem = toy_problem(6);
        drive(
            &mut algo,
            engine,
            problem.domain(),
            &|t| problem.allowed_set(t).cloned(),
            &mut |x, t, r| problem.evaluate(x, &Step::new(t, 1).unwrap(), r).unwrap().y,
            30,
            1,
        )
        .into_iter()
        .map(|l| l.x)
        .collect()
    };
    assert_eq!(
        decisions(&gpu, PosteriorPath::Engine),
        decisions(&CpuEngine::new(), PosteriorPath::Incremental)
    );
}

/// A sweep replicate's algorithms meet the same toy f (the instance is drawn from the design
/// seed, which they share), so their results pair; another replicate meets another f; and the
/// run's own seed (the noise) does not move it.
#[test]
fn the_toy_instance_follows_the_design_seed_not_the_run_seed() {
    let engine = CpuEngine::new();
    // f on the 200-point grid, as the regret sees it.
    let f = |problem: &dyn Problem| -> Vec<Option<f64>> {
        (0..200)
            .map(|i| problem.objective_of_interest(&[i as f64 / 199.0], 1))
            .collect()
    };
    let drawn = |algo: &str, seed: u64, design_seed: u64| {
        let problem = problems::build("pe-toy", &[]).unwrap();
        assert_eq!(f(problem.as_ref())[0], None, "drawn before the run");
        let mut algorithm = bosweep::algorithms::build(algo, &[]).unwrap();
        let config = RunConfig {
            budget: 3,
            init: 0,
            seed,
            design_seed,
            parallel: Default::default(),
        };
        run_to_trace(problem.as_ref(), algorithm.as_mut(), algo, &engine, &config);
        f(problem.as_ref())
    };
    let first = drawn("random", 11, 5);
    assert!(first.iter().all(Option::is_some));
    assert_eq!(drawn("pe-gp-ucb", 12, 5), first);
    assert_eq!(drawn("random", 99, 5), first);
    assert_ne!(drawn("random", 11, 6), first);
    // A fixed instance stays fixed whatever the design stream.
    let fixed = problems::build("pe-toy", &[("instance", 3.0.into())]).unwrap();
    let before = f(fixed.as_ref());
    fixed.draw_instance(&mut rng(1));
    assert_eq!(f(fixed.as_ref()), before);
}
