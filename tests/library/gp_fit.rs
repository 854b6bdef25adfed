//! GP hyperparameter fitting: log marginal likelihood and its gradient, priors, ML-II/MAP fits,
//! O(n²) appends and the data transforms of `GpModel`.

use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{
    AppendOutcome, Bounds, FitMode, FitOptions, GpSpec, GpState, Kernel, KernelKind, MeanSpec,
    Noise, NoiseSpec, Prior, PriorSpace, Priors, WarmStart, fit_gp, likelihood,
    log_marginal_likelihood,
};
use bosweep::surrogate::{GpModel, InputTransform, ModelOptions, OutputTransform, PreviousFit};
use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const KINDS: [KernelKind; 5] = [
    KernelKind::SquaredExponential,
    KernelKind::Matern12,
    KernelKind::Matern32,
    KernelKind::Matern52,
    KernelKind::RationalQuadratic { alpha: 1.7 },
];

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn uniform_points(rng: &mut ChaCha8Rng, rows: usize, dim: usize) -> Points {
    Points::new((0..rows * dim).map(|_| rng.random::<f64>()).collect(), dim).unwrap()
}

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    // Box–Muller.
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A fitting test's data: `n` uniform points of the unit cube of dimension `dim`, then a draw at
/// them of a GP with kernel `truth`, noise variance `noise` and mean `mean`.
fn sampled(
    rng: &mut ChaCha8Rng,
    (n, dim): (usize, usize),
    truth: &Kernel,
    (noise, mean): (f64, f64),
) -> (Points, Vec<f64>) {
    let x = uniform_points(rng, n, dim);
    let y = sample_gp(rng, &x, truth, noise, mean);
    (x, y)
}

/// A draw of `y = f(x) + ε` from `GP(mean, kernel) + N(0, noise)`, by Cholesky of the covariance.
fn sample_gp(rng: &mut ChaCha8Rng, x: &Points, kernel: &Kernel, noise: f64, mean: f64) -> Vec<f64> {
    let n = x.rows();
    let mut cov = DMatrix::from_fn(n, n, |i, j| kernel.eval(x.row(i), x.row(j)));
    for i in 0..n {
        cov[(i, i)] += noise + 1e-10;
    }
    let l = cov.cholesky().expect("true covariance is PD").unpack();
    let z = nalgebra::DVector::from_iterator(n, (0..n).map(|_| normal(rng)));
    (l * z).iter().map(|v| v + mean).collect()
}

fn assert_finite_fit(r: &bosweep::model::FitResult) {
    assert!(r.log_marginal_likelihood.is_finite(), "{r:?}");
    assert!(r.log_posterior.is_finite());
    assert!(r.mean.is_finite());
    assert!(
        r.kernel
            .lengthscales()
            .iter()
            .all(|l| l.is_finite() && *l > 0.0)
    );
    assert!(r.kernel.signal_variance().is_finite());
    match &r.noise {
        Noise::Homoscedastic(v) => assert!(v.is_finite()),
        Noise::PerPoint(v) => assert!(v.iter().all(|s| s.is_finite())),
    }
    assert!(r.state.alpha().iter().all(|a| a.is_finite()));
    assert!(r.state.linv().iter().all(|a| a.is_finite()));
}

// ---------------------------------------------------------------------------------------------
// Log marginal likelihood

#[test]
fn lml_one_point_by_hand() {
    let x = Points::from_rows(&[[0.4]]).unwrap();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.7], 2.0).unwrap();
    let (y, m, s2, noise) = (1.3, 0.3, 2.0, 0.5);
    let lml =
        log_marginal_likelihood(&x, &[y], &kernel, &Noise::Homoscedastic(noise), m, 1.0).unwrap();
    let a: f64 = s2 + noise;
    let expect = -0.5 * (y - m) * (y - m) / a - 0.5 * a.ln() - 0.5 * (std::f64::consts::TAU).ln();
    assert!(
        (lml.value - expect).abs() < 1e-14,
        "{} vs {expect}",
        lml.value
    );
    // d/d ln s² = ½ (r²/a² − 1/a) s²; d/dm = r/a; lengthscale gradient 0 with one point.
    let r = y - m;
    let g = 0.5 * (r * r / (a * a) - 1.0 / a);
    assert!((lml.gradient.log_signal_variance - g * s2).abs() < 1e-14);
    assert!((lml.gradient.log_noise_variance - g * noise).abs() < 1e-14);
    assert!((lml.gradient.mean - r / a).abs() < 1e-14);
    assert_eq!(lml.gradient.log_lengthscales, vec![0.0]);
}

