// Cross-covariance (or scaled squared distance) between the rows of `a` and `b`, tiled 64 × 64 per
// workgroup with 16 input columns staged in workgroup memory at a time; each thread owns a 4 × 4
// block of outputs. Output (i, k) goes to out[i * stride_a + k * stride_b], so the same shader
// writes row-major matrices and the transposed kernel blocks the posterior consumes.
const TILE: u32 = 64u;
const DEPTH: u32 = 16u;
const FLAG_DISTANCE: u32 = 1u;
const FLAG_DECAY: u32 = 2u;
const FLAG_DECAY_TO_ZERO: u32 = 4u;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> a: array<real>;
@group(0) @binding(2) var<storage, read> b: array<real>;
@group(0) @binding(3) var<storage, read> inv_ls: array<real>;
@group(0) @binding(4) var<storage, read_write> out: array<real>;

var<workgroup> tile_a: array<real, 1024>;
var<workgroup> tile_b: array<real, 1024>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let i0 = wg.y * TILE;
    let k0 = wg.x * TILE;
    let flat = lid.y * 16u + lid.x;
    var acc: array<real, 16>;
    for (var c0 = 0u; c0 < p.cols; c0 += DEPTH) {
        for (var s = 0u; s < 4u; s++) {
            let f = flat + s * 256u;
            let row = f / DEPTH;
            let col = f % DEPTH;
            let c = c0 + col;
            var va: real = 0.0;
            var vb: real = 0.0;
            if (c < p.cols) {
                let il = inv_ls[p.ls_off + c];
                if (i0 + row < p.rows_a) {
                    va = a[(i0 + row) * p.dim_a + p.a_off + c] * il;
                }
                if (k0 + row < p.rows_b) {
                    vb = b[(k0 + row) * p.dim_b + p.b_off + c] * il;
                }
            }
            tile_a[col * TILE + row] = va;
            tile_b[col * TILE + row] = vb;
        }
        workgroupBarrier();
        let depth = min(DEPTH, p.cols - c0);
        for (var d = 0u; d < depth; d++) {
            var xa: array<real, 4>;
            var xb: array<real, 4>;
            for (var q = 0u; q < 4u; q++) {
                xa[q] = tile_a[d * TILE + lid.x * 4u + q];
                xb[q] = tile_b[d * TILE + lid.y * 4u + q];
            }
            for (var ii = 0u; ii < 4u; ii++) {
                for (var kk = 0u; kk < 4u; kk++) {
                    let z = xa[ii] - xb[kk];
                    acc[ii * 4u + kk] += z * z;
                }
            }
        }
        workgroupBarrier();
    }
    for (var ii = 0u; ii < 4u; ii++) {
        let i = i0 + lid.x * 4u + ii;
        for (var kk = 0u; kk < 4u; kk++) {
            let k = k0 + lid.y * 4u + kk;
            if (i < p.rows_a && k < p.rows_b) {
                var v = acc[ii * 4u + kk];
                if ((p.flags & FLAG_DISTANCE) == 0u) {
                    v = p.signal_var * kernel_profile(p.kind, v, p.rq_alpha);
                    if ((p.flags & FLAG_DECAY) != 0u) {
                        let dt = abs(a[i * p.dim_a + p.a_off + p.cols] - b[k * p.dim_b + p.b_off + p.cols]);
                        if (dt > 0.0) {
                            if ((p.flags & FLAG_DECAY_TO_ZERO) != 0u) {
                                v = 0.0;
                            } else {
                                v *= r_exp(p.log_rho * dt);
                            }
                        }
                    }
                }
                out[i * p.stride_a + k * p.stride_b] = v;
            }
        }
    }
}
