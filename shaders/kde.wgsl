// Log density of a Gaussian-product KDE at each query, one thread per query. Data and queries
// arrive divided by the bandwidths; the sum over data points is an online log-sum-exp, so
// nothing underflows in high dimension. out = lse_j(log w_j − ½‖q − c_j‖²) − log_norm.
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> data: array<real>;
@group(0) @binding(2) var<storage, read> log_w: array<real>;
@group(0) @binding(3) var<storage, read> queries: array<real>;
@group(0) @binding(4) var<storage, read_write> out: array<real>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= p.m) {
        return;
    }
    var top: real = 0.0;
    var sum: real = 0.0;
    for (var j = 0u; j < p.n; j++) {
        var r2: real = 0.0;
        for (var d = 0u; d < p.dim; d++) {
            let z = queries[i * p.dim + d] - data[j * p.dim + d];
            r2 += z * z;
        }
        let e = log_w[j] - 0.5 * r2;
        if (j == 0u) {
            top = e;
            sum = 1.0;
        } else if (e > top) {
            sum = sum * r_exp(top - e) + 1.0;
            top = e;
        } else {
            sum += r_exp(e - top);
        }
    }
    out[i] = top + r_log(sum) - p.log_norm;
}
