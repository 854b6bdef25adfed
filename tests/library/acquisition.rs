//! Acquisition functions, Sobol grids, the bounded L-BFGS and the grid-then-refine maximiser.
//! Reference values of `h(z) = φ(z) + zΦ(z)` were computed with mpmath at 50 digits and are
//! quoted to 20 significant digits.

#![allow(clippy::excessive_precision)]

use crate::common;
use crate::common::rel_err;

use bosweep::acquisition::{
    Acquisition, BetaSchedule, Bounds, ExpectedImprovement, GpAcquisition, LogExpectedImprovement,
    MaximizeConfig, PosteriorAcquisition, PosteriorMean, RefineGradient, SobolGrid,
    UpperConfidenceBound, default_grid_size, maximize,
};
use bosweep::compute::{CpuEngine, Engine, EngineError, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::optim::lbfgsb::{self, LbfgsbOptions, Termination};
use bosweep::stats::{h, log_h};
use rand::RngExt;

// ---------------------------------------------------------------- h(z), log h(z)

/// (z, h(z), ln h(z)); h = 0 where it is below the smallest f64.
const H_REFERENCE: [(f64, f64, f64); 15] = [
    (
        0.0,
        0.398_942_280_401_432_677_94,
        -0.918_938_533_204_672_741_78,
    ),
    (
        1.0,
        1.083_315_470_587_686_298_4,
        0.080_026_218_849_306_940_029,
    ),
    (
        -1.0,
        0.083_315_470_587_686_298_383,
        -2.485_121_025_712_641_336_8,
    ),
    (
        5.0,
        5.000_000_053_461_655_338_3,
        1.609_437_923_126_431_385_1,
    ),
    (
        -5.0,
        5.346_165_533_832_814_953_9e-8,
        -16.744_301_162_660_990_143,
    ),
    (
        -10.0,
        7.474_560_254_589_328_036_6e-25,
        -55.553_122_036_122_355_927,
    ),
    (
        -20.0,
        1.370_012_494_729_579_943_1e-90,
        -206.917_838_509_425_097_85,
    ),
    (
        -30.0,
        1.631_956_734_091_401_189_4e-199,
        -457.724_653_760_598_004_05,
    ),
    (
        -38.0,
        7.582_751_814_549_208_317_3e-318,
        -730.196_183_402_113_739_16,
    ),
    (-40.0, 0.0, -808.298_568_356_619_960_24),
    (-100.0, 0.0, -5_010.129_578_800_249_792_3),
    (-1e3, 0.0, -500_014.734_452_091_158_45),
    (-1e6, 0.0, -500_000_000_028.549_959_65),
    (-1e10, 0.0, -5.000_000_000_000_000_004_7e19),
    (40.0, 40.0, 3.688_879_454_113_936_302_9),
];

#[test]
fn h_and_log_h_match_high_precision_references() {
    for (z, href, lref) in H_REFERENCE {
        let l = log_h(z);
        assert!(
            rel_err(l, lref) < 4e-15,
            "log h({z}) = {l:e}, expected {lref:e}"
        );
        let hv = h(z);
        if href == 0.0 {
            assert_eq!(hv, 0.0, "h({z}) should underflow");
        } else {
            // h(-38) is subnormal: only absolute accuracy there.
            let tol = if href < 1e-307 { 1e-4 } else { 1e-14 };
            assert!(
                rel_err(hv, href) < tol,
                "h({z}) = {hv:e}, expected {href:e}"
            );
        }
    }
}

/// `ln h(z)` by Ament et al.'s LogEI formulas (NeurIPS 2023, eq. 9, as BoTorch's `log_ei`
/// computes them), independently of [`log_h`]'s continued fraction:
/// `ln(φ(z) + zΦ(z))` for `z > −1`; `−z²/2 − ln √(2π) + log1mexp(ln(erfcx(−z/√2)|z|) + ln √(π/2))`
/// for `−1/√ε < z ≤ −1`; `−z²/2 − ln √(2π) − 2 ln|z|` below. `erfcx(u) = exp(u²) erfc(u)` in f64,
/// so only for `u² < 700`.
fn ament_log_h(z: f64) -> f64 {
    let c1 = (2.0 * std::f64::consts::PI).sqrt().ln();
    let c2 = (std::f64::consts::PI / 2.0).sqrt().ln();
    let log1mexp = |x: f64| {
        if x > -std::f64::consts::LN_2 {
            (-x.exp_m1()).ln()
        } else {
            (-x.exp()).ln_1p()
        }
    };
    if z > -1.0 {
        h(z).ln()
    } else if z > -1.0 / f64::EPSILON.sqrt() {
        let u = -z / std::f64::consts::SQRT_2;
        assert!(u * u < 700.0, "erfcx({u}) overflows as exp(u²) erfc(u)");
        let erfcx = (u * u).exp() * libm::erfc(u);
        -z * z / 2.0 - c1 + log1mexp((erfcx * z.abs()).ln() + c2)
    } else {
        -z * z / 2.0 - c1 - 2.0 * z.abs().ln()
    }
}

/// LogEI's three published branches, each checked against [`log_h`]: the middle branch to the
/// accuracy its `log1mexp` keeps (it cancels `1 − |z|Φ/φ ≈ 1/z²`, so it loses about `z²` ulps),
/// the asymptote to a few ulps.
#[test]
fn log_h_agrees_with_logeis_published_branches() {
    for z in [3.0, 0.5, 0.0, -0.5, -0.999] {
        assert!(
            rel_err(log_h(z), ament_log_h(z)) < 1e-15,
            "direct branch at {z}"
        );
    }
    for z in [
        -1.0, -1.5, -2.0, -3.0, -5.0, -8.0, -13.0, -21.0, -30.0, -37.0,
    ] {
        let (ours, published) = (log_h(z), ament_log_h(z));
        let tol = 4.0 * f64::EPSILON * z * z * published.abs().max(1.0);
        assert!(
            (ours - published).abs() < tol,
            "erfcx branch at {z}: {ours} vs {published}"
        );
    }
    let switch = -1.0 / f64::EPSILON.sqrt();
    for z in [switch * 1.000_001, -1e9, -1e20, -1e100, -1e150] {
        assert!(
            rel_err(log_h(z), ament_log_h(z)) < 4e-16,
            "asymptotic branch at {z}: {} vs {}",
            log_h(z),
            ament_log_h(z)
        );
    }
    // Where the asymptote takes over, the exact value it approximates is already that close.
    let z = switch * 0.999_999;
    assert!(
        rel_err(
            log_h(z),
            -z * z / 2.0 - 0.918_938_533_204_672_8 - 2.0 * z.abs().ln()
        ) < 4e-16
    );
}

#[test]
fn log_h_is_continuous_monotone_and_never_infinite() {
    // Across the branch points (−2 and 40) the two formulas agree.
    for z0 in [-2.0f64, 40.0] {
        let (a, b) = (log_h(z0 - 1e-12), log_h(z0 + 1e-12));
        assert!((a - b).abs() < 1e-11, "jump at {z0}: {a} vs {b}");
    }
    let mut prev = f64::NEG_INFINITY;
    let mut z = -1e5;
    while z < 60.0 {
        let l = log_h(z);
        assert!(l.is_finite() && l > prev, "log h not increasing at {z}");
        prev = l;
        z += if z < -50.0 { 7.3 } else { 0.013 };
    }
    for z in [
        -1e154,
        -1e155,
        -1e200,
        f64::MIN,
        -f64::MIN_POSITIVE,
        0.0,
        1e300,
        f64::MAX,
    ] {
        let l = log_h(z);
        assert!(!l.is_nan() && l > f64::NEG_INFINITY, "log h({z}) = {l}");
    }
    assert_eq!(log_h(-1e200), -f64::MAX);
}

// ---------------------------------------------------------------- UCB

#[test]
fn ucb_conventions_are_explicit() {
    let k2 = UpperConfidenceBound::with_multiplier(2.0).unwrap();
    let b4 = UpperConfidenceBound::with_beta(4.0).unwrap();
    assert_eq!(k2.value(1.0, 0.25), 2.0); // 1 + 2·0.5
    assert_eq!(b4.value(1.0, 0.25), 2.0); // 1 + √4·0.5
    assert_eq!(k2, b4);
    let b = UpperConfidenceBound::with_beta(1.96).unwrap();
    assert!((b.multiplier() - 1.4).abs() < 1e-15);
    assert!((b.value(-0.5, 0.09) - (-0.5 + 1.4 * 0.3)).abs() < 1e-15);
    // A negative variance (never produced by the engine) counts as 0.
    assert_eq!(k2.value(3.0, -1e-18), 3.0);
    assert!(UpperConfidenceBound::with_beta(-1.0).is_err());
    assert!(UpperConfidenceBound::with_beta(f64::NAN).is_err());
    assert!(UpperConfidenceBound::with_multiplier(f64::INFINITY).is_err());
}

#[test]
fn srinivas_schedules_match_hand_values() {
    // 2 ln(|D| t² π² / (6δ)), |D| = 100, t = 5, δ = 0.1.
    let finite = BetaSchedule::Finite {
        domain_size: 100.0,
        delta: 0.1,
    };
    assert!(rel_err(finite.beta(5).unwrap(), 21.248_662_812_642_166) < 1e-14);
    // 2 ln(2t²π²/(3δ)) + 2d ln(t² d b r √ln(4da/δ)).
    let cont = BetaSchedule::Continuous {
        dim: 2,
        a: 1.0,
        b: 1.0,
        r: 1.0,
        delta: 0.1,
    };
    assert!(rel_err(cont.beta(10).unwrap(), 41.731_791_990_047_974) < 1e-14);
    let cont2 = BetaSchedule::Continuous {
        dim: 3,
        a: 2.0,
        b: 0.5,
        r: 2.0,
        delta: 0.05,
    };
    assert!(rel_err(cont2.beta(1).unwrap(), 21.812_064_448_773_321) < 1e-14);
    let ucb = UpperConfidenceBound::with_schedule(&finite, 5).unwrap();
    assert!(rel_err(ucb.multiplier(), 21.248_662_812_642_166f64.sqrt()) < 1e-14);
    // Growing in t.
    assert!(finite.beta(6).unwrap() > finite.beta(5).unwrap());
    // Out-of-range parameters.
    assert!(finite.beta(0).is_err());
    for delta in [0.0, 1.0, -0.1, f64::NAN] {
        assert!(
            BetaSchedule::Finite {
                domain_size: 10.0,
                delta
            }
            .beta(1)
            .is_err()
        );
    }
    let tiny = BetaSchedule::Continuous {
        dim: 1,
        a: 1.0,
        b: 1e-6,
        r: 1.0,
        delta: 0.5,
    };
    assert!(tiny.beta(1).is_err(), "negative beta must be an error");
}

// ---------------------------------------------------------------- EI

#[test]
fn expected_improvement_by_hand() {
    // μ = 1, σ = 2, best = 0: z = 0.5, EI = 2 h(0.5).
    let ei = ExpectedImprovement::new(0.0).unwrap();
    assert!(rel_err(ei.value(1.0, 4.0), 1.395_593_114_802_612_059_2) < 1e-14);
    // μ = 0.3, σ = 0.5, best = 1.2: z = −1.8.
    let ei = ExpectedImprovement::new(1.2).unwrap();
    let lei = LogExpectedImprovement::new(1.2).unwrap();
    assert!(rel_err(ei.value(0.3, 0.25), 0.007_137_791_948_813_854_319_9) < 1e-13);
    assert!(rel_err(lei.value(0.3, 0.25), -4.942_351_801_324_960_981_2) < 1e-14);
    // Far above the incumbent EI is the improvement itself.
    assert_eq!(
        ExpectedImprovement::new(0.0).unwrap().value(100.0, 1.0),
        100.0
    );
    // μ = 0, σ = 0.01, best = 0.2: z = −20.
    let lei = LogExpectedImprovement::new(0.2).unwrap();
    assert!(rel_err(lei.value(0.0, 1e-4), -211.523_008_695_413_189_22) < 1e-14);
}

#[test]
fn zero_variance_is_handled() {
    // Exact σ = 0 (floor 0): EI is the positive part of the improvement.
    let ei = ExpectedImprovement::with_min_variance(1.0, 0.0).unwrap();
    assert_eq!(ei.value(1.5, 0.0), 0.5);
    assert_eq!(ei.value(0.5, 0.0), 0.0);
    let lei = LogExpectedImprovement::with_min_variance(1.0, 0.0).unwrap();
    assert!((lei.value(1.5, 0.0) - 0.5f64.ln()).abs() < 1e-15);
    // The default floor σ ≥ 1e-6: μ − best = −1 gives z = −1e6 and a finite log EI.
    let lei = LogExpectedImprovement::new(0.0).unwrap();
    assert!(rel_err(lei.value(-1.0, 0.0), -500_000_000_042.365_470_207) < 1e-15);
    assert_eq!(ExpectedImprovement::new(0.0).unwrap().value(-1.0, 0.0), 0.0);
}

#[test]
fn log_ei_agrees_with_ln_ei_and_is_finite_everywhere() {
    let best = 0.7;
    let ei = ExpectedImprovement::new(best).unwrap();
    let lei = LogExpectedImprovement::new(best).unwrap();
    for i in -60..=60 {
        let mean = best + 0.5 * f64::from(i);
        let var = 1.0;
        let (a, b) = (ei.value(mean, var).ln(), lei.value(mean, var));
        assert!(
            rel_err(b, a) < 1e-13,
            "mean {mean}: ln EI {a} vs log EI {b}"
        );
    }
    let means = [-1e300, -1e20, -1.0, 0.0, 0.7, 1.0, 1e20, 1e300];
    let vars = [0.0, 1e-300, 1e-12, 1e-3, 1.0, 1e20, 1e300];
    for m in means {
        for v in vars {
            let l = lei.value(m, v);
            assert!(l.is_finite(), "log EI({m}, {v}) = {l}");
            let e = ei.value(m, v);
            assert!(e.is_finite() && e >= 0.0, "EI({m}, {v}) = {e}");
        }
    }
    assert!(ExpectedImprovement::new(f64::NAN).is_err());
    assert!(LogExpectedImprovement::with_min_variance(0.0, -1.0).is_err());
}

// ---------------------------------------------------------------- acquisitions on a GP

/// A GP on `n` points of `f` in `[0, 1]^d` (points from a Sobol grid of another seed).
fn fit_gp(f: impl Fn(&[f64]) -> f64, n: usize, dim: usize, lengthscale: f64) -> GpState {
    let grid = SobolGrid::new(Bounds::cube(0.0, 1.0, dim).unwrap(), n, 99).unwrap();
    let train = grid.all();
    let y: Vec<f64> = train.iter().map(&f).collect();
    let kernel = Kernel::new(KernelKind::SquaredExponential, vec![lengthscale; dim], 1.0).unwrap();
    GpState::fit(train, &y, GpSpec::new(kernel, Noise::Homoscedastic(1e-6))).unwrap()
}

fn branin_like(x: &[f64]) -> f64 {
    (3.0 * x[0]).sin() * (2.0 * x[1] + 0.5).cos() + 0.5 * x[0] * x[1]
}

#[test]
fn gp_acquisition_applies_the_rule_to_the_engine_posterior() {
    let gp = fit_gp(branin_like, 12, 2, 0.4);
    let engine = CpuEngine::new();
    let cands = SobolGrid::new(Bounds::cube(0.0, 1.0, 2).unwrap(), 50, 3)
        .unwrap()
        .all();
    let post = engine.posterior(&gp, &cands).unwrap();
    let ucb = GpAcquisition::new(&gp, UpperConfidenceBound::with_beta(2.25).unwrap());
    let vals = ucb.evaluate(&engine, &cands).unwrap();
    for (i, v) in vals.iter().enumerate() {
        let want = post.mean[i] + 1.5 * post.variance[i].sqrt();
        assert!((v - want).abs() < 1e-15);
    }
    let mean = GpAcquisition::new(&gp, PosteriorMean);
    assert_eq!(mean.evaluate(&engine, &cands).unwrap(), post.mean);
    assert_eq!(mean.dim(), 2);
    let wrong = Points::new(vec![0.0; 3], 3).unwrap();
    assert!(mean.evaluate(&engine, &wrong).is_err());
}

// ---------------------------------------------------------------- Sobol grids

#[test]
fn sobol_grid_is_reproducible_and_inside_the_box() {
    let bounds = Bounds::new(vec![-1.0, 2.0, 0.0, 5.0], vec![1.0, 3.0, 1e-3, 5.0]).unwrap();
    let a = SobolGrid::new(bounds.clone(), 3000, 7).unwrap();
    let b = SobolGrid::new(bounds.clone(), 3000, 7).unwrap();
    let c = SobolGrid::new(bounds.clone(), 3000, 8).unwrap();
    let (pa, pb, pc) = (a.all(), b.all(), c.all());
    assert_eq!(pa, pb);
    assert_ne!(pa, pc);
    for p in pa.iter() {
        assert!(bounds.contains(p), "{p:?} outside the box");
        assert_eq!(p[3], 5.0); // fixed coordinate
    }
    // Random access and ranges agree.
    assert_eq!(a.point(1234), pa.row(1234));
    assert_eq!(a.points(100, 200), pa.slice_rows(100, 200));
    // Beyond one 2^16 block.
    let big = SobolGrid::new(Bounds::cube(0.0, 1.0, 3).unwrap(), 70_000, 1).unwrap();
    let p = big.point(69_999);
    assert!(p.iter().all(|v| (0.0..1.0).contains(v)));
    assert_ne!(big.point(65_536), big.point(0));
    assert_eq!(default_grid_size(1), 4096);
    assert_eq!(default_grid_size(100), 409_600);
    assert_eq!(default_grid_size(256), 1 << 20);
    assert!(SobolGrid::new(Bounds::cube(0.0, 1.0, 2).unwrap(), 0, 0).is_err());
    assert!(Bounds::new(vec![1.0], vec![0.0]).is_err());
    assert!(Bounds::new(vec![0.0, 0.0], vec![1.0]).is_err());
}

/// Beyond 256 dimensions the grid is padded: the first 256 coordinates are those of the
/// 256-D grid, and every coordinate of every group keeps the net property (the first 2^m
/// points put one point in each of 2^m equal cells), across two 2^16 blocks; and coordinates
/// that share direction numbers are independent.
#[test]
fn sobol_grid_beyond_256_dimensions_is_padded_with_nets() {
    let dim = 600;
    let start = 65_536 - 32;
    let wide = SobolGrid::new(Bounds::cube(0.0, 1.0, dim).unwrap(), 70_000, 11).unwrap();
    let narrow = SobolGrid::new(Bounds::cube(0.0, 1.0, 256).unwrap(), 70_000, 11).unwrap();
    let (points, first) = (wide.points(0, 128), narrow.points(0, 128));
    for (p, q) in points.iter().zip(first.iter()) {
        assert_eq!(&p[..256], q);
    }
    for block_start in [0, 65_536] {
        let points = wide.points(block_start, block_start + 64);
        for i in 0..dim {
            let mut cells: Vec<usize> = points.iter().map(|p| (p[i] * 64.0) as usize).collect();
            cells.sort_unstable();
            assert_eq!(cells, (0..64).collect::<Vec<_>>(), "coordinate {i}");
        }
    }
    // Random access across a block boundary agrees with the range.
    let range = wide.points(start, start + 64);
    assert_eq!(wide.point(65_540), range.row(65_540 - start));
    // Coordinates 0 and 256 share direction numbers: without its own index scramble the
    // second would be a scramble of the first, and each 1/16 column of the pair's 256 points
    // would fall in one 1/16 cell.
    let pairs = wide.points(0, 256);
    let mut cells = [[0_usize; 16]; 16];
    for p in pairs.iter() {
        cells[(p[0] * 16.0) as usize][(p[256] * 16.0) as usize] += 1;
    }
    let fullest = cells.iter().flatten().max().unwrap();
    assert!(
        *fullest <= 8,
        "a cell of coordinates 0 and 256 holds {fullest} points"
    );
}

/// The squared L2-star discrepancy (Warnock's formula) of points in `[0, 1]^d`.
fn l2_star_discrepancy_sq(points: &Points) -> f64 {
    let (n, d) = (points.rows() as f64, points.dim() as i32);
    let mut single = 0.0;
    let mut pair = 0.0;
    for a in points.iter() {
        single += a.iter().map(|x| 1.0 - x * x).product::<f64>();
        for b in points.iter() {
            pair += a
                .iter()
                .zip(b)
                .map(|(x, y)| 1.0 - x.max(*y))
                .product::<f64>();
        }
    }
    3f64.powi(-d) - 2f64.powi(1 - d) / n * single + pair / (n * n)
}

#[test]
fn sobol_grid_is_well_spread() {
    // 2^10 points: the first two coordinates form a (0, 10, 2)-net, one point per 32×32 cell,
    // and every 1-D projection has one point per 1/1024 interval.
    let grid = SobolGrid::new(Bounds::cube(0.0, 1.0, 6).unwrap(), 1024, 42).unwrap();
    let pts = grid.all();
    let mut cells = vec![0u32; 1024];
    for p in pts.iter() {
        cells[(p[0] * 32.0) as usize * 32 + (p[1] * 32.0) as usize] += 1;
    }
    assert!(cells.iter().all(|&c| c == 1), "2-D net property violated");
    for j in 0..6 {
        let mut bins = vec![0u32; 1024];
        for p in pts.iter() {
            bins[(p[j] * 1024.0) as usize] += 1;
        }
        assert!(
            bins.iter().all(|&c| c == 1),
            "coordinate {j} not stratified"
        );
    }
    // d = 256: each of the 256 coordinates of 256 points is stratified into 256 cells.
    let grid = SobolGrid::new(Bounds::cube(0.0, 1.0, 256).unwrap(), 256, 5).unwrap();
    let pts = grid.all();
    for j in 0..256 {
        let mut bins = vec![0u32; 256];
        for p in pts.iter() {
            bins[(p[j] * 256.0) as usize] += 1;
        }
        assert!(
            bins.iter().all(|&c| c == 1),
            "coordinate {j} of 256 not stratified"
        );
    }
    // Discrepancy proxy: the squared L2-star discrepancy is far below its expectation for
    // i.i.d. uniform points, E[T²] = (2^−d − 3^−d)/N (measured ratios: 0.013 at d = 3, 0.08 at
    // d = 5, for every seed tried).
    for (dim, limit) in [(3, 0.05), (5, 0.2)] {
        let pts = SobolGrid::new(Bounds::cube(0.0, 1.0, dim).unwrap(), 1024, 11)
            .unwrap()
            .all();
        let t2 = l2_star_discrepancy_sq(&pts);
        let random = (2f64.powi(-(dim as i32)) - 3f64.powi(-(dim as i32))) / 1024.0;
        eprintln!("L2-star discrepancy² d={dim} N=1024: Sobol {t2:.3e}, i.i.d. {random:.3e}");
        assert!(
            t2 < limit * random,
            "d = {dim}: T² = {t2:e} vs random {random:e}"
        );
    }
}

// ---------------------------------------------------------------- L-BFGS-B

type Fg = (f64, Vec<f64>);

fn quadratic(a: &[Vec<f64>], c: &[f64], x: &[f64]) -> Result<Fg, EngineError> {
    let r: Vec<f64> = x.iter().zip(c).map(|(x, c)| x - c).collect();
    let ar: Vec<f64> = a
        .iter()
        .map(|row| row.iter().zip(&r).map(|(a, r)| a * r).sum())
        .collect();
    Ok((0.5 * r.iter().zip(&ar).map(|(r, a)| r * a).sum::<f64>(), ar))
}

fn rosenbrock(x: &[f64]) -> Result<Fg, EngineError> {
    let n = x.len();
    let mut f = 0.0;
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        let (a, b) = (x[i + 1] - x[i] * x[i], 1.0 - x[i]);
        f += 100.0 * a * a + b * b;
        g[i] += -400.0 * x[i] * a - 2.0 * b;
        g[i + 1] += 200.0 * a;
    }
    Ok((f, g))
}

