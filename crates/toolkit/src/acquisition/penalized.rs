//! Local penalisation of an acquisition around pending points (González, Dai, Hennig and
//! Lawrence, "Batch Bayesian Optimization via Local Penalization", AISTATS 2016): a batch's
//! next point maximises `g(α(x)) Πⱼ φ(x; xⱼ)`, each penaliser `φ` the probability that `x` lies
//! outside the ball around the pending point `xⱼ` that cannot hold the maximiser, given that
//! the objective is `L`-Lipschitz. Computed as logarithms, so that products of small factors
//! stay finite.

use super::Acquisition;
use bosweep_core::stats::normal_log_cdf;
use bosweep_engine::{Engine, EngineError, Points};
use bosweep_model::GpState;

/// The Lipschitz constant used when the estimate is below [`MIN_LIPSCHITZ`] (a flat posterior
/// mean): GPyOpt's fallback.
pub const FALLBACK_LIPSCHITZ: f64 = 10.0;
/// Below this estimate the mean is taken as flat and [`FALLBACK_LIPSCHITZ`] is used.
pub const MIN_LIPSCHITZ: f64 = 1e-7;
/// Central-difference step of [`mean_lipschitz`], in the GP's input units.
const GRADIENT_STEP: f64 = 1e-5;
/// Rows per engine call of [`mean_lipschitz`].
const ROWS_PER_CALL: usize = 1 << 16;

/// One pending point and the GP's posterior there (in the GP's units), the centre of a
/// penaliser.
#[derive(Clone, Debug, PartialEq)]
pub struct PenaltyCentre {
    /// The pending point, in the acquisition's coordinates.
    pub x: Vec<f64>,
    /// Posterior mean `μ(xⱼ)`.
    pub mean: f64,
    /// Posterior standard deviation `σ(xⱼ)` (> 0).
    pub sd: f64,
}

/// The penalisers of every pending point: `ln φ(x; xⱼ) = ln Φ((L‖x − xⱼ‖ − M + μ(xⱼ)) / σ(xⱼ))`
/// (the paper's Proposition 1, for maximisation), `M` the largest observed value.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalPenalty {
    centres: Vec<PenaltyCentre>,
    lipschitz: f64,
    best: f64,
}

impl LocalPenalty {
    /// Penalisers around `centres` with Lipschitz constant `lipschitz` (> 0) and the largest
    /// observed value `best` (`M`), all finite.
    pub fn new(
        centres: Vec<PenaltyCentre>,
        lipschitz: f64,
        best: f64,
    ) -> Result<Self, EngineError> {
        if !(lipschitz.is_finite() && lipschitz > 0.0) {
            return Err(EngineError::invalid(format!(
                "local penalty: Lipschitz constant {lipschitz} (must be positive and finite)"
            )));
        }
        if !best.is_finite() {
            return Err(EngineError::invalid(format!(
                "local penalty: largest observed value {best} (must be finite)"
            )));
        }
        if let Some(c) = centres
            .iter()
            .find(|c| !(c.mean.is_finite() && c.sd.is_finite() && c.sd > 0.0))
        {
            return Err(EngineError::invalid(format!(
                "local penalty: pending point {:?} has mean {} and standard deviation {} (must \
                 be finite, the deviation positive)",
                c.x, c.mean, c.sd
            )));
        }
        Ok(Self {
            centres,
            lipschitz,
            best,
        })
    }

    /// The Lipschitz constant `L`.
    pub fn lipschitz(&self) -> f64 {
        self.lipschitz
    }

    /// `Σⱼ ln φ(x; xⱼ)`: 0 far from every pending point, lowest at a pending point
    /// (`ln Φ((μ(xⱼ) − M)/σ(xⱼ))` there), finite or `−∞`.
    pub fn log_penalty(&self, x: &[f64]) -> f64 {
        self.centres
            .iter()
            .map(|c| {
                let distance = x
                    .iter()
                    .zip(&c.x)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<f64>()
                    .sqrt();
                normal_log_cdf((self.lipschitz * distance - self.best + c.mean) / c.sd)
            })
            .sum()
    }
}

