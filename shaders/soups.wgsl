// The soup census's first generations, many soups to a dispatch and one workgroup to a soup
// (src/census/gpu.rs). Each soup lies in its own square of the plane, `side` cells a side and
// 32 cells to a word (least significant bit first), with dead cells all round it: the square
// is exactly the plane for as long as nothing live reaches its edge. A soup is stepped until it
// settles, or reaches the edge, or the first phase of the stabilisation ends, and the CPU takes
// it on from there with the same cells and the same machine.
//
// Each generation only computes the words that can change: the live cells' box grown by one,
// together with the box of the generation before (whose cells the written copy still holds).

struct Params {
    // Cells a side of each soup's square, and words per row (side / 32).
    side: u32,
    words: u32,
    // Soups in the batch, and the most generations this dispatch runs each.
    soups: u32,
    generations: u32,
}

// The stabilisation machine: src/census/stabilise.rs's `Stabiliser`, field for field.
struct Machine {
    i: u32,
    depth: u32,
    previous: u32,
    period: u32,
    security: u32,
    countdown: u32,
    extra: u32,
}

// src/census/gpu.rs's `SoupState`, field for field.
struct Soup {
    status: u32,
    generation: u32,
    machine: Machine,
    population: u32,
    // The live cells' box, inclusive, in cells (x0 == EMPTY: no live cell), and the box a
    // generation before, which the other copy of the square holds.
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    px0: u32,
    py0: u32,
    px1: u32,
    py1: u32,
    // Where the seed block goes: its first word across and its first row.
    seed_word: u32,
    seed_row: u32,
    // The copy (0 or 1) that holds the current generation.
    half: u32,
}

const RUNNING: u32 = 0u;
const SETTLED: u32 = 1u;
const PHASE_TWO: u32 = 2u;
const EDGE: u32 = 3u;
const EMPTY: u32 = 0xffffffffu;
const SEED_ROWS: u32 = 32u;
const SEED_WORDS: u32 = 9u;
const ROUNDS: u32 = 1000u;
const GROUP: u32 = 64u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> soups: array<Soup>;
@group(0) @binding(2) var<storage, read> seeds: array<u32>;
// Copy h of soup s starts at word (h * soups + s) * side * words.
@group(0) @binding(3) var<storage, read_write> cells: array<u32>;
// Soups still running at the end of the dispatch.
@group(0) @binding(4) var<storage, read_write> running: atomic<u32>;

// The rows and words the next generation is computed in (inclusive; no rows when y0 > y1),
// and the offsets of the copy read and the copy written.
struct Window {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    src: u32,
    dst: u32,
}

// Invocation 0 keeps the soup's state; the others read what they need after a barrier.
var<workgroup> state: Soup;
var<workgroup> window: Window;
var<workgroup> going: u32;
// Whether the current generation is in copy 1 at the end of the dispatch.
var<workgroup> in_copy_1: u32;
var<workgroup> total: atomic<u32>;
var<workgroup> bx0: atomic<u32>;
var<workgroup> by0: atomic<u32>;
var<workgroup> bx1: atomic<u32>;
var<workgroup> by1: atomic<u32>;

// What `rule_fn` (the rule's circuit, appended by src/census/gpu.rs) takes: a word of a row as
// each cell's west neighbour, the cell, its east neighbour.
struct Tri {
    w: u32,
    c: u32,
    e: u32,
}

fn word_at(base: u32, r: i32, j: i32) -> u32 {
    if r < 0 || r >= i32(params.side) || j < 0 || j >= i32(params.words) {
        return 0u;
    }
    return cells[base + u32(r) * params.words + u32(j)];
}

fn tri(base: u32, r: i32, j: i32) -> Tri {
    let c = word_at(base, r, j);
    let prev = word_at(base, r, j - 1);
    let next = word_at(base, r, j + 1);
    return Tri((c << 1u) | (prev >> 31u), c, (c >> 1u) | (next << 31u));
}

// The top of apgluxe's loop: false once the rounds are spent.
fn next_round() -> bool {
    if state.machine.i >= ROUNDS {
        return false;
    }
    switch state.machine.i {
        case 25u: { state.machine.security = 20u; }
        case 50u: { state.machine.security = 25u; }
        case 75u: { state.machine.security = 30u; }
        case 200u: { state.machine.period = 12u; }
        case 400u: { state.machine.period = 30u; }
        default: {}
    }
    state.machine.countdown = state.machine.period;
    state.machine.extra = 0u;
    return true;
}

// Stabiliser::event: the status the soup has after it.
fn event(population: u32) -> u32 {
    if state.machine.extra == 0u {
        let changed = population != state.machine.previous;
        let extra = changed && state.machine.period < 30u;
        if changed {
            state.machine.depth = 0u;
        } else {
            state.machine.depth += 1u;
        }
        state.machine.previous = population;
        if extra {
            state.machine.i += 1u;
        }
        if state.machine.depth == state.machine.security {
            return SETTLED;
        }
        state.machine.i += 1u;
        if extra {
            state.machine.extra = 1u;
            state.machine.countdown = 12u;
            return RUNNING;
        }
    }
    if next_round() {
        return RUNNING;
    }
    return PHASE_TWO;
}

