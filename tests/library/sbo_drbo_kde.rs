//! SBO-KDE / DRBO-KDE (Huang, Song, Xue and Qian, AAAI 2024) and the baselines they compare
//! with: the KDE, the closed forms, the problems and the methods end to end.

use crate::common;

use bosweep::acquisition::Acquisition as _;
use bosweep::algorithms::contextual::{PairAcquisition, Reduction};
use bosweep::problems::contextual::{Objective, newsvendor_optimal_order};
use bosweep::problems::{Problem, build};

fn problem(name: &str) -> Box<dyn Problem> {
    build(name, &[]).unwrap()
}

fn f(p: &dyn Problem, x: &[f64]) -> f64 {
    p.objective_of_interest(x, 1).unwrap()
}

/// T7: newsvendor values and optimum.
#[test]
fn newsvendor_values_and_optimum() {
    let p = problem("newsvendor");
    assert!(f(&*p, &[0.0]).abs() < 1e-12);
    assert!(
        (f(&*p, &[0.5]) + 0.389600).abs() < 1e-6,
        "{}",
        f(&*p, &[0.5])
    );
    assert!(
        (f(&*p, &[1.0]) + 2.384150).abs() < 1e-6,
        "{}",
        f(&*p, &[1.0])
    );
    let opt = p.optimum(1).unwrap();
    assert!((opt.locations[0][0] - 0.187790).abs() < 1e-4);
    assert!((opt.value - 0.463943).abs() < 1e-5, "{}", opt.value);
    assert!((newsvendor_optimal_order() - 0.187790).abs() < 1e-6);
}

/// T8, T9: Ackley expected values.
#[test]
fn ackley_expected_values() {
    let p = problem("ackley-ctx");
    assert!(
        (f(&*p, &[0.5, 0.5]) + 10.95227).abs() < 1e-4,
        "{}",
        f(&*p, &[0.5, 0.5])
    );
    assert!(
        (f(&*p, &[0.4, 0.6]) + 17.23433).abs() < 1e-3,
        "{}",
        f(&*p, &[0.4, 0.6])
    );
    let p4 = problem("ackley-ctx4");
    assert!(
        (f(&*p4, &[0.5, 0.5]) + 16.19957).abs() < 2e-3,
        "{}",
        f(&*p4, &[0.5, 0.5])
    );
}

/// T10, T11: Modified Branin and Hartmann optima (refined on our quadrature estimator).
#[test]
fn branin_and_hartmann_optima() {
    // The optimum of `name`: its value within `tol` of `value`, its location within `within` of
    // `location` in every coordinate.
    let optimum = |name: &str, (value, tol): (f64, f64), location: &[f64], within: f64| {
        let o = problem(name).optimum(1).unwrap();
        assert!((o.value - value).abs() < tol, "{name}: {o:?}");
        assert!(
            o.locations[0]
                .iter()
                .zip(location)
                .all(|(x, w)| (x - w).abs() < within),
            "{name}: {o:?}"
        );
        o.value
    };
    optimum("branin-ctx", (-9.60391, 2e-3), &[0.19555, 0.17884], 2e-3);
    let h = optimum(
        "hartmann-ctx",
        (2.61356, 1e-3),
        &[0.197, 0.150, 0.484, 0.273, 0.314],
        5e-3,
    );
    // With the paper's typo α₂ = 2.0 the maximum would be about 2.6157: the value must not be.
    assert!((h - 2.6157).abs() > 1e-3);
}

use bosweep::compute::CpuEngine;
use bosweep::problems::ParamValue;
use common::cpu_run;

