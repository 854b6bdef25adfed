//! UHE-BO (Ha, Nguyen, Zhang & van den Hengel 2023, arXiv:2306.06844): the reproduction checks
//! (numbered as in `docs/papers/uhe-bo.md`) that concern EXP3, the arm schedule, the
//! pseudo-labels, the loss and the posterior, and end-to-end runs of `uhe-bo`, `ra-bo`,
//! `random-exp3` and `map-gp-ucb` through the run loop.

use crate::common;

use bosweep::acquisition::{PosteriorAcquisition, UpperConfidenceBound};
use bosweep::algorithms::{Exp3, PairedExp3, pseudo_labels, uhe_gamma};
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{
    GpSpec, GpState, Kernel, KernelKind, Noise, PriorSpace, Priors, log_marginal_likelihood,
};
use common::{cpu_run, fast_acquisition, without_timings};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

const TOL: f64 = 1e-6;

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < TOL, "{what}: {a} vs {b}");
}

/// Check 1: γ_t of Algorithm 1 line 5.
#[test]
fn gamma_schedule_matches_the_paper() {
    let expect = [1.270268, 0.898215, 0.733390, 0.635134, 0.568081];
    for (t, g) in (1..=5).zip(expect) {
        close(uhe_gamma(t), g, &format!("γ_{t}"));
    }
}

/// Check 2: the EXP3 trace with forced arms and r̃ fed directly.
#[test]
fn exp3_trace_matches_the_hand_computation() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    // t = 1: p = (0.5, 0.5) with γ clamped (the schedule) and unclamped (EXP3 as written).
    let unclamped = Exp3::new(2).probabilities(uhe_gamma(1));
    close(unclamped[0], 0.5, "unclamped p¹");
    close(unclamped[1], 0.5, "unclamped p²");
    let mut bandit = PairedExp3::new();
    assert_eq!(bandit.start_pair(uhe_gamma(1), &mut rng, Some(1)), 1);
    close(bandit.probabilities()[0], 0.5, "t=1 p¹");
    close(bandit.probabilities()[1], 0.5, "t=1 p²");
    // t = 2: r̃ = 0.8.
    bandit.end_pair(uhe_gamma(2), 0.8);
    close(bandit.log_weights()[0], 0.718572, "t=2 ℓw¹");
    close(bandit.log_weights()[0].exp(), 2.051502, "t=2 ω¹");
    close(bandit.log_weights()[1], 0.0, "t=2 ℓw²");
    // t = 3.
    assert_eq!(bandit.start_pair(uhe_gamma(3), &mut rng, Some(2)), 2);
    close(bandit.probabilities()[0], 0.545935, "t=3 p¹");
    close(bandit.probabilities()[1], 0.454065, "t=3 p²");
    // t = 4: r̃ = 0.5.
    bandit.end_pair(uhe_gamma(4), 0.5);
    close(bandit.log_weights()[0], 0.718572, "t=4 ℓw¹ unchanged");
    close(bandit.log_weights()[1], 0.349693, "t=4 ℓw²");
    close(bandit.log_weights()[1].exp(), 1.418633, "t=4 ω²");
    // t = 5.
    bandit.start_pair(uhe_gamma(5), &mut rng, None);
    close(bandit.probabilities()[0], 0.539386, "t=5 p¹");
    close(bandit.probabilities()[1], 0.460614, "t=5 p²");
}

/// Check 4: constant rewards 1 for arm 1 and 0 for arm 2 over 200 rounds (T = 400); over 100
/// seeds the mean p¹ at the last odd t exceeds 1 − γ_t/2 − 0.02.
#[test]
fn exp3_drifts_to_the_rewarded_arm() {
    let seeds = 100;
    let mut sum = 0.0;
    for seed in 0..seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut bandit = PairedExp3::new();
        let mut last = 0.0;
        for t in (1..=400).step_by(2) {
            let arm = bandit.start_pair(uhe_gamma(t), &mut rng, None);
            last = bandit.probabilities()[0];
            bandit.end_pair(uhe_gamma(t + 1), if arm == 1 { 1.0 } else { 0.0 });
        }
        sum += last;
    }
    let mean = sum / seeds as f64;
    let bound = 1.0 - uhe_gamma(399) / 2.0 - 0.02;
    assert!(mean > bound, "mean p¹ = {mean}, bound {bound}");
}

fn toy_data() -> (Points, Vec<f64>) {
    (Points::new(vec![0.1, 0.9], 1).unwrap(), vec![1.0, -1.0])
}

