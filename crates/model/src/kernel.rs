//! Stationary covariance kernels with ARD lengthscales, and the optional time-decay factor of
//! the ε-forgetting model: `k((x, t), (x', t')) = k_s(x, x') (1 − ε)^{|t − t'|/2}` (Ziomek,
//! Adachi & Osborne, AISTATS 2025, Section 2; Bogunovic et al. 2016).

use bosweep_core::data::{EngineError, Points};

/// The radial profile of a stationary kernel, as a function of the scaled distance
/// `r² = Σ_d ((a_d − b_d) / ℓ_d)²`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KernelKind {
    /// `exp(−r²/2)`.
    SquaredExponential,
    /// Matérn ν = 1/2: `exp(−r)`.
    Matern12,
    /// Matérn ν = 3/2: `(1 + √3 r) exp(−√3 r)`.
    Matern32,
    /// Matérn ν = 5/2: `(1 + √5 r + 5r²/3) exp(−√5 r)`.
    Matern52,
    /// Rational quadratic: `(1 + r²/(2α))^(−α)`.
    RationalQuadratic {
        /// The shape α > 0: large α approaches the squared exponential.
        alpha: f64,
    },
}

bosweep_core::choices! {
    /// A kernel's family by the word a config gives it; the rational-quadratic kernel takes its
    /// shape apart ([`KernelFamily::with_shape`]).
    pub enum KernelFamily {
        /// [`KernelKind::SquaredExponential`].
        SquaredExponential = "se",
        /// [`KernelKind::Matern12`].
        Matern12 = "matern12",
        /// [`KernelKind::Matern32`].
        Matern32 = "matern32",
        /// [`KernelKind::Matern52`].
        Matern52 = "matern52",
        /// [`KernelKind::RationalQuadratic`].
        RationalQuadratic = "rq",
    }
}

impl KernelFamily {
    /// The kernel of this family; `rq_alpha` is the rational-quadratic kernel's shape α and
    /// is not read by the others.
    pub fn with_shape(self, rq_alpha: f64) -> KernelKind {
        match self {
            Self::SquaredExponential => KernelKind::SquaredExponential,
            Self::Matern12 => KernelKind::Matern12,
            Self::Matern32 => KernelKind::Matern32,
            Self::Matern52 => KernelKind::Matern52,
            Self::RationalQuadratic => KernelKind::RationalQuadratic { alpha: rq_alpha },
        }
    }
}

impl KernelKind {
    /// Parses the CLI names `se`/`rbf`, `matern12`, `matern32`, `matern52`, `rq` (α given apart).
    pub fn parse(name: &str, rq_alpha: f64) -> Option<Self> {
        Some(match name {
            "se" | "rbf" | "squared-exponential" => Self::SquaredExponential,
            "matern12" => Self::Matern12,
            "matern32" => Self::Matern32,
            "matern52" => Self::Matern52,
            "rq" | "rational-quadratic" => Self::RationalQuadratic { alpha: rq_alpha },
            _ => return None,
        })
    }

    /// The names [`KernelKind::parse`] takes, for messages.
    pub const NAMES: &'static str = "se, matern12, matern32, matern52, rq";

    /// The Matérn profiles' polynomial factor times `e^{-s}` is `∞ · 0 = NaN` once a tiny
    /// lengthscale makes the scaled squared distance overflow; every profile is already 0 (in
    /// f64 and in the shaders' f32) beyond this distance, so the Matérn-3/2 and -5/2 profiles
    /// clamp their argument to it. (The rational-quadratic kernel's heavy tail is not 0 there,
    /// and its formula gives the right limit 0 at ∞, so it is not clamped.)
    pub const MAX_SCALED_SQ_DISTANCE: f64 = 1e30;

    /// The profile at scaled squared distance `r2` (value 1 at r2 = 0).
    pub fn profile(self, r2: f64) -> f64 {
        match self {
            Self::SquaredExponential => exp_of_negative(0.5 * r2),
            Self::Matern12 => exp_of_negative(r2.sqrt()),
            Self::Matern32 => {
                let s = (3.0 * r2.min(Self::MAX_SCALED_SQ_DISTANCE)).sqrt();
                (1.0 + s) * exp_of_negative(s)
            }
            Self::Matern52 => {
                let r2 = r2.min(Self::MAX_SCALED_SQ_DISTANCE);
                let s = (5.0 * r2).sqrt();
                (1.0 + s + 5.0 * r2 / 3.0) * exp_of_negative(s)
            }
            Self::RationalQuadratic { alpha } => (1.0 + r2 / (2.0 * alpha)).powf(-alpha),
        }
    }
}

