//! The acquisitions' analytic gradients (what the `analytic` refinement ascends on) against
//! central differences of their own values: EI, LogEI, UCB and the posterior mean on GPs of
//! every differentiable kernel, LogEI × probability of feasibility, qLogNEI with and without pending points on BoTorch's reference
//! data, qLogNEI under constraints, qLogNEHVI in two and three objectives, and the smoothing
//! functions' slopes; the value beside each gradient is the grid's.

use bosweep::acquisition::{
    Acquisition, BaseSamples, Bounds, ExpectedImprovement, GpAcquisition, LogExpectedImprovement,
    PosteriorAcquisition, PosteriorMean, QLogNoisyExpectedImprovement, SobolGrid,
    UpperConfidenceBound, fatmax, fatmax_first_slope, fatmin_pair, fatmin_pair_first_slope,
    log_fatplus, log_fatplus_slope,
};
use bosweep::acquisition::{
    ChebyshevScalarization, ConstrainedQLogNoisyExpectedImprovement, ConstrainedSmoothing,
    ScalarObjective, log_fatmoid, log_fatmoid_slope,
};
use bosweep::acquisition::{
    LogConstrainedExpectedImprovement, LogProbabilityOfFeasibility, ObjectiveModel, QLogNParEgo,
    QLogNoisyExpectedHypervolumeImprovement, TAU_RELU, sample_simplex,
};
use bosweep::compute::{CpuEngine, ImprovementSmoothing, Points};
use bosweep::model::{GpSpec, GpState, Kernel, KernelKind, Noise};
use bosweep::surrogate::OutputTransform;

/// Central differences of `acquisition`'s values at `x`, step `h` per coordinate.
fn central_differences(acquisition: &dyn Acquisition, x: &[f64], h: f64) -> Vec<f64> {
    let engine = CpuEngine::new();
    let mut rows = Vec::new();
    for i in 0..x.len() {
        for sign in [-1.0, 1.0] {
            let mut p = x.to_vec();
            p[i] += sign * h;
            rows.push(p);
        }
    }
    let v = acquisition
        .evaluate(&engine, &Points::from_rows(&rows).unwrap())
        .unwrap();
    (0..x.len())
        .map(|i| (v[2 * i + 1] - v[2 * i]) / (2.0 * h))
        .collect()
}

/// The analytic value and gradient agree with the grid's value and with central differences
/// at every point of `at`.
fn assert_gradients_match(acquisition: &dyn Acquisition, at: &Points, h: f64, tolerance: f64) {
    let engine = CpuEngine::new();
    let source = acquisition
        .analytic_gradient()
        .unwrap()
        .expect("a gradient");
    let mut objective = source.objective();
    let grid_values = acquisition.evaluate(&engine, at).unwrap();
    for (i, grid_value) in grid_values.iter().enumerate() {
        let x = at.row(i);
        let (value, gradient) = objective(x).unwrap();
        assert!(
            (value - grid_value).abs() <= 1e-10 * grid_value.abs().max(1.0),
            "value {value} vs the grid's {grid_value} at {x:?}"
        );
        let expected = central_differences(acquisition, x, h);
        let scale = expected.iter().fold(1.0_f64, |m, g| m.max(g.abs()));
        for (g, e) in gradient.iter().zip(&expected) {
            assert!(
                (g - e).abs() <= tolerance * scale,
                "gradient {gradient:?} vs central differences {expected:?} at {x:?}"
            );
        }
    }
}

fn gp(kind: KernelKind, dim: usize) -> GpState {
    let train = SobolGrid::new(Bounds::cube(0.0, 1.0, dim).unwrap(), 14, 5)
        .unwrap()
        .all();
    let y: Vec<f64> = train
        .iter()
        .map(|x| (3.0 * x[0]).sin() * (2.0 * x[1] + 0.5).cos() + 0.5 * x[0] * x[1])
        .collect();
    let lengthscales = (0..dim).map(|i| 0.3 + 0.1 * i as f64).collect();
    let kernel = Kernel::new(kind, lengthscales, 1.7).unwrap();
    GpState::fit(
        train,
        &y,
        GpSpec::new(kernel, Noise::Homoscedastic(1e-4)).mean(0.2),
    )
    .unwrap()
}

