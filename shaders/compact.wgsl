// The compaction pass of the tile kernel (shaders/tiles.wgsl): from the change records of the
// tiles just computed, the list of tiles to compute next: every tile with a changed cell within
// one cell of it. A tile's record says which of its edges and corners changed, so a neighbour
// is listed only when a change touches it. Tiles computed this generation are read from the
// list (an indirect dispatch over it), or, after a generation of every tile, all of them.
//
// A tile is listed once: its mark is set here with an atomic exchange and cleared by the
// kernel that computes it. The list of each band has its own region and control words, whose
// dispatch sizes grow as entries are added, so nothing is read back.

struct Params {
    // Tiles across the torus, rows of tiles over the whole torus, and rows of tiles of every
    // band but the last.
    tiles_x: u32,
    tile_rows: u32,
    band_tile_rows: u32,
    bands: u32,
    // The band whose tiles this dispatch reads, and its first tile and tile count.
    band: u32,
    band_first_tile: u32,
    band_tiles: u32,
    // 1: every tile of the band; 0: the band's list.
    all_tiles: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Per tile: change record, mark.
@group(0) @binding(1) var<storage, read_write> tile_state: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> tile_list: array<u32>;
@group(0) @binding(3) var<storage, read> ctrl: array<u32>;
@group(0) @binding(4) var<storage, read_write> next_list: array<u32>;
// 8 words per band: the kernel's dispatch (x, y, z), the list's length, the compaction's
// dispatch (x, y, z), padding. The x sizes are set once; y grows here.
@group(0) @binding(5) var<storage, read_write> next_ctrl: array<atomic<u32>>;

const COMPACT_GROUP: u32 = 64u;

// Lists tile t for the next generation, unless it already is.
fn push(t: u32) {
    if atomicExchange(&tile_state[t * 2u + 1u], 1u) != 0u {
        return;
    }
    let b = min(t / params.tiles_x / params.band_tile_rows, params.bands - 1u);
    let c = b * 8u;
    let at = atomicAdd(&next_ctrl[c + 3u], 1u);
    next_list[b * params.band_tile_rows * params.tiles_x + at] = t;
    let kx = atomicLoad(&next_ctrl[c]);
    if at % kx == 0u {
        atomicMax(&next_ctrl[c + 1u], at / kx + 1u);
    }
    let cx = atomicLoad(&next_ctrl[c + 4u]) * COMPACT_GROUP;
    if at % cx == 0u {
        atomicMax(&next_ctrl[c + 5u], at / cx + 1u);
    }
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = (wg.x + groups.x * (wg.y + groups.y * wg.z)) * COMPACT_GROUP + li;
    var t = 0u;
    if params.all_tiles == 1u {
        if i >= params.band_tiles {
            return;
        }
        t = params.band_first_tile + i;
    } else {
        if i >= ctrl[params.band * 8u + 3u] {
            return;
        }
        t = tile_list[params.band_first_tile + i];
    }
    // Read and empty the record: the kernel adds to it the next time it computes the tile. A
    // record left from a generation of every tile that no compaction followed only lists more.
    let f = atomicExchange(&tile_state[t * 2u], 0u);
    if f == 0u {
        return;
    }
    let tx = params.tiles_x;
    let ty = params.tile_rows;
    let row = t / tx;
    let col = t % tx;
    let up = ((row + ty - 1u) % ty) * tx;
    let here = row * tx;
    let down = ((row + 1u) % ty) * tx;
    let west = (col + tx - 1u) % tx;
    let east = (col + 1u) % tx;
    // Each neighbour, if the change touches it (the flag bits of shaders/tiles.wgsl).
    if (f & 1u) != 0u {
        push(t);
    }
    if (f & 2u) != 0u {
        push(up + col);
    }
    if (f & 4u) != 0u {
        push(down + col);
    }
    if (f & 8u) != 0u {
        push(here + west);
    }
    if (f & 16u) != 0u {
        push(here + east);
    }
    if (f & 32u) != 0u {
        push(up + west);
    }
    if (f & 64u) != 0u {
        push(up + east);
    }
    if (f & 128u) != 0u {
        push(down + west);
    }
    if (f & 256u) != 0u {
        push(down + east);
    }
}
