// One generation of a Generations rule (Golly's: live, dying and dead cells) on a torus, one
// state per cell in a u32, one invocation per cell. Only live cells (state 1) count: the 3x3
// block of live cells, in Golly's MAP order (NW the top bit, SE bit 0), indexes the two-state
// rule's table; a dead or live cell becomes live where the table says so, a live cell that
// does not stay alive and every dying cell go one state up, and to 0 after the last.

struct Params {
    width: u32,
    height: u32,
    states: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// 512 bits: bit i of the whole is the outcome for block index i.
@group(0) @binding(1) var<storage, read> table: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> dst: array<u32>;

fn alive(x: u32, y: u32) -> u32 {
    return select(0u, 1u, src[y * params.width + x] == 1u);
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let x = gid.x;
    let y = wg.y + wg.z * groups.y;
    let w = params.width;
    let h = params.height;
    if x >= w || y >= h {
        return;
    }
    // The torus wraps: the column left of 0 is the last one, and so on.
    let xl = select(x - 1u, w - 1u, x == 0u);
    let xr = select(x + 1u, 0u, x + 1u == w);
    let yu = select(y - 1u, h - 1u, y == 0u);
    let yd = select(y + 1u, 0u, y + 1u == h);
    let index = (alive(xl, yu) << 8u) | (alive(x, yu) << 7u) | (alive(xr, yu) << 6u)
        | (alive(xl, y) << 5u) | (alive(x, y) << 4u) | (alive(xr, y) << 3u)
        | (alive(xl, yd) << 2u) | (alive(x, yd) << 1u) | alive(xr, yd);
    let c = src[y * w + x];
    let lives = (table[index >> 5u] >> (index & 31u)) & 1u;
    var next = 0u;
    if c <= 1u && lives == 1u {
        next = 1u;
    } else if c > 0u && c + 1u < params.states {
        next = c + 1u;
    }
    dst[y * w + x] = next;
}
