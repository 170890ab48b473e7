// Draws the torus straight from the engine's bit-packed storage buffers, inside an egui paint
// callback: one full-screen triangle, clipped by egui to the viewport, and per pixel the cell
// (zoomed in) or the live fraction of the cells the pixel covers (zoomed out).
//
// Mode 1 draws an elementary automaton's space-time ring instead: row 0 of the picture is the
// oldest generation kept, the last row the newest.

struct View {
    // The viewport's top-left corner, in framebuffer pixels.
    rect_min: vec2<f32>,
    // The fractional part of the cell at that corner (the integer part is origin_cell).
    origin_frac: vec2<f32>,
    origin_cell: vec2<u32>,
    // Cells per framebuffer pixel: below 1 zoomed in, above 1 zoomed out.
    cells_per_pixel: f32,
    // 1: draw lines between cells.
    grid_lines: u32,
    width: u32,
    height: u32,
    // u32 words per row.
    words: u32,
    // Rows per band buffer (the last band may have fewer).
    band_rows: u32,
    // 0: torus; 1: space-time ring (height = capacity rows, newest = the newest row).
    mode: u32,
    newest: u32,
    // The origin cell before wrapping: mode 1 draws one copy of the ring, not a tiling.
    origin_signed: vec2<i32>,
    // 1: hexagonal cells. Rows shift half a cell left of the row above and are sqrt(3)/2
    // apart; origin_frac is then the fraction of the sheared origin (viewport.rs).
    hex: u32,
    live: vec4<f32>,
    dead: vec4<f32>,
    line: vec4<f32>,
    edge: vec4<f32>,
}

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> band0: array<u32>;
@group(0) @binding(2) var<storage, read> band1: array<u32>;
@group(0) @binding(3) var<storage, read> band2: array<u32>;
@group(0) @binding(4) var<storage, read> band3: array<u32>;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    // One triangle that covers the whole viewport.
    let x = f32(i32(i & 1u) * 4 - 1);
    let y = f32(i32(i >> 1u) * 4 - 1);
    return vec4<f32>(x, y, 0.0, 1.0);
}

// Word wi of torus row y (or, in mode 1, of picture row y of the ring).
fn word(y_in: u32, wi: u32) -> u32 {
    var y = y_in;
    if view.mode == 1u {
        y = (view.newest + 1u + y_in) % view.height;
    }
    let band = y / view.band_rows;
    let i = (y - band * view.band_rows) * view.words + wi;
    switch band {
        case 0u: { return band0[i]; }
        case 1u: { return band1[i]; }
        case 2u: { return band2[i]; }
        default: { return band3[i]; }
    }
}

fn cell(x: u32, y: u32) -> u32 {
    return (word(y, x >> 5u) >> (x & 31u)) & 1u;
}

// Live cells of row y in columns [x, x + n), n <= width, wrapping round the torus.
fn count_run(y: u32, x: u32, n: u32) -> u32 {
    var total = 0u;
    var at = x;
    var left = n;
    loop {
        if left == 0u {
            break;
        }
        let bit = at & 31u;
        let in_word = min(32u - bit, min(left, view.width - at));
        var mask = 0xffffffffu;
        if in_word < 32u {
            mask = ((1u << in_word) - 1u) << bit;
        }
        total += countOneBits(word(y, at >> 5u) & mask);
        left -= in_word;
        at += in_word;
        if at >= view.width {
            at = 0u;
        }
    }
    return total;
}

// Around the space-time picture: egui's dark panel colour (view_render::OUTSIDE).
const OUTSIDE = vec4<f32>(0.106, 0.106, 0.106, 1.0);

// Whether the cell `offset` cells from the view's origin lies outside the one copy of the
// picture that mode 1 draws.
fn outside(offset: vec2<u32>) -> bool {
    let c = view.origin_signed + vec2<i32>(offset);
    return c.x < 0 || c.y < 0 || c.x >= i32(view.width) || c.y >= i32(view.height);
}

const ROW: f32 = 0.8660254;

// The hexagon holding the point (x, y), given in cells from the origin cell: its offset, and
// how far the point is from the nearest edge (in cell widths).
struct Hex {
    cell: vec2<i32>,
    edge: f32,
}

