// Smoothed log hypervolume improvement, one thread per (candidate, sample) draw: over the
// sample's cells c, ln Σ_c exp(Σ_j fatmin(ln fatplus(y_j − l_cj; τ_relu), ln len_cj; τ_max)),
// accumulated as a running log-sum-exp. Every cell has a finite lower corner and a positive
// side in each objective, so every term is finite and no infinity is needed.
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> lower: array<real>;
@group(0) @binding(2) var<storage, read> log_length: array<real>;
@group(0) @binding(3) var<storage, read> offsets: array<u32>;
@group(0) @binding(4) var<storage, read> draws: array<real>;
@group(0) @binding(5) var<storage, read_write> out: array<real>;

// ln(1 + e) for e in [0, 1]: a series below 1e-2, where 1 + e would lose e's low digits.
fn log_one_plus(e: real) -> real {
    if (e < 0.01) {
        var sum: real = 0.0;
        var power = e;
        for (var k = 1; k <= 8; k++) {
            if (k % 2 == 1) {
                sum += power / real(k);
            } else {
                sum -= power / real(k);
            }
            power *= e;
        }
        return sum;
    }
    return r_log(1.0 + e);
}

// ln(τ (softplus(x/τ) + 0.1/(1 + (x/τ)²))), BoTorch's log fat-tailed softplus; the softplus is
// cut off beyond |u| = 40 as the CPU reference's is.
fn log_fatplus(x: real) -> real {
    let u = x / p.tau_relu;
    let cauchy = 0.1 / (1.0 + u * u);
    if (u < -40.0) {
        return p.log_tau_relu + r_log(0.1) - r_log(1.0 + u * u);
    }
    if (u > 40.0) {
        return r_log(p.tau_relu * (u + cauchy));
    }
    let softplus = max(u, 0.0) + log_one_plus(r_exp(-abs(u)));
    return p.log_tau_relu + r_log(softplus + cauchy);
}

// BoTorch's fatmin of two values: min(a, b) − τ ln(1 + p(|a − b|/τ)), p(u) = 2/(2 + 2u + u²).
fn fatmin(a: real, b: real) -> real {
    let u = abs(a - b) / p.tau_max;
    return min(a, b) - p.tau_max * log_one_plus(2.0 / (2.0 + 2.0 * u + u * u));
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let k = gid.x;
    if (k >= p.count * p.samples) {
        return;
    }
    let s = k % p.samples;
    let y0 = k * p.m;
    var top: real = 0.0;
    var sum: real = 0.0;
    for (var c = offsets[s]; c < offsets[s + 1u]; c++) {
        var log_area: real = 0.0;
        for (var j = 0u; j < p.m; j++) {
            let side = log_fatplus(draws[y0 + j] - lower[c * p.m + j]);
            log_area += fatmin(side, log_length[c * p.m + j]);
        }
        if (c == offsets[s] || log_area > top) {
            sum = sum * r_exp(top - log_area) + 1.0;
            top = log_area;
        } else {
            sum += r_exp(log_area - top);
        }
    }
    out[k] = top + r_log(sum);
}
