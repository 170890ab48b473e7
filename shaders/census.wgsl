// A census of one band of the torus into one slot of `totals`: the population, as a 64-bit
// count in two words, and two 32-bit order-independent hashes of the cells (sums of a hash of
// each word and its position), which period detection uses to spot repeated states without
// reading the grid back. Every band of a generation adds into the same slot.

struct Params {
    // Words in this band, and the index of its first word on the torus.
    words: u32,
    first_word: u32,
    // The slot to add into.
    slot: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> cells: array<u32>;
// Per slot: population low word, population high word, hash a, hash b.
@group(0) @binding(2) var<storage, read_write> totals: array<atomic<u32>>;

var<workgroup> pop: atomic<u32>;
var<workgroup> ha: atomic<u32>;
var<workgroup> hb: atomic<u32>;

// mix32 (lowbias32) comes from shaders/hash.wgsl, which src/gpu/census.rs prepends.

@compute @workgroup_size(256, 1, 1)
fn main(
    @builtin(local_invocation_index) local: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    if local == 0u {
        atomicStore(&pop, 0u);
        atomicStore(&ha, 0u);
        atomicStore(&hb, 0u);
    }
    workgroupBarrier();
    let group = wg.x + wg.y * groups.x;
    let stride = groups.x * groups.y * 256u;
    var count = 0u;
    var a = 0u;
    var b = 0u;
    // At most 64 words per invocation, so a workgroup's count fits in 32 bits.
    for (var i = group * 256u + local; i < params.words; i += stride) {
        let w = cells[i];
        count += countOneBits(w);
        if w != 0u {
            let at = params.first_word + i;
            a += mix32(w ^ mix32(at));
            b += mix32(w + mix32(at ^ 0x9e3779b9u));
        }
    }
    atomicAdd(&pop, count);
    atomicAdd(&ha, a);
    atomicAdd(&hb, b);
    workgroupBarrier();
    if local == 0u {
        let base = params.slot * 4u;
        let add = atomicLoad(&pop);
        let before = atomicAdd(&totals[base], add);
        if before + add < before {
            atomicAdd(&totals[base + 1u], 1u);
        }
        atomicAdd(&totals[base + 2u], atomicLoad(&ha));
        atomicAdd(&totals[base + 3u], atomicLoad(&hb));
    }
}

// Copies a census kept elsewhere into slot params.slot: the tile kernel's, which it keeps
// current in the words from params.first_word of `cells` (bound to its control words).
@compute @workgroup_size(1, 1, 1)
fn copy_census() {
    let base = params.slot * 4u;
    for (var k = 0u; k < 4u; k++) {
        atomicStore(&totals[base + k], cells[params.first_word + k]);
    }
}