/// How the inner acquisition's value becomes `ln g(α)`, the logarithm of a positive
/// acquisition the penalisers multiply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PenalizedScale {
    /// The inner value is already the logarithm of a positive acquisition (log EI).
    Logarithm,
    /// `g = softplus`, for an acquisition of any sign (UCB): `ln ln(1 + e^α)`.
    LogSoftplus,
}

impl PenalizedScale {
    fn apply(self, value: f64) -> f64 {
        match self {
            Self::Logarithm => value,
            Self::LogSoftplus => log_softplus(value),
        }
    }
}

/// `ln softplus(a) = ln ln(1 + eᵃ)` without overflow or underflow: `ln(a + ln(1 + e⁻ᵃ))` for
/// `a > 0`, `ln ln(1 + eᵃ)` down to `a = −700`, and `a` itself below (where
/// `ln(1 + eᵃ) = eᵃ` to f64 precision).
pub fn log_softplus(a: f64) -> f64 {
    if a > 0.0 {
        (a + (-a).exp().ln_1p()).ln()
    } else if a > -700.0 {
        a.exp().ln_1p().ln()
    } else {
        a
    }
}

/// An acquisition penalised around pending points: `ln g(α(x)) + Σⱼ ln φ(x; xⱼ)`, evaluated
/// row by row after the inner acquisition; finite or `−∞`, never NaN.
#[derive(Clone, Debug)]
pub struct LocallyPenalized<A> {
    inner: A,
    penalty: LocalPenalty,
    scale: PenalizedScale,
}

impl<A: Acquisition> LocallyPenalized<A> {
    /// `inner` on `scale`, penalised by `penalty` (whose centres are in `inner`'s coordinates).
    pub fn new(inner: A, penalty: LocalPenalty, scale: PenalizedScale) -> Self {
        Self {
            inner,
            penalty,
            scale,
        }
    }
}

impl<A: Acquisition> Acquisition for LocallyPenalized<A> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }

    fn evaluate(&self, engine: &dyn Engine, candidates: &Points) -> Result<Vec<f64>, EngineError> {
        let values = self.inner.evaluate(engine, candidates)?;
        Ok(values
            .into_iter()
            .zip(candidates.iter())
            .map(|(value, x)| {
                let penalized = self.scale.apply(value) + self.penalty.log_penalty(x);
                if penalized.is_nan() {
                    f64::NEG_INFINITY
                } else {
                    penalized
                }
            })
            .collect())
    }
}

