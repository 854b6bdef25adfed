// One pass of block-wise top-k selection: each workgroup sorts a block of 1024 keys in workgroup
// memory (bitonic sort) and keeps its first `keep`. Keys are f64 values mapped on the host to
// order-preserving u64 (hi, lo) words, so the order is exact whatever the shader precision;
// ties go to the lower index. Missing entries are padded with (0, 0, 0xffffffff), which sorts
// after every real key.
const BLOCK: u32 = 1024u;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> keys_out: array<vec4<u32>>;

var<workgroup> sorted: array<vec4<u32>, 1024>;

// Whether key a ranks before key b: larger value first, then lower index.
fn before(a: vec4<u32>, b: vec4<u32>) -> bool {
    if (a.x != b.x) {
        return a.x > b.x;
    }
    if (a.y != b.y) {
        return a.y > b.y;
    }
    return a.z < b.z;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let base = wg.x * BLOCK;
    for (var s = 0u; s < 4u; s++) {
        let e = lid.x + s * 256u;
        if (base + e < p.len) {
            sorted[e] = keys_in[base + e];
        } else {
            sorted[e] = vec4<u32>(0u, 0u, 0xffffffffu, 0u);
        }
    }
    workgroupBarrier();
    for (var size = 2u; size <= BLOCK; size <<= 1u) {
        for (var stride = size >> 1u; stride > 0u; stride >>= 1u) {
            for (var s = 0u; s < 4u; s++) {
                let e = lid.x + s * 256u;
                let partner = e ^ stride;
                if (partner > e) {
                    let x = sorted[e];
                    let y = sorted[partner];
                    let ascending = (e & size) == 0u;
                    if (select(before(x, y), before(y, x), ascending)) {
                        sorted[e] = y;
                        sorted[partner] = x;
                    }
                }
            }
            workgroupBarrier();
        }
    }
    for (var r = lid.x; r < p.keep; r += 256u) {
        keys_out[wg.x * p.keep + r] = sorted[r];
    }
}
