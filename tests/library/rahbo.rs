//! RAHBO (Makarova, Usmanova, Bogunovic and Krause, "Risk-averse Heteroscedastic Bayesian
//! Optimization", NeurIPS 2021): its formulas against hand-computed reference values, the
//! paper's problems, the reductions between the four methods, and end-to-end runs.

use crate::common;

use bosweep::algorithms::rahbo::{
    ReportRule, ReportScores, SampleStats, bounds, information_log_ratio, mean_variance_bounds,
    pairwise_sample_variance, plug_in_noise, reported_index, theory_beta,
};
use bosweep::algorithms::{self, AlgorithmError};
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::params::ParamValue;
use bosweep::problems;
use bosweep::problems::rahbo::{BraninHetero, HeteroFunction, SineHetero, maximize_on_box};
use bosweep::sweep::RunConfig;
use rand::RngExt;
use rand_distr::StandardNormal;
use serde_json::Value;

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!((a - b).abs() <= tol, "{what}: {a} vs {b} (tol {tol})");
}

fn matern(lengthscale: f64, signal: f64) -> Kernel {
    Kernel::new(KernelKind::Matern52, vec![lengthscale], signal).unwrap()
}

fn column(values: &[f64]) -> Points {
    Points::new(values.to_vec(), 1).unwrap()
}