/// KKT conditions of a box-constrained minimum: zero projected gradient.
fn assert_kkt(x: &[f64], g: &[f64], lo: &[f64], hi: &[f64], tol: f64) {
    for i in 0..x.len() {
        let pg = (x[i] - g[i]).clamp(lo[i], hi[i]) - x[i];
        assert!(
            pg.abs() <= tol,
            "coordinate {i}: x = {}, g = {}, projected {pg:e}",
            x[i],
            g[i]
        );
    }
}

#[test]
fn lbfgsb_interior_and_bound_optima_of_quadratics() {
    let opts = LbfgsbOptions {
        gtol: 1e-12,
        ftol: 0.0,
        ..Default::default()
    };
    // d = 1: optimum at the upper bound, and an interior one.
    let a = vec![vec![2.0]];
    let r = lbfgsb::minimize(|x| quadratic(&a, &[3.0], x), &[0.5], &[0.0], &[2.0], &opts).unwrap();
    assert_eq!(r.x, vec![2.0]);
    let r = lbfgsb::minimize(|x| quadratic(&a, &[1.3], x), &[0.0], &[0.0], &[2.0], &opts).unwrap();
    assert!((r.x[0] - 1.3).abs() < 1e-10, "{:?}", r);
    // Diagonal, badly scaled, optimum outside the box in half the coordinates: the clamp.
    let d = 10;
    let a: Vec<Vec<f64>> = (0..d)
        .map(|i| {
            (0..d)
                .map(|j| {
                    if i == j {
                        10f64.powi(i as i32 % 4)
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    let c: Vec<f64> = (0..d)
        .map(|i| {
            if i % 2 == 0 {
                2.0
            } else {
                -0.3 + 0.05 * i as f64
            }
        })
        .collect();
    let (lo, hi) = (vec![-1.0; d], vec![1.0; d]);
    let r = lbfgsb::minimize(|x| quadratic(&a, &c, x), &vec![0.0; d], &lo, &hi, &opts).unwrap();
    for (i, ci) in c.iter().enumerate() {
        assert!(
            (r.x[i] - ci.clamp(-1.0, 1.0)).abs() < 1e-9,
            "{i}: {:?}",
            r.x
        );
    }
}

#[test]
fn lbfgsb_coupled_quadratic_in_50_dimensions_satisfies_kkt() {
    let d = 50;
    let mut rng = common::rng(3);
    let b: Vec<Vec<f64>> = (0..d)
        .map(|_| (0..d).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    // A = BᵀB/d + 0.1 I: SPD, coupled, condition number in the hundreds.
    let a: Vec<Vec<f64>> = (0..d)
        .map(|i| {
            (0..d)
                .map(|j| {
                    (0..d).map(|k| b[k][i] * b[k][j]).sum::<f64>() / d as f64
                        + if i == j { 0.1 } else { 0.0 }
                })
                .collect()
        })
        .collect();
    let c: Vec<f64> = (0..d).map(|_| rng.random_range(-3.0..3.0)).collect();
    let (lo, hi) = (vec![-1.0; d], vec![1.0; d]);
    let opts = LbfgsbOptions {
        max_iters: 2000,
        gtol: 1e-7,
        ftol: 0.0,
        ..Default::default()
    };
    let r = lbfgsb::minimize(|x| quadratic(&a, &c, x), &vec![0.0; d], &lo, &hi, &opts).unwrap();
    let active = r.x.iter().filter(|v| v.abs() == 1.0).count();
    eprintln!(
        "50-D quadratic: {} iterations, {} evaluations, {active} active bounds, {:?}",
        r.iterations, r.evaluations, r.termination
    );
    assert!(
        active > 5 && active < d,
        "want a mix of active and free coordinates, got {active}"
    );
    assert_eq!(r.termination, Termination::ProjectedGradient);
    assert_kkt(&r.x, &r.gradient, &lo, &hi, 1e-7);
}

#[test]
fn lbfgsb_rosenbrock_with_and_without_active_bounds() {
    let opts = LbfgsbOptions {
        max_iters: 1000,
        gtol: 1e-9,
        ftol: 0.0,
        ..Default::default()
    };
    // Interior optimum (1, 1) from the classic start.
    let r = lbfgsb::minimize(rosenbrock, &[-1.2, 1.0], &[-2.0, -2.0], &[2.0, 2.0], &opts).unwrap();
    assert!(
        (r.x[0] - 1.0).abs() < 1e-7 && (r.x[1] - 1.0).abs() < 1e-7,
        "{r:?}"
    );
    // x1 ≤ 0.5: f ≥ (1 − x1)² ≥ 0.25 with equality only at (0.5, 0.25).
    let r = lbfgsb::minimize(rosenbrock, &[-1.2, 1.0], &[-2.0, -2.0], &[0.5, 2.0], &opts).unwrap();
    assert_eq!(r.x[0], 0.5);
    assert!(
        (r.x[1] - 0.25).abs() < 1e-8 && (r.f - 0.25).abs() < 1e-12,
        "{r:?}"
    );
    // d = 50 chained Rosenbrock: interior optimum at ones.
    let d = 50;
    let x0: Vec<f64> = (0..d)
        .map(|i| if i % 2 == 0 { -1.2 } else { 1.0 })
        .collect();
    let r = lbfgsb::minimize(rosenbrock, &x0, &vec![-2.0; d], &vec![2.0; d], &opts).unwrap();
    eprintln!(
        "50-D Rosenbrock: {} iterations, {} evaluations, f = {:e}",
        r.iterations, r.evaluations, r.f
    );
    assert!(r.x.iter().all(|v| (v - 1.0).abs() < 1e-6), "{:?}", r.x);
    // d = 50 with the box [−2, 0.7]: every coordinate wants to exceed 0.7; check stationarity.
    let (lo, hi) = (vec![-2.0; d], vec![0.7; d]);
    let r = lbfgsb::minimize(rosenbrock, &vec![0.0; d], &lo, &hi, &opts).unwrap();
    assert!(r.x.contains(&0.7), "no active bound: {:?}", r.x);
    assert_kkt(&r.x, &r.gradient, &lo, &hi, 1e-8);
}

// ---------------------------------------------------------------- grid + refine

fn small_config(grid: usize) -> MaximizeConfig {
    MaximizeConfig {
        grid_size: Some(grid),
        top_k: 4,
        ..Default::default()
    }
}

/// Brute-force maximum of an acquisition on a regular 1-D or 2-D lattice of the unit box.
fn lattice_max(
    acq: &dyn Acquisition,
    engine: &dyn Engine,
    dim: usize,
    per_side: usize,
) -> (Vec<f64>, f64) {
    let step = 1.0 / (per_side - 1) as f64;
    let rows: Vec<Vec<f64>> = match dim {
        1 => (0..per_side).map(|i| vec![i as f64 * step]).collect(),
        _ => (0..per_side * per_side)
            .map(|k| vec![(k / per_side) as f64 * step, (k % per_side) as f64 * step])
            .collect(),
    };
    let pts = Points::from_rows(&rows).unwrap();
    let v = acq.evaluate(engine, &pts).unwrap();
    let i = engine.argmax(&v).unwrap();
    (rows[i].clone(), v[i])
}

#[test]
fn maximizer_refines_the_posterior_mean_of_a_1d_gp() {
    let f = |x: &[f64]| (6.0 * x[0]).sin() + 0.3 * x[0];
    let gp = fit_gp(f, 7, 1, 0.2);
    let engine = CpuEngine::new();
    let acq = GpAcquisition::new(&gp, PosteriorMean);
    let bounds = Bounds::cube(0.0, 1.0, 1).unwrap();
    let m = maximize(&acq, &engine, &CpuEngine::new(), &bounds, &small_config(16)).unwrap();
    let (x_ref, v_ref) = lattice_max(&acq, &engine, 1, 1_000_001);
    eprintln!(
        "1-D posterior mean: grid {:.9} at {:?}, refined {:.12} at {:?}, lattice {:.12} at {:?}, counts {:?}",
        m.grid_value, m.grid_x, m.value, m.x, v_ref, x_ref, m.counts
    );
    assert!(m.value > m.grid_value + 1e-6, "refinement gained nothing");
    assert!(
        m.value >= v_ref - 1e-12,
        "refined {} < lattice {}",
        m.value,
        v_ref
    );
    assert!((m.x[0] - x_ref[0]).abs() < 2e-6);
    assert_eq!(m.counts.grid_points, 16);
    assert_eq!(m.counts.grid_calls, 1);
    // The posterior mean's analytic gradient: one point per gradient.
    assert_eq!(m.counts.refine_points, m.counts.refine_calls);
    assert_eq!(m.starts.len(), 4);
    assert_eq!(m.starts[0].grid_index, m.grid_index);

    // On central differences, 2d + 1 = 3 points per gradient, to the same maximum.
    let central = MaximizeConfig {
        gradient: RefineGradient::Central,
        ..small_config(16)
    };
    let c = maximize(&acq, &engine, &CpuEngine::new(), &bounds, &central).unwrap();
    assert_eq!(c.counts.refine_points, 3 * c.counts.refine_calls);
    assert!((c.x[0] - x_ref[0]).abs() < 2e-6 && c.value >= v_ref - 1e-12);
}

#[test]
fn maximizer_finds_the_ucb_maximum_of_a_2d_gp() {
    let gp = fit_gp(branin_like, 15, 2, 0.3);
    let engine = CpuEngine::new();
    let acq = GpAcquisition::new(&gp, UpperConfidenceBound::with_beta(4.0).unwrap());
    let bounds = Bounds::cube(0.0, 1.0, 2).unwrap();
    let m = maximize(
        &acq,
        &engine,
        &CpuEngine::new(),
        &bounds,
        &small_config(256),
    )
    .unwrap();
    let (x_ref, v_ref) = lattice_max(&acq, &engine, 2, 1001);
    eprintln!(
        "2-D UCB: grid {:.9} at {:?}, refined {:.12} at {:?}, lattice {:.12} at {:?}, counts {:?}",
        m.grid_value, m.grid_x, m.value, m.x, v_ref, x_ref, m.counts
    );
    for s in &m.starts {
        eprintln!(
            "  start {} ({:.6}) -> {:.12} in {} iterations, {} evaluations, {:?}",
            s.grid_index, s.start_value, s.value, s.iterations, s.evaluations, s.termination
        );
    }
    assert!(m.value > m.grid_value, "refinement gained nothing");
    assert!(
        m.value >= v_ref - 1e-10,
        "refined {} < lattice {}",
        m.value,
        v_ref
    );
    assert!(m.x.iter().zip(&x_ref).all(|(a, b)| (a - b).abs() < 2e-3));
    assert!(bounds.contains(&m.x));
}

#[test]
fn maximizer_stops_on_a_bound_and_respects_fixed_coordinates() {
    // Increasing in x0 and x1: the maximum of the mean is at the upper corner of the box,
    // the third coordinate is fixed at 0.25.
    let f = |x: &[f64]| x[0] + 0.5 * x[1] + 0.1 * x[2];
    let gp = fit_gp(f, 20, 3, 0.8);
    let acq = GpAcquisition::new(&gp, PosteriorMean);
    let bounds = Bounds::new(vec![0.1, 0.2, 0.25], vec![0.6, 0.7, 0.25]).unwrap();
    let m = maximize(
        &acq,
        &CpuEngine::new(),
        &CpuEngine::new(),
        &bounds,
        &small_config(64),
    )
    .unwrap();
    assert_eq!(m.x, vec![0.6, 0.7, 0.25]);
    assert!(m.value > m.grid_value);
}

/// A known smooth function, independent of any GP: `−Σ w_i (x_i − c_i)²` with `c` partly
/// outside the box.
struct Concave {
    c: Vec<f64>,
}

impl Acquisition for Concave {
    fn dim(&self) -> usize {
        self.c.len()
    }
    fn evaluate(&self, _engine: &dyn Engine, x: &Points) -> Result<Vec<f64>, EngineError> {
        Ok(x.iter()
            .map(|p| {
                -p.iter()
                    .zip(&self.c)
                    .enumerate()
                    .map(|(i, (x, c))| (1.0 + i as f64 % 3.0) * (x - c) * (x - c))
                    .sum::<f64>()
            })
            .collect())
    }
}

#[test]
fn maximizer_hits_a_known_maximum_exactly() {
    let acq = Concave {
        c: vec![0.3, -2.0, 0.77, 5.0, 0.5],
    };
    let bounds = Bounds::cube(-1.0, 1.0, 5).unwrap();
    let m = maximize(
        &acq,
        &CpuEngine::new(),
        &CpuEngine::new(),
        &bounds,
        &small_config(128),
    )
    .unwrap();
    let want = [0.3, -1.0, 0.77, 1.0, 0.5];
    for (a, b) in m.x.iter().zip(want) {
        assert!((a - b).abs() < 1e-7, "{:?}", m.x);
    }
    // Without refinement: the best grid point, whose value equals a direct evaluation.
    let cfg = MaximizeConfig {
        refine: false,
        ..small_config(128)
    };
    let g = maximize(&acq, &CpuEngine::new(), &CpuEngine::new(), &bounds, &cfg).unwrap();
    let all = SobolGrid::new(bounds.clone(), 128, 0).unwrap().all();
    let v = acq.evaluate(&CpuEngine::new(), &all).unwrap();
    let best = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(g.value, best);
    assert_eq!(g.x, all.row(g.grid_index));
    assert_eq!(g.counts.refine_calls, 0);
    assert!(g.starts.is_empty());
}

#[test]
fn maximizer_is_reproducible_and_chunking_does_not_matter() {
    let gp = fit_gp(branin_like, 10, 2, 0.3);
    let best = 1.0;
    let acq = GpAcquisition::new(&gp, LogExpectedImprovement::new(best).unwrap());
    let bounds = Bounds::cube(0.0, 1.0, 2).unwrap();
    let engine = CpuEngine::new();
    let base = maximize(
        &acq,
        &engine,
        &CpuEngine::new(),
        &bounds,
        &small_config(500),
    )
    .unwrap();
    let again = maximize(
        &acq,
        &engine,
        &CpuEngine::new(),
        &bounds,
        &small_config(500),
    )
    .unwrap();
    assert_eq!(base, again);
    let chunked = MaximizeConfig {
        chunk_size: Some(37),
        ..small_config(500)
    };
    let c = maximize(&acq, &engine, &CpuEngine::new(), &bounds, &chunked).unwrap();
    assert_eq!(c.x, base.x);
    assert_eq!(c.counts.grid_calls, 500usize.div_ceil(37));
    let other_seed = MaximizeConfig {
        seed: 1,
        ..small_config(500)
    };
    let o = maximize(&acq, &engine, &CpuEngine::new(), &bounds, &other_seed).unwrap();
    assert_ne!(o.grid_x, base.grid_x);
    // Bad configuration and shapes.
    let bad = MaximizeConfig {
        top_k: 0,
        ..Default::default()
    };
    assert!(maximize(&acq, &engine, &CpuEngine::new(), &bounds, &bad).is_err());
    assert!(
        maximize(
            &acq,
            &engine,
            &CpuEngine::new(),
            &Bounds::cube(0.0, 1.0, 3).unwrap(),
            &small_config(8)
        )
        .is_err()
    );
}

#[test]
fn maximizer_works_in_256_dimensions() {
    let d = 256;
    let f = |x: &[f64]| x.iter().take(8).map(|v| (3.0 * v).sin()).sum::<f64>();
    let gp = fit_gp(f, 30, d, (d as f64 / 6.0).sqrt());
    let acq = GpAcquisition::new(&gp, UpperConfidenceBound::with_multiplier(1.0).unwrap());
    let bounds = Bounds::cube(0.0, 1.0, d).unwrap();
    let cfg = MaximizeConfig {
        grid_size: Some(512),
        top_k: 2,
        max_iters: 15,
        chunk_size: Some(200),
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let m = maximize(&acq, &CpuEngine::new(), &CpuEngine::new(), &bounds, &cfg).unwrap();
    eprintln!(
        "d = 256: grid {:.6}, refined {:.6}, counts {:?}, {:.2} s",
        m.grid_value,
        m.value,
        m.counts,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(m.x.len(), d);
    assert!(bounds.contains(&m.x));
    assert!(m.value > m.grid_value);
    // UCB's analytic gradient: one point per gradient, where central differences take 2d + 1.
    assert_eq!(m.counts.refine_points, m.counts.refine_calls);
    assert_eq!(m.counts.grid_calls, 3);
}

// ---------------------------------------------------------------- GPU

fn max_abs_dx(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// The GPU engine (the default f32, and f64 where the adapter has it) picks the same maximiser
/// as the CPU engine: within 1e-4 with the default CPU refinement, and also when the
/// refinement runs on the GPU (f32 needs a finite-difference step of 1e-3 and gets 1e-3; f64
/// keeps the default step and gets 1e-5).
#[test]
fn gpu_engine_chooses_the_same_maximiser() {
    use bosweep::compute::Precision;
    let gp = fit_gp(branin_like, 15, 2, 0.3);
    let bounds = Bounds::cube(0.0, 1.0, 2).unwrap();
    let ucb = GpAcquisition::new(&gp, UpperConfidenceBound::with_beta(4.0).unwrap());
    let lei = GpAcquisition::new(&gp, LogExpectedImprovement::new(1.0).unwrap());
    let acqs: [&dyn Acquisition; 2] = [&ucb, &lei];
    for gpu in common::gpus() {
        let precision = gpu.precision();
        for acq in acqs {
            let cpu = maximize(
                acq,
                &CpuEngine::new(),
                &CpuEngine::new(),
                &bounds,
                &small_config(1024),
            )
            .unwrap();
            let on_gpu =
                maximize(acq, &gpu, &CpuEngine::new(), &bounds, &small_config(1024)).unwrap();
            let dx = max_abs_dx(&cpu.x, &on_gpu.x);
            eprintln!(
                "{precision:?} GPU grid + CPU refinement: |Δx| = {dx:.2e}, values {} vs {}",
                cpu.value, on_gpu.value
            );
            assert!(dx <= 1e-4, "cpu {:?} vs gpu {:?}", cpu.x, on_gpu.x);
            let (fd_step, tol) = match precision {
                Precision::F32 => (1e-3, 1e-3),
                Precision::F64 => (1e-6, 1e-5),
            };
            let cfg = MaximizeConfig {
                fd_step,
                ..small_config(1024)
            };
            let all_gpu = maximize(acq, &gpu, &gpu, &bounds, &cfg).unwrap();
            let dx = max_abs_dx(&cpu.x, &all_gpu.x);
            eprintln!(
                "{precision:?} GPU grid + GPU refinement: |Δx| = {dx:.2e}, values {} vs {}",
                cpu.value, all_gpu.value
            );
            assert!(dx <= tol, "cpu {:?} vs gpu-refined {:?}", cpu.x, all_gpu.x);
        }
    }
}

/// The default grid at d = 256 (2^20 points, 128 chunks of 8192): timing and bounded memory.
/// `cargo test --release --test library acquisition:: -- --ignored --nocapture`
#[test]
#[ignore = "seconds of CPU time; run by hand"]
fn default_grid_in_256_dimensions_timing() {
    let d = 256;
    let grid = SobolGrid::new(Bounds::cube(0.0, 1.0, d).unwrap(), 1 << 20, 0).unwrap();
    let t = std::time::Instant::now();
    let mut checksum = 0.0;
    for start in (0..1 << 20).step_by(8192) {
        checksum += grid.points(start, start + 8192).row(0)[0];
    }
    eprintln!(
        "Sobol: 2^20 x 256 points in chunks of 8192: {:.3} s ({checksum:.3})",
        t.elapsed().as_secs_f64()
    );
    let f = |x: &[f64]| x.iter().take(8).map(|v| (3.0 * v).sin()).sum::<f64>();
    let gp = fit_gp(f, 64, d, (d as f64 / 6.0).sqrt());
    let acq = GpAcquisition::new(&gp, LogExpectedImprovement::new(4.0).unwrap());
    let bounds = Bounds::cube(0.0, 1.0, d).unwrap();
    let cfg = MaximizeConfig {
        top_k: 4,
        max_iters: 30,
        ..Default::default()
    };
    let t = std::time::Instant::now();
    let m = maximize(&acq, &CpuEngine::new(), &CpuEngine::new(), &bounds, &cfg).unwrap();
    eprintln!(
        "d = 256, n = 64, default grid: grid {:.6}, refined {:.6}, counts {:?}, {:.2} s",
        m.grid_value,
        m.value,
        m.counts,
        t.elapsed().as_secs_f64()
    );
    assert_eq!(m.counts.grid_points, 1 << 20);
    assert_eq!(m.counts.grid_calls, 128);
    assert!(m.value >= m.grid_value);
}
