// The best of the partial bests of each path (workgroup = path): a strided pass per thread,
// then a tree in workgroup memory; the larger value wins, the lower index among ties.
const THREADS: u32 = 256u;
const NONE: u32 = 0xffffffffu;

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> part_value: array<real>;
@group(0) @binding(2) var<storage, read> part_index: array<u32>;
@group(0) @binding(3) var<storage, read_write> out_value: array<real>;
@group(0) @binding(4) var<storage, read_write> out_index: array<u32>;

var<workgroup> best_value: array<real, 256>;
var<workgroup> best_index: array<u32, 256>;

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
    let path = wg.x;
    var bv: real = 0.0;
    var bi = NONE;
    for (var g = lid.x; g < p.groups; g += THREADS) {
        let v = part_value[path * p.groups + g];
        let i = part_index[path * p.groups + g];
        if (beats(v, i, bv, bi)) {
            bv = v;
            bi = i;
        }
    }
    best_value[lid.x] = bv;
    best_index[lid.x] = bi;
    workgroupBarrier();
    for (var width = THREADS / 2u; width > 0u; width /= 2u) {
        if (lid.x < width) {
            let b = lid.x + width;
            if (beats(best_value[b], best_index[b], best_value[lid.x], best_index[lid.x])) {
                best_value[lid.x] = best_value[b];
                best_index[lid.x] = best_index[b];
            }
        }
        workgroupBarrier();
    }
    if (lid.x == 0u) {
        out_value[path] = best_value[0];
        out_index[path] = best_index[0];
    }
}