/// A run of `algo` (with `params` over the [`fast`] settings) on `problem` (with
/// `problem_params`), its trace lines.
fn run_trace(
    engine: &dyn Engine,
    algo: &str,
    params: &[(&'static str, ParamValue)],
    problem: &str,
    problem_params: &[(&str, ParamValue)],
    (budget, init, seed): (usize, usize, u64),
) -> Vec<Value> {
    let problem = problems::build(problem, problem_params).unwrap();
    let mut algorithm = algorithms::build(algo, &fast(params)).unwrap();
    let config = RunConfig {
        budget,
        init,
        seed,
        design_seed: seed,
        parallel: Default::default(),
    };
    let (_, lines) =
        common::run_to_trace(problem.as_ref(), algorithm.as_mut(), algo, engine, &config);
    common::steps(lines)
}

fn xs(trace: &[Value]) -> Vec<Vec<f64>> {
    trace.iter().map(|l| common::numbers(&l["x"])).collect()
}

fn num(v: f64) -> ParamValue {
    ParamValue::Number(v)
}

fn text(v: &str) -> ParamValue {
    ParamValue::from(v)
}

// Eq. 12 and its pairwise form (Eqs. 29–31).
#[test]
fn sample_statistics_and_pairwise_form() {
    let y = [1.0, 2.0, 3.0, 4.0];
    let s = SampleStats::of(&y).unwrap();
    close(s.mean, 2.5, 1e-15, "mean");
    close(s.variance, 1.666_666_666_666_666_7, 1e-12, "variance");
    close(
        pairwise_sample_variance(&y).unwrap(),
        s.variance,
        1e-12,
        "pairwise",
    );
    assert!(SampleStats::of(&[1.0]).is_none());
    for algo in ["rahbo", "rahbo-us", "gp-ucb-hetero"] {
        match algorithms::build(algo, &[("k", num(1.0))]) {
            Err(AlgorithmError::Config(m)) => assert!(m.contains("k = 1"), "{m}"),
            _ => panic!("{algo} must reject k = 1"),
        }
    }
    assert!(algorithms::build("rahbo-known-var", &[("k", num(1.0))]).is_ok());
}

fn sample_variance_variance(k: usize, draws: usize, uniform: bool, seed: u64) -> f64 {
    let mut rng = common::rng(seed);
    let half_width = 3f64.sqrt(); // U(−√3, √3) has unit variance
    let mut values = vec![0.0; k];
    let (mut sum, mut sum2) = (0.0, 0.0);
    for _ in 0..draws {
        for v in values.iter_mut() {
            *v = if uniform {
                rng.random_range(-half_width..half_width)
            } else {
                rng.sample::<f64, _>(StandardNormal)
            };
        }
        let s2 = SampleStats::of(&values).unwrap().variance;
        sum += s2;
        sum2 += s2 * s2;
    }
    let n = draws as f64;
    sum2 / n - (sum / n).powi(2)
}

// Appendix A.2: the variance of the sample variance, and the conservative 2ϱ̄⁴/(k−1).
#[test]
fn variance_of_the_sample_variance_matches_the_closed_forms() {
    let draws = 400_000;
    for (k, gaussian, uniform) in [(10, 0.222_222, 0.102_222), (5, 0.5, 0.26)] {
        let g = sample_variance_variance(k, draws, false, 1);
        let u = sample_variance_variance(k, draws, true, 2);
        assert!((g / gaussian - 1.0).abs() < 0.03, "Gaussian k = {k}: {g}");
        assert!((u / uniform - 1.0).abs() < 0.03, "uniform k = {k}: {u}");
        let conservative = bosweep::algorithms::rahbo::conservative_variance_noise(1.0, k);
        assert!(g <= conservative * 1.03 && u <= conservative);
        close(conservative, 2.0 / (k as f64 - 1.0), 1e-15, "2ϱ̄⁴/(k−1)");
    }
}

/// The CPU engine, and the GPU engine in f64 where an adapter has it (required in CI).
fn engines() -> Vec<Box<dyn Engine>> {
    let mut engines: Vec<Box<dyn Engine>> = vec![Box::new(CpuEngine::new())];
    engines.extend(common::gpu_f64().map(|g| Box::new(g) as Box<dyn Engine>));
    engines
}

// Eqs. 5–6: Matérn-5/2, ℓ = 1, s² = 1, one point x = 0 with y = 1 and noise 0.1, queried at 0.5:
// √5·r = 1.1180340, κ = (1 + 1.1180340 + 5·0.25/3)·e^{−1.1180340} = 2.5347007 · 0.3269219
// = 0.8286491; μ = κ·1/(1 + 0.1) = 0.7533174, σ² = 1 − κ²/1.1 = 1 − 0.6866594/1.1 = 0.3757642.
#[test]
fn posterior_of_one_point() {
    let kernel = matern(1.0, 1.0);
    close(kernel.eval(&[0.0], &[0.5]), 0.828_649_1, 1e-7, "κ(0, 0.5)");
    let gp = GpState::fit(
        column(&[0.0]),
        &[1.0],
        GpSpec::new(kernel, Noise::Homoscedastic(0.1)),
    )
    .unwrap();
    for engine in engines() {
        let p = engine.posterior(&gp, &column(&[0.5])).unwrap();
        let on = engine.describe();
        close(p.mean[0], 0.753_317_4, 1e-7, &format!("μ on {on}"));
        close(p.variance[0], 0.375_764_2, 1e-7, &format!("σ² on {on}"));
    }
}

fn four_point_gp(lambda: f64, signal: f64) -> GpState {
    GpState::fit(
        column(&[0.0, 0.3, 1.0]),
        &[1.0, -0.5, 0.2],
        GpSpec::new(matern(1.0, signal), Noise::PerPoint(vec![0.1, 0.2, 0.05])).lambda(lambda),
    )
    .unwrap()
}

// Eqs. 5–6 with λ ≠ 1.
#[test]
fn posterior_with_lambda_and_its_invariance() {
    let q = column(&[0.5]);
    for engine in engines() {
        let on = engine.describe();
        for (lambda, mean, var) in [
            (1.0, 0.125_686_4, 0.093_391_1),
            (2.0, 0.222_333_1, 0.065_364_6),
        ] {
            let p = engine.posterior(&four_point_gp(lambda, 1.0), &q).unwrap();
            close(p.mean[0], mean, 1e-7, &format!("μ on {on}"));
            close(p.variance[0], var, 1e-7, &format!("σ² on {on}"));
            // λ equals a standard GP with kernel κ/λ and noise Σ.
            let scaled = engine
                .posterior(&four_point_gp(1.0, 1.0 / lambda), &q)
                .unwrap();
            close(p.mean[0], scaled.mean[0], 1e-12, "μ invariance");
            close(p.variance[0], scaled.variance[0], 1e-12, "σ² invariance");
        }
    }
}

// Lemma 1's β from the data.
#[test]
fn theoretical_beta() {
    for (lambda, ratio, beta) in [(1.0, 5.657_607, 4.203_557), (2.0, 4.317_882, 4.401_361)] {
        let gp = four_point_gp(lambda, 1.0);
        close(information_log_ratio(&gp), ratio, 1e-6, "log-det ratio");
        close(theory_beta(&gp, 0.1, 1.0), beta, 1e-6, "β");
    }
    let empty = GpState::fit(
        Points::empty(1).unwrap(),
        &[],
        GpSpec::new(matern(1.0, 1.0), Noise::PerPoint(vec![])).lambda(2.0),
    )
    .unwrap();
    close(
        theory_beta(&empty, 0.1, 1.0),
        (2.0 * 10f64.ln()).sqrt() + 2f64.sqrt(),
        1e-12,
        "β without data",
    );
}

// Eq. 16 with a floor that keeps the noise positive.
#[test]
fn plug_in_noise_and_its_monotonicity() {
    let noise: Vec<f64> = [0.5, 3.0, -0.2]
        .iter()
        .map(|u| plug_in_noise(*u, 10, 0.01, 2.0))
        .collect();
    for (a, b) in noise.iter().zip([0.05, 0.2, 0.001]) {
        close(*a, b, 1e-15, "Σ̂");
    }
    let mut rng = common::rng(6);
    let x = common::uniform_points(&mut rng, 12, 2, 0.0, 1.0);
    let y = common::smooth_targets(&mut rng, &x);
    let ucb = common::uniform_values(&mut rng, 12, -0.5, 4.0);
    let hat: Vec<f64> = ucb
        .iter()
        .map(|u| plug_in_noise(*u, 10, 0.01, 2.0))
        .collect();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.4], 1.0).unwrap();
    let gp = |noise: Vec<f64>| {
        GpState::fit(
            x.clone(),
            &y,
            GpSpec::new(kernel.clone(), Noise::PerPoint(noise)),
        )
        .unwrap()
    };
    let candidates = common::uniform_points(&mut rng, 200, 2, 0.0, 1.0);
    let engine = CpuEngine::new();
    let posts = engine
        .posterior_batch(&[&gp(hat), &gp(vec![0.2; 12])], &candidates)
        .unwrap();
    for (a, b) in posts[0].variance.iter().zip(&posts[1].variance) {
        assert!(a <= &(b + 1e-12), "σ(x | Σ̂) = {a} > σ(x | ϱ̄²/k) = {b}");
    }
}

