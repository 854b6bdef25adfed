// Radial profiles ψ(r²) of the stationary kernels; `kind` follows KernelKind's GPU code.
const KIND_SE: u32 = 0u;
const KIND_MATERN12: u32 = 1u;
const KIND_MATERN32: u32 = 2u;
const KIND_MATERN52: u32 = 3u;
// KernelKind::MAX_SCALED_SQ_DISTANCE: the Matérn profiles clamp r² here so that a tiny
// lengthscale's overflowing distance gives 0, not (∞ · 0) = NaN.
const MAX_SCALED_SQ_DISTANCE: real = 1e30;

fn kernel_profile(kind: u32, r2: real, rq_alpha: real) -> real {
    if (kind == KIND_SE) {
        return r_exp(-0.5 * r2);
    }
    if (kind == KIND_MATERN12) {
        return r_exp(-sqrt(r2));
    }
    if (kind == KIND_MATERN32) {
        let s = sqrt(3.0 * min(r2, MAX_SCALED_SQ_DISTANCE));
        return (1.0 + s) * r_exp(-s);
    }
    if (kind == KIND_MATERN52) {
        let r2c = min(r2, MAX_SCALED_SQ_DISTANCE);
        let s = sqrt(5.0 * r2c);
        return (1.0 + s + 5.0 * r2c / 3.0) * r_exp(-s);
    }
    // Rational quadratic: (1 + r²/(2α))^(-α).
    return r_exp(-rq_alpha * r_log(1.0 + r2 / (2.0 * rq_alpha)));
}