/// `e^{−s}`, equal to `(−s).exp()` bit for bit, without calling `exp` where the result is 0:
/// `e^{−746}` is below half the least subnormal, so it rounds to 0, and libm's underflow path
/// (which sets `errno`) took a tenth of a UHE-BO run whose small lengthscales put most pairs of
/// points that far apart.
#[inline]
pub(crate) fn exp_of_negative(s: f64) -> f64 {
    if s > 746.0 { 0.0 } else { (-s).exp() }
}

/// Multiplies the spatial kernel by `(1 − ε)^{|t − t'|/2}`, where `t` is the **last** input
/// column. `ε = 1` gives independent functions per time step (with `0⁰ = 1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeDecay {
    /// ε in [0, 1]: 0 is a function constant in time, 1 independent functions per step.
    pub epsilon: f64,
}

impl TimeDecay {
    /// `(1 − ε)^{|dt|/2}`, the correlation of two inputs `dt` time steps apart.
    pub fn factor(self, dt: f64) -> f64 {
        let dt = dt.abs();
        if dt == 0.0 {
            1.0
        } else {
            (1.0 - self.epsilon).powf(0.5 * dt)
        }
    }
}

/// A stationary kernel `s² · ψ(r²)` with one lengthscale per spatial input dimension, optionally
/// times a time-decay factor on an extra, last, time column.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    kind: KernelKind,
    lengthscales: Vec<f64>,
    signal_variance: f64,
    time_decay: Option<TimeDecay>,
}

impl Kernel {
    /// The range of lengthscales: `1/ℓ` overflows f64 below about 5.6e-309, and scaled
    /// coordinates `x/ℓ` then give `∞ − ∞ = NaN` distances (found by fuzzing); inside this range
    /// both `1/ℓ` and `1/ℓ²` are normal numbers.
    pub const MIN_LENGTHSCALE: f64 = 1e-150;
    /// The largest lengthscale (see [`Kernel::MIN_LENGTHSCALE`]).
    pub const MAX_LENGTHSCALE: f64 = 1e150;

    /// Validates every hyperparameter: lengthscales and variance positive and finite, RQ α > 0.
    pub fn new(
        kind: KernelKind,
        lengthscales: Vec<f64>,
        signal_variance: f64,
    ) -> Result<Self, EngineError> {
        if lengthscales.is_empty() {
            return Err(EngineError::invalid(
                "a kernel needs at least one lengthscale",
            ));
        }
        if let Some((i, l)) = lengthscales
            .iter()
            .enumerate()
            .find(|(_, l)| !(Self::MIN_LENGTHSCALE..=Self::MAX_LENGTHSCALE).contains(*l))
        {
            return Err(EngineError::invalid(format!(
                "lengthscale {i} is {l:e} (must lie in [{:e}, {:e}])",
                Self::MIN_LENGTHSCALE,
                Self::MAX_LENGTHSCALE
            )));
        }
        if !(signal_variance.is_finite() && signal_variance > 0.0) {
            return Err(EngineError::invalid(format!(
                "signal variance is {signal_variance} (must be positive and finite)"
            )));
        }
        if let KernelKind::RationalQuadratic { alpha } = kind
            && !(alpha.is_finite() && alpha > 0.0)
        {
            return Err(EngineError::invalid(format!(
                "rational-quadratic alpha is {alpha} (must be positive and finite)"
            )));
        }
        Ok(Self {
            kind,
            lengthscales,
            signal_variance,
            time_decay: None,
        })
    }

    /// Adds the time-decay factor; the kernel then takes one extra input column, the time.
    pub fn with_time_decay(mut self, epsilon: f64) -> Result<Self, EngineError> {
        if !(0.0..=1.0).contains(&epsilon) {
            return Err(EngineError::invalid(format!(
                "time-decay epsilon is {epsilon} (must lie in [0, 1])"
            )));
        }
        self.time_decay = Some(TimeDecay { epsilon });
        Ok(self)
    }