/// Small optimiser settings for CI: T16's assertions hold with them (our calibration
/// maximised the acquisition on a 1-D grid).
fn light(algo: &str, extra: &[(&'static str, f64)]) -> Vec<(&'static str, ParamValue)> {
    let mut p: Vec<(&str, ParamValue)> = vec![
        ("raw_samples", 128.0.into()),
        ("restarts", 4.0.into()),
        ("max_iters", 30.0.into()),
    ];
    match algo {
        "sbo-kde" => p.push(("samples", 256.0.into())),
        "drbo-kde" => {
            p.push(("samples", 256.0.into()));
            p.push(("infimum_points", 256.0.into()));
        }
        "stableopt" => p.push(("infimum_points", 256.0.into())),
        _ => p.push(("grid_size", 64.0.into())),
    }
    p.extend(extra.iter().map(|(k, v)| (*k, ParamValue::from(*v))));
    p
}

fn xs(lines: &[serde_json::Value]) -> Vec<f64> {
    lines[1..]
        .iter()
        .map(|l| l["x"][0].as_f64().unwrap())
        .collect()
}

fn regrets(lines: &[serde_json::Value]) -> Vec<f64> {
    lines[1..]
        .iter()
        .map(|l| l["instant_regret"].as_f64().unwrap())
        .collect()
}

/// T16: SBO-KDE and DRBO-KDE on newsvendor, n0 = 10, T = 60, seeds 100–104.
#[test]
fn newsvendor_end_to_end() {
    let x_star = newsvendor_optimal_order();
    for algo in ["sbo-kde", "drbo-kde"] {
        let mut distance = 0.0;
        let (mut early, mut late) = (0.0, 0.0);
        for seed in 100..105 {
            let params = light(algo, &[]);
            let lines = cpu_run(algo, &params, "newsvendor", 60, 10, seed).1;
            let x = xs(&lines);
            let r = regrets(&lines);
            distance += x[50..].iter().map(|v| (v - x_star).abs()).sum::<f64>() / 10.0;
            early += r[10..30].iter().sum::<f64>() / 20.0;
            late += r[40..60].iter().sum::<f64>() / 20.0;
        }
        let (distance, early, late) = (distance / 5.0, early / 5.0, late / 5.0);
        println!("{algo}: |x − x*| {distance:.4}, regret 11..30 {early:.4}, 41..60 {late:.4}");
        assert!(distance < 0.05, "{algo}: mean |x_t − x*| = {distance}");
        assert!(late < early, "{algo}: regret {late} late vs {early} early");
    }
}

/// T16, last bullet: DRBO-KDE with radius 0 makes SBO-KDE's decisions.
#[test]
fn drbo_with_zero_radius_is_sbo() {
    let run = |algo: &str, extra: &[(&'static str, f64)]| {
        let params = light("sbo-kde", extra);
        let lines = cpu_run(algo, &params, "newsvendor", 16, 10, 3).1;
        xs(&lines)
    };
    let sbo = run("sbo-kde", &[]);
    let drbo = run(
        "drbo-kde",
        &[("l1_radius_scale", 0.0), ("infimum_points", 64.0)],
    );
    let gap = common::max_abs_diff(&sbo, &drbo);
    assert!(gap < 1e-6, "{sbo:?} vs {drbo:?}");
}

/// T14: same seed, same decisions; another seed, other decisions.
#[test]
fn runs_are_reproducible_from_their_seed() {
    let run = |algo: &str, seed| {
        let params = light(algo, &[]);
        let lines = cpu_run(algo, &params, "ackley-ctx", 13, 10, seed).1;
        common::without_timings(&lines)
    };
    for algo in ["drbo-kde", "stableopt", "drbo-mmd-minimax"] {
        assert_eq!(run(algo, 7), run(algo, 7));
        assert_ne!(run(algo, 7)[11..], run(algo, 8)[11..]);
    }
}

use bosweep::compute::{Engine, Points, worst_case_tv};
use rand::RngExt;

/// T1, T2: KDE densities (bandwidths from Huang et al.'s rule, their Eq. 2).
#[test]
fn kde_densities_match_the_reference_values() {
    use bosweep::algorithms::contextual::kde_bandwidths;
    use bosweep::model::BandwidthRule;
    let engine = CpuEngine::new();
    let c1 = Points::new(vec![0.2, 0.4, 0.6, 0.8], 1).unwrap();
    let h1 = kde_bandwidths(BandwidthRule::Silverman, &c1, 0.0, 1.0);
    let q = Points::new(vec![0.5, 0.0], 1).unwrap();
    let p = engine.kde_density(&c1, &h1, None, &q).unwrap();
    assert!(
        (p[0] - 1.226484).abs() < 1e-6 && (p[1] - 0.347183).abs() < 1e-6,
        "{p:?}"
    );
    let c2 = Points::new(vec![0.1, 0.9, 0.3, 0.5, 0.5, 0.5, 0.7, 0.1, 0.9, 0.5], 2).unwrap();
    let h2 = kde_bandwidths(BandwidthRule::Silverman, &c2, 0.0, 1.0);
    let q = Points::new(vec![0.5, 0.5], 2).unwrap();
    let p = engine.kde_density(&c2, &h2, None, &q).unwrap();
    assert!((p[0] - 1.469087).abs() < 1e-6, "{p:?}");
}

/// T3: sampler moments, unclamped and clamped.
#[test]
fn kde_sampler_moments() {
    use bosweep::algorithms::contextual::kde_bandwidths;
    use bosweep::model::{BandwidthRule, sample_clipped};
    let c1 = Points::new(vec![0.2, 0.4, 0.6, 0.8], 1).unwrap();
    let h = kde_bandwidths(BandwidthRule::Silverman, &c1, 0.0, 1.0);
    let mut rng = common::rng(11);
    let n = 1_000_000;
    let wide = sample_clipped(&c1, &h, &[-1e9], &[1e9], n, &mut rng).unwrap();
    let s = wide.as_slice();
    let mean = s.iter().sum::<f64>() / n as f64;
    let var = s.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64;
    assert!((mean - 0.5).abs() < 0.002, "{mean}");
    assert!((var - 0.082220).abs() < 0.001, "{var}");
    let clipped = sample_clipped(&c1, &h, &[0.0], &[1.0], n, &mut rng).unwrap();
    for bound in [0.0, 1.0] {
        let share = clipped.as_slice().iter().filter(|v| **v == bound).count() as f64 / n as f64;
        assert!((share - 0.036485).abs() < 0.001, "P(ĉ = {bound}) = {share}");
    }
}

fn tv(u: &[f64], delta: f64, m: f64) -> f64 {
    worst_case_tv(&mut u.to_vec(), delta, m)
}

/// Maximises `c·x` subject to `A x ≤ b`, `x ≥ 0`, with `b ≥ 0` (the origin is feasible): a dense
/// tableau simplex with Bland's rule (no cycling), for small test instances only.
fn simplex_max(c: &[f64], a: &[Vec<f64>], b: &[f64]) -> f64 {
    let (rows, cols) = (a.len(), c.len());
    let width = cols + rows + 1;
    let mut t = vec![vec![0.0; width]; rows + 1];
    for i in 0..rows {
        t[i][..cols].copy_from_slice(&a[i]);
        t[i][cols + i] = 1.0;
        t[i][width - 1] = b[i];
    }
    for j in 0..cols {
        t[rows][j] = -c[j];
    }
    let mut basis: Vec<usize> = (cols..cols + rows).collect();
    loop {
        let Some(enter) = (0..width - 1).find(|&j| t[rows][j] < -1e-12) else {
            return t[rows][width - 1];
        };
        let leave = (0..rows)
            .filter(|&i| t[i][enter] > 1e-12)
            .min_by(|&i, &k| {
                let (ri, rk) = (t[i][width - 1] / t[i][enter], t[k][width - 1] / t[k][enter]);
                ri.partial_cmp(&rk).unwrap().then(basis[i].cmp(&basis[k]))
            })
            .expect("bounded");
        let pivot = t[leave][enter];
        t[leave].iter_mut().for_each(|v| *v /= pivot);
        let pivot_row = t[leave].clone();
        for (i, row) in t.iter_mut().enumerate() {
            let f = row[enter];
            if i != leave && f != 0.0 {
                row.iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(v, p)| *v -= f * p);
            }
        }
        basis[leave] = enter;
    }
}

/// The primal of T5 as an LP: remove mass `p_i ≤ 1/M` from atom i, add `r_i ≥ 0`, put
/// `q0 ≥ 0` on the infimum; `Σ r − Σ p + q0 = 0`, `Σ (p + r) + q0 ≤ δ`; minimise the mean.
fn primal_lp(u: &[f64], delta: f64, m: f64) -> f64 {
    let n = u.len();
    let inv = 1.0 / n as f64;
    // Variables: p (n), r (n), q0; maximise −(Σ r u − Σ p u + q0 m).
    let mut c: Vec<f64> = u.to_vec();
    c.extend(u.iter().map(|v| -v));
    c.push(-m);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for i in 0..n {
        let mut row = vec![0.0; 2 * n + 1];
        row[i] = 1.0;
        a.push(row);
        b.push(inv);
    }
    a.push(vec![1.0; 2 * n + 1]);
    b.push(delta);
    let mut balance: Vec<f64> = vec![-1.0; n];
    balance.extend(vec![1.0; n]);
    balance.push(1.0);
    a.push(balance.clone());
    b.push(0.0);
    a.push(balance.iter().map(|v| -v).collect());
    b.push(0.0);
    let mean = u.iter().sum::<f64>() * inv;
    mean - simplex_max(&c, &a, &b)
}

/// The dual objective of Eq. (6), maximised by enumerating the vertices of its pieces: the
/// objective is concave and piecewise linear in (α, β) with kinks on α − β = u_i, and the
/// constraints are α = 0 and α + β = −m.
fn dual_vertices(u: &[f64], delta: f64, m: f64) -> f64 {
    let objective = |alpha: f64, beta: f64| {
        u.iter().map(|v| (v + beta).min(alpha)).sum::<f64>() / u.len() as f64 - beta - delta * alpha
    };
    let mut best = objective(0.0, -m);
    for &v in u {
        for (alpha, beta) in [(0.0, -v), ((v - m) / 2.0, (-m - v) / 2.0)] {
            if alpha >= 0.0 && alpha + beta >= -m - 1e-12 {
                best = best.max(objective(alpha, beta));
            }
        }
    }
    best
}

/// T5: the closed form against the primal and the dual LP (T4, its table for u = (1, …, 10),
/// is `engine_reference::worst_case_tv_table`, beside the engine's other reductions).
#[test]
fn tv_closed_form_matches_linear_programs() {
    let mut rng = common::rng(5);
    for case in 0..200 {
        let n = rng.random_range(1..=40);
        let mut u: Vec<f64> = (0..n).map(|_| rng.random_range(-5.0..5.0)).collect();
        if case % 5 == 0 {
            u[0] = u[n - 1]; // ties
        }
        let lowest = u.iter().copied().fold(f64::INFINITY, f64::min);
        let m = lowest - rng.random_range(0.0..3.0);
        let delta = rng.random_range(0.0..3.0);
        let closed = tv(&u, delta, m);
        let primal = primal_lp(&u, delta, m);
        let dual = dual_vertices(&u, delta, m);
        assert!(
            (closed - primal).abs() < 1e-9,
            "case {case}: {closed} vs primal {primal}"
        );
        assert!(
            (closed - dual).abs() < 1e-9,
            "case {case}: {closed} vs dual {dual}"
        );
    }
}

/// T6: properties, and the subgradient of the closed form against central
/// differences away from ties.
#[test]
fn tv_closed_form_properties() {
    let mut rng = common::rng(6);
    for _ in 0..100 {
        let n = rng.random_range(2..=30);
        let u: Vec<f64> = (0..n).map(|_| rng.random_range(-3.0..3.0)).collect();
        let mean = u.iter().sum::<f64>() / n as f64;
        let lowest = u.iter().copied().fold(f64::INFINITY, f64::min);
        let m = lowest - rng.random_range(0.01..2.0);
        assert!((tv(&u, 0.0, m) - mean).abs() < 1e-12);
        let mut previous = f64::INFINITY;
        for k in 0..=30 {
            let v = tv(&u, k as f64 * 0.1, m);
            assert!(v <= previous + 1e-12 && v <= mean + 1e-12);
            previous = v;
        }
        let delta = rng.random_range(0.05..1.9);
        let (a, b) = (rng.random_range(0.1..5.0), rng.random_range(-3.0..3.0));
        let scaled: Vec<f64> = u.iter().map(|v| a * v + b).collect();
        assert!((tv(&scaled, delta, a * m + b) - (a * tv(&u, delta, m) + b)).abs() < 1e-10);

        // Gradient: weight 1/M below τ*, (k + 1 − δM/2)/M on the pivot, 0 above; δ/2 on m.
        let k = (delta * n as f64 / 2.0).floor() as usize;
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| u[j].total_cmp(&u[i]));
        let fraction = (k as f64 + 1.0 - delta * n as f64 / 2.0) / n as f64;
        let h = 1e-7;
        for (rank, &i) in order.iter().enumerate() {
            let want = match rank.cmp(&k) {
                std::cmp::Ordering::Less => 0.0,
                std::cmp::Ordering::Equal => fraction,
                std::cmp::Ordering::Greater => 1.0 / n as f64,
            };
            let (mut up, mut down) = (u.clone(), u.clone());
            up[i] += h;
            down[i] -= h;
            let fd = (tv(&up, delta, m) - tv(&down, delta, m)) / (2.0 * h);
            assert!((fd - want).abs() < 1e-6, "∂V/∂u: {fd} vs {want}");
        }
        let fd = (tv(&u, delta, m + h) - tv(&u, delta, m - h)) / (2.0 * h);
        assert!((fd - delta / 2.0).abs() < 1e-6, "∂V/∂m: {fd}");
    }
}

/// The names build with their defaults; bad settings are configuration errors.
#[test]
fn names_build_and_bad_input_is_a_config_error() {
    use bosweep::algorithms::{AlgorithmError, build as build_algorithm};
    for name in ["sbo-kde", "drbo-kde", "stableopt", "drbo-mmd-minimax"] {
        assert!(build_algorithm(name, &[]).is_ok(), "{name}");
    }
    for name in common::CONTEXTUAL_PROBLEMS {
        let p = problem(name);
        assert!(p.context_domain().is_some(), "{name}");
    }
    let bad = build_algorithm(
        "drbo-kde",
        &[("context_lo", 1.0.into()), ("context_hi", 0.0.into())],
    );
    assert!(matches!(bad, Err(AlgorithmError::Config(m)) if m.contains("context_lo")));
    let bad = build_algorithm("sbo-kde", &[("l1_radius_scale", 1.0.into())]);
    assert!(matches!(bad, Err(AlgorithmError::Config(m)) if m.contains("l1_radius_scale")));
}

/// An algorithm of this family on a problem without contexts stops with a configuration error.
#[test]
fn a_problem_without_context_is_rejected() {
    use bosweep::algorithms::{AlgorithmError, Feedback, build as build_algorithm};
    let mut algorithm = build_algorithm("sbo-kde", &[]).unwrap();
    let told = algorithm.tell(&Feedback {
        x: &[0.5],
        y: 1.0,
        repeats: &[1.0],
        context: None,
        t: 1,
        objectives: &[],
        constraints: &[],
    });
    assert!(matches!(told, Err(AlgorithmError::Config(m)) if m.contains("context")));
}

/// The environment clips contexts to [0, 1] unless asked for the raw draw (as Huang et al.'s code).
#[test]
fn mixture_contexts_are_clipped_unless_raw() {
    use bosweep::problems::Step;
    let step = Step::new(1, 1).unwrap();
    let clipped = problem("hartmann-mixture-ctx");
    let raw = build(
        "hartmann-mixture-ctx",
        &[("report_raw_context", "true".into())],
    )
    .unwrap();
    let x = [0.2, 0.2, 0.5, 0.3, 0.3];
    let (mut a, mut b) = (common::rng(1), common::rng(1));
    let mut outside = 0;
    for _ in 0..2000 {
        let oa = clipped.evaluate(&x, &step, &mut a).unwrap();
        let ob = raw.evaluate(&x, &step, &mut b).unwrap();
        let (ca, cb) = (oa.context.unwrap()[0], ob.context.unwrap()[0]);
        assert!((0.0..=1.0).contains(&ca));
        assert_eq!(ca, cb.clamp(0.0, 1.0));
        assert_eq!(oa.y, ob.y);
        outside += usize::from(!(0.0..=1.0).contains(&cb));
    }
    // The Cauchy components put a few draws outside [0, 1].
    assert!(outside > 0);
}

/// T10: the factorised Modified Branin expectation equals the tensor-product expectation over
/// both context coordinates with the same rules.
#[test]
fn branin_factorisation_identity() {
    use bosweep::problems::contextual::{ContextLaw, Marginal, tensor_expect};
    let law = ContextLaw::iid(
        Marginal::Normal {
            mean: 0.5,
            std: 0.1,
        },
        2,
    );
    for x in [[0.19555, 0.17884], [0.7, 0.3], [0.05, 0.95]] {
        let factorised = Objective::ModifiedBranin.expected(&x, &law);
        let tensor = tensor_expect(&[law.fine(0), law.fine(1)], |c| {
            Objective::ModifiedBranin.value(&x, c)
        });
        assert!(
            (factorised - tensor).abs() < 1e-6,
            "{factorised} vs {tensor}"
        );
    }
}

// ---- DRBO-MMD's inner program and the portfolio stand-in ----

use bosweep::algorithms::contextual::{MmdProgram, Solve, screened_top_k};
use nalgebra::DMatrix;

/// Matérn-5/2 Gram matrix of `points` (1-D) with lengthscale `ls` and variance `var`.
fn matern_gram(points: &[f64], ls: f64, var: f64) -> DMatrix<f64> {
    DMatrix::from_fn(points.len(), points.len(), |a, b| {
        let r = 5f64.sqrt() * (points[a] - points[b]).abs() / ls;
        var * (1.0 + r + r * r / 3.0) * (-r).exp()
    })
}

/// A random distribution on `n` atoms with a few empty ones (like snapped observed contexts).
fn random_reference(rng: &mut rand_chacha::ChaCha8Rng, n: usize) -> Vec<f64> {
    let raw: Vec<f64> = (0..n)
        .map(|_| {
            if rng.random::<f64>() < 0.3 {
                0.0
            } else {
                rng.random::<f64>()
            }
        })
        .collect();
    let raw = if raw.iter().sum::<f64>() == 0.0 {
        vec![1.0; n]
    } else {
        raw
    };
    let total: f64 = raw.iter().sum();
    raw.iter().map(|v| v / total).collect()
}

/// DRBO-MMD's inner program on two atoms has a closed form: w = (1 − s, s) with
/// |s − ŵ₂| ≤ ε/√(k₁₁ + k₂₂ − 2k₁₂), s ∈ [0, 1], and a linear objective, so the minimum sits at
/// an end of that interval.
#[test]
fn mmd_program_matches_the_two_atom_closed_form() {
    let mut rng = common::rng(11);
    for _ in 0..200 {
        let pts = [rng.random::<f64>(), rng.random::<f64>()];
        let kernel = matern_gram(&pts, 0.05 + rng.random::<f64>(), 0.5 + rng.random::<f64>());
        let p = rng.random::<f64>();
        let radius = 1.5 * rng.random::<f64>();
        let g = [
            4.0 * rng.random::<f64>() - 2.0,
            4.0 * rng.random::<f64>() - 2.0,
        ];
        let program = MmdProgram::new(&kernel, vec![1.0 - p, p], radius).unwrap();
        let spread = (kernel[(0, 0)] + kernel[(1, 1)] - 2.0 * kernel[(0, 1)]).sqrt();
        let half = radius / spread;
        let ends = [(p - half).max(0.0), (p + half).min(1.0)];
        let exact = ends
            .iter()
            .map(|s| g[0] * (1.0 - s) + g[1] * s)
            .fold(f64::INFINITY, f64::min);
        let got = program.solve(&g).unwrap();
        assert!(
            (got.value - exact).abs() < 1e-7 * (1.0 + g[0].abs().max(g[1].abs())),
            "radius {radius} p {p} g {g:?}: {} vs {exact} ({:?})",
            got.value,
            got.solve
        );
    }
}

/// DRBO-MMD's inner program on three atoms against brute force over a fine triangular grid of
/// the simplex (every feasible grid point bounds the minimum from above; the grid's resolution
/// bounds it from below).
#[test]
fn mmd_program_matches_brute_force_on_three_atoms() {
    let mut rng = common::rng(12);
    let steps = 600;
    for case in 0..12 {
        let pts = [0.0, 0.5, 1.0];
        let kernel = matern_gram(&pts, 0.2 + 0.6 * rng.random::<f64>(), 1.0);
        let reference = random_reference(&mut rng, 3);
        let radius = 0.05 + 0.6 * rng.random::<f64>();
        let g: Vec<f64> = (0..3).map(|_| 4.0 * rng.random::<f64>() - 2.0).collect();
        let program = MmdProgram::new(&kernel, reference.clone(), radius).unwrap();
        let got = program.solve(&g).unwrap();
        let mut brute = f64::INFINITY;
        for i in 0..=steps {
            for j in 0..=steps - i {
                let w = [
                    i as f64 / steps as f64,
                    j as f64 / steps as f64,
                    (steps - i - j) as f64 / steps as f64,
                ];
                let d: Vec<f64> = (0..3).map(|k| w[k] - reference[k]).collect();
                let quad: f64 = (0..3)
                    .map(|a| (0..3).map(|b| d[a] * kernel[(a, b)] * d[b]).sum::<f64>())
                    .sum();
                if quad <= radius * radius {
                    brute = brute.min((0..3).map(|k| w[k] * g[k]).sum());
                }
            }
        }
        assert!(
            got.value <= brute + 1e-8,
            "case {case}: {} above a feasible {brute}",
            got.value
        );
        assert!(
            got.value >= brute - 2e-2,
            "case {case}: {} far below the grid's {brute}",
            got.value
        );
        // The returned distribution is feasible and attains the value.
        let w = &got.weights;
        assert!(w.iter().all(|v| *v >= 0.0) && (w.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let d: Vec<f64> = (0..3).map(|k| w[k] - reference[k]).collect();
        let quad: f64 = (0..3)
            .map(|a| (0..3).map(|b| d[a] * kernel[(a, b)] * d[b]).sum::<f64>())
            .sum();
        assert!(
            quad <= radius * radius + 1e-7,
            "{quad} vs {}",
            radius * radius
        );
        let attained: f64 = (0..3).map(|k| w[k] * g[k]).sum();
        assert!((attained - got.value).abs() < 1e-9);
    }
}

/// The limits and properties of the worst case: ε = 0 gives `ŵᵀg`, a large ε gives `min g`, the
/// value is non-increasing in ε, lies between its bounds, and is positive-affine equivariant.
#[test]
fn mmd_program_limits_and_properties() {
    let mut rng = common::rng(13);
    let grid: Vec<f64> = (0..25).map(|i| i as f64 / 24.0).collect();
    for _ in 0..5 {
        let kernel = matern_gram(&grid, 0.1 + 0.4 * rng.random::<f64>(), 1.0);
        let reference = random_reference(&mut rng, grid.len());
        let g: Vec<f64> = grid
            .iter()
            .map(|c| (7.0 * c).sin() + rng.random::<f64>())
            .collect();
        let expectation: f64 = reference.iter().zip(&g).map(|(w, v)| w * v).sum();
        let minimum = g.iter().copied().fold(f64::INFINITY, f64::min);
        let at = |radius: f64, g: &[f64]| {
            MmdProgram::new(&kernel, reference.clone(), radius)
                .unwrap()
                .solve(g)
                .unwrap()
        };
        assert!((at(0.0, &g).value - expectation).abs() < 1e-12);
        let far = at(10.0, &g);
        assert_eq!(far.value, minimum);
        assert_eq!(far.solve, Solve::Bounds);
        let mut previous = expectation;
        for radius in [0.01, 0.05, 0.1, 0.2, 0.4, 0.8] {
            let program = MmdProgram::new(&kernel, reference.clone(), radius).unwrap();
            let (lower, upper, _) = program.bounds(&g);
            let v = program.solve(&g).unwrap().value;
            assert!(
                v <= previous + 1e-8,
                "radius {radius}: {v} after {previous}"
            );
            assert!(lower <= v && v <= upper, "{lower} ≤ {v} ≤ {upper}");
            let shifted: Vec<f64> = g.iter().map(|v| 2.5 * v - 1.0).collect();
            let w = program.solve(&shifted).unwrap().value;
            assert!(
                (w - (2.5 * v - 1.0)).abs() < 1e-7,
                "{w} vs {}",
                2.5 * v - 1.0
            );
            previous = v;
        }
    }
}

/// The bound-screened top-k returns the same candidates and values as solving every program.
#[test]
fn screened_top_k_equals_solving_everything() {
    let mut rng = common::rng(14);
    let grid: Vec<f64> = (0..16).map(|i| i as f64 / 15.0).collect();
    let kernel = matern_gram(&grid, 0.3, 1.0);
    for radius in [0.05, 0.3, 1.0] {
        let program = MmdProgram::new(&kernel, random_reference(&mut rng, 16), radius).unwrap();
        let rows: Vec<f64> = (0..40 * 16).map(|_| rng.random::<f64>()).collect();
        let mut all: Vec<(usize, f64)> = rows
            .chunks(16)
            .enumerate()
            .map(|(i, g)| (i, program.solve(g).unwrap().value))
            .collect();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for k in [1, 5] {
            let (top, solves) = screened_top_k(&program, &rows, k).unwrap();
            assert_eq!(top, all[..k].to_vec(), "radius {radius}, k {k}");
            assert!(solves <= 40);
        }
    }
}

/// DRBO-MMD end to end on the newsvendor: a short run with small settings, its MMD radius
/// schedule in the trace, decisions in the box, and the same trace for the same seed.
#[test]
fn drbo_mmd_runs_on_the_newsvendor() {
    let run = |seed| {
        let params: Vec<(&str, ParamValue)> = vec![
            ("raw_samples", 16.0.into()),
            ("restarts", 2.0.into()),
            ("max_iters", 15.0.into()),
            ("grid_size", 25.0.into()),
        ];
        cpu_run("drbo-mmd", &params, "newsvendor", 14, 10, seed).1
    };
    let lines = run(100);
    for (n, line) in (10..14).zip(&lines[11..]) {
        let radius = line["extra"]["mmd_radius"].as_f64().unwrap();
        let expected = bosweep::algorithms::contextual::mmd_radius(n);
        assert!((radius - expected).abs() < 1e-12, "{radius} vs {expected}");
        let x = line["x"][0].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&x));
        assert!(line["extra"]["acquisition"].as_f64().unwrap().is_finite());
    }
    assert_eq!(
        common::without_timings(&lines),
        common::without_timings(&run(100))
    );
}

fn portfolio(law: &str) -> Box<dyn Problem> {
    build("portfolio", &[("context_law", law.into())]).unwrap()
}

/// The portfolio stand-in's expectation (tensor Gauss–Legendre) agrees with plain Monte Carlo
/// over the environment's own context draws, and with a 4× finer rule to 1e-4.
#[test]
fn portfolio_expectation_matches_monte_carlo_and_a_finer_rule() {
    use bosweep::problems::contextual::{
        ContextLaw, Marginal, PORTFOLIO_RULE, clip_unit, portfolio_value,
    };
    for (name, law) in [
        (
            "uniform",
            ContextLaw::iid(Marginal::Uniform { lo: 0.0, hi: 1.0 }, 2),
        ),
        (
            "normal",
            ContextLaw::iid(
                Marginal::Normal {
                    mean: 0.5,
                    std: 0.1,
                },
                2,
            ),
        ),
    ] {
        let p = portfolio(name);
        let coarse = Objective::portfolio(&law, PORTFOLIO_RULE);
        let fine = Objective::portfolio(&law, (256, 4));
        let mut rng = common::rng(15);
        for x in [[0.2, 0.5, 0.5], [0.45, 0.7, 0.3], [0.9, 0.1, 0.0]] {
            let quadrature = f(&*p, &x);
            assert_eq!(quadrature, coarse.expected(&x, &law));
            assert!(
                (quadrature - fine.expected(&x, &law)).abs() < 1e-4,
                "{name} {x:?}"
            );
            let draws = 40_000;
            let values: Vec<f64> = (0..draws)
                .map(|_| portfolio_value(&x, &clip_unit(&law.sample(&mut rng))))
                .collect();
            let mean = values.iter().sum::<f64>() / draws as f64;
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (draws - 1) as f64;
            let se = (var / draws as f64).sqrt();
            assert!(
                (mean - quadrature).abs() < 4.0 * se + 1e-9,
                "{name} {x:?}: MC {mean} ± {se} vs {quadrature}"
            );
        }
    }
}

/// The stored portfolio optima: F there is the problem's optimum value, and beats a 5³ grid and
/// the neighbouring points at ±0.01 per coordinate.
#[test]
fn portfolio_optima_beat_a_grid_and_their_neighbours() {
    for law in ["uniform", "normal"] {
        let p = portfolio(law);
        let opt = p.optimum(1).unwrap();
        let x = &opt.locations[0];
        assert_eq!(opt.value, f(&*p, x));
        for i in 0..5 {
            for j in 0..5 {
                for k in 0..5 {
                    let y = [i as f64 / 4.0, j as f64 / 4.0, k as f64 / 4.0];
                    assert!(f(&*p, &y) <= opt.value, "{law}: {y:?}");
                }
            }
        }
        for d in 0..3 {
            for step in [-0.01, 0.01] {
                let mut y = x.clone();
                y[d] = (y[d] + step).clamp(0.0, 1.0);
                assert!(f(&*p, &y) <= opt.value + 1e-12, "{law}: {y:?}");
            }
        }
    }
}

/// The portfolio environment: contexts in [0, 1]², observations are f at the reported context,
/// the best policy depends on the context, and a bad law is a configuration error.
#[test]
fn portfolio_environment_and_context_dependence() {
    use bosweep::problems::Step;
    use bosweep::problems::contextual::portfolio_value;
    let p = portfolio("normal");
    let step = Step::new(1, 1).unwrap();
    let mut rng = common::rng(16);
    let x = [0.4, 0.6, 0.5];
    for _ in 0..200 {
        let o = p.evaluate(&x, &step, &mut rng).unwrap();
        let c = o.context.unwrap();
        assert!(c.len() == 2 && c.iter().all(|v| (0.0..=1.0).contains(v)));
        assert_eq!(o.y, portfolio_value(&x, &c));
    }
    let best_for = |c: [f64; 2]| {
        let mut best = (f64::NEG_INFINITY, [0.0; 3]);
        for i in 0..=10 {
            for j in 0..=10 {
                for k in 0..=10 {
                    let y = [i as f64 / 10.0, j as f64 / 10.0, k as f64 / 10.0];
                    let v = portfolio_value(&y, &c);
                    if v > best.0 {
                        best = (v, y);
                    }
                }
            }
        }
        best.1
    };
    assert_ne!(best_for([0.0, 0.0]), best_for([1.0, 1.0]));
    assert!(build("portfolio", &[("context_law", "cauchy".into())]).is_err());
}

/// A GP over (2 decision, `dc` context) columns fitted to a smooth function of random points,
/// with distinct ARD lengthscales so that every term of the gradient matters.
fn joint_gp(kind: bosweep::model::KernelKind, dc: usize, seed: u64) -> bosweep::model::GpState {
    use bosweep::model::{GpSpec, GpState, Kernel, Noise};
    let mut rng = common::rng(seed);
    let x = common::uniform_points(&mut rng, 14, 2 + dc, 0.0, 1.0);
    let y: Vec<f64> = x
        .iter()
        .map(|r| (3.0 * r[0]).sin() + r[1] * r.iter().skip(2).sum::<f64>())
        .collect();
    let lengthscales = (0..2 + dc).map(|d| 0.25 + 0.1 * d as f64).collect();
    let kernel = Kernel::new(kind, lengthscales, 1.3).unwrap();
    GpState::fit(
        x,
        &y,
        GpSpec::new(kernel, Noise::Homoscedastic(0.01)).mean(0.2),
    )
    .unwrap()
}

/// The four reductions of the contextual methods on `gp` (M = 64 samples, 32 infimum points).
fn reductions(dc: usize, gp: &bosweep::model::GpState) -> Vec<(&'static str, Reduction)> {
    use bosweep::algorithms::contextual::{MmdBall, context_grid};
    let mut rng = common::rng(11);
    let samples = common::uniform_points(&mut rng, 64, dc, 0.0, 1.0);
    let infimum_points = common::uniform_points(&mut rng, 32, dc, 0.0, 1.0);
    let observed = common::uniform_points(&mut rng, 9, dc, 0.0, 1.0);
    let ball = MmdBall::new(
        &CpuEngine::new(),
        gp,
        2,
        context_grid(25, dc).unwrap(),
        &observed,
        0.3,
    )
    .unwrap();
    vec![
        (
            "mean",
            Reduction::Mean {
                samples: samples.clone(),
            },
        ),
        (
            "worst-case tv",
            Reduction::WorstCaseTv {
                samples: samples.clone(),
                infimum_points: infimum_points.clone(),
                delta: 0.37,
            },
        ),
        (
            "worst-case tv, floor binds",
            Reduction::WorstCaseTv {
                samples,
                infimum_points,
                delta: 2.5,
            },
        ),
        (
            "min",
            Reduction::Min {
                points: common::uniform_points(&mut rng, 48, dc, 0.0, 1.0),
            },
        ),
        ("minimax", Reduction::Minimax { ball }),
    ]
}

/// The analytic gradient of every contextual acquisition agrees with central finite
/// differences of its value, and the differentiable (CPU refinement) value is the engine's.
#[test]
fn acquisition_gradients_match_finite_differences() {
    use bosweep::model::KernelKind;
    for (kind, dc) in [
        (KernelKind::Matern52, 1),
        (KernelKind::SquaredExponential, 2),
        (KernelKind::Matern32, 1),
    ] {
        let gp = joint_gp(kind, dc, 5);
        for (name, reduction) in reductions(dc, &gp) {
            let acquisition = PairAcquisition {
                gp: &gp,
                kappa: 1.5,
                reduction: &reduction,
            };
            let differentiable = acquisition.differentiable().unwrap();
            let mut rng = common::rng(21);
            let points = common::uniform_points(&mut rng, 6, 2, 0.05, 0.95);
            let engine_values = acquisition.evaluate(&CpuEngine::new(), &points).unwrap();
            let mut scratch = bosweep::compute::PairScratch::default();
            for (x, engine_value) in points.iter().zip(engine_values) {
                let (value, gradient) = differentiable.value_gradient(x, &mut scratch);
                assert!(
                    (value - engine_value).abs() < 1e-10 * (1.0 + value.abs()),
                    "{kind:?} {name}: value {value} vs engine {engine_value}"
                );
                let h = 1e-6;
                for d in 0..2 {
                    let mut up = x.to_vec();
                    let mut down = x.to_vec();
                    up[d] += h;
                    down[d] -= h;
                    let fd = (differentiable.value_gradient(&up, &mut scratch).0
                        - differentiable.value_gradient(&down, &mut scratch).0)
                        / (2.0 * h);
                    assert!(
                        (gradient[d] - fd).abs() < 1e-5 * (1.0 + fd.abs()),
                        "{kind:?} {name} at {x:?}, d = {d}: analytic {} vs finite difference {fd}",
                        gradient[d]
                    );
                }
            }
        }
    }
}

/// The minimax approximation's O(1) `ε*` (through `K_c ŵ`) equals the quadratic form over the
/// grid, and its weights are the derivative of its value.
#[test]
fn minimax_epsilon_and_weights() {
    use bosweep::algorithms::contextual::MmdBall;
    use nalgebra::DMatrix;
    let mut rng = common::rng(3);
    let grid = common::uniform_points(&mut rng, 7, 1, 0.0, 1.0);
    let kernel = DMatrix::from_fn(7, 7, |a, b| {
        (-(grid.row(a)[0] - grid.row(b)[0]).powi(2) / 0.1).exp()
    });
    let reference = vec![0.0, 0.25, 0.0, 0.5, 0.25, 0.0, 0.0];
    let g = common::uniform_values(&mut rng, 7, -1.0, 1.0);
    let j = (0..7).fold(0, |b, i| if g[i] < g[b] { i } else { b });
    let diff: Vec<f64> = (0..7)
        .map(|i| f64::from(u8::from(i == j)) - reference[i])
        .collect();
    let quad: f64 = (0..7)
        .map(|a| {
            (0..7)
                .map(|b| diff[a] * kernel[(a, b)] * diff[b])
                .sum::<f64>()
        })
        .sum();
    let epsilon = quad.sqrt();
    let ball = MmdBall::from_parts(grid, reference.clone(), kernel, 0.5 * epsilon);
    let expectation: f64 = reference.iter().zip(&g).map(|(w, v)| w * v).sum();
    let tau = (g[j] - expectation) / epsilon;
    let (value, weights) = ball.minimax_with_weights(&g);
    assert!((value - (expectation + 0.5 * epsilon * tau + g[j]) / 2.0).abs() < 1e-14);
    for i in 0..7 {
        let mut up = g.clone();
        up[i] += 1e-7;
        let fd = (ball.minimax(&up) - value) / 1e-7;
        assert!(
            (fd - weights[i]).abs() < 1e-6,
            "{i}: {fd} vs {}",
            weights[i]
        );
    }
}

/// T15 (Appendix E, Table 2): the L1 distance between the Silverman KDE of 300 draws and the true
/// law, over 20 runs, is near the means of our 400-run re-simulation (0.0925 normal, 0.471 unclipped mixture),
/// within about three 20-run standard errors (0.007 and 0.026); the error shrinks with n for the
/// normal law and stays large for the mixture.
#[test]
fn t15_kde_l1_error_reproduces_table_2() {
    use bosweep::compute::CpuEngine;
    use bosweep::model::BandwidthRule;
    use bosweep::problems::contextual::{TableLaw, kde_error_table};

    let engine = CpuEngine::new();
    let table =
        |law| kde_error_table(&engine, law, &[10, 300], 20, BandwidthRule::Silverman, 7).unwrap();
    let normal = table(TableLaw::Normal);
    let mixture = table(TableLaw::Mixture);
    assert!((normal[1].mean - 0.093).abs() < 0.02, "{normal:?}");
    assert!((mixture[1].mean - 0.47).abs() < 0.08, "{mixture:?}");
    assert!(normal[0].mean > 2.0 * normal[1].mean, "{normal:?}");
    assert!(mixture[1].mean > 3.0 * normal[1].mean, "{mixture:?}");
    for row in normal.iter().chain(&mixture) {
        assert_eq!(row.runs, 20);
        assert!(
            row.standard_error > 0.0 && row.standard_error < 0.05,
            "{row:?}"
        );
    }
}
