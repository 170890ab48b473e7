// Larger than Life on a torus, one state per cell in a u32, in two passes a generation:
// `prefix` (one invocation per row) writes each row's running count of live (state-1) cells,
// then `main` (one invocation per cell) adds up the shape's rows: a run of a row is two reads
// of its running count, a point of a shape one read of the cells, so a cell costs the range's
// rows, not its area (a checkerboard's rows are read cell by cell, every other one). The count
// includes the middle cell, as Golly's does; `table` holds by count whether a dead cell is born
// (from word 0) and a live one survives (from word `survive_at`), then the half widths of a
// disc's rows (from word `widths_at`, one per row, top to bottom).

struct Params {
    width: u32,
    height: u32,
    states: u32,
    range: u32,
    shape: u32,
    survive_at: u32,
    widths_at: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> table: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> dst: array<u32>;
// Row y's running counts: (width + 1) words from y * (width + 1), the first 0.
@group(0) @binding(4) var<storage, read_write> runs: array<u32>;

// The shapes, numbered as `gpu/generations.rs` writes them.
const MOORE: u32 = 0u;
const VON_NEUMANN: u32 = 1u;
const CIRCULAR: u32 = 2u;
const L2: u32 = 3u;
const CROSS: u32 = 4u;
const SALTIRE: u32 = 5u;
const STAR: u32 = 6u;
const HASH: u32 = 7u;
const HEXAGONAL: u32 = 8u;
const CHECKERBOARD: u32 = 9u;
const ALIGNED: u32 = 10u;
const ASTERISK: u32 = 11u;
const TRIPOD: u32 = 12u;

@compute @workgroup_size(64, 1, 1)
fn prefix(@builtin(global_invocation_id) gid: vec3<u32>) {
    let y = gid.x;
    let w = params.width;
    if y >= params.height {
        return;
    }
    let base = y * (w + 1u);
    var acc = 0u;
    runs[base] = 0u;
    for (var x = 0u; x < w; x++) {
        acc += select(0u, 1u, src[y * w + x] == 1u);
        runs[base + x + 1u] = acc;
    }
}

fn wrap(v: i32, n: i32) -> u32 {
    return u32(((v % n) + n) % n);
}

// Live cells of row `row` in columns x + a ..= x + b (a run no longer than the width plus one:
// on Golly's smallest torus a column can be counted twice, as Golly counts it).
fn run(row: u32, x: i32, a: i32, b: i32) -> u32 {
    let w = i32(params.width);
    let len = b - a + 1;
    if len <= 0 {
        return 0u;
    }
    let base = row * (params.width + 1u);
    let lo = i32(wrap(x + a, w));
    if lo + len <= w {
        return runs[base + u32(lo + len)] - runs[base + u32(lo)];
    }
    return (runs[base + u32(w)] - runs[base + u32(lo)]) + runs[base + u32(lo + len - w)];
}

fn point(row: u32, x: i32, dx: i32) -> u32 {
    let c = wrap(x + dx, i32(params.width));
    return select(0u, 1u, src[row * params.width + c] == 1u);
}

// Every other cell of the row, from x + a to x + b.
fn every_other(row: u32, x: i32, a: i32, b: i32) -> u32 {
    var n = 0u;
    for (var dx = a; dx <= b; dx += 2) {
        n += point(row, x, dx);
    }
    return n;
}

fn bit(at: u32, n: u32) -> bool {
    return ((table[at + (n >> 5u)] >> (n & 31u)) & 1u) == 1u;
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let ux = gid.x;
    let uy = wg.y + wg.z * groups.y;
    let w = params.width;
    let h = params.height;
    if ux >= w || uy >= h {
        return;
    }
    let x = i32(ux);
    let y = i32(uy);
    let r = i32(params.range);
    var count = 0u;
    for (var dy = -r; dy <= r; dy++) {
        let row = wrap(y + dy, i32(h));
        let ady = abs(dy);
        switch params.shape {
            case MOORE: {
                count += run(row, x, -r, r);
            }
            case VON_NEUMANN: {
                count += run(row, x, ady - r, r - ady);
            }
            case CIRCULAR, L2: {
                let hw = i32(table[params.widths_at + u32(dy + r)]);
                count += run(row, x, -hw, hw);
            }
            case HEXAGONAL: {
                if dy < 0 {
                    count += run(row, x, -r, r + dy);
                } else {
                    count += run(row, x, dy - r, r);
                }
            }
            case CROSS: {
                if dy == 0 {
                    count += run(row, x, -r, r);
                } else {
                    count += point(row, x, 0);
                }
            }
            case SALTIRE: {
                if dy == 0 {
                    count += point(row, x, 0);
                } else {
                    count += point(row, x, -dy) + point(row, x, dy);
                }
            }
            case STAR: {
                if dy == 0 {
                    count += run(row, x, -r, r);
                } else {
                    count += point(row, x, 0) + point(row, x, -dy) + point(row, x, dy);
                }
            }
            case HASH: {
                if ady == 1 {
                    count += run(row, x, -r, r);
                } else if dy == 0 {
                    count += run(row, x, -1, 1);
                } else {
                    count += point(row, x, -1) + point(row, x, 1);
                }
            }
            case CHECKERBOARD: {
                // Cells of the other colour (dx + dy odd), and the middle.
                let first = select(-r + 1, -r, ((r + ady) & 1) == 1);
                count += every_other(row, x, first, r);
                if dy == 0 {
                    count += point(row, x, 0);
                }
            }
            case ALIGNED: {
                let first = select(-r, -r + 1, ((r + ady) & 1) == 1);
                count += every_other(row, x, first, r);
            }
            case ASTERISK: {
                if dy == 0 {
                    count += run(row, x, -r, r);
                } else {
                    count += point(row, x, 0) + point(row, x, dy);
                }
            }
            case TRIPOD: {
                if dy < 0 {
                    count += point(row, x, 0);
                } else if dy == 0 {
                    count += run(row, x, -r, 0);
                } else {
                    count += point(row, x, dy);
                }
            }
            default: {}
        }
    }
    let c = src[uy * w + ux];
    var next = 0u;
    if c == 0u {
        next = select(0u, 1u, bit(0u, count));
    } else if c == 1u {
        if bit(params.survive_at, count) {
            next = 1u;
        } else if params.states > 2u {
            next = 2u;
        }
    } else if c + 1u < params.states {
        next = c + 1u;
    }
    dst[uy * w + ux] = next;
}
