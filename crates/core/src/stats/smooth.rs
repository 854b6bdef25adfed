//! BoTorch's smooth, fat-tailed stand-ins for the ReLU and the maximum (Ament et al., NeurIPS
//! 2023), on which its log-space acquisitions (qLogNEI, qLogNEHVI) are built: finite logarithms
//! however far below zero an improvement lies, and slopes everywhere. Here, below the engine,
//! so that the engine's CPU reference and the acquisitions share one definition.

/// The slope of [`log_fatplus`] in `x`: `g'(u) / (τ g(u))` with `u = x/τ`,
/// `g(u) = softplus(u) + 0.1/(1 + u²)` and `g'(u) = sigmoid(u) − 0.2u/(1 + u²)²` (the softplus
/// and sigmoid cut off beyond |u| = 40 as the value's are).
pub fn log_fatplus_slope(x: f64, tau: f64) -> f64 {
    let u = x / tau;
    let sigmoid = if u < -40.0 {
        0.0
    } else if u > 40.0 {
        1.0
    } else {
        let e = (-u.abs()).exp();
        if u >= 0.0 {
            1.0 / (1.0 + e)
        } else {
            e / (1.0 + e)
        }
    };
    let q = 1.0 + u * u;
    (sigmoid - 0.2 * u / (q * q)) / (tau * (cut_softplus(u) + 0.1 / q))
}

/// `ln(1 + e^u)`, cut off beyond |u| = 40, where `ln(1 + e^{−|u|})` is below the last bit of
/// `softplus + 0.1/(1 + u²)`.
fn cut_softplus(u: f64) -> f64 {
    if u < -40.0 {
        0.0
    } else if u > 40.0 {
        u
    } else {
        u.max(0.0) + (-u.abs()).exp().ln_1p()
    }
}

/// The slope of [`fatmax`] in its first value, as autograd takes it through BoTorch's
/// `fatmax` (the maximum `M` differentiated at its arg-max): with `u_i = (M − v_i)/τ`,
/// `S = Σ p(u_i)` and `p'(u) = −2(2 + 2u)/(2 + 2u + u²)²`, it is
/// `[v_0 is the maximum] (1 + Σ p'(u_i)/S) − p'(u_0)/S`; 1 for one value.
pub fn fatmax_first_slope(values: &[f64], tau: f64) -> f64 {
    if values.len() == 1 {
        return 1.0;
    }
    let (arg_max, top) =
        values
            .iter()
            .copied()
            .enumerate()
            .fold(
                (0, f64::NEG_INFINITY),
                |b, (i, v)| if v > b.1 { (i, v) } else { b },
            );
    if !top.is_finite() {
        return if arg_max == 0 { 1.0 } else { 0.0 };
    }
    let (mut sum, mut slope_sum) = (0.0, 0.0);
    let mut first_slope = 0.0;
    for (i, v) in values.iter().enumerate() {
        let u = (top - v) / tau;
        let q = 2.0 + 2.0 * u + u * u;
        sum += 2.0 / q;
        let slope = -2.0 * (2.0 + 2.0 * u) / (q * q);
        slope_sum += slope;
        if i == 0 {
            first_slope = slope;
        }
    }
    let through_max = if arg_max == 0 {
        1.0 + slope_sum / sum
    } else {
        0.0
    };
    through_max - first_slope / sum
}

/// `ln fatplus(x; τ)`, BoTorch's fat-tailed softplus `τ (softplus(x/τ) + 0.1/(1 + (x/τ)²))`: a
/// smooth ReLU whose Cauchy tail keeps the logarithm finite (about `ln(0.1 τ³/x²)`) however far
/// below zero `x` lies.
pub fn log_fatplus(x: f64, tau: f64) -> f64 {
    let u = x / tau;
    (tau * (cut_softplus(u) + 0.1 / (1.0 + u * u))).ln()
}

/// BoTorch's `fatmax` over `values` with temperature `τ`: `M + τ ln Σ_i p((M − v_i)/τ)`, `M` the
/// largest value and `p(u) = 2/(2 + 2u + u²)` the Pareto-type kernel of decay 2. It is the
/// maximum itself for one value.
pub fn fatmax(values: &[f64], tau: f64) -> f64 {
    if let [value] = values {
        return *value;
    }
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return top;
    }
    let sum: f64 = values
        .iter()
        .map(|v| {
            let u = (top - v) / tau;
            2.0 / (2.0 + 2.0 * u + u * u)
        })
        .sum();
    top + tau * sum.ln()
}

