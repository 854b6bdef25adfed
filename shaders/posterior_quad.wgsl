// Partial sums of ‖L⁻¹ k_x‖² over one group of 256 rows of L⁻¹, for 64 candidates per workgroup:
// a GEMM of the transposed kernel block kt (n × ld) with a panel of the packed lower-triangular
// L⁻¹, skipping the zero upper triangle. Each thread owns 4 candidates × 4 rows; the squares of
// its outputs are summed per candidate and reduced across the workgroup, then written to
// part[(part_off + group) * ld + i]. posterior_finish adds the groups up.
const ROWS_PER_GROUP: u32 = 256u;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> kt: array<real>;
@group(0) @binding(2) var<storage, read> linv: array<real>;
@group(0) @binding(3) var<storage, read_write> part: array<real>;

// [0, 1024): kernel tile [16 k][64 candidates]; [1024, 2048): L⁻¹ tile [16 k][64 rows].
var<workgroup> tile: array<real, 2048>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let i0 = wg.x * 64u;
    let group = wg.y;
    let gj0 = p.j0 + group * ROWS_PER_GROUP;
    let gj1 = min(gj0 + ROWS_PER_GROUP, p.j1);
    let flat = lid.y * 16u + lid.x;
    var q: array<real, 4>;
    for (var jt = gj0; jt < gj1; jt += 64u) {
        var acc: array<real, 16>;
        let kend = min(jt + 64u, p.n);
        for (var k0 = 0u; k0 < kend; k0 += 16u) {
            for (var s = 0u; s < 4u; s++) {
                let f = flat + s * 256u;
                let ka = k0 + f / 64u;
                let ia = i0 + f % 64u;
                var va: real = 0.0;
                if (ka < p.n && ia < p.count) {
                    va = kt[ka * p.ld + ia];
                }
                tile[f] = va;
                let jb = jt + f / 16u;
                let kb = k0 + f % 16u;
                var vb: real = 0.0;
                if (jb < gj1 && kb <= jb) {
                    vb = linv[(jb * (jb + 1u)) / 2u - p.panel_base + kb];
                }
                tile[1024u + (f % 16u) * 64u + f / 16u] = vb;
            }
            workgroupBarrier();
            for (var kk = 0u; kk < 16u; kk++) {
                var xa: array<real, 4>;
                var xb: array<real, 4>;
                for (var c = 0u; c < 4u; c++) {
                    xa[c] = tile[kk * 64u + lid.x * 4u + c];
                    xb[c] = tile[1024u + kk * 64u + lid.y * 4u + c];
                }
                for (var r = 0u; r < 4u; r++) {
                    for (var c = 0u; c < 4u; c++) {
                        acc[r * 4u + c] += xa[r] * xb[c];
                    }
                }
            }
            workgroupBarrier();
        }
        for (var r = 0u; r < 4u; r++) {
            for (var c = 0u; c < 4u; c++) {
                q[r] += acc[r * 4u + c] * acc[r * 4u + c];
            }
        }
    }
    for (var r = 0u; r < 4u; r++) {
        tile[lid.y * 64u + lid.x * 4u + r] = q[r];
    }
    workgroupBarrier();
    if (lid.y == 0u) {
        for (var r = 0u; r < 4u; r++) {
            let i = i0 + lid.x * 4u + r;
            var sum: real = 0.0;
            for (var y = 0u; y < 16u; y++) {
                sum += tile[y * 64u + lid.x * 4u + r];
            }
            if (i < p.count) {
                part[(p.part_off + group) * p.ld + i] = sum;
            }
        }
    }
}