/// Check 5: nearest-neighbour pseudo-labels, the tie at 0.5 going to index 0.
#[test]
fn pseudo_labels_come_from_the_nearest_observation() {
    let cpu = CpuEngine::new();
    let (x, y) = toy_data();
    let queries = Points::new(vec![0.2, 0.45, 0.55, 0.8, 0.5], 1).unwrap();
    let (index, labels) = pseudo_labels(&cpu, &x, &y, &queries).unwrap();
    assert_eq!(index, vec![0, 0, 1, 1, 0]);
    assert_eq!(labels, vec![1.0, 1.0, -1.0, -1.0, 1.0]);
    assert!(pseudo_labels(&cpu, &x, &y[..1], &queries).is_err());
}

fn toy_kernel() -> Kernel {
    Kernel::new(KernelKind::Matern52, vec![0.3], 1.0).unwrap()
}

/// Check 6: the UHE loss on the pseudo-data of test 5 (ℓ = 0.3, σ_f² = 1, σ_n² = 0.01, no
/// standardisation), with the priors the algorithm fits with.
#[test]
fn uhe_loss_on_the_toy_data_matches_the_reference_values() {
    let pseudo = Points::new(vec![0.2, 0.45, 0.55, 0.8], 1).unwrap();
    let labels = [1.0, 1.0, -1.0, -1.0];
    let noise = Noise::Homoscedastic(0.01);
    let nlml = -log_marginal_likelihood(&pseudo, &labels, &toy_kernel(), &noise, 0.0, 1.0)
        .unwrap()
        .value;
    close(nlml, 15.059028, "−log p(ŷ′ | X′, θ)");

    let priors = Priors::uhe_bo();
    let theta = [
        (priors.lengthscale.unwrap(), 0.3),
        (priors.signal_variance.unwrap(), 1.0),
        (priors.noise_variance.unwrap(), 0.01),
    ];
    let log_prior: f64 = theta.iter().map(|(p, h)| p.log_density(*h)).sum();
    close(log_prior, -28.011295, "Σ ln Gamma(h; 1e-3, 10)");
    close(
        nlml - log_prior,
        43.070323,
        "MAP objective without Jacobian",
    );
    // The priors are used in log-parameter space: ln p(h) + ln h, the Jacobian included.
    assert_eq!(priors.space, PriorSpace::LogParameter);
    let log_prior_phi: f64 = theta
        .iter()
        .map(|(p, h)| p.log_density_log_space(h.ln(), PriorSpace::LogParameter).0)
        .sum();
    close(
        nlml - log_prior_phi,
        48.879466,
        "MAP objective with Jacobian",
    );

    let (x, y) = toy_data();
    let real = -log_marginal_likelihood(&x, &y, &toy_kernel(), &noise, 0.0, 1.0)
        .unwrap()
        .value;
    close(real, 2.886614, "NLML on the real 2 points");
}

/// Check 7: the posterior on the real toy data and UCB with β = 1.96 under the root.
#[test]
fn posterior_and_ucb_on_the_toy_data_match_the_reference_values() {
    let cpu = CpuEngine::new();
    let (x, y) = toy_data();
    let gp = GpState::fit(x, &y, GpSpec::new(toy_kernel(), Noise::Homoscedastic(0.01))).unwrap();
    let post = cpu
        .posterior(&gp, &Points::new(vec![0.5, 0.3], 1).unwrap())
        .unwrap();
    close(post.mean[0], 0.0, "μ(0.5)");
    close(post.variance[0], 0.765569, "σ²(0.5)");
    close(post.mean[1], 0.612629, "μ(0.3)");
    close(post.variance[1], 0.464916, "σ²(0.3)");
    let ucb = UpperConfidenceBound::with_beta(1.96).unwrap();
    close(ucb.multiplier(), 1.4, "√1.96");
    close(
        ucb.value(post.mean[1], post.variance[1]),
        1.567216,
        "UCB(0.3)",
    );
}