#[test]
fn lml_two_points_by_hand() {
    // SE kernel, ℓ = 0.5, s² = 1.5, points 0 and 0.5 ⇒ k12 = 1.5 e^{−1/2}; λ = 2, σ² = 0.1.
    let x = Points::from_rows(&[[0.0], [0.5]]).unwrap();
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.5], 1.5).unwrap();
    let y = [1.0, -0.5];
    let (m, lambda, noise) = (0.2, 2.0, 0.1);
    let lml =
        log_marginal_likelihood(&x, &y, &kernel, &Noise::Homoscedastic(noise), m, lambda).unwrap();
    let d = 1.5 + lambda * noise;
    let k = 1.5 * (-0.5f64).exp();
    let det = d * d - k * k;
    let (r1, r2) = (y[0] - m, y[1] - m);
    let quad = (d * r1 * r1 - 2.0 * k * r1 * r2 + d * r2 * r2) / det;
    let expect = -0.5 * quad - 0.5 * det.ln() - (std::f64::consts::TAU).ln();
    assert!(
        (lml.value - expect).abs() < 1e-14,
        "{} vs {expect}",
        lml.value
    );
    // The state's O(n) value from its stored factor agrees.
    let state = GpState::fit(
        x,
        &y,
        GpSpec::new(kernel, Noise::Homoscedastic(noise))
            .mean(m)
            .lambda(lambda),
    )
    .unwrap();
    assert!((state.log_marginal_likelihood() - expect).abs() < 1e-13);
}

/// A data set and model family for the gradient check.
struct Case<'a> {
    x: &'a Points,
    y: &'a [f64],
    kind: KernelKind,
    decay: Option<f64>,
    noise: &'a Noise,
}

impl Case<'_> {
    /// The LML as a function of the log-parameters (and of a log factor on every noise
    /// variance), for finite differences.
    fn lml(
        &self,
        log_ls: &[f64],
        log_s2: f64,
        log_noise_factor: f64,
        mean: f64,
    ) -> bosweep::model::LogMarginalLikelihood {
        let mut kernel = Kernel::new(
            self.kind,
            log_ls.iter().map(|v| v.exp()).collect(),
            log_s2.exp(),
        )
        .unwrap();
        if let Some(eps) = self.decay {
            kernel = kernel.with_time_decay(eps).unwrap();
        }
        let c = log_noise_factor.exp();
        let noise = match self.noise {
            Noise::Homoscedastic(v) => Noise::Homoscedastic(v * c),
            Noise::PerPoint(v) => Noise::PerPoint(v.iter().map(|s| s * c).collect()),
        };
        log_marginal_likelihood(self.x, self.y, &kernel, &noise, mean, 1.3).unwrap()
    }
}

#[test]
fn lml_gradient_matches_central_differences_for_every_kernel() {
    let mut r = rng(11);
    let n = 12;
    let mut worst = 0.0f64;
    for (case, (decay, per_point)) in [(None, false), (None, true), (Some(0.2), false)]
        .into_iter()
        .enumerate()
    {
        let spatial = 3;
        let cols = spatial + usize::from(decay.is_some());
        let mut data: Vec<f64> = (0..n * cols).map(|_| r.random::<f64>()).collect();
        if decay.is_some() {
            for i in 0..n {
                data[i * cols + spatial] = (i / 3) as f64; // time steps 0..3
            }
        }
        // A duplicated point exercises r = 0 (Matérn ½'s slope diverges there).
        let (a, b) = data.split_at_mut(cols);
        b[..cols].copy_from_slice(a);
        let x = Points::new(data, cols).unwrap();
        let y: Vec<f64> = (0..n).map(|_| 2.0 * r.random::<f64>() - 1.0).collect();
        let noise = if per_point {
            Noise::PerPoint((0..n).map(|_| 0.02 + 0.1 * r.random::<f64>()).collect())
        } else {
            Noise::Homoscedastic(0.05)
        };
        let log_ls: Vec<f64> = [0.3, 0.8, 1.9][..spatial]
            .iter()
            .map(|v: &f64| v.ln())
            .collect();
        let log_s2 = 1.4f64.ln();
        let mean = 0.15;
        for kind in KINDS {
            let case_data = Case {
                x: &x,
                y: &y,
                kind,
                decay,
                noise: &noise,
            };
            let at = |ls: &[f64], s2: f64, nf: f64, m: f64| case_data.lml(ls, s2, nf, m);
            let base = at(&log_ls, log_s2, 0.0, mean);
            let h = 1e-5;
            let mut check = |analytic: f64, plus: f64, minus: f64, what: &str| {
                let fd = (plus - minus) / (2.0 * h);
                let rel = (analytic - fd).abs() / fd.abs().max(1e-3);
                worst = worst.max(rel);
                assert!(
                    rel < 1e-5,
                    "case {case} {kind:?} {what}: analytic {analytic}, finite difference {fd}"
                );
            };
            for d in 0..spatial {
                let mut p = log_ls.clone();
                p[d] += h;
                let mut q = log_ls.clone();
                q[d] -= h;
                check(
                    base.gradient.log_lengthscales[d],
                    at(&p, log_s2, 0.0, mean).value,
                    at(&q, log_s2, 0.0, mean).value,
                    &format!("ln ℓ_{d}"),
                );
            }
            check(
                base.gradient.log_signal_variance,
                at(&log_ls, log_s2 + h, 0.0, mean).value,
                at(&log_ls, log_s2 - h, 0.0, mean).value,
                "ln s²",
            );
            check(
                base.gradient.log_noise_variance,
                at(&log_ls, log_s2, h, mean).value,
                at(&log_ls, log_s2, -h, mean).value,
                "ln σ²",
            );
            check(
                base.gradient.mean,
                at(&log_ls, log_s2, 0.0, mean + h).value,
                at(&log_ls, log_s2, 0.0, mean - h).value,
                "m",
            );
        }
    }
    eprintln!("worst relative gradient error: {worst:.2e}");
}

