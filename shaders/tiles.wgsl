// Two more kernels on the declarations of shaders/life.wgsl (src/gpu/life.rs joins the files):
//
// `tiles` computes one generation of a list of tiles only, and records per tile whether it
// changed and where: the compaction pass (shaders/compact.wgsl) turns those records into the
// list of the next generation. A tile is TILE_WORDS u32 words (64 cells) by TILE_ROWS rows of
// one band; the last tile of a row of tiles or of a band may be smaller.
//
// `blocked` advances the whole torus `params.block` generations per dispatch: a workgroup loads
// its tile with a halo of one word each side and `block` rows above and below into workgroup
// memory, steps it there, and writes back only the tile, whose cells the halo kept exact.

// Per tile: the change record of its last computation (FLAG_* bits, which each invocation adds
// its own to, and the compaction pass reads and empties), and its mark (1: on the list being
// built, set by the compaction pass and cleared here).
@group(0) @binding(5) var<storage, read_write> tile_state: array<atomic<u32>>;
// The tiles to compute, band by band from each band's first tile index.
@group(0) @binding(6) var<storage, read> tile_list: array<u32>;
// This generation's control words, 8 per band: the kernel's dispatch (x, y, z), the list's
// length, the compaction's dispatch (x, y, z), padding.
@group(0) @binding(7) var<storage, read> ctrl: array<u32>;
// The next generation's control words, which the compaction pass fills after this dispatch;
// after every band's 8 words, 4 more: the census of the buffer this dispatch writes (population
// low and high word, hashes a and b, as shaders/census.wgsl sums them), which the kernel keeps
// current by adding what each word it writes changes. Only tiles on the list change, so a
// census of every generation costs the active tiles, not the torus.
@group(0) @binding(8) var<storage, read_write> ctrl_next: array<atomic<u32>>;

const TILE_WORDS: u32 = 2u;
const TILE_ROWS: u32 = 64u;
const TILE_ROWS_PER_INVOCATION: u32 = 4u;

// What changed in a tile: anything, its first or last row, its first or last column, corners.
const FLAG_SELF: u32 = 1u;
const FLAG_TOP: u32 = 2u;
const FLAG_BOTTOM: u32 = 4u;
const FLAG_LEFT: u32 = 8u;
const FLAG_RIGHT: u32 = 16u;
const FLAG_TOP_LEFT: u32 = 32u;
const FLAG_TOP_RIGHT: u32 = 64u;
const FLAG_BOTTOM_LEFT: u32 = 128u;
const FLAG_BOTTOM_RIGHT: u32 = 256u;

