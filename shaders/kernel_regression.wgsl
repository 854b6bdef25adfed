// Nadaraya–Watson regression, one thread per query; data and queries arrive divided by the
// bandwidth, so z² = ‖q − x_j‖² / h². kind 0 (Gaussian) uses online softmax weights
// exp(−z²/2 − max) and writes ln W; kinds 1 (Epanechnikov) and 2 (uniform) write W itself (a sum
// of terms ≤ 1 that cannot underflow) and, where W = 0, the mean of the targets of the nearest
// data points (squared distances within a relative 1e-9 of the minimum).
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> data: array<real>;
@group(0) @binding(2) var<storage, read> targets: array<real>;
@group(0) @binding(3) var<storage, read> queries: array<real>;
@group(0) @binding(4) var<storage, read_write> out_mean: array<real>;
@group(0) @binding(5) var<storage, read_write> out_weight: array<real>;

fn sq_dist(i: u32, j: u32) -> real {
    var r2: real = 0.0;
    for (var d = 0u; d < p.dim; d++) {
        let z = queries[i * p.dim + d] - data[j * p.dim + d];
        r2 += z * z;
    }
    return r2;
}

fn compact_weight(z2: real) -> real {
    if (p.kind == 1u) {
        return max(1.0 - z2, 0.0);
    }
    let one: real = 1.0;
    let zero: real = 0.0;
    return select(zero, one, z2 <= 1.0);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= p.m) {
        return;
    }
    if (p.kind == 0u) {
        var top: real = 0.0;
        var sum: real = 0.0;
        var weighted: real = 0.0;
        for (var j = 0u; j < p.n; j++) {
            let s = -0.5 * sq_dist(i, j);
            if (j == 0u) {
                top = s;
                sum = 1.0;
                weighted = targets[j];
            } else if (s > top) {
                let scale = r_exp(top - s);
                sum = sum * scale + 1.0;
                weighted = weighted * scale + targets[j];
                top = s;
            } else {
                // s == top also where every distance overflows (both −∞): equal weights.
                let one: real = 1.0;
                let e = select(r_exp(s - top), one, s == top);
                sum += e;
                weighted += e * targets[j];
            }
        }
        out_mean[i] = weighted / sum;
        out_weight[i] = top + r_log(sum);
        return;
    }
    var w: real = 0.0;
    var wy: real = 0.0;
    var best = sq_dist(i, 0u);
    for (var j = 0u; j < p.n; j++) {
        let z2 = sq_dist(i, j);
        let k = compact_weight(z2);
        w += k;
        wy += k * targets[j];
        best = min(best, z2);
    }
    out_weight[i] = w;
    if (w > 0.0) {
        out_mean[i] = wy / w;
        return;
    }
    let limit = best * (1.0 + 1e-9);
    var sum: real = 0.0;
    var count: real = 0.0;
    for (var j = 0u; j < p.n; j++) {
        if (sq_dist(i, j) <= limit) {
            sum += targets[j];
            count += 1.0;
        }
    }
    out_mean[i] = sum / count;
}