// Invocation 0: the window of the next generation from the boxes.
fn plan(s: u32) {
    let region = params.side * params.words;
    var x0 = EMPTY;
    var y0 = EMPTY;
    var x1 = 0u;
    var y1 = 0u;
    // A running soup's box keeps a dead cell on every side, so growing it stays in the square.
    if state.x0 != EMPTY {
        x0 = state.x0 - 1u;
        y0 = state.y0 - 1u;
        x1 = state.x1 + 1u;
        y1 = state.y1 + 1u;
    }
    if state.px0 != EMPTY {
        x0 = min(x0, state.px0);
        y0 = min(y0, state.py0);
        x1 = max(x1, state.px1);
        y1 = max(y1, state.py1);
    }
    if y0 == EMPTY {
        window = Window(1u, 1u, 0u, 0u, 0u, 0u);
    } else {
        window = Window(x0 / 32u, y0, x1 / 32u, y1, 0u, 0u);
    }
    window.src = (state.half * params.soups + s) * region;
    window.dst = ((1u - state.half) * params.soups + s) * region;
    atomicStore(&total, 0u);
    atomicStore(&bx0, EMPTY);
    atomicStore(&by0, EMPTY);
    atomicStore(&bx1, 0u);
    atomicStore(&by1, 0u);
}

// Invocation 0: the generation just computed, through the machine.
fn settle() {
    state.generation += 1u;
    state.half = 1u - state.half;
    state.px0 = state.x0;
    state.py0 = state.y0;
    state.px1 = state.x1;
    state.py1 = state.y1;
    let population = atomicLoad(&total);
    state.population = population;
    state.x0 = atomicLoad(&bx0);
    state.y0 = atomicLoad(&by0);
    state.x1 = atomicLoad(&bx1);
    state.y1 = atomicLoad(&by1);
    state.machine.countdown -= 1u;
    if state.machine.countdown == 0u {
        state.status = event(population);
    }
    let last = params.side - 1u;
    if state.status == RUNNING && population > 0u
        && (state.x0 == 0u || state.y0 == 0u || state.x1 == last || state.y1 == last) {
        // Still exact, but the next generation could reach past the square.
        state.status = EDGE;
    }
    going = u32(state.status == RUNNING);
}

@compute @workgroup_size(64, 1, 1)
fn main(
    @builtin(local_invocation_index) li: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
) {
    let s = wg.x;
    if s >= params.soups {
        return;
    }
    if li == 0u {
        state = soups[s];
        going = u32(state.status == RUNNING);
    }
    if workgroupUniformLoad(&going) == 0u {
        return;
    }
    let region = params.side * params.words;
    if state.generation == 0u {
        // The seed block into copy 0 (cleared by the host).
        for (var k = li; k < SEED_ROWS * SEED_WORDS; k += GROUP) {
            let r = state.seed_row + k / SEED_WORDS;
            let j = state.seed_word + k % SEED_WORDS;
            if r < params.side && j < params.words {
                cells[s * region + r * params.words + j] = seeds[s * SEED_ROWS * SEED_WORDS + k];
            }
        }
    }
    if li == 0u {
        plan(s);
    }
    // A barrier: the seed and the first window are seen by every invocation.
    storageBarrier();
    var w = workgroupUniformLoad(&window);
    for (var g = 0u; g < params.generations; g++) {
        var population = 0u;
        var x0 = EMPTY;
        var y0 = EMPTY;
        var x1 = 0u;
        var y1 = 0u;
        for (var r = w.y0 + li; r <= w.y1; r += GROUP) {
            let ri = i32(r);
            for (var j = w.x0; j <= w.x1; j++) {
                let ji = i32(j);
                let v = rule_fn(tri(w.src, ri - 1, ji), tri(w.src, ri, ji), tri(w.src, ri + 1, ji), 0u, 0, 0u);
                cells[w.dst + r * params.words + j] = v;
                if v != 0u {
                    population += countOneBits(v);
                    x0 = min(x0, j * 32u + firstTrailingBit(v));
                    x1 = max(x1, j * 32u + firstLeadingBit(v));
                    y0 = min(y0, r);
                    y1 = r;
                }
            }
        }
        if population > 0u {
            atomicAdd(&total, population);
            atomicMin(&bx0, x0);
            atomicMin(&by0, y0);
            atomicMax(&bx1, x1);
            atomicMax(&by1, y1);
        }
        storageBarrier();
        workgroupBarrier();
        // Invocation 0 takes the generation through the machine and plans the next, all in
        // one turn, so a generation costs three barriers.
        if li == 0u {
            settle();
            if going == 1u {
                plan(s);
            }
        }
        if workgroupUniformLoad(&going) == 0u {
            break;
        }
        w = window;
    }
    // The host reads copy 0: a soup whose generation is in copy 1 is copied over, and both
    // copies then hold it.
    if li == 0u {
        in_copy_1 = state.half;
    }
    if workgroupUniformLoad(&in_copy_1) == 1u {
        for (var k = li; k < region; k += GROUP) {
            cells[s * region + k] = cells[(params.soups + s) * region + k];
        }
    }
    if li == 0u {
        if state.half == 1u {
            state.half = 0u;
            state.px0 = state.x0;
            state.py0 = state.y0;
            state.px1 = state.x1;
            state.py1 = state.y1;
        }
        soups[s] = state;
        if state.status == RUNNING {
            atomicAdd(&running, 1u);
        }
    }
}
