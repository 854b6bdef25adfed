// Kernel values between (decision, context) pairs and the training points, from the two parts of
// the scaled squared distance: r²(i, j, k) = dx2[i, k] + dc2[j, k]. The pairs are never formed.
// Pair p = i * samples + j goes to column p of the transposed block kt (n rows, stride ld).
@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> dx2: array<real>;
@group(0) @binding(2) var<storage, read> dc2: array<real>;
@group(0) @binding(3) var<storage, read_write> kt: array<real>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let pair = gid.x;
    let k = gid.y;
    if (pair >= p.decisions * p.samples || k >= p.n) {
        return;
    }
    let i = pair / p.samples;
    let j = pair % p.samples;
    let r2 = dx2[i * p.n + k] + dc2[j * p.n + k];
    kt[k * p.ld + pair] = p.signal_var * kernel_profile(p.kind, r2, p.rq_alpha);
}
