// One generation of a Life-like rule on a bit-packed torus (SPEC 5's layout: rows padded to
// whole 64-bit words, least significant bit first, seen here as u32 words).
//
// One invocation updates one 32-cell word in ROWS consecutive rows, so each input row is loaded
// once per invocation instead of three times. Neighbours are counted bit-sliced with full
// adders on whole words; the rule is then word-wide boolean logic, generated from the rule
// (`rule_fn`, appended by src/gpu/life.rs) or read from the uniform table.
//
// A torus too big for one storage binding is split into bands of rows, each its own buffer;
// a dispatch writes one band and reads the band above and below for its edge rows. With one
// band, `above`, `src` and `below` are the same buffer, which is the torus's vertical wrap.

struct Params {
    // Cells per row.
    width: u32,
    // u32 words per row: the stride, a whole number of 64-bit words.
    words: u32,
    // The index of the last word that holds cells, and how many cells it holds (1..=32).
    last_word: u32,
    last_bits: u32,
    // Rows of this band, rows of the band above, and this band's first row on the torus.
    band_rows: u32,
    above_rows: u32,
    row_offset: u32,
    // Groups of ROWS rows in this band.
    row_groups: u32,
    // This generation's stochastic key.
    key: u32,
    // Bit c: alive next at count value c, for a dead and for a live cell (the generic path).
    dead_bits: u32,
    alive_bits: u32,
    // 1: rows and columns are swapped on the device (a tall, thin torus).
    transposed: u32,
    // Stochastic thresholds per count value c, for a dead and for a live cell (0: no chance).
    dead_threshold: array<vec4<u32>, 3>,
    alive_threshold: array<vec4<u32>, 3>,
    // The rest serves the kernels of shaders/tiles.wgsl.
    // Rows of the whole torus, and how many bands it is cut into.
    height: u32,
    bands: u32,
    // This band's index, the tiles across the torus, this band's first tile (tiles are numbered
    // row by row over the whole torus) and its rows of tiles.
    band: u32,
    tiles_x: u32,
    band_first_tile: u32,
    band_tile_rows: u32,
    // 1: every tile of the band is computed (the workgroup index is the tile); 0: the list.
    all_tiles: u32,
    // 1: a tile's change is measured against the generation before the current one, so that
    // period-2 oscillators count as settled (deterministic rules); 0: against the current one.
    compare_prev: u32,
    // Generations per dispatch of the blocked kernel, and the key of each (stochastic rules).
    block: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    keys: array<vec4<u32>, 8>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> above: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read> below: array<u32>;
@group(0) @binding(4) var<storage, read_write> dst: array<u32>;

// Output rows per invocation.
override ROWS: u32 = 4u;

// Set by rule_fn when a cell's outcome was drawn by chance: such a tile is not settled even
// if nothing in it changed (shaders/tiles.wgsl).
var<private> drew: u32 = 0u;

// Word w of row r of this band; rows before 0 and from band_rows on reach into the neighbouring
// bands (as far as one band's rows).
fn word_at(r: i32, w: u32) -> u32 {
    if r < 0 {
        return above[u32(i32(params.above_rows) + r) * params.words + w];
    }
    let ru = u32(r);
    if ru >= params.band_rows {
        return below[(ru - params.band_rows) * params.words + w];
    }
    return src[ru * params.words + w];
}

// A row's word seen three ways: each cell's west neighbour, the cell itself, its east
// neighbour. The torus wrap is injected at the row's ends: cell W-1 is the west neighbour of
// cell 0, and cell 0 the east neighbour of cell W-1, at any width.
struct Tri {
    w: u32,
    c: u32,
    e: u32,
}

fn tri(r: i32, w: u32) -> Tri {
    var c = word_at(r, w);
    var prev = 0u;
    if w == 0u {
        let last = word_at(r, params.last_word);
        prev = ((last >> (params.last_bits - 1u)) & 1u) << 31u;
    } else {
        prev = word_at(r, w - 1u);
    }
    var next = 0u;
    if w == params.last_word {
        let first = word_at(r, 0u) & 1u;
        if params.last_bits == 32u {
            next = first;
        } else {
            // The first padding bit stands in for cell 0.
            c |= first << params.last_bits;
        }
    } else {
        next = word_at(r, w + 1u);
    }
    return Tri((c << 1u) | (prev >> 31u), c, (c >> 1u) | (next << 31u));
}

// Count planes: bit i of plane k is bit k of cell i's count value.
struct Planes {
    p0: u32,
    p1: u32,
    p2: u32,
    p3: u32,
}

// Moore: the 3-row column sums of columns x-1, x, x+1 add up to t = n + alive (0..9).
fn moore_planes(u: Tri, m: Tri, d: Tri) -> Planes {
    // Vertical full adders, one per column position.
    let wx = u.w ^ m.w;
    let w0 = wx ^ d.w;
    let w1 = (u.w & m.w) | (wx & d.w);
    let cx = u.c ^ m.c;
    let c0 = cx ^ d.c;
    let c1 = (u.c & m.c) | (cx & d.c);
    let ex = u.e ^ m.e;
    let e0 = ex ^ d.e;
    let e1 = (u.e & m.e) | (ex & d.e);
    // Ones, then four bits of weight two.
    let x = w0 ^ c0;
    let b0 = x ^ e0;
    let k = (w0 & c0) | (x & e0);
    let y = w1 ^ c1;
    let p = y ^ e1;
    let q = (w1 & c1) | (y & e1);
    let b1 = p ^ k;
    let k2 = p & k;
    return Planes(b0, b1, q ^ k2, q & k2);
}

// Hexagonal: (-1,-1), (0,-1), (-1,0), (1,0), (0,1), (1,1).
fn hex_planes(u: Tri, m: Tri, d: Tri) -> Planes {
    let x = u.w ^ u.c;
    let s1 = x ^ m.w;
    let c1 = (u.w & u.c) | (x & m.w);
    let y = m.e ^ d.c;
    let s2 = y ^ d.e;
    let c2 = (m.e & d.c) | (y & d.e);
    let c3 = s1 & s2;
    let z = c1 ^ c2;
    return Planes(s1 ^ s2, z ^ c3, (c1 & c2) | (z & c3), 0u);
}

// Von Neumann: up, left, right, down.
fn von_neumann_planes(u: Tri, m: Tri, d: Tri) -> Planes {
    let x = u.c ^ m.w;
    let y = m.e ^ d.c;
    let ca = u.c & m.w;
    let cb = m.e & d.c;
    let cx = x & y;
    let z = ca ^ cb;
    return Planes(x ^ y, z ^ cx, (ca & cb) | (z & cx), 0u);
}

// All ones where the count value is c.
fn equal(t: Planes, c: u32) -> u32 {
    let i0 = (c & 1u) - 1u;
    let i1 = ((c >> 1u) & 1u) - 1u;
    let i2 = ((c >> 2u) & 1u) - 1u;
    let i3 = ((c >> 3u) & 1u) - 1u;
    return (t.p0 ^ i0) & (t.p1 ^ i1) & (t.p2 ^ i2) & (t.p3 ^ i3);
}

// The rule read from the uniform table: a loop over every count value.
fn generic_rule(t: Planes, alive: u32) -> u32 {
    var next = 0u;
    for (var c = 0u; c < 10u; c++) {
        let dead_mask = 0u - ((params.dead_bits >> c) & 1u);
        let alive_mask = 0u - ((params.alive_bits >> c) & 1u);
        next |= equal(t, c) & ((~alive & dead_mask) | (alive & alive_mask));
    }
    return next;
}

// Cells whose count value has a stochastic outcome draw their hash one by one, at their own
// place on the torus: bit b stands for cell xbase + b (taken round the torus: the blocked kernel
// holds copies of cells beyond either end of a row) of row y, under the generation's key.
fn chance(t: Planes, alive: u32, candidates: u32, key: u32, xbase: i32, y: u32) -> u32 {
    var born = 0u;
    var rest = candidates;
    loop {
        if rest == 0u {
            break;
        }
        let b = firstTrailingBit(rest);
        rest &= rest - 1u;
        let c = ((t.p0 >> b) & 1u) | (((t.p1 >> b) & 1u) << 1u) | (((t.p2 >> b) & 1u) << 2u) | (((t.p3 >> b) & 1u) << 3u);
        var limit = params.dead_threshold[c >> 2u][c & 3u];
        if ((alive >> b) & 1u) == 1u {
            limit = params.alive_threshold[c >> 2u][c & 3u];
        }
        let wd = i32(params.width);
        var x = u32((((xbase + i32(b)) % wd) + wd) % wd);
        var yy = y;
        if params.transposed == 1u {
            // The torus's own coordinates: the draw does not depend on the layout.
            let t = x;
            x = yy;
            yy = t;
        }
        if cell_hash(key, x, yy) < limit {
            born |= 1u << b;
        }
    }
    return born;
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    // One invocation per (word, group of ROWS rows), numbered across the whole dispatch, so that
    // the shape follows the torus: a tall, thin torus fills its workgroups with row groups as a
    // wide one fills them with words. The dispatch is 2D or 3D only because one dimension is
    // capped at 65535 workgroups.
    let flat = (wg.x + groups.x * (wg.y + groups.y * wg.z)) * 64u + li;
    let w = flat % params.words;
    let group = flat / params.words;
    if group >= params.row_groups {
        return;
    }
    let r0 = group * ROWS;
    let r_end = min(r0 + ROWS, params.band_rows);
    if w > params.last_word {
        // A padding word: always zero.
        for (var r = r0; r < r_end; r++) {
            dst[r * params.words + w] = 0u;
        }
        return;
    }
    var keep = 0xffffffffu;
    if w == params.last_word && params.last_bits < 32u {
        keep = (1u << params.last_bits) - 1u;
    }
    var u = tri(i32(r0) - 1, w);
    var m = tri(i32(r0), w);
    for (var r = r0; r < r_end; r++) {
        let d = tri(i32(r) + 1, w);
        dst[r * params.words + w] = rule_fn(u, m, d, params.key, i32(w * 32u), params.row_offset + r) & keep;
        u = m;
        m = d;
    }
}