/// `ln(mean(exp(values)))`, without overflow.
pub fn log_mean_exp(values: &[f64]) -> f64 {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return top;
    }
    let sum: f64 = values.iter().map(|v| (v - top).exp()).sum();
    top + (sum / values.len() as f64).ln()
}

/// The slopes of [`log_mean_exp`] in its values, its weights: `exp(v_s − top) / Σ exp(v − top)`.
pub fn log_mean_exp_weights(values: &[f64]) -> Vec<f64> {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = values.iter().map(|v| (v - top).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

/// BoTorch's `fatmin` of two values, `−fatmax(−a, −b)`: `min(a, b) − τ ln(1 + p(|a − b|/τ))`
/// with `p(u) = 2/(2 + 2u + u²)`. qLogEHVI takes it between a log improvement and the log side
/// length of a cell, so that a side is smoothly capped at the cell's extent.
pub fn fatmin_pair(a: f64, b: f64, tau: f64) -> f64 {
    if a.is_infinite() || b.is_infinite() {
        return a.min(b);
    }
    let u = (a - b).abs() / tau;
    a.min(b) - tau * (2.0 / (2.0 + 2.0 * u + u * u)).ln_1p()
}

/// The slope of [`fatmin_pair`] in `a`: with `u = |a − b|/τ` and `p'(u) = −2(2 + 2u)/(2 + 2u +
/// u²)²`, it is `[a < b] + sign(b − a) · p'(u)/(1 + p(u))`, and ½ at `a = b`, where the function
/// is smooth (both one-sided slopes are ½).
pub fn fatmin_pair_first_slope(a: f64, b: f64, tau: f64) -> f64 {
    if b.is_infinite() {
        return if b > 0.0 { 1.0 } else { 0.0 };
    }
    if a == b {
        // Both one-sided slopes are 1 − 1/2 = 1/2: the minimum's kink and the tail's cancel.
        return 0.5;
    }
    let u = (a - b).abs() / tau;
    let q = 2.0 + 2.0 * u + u * u;
    let p = 2.0 / q;
    let p_slope = -2.0 * (2.0 + 2.0 * u) / (q * q);
    // d/da of −τ ln(1 + p(|a − b|/τ)) = −p'(u) sign(a − b) / (1 + p).
    let through_tail = -p_slope * (a - b).signum() / (1.0 + p);
    let through_min = if a < b { 1.0 } else { 0.0 };
    through_min + through_tail
}

/// The inflection point of BoTorch's `fatmoid`, `1/√3`.
const FATMOID_SHIFT: f64 = 0.577_350_269_189_625_8;

/// `ln fatmoid(x)`, BoTorch's `log_fatmoid` (temperature 1): the logarithm of a smooth step with
/// a Cauchy tail, `fatmoid(x) = (2/3)/(1 + (x − m)²)` below 0 and `1 − (2/3)/(1 + (x + m)²)`
/// from 0 on, `m = 1/√3` (½ at 0). Its logarithm falls as `−2 ln|x|` rather than linearly,
/// so that a constraint's smoothed feasibility keeps a finite logarithm and a slope far inside
/// the infeasible region. BoTorch's constrained MC acquisitions add `ln fatmoid(−c/η)` per
/// constraint.
pub fn log_fatmoid(x: f64) -> f64 {
    if x < 0.0 {
        let u = x - FATMOID_SHIFT;
        (2.0 / 3.0 / (1.0 + u * u)).ln()
    } else {
        let v = x + FATMOID_SHIFT;
        (-(2.0 / 3.0) / (1.0 + v * v)).ln_1p()
    }
}

/// The slope of [`log_fatmoid`]: `−2u/(1 + u²)` with `u = x − m` below 0, and
/// `(4v/3) / ((1 + v²)² fatmoid(x))` with `v = x + m` from 0 on (both `√3/2` at 0).
pub fn log_fatmoid_slope(x: f64) -> f64 {
    if x < 0.0 {
        let u = x - FATMOID_SHIFT;
        -2.0 * u / (1.0 + u * u)
    } else {
        let v = x + FATMOID_SHIFT;
        let q = 1.0 + v * v;
        (4.0 * v / 3.0) / (q * q * (1.0 - 2.0 / 3.0 / q))
    }
}