fn probes(dim: usize) -> Points {
    SobolGrid::new(Bounds::cube(0.02, 0.98, dim).unwrap(), 12, 17)
        .unwrap()
        .all()
}

/// Matérn-5/2 GPs (lengthscales 0.3 and 0.45, signal variance 1.2, noise 1e-4) on `gp`'s
/// fourteen points in 2-D, one through each of `shapes`.
fn shaped_gps(shapes: &[fn(&[f64]) -> f64]) -> Vec<GpState> {
    shapes
        .iter()
        .map(|shape| {
            let base = gp(KernelKind::Matern52, 2);
            let y: Vec<f64> = base.train().iter().map(shape).collect();
            let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.45], 1.2).unwrap();
            GpState::fit(
                base.train().clone(),
                &y,
                GpSpec::new(kernel, Noise::Homoscedastic(1e-4)),
            )
            .unwrap()
        })
        .collect()
}

/// `gps` as outcomes whose standardisation is undone: GP `j`'s outputs mapped by mean
/// `mean_step · j` and scale `1 + std_step · j`.
fn mapped_models(gps: &[GpState], mean_step: f64, std_step: f64) -> Vec<ObjectiveModel<'_>> {
    gps.iter()
        .enumerate()
        .map(|(j, gp)| ObjectiveModel {
            gp,
            output: OutputTransform {
                mean: mean_step * j as f64,
                std: 1.0 + std_step * j as f64,
            },
        })
        .collect()
}

fn check_rule<R: PosteriorAcquisition>(state: &GpState, rule: R, dim: usize) {
    assert_gradients_match(&GpAcquisition::new(state, rule), &probes(dim), 1e-6, 1e-5);
}

#[test]
fn posterior_rules_match_central_differences_for_every_differentiable_kernel() {
    for kind in [
        KernelKind::SquaredExponential,
        KernelKind::Matern32,
        KernelKind::Matern52,
        KernelKind::RationalQuadratic { alpha: 0.7 },
    ] {
        for dim in [2, 5] {
            let state = gp(kind, dim);
            // Incumbents at the data's top and far above it (LogEI's asymptotic branch).
            for best in [1.0, 6.0] {
                check_rule(&state, LogExpectedImprovement::new(best).unwrap(), dim);
                check_rule(&state, ExpectedImprovement::new(best).unwrap(), dim);
            }
            check_rule(
                &state,
                UpperConfidenceBound::with_multiplier(2.0).unwrap(),
                dim,
            );
            check_rule(&state, PosteriorMean, dim);
        }
    }
}

/// LogEI × probability of feasibility on an objective and two constraints (Matérn-5/2 GPs on
/// the same fourteen points, standardised and mapped back), and the probability of feasibility
/// alone, at candidates from well inside the feasible region to far outside it; and one
/// constraint's rule on its own, at thresholds where feasibility is likely and where it is
/// remote (ln Φ's lower tail).
#[test]
fn log_constrained_ei_matches_central_differences() {
    let dim = 2;
    let state = gp(KernelKind::Matern52, dim);
    for threshold in [-2.0, 0.3, 4.0] {
        check_rule(
            &state,
            LogProbabilityOfFeasibility::new(threshold).unwrap(),
            dim,
        );
    }
    let constraints: Vec<GpState> = [(1.0, 0.6), (-0.5, 1.4)]
        .iter()
        .map(|(a, b)| {
            let train = state.train().clone();
            let c: Vec<f64> = train.iter().map(|x| a * x[0] + b * x[1] - 0.7).collect();
            let kernel = Kernel::new(KernelKind::Matern52, vec![0.5, 0.4], 1.1).unwrap();
            GpState::fit(train, &c, GpSpec::new(kernel, Noise::Homoscedastic(1e-4))).unwrap()
        })
        .collect();
    let model = |gp, mean, std| ObjectiveModel {
        gp,
        output: OutputTransform { mean, std },
    };
    let constraints = [
        model(&constraints[0], 0.2, 0.5),
        model(&constraints[1], -0.3, 2.0),
    ];
    let objective = model(&state, 0.4, 1.5);
    let acquisition = LogConstrainedExpectedImprovement::new(objective, 1.2, &constraints).unwrap();
    assert_gradients_match(&acquisition, &probes(dim), 1e-6, 1e-5);
    let feasibility = LogConstrainedExpectedImprovement::feasibility(&constraints).unwrap();
    assert_gradients_match(&feasibility, &probes(dim), 1e-6, 1e-5);
}