#[test]
fn prior_gradients_match_central_differences() {
    let priors = [
        Prior::gamma(3.0, 6.0).unwrap(),
        Prior::gamma(1e-3, 10.0).unwrap(),
        Prior::log_normal(-0.4, 0.7).unwrap(),
    ];
    for p in priors {
        for space in [PriorSpace::LogParameter, PriorSpace::Parameter] {
            for phi in [-3.0, -0.5, 0.0, 1.2] {
                let h = 1e-6;
                let (_, g) = p.log_density_log_space(phi, space);
                let fd = (p.log_density_log_space(phi + h, space).0
                    - p.log_density_log_space(phi - h, space).0)
                    / (2.0 * h);
                assert!(
                    (g - fd).abs() < 1e-6 * fd.abs().max(1.0),
                    "{p:?} {space:?} {phi}"
                );
            }
            // Jacobian: the log-space density differs from the parameter density by φ.
            let phi = 0.3f64;
            let with = p.log_density_log_space(phi, PriorSpace::LogParameter).0;
            let without = p.log_density_log_space(phi, PriorSpace::Parameter).0;
            assert!((with - without - phi).abs() < 1e-12);
            assert!((without - p.log_density(phi.exp())).abs() < 1e-12);
        }
    }
    // Modes: Gamma(a, b) in log space a/b; in parameter space (a − 1)/b.
    let g = Prior::gamma(1.1, 0.05).unwrap();
    assert!((g.mode(PriorSpace::Parameter).unwrap() - 2.0).abs() < 1e-12);
    assert!((g.mode(PriorSpace::LogParameter).unwrap() - 22.0).abs() < 1e-12);
}

// ---------------------------------------------------------------------------------------------
// Fitting

fn mle_options(seed: u64) -> FitOptions {
    FitOptions {
        seed,
        ..FitOptions::default()
    }
}

#[test]
fn mle_recovers_the_lengthscale_of_a_known_gp() {
    for (dim, kind, seed) in [
        (1, KernelKind::SquaredExponential, 1u64),
        (1, KernelKind::Matern52, 2),
        (2, KernelKind::Matern52, 3),
        (2, KernelKind::SquaredExponential, 4),
    ] {
        // Inputs in [0, 3]^d: ten lengthscales per side. On [0, 1]^d (3 lengthscales) the ML-II
        // lengthscale itself varies by 10–50% between draws (only s²/ℓ^{2ν} is well identified
        // on a fixed domain), so a 20% check would test the draw, not the fit.
        let mut r = rng(seed);
        let x = uniform_points(&mut r, 200, dim);
        let x = Points::new(x.as_slice().iter().map(|v| 3.0 * v).collect(), dim).unwrap();
        let truth = Kernel::new(kind, vec![0.3; dim], 1.0).unwrap();
        let y = sample_gp(&mut r, &x, &truth, 1e-2, 0.5);
        let start = Kernel::new(kind, vec![1.0; dim], 1.0).unwrap();
        let t = std::time::Instant::now();
        let fit = fit_gp(x, &y, start, &mle_options(seed)).unwrap();
        assert_finite_fit(&fit);
        let ls = fit.kernel.lengthscales();
        eprintln!(
            "d={dim} {kind:?}: ℓ = {ls:?}, s² = {:.3}, σ² = {:?}, m = {:.3}, lml = {:.3}, \
             {} starts, {} evaluations, {:.0} ms",
            fit.kernel.signal_variance(),
            fit.noise,
            fit.mean,
            fit.log_marginal_likelihood,
            fit.starts,
            fit.evaluations,
            t.elapsed().as_secs_f64() * 1e3
        );
        let at_truth = log_marginal_likelihood(
            fit.state.train(),
            &y,
            &truth,
            &Noise::Homoscedastic(1e-2),
            0.5,
            1.0,
        )
        .unwrap()
        .value;
        eprintln!("lml at truth {at_truth}");
        for l in ls {
            assert!(
                (l / 0.3 - 1.0).abs() < 0.2,
                "d={dim} {kind:?}: fitted ℓ = {l}"
            );
        }
        let Noise::Homoscedastic(s) = fit.noise else {
            panic!()
        };
        assert!(s > 2e-3 && s < 5e-2, "noise {s}");
        let at_fit = log_marginal_likelihood(
            fit.state.train(),
            &y,
            &fit.kernel,
            &fit.noise,
            fit.mean,
            1.0,
        )
        .unwrap();
        // The fitted point is a stationary point of the likelihood (interior optimum).
        let g = at_fit.gradient;
        assert!(g.log_lengthscales.iter().all(|v| v.abs() < 1e-3), "{g:?}");
        // The reported likelihood is the one of the returned hyperparameters.
        let v = at_fit.value;
        assert!((v - fit.log_marginal_likelihood).abs() < 1e-9 * v.abs().max(1.0));
    }
}