// 32 invocations: TILE_WORDS columns of words by TILE_ROWS / TILE_ROWS_PER_INVOCATION groups.
@compute @workgroup_size(32, 1, 1)
fn tiles(
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = wg.x + groups.x * (wg.y + groups.y * wg.z);
    let c = params.band * 8u;
    if i == 0u && li == 0u {
        // The control words the compaction pass fills after this dispatch were last used by
        // the previous generation's dispatches: empty them. The kernel's dispatch has at least
        // one workgroup (y starts at 1), so this runs even when a band has nothing to compute.
        atomicStore(&ctrl_next[c + 1u], 1u);
        atomicStore(&ctrl_next[c + 3u], 0u);
        atomicStore(&ctrl_next[c + 5u], 0u);
    }
    var t = 0u;
    if params.all_tiles == 1u {
        if i >= params.band_tile_rows * params.tiles_x {
            return;
        }
        t = params.band_first_tile + i;
    } else {
        if i >= ctrl[c + 3u] {
            return;
        }
        t = tile_list[params.band_first_tile + i];
    }
    if li == 0u {
        atomicStore(&tile_state[t * 2u + 1u], 0u);
    }

    let tr = t / params.tiles_x - params.band_first_tile / params.tiles_x;
    let tc = t % params.tiles_x;
    let row0 = tr * TILE_ROWS;
    let row_end = min(row0 + TILE_ROWS, params.band_rows);
    let j = li % TILE_WORDS;
    let w = tc * TILE_WORDS + j;
    let r0 = row0 + (li / TILE_WORDS) * TILE_ROWS_PER_INVOCATION;
    let r_end = min(r0 + TILE_ROWS_PER_INVOCATION, row_end);
    // The tile's last cell: its last column, next to the first column of the tile to its east.
    let right_cell = min((tc + 1u) * TILE_WORDS * 32u, params.width) - 1u;
    let right_word = right_cell / 32u;
    let right_bit = 1u << (right_cell % 32u);
    var f = 0u;
    // What this invocation's writes change in the census of the buffer written.
    var gained = 0u;
    var lost = 0u;
    var da = 0u;
    var db = 0u;
    if w <= params.last_word && r0 < r_end {
        var keep = 0xffffffffu;
        if w == params.last_word && params.last_bits < 32u {
            keep = (1u << params.last_bits) - 1u;
        }
        var u = tri(i32(r0) - 1, w);
        var m = tri(i32(r0), w);
        for (var r = r0; r < r_end; r++) {
            let d = tri(i32(r) + 1, w);
            let next = rule_fn(u, m, d, params.key, i32(w * 32u), params.row_offset + r) & keep;
            let at = r * params.words + w;
            // The buffer written holds the generation before the current one.
            let old = dst[at];
            var before = m.c & keep;
            if params.compare_prev == 1u {
                before = old;
            }
            dst[at] = next;
            if next != old {
                gained += countOneBits(next);
                lost += countOneBits(old);
                let place = params.row_offset * params.words + at;
                if next != 0u {
                    da += mix32(next ^ mix32(place));
                    db += mix32(next + mix32(place ^ 0x9e3779b9u));
                }
                if old != 0u {
                    da -= mix32(old ^ mix32(place));
                    db -= mix32(old + mix32(place ^ 0x9e3779b9u));
                }
            }
            let diff = next ^ before;
            if diff != 0u {
                f |= FLAG_SELF;
                let left = j == 0u && (diff & 1u) != 0u;
                let right = w == right_word && (diff & right_bit) != 0u;
                if left {
                    f |= FLAG_LEFT;
                }
                if right {
                    f |= FLAG_RIGHT;
                }
                if r == row0 {
                    f |= FLAG_TOP;
                    if left {
                        f |= FLAG_TOP_LEFT;
                    }
                    if right {
                        f |= FLAG_TOP_RIGHT;
                    }
                }
                if r == row_end - 1u {
                    f |= FLAG_BOTTOM;
                    if left {
                        f |= FLAG_BOTTOM_LEFT;
                    }
                    if right {
                        f |= FLAG_BOTTOM_RIGHT;
                    }
                }
            }
            u = m;
            m = d;
        }
        if drew != 0u {
            // A draw may come out differently next time: compute the tile again.
            f |= FLAG_SELF;
        }
    }
    // No workgroup barrier: the record is added to in place (a software adapter runs a
    // workgroup with a barrier as coroutines, at several times the cost).
    if f != 0u {
        atomicOr(&tile_state[t * 2u], f);
    }
    // The census as a 64-bit population in two words: a carry or a borrow moves the high word.
    let base = params.bands * 8u;
    if gained > lost {
        let add = gained - lost;
        let was = atomicAdd(&ctrl_next[base], add);
        if was + add < was {
            atomicAdd(&ctrl_next[base + 1u], 1u);
        }
    } else if lost > gained {
        let sub = lost - gained;
        let was = atomicSub(&ctrl_next[base], sub);
        if was < sub {
            atomicSub(&ctrl_next[base + 1u], 1u);
        }
    }
    if da != 0u {
        atomicAdd(&ctrl_next[base + 2u], da);
    }
    if db != 0u {
        atomicAdd(&ctrl_next[base + 3u], db);
    }
}

// The blocked kernel's extended tile: BLOCK_WORDS words (the tile's BLOCK_WORDS - 2 and one of
// halo each side) by BLOCK_ROWS rows (the tile's BLOCK_ROWS - 2 * block and the halo), twice:
// one generation is read from one half while the next is written to the other.
const BLOCK_WORDS: u32 = 32u;
const BLOCK_ROWS: u32 = 64u;
const BLOCK_CELLS: u32 = 2048u;
// Rows each invocation steps (256 invocations: 32 columns by 8 groups of rows).
const BLOCK_ROWS_PER_INVOCATION: u32 = 8u;

var<workgroup> block_cells: array<u32, 4096>;

// Row r of this band (it may lie up to one band's rows beyond either end; on a torus of one band,
// any distance: it wraps), word w.
fn band_word(r: i32, w: u32) -> u32 {
    if params.bands == 1u {
        let h = i32(params.band_rows);
        return src[u32(((r % h) + h) % h) * params.words + w];
    }
    return word_at(r, w);
}