// Eqs. 14–15 and 37–38, and RAHBO with the exact variance (σ^var = 0) reducing to Eq. 9.
#[test]
fn acquisition_and_bound_arithmetic() {
    let f = bounds(1.0, 0.25, 2.0);
    let v = bounds(0.3, 0.01, 2.0);
    close(f.1, 2.0, 1e-15, "ucb^f");
    close(v.0, 0.1, 1e-15, "lcb^var");
    close(f.0, 0.0, 1e-15, "lcb^f");
    close(v.1, 0.5, 1e-15, "ucb^var");
    let (lcb, ucb) = mean_variance_bounds(f, v, 1.0);
    close(ucb, 1.9, 1e-15, "ucb^MV");
    close(lcb, -0.5, 1e-15, "lcb^MV");
    // With the exact ρ² (σ^var = 0) the bounds are Eq. 9's μ ± βσ − αρ².
    let exact = bounds(0.3, 0.0, 2.0);
    let (lcb, ucb) = mean_variance_bounds(f, exact, 1.0);
    close(ucb, 2.0 - 0.3, 1e-15, "Eq. 9 ucb");
    close(lcb, 0.0 - 0.3, 1e-15, "Eq. 9 lcb");
}

// Section 4's benchmarks: negated Branin and the noise levels.
#[test]
fn benchmark_values_and_noise_levels() {
    let a = [9.42478, 2.475];
    let b = [std::f64::consts::PI, 2.275];
    let c = [-std::f64::consts::PI, 12.275];
    let one = BraninHetero::new(1.0);
    for p in [a, b, c] {
        close(one.mean(&p), -0.397_887, 1e-5, "negated Branin");
    }
    for (p, s) in [(a, 1.431_56), (b, 0.797_98), (c, 0.240_00)] {
        close(one.noise_std(&p), s, 1e-5, "Branin noise std, σ_n = 1");
    }
    for (p, r) in [(a, 2.049_35), (b, 0.636_77), (c, 0.057_60)] {
        close(one.noise_std(&p).powi(2), r, 1e-5, "Branin ρ², σ_n = 1");
    }
    let two = BraninHetero::new(2.0);
    for (p, r) in [(a, 23.126_8), (b, 6.189_02), (c, 0.193_61)] {
        close(two.noise_std(&p).powi(2), r, 1e-4, "Branin ρ², σ_n = 2");
    }
    for (sigma, r) in [(1.0, 1.208_78), (2.0, 4.405_36)] {
        let sine = SineHetero::new(sigma);
        close(sine.noise_std(&[0.25]).powi(2), 0.01, 1e-8, "sine ρ²(0.25)");
        close(sine.noise_std(&[1.25]).powi(2), r, 1e-5, "sine ρ²(1.25)");
    }
}