#[test]
fn fits_are_deterministic_for_a_seed() {
    let mut r = rng(5);
    let truth = Kernel::new(KernelKind::Matern32, vec![0.4, 0.2], 1.0).unwrap();
    let (x, y) = sampled(&mut r, (40, 2), &truth, (1e-3, 0.0));
    let start = Kernel::new(KernelKind::Matern32, vec![1.0, 1.0], 1.0).unwrap();
    let a = fit_gp(x.clone(), &y, start.clone(), &mle_options(9)).unwrap();
    let b = fit_gp(x, &y, start, &mle_options(9)).unwrap();
    assert_eq!(a.kernel, b.kernel);
    assert_eq!(a.noise, b.noise);
    assert_eq!(a.mean.to_bits(), b.mean.to_bits());
    assert_eq!(
        a.log_marginal_likelihood.to_bits(),
        b.log_marginal_likelihood.to_bits()
    );
}

/// The blocked factorisation and the column-parallel kernel fill and gradient sweep (n = 260 is
/// past the size where they fan out) give the same bits on 1, 2 and 3 threads.
#[test]
fn likelihood_and_fits_do_not_depend_on_the_thread_count() {
    let mut r = rng(12);
    let truth = Kernel::new(KernelKind::Matern52, vec![0.3, 0.5, 0.8], 1.0).unwrap();
    let (x, y) = sampled(&mut r, (260, 3), &truth, (1e-2, 0.3));
    let start = Kernel::new(KernelKind::Matern52, vec![0.2; 3], 1.0).unwrap();
    let in_pool = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let lml =
                likelihood::evaluate(&x, &y, &truth, &Noise::Homoscedastic(1e-2), 0.3, 1.0, true)
                    .unwrap();
            let fit = fit_gp(x.clone(), &y, start.clone(), &mle_options(4)).unwrap();
            (
                lml,
                fit.kernel,
                fit.noise,
                fit.mean.to_bits(),
                fit.evaluations,
            )
        })
    };
    let one = in_pool(1);
    assert_eq!(one, in_pool(2));
    assert_eq!(one, in_pool(3));
}

/// A warm start at a fit's own optimum ends at once, at the same optimum; on slightly more data
/// it reaches the optimum a cold fit finds, with fewer evaluations.
#[test]
fn warm_starts_begin_at_the_previous_optimum() {
    let mut r = rng(31);
    let truth = Kernel::new(KernelKind::Matern52, vec![0.25, 0.6], 1.0).unwrap();
    let (x, y) = sampled(&mut r, (120, 2), &truth, (1e-3, 0.0));
    let start = Kernel::new(KernelKind::Matern52, vec![0.2; 2], 1.0).unwrap();
    let options = FitOptions {
        random_starts: 0,
        ..mle_options(2)
    };
    let head = x.slice_rows(0, 110);
    let cold = fit_gp(head.clone(), &y[..110], start.clone(), &options).unwrap();
    let Noise::Homoscedastic(noise_variance) = cold.noise else {
        panic!("fitted noise is homoscedastic")
    };
    let warm = WarmStart {
        lengthscales: cold.kernel.lengthscales().to_vec(),
        signal_variance: cold.kernel.signal_variance(),
        noise_variance,
        mean: cold.mean,
    };
    let again = fit_gp(
        head,
        &y[..110],
        start.clone(),
        &FitOptions {
            warm_start: Some(warm.clone()),
            ..options.clone()
        },
    )
    .unwrap();
    assert!(again.evaluations <= 3, "{} evaluations", again.evaluations);
    assert!((again.log_marginal_likelihood - cold.log_marginal_likelihood).abs() < 1e-9);

    let cold_all = fit_gp(x.clone(), &y, start.clone(), &options).unwrap();
    let warm_all = fit_gp(
        x,
        &y,
        start,
        &FitOptions {
            warm_start: Some(warm),
            ..options
        },
    )
    .unwrap();
    assert!(
        (warm_all.log_marginal_likelihood - cold_all.log_marginal_likelihood).abs() < 1e-4,
        "{} vs {}",
        warm_all.log_marginal_likelihood,
        cold_all.log_marginal_likelihood
    );
    assert!(
        warm_all.evaluations < cold_all.evaluations,
        "{} vs {}",
        warm_all.evaluations,
        cold_all.evaluations
    );
}

#[test]
fn bad_warm_starts_are_refused_by_name() {
    let mut r = rng(3);
    let x = uniform_points(&mut r, 10, 3);
    let y: Vec<f64> = (0..10).map(|i| i as f64).collect();
    let kernel = Kernel::new(KernelKind::Matern52, vec![0.2; 3], 1.0).unwrap();
    let good = WarmStart {
        lengthscales: vec![0.3; 3],
        signal_variance: 1.0,
        noise_variance: 0.1,
        mean: 0.0,
    };
    let fit_with = |warm: WarmStart| {
        fit_gp(
            x.clone(),
            &y,
            kernel.clone(),
            &FitOptions {
                warm_start: Some(warm),
                ..FitOptions::default()
            },
        )
        .unwrap_err()
        .to_string()
    };
    let short = fit_with(WarmStart {
        lengthscales: vec![0.3; 2],
        ..good.clone()
    });
    assert!(
        short.contains("warm start has 2 lengthscales, the kernel 3"),
        "{short}"
    );
    let nan = fit_with(WarmStart {
        signal_variance: f64::NAN,
        ..good.clone()
    });
    assert!(nan.contains("warm-start signal variance is NaN"), "{nan}");
    let negative = fit_with(WarmStart {
        lengthscales: vec![0.3, -1.0, 0.3],
        ..good
    });
    assert!(
        negative.contains("warm-start lengthscale is -1"),
        "{negative}"
    );
}