// The 32 cells of row r from cell x on, round the torus: the halo of a tile at either end of a
// row holds the cells of the other end, so that cell W-1 sits next to cell 0 at any width.
fn cells_from(r: i32, x: i32) -> u32 {
    let wd = i32(params.width);
    var s = u32(((x % wd) + wd) % wd);
    if (s & 31u) == 0u && s + 32u <= params.width {
        return band_word(r, s >> 5u);
    }
    var out = 0u;
    var got = 0u;
    loop {
        if got >= 32u {
            break;
        }
        let b = s & 31u;
        let take = min(min(32u - b, params.width - s), 32u - got);
        var bits = band_word(r, s >> 5u) >> b;
        if take < 32u {
            bits &= (1u << take) - 1u;
        }
        out |= bits << got;
        got += take;
        s += take;
        if s == params.width {
            s = 0u;
        }
    }
    return out;
}

// Word (row, col) of one half of the extended tile; beyond its edges, nothing. The garbage that
// lets in moves one cell per generation, and the halo is wide enough that it never reaches the
// tile.
fn block_word(half: u32, row: i32, col: i32) -> u32 {
    if row < 0 || row >= i32(BLOCK_ROWS) || col < 0 || col >= i32(BLOCK_WORDS) {
        return 0u;
    }
    return block_cells[half + u32(row) * BLOCK_WORDS + u32(col)];
}

fn block_tri(half: u32, row: i32, col: i32) -> Tri {
    let c = block_word(half, row, col);
    let west = block_word(half, row, col - 1);
    let east = block_word(half, row, col + 1);
    return Tri((c << 1u) | (west >> 31u), c, (c >> 1u) | (east << 31u));
}

@compute @workgroup_size(256, 1, 1)
fn blocked(
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let k = params.block;
    let out_words = BLOCK_WORDS - 2u;
    let out_rows = BLOCK_ROWS - 2u * k;
    let tiles_x = (params.last_word + out_words) / out_words;
    let tile = wg.x + groups.x * (wg.y + groups.y * wg.z);
    let ty = tile / tiles_x;
    let tx = tile % tiles_x;
    let r0 = ty * out_rows;
    if r0 >= params.band_rows {
        return;
    }
    let w0 = tx * out_words;
    // Extended row rr is band row r0 - k + rr; extended column col holds the 32 cells from
    // cell 32 * (w0 + col - 1) on.
    for (var at = li; at < BLOCK_CELLS; at += 256u) {
        let rr = at / BLOCK_WORDS;
        let col = at % BLOCK_WORDS;
        let r = i32(r0 + rr) - i32(k);
        block_cells[at] = cells_from(r, i32((w0 + col) * 32u) - 32);
    }
    workgroupBarrier();

    let col = li % BLOCK_WORDS;
    let first = (li / BLOCK_WORDS) * BLOCK_ROWS_PER_INVOCATION;
    let xbase = i32((w0 + col) * 32u) - 32;
    let h = i32(params.height);
    for (var s = 0u; s < k; s++) {
        let src_half = (s & 1u) * BLOCK_CELLS;
        let dst_half = BLOCK_CELLS - src_half;
        let key = params.keys[s >> 2u][s & 3u];
        var u = block_tri(src_half, i32(first) - 1, i32(col));
        var m = block_tri(src_half, i32(first), i32(col));
        for (var rr = first; rr < first + BLOCK_ROWS_PER_INVOCATION; rr++) {
            let d = block_tri(src_half, i32(rr) + 1, i32(col));
            let yi = i32(params.row_offset + r0 + rr) - i32(k);
            let y = u32(((yi % h) + h) % h);
            block_cells[dst_half + rr * BLOCK_WORDS + col] = rule_fn(u, m, d, key, xbase, y);
            u = m;
            m = d;
        }
        workgroupBarrier();
    }

    let last = (k & 1u) * BLOCK_CELLS;
    for (var at = li; at < BLOCK_CELLS; at += 256u) {
        let rr = at / BLOCK_WORDS;
        let c = at % BLOCK_WORDS;
        if rr < k || rr >= k + out_rows || c == 0u || c == BLOCK_WORDS - 1u {
            continue;
        }
        let r = r0 + rr - k;
        let w = w0 + c - 1u;
        if r >= params.band_rows || w > params.last_word {
            continue;
        }
        var keep = 0xffffffffu;
        if w == params.last_word && params.last_bits < 32u {
            keep = (1u << params.last_bits) - 1u;
        }
        dst[r * params.words + w] = block_cells[last + at] & keep;
    }
}