// The true mean-variance optima of the benchmarks.
#[test]
fn true_mean_variance_optima() {
    for sigma in [1.0, 2.0] {
        for alpha in [0.5, 1.0, 2.0, 5.0] {
            let p = problems::build(
                "sine-hetero",
                &[("sigma_n", num(sigma)), ("alpha", num(alpha))],
            )
            .unwrap();
            let o = p.optimum(1).unwrap();
            close(o.value, 1.0 - 0.01 * alpha, 1e-4, "sine MV*");
            close(o.locations[0][0], 0.25, 1e-4, "sine x*");
        }
    }
    // The other maximum of f, near 1.25, is a local maximum of MV.
    let sine = SineHetero::new(1.0);
    let right = bosweep::problems::Domain::new(vec![1.0], vec![2.0]).unwrap();
    for (alpha, local) in [(0.5, 0.395_612), (1.0, -0.208_767)] {
        let (v, _) = maximize_on_box(&right, 10_001, |x| {
            sine.mean(x) - alpha * sine.noise_std(x).powi(2)
        });
        close(v, local, 1e-4, "sine local MV maximum");
    }
    let table = [
        (1.0, [-0.426_688, -0.455_489, -0.513_091, -0.685_896]),
        (2.0, [-0.494_693, -0.591_499, -0.785_111, -1.365_947]),
    ];
    for (sigma, values) in table {
        for (alpha, value) in [0.5, 1.0, 2.0, 5.0].into_iter().zip(values) {
            let p = problems::build(
                "branin-hetero",
                &[("sigma_n", num(sigma)), ("alpha", num(alpha))],
            )
            .unwrap();
            let o = p.optimum(1).unwrap();
            close(o.value, value, 1e-4, "Branin MV*");
            let x = &o.locations[0];
            let d = ((x[0] + std::f64::consts::PI).powi(2) + (x[1] - 12.275).powi(2)).sqrt();
            assert!(d < 0.05, "Branin x* = {x:?} is not C");
        }
    }
}

// Corollary 1.1 and the final models' rule, ties to the earliest point.
#[test]
fn reporting_rules_on_hand_built_values() {
    let stored = [None, Some(0.4), Some(0.7)];
    let final_lcb = [0.9, 0.2, 0.9];
    let means = [1.0, 2.0, 0.5];
    let variances = [0.5, 1.8, 0.1];
    let scores = ReportScores {
        stored_lcb: &stored,
        final_lcb: Some(&final_lcb),
        means: &means,
        variances: &variances,
        alpha: 1.0,
    };
    assert_eq!(reported_index(ReportRule::Corollary, &scores), Some(2));
    // Ties resolve to the earliest index.
    assert_eq!(reported_index(ReportRule::FinalLcb, &scores), Some(0));
    assert_eq!(reported_index(ReportRule::BestObserved, &scores), Some(1));
    // m̂ − α·ŝ² = 0.5, 0.2, 0.4.
    assert_eq!(reported_index(ReportRule::EmpiricalMv, &scores), Some(0));
    let before_models = ReportScores {
        final_lcb: None,
        stored_lcb: &[None, None, None],
        ..scores
    };
    assert_eq!(
        reported_index(ReportRule::FinalLcb, &before_models),
        Some(0)
    );
    assert_eq!(
        reported_index(ReportRule::Corollary, &before_models),
        Some(0)
    );
}

const FAST: [(&str, f64); 1] = [("grid_size", 512.0)];

