// Reduces each row of `samples` UCB values u (one row per decision, one workgroup per row):
// mode 0 mean, mode 1 minimum, mode 2 the worst case over the total-variation ball
// (the dual of DRBO-KDE's Proposition 2, Huang et al., AAAI 2024, maximised exactly; see
// worst_case_tv in crates/engine/src/tv.rs): with floor = min(infimum[row], min u) and u_(k+1)
// the (k+1)-th largest value (k = ⌊δM/2⌋, ties by index), τ = max(u_(k+1), floor) (floor when
// k ≥ M) and value = mean(min(u, τ)) − (δ/2)(τ − floor).
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> u: array<real>;
@group(0) @binding(2) var<storage, read> infimum: array<real>;
@group(0) @binding(3) var<storage, read_write> out: array<real>;

var<workgroup> red: array<real, 256>;
var<workgroup> pivot: real;

fn reduce_sum(t: u32, v: real) -> real {
    workgroupBarrier();
    red[t] = v;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s >>= 1u) {
        if (t < s) {
            red[t] += red[t + s];
        }
        workgroupBarrier();
    }
    return red[0];
}

fn reduce_min(t: u32, v: real) -> real {
    workgroupBarrier();
    red[t] = v;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s >>= 1u) {
        if (t < s) {
            red[t] = min(red[t], red[t + s]);
        }
        workgroupBarrier();
    }
    return red[0];
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let row = wg.x;
    if (row >= p.rows) {
        return;
    }
    let t = lid.x;
    let base = row * p.samples;
    let inv_m = 1.0 / real(p.samples);
    if (p.mode == 0u) {
        var s: real = 0.0;
        for (var j = t; j < p.samples; j += 256u) {
            s += u[base + j];
        }
        let total = reduce_sum(t, s);
        if (t == 0u) {
            out[row] = total * inv_m;
        }
        return;
    }
    var lo = u[base];
    for (var j = t; j < p.samples; j += 256u) {
        lo = min(lo, u[base + j]);
    }
    let smallest = reduce_min(t, lo);
    if (p.mode == 1u) {
        if (t == 0u) {
            out[row] = smallest;
        }
        return;
    }
    let floor_value = min(infimum[row], smallest);
    var tau = floor_value;
    if (p.k < p.samples) {
        for (var j = t; j < p.samples; j += 256u) {
            let uj = u[base + j];
            var rank = 0u;
            for (var l = 0u; l < p.samples; l++) {
                let ul = u[base + l];
                if (ul > uj || (ul == uj && l < j)) {
                    rank++;
                }
            }
            if (rank == p.k) {
                pivot = uj;
            }
        }
        workgroupBarrier();
        tau = max(pivot, floor_value);
    }
    var s: real = 0.0;
    for (var j = t; j < p.samples; j += 256u) {
        s += min(u[base + j], tau);
    }
    let total = reduce_sum(t, s);
    if (t == 0u) {
        out[row] = total * inv_m - 0.5 * p.delta * (tau - floor_value);
    }
}