/// Matérn-1/2 has no gradient at the data, so the maximiser keeps central differences.
#[test]
fn matern12_has_no_analytic_gradient() {
    let state = gp(KernelKind::Matern12, 2);
    let acquisition = GpAcquisition::new(&state, LogExpectedImprovement::new(1.0).unwrap());
    assert!(acquisition.analytic_gradient().unwrap().is_none());
}

/// qLogNEI's reparameterised gradient on a Matérn-5/2 GP with seven observations, alone and
/// with two pending points, at candidates around the data (where the smoothed improvements of
/// some samples are near their kink and of others far below it).
#[test]
fn qlognei_matches_central_differences_with_and_without_pending_points() {
    let dim = 2;
    let state = gp(KernelKind::Matern52, dim);
    let engine = CpuEngine::new();
    let observed = state.train().clone();
    let pending = Points::from_rows(&[[0.3, 0.7], [0.8, 0.2]]).unwrap();
    for pending in [Points::new(Vec::new(), dim).unwrap(), pending] {
        let base = BaseSamples::sobol(256, observed.rows() + pending.rows() + 1, 11).unwrap();
        let acquisition =
            QLogNoisyExpectedImprovement::new(&state, &engine, &observed, &pending, &base).unwrap();
        assert_gradients_match(&acquisition, &probes(dim), 1e-7, 1e-4);
    }
}

/// qLogNEHVI's and qLogNParEGO's reparameterised gradients on two and three objectives (Matérn-5/2 GPs on the
/// same fourteen points, the outputs standardised and mapped back), alone and with two pending
/// points, at candidates around the data: against central differences of its engine values.
#[test]
fn qlognehvi_and_qlognparego_match_central_differences_in_two_and_three_objectives() {
    let dim = 2;
    let engine = CpuEngine::new();
    let gps: Vec<GpState> = (0..3)
        .map(|j| {
            let base = gp(KernelKind::Matern52, dim);
            let y: Vec<f64> = base
                .train()
                .iter()
                .map(|x| (2.0 + j as f64 * x[0]).sin() - (1.0 + j as f64) * x[1] * x[1])
                .collect();
            let kernel = Kernel::new(KernelKind::Matern52, vec![0.3, 0.45], 1.2).unwrap();
            GpState::fit(
                base.train().clone(),
                &y,
                GpSpec::new(kernel, Noise::Homoscedastic(1e-4)),
            )
            .unwrap()
        })
        .collect();
    let observed = gps[0].train().clone();
    let pending = Points::from_rows(&[[0.3, 0.7], [0.8, 0.2]]).unwrap();
    for m in [2, 3] {
        let models: Vec<ObjectiveModel<'_>> = gps[..m]
            .iter()
            .enumerate()
            .map(|(j, gp)| ObjectiveModel {
                gp,
                output: OutputTransform {
                    mean: 0.5 * j as f64,
                    std: 1.0 + j as f64,
                },
            })
            .collect();
        let reference = vec![-2.0; m];
        for pending in [Points::new(Vec::new(), dim).unwrap(), pending.clone()] {
            let base: Vec<BaseSamples> = (0..m)
                .map(|j| {
                    BaseSamples::sobol(64, observed.rows() + pending.rows() + 1, 3 + j as u64)
                        .unwrap()
                })
                .collect();
            let acquisition = QLogNoisyExpectedHypervolumeImprovement::new(
                &models,
                &engine,
                &observed,
                &pending,
                &reference,
                &base,
                ImprovementSmoothing::BOTORCH,
            )
            .unwrap();
            assert_gradients_match(&acquisition, &probes(dim), 1e-7, 1e-4);
            let parego = QLogNParEgo::new(
                &models,
                &engine,
                &observed,
                &pending,
                sample_simplex(m, &mut crate::common::rng(m as u64)),
                &base,
                TAU_RELU,
            )
            .unwrap();
            assert_gradients_match(&parego, &probes(dim), 1e-7, 1e-4);
        }
    }
}