fn fast(extra: &[(&'static str, ParamValue)]) -> Vec<(&'static str, ParamValue)> {
    FAST.iter()
        .map(|(k, v)| (*k, num(*v)))
        .chain(extra.iter().cloned())
        .collect()
}

// Eq. 3's cumulative regret and the trace fields.
#[test]
fn regret_bookkeeping_and_trace_metrics() {
    let engine = CpuEngine::new();
    let problem = problems::build("sine-hetero", &[]).unwrap();
    let optimum = problem.optimum(1).unwrap().value;
    let trace = run_trace(&engine, "rahbo", &[], "sine-hetero", &[], (150, 5, 3));
    assert_eq!(trace.len(), 15);
    let mut sum = 0.0;
    let mut previous = 0.0;
    for line in &trace {
        assert_eq!(
            line["repeats"], 10,
            "k evaluations at every step, initial design included"
        );
        let x = line["x"][0].as_f64().unwrap();
        let f = (2.0 * std::f64::consts::PI * x).sin();
        let rho2 = SineHetero::new(1.0).noise_std(&[x]).powi(2);
        close(line["f"].as_f64().unwrap(), f - rho2, 1e-12, "MV(x_t)");
        close(
            line["extra"]["metrics"]["f"].as_f64().unwrap(),
            f,
            1e-12,
            "f(x_t)",
        );
        close(
            line["extra"]["metrics"]["rho2"].as_f64().unwrap(),
            rho2,
            1e-12,
            "ρ²(x_t)",
        );
        sum += optimum - (f - rho2);
        let cumulative = line["cumulative_regret"].as_f64().unwrap();
        close(cumulative, sum, 1e-9, "cumulative regret");
        assert!(cumulative >= previous);
        previous = cumulative;
        let r = &line["recommended_x"][0].as_f64().unwrap();
        let rf = (2.0 * std::f64::consts::PI * r).sin();
        let rr = SineHetero::new(1.0).noise_std(&[*r]).powi(2);
        close(
            line["extra"]["recommended_metrics"]["f"].as_f64().unwrap(),
            rf,
            1e-12,
            "f(x̂)",
        );
        close(
            line["extra"]["recommended_metrics"]["rho2"]
                .as_f64()
                .unwrap(),
            rr,
            1e-12,
            "ρ²(x̂)",
        );
        close(
            line["simple_regret"].as_f64().unwrap(),
            optimum - (rf - rr),
            1e-12,
            "simple",
        );
        assert!(line["extra"]["s2"].as_f64().unwrap() > 0.0);
    }
    let last = &trace[trace.len() - 1]["extra"];
    for key in [
        "lcb_mv",
        "beta_f",
        "beta_var",
        "corollary_x",
        "f_lengthscales",
        "var_noise",
    ] {
        assert!(!last[key].is_null(), "extra.{key} missing");
    }
}

// A reduction: RAHBO at α = 0 is GP-UCB with RAHBO's Σ̂.
#[test]
fn rahbo_at_alpha_zero_is_gp_ucb_with_plug_in_noise() {
    let engine = CpuEngine::new();
    for seed in [1, 2] {
        let rahbo = run_trace(
            &engine,
            "rahbo",
            &[("alpha", num(0.0)), ("alpha_source", text("parameter"))],
            "branin-hetero",
            &[],
            (120, 6, seed),
        );
        let ucb = run_trace(
            &engine,
            "gp-ucb-hetero",
            &[("gpucb_noise", text("ucb_var_over_k"))],
            "branin-hetero",
            &[],
            (120, 6, seed),
        );
        assert_eq!(xs(&rahbo), xs(&ucb), "seed {seed}");
    }
}

// A reduction: known constant variance is GP-UCB with that noise.
#[test]
fn known_constant_variance_is_gp_ucb_with_the_same_noise() {
    let engine = CpuEngine::new();
    // σ_n = 0: s(x) = 0.1, ρ² = 0.01 everywhere; GP-UCB's Σ̂ clipped to [0.01, 0.01].
    let flat = [("sigma_n", num(0.0))];
    let known = run_trace(
        &engine,
        "rahbo-known-var",
        &[],
        "sine-hetero",
        &flat,
        (150, 5, 4),
    );
    let ucb = run_trace(
        &engine,
        "gp-ucb-hetero",
        &[
            ("gpucb_noise", text("ucb_var_over_k")),
            ("rho2_min", num(0.01)),
            ("rho2_max", num(0.01)),
        ],
        "sine-hetero",
        &flat,
        (150, 5, 4),
    );
    assert_eq!(xs(&known), xs(&ucb));
}

#[test]
fn known_variance_needs_a_problem_that_knows_it() {
    let problem = problems::build("branin", &[]).unwrap();
    let mut algorithm = algorithms::build("rahbo-known-var", &[]).unwrap();
    match algorithm.prepare(problem.as_ref()) {
        Err(AlgorithmError::Config(m)) => assert!(m.contains("branin"), "{m}"),
        other => panic!("expected a configuration error, got {other:?}"),
    }
}

// Reproducibility: the same seed gives the same trace.
#[test]
fn runs_are_reproducible_for_every_method() {
    let engine = CpuEngine::new();
    for algo in ["rahbo", "rahbo-us", "rahbo-known-var", "gp-ucb-hetero"] {
        let params = &[("us_rounds", num(2.0))][..usize::from(algo == "rahbo-us")];
        let run = || {
            common::without_timings(&run_trace(
                &engine,
                algo,
                params,
                "sine-hetero",
                &[],
                (100, 5, 9),
            ))
        };
        assert_eq!(run(), run(), "{algo}");
    }
}

#[test]
fn rahbo_us_samples_uncertainty_first() {
    let engine = CpuEngine::new();
    let trace = run_trace(
        &engine,
        "rahbo-us",
        &[("us_rounds", num(3.0))],
        "sine-hetero",
        &[],
        (110, 5, 5),
    );
    let phases: Vec<&str> = trace[5..]
        .iter()
        .map(|l| l["extra"]["us_phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["us", "us", "us", "ucb", "ucb", "ucb"]);
}

// The GPU engine's batched posteriors of both GPs agree with the CPU's, and a
// batch equals the GPs one at a time.
#[test]
fn batched_two_gp_posteriors_match_single_and_gpu() {
    let mut rng = common::rng(14);
    let x = common::uniform_points(&mut rng, 20, 2, 0.0, 1.0);
    let y = common::smooth_targets(&mut rng, &x);
    let s2: Vec<f64> = common::uniform_values(&mut rng, 20, 0.01, 1.0);
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.5], 1.2).unwrap();
    let noise: Vec<f64> = s2.iter().map(|v| v / 10.0).collect();
    let f = GpState::fit(
        x.clone(),
        &y,
        GpSpec::new(kernel.clone(), Noise::PerPoint(noise)).mean(0.1),
    )
    .unwrap();
    let var = GpState::fit(
        x,
        &s2,
        GpSpec::new(kernel, Noise::Homoscedastic(0.05)).mean(0.4),
    )
    .unwrap();
    let candidates = common::uniform_points(&mut rng, 300, 2, 0.0, 1.0);
    let cpu = CpuEngine::new();
    let batch = cpu.posterior_batch(&[&f, &var], &candidates).unwrap();
    assert_eq!(batch[0], cpu.posterior(&f, &candidates).unwrap());
    assert_eq!(batch[1], cpu.posterior(&var, &candidates).unwrap());
    for gpu in common::gpus() {
        let g = gpu.posterior_batch(&[&f, &var], &candidates).unwrap();
        for (a, b) in g.iter().zip(&batch) {
            assert!(common::max_abs_diff(&a.mean, &b.mean) < 1e-3);
            assert!(common::max_abs_diff(&a.variance, &b.variance) < 1e-3);
        }
    }
}

// The sine experiment of Section 4, reduced (CI-sized: 4 seeds, 15 rounds, 512 candidates instead of 30 seeds × 60).
#[test]
fn rahbo_prefers_the_quiet_maximum_of_sine() {
    let engine = CpuEngine::new();
    let (mut rahbo_noisy, mut ucb_noisy, mut near) = (0usize, 0usize, 0usize);
    let (mut rahbo_regret, mut ucb_regret) = (0.0, 0.0);
    let seeds = 4;
    for seed in 0..seeds {
        let r = run_trace(&engine, "rahbo", &[], "sine-hetero", &[], (250, 10, seed));
        let u = run_trace(
            &engine,
            "gp-ucb-hetero",
            &[],
            "sine-hetero",
            &[],
            (250, 10, seed),
        );
        let noisy = |t: &[Value]| {
            t[10..]
                .iter()
                .filter(|l| l["x"][0].as_f64().unwrap() > 1.0)
                .count()
        };
        rahbo_noisy += noisy(&r);
        ucb_noisy += noisy(&u);
        let regret = |t: &[Value]| {
            t.last().unwrap()["cumulative_regret"].as_f64().unwrap()
                - t[9]["cumulative_regret"].as_f64().unwrap()
        };
        rahbo_regret += regret(&r);
        ucb_regret += regret(&u);
        let reported = r.last().unwrap()["recommended_x"][0].as_f64().unwrap();
        near += usize::from((reported - 0.25).abs() < 0.05);
    }
    assert!(
        rahbo_noisy < ucb_noisy,
        "queries in (1, 2]: RAHBO {rahbo_noisy}, GP-UCB {ucb_noisy}"
    );
    assert!(
        rahbo_regret < ucb_regret,
        "MV regret: RAHBO {rahbo_regret}, GP-UCB {ucb_regret}"
    );
    assert!(
        near * 10 >= 7 * seeds as usize,
        "reported near 0.25 in {near} of {seeds} seeds"
    );
}

#[test]
fn rf_tuning_scores_folds_and_balanced_accuracy() {
    use bosweep::problems::rahbo::balanced_accuracy;
    close(
        balanced_accuracy(
            &[true, true, false, false, false],
            &[true, false, false, false, true],
        ),
        (0.5 + 2.0 / 3.0) / 2.0,
        1e-15,
        "balanced accuracy",
    );
    close(
        balanced_accuracy(&[false, false], &[false, true]),
        0.5,
        1e-15,
        "one class",
    );
    let p = problems::build("rf-tuning", &[]).unwrap();
    assert_eq!(p.allowed_set(1).unwrap().rows(), 100 * 24 * 15);
    let step = bosweep::problems::Step::new(1, 5).unwrap();
    let obs = p
        .evaluate(&[5.0, 8.0, 4.0], &step, &mut common::rng(1))
        .unwrap();
    assert_eq!(obs.repeats.len(), 5);
    for v in &obs.repeats {
        assert!((-1.0..=0.0).contains(v), "balanced accuracy − 1 = {v}");
    }
    let again = p
        .evaluate(&[5.0, 8.0, 4.0], &step, &mut common::rng(1))
        .unwrap();
    assert_eq!(obs, again);
    assert!(
        p.evaluate(&[5.5, 8.0, 4.0], &step, &mut common::rng(1))
            .is_err()
    );
}

#[test]
fn alpha_comes_from_the_problem_unless_told_otherwise() {
    let engine = CpuEngine::new();
    let problem = [("alpha", num(0.5))];
    let from_problem = run_trace(&engine, "rahbo", &[], "sine-hetero", &problem, (80, 5, 1));
    assert_eq!(from_problem.last().unwrap()["extra"]["alpha"], 0.5);
    let own = run_trace(
        &engine,
        "rahbo",
        &[("alpha", num(2.0)), ("alpha_source", text("parameter"))],
        "sine-hetero",
        &problem,
        (80, 5, 1),
    );
    assert_eq!(own.last().unwrap()["extra"]["alpha"], 2.0);
}

// The same seed and candidate set give the same x_t sequence on the CPU and on the GPU
// in f64 (where the adapter has it; f32 may break near-ties differently).
#[test]
fn cpu_and_gpu_choose_the_same_points() {
    let Some(gpu) = common::gpu_f64() else {
        return;
    };
    let cpu = CpuEngine::new();
    for algo in ["rahbo", "rahbo-us"] {
        let params = &[("us_rounds", num(2.0))][..usize::from(algo == "rahbo-us")];
        let a = run_trace(&cpu, algo, params, "branin-hetero", &[], (100, 5, 7));
        let b = run_trace(&gpu, algo, params, "branin-hetero", &[], (100, 5, 7));
        assert_eq!(xs(&a), xs(&b), "{algo}");
    }
}
