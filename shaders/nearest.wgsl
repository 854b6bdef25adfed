// Index of the nearest data point to each query (squared Euclidean distance); the strict
// comparison keeps the lowest index among ties.
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> data: array<real>;
@group(0) @binding(2) var<storage, read> queries: array<real>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= p.m) {
        return;
    }
    var best_d: real = 0.0;
    var best_j = 0u;
    for (var j = 0u; j < p.n; j++) {
        var r2: real = 0.0;
        for (var d = 0u; d < p.dim; d++) {
            let z = queries[i * p.dim + d] - data[j * p.dim + d];
            r2 += z * z;
        }
        if (j == 0u || r2 < best_d) {
            best_d = r2;
            best_j = j;
        }
    }
    out[i] = best_j;
}