/// Constrained qLogNEHVI's reparameterised gradient: two objectives and two constraints
/// (Matérn-5/2 GPs on the same fourteen points, outputs standardised and mapped back; the
/// constraints feasible on part of the square), alone and with two pending points: against
/// central differences of its engine values.
#[test]
fn constrained_qlognehvi_matches_central_differences() {
    let dim = 2;
    let engine = CpuEngine::new();
    let shapes: [fn(&[f64]) -> f64; 4] = [
        |x| (2.0 * x[0]).sin() - x[1] * x[1],
        |x| (3.0 * x[1]).cos() - x[0],
        |x| 0.9 - x[0] - x[1],
        |x| (x[0] - 0.5).powi(2) + (x[1] - 0.4).powi(2) - 0.2,
    ];
    let gps = shaped_gps(&shapes);
    let models = mapped_models(&gps, 0.1, 0.3);
    let observed = gps[0].train().clone();
    let pending = Points::from_rows(&[[0.3, 0.7], [0.8, 0.2]]).unwrap();
    for pending in [Points::new(Vec::new(), dim).unwrap(), pending] {
        let base: Vec<BaseSamples> = (0..4)
            .map(|j| BaseSamples::sobol(64, observed.rows() + pending.rows() + 1, 9 + j).unwrap())
            .collect();
        for eta in [1e-3, 0.1] {
            let acquisition = QLogNoisyExpectedHypervolumeImprovement::with_constraints(
                &models[..2],
                &models[2..],
                &engine,
                (&observed, &pending),
                &[-2.0, -2.0],
                &base,
                (ImprovementSmoothing::BOTORCH, eta),
            )
            .unwrap();
            assert_gradients_match(&acquisition, &probes(dim), 1e-7, 1e-4);
        }
    }
}

/// Constrained qLogNEI's reparameterised gradient (an objective and two constraints, Matérn-5/2
/// GPs on the same fourteen points, outputs standardised and mapped back; one constraint
/// feasible on about half the square), alone and with two pending points, with BoTorch's η and a
/// wider one, and constrained qLogNParEGO's (two objectives scalarised, one constraint): against
/// central differences of their engine values.
#[test]
fn constrained_qlognei_matches_central_differences() {
    let dim = 2;
    let engine = CpuEngine::new();
    let shapes: [fn(&[f64]) -> f64; 3] = [
        |x| (3.0 * x[0]).sin() * (2.0 * x[1] + 0.5).cos() + 0.5 * x[0] * x[1],
        |x| x[0] + x[1] - 1.0,
        |x| (x[0] - 0.5).powi(2) + (x[1] - 0.4).powi(2) - 0.3,
    ];
    let gps = shaped_gps(&shapes);
    let models = mapped_models(&gps, 0.1, 0.5);
    let observed = gps[0].train().clone();
    let pending = Points::from_rows(&[[0.3, 0.7], [0.8, 0.2]]).unwrap();
    for pending in [Points::new(Vec::new(), dim).unwrap(), pending] {
        let base: Vec<BaseSamples> = (0..3)
            .map(|j| BaseSamples::sobol(64, observed.rows() + pending.rows() + 1, 5 + j).unwrap())
            .collect();
        for eta in [1e-3, 0.1] {
            let smoothing = ConstrainedSmoothing {
                eta,
                ..ConstrainedSmoothing::default()
            };
            let acquisition = ConstrainedQLogNoisyExpectedImprovement::new(
                ScalarObjective::Single,
                &models,
                &engine,
                (&observed, &pending),
                &base,
                smoothing,
                || Ok(-3.0),
            )
            .unwrap();
            assert_gradients_match(&acquisition, &probes(dim), 1e-7, 1e-4);
            // qLogNParEGO's: the first two outcomes scalarised, the third a constraint.
            let chebyshev =
                ChebyshevScalarization::at_means(vec![0.3, 0.7], &models[..2], &engine, &observed)
                    .unwrap();
            let parego = ConstrainedQLogNoisyExpectedImprovement::new(
                ScalarObjective::Chebyshev(chebyshev),
                &models,
                &engine,
                (&observed, &pending),
                &base,
                smoothing,
                || Ok(-3.0),
            )
            .unwrap();
            assert_gradients_match(&parego, &probes(dim), 1e-7, 1e-4);
        }
    }
}

