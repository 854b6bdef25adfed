// Sample paths of a GP posterior by pathwise conditioning at one chunk of candidates, and each
// workgroup's best candidate per path (the larger value; the lower index among ties). A thread
// evaluates one candidate for the (up to) four paths of its workgroup row:
//   f_s(x) = mean + amplitude · Σ_f w_fs cos(ω_f · x + b_f) + Σ_j k(x, X_j) v_js,
// with x and X already divided by the lengthscales. Excluded candidates (a sorted list of
// global indices) and rows past the chunk take no part.
const THREADS: u32 = 256u;
const PATHS: u32 = 4u;
const NONE: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> p: Params;
// count × dim scaled candidates.
@group(0) @binding(1) var<storage, read> cand: array<real>;
// features × (dim + 1): each frequency ω_f, then its phase b_f.
@group(0) @binding(2) var<storage, read> basis: array<real>;
// n × dim scaled training inputs.
@group(0) @binding(3) var<storage, read> train: array<real>;
// (features + n) × paths: the prior weights w, then the update weights v.
@group(0) @binding(4) var<storage, read> weights: array<real>;
@group(0) @binding(5) var<storage, read> excluded: array<u32>;
// paths × groups_total partial bests.
@group(0) @binding(6) var<storage, read_write> part_value: array<real>;
@group(0) @binding(7) var<storage, read_write> part_index: array<u32>;

var<workgroup> best_value: array<real, 1024>;
var<workgroup> best_index: array<u32, 1024>;

fn is_excluded(index: u32) -> bool {
    var lo = 0u;
    var hi = p.excluded;
    while (lo < hi) {
        let mid = (lo + hi) / 2u;
        let e = excluded[mid];
        if (e == index) {
            return true;
        }
        if (e < index) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return false;
}

// Whether (v, i) beats the best so far (bv, bi); NONE marks no candidate.
fn beats(v: real, i: u32, bv: real, bi: u32) -> bool {
    if (i == NONE) {
        return false;
    }
    if (bi == NONE) {
        return true;
    }
    return v > bv || (v == bv && i < bi);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let row = wg.x * THREADS + lid.x;
    let s0 = wg.y * PATHS;
    let np = min(PATHS, p.paths - s0);
    let index = p.first + row;
    let live = row < p.count && !is_excluded(index);
    var value: array<real, 4>;
    if (live) {
        let x0 = row * p.dim;
        let stride = p.dim + 1u;
        var prior: array<real, 4>;
        for (var f = 0u; f < p.features; f++) {
            var theta = basis[f * stride + p.dim];
            for (var k = 0u; k < p.dim; k++) {
                theta += basis[f * stride + k] * cand[x0 + k];
            }
            let c = r_cos(theta);
            for (var j = 0u; j < np; j++) {
                prior[j] += weights[f * p.paths + s0 + j] * c;
            }
        }
        for (var j = 0u; j < np; j++) {
            value[j] = p.mean + p.amplitude * prior[j];
        }
        for (var t = 0u; t < p.n; t++) {
            var r2: real = 0.0;
            for (var k = 0u; k < p.dim; k++) {
                let z = cand[x0 + k] - train[t * p.dim + k];
                r2 += z * z;
            }
            let kv = p.signal_var * kernel_profile(p.kind, r2, 0.0);
            for (var j = 0u; j < np; j++) {
                value[j] += kv * weights[(p.features + t) * p.paths + s0 + j];
            }
        }
    }
    for (var j = 0u; j < PATHS; j++) {
        best_value[j * THREADS + lid.x] = value[j];
        best_index[j * THREADS + lid.x] = select(NONE, index, live);
    }
    workgroupBarrier();
    for (var width = THREADS / 2u; width > 0u; width /= 2u) {
        if (lid.x < width) {
            for (var j = 0u; j < np; j++) {
                let a = j * THREADS + lid.x;
                let b = a + width;
                if (beats(best_value[b], best_index[b], best_value[a], best_index[a])) {
                    best_value[a] = best_value[b];
                    best_index[a] = best_index[b];
                }
            }
        }
        workgroupBarrier();
    }
    if (lid.x == 0u) {
        for (var j = 0u; j < np; j++) {
            let at = (s0 + j) * p.groups_total + p.group_offset + wg.x;
            part_value[at] = best_value[j * THREADS];
            part_index[at] = best_index[j * THREADS];
        }
    }
}
