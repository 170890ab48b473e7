// Draws the torus straight from the engine's bit-packed storage buffers, inside an egui paint
// callback: one full-screen triangle, clipped by egui to the viewport, and per pixel the cell
// (zoomed in) or the live fraction of the cells the pixel covers (zoomed out), every one of
// them counted, so that a pixel holding a single live cell always lights.
//
// The torus is drawn once: the copy is the torus-sized rectangle starting `copy_min` cells
// from the origin cell (viewport.rs centres it on the view), framed in the edge colour, with
// the panel colour outside it. Panning moves the copy's start, so the view wraps round.
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
    // Where the one copy drawn starts, in cells from the origin cell.
    copy_min: vec2<i32>,
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

// Whether the cell `offset` cells from the view's origin cell lies outside the one copy drawn.
fn outside(offset: vec2<i32>) -> bool {
    let c = offset - view.copy_min;
    return c.x < 0 || c.y < 0 || c.x >= i32(view.width) || c.y >= i32(view.height);
}

// The colour of a pixel covering [lo, lo + cpp) cells (from the origin cell) that misses the
// copy: the edge colour within a pixel of it on a torus, so that its bounds are always marked,
// else the panel colour.
fn beyond(lo: vec2<f32>, cpp: f32) -> vec4<f32> {
    let a = vec2<f32>(view.copy_min) - vec2<f32>(cpp);
    let b = vec2<f32>(view.copy_min) + vec2<f32>(f32(view.width), f32(view.height)) + vec2<f32>(cpp);
    let hi = lo + vec2<f32>(cpp);
    if view.mode == 0u && hi.x > a.x && hi.y > a.y && lo.x < b.x && lo.y < b.y {
        return view.edge;
    }
    return OUTSIDE;
}

// Whether [lo, lo + cpp) misses the copy.
fn misses(lo: vec2<f32>, cpp: f32) -> bool {
    let a = vec2<f32>(view.copy_min);
    let b = a + vec2<f32>(f32(view.width), f32(view.height));
    let hi = lo + vec2<f32>(cpp);
    return hi.x <= a.x || hi.y <= a.y || lo.x >= b.x || lo.y >= b.y;
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
        if outside(h.cell) {
            return OUTSIDE;
        }
        let xy = wrap(vec2<i32>(view.origin_cell) + h.cell, size);
        var colour = view.dead;
        if cell(xy.x, xy.y) == 1u {
            colour = view.live;
        }
        if (view.grid_lines & 2u) != 0u && h.edge < cpp {
            colour = view.dead;
        }
        if (view.grid_lines & 1u) != 0u && h.edge < cpp {
            colour = mix(colour, view.line, 0.6);
        }
        return colour;
    }
    // The cells the pixel covers: [lo, lo + cpp) from the origin cell (a hexagonal view's
    // block starts at its sheared top-left cell).
    var lo = view.origin_frac + p * cpp;
    if view.hex == 1u {
        let yc = view.origin_frac.y + p.y * cpp / ROW;
        lo = vec2<f32>(view.origin_frac.x + p.x * cpp + yc / 2.0, yc);
    }
    if cpp <= 1.0 {
        // Zoomed in: the cell under the pixel centre.
        let c = lo + vec2<f32>(0.5 * cpp);
        let ci = vec2<i32>(floor(c));
        if outside(ci) {
            return beyond(lo, cpp);
        }
        let xy = wrap(vec2<i32>(view.origin_cell) + ci, size);
        var colour = view.dead;
        if cell(xy.x, xy.y) == 1u {
            colour = view.live;
        }
        let f = fract(c);
        let edge_of_cell = f.x < cpp || f.y < cpp;
        // A live cell's gap, then the grid line over it (as in Golly).
        if (view.grid_lines & 2u) != 0u && edge_of_cell {
            colour = view.dead;
        }
        if (view.grid_lines & 1u) != 0u && edge_of_cell {
            colour = mix(colour, view.line, 0.6);
        }
        // The torus seam, so that a wrapped view still shows where the torus starts.
        if view.mode == 0u && ((xy.x == 0u && f.x < cpp) || (xy.y == 0u && f.y < cpp)) {
            colour = view.edge;
        }
        return colour;
    }
    // Zoomed out: every cell of the pixel's block inside the copy is counted.
    if misses(lo, cpp) {
        return beyond(lo, cpp);
    }
    let first = max(vec2<i32>(floor(lo)), view.copy_min);
    let end = min(vec2<i32>(ceil(lo + vec2<f32>(cpp))), view.copy_min + vec2<i32>(size));
    let cols = u32(max(end.x - first.x, 1));
    let start = wrap(vec2<i32>(view.origin_cell) + first, size);
    var live = 0u;
    for (var r = 0u; r < u32(max(end.y - first.y, 0)); r++) {
        live += count_run((start.y + r) % view.height, start.x, cols);
    }
    let seen = u32(max(end.y - first.y, 1)) * cols;
    return shade(live, seen);
}

// A block's colour: dead when empty, else from a floor that is always visible (one live cell
// in a million) up to the live colour, by the square root of the live fraction, which lifts
// sparse regions. cpu_view.rs shades the same way.
const FLOOR: f32 = 0.45;

fn shade(live: u32, seen: u32) -> vec4<f32> {
    if live == 0u {
        return view.dead;
    }
    let fraction = f32(live) / f32(max(seen, 1u));
    return mix(view.dead, view.live, FLOOR + (1.0 - FLOOR) * sqrt(fraction));
}
