// One generation of a rule file's rule (Golly's RuleLoader: a @TABLE compiled to a tree, or a
// @TREE) on a torus, one state per cell in a u32, one invocation per cell. The tree is walked
// as on the CPU: each node has one entry per state, an inner node's entry is its child's base
// and a last node's the next state; the cells are read in the tree's order, the cell last.

struct Params {
    width: u32,
    height: u32,
    // The root node's base in `nodes`.
    root: u32,
    // The neighbourhood: 0 von Neumann (N W E S C), 1 Moore (NW NE SW SE N W E S C),
    // 2 hexagonal (NW SE N W E S C), 3 one-dimensional (W E C).
    shape: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> nodes: array<u32>;
@group(0) @binding(2) var<storage, read> src: array<u32>;
@group(0) @binding(3) var<storage, read_write> dst: array<u32>;

fn at(x: u32, y: u32) -> u32 {
    return src[y * params.width + x];
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
    var n = params.root;
    switch params.shape {
        case 0u: {
            n = nodes[n + at(x, yu)];
            n = nodes[n + at(xl, y)];
            n = nodes[n + at(xr, y)];
            n = nodes[n + at(x, yd)];
        }
        case 1u: {
            n = nodes[n + at(xl, yu)];
            n = nodes[n + at(xr, yu)];
            n = nodes[n + at(xl, yd)];
            n = nodes[n + at(xr, yd)];
            n = nodes[n + at(x, yu)];
            n = nodes[n + at(xl, y)];
            n = nodes[n + at(xr, y)];
            n = nodes[n + at(x, yd)];
        }
        case 2u: {
            n = nodes[n + at(xl, yu)];
            n = nodes[n + at(xr, yd)];
            n = nodes[n + at(x, yu)];
            n = nodes[n + at(xl, y)];
            n = nodes[n + at(xr, y)];
            n = nodes[n + at(x, yd)];
        }
        default: {
            n = nodes[n + at(xl, y)];
            n = nodes[n + at(xr, y)];
        }
    }
    dst[y * w + x] = nodes[n + at(x, y)];
}