/// A previous fit's hyperparameters move into a new standardisation by the ratio of the two
/// standard deviations: the same values in original units.
#[test]
fn previous_fits_convert_between_standardisations() {
    let previous = PreviousFit {
        lengthscales: vec![0.4, 0.7],
        signal_variance: 4.0,
        noise_variance: 0.4,
        mean: 1.0,
        outputs: OutputTransform {
            mean: 2.0,
            std: 3.0,
        },
    };
    let now = OutputTransform {
        mean: 1.0,
        std: 6.0,
    };
    let warm = previous.in_units_of(&now).unwrap();
    assert_eq!(warm.lengthscales, [0.4, 0.7]);
    assert!((warm.signal_variance - 1.0).abs() < 1e-15);
    assert!((warm.noise_variance - 0.1).abs() < 1e-15);
    // 1·3 + 2 = 5 in original units; (5 − 1)/6 in the new ones.
    assert!((warm.mean - 4.0 / 6.0).abs() < 1e-15);
    // Objectives of 1e300: no square of a standard deviation is formed.
    let huge = PreviousFit {
        outputs: OutputTransform {
            mean: 1e300,
            std: 4e300,
        },
        ..previous
    };
    let warm = huge
        .in_units_of(&OutputTransform {
            mean: 2e300,
            std: 8e300,
        })
        .unwrap();
    assert!((warm.signal_variance - 1.0).abs() < 1e-15);
    assert!((warm.mean - 0.375).abs() < 1e-15);
}

#[test]
fn map_with_strong_priors_pulls_toward_the_prior_mode() {
    let mut r = rng(21);
    let truth = Kernel::new(KernelKind::Matern52, vec![0.3], 1.0).unwrap();
    let (x, y) = sampled(&mut r, (60, 1), &truth, (1e-2, 0.0));
    let start = Kernel::new(KernelKind::Matern52, vec![0.5], 1.0).unwrap();
    let mle = fit_gp(x.clone(), &y, start.clone(), &mle_options(1)).unwrap();
    let mle_l = mle.kernel.lengthscales()[0];
    for (prior, space, mode) in [
        (
            Prior::log_normal(2f64.ln(), 0.02).unwrap(),
            PriorSpace::LogParameter,
            2.0,
        ),
        (
            Prior::gamma(2000.0, 1000.0).unwrap(),
            PriorSpace::LogParameter,
            2.0,
        ),
        (
            Prior::gamma(2001.0, 1000.0).unwrap(),
            PriorSpace::Parameter,
            2.0,
        ),
    ] {
        let options = FitOptions {
            mode: FitMode::Map {
                priors: Priors {
                    lengthscale: Some(prior),
                    space,
                    ..Priors::default()
                },
            },
            ..mle_options(1)
        };
        let map = fit_gp(x.clone(), &y, start.clone(), &options).unwrap();
        assert_finite_fit(&map);
        let l = map.kernel.lengthscales()[0];
        eprintln!("MLE ℓ = {mle_l:.4}; MAP ({prior:?}, {space:?}) ℓ = {l:.4}");
        assert!(
            (l / mode - 1.0).abs() < 0.1,
            "MAP ℓ = {l}, prior mode {mode}"
        );
        assert!((l - mode).abs() < (mle_l - mode).abs());
        assert!(map.log_prior != 0.0);
        assert!((map.log_posterior - map.log_marginal_likelihood - map.log_prior).abs() < 1e-12);
        // MAP maximises the posterior, so its likelihood is below the MLE's.
        assert!(map.log_marginal_likelihood < mle.log_marginal_likelihood);
    }
    // BoTorch's priors give a finite fit, and a noise prior alone pulls the noise up.
    let botorch = FitOptions {
        mode: FitMode::Map {
            priors: Priors::botorch(),
        },
        noise_bounds: Bounds::new(1e-4, 1e2),
        noise: NoiseSpec::Fitted { initial: 2.0 },
        ..mle_options(2)
    };
    let fit = fit_gp(x, &y, start, &botorch).unwrap();
    assert_finite_fit(&fit);
}