#[test]
fn smoothing_slopes_match_central_differences() {
    // BoTorch's fatmoid is ½ at 0 and continuous there, its logarithm's slope too.
    assert!((log_fatmoid(0.0) - 0.5f64.ln()).abs() < 1e-15);
    assert!((log_fatmoid(-1e-12) - log_fatmoid(0.0)).abs() < 1e-11);
    for x in [-1e4, -30.0, -2.0, -0.3, 0.0, 0.2, 1.5, 40.0f64] {
        let h = 1e-6 * f64::max(1.0, x.abs());
        let expected = (log_fatmoid(x + h) - log_fatmoid(x - h)) / (2.0 * h);
        let got = log_fatmoid_slope(x);
        assert!(
            (got - expected).abs() <= 1e-6 * expected.abs().max(1e-6),
            "x {x}: {got} vs {expected}"
        );
    }
    for tau in [1e-6, 1e-2, 1.0] {
        for u in [-60.0, -35.0, -3.0, -0.5, 0.0, 0.4, 2.0, 45.0] {
            let x = u * tau;
            let h = 1e-6 * tau;
            let expected = (log_fatplus(x + h, tau) - log_fatplus(x - h, tau)) / (2.0 * h);
            let got = log_fatplus_slope(x, tau);
            assert!(
                (got - expected).abs() <= 1e-5 * expected.abs().max(1.0 / tau),
                "τ {tau}, u {u}: {got} vs {expected}"
            );
        }
    }
    for values in [
        vec![0.3],
        vec![0.3, 0.1, -2.0],
        vec![-0.05, 0.0, 0.02],
        vec![1.0, 1.0 - 1e-3],
    ] {
        let tau = 1e-2;
        let h = 1e-7;
        let shifted = |delta: f64| {
            let mut v = values.clone();
            v[0] += delta;
            fatmax(&v, tau)
        };
        let expected = (shifted(h) - shifted(-h)) / (2.0 * h);
        let got = fatmax_first_slope(&values, tau);
        assert!(
            (got - expected).abs() <= 1e-6,
            "{values:?}: {got} vs {expected}"
        );
    }
    // The fat minimum of two values equals −fatmax of their negatives; its slope, at, below and
    // above the other value and far from it.
    for (a, b) in [(0.3, 0.3), (0.2, 0.3), (0.4, 0.3), (-5.0, 2.0), (7.0, 2.0)] {
        let tau = 1e-2;
        assert!((fatmin_pair(a, b, tau) + fatmax(&[-a, -b], tau)).abs() < 1e-15);
        let h = 1e-7;
        let expected = (fatmin_pair(a + h, b, tau) - fatmin_pair(a - h, b, tau)) / (2.0 * h);
        let got = fatmin_pair_first_slope(a, b, tau);
        assert!(
            (got - expected).abs() <= 1e-6,
            "({a}, {b}): {got} vs {expected}"
        );
    }
}