/// An estimate of the Lipschitz constant of `gp`'s posterior mean: the largest norm of its
/// gradient at `points` (central differences, step 1e-5, on `engine`), or
/// [`FALLBACK_LIPSCHITZ`] where that is below [`MIN_LIPSCHITZ`] (the paper's
/// `L = max ‖∇μ(x)‖`, Section 3.2, taken over a sample instead of maximised).
pub fn mean_lipschitz(
    gp: &GpState,
    engine: &dyn Engine,
    points: &Points,
) -> Result<f64, EngineError> {
    let dim = points.dim();
    let per_call = (ROWS_PER_CALL / (2 * dim).max(1)).max(1);
    let mut largest: f64 = 0.0;
    for first in (0..points.rows()).step_by(per_call) {
        let last = (first + per_call).min(points.rows());
        let mut data = Vec::with_capacity((last - first) * 2 * dim * dim);
        for row in first..last {
            let x = points.row(row);
            for i in 0..dim {
                for sign in [-1.0, 1.0] {
                    let at = data.len() + i;
                    data.extend_from_slice(x);
                    data[at] += sign * GRADIENT_STEP;
                }
            }
        }
        let mean = engine.posterior(gp, &Points::new(data, dim)?)?.mean;
        for gradient in mean.chunks(2 * dim) {
            let norm = gradient
                .chunks(2)
                .map(|pair| ((pair[1] - pair[0]) / (2.0 * GRADIENT_STEP)).powi(2))
                .sum::<f64>()
                .sqrt();
            if norm.is_finite() {
                largest = largest.max(norm);
            }
        }
    }
    Ok(if largest < MIN_LIPSCHITZ {
        FALLBACK_LIPSCHITZ
    } else {
        largest
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bosweep_core::stats::normal_log_cdf;

    /// A constant acquisition, to see the penalty alone.
    struct Constant(f64);

    impl Acquisition for Constant {
        fn dim(&self) -> usize {
            1
        }

        fn evaluate(
            &self,
            _engine: &dyn Engine,
            candidates: &Points,
        ) -> Result<Vec<f64>, EngineError> {
            Ok(vec![self.0; candidates.rows()])
        }
    }

    /// `L = 2`, `M = 1`, one pending point at 0.5 with `μ = 0.4`, `σ = 0.3`: at distance `r` the
    /// penalty is `ln Φ((2r − 1 + 0.4)/0.3)`.
    #[test]
    fn the_penalty_is_the_normal_cdf_of_the_scaled_distance() {
        let penalty = LocalPenalty::new(
            vec![PenaltyCentre {
                x: vec![0.5],
                mean: 0.4,
                sd: 0.3,
            }],
            2.0,
            1.0,
        )
        .unwrap();
        let at_centre = penalty.log_penalty(&[0.5]);
        assert!((at_centre - normal_log_cdf((0.4 - 1.0) / 0.3)).abs() < 1e-15);
        assert!(
            (at_centre - (-3.783_184_333_682_032)).abs() < 1e-12,
            "{at_centre}"
        );
        let mut previous = at_centre;
        for r in [0.05, 0.1, 0.2, 0.3, 0.5] {
            let value = penalty.log_penalty(&[0.5 + r]);
            assert!((penalty.log_penalty(&[0.5 - r]) - value).abs() < 1e-12);
            assert!(
                (value - normal_log_cdf((2.0 * r - 0.6) / 0.3)).abs() < 1e-15,
                "{r}"
            );
            assert!(value > previous, "the penalty grows with the distance");
            previous = value;
        }

        let engine = bosweep_engine::CpuEngine::new();
        let candidates = Points::new(vec![0.5, 1.0], 1).unwrap();
        let wrapped =
            LocallyPenalized::new(Constant(-2.0), penalty.clone(), PenalizedScale::Logarithm);
        let values = wrapped.evaluate(&engine, &candidates).unwrap();
        assert_eq!(values[0], -2.0 + at_centre);
        let softplus = LocallyPenalized::new(Constant(0.0), penalty, PenalizedScale::LogSoftplus);
        let values = softplus.evaluate(&engine, &candidates).unwrap();
        assert!((values[0] - (std::f64::consts::LN_2.ln() + at_centre)).abs() < 1e-15);
    }

    #[test]
    fn log_softplus_is_stable_in_both_tails() {
        assert!((log_softplus(0.0) - std::f64::consts::LN_2.ln()).abs() < 1e-16);
        assert!((log_softplus(1e3) - 1e3f64.ln()).abs() < 1e-15);
        assert_eq!(log_softplus(-800.0), -800.0);
        assert!((log_softplus(-30.0) - (-30.0 - 0.5 * (-30.0f64).exp())).abs() < 1e-12);
        assert_eq!(log_softplus(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert!(log_softplus(f64::INFINITY).is_infinite());
    }

    #[test]
    fn penalty_refuses_a_zero_deviation_and_a_bad_lipschitz_constant() {
        let centre = |sd| PenaltyCentre {
            x: vec![0.0],
            mean: 0.0,
            sd,
        };
        assert!(LocalPenalty::new(vec![centre(0.0)], 1.0, 0.0).is_err());
        assert!(LocalPenalty::new(vec![centre(1.0)], 0.0, 0.0).is_err());
        assert!(LocalPenalty::new(vec![centre(1.0)], 1.0, f64::NAN).is_err());
    }
}