#[test]
fn degenerate_data_never_gives_nan() {
    let start = Kernel::new(KernelKind::Matern52, vec![0.2, 0.2], 1.0).unwrap();
    // Many duplicated inputs, noisy targets.
    let mut r = rng(31);
    let base = uniform_points(&mut r, 5, 2);
    let rows: Vec<Vec<f64>> = (0..30).map(|i| base.row(i % 5).to_vec()).collect();
    let x = Points::from_rows(&rows).unwrap();
    let y: Vec<f64> = (0..30)
        .map(|i| (i % 5) as f64 + 0.01 * normal(&mut r))
        .collect();
    let fit = fit_gp(x.clone(), &y, start.clone(), &mle_options(0)).unwrap();
    assert_finite_fit(&fit);
    // Duplicates with identical targets and a noise floor of 1e-12.
    let y_same: Vec<f64> = (0..30).map(|i| (i % 5) as f64).collect();
    let tiny = FitOptions {
        noise_bounds: Bounds::new(1e-12, 1.0),
        noise: NoiseSpec::Fitted { initial: 1e-12 },
        ..mle_options(0)
    };
    let fit = fit_gp(x.clone(), &y_same, start.clone(), &tiny).unwrap();
    assert_finite_fit(&fit);
    // Fixed zero noise with duplicates: the fixed-mode state needs jitter but stays finite.
    let fixed = FitOptions {
        mode: FitMode::Fixed,
        noise: NoiseSpec::Fixed(Noise::Homoscedastic(0.0)),
        ..mle_options(0)
    };
    let fit = fit_gp(x.clone(), &y_same, start.clone(), &fixed).unwrap();
    assert!(fit.state.jitter() > 0.0);
    assert_finite_fit(&fit);
    // ... and ML-II with that noise cannot factorise anywhere: a clear error, not NaN.
    let err = fit_gp(
        x.clone(),
        &y_same,
        start.clone(),
        &FitOptions {
            mode: FitMode::Mle,
            ..fixed.clone()
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("positive definite"), "{err}");
    // Smooth noise-free function, tiny noise floor.
    let x = uniform_points(&mut r, 25, 2);
    let y: Vec<f64> = x.iter().map(|p| (3.0 * p[0]).sin() + p[1] * p[1]).collect();
    let fit = fit_gp(x.clone(), &y, start.clone(), &tiny).unwrap();
    assert_finite_fit(&fit);
    eprintln!(
        "noise-free fit: {:?} noise {:?}",
        fit.kernel.lengthscales(),
        fit.noise
    );
    // Constant targets: MLE is degenerate (error); MAP and fixed fits are finite.
    let c = vec![3.5; 25];
    let err = fit_gp(x.clone(), &c, start.clone(), &mle_options(0)).unwrap_err();
    assert!(err.to_string().contains("degenerate"), "{err}");
    for priors in [Priors::botorch(), Priors::uhe_bo()] {
        let map = FitOptions {
            mode: FitMode::Map { priors },
            ..mle_options(0)
        };
        let fit = fit_gp(x.clone(), &c, start.clone(), &map).unwrap();
        assert_finite_fit(&fit);
        assert!((fit.mean - 3.5).abs() < 1e-6);
    }
    // One point with MAP; no data is an error for fitting, fine for fixed values.
    let one = Points::from_rows(&[[0.5, 0.5]]).unwrap();
    let map = FitOptions {
        mode: FitMode::Map {
            priors: Priors::botorch(),
        },
        ..mle_options(0)
    };
    assert_finite_fit(&fit_gp(one, &[1.0], start.clone(), &map).unwrap());
    let empty = Points::empty(2).unwrap();
    assert!(fit_gp(empty.clone(), &[], start.clone(), &mle_options(0)).is_err());
    let prior_only = fit_gp(
        empty,
        &[],
        start,
        &FitOptions {
            mode: FitMode::Fixed,
            ..mle_options(0)
        },
    )
    .unwrap();
    assert_eq!(prior_only.log_marginal_likelihood, 0.0);
}

#[test]
fn fixed_parts_stay_fixed() {
    let mut r = rng(41);
    let truth = Kernel::new(KernelKind::SquaredExponential, vec![0.3], 1.0).unwrap();
    let (x, y) = sampled(&mut r, (30, 1), &truth, (1e-2, 0.0));
    let noise: Vec<f64> = (0..30).map(|i| 0.01 + 0.001 * i as f64).collect();
    let options = FitOptions {
        noise: NoiseSpec::Fixed(Noise::PerPoint(noise.clone())),
        mean: MeanSpec::Fixed(0.25),
        fit_signal_variance: false,
        lambda: 2.0,
        ..mle_options(3)
    };
    let start = Kernel::new(KernelKind::SquaredExponential, vec![1.0], 1.7).unwrap();
    let fit = fit_gp(x, &y, start, &options).unwrap();
    assert_eq!(fit.noise, Noise::PerPoint(noise));
    assert_eq!(fit.mean, 0.25);
    assert_eq!(fit.kernel.signal_variance(), 1.7);
    assert_eq!(fit.state.lambda(), 2.0);
    assert!(fit.kernel.lengthscales()[0] != 1.0);
}

// ---------------------------------------------------------------------------------------------
// Append

fn max_rel_diff(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

#[test]
fn appending_points_one_by_one_equals_fitting_from_scratch() {
    let engine = CpuEngine::new();
    for (kind, per_point) in [
        (KernelKind::Matern52, false),
        (KernelKind::SquaredExponential, true),
    ] {
        let mut r = rng(51);
        let x = uniform_points(&mut r, 55, 2);
        let kernel = Kernel::new(kind, vec![0.3, 0.5], 1.3).unwrap();
        let y = sample_gp(&mut r, &x, &kernel, 1e-2, 0.2);
        let noise_all: Vec<f64> = (0..55).map(|_| 1e-3 + 1e-2 * r.random::<f64>()).collect();
        let noise_of = |n: usize| {
            if per_point {
                Noise::PerPoint(noise_all[..n].to_vec())
            } else {
                Noise::Homoscedastic(1e-2)
            }
        };
        let mut state = GpState::fit(
            x.slice_rows(0, 5),
            &y[..5],
            GpSpec::new(kernel.clone(), noise_of(5).clone())
                .mean(0.2)
                .lambda(1.5),
        )
        .unwrap();
        for i in 5..55 {
            let extra = per_point.then(|| noise_all[i]);
            let outcome = state.append(x.row(i), y[i], extra).unwrap();
            assert_eq!(outcome, AppendOutcome::Extended);
        }
        let scratch = GpState::fit(
            x.clone(),
            &y,
            GpSpec::new(kernel, noise_of(55).clone())
                .mean(0.2)
                .lambda(1.5),
        )
        .unwrap();
        assert_eq!(scratch.jitter(), 0.0);
        let da = max_rel_diff(state.alpha().as_slice(), scratch.alpha().as_slice());
        let dl = max_rel_diff(state.linv().as_slice(), scratch.linv().as_slice());
        let cand = uniform_points(&mut r, 64, 2);
        let pa = engine.posterior(&state, &cand).unwrap();
        let pb = engine.posterior(&scratch, &cand).unwrap();
        let dm = max_rel_diff(&pa.mean, &pb.mean);
        let dv = max_rel_diff(&pa.variance, &pb.variance);
        let dlml = (state.log_marginal_likelihood() - scratch.log_marginal_likelihood()).abs()
            / scratch.log_marginal_likelihood().abs();
        eprintln!(
            "{kind:?} per-point={per_point}: rel diff α {da:.1e}, L⁻¹ {dl:.1e}, mean {dm:.1e}, \
             var {dv:.1e}, lml {dlml:.1e}"
        );
        for d in [da, dl, dm, dv, dlml] {
            assert!(d < 1e-10, "{d}");
        }
        assert_eq!(state.targets(), y.as_slice());
        assert_eq!(state.train(), &x);
    }
}

#[test]
fn appending_a_duplicate_without_noise_refits_with_jitter() {
    let x = Points::from_rows(&[[0.1], [0.5], [0.9]]).unwrap();
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![0.3], 1.0).unwrap();
    let mut state = GpState::fit(
        x,
        &[0.0, 1.0, 0.5],
        GpSpec::new(kernel, Noise::Homoscedastic(0.0)),
    )
    .unwrap();
    let outcome = state.append(&[0.5], 1.0, None).unwrap();
    let AppendOutcome::Refactorised { jitter } = outcome else {
        panic!("expected a refit, got {outcome:?}")
    };
    assert!(jitter > 0.0);
    assert_eq!(state.train().rows(), 4);
    assert!(state.alpha().iter().all(|a| a.is_finite()));
    // Wrong noise or dimension is an error.
    assert!(state.append(&[0.5, 0.1], 1.0, None).is_err());
    assert!(state.append(&[0.2], 1.0, Some(0.3)).is_err());
}

// ---------------------------------------------------------------------------------------------
// Transforms and GpModel

#[test]
fn transforms_round_trip() {
    let t = InputTransform::from_bounds(&[-5.0, 10.0], &[5.0, 30.0]).unwrap();
    let x = Points::from_rows(&[[-5.0, 10.0, 7.0], [0.0, 20.0, 8.0], [5.0, 30.0, 9.0]]).unwrap();
    let u = t.forward(&x).unwrap();
    assert_eq!(u.row(0), &[0.0, 0.0, 7.0]); // the extra (time) column passes through
    assert_eq!(u.row(1), &[0.5, 0.5, 8.0]);
    assert_eq!(u.row(2), &[1.0, 1.0, 9.0]);
    let back = t.inverse(&u).unwrap();
    assert!(max_rel_diff(back.as_slice(), x.as_slice()) < 1e-15);
    assert!(InputTransform::from_bounds(&[0.0], &[0.0]).is_err());

    let y = [1.0, 2.0, 4.0, 9.0];
    let o = OutputTransform::standardize(&y);
    assert!((o.mean - 4.0).abs() < 1e-15);
    let var: f64 = y.iter().map(|v| (v - 4.0) * (v - 4.0)).sum::<f64>() / 3.0;
    assert!((o.std - var.sqrt()).abs() < 1e-15);
    for v in y {
        assert!((o.inverse(o.forward(v)) - v).abs() < 1e-14);
    }
    let z: Vec<f64> = y.iter().map(|v| o.forward(*v)).collect();
    let zo = OutputTransform::standardize(&z);
    assert!(zo.mean.abs() < 1e-15 && (zo.std - 1.0).abs() < 1e-15);
    assert_eq!(OutputTransform::standardize(&[3.0, 3.0, 3.0]).std, 1.0);
    assert_eq!(OutputTransform::standardize(&[3.0]).std, 1.0);
}

#[test]
fn gp_model_predicts_in_original_units() {
    let engine = CpuEngine::new();
    let mut r = rng(61);
    let u = uniform_points(&mut r, 30, 2);
    let truth = Kernel::new(KernelKind::Matern52, vec![0.3, 0.4], 1.0).unwrap();
    let z = sample_gp(&mut r, &u, &truth, 1e-3, 0.0);
    let cand_u = uniform_points(&mut r, 20, 2);
    // The same problem in unit units and in a shifted, scaled box with scaled outputs.
    let (lo, hi) = ([-3.0, 100.0], [7.0, 104.0]);
    let to_box = |p: &Points| {
        Points::new(
            p.iter()
                .flat_map(|row| (0..2).map(move |d| lo[d] + row[d] * (hi[d] - lo[d])))
                .collect(),
            2,
        )
        .unwrap()
    };
    let (a, b) = (250.0, -40.0);
    let y: Vec<f64> = z.iter().map(|v| a * v + b).collect();
    let start = Kernel::new(KernelKind::Matern52, vec![0.5, 0.5], 1.0).unwrap();
    let unit = GpModel::fit(
        &u,
        &z,
        start.clone(),
        &ModelOptions::for_box(&[0.0, 0.0], &[1.0, 1.0]).unwrap(),
    )
    .unwrap();
    let boxed = GpModel::fit(
        &to_box(&u),
        &y,
        start,
        &ModelOptions::for_box(&lo, &hi).unwrap(),
    )
    .unwrap();
    let p1 = unit.predict(&engine, &cand_u).unwrap();
    let p2 = boxed.predict(&engine, &to_box(&cand_u)).unwrap();
    let mean1: Vec<f64> = p1.mean.iter().map(|m| a * m + b).collect();
    let var1: Vec<f64> = p1.variance.iter().map(|v| a * a * v).collect();
    let (dm, dv) = (
        max_rel_diff(&p2.mean, &mean1),
        max_rel_diff(&p2.variance, &var1),
    );
    eprintln!("GpModel affine equivariance: mean {dm:.1e}, variance {dv:.1e}");
    assert!(dm < 1e-6 && dv < 1e-5, "{dm} {dv}");
    // Original-unit hyperparameters.
    let ls1 = unit.lengthscales_original();
    let ls2 = boxed.lengthscales_original();
    assert!(
        (ls2[0] / ls1[0] / 10.0 - 1.0).abs() < 1e-5 && (ls2[1] / ls1[1] / 4.0 - 1.0).abs() < 1e-5
    );
    assert!(
        (boxed.signal_variance_original() / unit.signal_variance_original() / (a * a) - 1.0).abs()
            < 1e-5
    );

    // The model's prediction equals a hand-made transformed state's.
    let o = boxed.output_transform();
    let raw = engine
        .posterior(
            boxed.state(),
            &boxed.to_model_inputs(&to_box(&cand_u)).unwrap(),
        )
        .unwrap();
    for i in 0..20 {
        assert!((p2.mean[i] - (o.mean + o.std * raw.mean[i])).abs() < 1e-9 * a);
        assert!((p2.variance[i] - o.std * o.std * raw.variance[i]).abs() < 1e-9 * a * a);
    }

    // Appending through the model keeps the transforms and equals refitting with the same
    // hyperparameters.
    let mut grown = boxed.clone();
    let extra = to_box(&uniform_points(&mut r, 3, 2));
    let extra_y = [b + 10.0, b - 5.0, b + 60.0];
    for (i, y) in extra_y.iter().enumerate() {
        grown.append(extra.row(i), *y, None).unwrap();
    }
    let all_x = Points::new([to_box(&u).as_slice(), extra.as_slice()].concat(), 2).unwrap();
    let all_z: Vec<f64> = y.iter().chain(&extra_y).map(|v| o.forward(*v)).collect();
    let fr = boxed.fit_result();
    let scratch = GpState::fit(
        grown.to_model_inputs(&all_x).unwrap(),
        &all_z,
        GpSpec::new(fr.kernel.clone(), fr.noise.clone()).mean(fr.mean),
    )
    .unwrap();
    let pa = engine.posterior(grown.state(), &cand_u).unwrap();
    let pb = engine.posterior(&scratch, &cand_u).unwrap();
    assert!(max_rel_diff(&pa.mean, &pb.mean) < 1e-10);

    // Constant targets: standardisation uses std 1, MAP fit, predictions are finite and at the
    // constant.
    let c = vec![7.0; 30];
    let options = ModelOptions::for_box(&lo, &hi)
        .unwrap()
        .with_fit(FitOptions {
            mode: FitMode::Map {
                priors: Priors::botorch(),
            },
            ..FitOptions::default()
        });
    let flat = GpModel::fit(
        &to_box(&u),
        &c,
        Kernel::new(KernelKind::Matern52, vec![0.5, 0.5], 1.0).unwrap(),
        &options,
    )
    .unwrap();
    assert_eq!(flat.output_transform().std, 1.0);
    let p = flat.predict(&engine, &to_box(&cand_u)).unwrap();
    assert!(p.mean.iter().all(|m| (m - 7.0).abs() < 1e-6));
    assert!(p.variance.iter().all(|v| v.is_finite() && *v >= 0.0));
}