/// Checks 3 and 12 on Deceptive: the arm extra, the odd/even rule, weights changing only at
/// even t, random points only at odd t with arm 1, T evaluations after D_0, and the same trace
/// for the same seed.
#[test]
fn uhe_bo_follows_the_pair_schedule_and_is_reproducible() {
    let (init, budget) = (4, 15);
    let a = cpu_run("uhe-bo", &fast_acquisition(), "deceptive", budget, init, 5).1;
    let header = &a[0]["header"];
    assert_eq!(header["algorithm_parameters"]["ucb_beta"], 1.96);
    assert_eq!(header["algorithm_parameters"]["m_factor"], 2.0);
    let opt: Vec<&Value> = a[1..].iter().filter(|s| s["phase"] == "opt").collect();
    assert_eq!(opt.len(), budget - init, "T evaluations after D_0");
    let mut previous_arm = 0;
    let mut previous_weights = vec![0.0, 0.0];
    for (i, s) in opt.iter().enumerate() {
        let t = i + 1;
        let e = &s["extra"];
        assert_eq!(e["uhe_t"], t);
        let arm = e["arm"].as_u64().unwrap() as usize;
        assert!(arm == 1 || arm == 2);
        let p: Vec<f64> = serde_json::from_value(e["exp3_probabilities"].clone()).unwrap();
        assert_eq!(p.len(), 2);
        assert!((p[0] + p[1] - 1.0).abs() < 1e-12);
        let weights: Vec<f64> = serde_json::from_value(e["exp3_log_weights"].clone()).unwrap();
        assert_eq!(e["random_point"].as_bool().unwrap(), arm == 1 && t % 2 == 1);
        if t % 2 == 0 {
            assert_eq!(arm, previous_arm, "t = {t} holds the arm of t − 1");
            assert!(e["reward"].is_number());
            // Only the pulled arm's weight moves, by γ_t r̃ / (2 p).
            let m = arm - 1;
            let r = e["reward"].as_f64().unwrap();
            let expect = previous_weights[m] + uhe_gamma(t) * r / (2.0 * p[m]);
            assert!((weights[m] - expect).abs() < 1e-12);
            assert_eq!(weights[1 - m], previous_weights[1 - m]);
        } else {
            assert_eq!(weights, previous_weights, "weights change only at even t");
            assert!((e["gamma"].as_f64().unwrap() - uhe_gamma(t)).abs() < 1e-15);
        }
        if !(arm == 1 && t % 2 == 1) {
            assert_eq!(e["pseudo_points"], 2 * (init + i), "M_t = 2 |D_(t−1)|");
            assert_eq!(e["lengthscales"].as_array().unwrap().len(), 2);
            assert!((e["ucb_multiplier"].as_f64().unwrap() - 1.4).abs() < 1e-12);
        }
        previous_arm = arm;
        previous_weights = weights;
    }
    let b = cpu_run("uhe-bo", &fast_acquisition(), "deceptive", budget, init, 5).1;
    assert_eq!(without_timings(&a), without_timings(&b));
    let c = cpu_run("uhe-bo", &fast_acquisition(), "deceptive", budget, init, 6).1;
    assert_ne!(without_timings(&a)[1..], without_timings(&c)[1..]);
}

/// Check 3: RA-BO draws a random point at exactly t = 1, 3, 5, … (⌈T/2⌉ of them), MAP-GP-UCB
/// never; Random+EXP3 follows the pair rule and fits on the real data (no pseudo-points).
#[test]
fn variants_follow_their_arm_rules() {
    let (init, budget) = (4, 11);
    let t_total = budget - init;
    for (algo, arm) in [("ra-bo", 1), ("map-gp-ucb", 2)] {
        let lines = cpu_run(algo, &fast_acquisition(), "h1", budget, init, 2).1;
        let opt: Vec<&Value> = lines[1..].iter().filter(|s| s["phase"] == "opt").collect();
        assert_eq!(opt.len(), t_total);
        let random: Vec<usize> = opt
            .iter()
            .enumerate()
            .filter(|(_, s)| s["extra"]["random_point"] == true)
            .map(|(i, _)| i + 1)
            .collect();
        for s in &opt {
            assert_eq!(s["extra"]["arm"], arm, "{algo}");
            assert!(s["extra"]["exp3_probabilities"].is_null(), "{algo}");
        }
        if arm == 1 {
            assert_eq!(random, vec![1, 3, 5, 7], "{algo}");
            assert_eq!(random.len(), t_total.div_ceil(2));
            assert_eq!(opt[1]["extra"]["pseudo_points"], 2 * (init + 1));
        } else {
            assert!(random.is_empty(), "{algo}");
            assert!(opt[0]["extra"]["pseudo_points"].is_null());
        }
    }
    let lines = cpu_run("random-exp3", &fast_acquisition(), "h1", budget, init, 2).1;
    let opt: Vec<&Value> = lines[1..].iter().filter(|s| s["phase"] == "opt").collect();
    for (i, s) in opt.iter().enumerate() {
        let t = i + 1;
        if t % 2 == 0 {
            assert_eq!(s["extra"]["arm"], opt[i - 1]["extra"]["arm"]);
        }
        assert!(s["extra"]["pseudo_points"].is_null());
        assert_eq!(
            s["extra"]["random_point"].as_bool().unwrap(),
            s["extra"]["arm"] == 1 && t % 2 == 1
        );
    }
}

/// The recommendation is the observed point with the best observed value.
#[test]
fn recommendation_is_the_best_observation() {
    let lines = cpu_run("uhe-bo", &fast_acquisition(), "deceptive", 10, 4, 9).1;
    let mut best = f64::NEG_INFINITY;
    let mut best_x = Value::Null;
    let sign = if lines[0]["header"]["sense"] == "minimize" {
        -1.0
    } else {
        1.0
    };
    for s in &lines[1..] {
        let y = sign * s["y"].as_f64().unwrap();
        if y > best {
            best = y;
            best_x = s["x"].clone();
        }
        assert_eq!(s["recommended_x"], best_x);
    }
}
