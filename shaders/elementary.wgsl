// One generation of an elementary (Wolfram) rule on rings of `width` cells, bit-packed as in
// SPEC 5. One buffer holds the rows: the engine keeps two copies of its rings and ping-pongs
// between them; the app's space-time diagram writes each new generation into the next row of a
// scrolling ring of rows, so nothing is read back to draw it.

struct Params {
    width: u32,
    // u32 words per row (a whole number of 64-bit words).
    words: u32,
    last_word: u32,
    // Cells in the last word, 1..=32.
    last_bits: u32,
    // Rings to update, and where the source and destination rows start (in words).
    rows: u32,
    src_base: u32,
    dst_base: u32,
    // The Wolfram number: bit k is the new state for neighbourhood (left, self, right) = k.
    rule: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let w = gid.x;
    let row = wg.y + wg.z * groups.y;
    if w >= params.words || row >= params.rows {
        return;
    }
    let base = params.src_base + row * params.words;
    let out = params.dst_base + row * params.words + w;
    if w > params.last_word {
        cells[out] = 0u;
        return;
    }
    var c = cells[base + w];
    var prev = 0u;
    if w == 0u {
        prev = ((cells[base + params.last_word] >> (params.last_bits - 1u)) & 1u) << 31u;
    } else {
        prev = cells[base + w - 1u];
    }
    var next = 0u;
    if w == params.last_word {
        let first = cells[base] & 1u;
        if params.last_bits == 32u {
            next = first;
        } else {
            c |= first << params.last_bits;
        }
    } else {
        next = cells[base + w + 1u];
    }
    let l = (c << 1u) | (prev >> 31u);
    let r = (c >> 1u) | (next << 31u);
    var result = 0u;
    for (var k = 0u; k < 8u; k++) {
        if ((params.rule >> k) & 1u) == 1u {
            let ml = select(~l, l, (k & 4u) != 0u);
            let mc = select(~c, c, (k & 2u) != 0u);
            let mr = select(~r, r, (k & 1u) != 0u);
            result |= ml & mc & mr;
        }
    }
    if w == params.last_word && params.last_bits < 32u {
        result &= (1u << params.last_bits) - 1u;
    }
    cells[out] = result;
}
