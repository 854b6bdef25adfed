//! Thompson sampling's sample paths by pathwise conditioning (the toolkit's `PosteriorPaths`,
//! evaluated by `Engine::sample_path_maxima`): their mean and covariance are the GP's posterior
//! ones, a seed repeats its paths, and kernels without a spectral density are refused.

use bosweep::acquisition::PosteriorPaths;
use bosweep::compute::{CpuEngine, Engine, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use nalgebra::DMatrix;

use crate::common::{rng, uniform_points};

/// A GP on 8 points of `[0, 1]²` with prior mean 0.3, noise 0.01 and λ = 1.5 (so that a wrong
/// use of any of them shows in the paths' moments).
fn gp(kind: KernelKind) -> GpState {
    let mut r = rng(77);
    let train = uniform_points(&mut r, 8, 2, 0.0, 1.0);
    let y: Vec<f64> = train.iter().map(|x| (4.0 * x[0]).sin() + x[1]).collect();
    let kernel = Kernel::new(kind, vec![0.3, 0.5], 1.2).unwrap();
    let spec = GpSpec::new(kernel, Noise::Homoscedastic(1e-2))
        .mean(0.3)
        .lambda(1.5);
    GpState::fit(train, &y, spec).unwrap()
}

/// The posterior mean and covariance of `gp` at `points`, from its definition:
/// `μ = m + K_xᵀ α`, `Σ = (K_pp − (L⁻¹K_x)ᵀ (L⁻¹K_x)) / λ`.
fn posterior(gp: &GpState, points: &Points) -> (Vec<f64>, DMatrix<f64>) {
    let cpu = CpuEngine::new();
    let cross = cpu
        .cross_covariance(gp.kernel(), gp.train(), points)
        .unwrap();
    let mean = cross.tr_mul(gp.alpha()).add_scalar(gp.mean());
    let whitened = gp.linv() * &cross;
    let prior = cpu.cross_covariance(gp.kernel(), points, points).unwrap();
    let covariance = (prior - whitened.tr_mul(&whitened)) / gp.lambda();
    (mean.as_slice().to_vec(), covariance)
}

/// Over 2000 paths (each with its own basis of 4096 features) at five points, two at training
/// points, one among them and two far away, the sample mean and covariance are the GP's posterior's for
/// each kernel. With independent paths the sample mean's error has standard deviation
/// `√(Σ_aa / N)` and a sample covariance's `√((Σ_aa Σ_bb + Σ_ab²) / N)` (Gaussian paths; the
/// random basis makes each path's prior unbiased for the kernel, so no approximation error
/// adds a bias): five of those bound every entry, a margin that a seed passes by chance with
/// probability above 1 − 1e-5 per entry, while a path scaled wrongly by √2 (λ, the amplitude)
/// moves each variance away from the data by 15 to 30 of them.
#[test]
fn paths_have_the_posterior_mean_and_covariance() {
    const PATHS: usize = 2000;
    let cpu = CpuEngine::new();
    for kind in [
        KernelKind::SquaredExponential,
        KernelKind::Matern32,
        KernelKind::Matern52,
    ] {
        let gp = gp(kind);
        // Two training points, one between them all, two far from every one.
        let away = [0.5, 0.5, 2.0, -1.0, -1.0, 2.0];
        let near = (0..2).flat_map(|i| gp.train().row(i).to_vec());
        let points = Points::new(near.chain(away).collect(), 2).unwrap();
        let singles: Vec<Points> = points
            .iter()
            .map(|x| Points::new(x.to_vec(), 2).unwrap())
            .collect();
        let mut r = rng(5);
        let k = points.rows();
        let mut samples = DMatrix::<f64>::zeros(PATHS, k);
        for p in 0..PATHS {
            let paths = PosteriorPaths::draw(&gp, 4096, 1, &mut r).unwrap();
            for (j, single) in singles.iter().enumerate() {
                // The maximum over one candidate is the path's value there.
                samples[(p, j)] = paths.maxima(&cpu, single, &[]).unwrap()[0].value;
            }
        }
        let (mean, covariance) = posterior(&gp, &points);
        let sample_mean: Vec<f64> = (0..k).map(|j| samples.column(j).mean()).collect();
        let mut centred = samples.clone();
        for (j, mean) in sample_mean.iter().enumerate() {
            centred.column_mut(j).add_scalar_mut(-mean);
        }
        let sample_cov = centred.tr_mul(&centred) / (PATHS - 1) as f64;
        let n = PATHS as f64;
        for a in 0..k {
            let se = (covariance[(a, a)] / n).sqrt();
            assert!(
                (sample_mean[a] - mean[a]).abs() <= 5.0 * se,
                "{kind:?} point {a}: mean {} vs {} (se {se:e})",
                sample_mean[a],
                mean[a]
            );
            for b in 0..k {
                let (caa, cbb, cab) = (covariance[(a, a)], covariance[(b, b)], covariance[(a, b)]);
                let se = ((caa * cbb + cab * cab) / n).sqrt();
                assert!(
                    (sample_cov[(a, b)] - cab).abs() <= 5.0 * se,
                    "{kind:?} ({a}, {b}): covariance {} vs {cab} (se {se:e})",
                    sample_cov[(a, b)]
                );
            }
        }
        // The points far from the data keep almost all the prior variance s²/λ = 0.8; those at
        // the data almost none: the check covers both regimes.
        assert!(
            covariance[(0, 0)] < 0.05 && covariance[(4, 4)] > 0.7,
            "{covariance}"
        );
    }
}

/// The same seed draws the same paths (the same maxima, bit for bit); another seed draws
/// others.
#[test]
fn paths_repeat_from_their_seed() {
    let cpu = CpuEngine::new();
    let gp = gp(KernelKind::Matern52);
    let candidates = uniform_points(&mut rng(9), 4000, 2, 0.0, 1.0);
    let maxima = |seed: u64| {
        let paths = PosteriorPaths::draw(&gp, 256, 6, &mut rng(seed)).unwrap();
        paths.maxima(&cpu, &candidates, &[]).unwrap()
    };
    assert_eq!(maxima(1), maxima(1));
    assert_ne!(maxima(1), maxima(2));
    let indices: std::collections::HashSet<usize> = maxima(1).iter().map(|m| m.index).collect();
    assert!(indices.len() > 1, "six paths, one arg-max: {indices:?}");
}

/// Kernels without a spectral density the sampler draws from are refused with a message naming
/// the kernels that have one.
#[test]
fn kernels_without_a_spectral_density_are_refused() {
    for kind in [
        KernelKind::Matern12,
        KernelKind::RationalQuadratic { alpha: 0.7 },
    ] {
        let e = PosteriorPaths::draw(&gp(kind), 16, 1, &mut rng(1)).unwrap_err();
        assert!(
            e.to_string()
                .contains("spectral density (se, matern32 or matern52)"),
            "{e}"
        );
    }
}