    /// The radial profile.
    pub fn kind(&self) -> KernelKind {
        self.kind
    }

    /// One lengthscale per spatial input column.
    pub fn lengthscales(&self) -> &[f64] {
        &self.lengthscales
    }

    /// The signal variance `s²`.
    pub fn signal_variance(&self) -> f64 {
        self.signal_variance
    }

    /// The time-decay factor on the last input column, if the kernel has one.
    pub fn time_decay(&self) -> Option<TimeDecay> {
        self.time_decay
    }

    /// Number of spatial (lengthscale-bearing) input columns.
    pub fn spatial_dim(&self) -> usize {
        self.lengthscales.len()
    }

    /// Number of input columns the kernel reads: spatial ones plus the time column if any.
    pub fn input_dim(&self) -> usize {
        self.lengthscales.len() + usize::from(self.time_decay.is_some())
    }

    /// `k(x, x)`, the same for every x since the kernel is stationary.
    pub fn diag(&self) -> f64 {
        self.signal_variance
    }

    /// Scaled squared distance over the spatial columns.
    pub fn scaled_sq_dist(&self, a: &[f64], b: &[f64]) -> f64 {
        self.lengthscales
            .iter()
            .zip(a.iter().zip(b))
            .map(|(l, (x, y))| {
                let z = (x - y) / l;
                z * z
            })
            .sum()
    }

    /// `k(a, b)` in f64: the reference every backend is checked against.
    pub fn eval(&self, a: &[f64], b: &[f64]) -> f64 {
        let spatial = self.signal_variance * self.kind.profile(self.scaled_sq_dist(a, b));
        match self.time_decay {
            None => spatial,
            Some(decay) => {
                let t = self.lengthscales.len();
                spatial * decay.factor(a[t] - b[t])
            }
        }
    }
}

/// The largest scaled coordinate `|x/ℓ|`. Both backends scale coordinates before differencing
/// them, so an overflowing `x/ℓ` gives `∞ − ∞ = NaN` (found by fuzzing: 1e300 over ℓ = 1e-150);
/// and the posterior forms squared distances as `‖a‖² + ‖b‖² − 2a·b`, so the squares must stay
/// finite too (found by fuzzing: a context of 1e300 over ℓ = 2.2). At 1e150 no sum of squares
/// overflows below 10⁷ dimensions.
pub const MAX_SCALED_COORDINATE: f64 = 1e150;

/// Checks that every coordinate of `points` in a lengthscale-bearing column, divided by its
/// lengthscale, stays below [`MAX_SCALED_COORDINATE`]; `points`' column 0 is the kernel's column
/// `first_column`.
pub fn scaled_coordinates(
    what: &str,
    kernel: &Kernel,
    points: &Points,
    first_column: usize,
) -> Result<(), EngineError> {
    let lengthscales = kernel.lengthscales();
    for i in 0..points.rows() {
        for (c, x) in points.row(i).iter().enumerate() {
            let Some(l) = lengthscales.get(first_column + c) else {
                continue;
            };
            if (x / l).abs() > MAX_SCALED_COORDINATE {
                return Err(EngineError::invalid(format!(
                    "{what}: coordinate {c} of point {i} is {x:e}; divided by its lengthscale \
                     {l:e} it overflows (|x/ℓ| must stay below {MAX_SCALED_COORDINATE:e})"
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::exp_of_negative;

    /// The shortcut is `exp` itself, bit for bit, on both sides of where it stops calling it.
    #[test]
    fn exp_of_negative_is_libms_exp_bit_for_bit() {
        let mut s = 0.0;
        while s < 760.0 {
            assert_eq!(
                exp_of_negative(s).to_bits(),
                (-s).exp().to_bits(),
                "s = {s}"
            );
            s += 0.0137;
        }
        for s in [
            745.0,
            745.1332191019411,
            745.1332191019412,
            746.0,
            1e30,
            f64::INFINITY,
        ] {
            assert_eq!(
                exp_of_negative(s).to_bits(),
                (-s).exp().to_bits(),
                "s = {s}"
            );
        }
        assert!(exp_of_negative(f64::NAN).is_nan());
        assert!(
            exp_of_negative(745.0) > 0.0,
            "a subnormal still comes from exp"
        );
    }
}