fn hex_cell(x: f32, y: f32) -> Hex {
    var d0 = 1e9;
    var d1 = 1e9;
    var best = vec2<i32>(0, 0);
    let row = i32(floor(y - 0.5));
    for (var cy = row; cy <= row + 1; cy++) {
        let dy = y - (f32(cy) + 0.5);
        let ideal = i32(floor(x - 0.5 - dy / 2.0));
        for (var cx = ideal; cx <= ideal + 1; cx++) {
            let dx = x - (f32(cx) + 0.5);
            let e = vec2<f32>(dx - dy / 2.0, dy * ROW);
            let d = length(e);
            if d < d0 {
                d1 = d0;
                d0 = d;
                best = vec2<i32>(cx, cy);
            } else if d < d1 {
                d1 = d;
            }
        }
    }
    return Hex(best, (d1 - d0) / 2.0);
}

fn wrap(c: vec2<i32>, size: vec2<u32>) -> vec2<u32> {
    let s = vec2<i32>(size);
    return vec2<u32>(((c % s) + s) % s);
}

@fragment
fn fs_main(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let p = floor(pos.xy) - view.rect_min;
    let cpp = view.cells_per_pixel;
    let size = vec2<u32>(view.width, view.height);
    if view.hex == 1u && cpp <= 1.0 {
        // Zoomed in on hexagonal cells: the hexagon under the pixel centre.
        let l = (p + vec2<f32>(0.5)) * cpp;
        let yc = view.origin_frac.y + l.y / ROW;
        let xc = view.origin_frac.x + l.x + yc / 2.0;
        let h = hex_cell(xc, yc);
        let xy = wrap(vec2<i32>(view.origin_cell) + h.cell, size);
        var colour = view.dead;
        if cell(xy.x, xy.y) == 1u {
            colour = view.live;
        }
        if view.grid_lines == 1u && h.edge < cpp {
            colour = mix(colour, view.line, 0.6);
        }
        return colour;
    }
    if cpp <= 1.0 {
        // Zoomed in: the cell under the pixel centre.
        let c = view.origin_frac + (p + vec2<f32>(0.5)) * cpp;
        let ci = vec2<u32>(floor(c));
        if view.mode == 1u && outside(ci) {
            return OUTSIDE;
        }
        let xy = (view.origin_cell + ci) % size;
        var colour = view.dead;
        if cell(xy.x, xy.y) == 1u {
            colour = view.live;
        }
        let f = fract(c);
        let edge_of_cell = f.x < cpp || f.y < cpp;
        if view.grid_lines == 1u && edge_of_cell {
            colour = mix(colour, view.line, 0.6);
        }
        // The torus seam, so that a wrapped view still shows where the torus starts.
        if view.mode == 0u && ((xy.x == 0u && f.x < cpp) || (xy.y == 0u && f.y < cpp)) {
            colour = view.edge;
        }
        return colour;
    }
    // Zoomed out: the live fraction of the block of cells this pixel covers, sampling at most
    // 16 rows and 8 runs of 32 cells per row of very large blocks.
    var c0 = view.origin_frac + p * cpp;
    if view.hex == 1u {
        // The sheared rows: a block's top-left cell.
        let yc = view.origin_frac.y + p.y * cpp / ROW;
        c0 = vec2<f32>(view.origin_frac.x + p.x * cpp + yc / 2.0, yc);
    }
    if view.mode == 1u && outside(vec2<u32>(floor(c0))) {
        return OUTSIDE;
    }
    let span = u32(ceil(cpp));
    let first = (view.origin_cell + vec2<u32>(floor(c0))) % size;
    let rows = min(span, view.height);
    let cols = min(span, view.width);
    let row_step = max(1u, rows / 16u);
    let runs = min(8u, max(1u, cols / 32u));
    let run_len = cols / runs;
    let col_step = cols / runs;
    var live = 0u;
    var seen = 0u;
    for (var r = 0u; r < rows; r += row_step) {
        let y = (first.y + r) % view.height;
        for (var k = 0u; k < runs; k++) {
            let x = (first.x + k * col_step) % view.width;
            live += count_run(y, x, run_len);
            seen += run_len;
        }
    }
    let fraction = f32(live) / f32(max(seen, 1u));
    // A square root lifts sparse regions, so that a few live cells still show.
    return mix(view.dead, view.live, sqrt(fraction));
}
