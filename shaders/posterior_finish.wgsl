// Posterior mean m + k_xᵀ α and variance max(k(x,x) − Σ_groups part, 0) / λ per candidate.
// mode 0 writes mean to out[i] and variance to out[ld + i]; mode 1 writes the UCB
// mean + β·σ to out[i] (the values a pair reduction consumes).
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> kt: array<real>;
@group(0) @binding(2) var<storage, read> alpha: array<real>;
@group(0) @binding(3) var<storage, read> part: array<real>;
@group(0) @binding(4) var<storage, read_write> out: array<real>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= p.count) {
        return;
    }
    var mean: real = 0.0;
    for (var k = 0u; k < p.n; k++) {
        mean += alpha[k] * kt[k * p.ld + i];
    }
    mean += p.prior_mean;
    var quad: real = 0.0;
    for (var g = 0u; g < p.groups; g++) {
        quad += part[g * p.ld + i];
    }
    let variance = max(p.kxx - quad, 0.0) * p.inv_lambda;
    if (p.mode == 0u) {
        out[i] = mean;
        out[p.ld + i] = variance;
    } else {
        out[i] = mean + p.beta * sqrt(variance);
    }
}
