//! The sparse tile engine, after Golly's QuickLife: the universe is cut into 64x64 tiles, and a
//! tile is computed only where something near it changed.
//!
//! Each tile keeps two generations, by parity: while generation t is current, the other buffer
//! holds t - 1, and `delta` records, per row, where generation t differs from t - 2. If no row
//! near a row of a tile changed between t - 2 and t, then that row at t + 1 equals itself at
//! t - 1, which is already in the buffer being written: nothing to do. Still lifes and
//! period-2 oscillators therefore cost nothing, and an empty universe costs nothing; the work
//! per generation follows the rows that changed (and their neighbours), which is what a glider
//! or a methuselah's active region amounts to. Tiles that could be born are made when a
//! neighbour changes, and empty ones are dropped, so the plane is unbounded.
//!
//! The rows are computed with the bit-sliced kernel of `kernel.rs`: Life's by vectors of rows
//! fused with their write-back (`life_rows`), a rule's circuit by vectors batched across tiles
//! (`circuit_rows`); when many tiles are active they are spread over the cores with rayon.
//! Stochastic rules recompute every tile near a live cell (a still life is not still under
//! chance); B0 rules turn the whole torus on and run it densely, and say so.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use super::kernel::{Batch, Change, Kernel, Vectors};
use crate::engine::{
    Bounds, CellRect, Census, CensusSum, Core, Engine, EngineError, EngineKind, EngineResult, Put,
    Sampled, Universe, Work, census_index,
};
use crate::grid::Grid;
use crate::hash;
use crate::rule::Rule;
use crate::tiles::{TILE, TileBits, TileMap};

mod circuit_rows;
mod lanes;
mod life_rows;
use circuit_rows::{CircuitStep, circuit_inputs, circuit_tiles_on};
use lanes::{LANES, lanes_of, vectors, write_lanes};
use life_rows::{NextBuffers, life_rows, life_rows_on};

const NONE: u32 = u32::MAX;

/// Neighbour slots: NW, N, NE, W, E, SW, S, SE.
const OFFSETS: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const NW: usize = 0;
const N: usize = 1;
const NE: usize = 2;
const W: usize = 3;
const E: usize = 4;
const SW: usize = 5;
const S: usize = 6;
const SE: usize = 7;

/// Below this many tiles to compute, a generation runs on the calling thread.
const PARALLEL_TILES: usize = 512;

/// Tiles a task of a rule's circuit batches on many cores: enough to fill the kernel's
/// batches several times over, so that each task's batches run full.
const CIRCUIT_TILES_A_TASK: usize = 64;

#[derive(Clone, Debug)]
struct Meta {
    pos: (i64, i64),
    /// Valid columns and rows (less than 64 in the last column or row of a torus), and the
    /// rows of the tile row above.
    vw: u32,
    vh: u32,
    vh_above: u32,
    nbrs: [u32; 8],
    live: bool,
    /// Edited since the last generation: its other buffer is not its predecessor.
    fresh: bool,
}

/// A tile's place on a generation's list to compute, apart from [`Meta`] so that marking a
/// neighbour touches 16 bytes, not its whole record.
#[derive(Clone, Copy, Debug, Default)]
struct Mark {
    /// The generation stamp of the last time it was put on the list.
    stamp: u64,
    /// The rows it needs computed then, before its row mask: the changed tiles round it
    /// OR theirs in (scattered while the list is made, rather than gathered from nine
    /// tiles' deltas for each tile on it).
    need: u64,
}

/// Where tiles are found: a torus wraps tile positions (a tube one way only); a torus of up to
/// [`DENSE_SLOTS`] tiles keeps a slot per tile, anything larger (the plane, a tube, a vast
/// sparse torus) a map.
struct Index {
    /// Columns and rows of tiles round which positions wrap (`None`: that way is unbounded).
    wrap: (Option<i64>, Option<i64>),
    slots: Slots,
}

enum Slots {
    /// Tile (tx, ty) at `tx + ty * columns`.
    Dense {
        columns: i64,
        slots: Vec<u32>,
    },
    Map(FxHashMap<(i64, i64), u32>),
}

/// The most tiles a torus indexes densely (64 MiB of slots; a 262144 x 262144 torus).
const DENSE_SLOTS: u64 = 1 << 24;

impl Index {
    fn new(universe: Universe) -> Self {
        match universe {
            Universe::Torus { width, height } => {
                let columns = (width as u64).div_ceil(TILE as u64);
                let rows = (height as u64).div_ceil(TILE as u64);
                let slots = if columns * rows <= DENSE_SLOTS {
                    Slots::Dense {
                        columns: columns as i64,
                        slots: vec![NONE; (columns * rows) as usize],
                    }
                } else {
                    Slots::Map(FxHashMap::default())
                };
                Index {
                    wrap: (Some(columns as i64), Some(rows as i64)),
                    slots,
                }
            }
            Universe::Tube(_) | Universe::Plane | Universe::Bounded { .. } => {
                let (w, h) = universe.wrapped_sides();
                let tiles =
                    |side: Option<u32>| side.map(|n| (n as u64).div_ceil(TILE as u64) as i64);
                Index {
                    wrap: (tiles(w), tiles(h)),
                    slots: Slots::Map(FxHashMap::default()),
                }
            }
        }
    }

    /// Bytes the index of a torus takes before any tile exists.
    fn bytes(universe: Universe) -> u64 {
        match universe.size() {
            Some((w, h)) => {
                let n = (w as u64).div_ceil(TILE as u64) * (h as u64).div_ceil(TILE as u64);
                if n <= DENSE_SLOTS { n * 4 } else { 0 }
            }
            None => 0,
        }
    }

    fn wrap(&self, tx: i64, ty: i64) -> (i64, i64) {
        let wrap = |t: i64, n: Option<i64>| n.map_or(t, |n| t.rem_euclid(n));
        (wrap(tx, self.wrap.0), wrap(ty, self.wrap.1))
    }

    /// The tile at a wrapped position.
    fn get(&self, (tx, ty): (i64, i64)) -> u32 {
        match &self.slots {
            Slots::Dense { columns, slots } => slots[(tx + ty * columns) as usize],
            Slots::Map(map) => map.get(&(tx, ty)).copied().unwrap_or(NONE),
        }
    }

    /// Sets (or with `NONE` clears) the tile at a wrapped position.
    fn set(&mut self, (tx, ty): (i64, i64), id: u32) {
        match &mut self.slots {
            Slots::Dense { columns, slots } => slots[(tx + ty * *columns) as usize] = id,
            Slots::Map(map) if id == NONE => {
                map.remove(&(tx, ty));
            }
            Slots::Map(map) => {
                map.insert((tx, ty), id);
            }
        }
    }
}

pub struct TileEngine {
    core: Core,
    /// The kernel for a step from the current generation.
    kernel: Kernel,
    /// Under a B0 rule on the plane, the kernel for the other parity's steps.
    other: Option<Kernel>,
    seed: u64,
    universe: Universe,
    /// Which buffer holds the current generation.
    parity: usize,
    meta: Vec<Meta>,
    bufs: [Vec<TileBits>; 2],
    /// Per tile and parity: where that buffer's generation differs from two before (a change
    /// inside a tile wakes no tile beside it).
    deltas: [Vec<Change>; 2],
    /// Per parity: the tiles whose delta is not zero.
    active: [Vec<u32>; 2],
    /// Per tile: when it was last put on the list to compute, and the rows it needs then.
    marks: Vec<Mark>,
    free: Vec<u32>,
    index: Index,
    stamp: u64,
    /// Census of each buffer (population always; the hash while `track_hash`).
    sums: [CensusSum; 2],
    track_hash: bool,
    /// B0 on a torus: every tile exists and the torus runs densely.
    dense: bool,
    /// Every tile is whole, 64 cells a side (the plane, or finite sides that are multiples
    /// of 64): Life's step then takes its sizes as constants and reads no neighbour's record
    /// for them.
    full: bool,
    /// Generations since empty tiles were last dropped.
    since_sweep: u32,
    /// Reused between generations.
    todo: Vec<u32>,
    /// Tiles the last generation computed.
    computed: usize,
    /// Tiles computed since the engine was created.
    tiles_computed: u64,
    /// Kept from one generation to the next, boxed so that taking it moves a pointer.
    scratch: Option<Box<Scratch>>,
    /// Tiles edited since the last generation.
    fresh: Vec<u32>,
}

/// What computing one tile produced (the parallel path collects these).
struct Computed {
    id: u32,
    lo: usize,
    rows: [u64; 64],
    n: usize,
}

/// Per-thread arrays for computing a tile: its rows with their neighbours shifted in (one
/// row of margin above and below), the count planes and the output.
struct Scratch {
    w: [u64; 66],
    c: [u64; 66],
    e: [u64; 66],
    planes: super::kernel::Planes,
    out: [u64; 64],
    /// A rule's circuit: the tiles whose rows wait in `planes`' batch, with those rows.
    waiting: Vec<(u32, u64)>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            w: [0; 66],
            c: [0; 66],
            e: [0; 66],
            planes: Default::default(),
            out: [0; 64],
            waiting: Vec::new(),
        }
    }
}

/// Input row `k` of `s` from row `i` of the tiles [centre, west, east], with the west tile's
/// last column at `west_bit` and the east cell going to bit `east_shift`.
fn put_row(
    s: &mut Scratch,
    k: usize,
    tiles: [&TileBits; 3],
    west_bit: u32,
    east_shift: u32,
    i: usize,
) {
    let cw = tiles[0][i];
    s.c[k] = cw;
    s.w[k] = cw << 1 | (tiles[1][i] >> west_bit & 1);
    s.e[k] = cw >> 1 | (tiles[2][i] & 1) << east_shift;
}

/// A row's sum of three (ones, twos) and the row itself, from the row, the west neighbour's
/// edge cell and the east neighbour's (each 0 or 1), the east cell going to bit `east_shift`.
#[inline(always)]
fn sum_of_three(c: u64, west_cell: u64, east_cell: u64, east_shift: u32) -> (u64, u64, u64) {
    let (ones, twos) =
        super::kernel::row_sum(c << 1 | west_cell, c, c >> 1 | east_cell << east_shift);
    (ones, twos, c)
}

/// Writes `new` into row `r`'s slot of a tile's next buffer, noting a change and the
/// population it gained (the east edge at bit `east_bit`). Without a branch: whether a row
/// changed is the data's whim, and a mispredicted branch cost more than the store.
#[inline(always)]
fn write_row(
    slot: &mut u64,
    r: usize,
    new: u64,
    east_bit: u32,
    changed: &mut Change,
    gained: &mut i64,
) {
    let old = *slot;
    changed.note(r, old, new, east_bit);
    *gained += new.count_ones() as i64 - old.count_ones() as i64;
    *slot = new;
}

/// The positions of the set bits of `bits`, lowest first.
fn set_bits(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            k
        })
    })
}

/// The rows of an absent tile.
static EMPTY: TileBits = [0; 64];

impl TileEngine {
    pub fn new(rule: Rule, universe: Universe, seed: u64) -> EngineResult<Self> {
        if universe.has_joined_edges() {
            return Err(EngineError::Unsupported(format!(
                "the tile engine has no border for {}; the reference engine has",
                universe.describe()
            )));
        }
        let mut kernel = Kernel::for_rule(&rule).ok_or_else(|| {
            EngineError::Unsupported(format!(
                "the tile engine runs two-state rules of the 3x3 block; {}",
                rule.why_no_block_rule()
            ))
        })?;
        // Beyond a bounded plane's or a strip's edge nothing is born: B0 would fill the inside
        // alone, which the tile engine has no dense mode for (the reference engine runs a
        // bounded plane's), and fill a strip without end.
        if universe.has_dead_edge() && kernel.births_from_nothing {
            return Err(EngineError::Unsupported(format!(
                "{rule} gives birth on empty space (B0), which the tile engine does not run on {}",
                universe.describe()
            )));
        }
        // B0 on the plane, as Golly runs it: a rule for steps from even generations and one
        // for steps from odd ones (`Rule::b0_emulation`); `kernel` is always the one for the
        // current generation's parity, `other` the other one.
        let mut other = None;
        if universe.is_unbounded() && kernel.births_from_nothing {
            let Some((even, odd)) = rule.b0_emulation() else {
                return Err(EngineError::Unsupported(format!(
                    "{rule} gives birth on empty space (B0), which fills the unbounded plane in one generation, and a stochastic one cannot be emulated as Golly does; run it on a torus"
                )));
            };
            let two = |r: &Rule| Kernel::for_rule(r).expect("a 2D rule");
            kernel = two(&even);
            other = (even != odd).then(|| two(&odd));
        }
        let index = Index::new(universe);
        let mut engine = Self {
            core: Core::new(EngineKind::Tiles, "tiles", rule),
            dense: kernel.births_from_nothing,
            full: {
                let (w, h) = universe.finite_sides();
                let whole = |side: Option<u32>| side.is_none_or(|n| n % TILE as u32 == 0);
                whole(w) && whole(h)
            },
            kernel,
            other,
            seed,
            universe,
            parity: 0,
            meta: Vec::new(),
            bufs: [Vec::new(), Vec::new()],
            deltas: [Vec::new(), Vec::new()],
            active: [Vec::new(), Vec::new()],
            marks: Vec::new(),
            free: Vec::new(),
            index,
            stamp: 0,
            sums: [CensusSum::default(); 2],
            track_hash: false,
            since_sweep: 0,
            todo: Vec::new(),
            computed: 0,
            tiles_computed: 0,
            scratch: None,
            fresh: Vec::new(),
        };
        if engine.dense {
            engine.materialise_all();
        }
        Ok(engine)
    }

    /// Puts the kernel for `generation`'s steps in place, from the current generation's.
    fn set_generation_parity(&mut self, generation: u64) {
        if let Some(other) = &mut self.other
            && generation % 2 != self.core.generation % 2
        {
            std::mem::swap(&mut self.kernel, other);
        }
    }

    /// Bytes a tile takes: its two buffers, its two change masks, its record and its mark.
    pub const TILE_BYTES: u64 = 2 * 512 + 2 * 24 + 64 + 16;

    /// Bytes the index of `universe` takes before any tile exists.
    pub fn index_bytes(universe: Universe) -> u64 {
        Index::bytes(universe)
    }

    fn materialise_all(&mut self) {
        if let (Some(columns), Some(rows)) = self.index.wrap {
            for ty in 0..rows {
                for tx in 0..columns {
                    let id = self.tile_at(tx, ty);
                    self.deltas[self.parity][id as usize] = Change::all(self.row_mask(id));
                    self.active[self.parity].push(id);
                    self.meta[id as usize].fresh = true;
                    self.fresh.push(id);
                }
            }
        }
    }

    fn wrap_tile(&self, tx: i64, ty: i64) -> (i64, i64) {
        self.index.wrap(tx, ty)
    }

    fn find(&self, tx: i64, ty: i64) -> u32 {
        self.index.get(self.index.wrap(tx, ty))
    }

    /// Whether tile (tx, ty), once wrapped, holds cells of the grid: beyond a bounded plane's
    /// or a strip's edge there are none.
    fn on_grid(&self, (tx, ty): (i64, i64)) -> bool {
        let (width, height) = self.universe.finite_sides();
        let within = |side: Option<u32>, t: i64| {
            side.is_none_or(|n| (0..(n as u64).div_ceil(TILE as u64) as i64).contains(&t))
        };
        within(width, tx) && within(height, ty)
    }

    /// The tile at (tx, ty), made (empty, linked to its neighbours) if it is not there;
    /// `NONE` beyond a bounded plane's or a strip's edge.
    fn tile_at(&mut self, tx: i64, ty: i64) -> u32 {
        let (tx, ty) = self.wrap_tile(tx, ty);
        let found = self.find(tx, ty);
        if found != NONE {
            return found;
        }
        if !self.on_grid((tx, ty)) {
            return NONE;
        }
        // The last column or row of tiles along a finite side may be partial.
        let (width, height) = self.universe.finite_sides();
        let valid = |side: Option<u32>, t: i64| {
            side.map_or(TILE, |n| (n as i64 - t * TILE).min(TILE)) as u32
        };
        let (vw, vh) = (valid(width, tx), valid(height, ty));
        let meta = Meta {
            pos: (tx, ty),
            vw,
            vh,
            vh_above: self.row_height(ty - 1),
            nbrs: [NONE; 8],
            live: true,
            fresh: false,
        };
        let id = match self.free.pop() {
            Some(id) => {
                let i = id as usize;
                self.meta[i] = meta;
                self.bufs[0][i] = [0; 64];
                self.bufs[1][i] = [0; 64];
                self.deltas[0][i] = Change::NONE;
                self.deltas[1][i] = Change::NONE;
                self.marks[i] = Mark::default();
                id
            }
            None => {
                self.meta.push(meta);
                self.bufs[0].push([0; 64]);
                self.bufs[1].push([0; 64]);
                self.deltas[0].push(Change::NONE);
                self.deltas[1].push(Change::NONE);
                self.marks.push(Mark::default());
                (self.meta.len() - 1) as u32
            }
        };
        self.index.set((tx, ty), id);
        for (k, &(dx, dy)) in OFFSETS.iter().enumerate() {
            let n = self.find(tx + dx, ty + dy);
            self.meta[id as usize].nbrs[k] = n;
            if n != NONE {
                self.meta[n as usize].nbrs[7 - k] = id;
            }
        }
        id
    }

    /// Drops tiles that are empty in both generations and changed in neither (the plane and a
    /// sparse torus would otherwise keep every tile a glider ever crossed).
    fn sweep(&mut self) {
        if self.dense {
            return;
        }
        for id in 0..self.meta.len() {
            let m = &self.meta[id];
            if !m.live
                || !self.deltas[0][id].is_none()
                || !self.deltas[1][id].is_none()
                || self.bufs[0][id].iter().any(|&w| w != 0)
                || self.bufs[1][id].iter().any(|&w| w != 0)
            {
                continue;
            }
            let (pos, nbrs) = (m.pos, m.nbrs);
            for (k, &n) in nbrs.iter().enumerate() {
                if n != NONE {
                    self.meta[n as usize].nbrs[7 - k] = NONE;
                }
            }
            self.index.set(pos, NONE);
            self.meta[id].live = false;
            self.meta[id].nbrs = [NONE; 8];
            self.free.push(id as u32);
        }
    }

    /// Rows in tile row `ty` (fewer than 64 in the last row of tiles of a finite side).
    fn row_height(&self, ty: i64) -> u32 {
        match self.universe.finite_sides().1 {
            Some(height) => {
                let ty = ty.rem_euclid((height as u64).div_ceil(64) as i64);
                (height as i64 - ty * TILE).min(TILE) as u32
            }
            None => 64,
        }
    }

    /// Rows that exist in a tile, as a mask.
    fn row_mask(&self, id: u32) -> u64 {
        let vh = self.meta[id as usize].vh;
        if vh == 64 { u64::MAX } else { (1 << vh) - 1 }
    }

    fn word_index(&self, pos: (i64, i64), row: usize, half: i64) -> u32 {
        census_index(self.universe, pos.0 * 2 + half, pos.1 * TILE + row as i64)
    }

    /// Adds (or with `sign` false removes) a row word to a buffer's census.
    fn count_word(&mut self, which: usize, pos: (i64, i64), row: usize, word: u64, add: bool) {
        if word == 0 {
            return;
        }
        let s = &mut self.sums[which];
        if !self.track_hash {
            if add {
                s.population += word.count_ones() as u64;
            } else {
                s.population -= word.count_ones() as u64;
            }
            return;
        }
        let universe = self.universe;
        for (half, part) in [(0, word as u32), (1, (word >> 32) as u32)] {
            let i = census_index(universe, pos.0 * 2 + half, pos.1 * TILE + row as i64);
            if add {
                s.add_word(i, part);
            } else {
                s.remove_word(i, part);
            }
        }
    }

    fn recount(&mut self) {
        for which in 0..2 {
            let mut s = CensusSum::default();
            for (id, m) in self.meta.iter().enumerate() {
                if !m.live {
                    continue;
                }
                for (r, &w) in self.bufs[which][id].iter().enumerate() {
                    if w == 0 {
                        continue;
                    }
                    if self.track_hash {
                        s.add_word(self.word_index(m.pos, r, 0), w as u32);
                        s.add_word(self.word_index(m.pos, r, 1), (w >> 32) as u32);
                    } else {
                        s.population += w.count_ones() as u64;
                    }
                }
            }
            self.sums[which] = s;
        }
    }

    /// Writes one row word of the current generation, keeping the census and the change flags.
    fn write_current(&mut self, id: u32, row: usize, word: u64) {
        let p = self.parity;
        let i = id as usize;
        let mask = match self.meta[i].vw {
            64 => u64::MAX,
            vw => (1u64 << vw) - 1,
        };
        let word = word & mask;
        let old = self.bufs[p][i][row];
        if old == word {
            return;
        }
        let pos = self.meta[i].pos;
        self.count_word(p, pos, row, old, false);
        self.count_word(p, pos, row, word, true);
        self.bufs[p][i][row] = word;
        if self.deltas[p][i].is_none() {
            self.active[p].push(id);
        }
        let east_bit = self.meta[i].vw - 1;
        self.deltas[p][i].note(row, old, word, east_bit);
        if !self.meta[i].fresh {
            self.meta[i].fresh = true;
            self.fresh.push(id);
        }
    }

    /// One generation.
    pub fn step_once(&mut self) {
        let p = self.parity;
        let q = 1 - p;
        // Tiles whose delta at q described t - 1 versus t - 3: at t + 1 they hold t - 1 unless
        // computed below, and t + 1 equals t - 1 there.
        // Cleared in place: the list keeps its room for the tiles `land` puts on it next.
        let mut stale = std::mem::take(&mut self.active[q]);
        for &id in &stale {
            self.deltas[q][id as usize] = Change::NONE;
        }
        stale.clear();
        self.active[q] = stale;
        self.stamp += 1;
        let stamp = self.stamp;
        let mut todo = std::mem::take(&mut self.todo);
        let stochastic = self.kernel.is_stochastic();
        // Stochastic rules: every tile with a live cell now or a generation ago, and the
        // neighbours of those live now.
        let sources: Vec<u32> = if stochastic {
            (0..self.meta.len() as u32)
                .filter(|&id| {
                    let i = id as usize;
                    self.meta[i].live
                        && (self.bufs[p][i].iter().any(|&w| w != 0)
                            || self.bufs[q][i].iter().any(|&w| w != 0))
                })
                .collect()
        } else {
            std::mem::take(&mut self.active[p])
        };
        for &id in &sources {
            let i = id as usize;
            let (tx, ty) = self.meta[i].pos;
            let spreads = !stochastic || self.bufs[p][i].iter().any(|&w| w != 0);
            // The neighbours that read a changed cell of this tile (only those beside a
            // changed edge, unless every tile is recomputed whole anyway), and the rows of
            // each that read one.
            let reach = if stochastic || self.dense {
                [u64::MAX; 8]
            } else {
                self.reach(id, p)
            };
            if spreads {
                // The slots reached, a bit each: a loop over them alone (whether a slot is
                // reached is the data's whim, a branch per slot mispredicted).
                let mut slots = 0u32;
                for (k, &rows) in reach.iter().enumerate() {
                    slots |= ((rows != 0) as u32) << k;
                }
                while slots != 0 {
                    let k = slots.trailing_zeros() as usize;
                    slots &= slots - 1;
                    let (dx, dy) = OFFSETS[k];
                    let known = self.meta[i].nbrs[k];
                    let n = if known != NONE {
                        known
                    } else {
                        self.tile_at(tx + dx, ty + dy)
                    };
                    if n != NONE {
                        self.mark(n, stamp, reach[k], &mut todo);
                    }
                }
            }
            let own = if stochastic || self.dense {
                u64::MAX
            } else {
                let any = self.deltas[p][i].any;
                any | any << 1 | any >> 1
            };
            self.mark(id, stamp, own, &mut todo);
        }
        if !stochastic {
            self.active[p] = sources;
        }

        let key = hash::stream_key(self.seed, self.core.generation);
        let life = self.kernel.is_life() && !stochastic && !self.track_hash;
        if life && todo.len() >= PARALLEL_TILES && self.kernel.vectors != Vectors::Base {
            self.step_life_tiles_parallel(&todo, p);
        } else if todo.len() >= PARALLEL_TILES
            && self.kernel.has_circuit()
            && !stochastic
            && !self.track_hash
        {
            self.step_circuit_tiles_parallel(&todo, p);
        } else if todo.len() >= PARALLEL_TILES {
            let this = &*self;
            let results: Vec<Computed> = todo
                .par_iter()
                .map_init(Scratch::default, |scratch, &id| {
                    this.compute(id, p, stochastic, key, scratch)
                        .map(|(lo, n)| {
                            let mut rows = [0u64; 64];
                            rows[..n].copy_from_slice(&scratch.out[..n]);
                            Computed { id, lo, rows, n }
                        })
                })
                .flatten()
                .collect();
            for c in results {
                self.apply(c.id, c.lo, &c.rows[..c.n]);
            }
        } else {
            if life {
                self.step_life_tiles(&todo, p);
            } else {
                let mut scratch = self.scratch.take().unwrap_or_default();
                if self.kernel.has_circuit() && !stochastic {
                    self.step_circuit_tiles(&todo, p, &mut scratch);
                } else {
                    for &id in &todo {
                        if let Some((lo, n)) = self.compute(id, p, stochastic, key, &mut scratch) {
                            self.apply(id, lo, &scratch.out[..n]);
                        }
                    }
                }
                self.scratch = Some(scratch);
            }
        }
        self.computed = todo.len();
        self.tiles_computed += todo.len() as u64;
        todo.clear();
        self.todo = todo;
        // An edited tile's old buffer was no real predecessor, so what changed between t - 1
        // and t + 1 is unknown there: it is recomputed once more.
        for id in std::mem::take(&mut self.fresh) {
            let i = id as usize;
            self.meta[i].fresh = false;
            if self.deltas[q][i].is_none() {
                self.active[q].push(id);
            }
            self.deltas[q][i] = Change::all(self.row_mask(id));
        }
        self.parity = q;
        self.set_generation_parity(self.core.generation + 1);
        self.core.generation += 1;
        self.since_sweep += 1;
        if self.since_sweep >= 256 {
            self.since_sweep = 0;
            self.sweep();
        }
    }

    /// For each slot of [`OFFSETS`], the rows of that neighbour of tile `id` that read a cell
    /// of it that changed (none: the neighbour need not be computed for it). The mirror of
    /// what a tile reads of its neighbours: the west tile's east column, the east tile's west
    /// column, and the corners and edge rows of the tiles above and below.
    fn reach(&self, id: u32, p: usize) -> [u64; 8] {
        let c = self.deltas[p][id as usize];
        let m = &self.meta[id as usize];
        let spread = |rows: u64| rows | rows << 1 | rows >> 1;
        // Row 0 of this tile is read by the bottom row of the tiles above.
        let top = |changed: u64| (changed & 1) << (m.vh_above - 1);
        let bottom = |changed: u64| changed >> (m.vh - 1) & 1;
        let mut reach = [0u64; 8];
        reach[NW] = top(c.west);
        reach[N] = top(c.any);
        reach[NE] = top(c.east);
        reach[W] = spread(c.west);
        reach[E] = spread(c.east);
        reach[SW] = bottom(c.west);
        reach[S] = bottom(c.any);
        reach[SE] = bottom(c.east);
        reach
    }

    /// Puts tile `id` on this generation's list (once), needing the rows `rows` besides
    /// those already asked of it.
    #[inline(always)]
    fn mark(&mut self, id: u32, stamp: u64, rows: u64, todo: &mut Vec<u32>) {
        let mark = &mut self.marks[id as usize];
        if mark.stamp != stamp {
            *mark = Mark { stamp, need: 0 };
            todo.push(id);
        }
        mark.need |= rows;
    }

    /// The rows of tile `id` a deterministic step computes: every row of a dense torus's tiles,
    /// else those its changed neighbours and its own changes asked of it ([`Self::mark`]).
    #[inline(always)]
    fn rows_to_compute(&self, id: u32) -> u64 {
        if self.dense {
            self.row_mask(id)
        } else {
            let mark = self.marks[id as usize];
            debug_assert_eq!(
                mark.stamp, self.stamp,
                "tile {id} is not on this generation's list"
            );
            mark.need & self.row_mask(id)
        }
    }

    /// Writes computed rows `lo..` of tile `id` into the next generation's buffer, noting
    /// which changed.
    fn apply(&mut self, id: u32, lo: usize, rows: &[u64]) {
        match self.kernel.vectors {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vectors::available` found POPCNT with AVX2 on this CPU.
            Vectors::Avx2 | Vectors::Avx512 => unsafe { self.apply_popcnt(id, lo, rows) },
            _ => self.apply_any(id, lo, rows),
        }
    }

    /// [`Self::apply`] with the CPU's population count: the baseline's is a dozen operations
    /// a word, and each row written counts two words.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn apply_popcnt(&mut self, id: u32, lo: usize, rows: &[u64]) {
        self.apply_any(id, lo, rows)
    }

    #[inline(always)]
    fn apply_any(&mut self, id: u32, lo: usize, rows: &[u64]) {
        self.apply_rows(id, (lo..).zip(rows.iter().copied()));
    }

    /// Writes each (row, new word) into tile `id`'s next buffer, noting which changed.
    #[inline(always)]
    fn apply_rows(&mut self, id: u32, rows: impl Iterator<Item = (usize, u64)>) {
        let q = 1 - self.parity;
        let i = id as usize;
        let pos = self.meta[i].pos;
        let east_bit = self.meta[i].vw - 1;
        let mut changed = Change::NONE;
        if !self.track_hash {
            // The common case, the population alone: kept as one difference, no call per row.
            let buf = &mut self.bufs[q][i];
            let mut gained = 0i64;
            for (r, new) in rows {
                write_row(&mut buf[r], r, new, east_bit, &mut changed, &mut gained);
            }
            self.sums[q].population = self.sums[q].population.wrapping_add_signed(gained);
        } else {
            for (r, new) in rows {
                let old = self.bufs[q][i][r];
                if old != new {
                    changed.note(r, old, new, east_bit);
                    self.count_word(q, pos, r, old, false);
                    self.count_word(q, pos, r, new, true);
                    self.bufs[q][i][r] = new;
                }
            }
        }
        self.land(id, changed);
    }

    /// Records what changed in tile `id`'s next generation: its masks, and the tile on the
    /// next generation's list.
    fn land(&mut self, id: u32, changed: Change) {
        if !changed.is_none() {
            let q = 1 - self.parity;
            self.deltas[q][id as usize] = changed;
            self.active[q].push(id);
        }
    }

    /// [`Self::step_life_tile`] for each tile of `todo`, compiled again for the vector units
    /// the CPU has (its row loops then take four or eight rows an instruction) and picked at
    /// run time; without AVX2, [`Self::step_life_tile_rolling`] (on iwona, 141 ms the one and
    /// 100 ms the other, with two-word vectors).
    fn step_life_tiles(&mut self, todo: &[u32], p: usize) {
        match self.kernel.vectors {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vectors::available` found them on this CPU.
            Vectors::Avx512 => unsafe { self.step_life_tiles_avx512(todo, p) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Vectors::Avx2 => unsafe { self.step_life_tiles_avx2(todo, p) },
            _ => {
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("popcnt") {
                    // SAFETY: the CPU has POPCNT, checked just above.
                    return unsafe { self.step_life_tiles_popcnt(todo, p) };
                }
                for &id in todo {
                    self.step_life_tile_rolling(id, p);
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn step_life_tiles_popcnt(&mut self, todo: &[u32], p: usize) {
        for &id in todo {
            self.step_life_tile_rolling(id, p);
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn step_life_tiles_avx2(&mut self, todo: &[u32], p: usize) {
        self.step_life_tiles_sized::<false>(todo, p)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vpopcntdq,avx2,popcnt")]
    unsafe fn step_life_tiles_avx512(&mut self, todo: &[u32], p: usize) {
        self.step_life_tiles_sized::<true>(todo, p)
    }

    /// [`Self::step_life_tile`] for each tile of `todo`, the tile's sides constants where every
    /// tile is whole.
    #[inline(always)]
    fn step_life_tiles_sized<const MASKS: bool>(&mut self, todo: &[u32], p: usize) {
        if self.full {
            for &id in todo {
                self.step_life_tile::<MASKS, true>(id, p);
            }
        } else {
            for &id in todo {
                self.step_life_tile::<MASKS, false>(id, p);
            }
        }
    }

    /// Life's next state of the rows of tile `id` that need it, written straight into the next
    /// buffer with the change masks and the population ([`life_rows`]).
    #[inline(always)]
    fn step_life_tile<const MASKS: bool, const FULL: bool>(&mut self, id: u32, p: usize) {
        let need = self.rows_to_compute(id);
        if need == 0 {
            return;
        }
        let q = 1 - p;
        let [b0, b1] = &mut self.bufs;
        let (cur, next) = if p == 0 { (&*b0, b1) } else { (&*b1, b0) };
        let (changed, gained) =
            life_rows::<MASKS, FULL>(&self.meta, cur, id, need, &mut next[id as usize]);
        self.sums[q].population = self.sums[q].population.wrapping_add_signed(gained);
        self.land(id, changed);
    }

    /// The tiles of `todo` that have rows to compute, with those rows.
    fn needs(&self, todo: &[u32]) -> Vec<(u32, u64)> {
        todo.iter()
            .map(|&id| (id, self.rows_to_compute(id)))
            .filter(|&(_, need)| need != 0)
            .collect()
    }

    /// Lands what tiles computed on many cores changed, with the population each gained.
    fn land_all(&mut self, landed: Vec<(u32, Change, i64)>) {
        let q = 1 - self.parity;
        for (id, changed, gained) in landed {
            self.sums[q].population = self.sums[q].population.wrapping_add_signed(gained);
            self.land(id, changed);
        }
    }

    /// [`Self::step_life_tile`] for many tiles on every core: the rows each tile needs, found
    /// first, then each tile computed into its own next buffer, then their changes landed.
    fn step_life_tiles_parallel(&mut self, todo: &[u32], p: usize) {
        let needs = self.needs(todo);
        let (vectors, full) = (self.kernel.vectors, self.full);
        let [b0, b1] = &mut self.bufs;
        let (cur, next) = if p == 0 { (&*b0, b1) } else { (&*b1, b0) };
        let meta = &self.meta;
        let next = NextBuffers::new(next);
        let landed: Vec<(u32, Change, i64)> = needs
            .par_iter()
            .map(|&(id, need)| {
                // SAFETY: each id is on a generation's list once (its mark's stamp), so no
                // two tasks are given the same tile.
                let out = unsafe { next.tile(id) };
                let (changed, gained) = life_rows_on(vectors, full, meta, cur, id, need, out);
                (id, changed, gained)
            })
            .collect();
        self.land_all(landed);
    }

    /// [`Self::step_circuit_tiles`] for many tiles on every core: each task batches a run of
    /// them as the one-thread path does and writes each into its own next buffer; their changes
    /// are landed after. One tile at a time through [`Self::compute`] took ten times as long a
    /// tile (rr14gun to 20,000 generations on the tile engine, past 512 tiles from about
    /// 12,000 on: 3.8 s, against Golly's 0.6 s).
    fn step_circuit_tiles_parallel(&mut self, todo: &[u32], p: usize) {
        let needs = self.needs(todo);
        let vectors = self.kernel.vectors;
        let [b0, b1] = &mut self.bufs;
        let (cur, next) = if p == 0 { (&*b0, b1) } else { (&*b1, b0) };
        let next = NextBuffers::new(next);
        let step = CircuitStep {
            kernel: &self.kernel,
            meta: &self.meta,
            cur,
            next: &next,
            full: self.full,
        };
        let landed: Vec<(u32, Change, i64)> = needs
            .par_chunks(CIRCUIT_TILES_A_TASK)
            .map_init(Scratch::default, |s, chunk| {
                let mut landed = Vec::with_capacity(chunk.len());
                circuit_tiles_on(vectors, &step, chunk, s, &mut landed);
                landed
            })
            .flatten_iter()
            .collect();
        self.land_all(landed);
    }

    /// Life's next state of the rows of tile `id` that need it, a row at a time: each input
    /// row's sum of three is made once and rolls through registers. For CPUs without wide
    /// vectors, where [`Self::step_life_tile`]'s whole vectors of rows would cost more than the
    /// rows a tile needs.
    #[inline(always)]
    fn step_life_tile_rolling(&mut self, id: u32, p: usize) {
        let need = self.rows_to_compute(id);
        if need == 0 {
            return;
        }
        let (lo, hi) = (
            need.trailing_zeros() as usize,
            63 - need.leading_zeros() as usize,
        );
        let q = 1 - p;
        let i = id as usize;
        let meta = &self.meta;
        let m = &meta[i];
        let [b0, b1] = &mut self.bufs;
        let (cur, next) = if p == 0 { (&*b0, b1) } else { (&*b1, b0) };
        let rows_of = |t: u32| if t == NONE { &EMPTY } else { &cur[t as usize] };
        let west_bit_of = |t: u32| {
            if t == NONE {
                63
            } else {
                meta[t as usize].vw - 1
            }
        };
        let east_shift = m.vw - 1;
        let (me, west, east) = (rows_of(id), rows_of(m.nbrs[W]), rows_of(m.nbrs[E]));
        let west_bit = west_bit_of(m.nbrs[W]);
        // The rows round the tile: the last row of the tiles above and the first of those below.
        let edge = |[c, w, e]: [u32; 3], row: usize| {
            let c = rows_of(c)[row];
            let wb = rows_of(w)[row] >> west_bit_of(w) & 1;
            sum_of_three(c, wb, rows_of(e)[row] & 1, east_shift)
        };
        let inner =
            |r: usize| sum_of_three(me[r], west[r] >> west_bit & 1, east[r] & 1, east_shift);
        let vh = m.vh as usize;
        let mask = if m.vw == 64 {
            u64::MAX
        } else {
            (1u64 << m.vw) - 1
        };
        let (mut a0, mut t0, _) = if lo == 0 {
            edge([m.nbrs[N], m.nbrs[NW], m.nbrs[NE]], m.vh_above as usize - 1)
        } else {
            inner(lo - 1)
        };
        let below = if hi + 1 == vh {
            edge([m.nbrs[S], m.nbrs[SW], m.nbrs[SE]], 0)
        } else {
            (0, 0, 0)
        };
        let (mut a1, mut t1, mut alive) = inner(lo);
        let out = &mut next[i];
        let mut changed = Change::NONE;
        let mut gained = 0i64;
        for (r, slot) in (lo..=hi).zip(&mut out[lo..=hi]) {
            let (a2, t2, c2) = if r + 1 < vh { inner(r + 1) } else { below };
            let new = super::kernel::life_next([a0, a1, a2], [t0, t1, t2], alive) & mask;
            write_row(slot, r, new, east_shift, &mut changed, &mut gained);
            (a0, t0, a1, t1, alive) = (a1, t1, a2, t2, c2);
        }
        self.sums[q].population = self.sums[q].population.wrapping_add_signed(gained);
        self.land(id, changed);
    }

    /// The tiles of `todo` under a rule's circuit: each one's rows that need computing, by
    /// vectors ([`vectors`]), wait in one batch with other tiles' and the circuit runs on
    /// the whole batch at once. A tile needs a handful of rows (a spaceship's, an
    /// oscillator's), and the circuit run on so few costs nearly what it costs on sixteen or
    /// more. Compiled again for the vector units the CPU has and picked at run time.
    fn step_circuit_tiles(&mut self, todo: &[u32], p: usize, s: &mut Scratch) {
        match self.kernel.vectors {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Vectors::available` found them on this CPU.
            Vectors::Avx512 => unsafe { self.step_circuit_tiles_avx512(todo, p, s) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Vectors::Avx2 => unsafe { self.step_circuit_tiles_avx2(todo, p, s) },
            _ => self.step_circuit_tiles_sized::<false>(todo, p, s),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn step_circuit_tiles_avx2(&mut self, todo: &[u32], p: usize, s: &mut Scratch) {
        self.step_circuit_tiles_sized::<false>(todo, p, s)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512vpopcntdq,avx2,popcnt")]
    unsafe fn step_circuit_tiles_avx512(&mut self, todo: &[u32], p: usize, s: &mut Scratch) {
        self.step_circuit_tiles_sized::<true>(todo, p, s)
    }

    /// [`Self::step_circuit_tiles`] with the tile's sides constants where every tile is whole.
    #[inline(always)]
    fn step_circuit_tiles_sized<const MASKS: bool>(
        &mut self,
        todo: &[u32],
        p: usize,
        s: &mut Scratch,
    ) {
        if self.full {
            self.step_circuit_tiles_in::<MASKS, true>(todo, p, s)
        } else {
            self.step_circuit_tiles_in::<MASKS, false>(todo, p, s)
        }
    }

    #[inline(always)]
    fn step_circuit_tiles_in<const MASKS: bool, const FULL: bool>(
        &mut self,
        todo: &[u32],
        p: usize,
        s: &mut Scratch,
    ) {
        let mut waiting = std::mem::take(&mut s.waiting);
        for &id in todo {
            let need = self.rows_to_compute(id);
            if need == 0 {
                continue;
            }
            // A tile's vectors go in one batch, so that it lands once.
            let batch = s.planes.batch();
            if batch.room() < vectors(need).count() * LANES {
                self.apply_circuit_batch::<MASKS, FULL>(&mut waiting, batch);
            }
            for (x, _) in vectors(need) {
                let slots = batch.push_lanes().expect("a tile's vectors fit the batch");
                circuit_inputs::<FULL, MASKS>(&self.meta, &self.bufs[p], id, x, slots);
            }
            waiting.push((id, need));
        }
        self.apply_circuit_batch::<MASKS, FULL>(&mut waiting, s.planes.batch());
        s.waiting = waiting;
    }

    /// Runs the circuit on `batch` and writes each waiting tile's vectors, in the order
    /// gathered.
    #[inline(always)]
    fn apply_circuit_batch<const MASKS: bool, const FULL: bool>(
        &mut self,
        waiting: &mut Vec<(u32, u64)>,
        batch: &mut Batch,
    ) {
        let results = self.kernel.run_batch(batch);
        let q = 1 - self.parity;
        let mut at = 0;
        for (id, need) in waiting.drain(..) {
            let i = id as usize;
            let m = &self.meta[i];
            if self.track_hash {
                // The census's hash counts each word written: row by row.
                let mask = if m.vw == 64 {
                    u64::MAX
                } else {
                    (1u64 << m.vw) - 1
                };
                let mut written = [(0, 0); 64];
                let mut n = 0;
                for (x, rows) in vectors(need) {
                    let next = lanes_of(results, at);
                    at += LANES;
                    // The rows not needed cannot have changed: nothing round them did.
                    for j in set_bits(rows) {
                        written[n] = (x + j, next[j] & mask);
                        n += 1;
                    }
                }
                self.apply_rows(id, written[..n].iter().copied());
                continue;
            }
            let out = &mut self.bufs[q][i];
            let mut changed = Change::NONE;
            let mut gained = [0i64; LANES];
            for (x, _) in vectors(need) {
                let next = lanes_of(results, at);
                write_lanes::<MASKS, FULL>(m, x, next, out, &mut changed, &mut gained);
                at += LANES;
            }
            let gained: i64 = gained.iter().sum();
            self.sums[q].population = self.sums[q].population.wrapping_add_signed(gained);
            self.land(id, changed);
        }
    }

    /// Rows `lo - 1 ..= hi + 1` of tile `id` (the first and last from the tiles above and
    /// below where they lie beyond it) into `s`'s rows from 0, each shifted west (`s.w`), as
    /// it is (`s.c`) and shifted east (`s.e`), its neighbours' edge cells shifted in.
    fn load_rows(&self, id: u32, p: usize, lo: usize, hi: usize, s: &mut Scratch) {
        let n = hi - lo + 1;
        let m = &self.meta[id as usize];
        let buf = &self.bufs[p];
        let rows_of = |t: u32| if t == NONE { &EMPTY } else { &buf[t as usize] };
        let vw_of = |t: u32| {
            if t == NONE {
                64
            } else {
                self.meta[t as usize].vw
            }
        };
        let east_shift = m.vw - 1;
        let (me, west, east) = (rows_of(id), rows_of(m.nbrs[W]), rows_of(m.nbrs[E]));
        let west_bit = vw_of(m.nbrs[W]) - 1;
        // Input row k is tile row lo - 1 + k; the first and last may come from the tiles
        // above and below.
        let from_above = lo == 0;
        let from_below = hi as u32 + 1 >= m.vh;
        let k_start = from_above as usize;
        let k_end = if from_below { n + 1 } else { n + 2 };
        for k in k_start..k_end {
            let r = lo + k - 1;
            let cw = me[r];
            s.c[k] = cw;
            s.w[k] = cw << 1 | (west[r] >> west_bit & 1);
            s.e[k] = cw >> 1 | (east[r] & 1) << east_shift;
        }
        if from_above {
            let i = m.vh_above as usize - 1;
            let nw = m.nbrs[NW];
            let edge = [rows_of(m.nbrs[N]), rows_of(nw), rows_of(m.nbrs[NE])];
            put_row(s, 0, edge, vw_of(nw) - 1, east_shift, i);
        }
        if from_below {
            let sw = m.nbrs[SW];
            let edge = [rows_of(m.nbrs[S]), rows_of(sw), rows_of(m.nbrs[SE])];
            put_row(s, n + 1, edge, vw_of(sw) - 1, east_shift, 0);
        }
    }

    /// The next state of the rows of tile `id` that need it, into `scratch.out`: returns the
    /// first row and how many.
    fn compute(
        &self,
        id: u32,
        p: usize,
        stochastic: bool,
        key: u32,
        s: &mut Scratch,
    ) -> Option<(usize, usize)> {
        let need = if stochastic {
            self.row_mask(id)
        } else {
            self.rows_to_compute(id)
        };
        if need == 0 {
            return None;
        }
        let lo = need.trailing_zeros() as usize;
        let hi = 63 - need.leading_zeros() as usize;
        let n = hi - lo + 1;
        self.load_rows(id, p, lo, hi, s);
        let m = &self.meta[id as usize];
        let (w, c, e) = (&s.w[..n + 2], &s.c[..n + 2], &s.e[..n + 2]);
        let out = &mut s.out[..n];
        if stochastic {
            let x0 = m.pos.0 * TILE;
            let y0 = m.pos.1 * TILE + lo as i64;
            self.kernel
                .rows_stochastic(w, c, e, out, &mut s.planes, key, x0, y0, &|x, y| {
                    (x as u32, y as u32)
                });
        } else {
            // A rule's circuit costs the same for every row it computes: only the rows that
            // need it are. The others cannot change from two generations before (nothing
            // round them did), which the next buffer holds.
            out.copy_from_slice(&self.bufs[1 - p][id as usize][lo..lo + n]);
            self.kernel
                .rows_where(w, c, e, out, need >> lo, &mut s.planes);
        }
        if m.vw < 64 {
            let mask = (1u64 << m.vw) - 1;
            for r in out.iter_mut() {
                *r &= mask;
            }
        }
        Some((lo, n))
    }

    /// Live cells of row `y` from column `x` on, `n` (1..=64) of them, as the low bits of a
    /// word; wrapping on a torus.
    fn row_bits(&self, x: i64, y: i64, n: u32) -> u64 {
        let p = self.parity;
        let mut out = 0u64;
        let mut got = 0u32;
        let (mut x, y) = self.universe.wrap(x, y);
        while got < n {
            let (tx, bx) = (x.div_euclid(TILE), x.rem_euclid(TILE) as u32);
            let ty = y.div_euclid(TILE);
            let r = y.rem_euclid(TILE) as usize;
            let id = self.find(tx, ty);
            let mut take = (64 - bx).min(n - got);
            if let Some(width) = self.universe.wrapped_sides().0 {
                take = take.min((width as i64 - x) as u32);
            }
            if id != NONE {
                let word = self.bufs[p][id as usize][r] >> bx;
                let mask = if take == 64 {
                    u64::MAX
                } else {
                    (1u64 << take) - 1
                };
                out |= (word & mask) << got;
            }
            got += take;
            x += take as i64;
            if let Some(width) = self.universe.wrapped_sides().0
                && x >= width as i64
            {
                x -= width as i64;
            }
        }
        out
    }

    /// Applies `op(old, bits, mask)` to `n` cells of row `y` from column `x` on (wrapping).
    /// Cells beyond a bounded plane's or a strip's edge are not on the grid, and are dropped
    /// (as the reference engine drops them).
    fn write_bits(&mut self, x: i64, y: i64, mut n: u32, mut bits: u64, how: Put) {
        let mut done = 0u32;
        let (mut x, y) = self.universe.wrap(x, y);
        // Clipped to an edge across the row: a bounded plane's, a tall strip's.
        if self.universe.wrapped_sides().0.is_none()
            && let Some(width) = self.universe.finite_sides().0
        {
            if x < 0 {
                let skip = x.unsigned_abs().min(n as u64) as u32;
                bits = bits.checked_shr(skip).unwrap_or(0);
                n -= skip;
                x = 0;
            }
            n = n.min((width as i64 - x).max(0) as u32);
        }
        if n == 0 || !self.universe.holds(x, y) {
            return;
        }
        while done < n {
            let (tx, bx) = (x.div_euclid(TILE), x.rem_euclid(TILE) as u32);
            let (ty, r) = (y.div_euclid(TILE), y.rem_euclid(TILE) as usize);
            let mut take = (64 - bx).min(n - done);
            if let Some(width) = self.universe.wrapped_sides().0 {
                take = take.min((width as i64 - x) as u32);
            }
            let mask = if take == 64 {
                u64::MAX
            } else {
                (1u64 << take) - 1
            };
            let piece = (bits >> done) & mask;
            if piece != 0 || how == Put::Replace {
                let id = if piece != 0 {
                    self.tile_at(tx, ty)
                } else {
                    self.find(tx, ty)
                };
                if id != NONE {
                    let old = self.bufs[self.parity][id as usize][r];
                    let new = match how {
                        Put::Or => old | piece << bx,
                        Put::Erase => old & !(piece << bx),
                        Put::Replace => (old & !(mask << bx)) | piece << bx,
                    };
                    self.write_current(id, r, new);
                }
            }
            done += take;
            x += take as i64;
            if let Some(width) = self.universe.wrapped_sides().0
                && x >= width as i64
            {
                x -= width as i64;
            }
        }
    }

    /// Live tiles: (position, current rows).
    fn live_tiles(&self) -> impl Iterator<Item = ((i64, i64), &TileBits)> {
        let p = self.parity;
        self.meta
            .iter()
            .enumerate()
            .filter(|(_, m)| m.live)
            .map(move |(i, m)| (m.pos, &self.bufs[p][i]))
    }

    /// Tiles computed in the last generation and still changing: for reports.
    pub fn active_tiles(&self) -> usize {
        self.active[self.parity].len()
    }

    /// Tiles the last generation computed (some of them to find that nothing changed).
    pub fn computed_tiles(&self) -> usize {
        self.computed
    }

    /// Tiles held.
    pub fn tiles(&self) -> usize {
        self.meta.iter().filter(|m| m.live).count()
    }
}

impl Engine for TileEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        self.universe
    }

    fn set_generation(&mut self, generation: u64) {
        self.set_generation_parity(generation);
        self.core.generation = generation;
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for _ in 0..generations {
            self.step_once();
        }
        Ok(())
    }

    fn work(&self) -> Option<Work> {
        Some(Work::TilesComputed(self.tiles_computed))
    }

    fn step_piece(&self) -> u64 {
        let active = self.active[self.parity].len().max(1) as u64;
        ((1 << 14) / active).clamp(1, 4096)
    }

    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.sums[self.parity].population)
    }

    fn census(&mut self) -> EngineResult<Census> {
        if !self.track_hash {
            self.track_hash = true;
            self.recount();
        }
        Ok(self.sums[self.parity].census())
    }

    fn track_hash(&mut self, on: bool) {
        if on != self.track_hash {
            self.track_hash = on;
            self.recount();
        }
    }

    fn step_census(&mut self, gens: u64, out: &mut Vec<Census>) -> EngineResult<()> {
        Engine::track_hash(self, true);
        for _ in 0..gens {
            self.step_once();
            out.push(self.sums[self.parity].census());
        }
        Ok(())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.row_bits(x, y, 1) & 1 == 1)
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.write_bits(x, y, 1, alive as u64, Put::Replace);
        Ok(())
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        let (cw, ch) = (cells.width(), cells.height());
        let (width, height) = self.universe.wrapped_sides();
        let (cw, ch) = (
            width.map_or(cw, |w| cw.min(w)),
            height.map_or(ch, |h| ch.min(h)),
        );
        for y in 0..ch {
            let row = cells.row(y);
            let mut x = 0;
            while x < cw {
                let n = (cw - x).min(64);
                let bits = row[(x / 64) as usize];
                if bits != 0 || how == Put::Replace {
                    self.write_bits(at.0 + x as i64, at.1 + y as i64, n, bits, how);
                }
                x += n;
            }
        }
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        let fresh = TileEngine::new(self.core.rule, self.universe, self.seed)?;
        let (generation, track) = (self.core.generation, self.track_hash);
        *self = fresh;
        self.set_generation_parity(generation);
        self.core.generation = generation;
        self.track_hash = track;
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        let mut b: Option<Bounds> = None;
        for ((tx, ty), t) in self.live_tiles() {
            let all = t.iter().fold(0, |a, &w| a | w);
            if all == 0 {
                continue;
            }
            let top = t.iter().position(|&w| w != 0).expect("not empty");
            let bottom = t.iter().rposition(|&w| w != 0).expect("not empty");
            let tb = Bounds {
                left: tx * TILE + all.trailing_zeros() as i64,
                right: tx * TILE + 63 - all.leading_zeros() as i64,
                top: ty * TILE + top as i64,
                bottom: ty * TILE + bottom as i64,
            };
            b = Some(b.map_or(tb, |b| b.union(tb)));
        }
        Ok(b)
    }

    /// The tiles the next generation computes, over the torus's tiles, or on the plane over
    /// the tiles held.
    fn active_fraction(&mut self) -> EngineResult<Option<f64>> {
        let tiles = match self.universe.cells() {
            Some(cells) => cells.div_ceil(4096),
            None => self.tiles() as u64,
        };
        Ok(Some(self.active_tiles() as f64 / tiles.max(1) as f64))
    }

    fn view_costs_area(&self) -> bool {
        // Its view is read from its live cells (or nodes), whatever the rectangle.
        false
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        match crate::engine::sample_tiles(self.live_tiles(), self.universe, rect, block) {
            Some(s) => Ok(s),
            None => crate::engine::sample_by_bands(self, rect, block),
        }
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        let mut out = Grid::try_new_bitmap(rect.width, rect.height)?;
        for y in 0..rect.height {
            let gy = rect.y + y as i64;
            let mut x = 0;
            while x < rect.width {
                let n = (rect.width - x).min(64);
                let bits = self.row_bits(rect.x + x as i64, gy, n);
                out.row_mut(y)[(x / 64) as usize] = bits;
                x += n;
            }
        }
        Ok(out)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        let mut map = TileMap::new();
        for ((tx, ty), t) in self.live_tiles() {
            if t.iter().any(|&w| w != 0) {
                map.insert(tx, ty, *t);
            }
        }
        Ok(map)
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        self.clear()?;
        for ((tx, ty), bits) in tiles.iter() {
            // A tile lands as it is only where it lies inside each finite side.
            let (width, height) = self.universe.finite_sides();
            let columns_fit = width.is_none_or(|width| {
                let vw = width as i64 - tx * TILE;
                if tx < 0 || vw <= 0 {
                    return false;
                }
                let outside = if vw >= 64 { 0 } else { !((1u64 << vw) - 1) };
                bits.iter().all(|&w| w & outside == 0)
            });
            let rows_fit = height.is_none_or(|height| {
                let vh = height as i64 - ty * TILE;
                ty >= 0 && vh > 0 && bits[vh.min(64) as usize..].iter().all(|&w| w == 0)
            });
            let aligned = columns_fit && rows_fit;
            if aligned {
                let id = self.tile_at(tx, ty);
                for (r, &w) in bits.iter().enumerate() {
                    if w != 0 {
                        self.write_current(id, r, w);
                    }
                }
            } else {
                for (r, &w) in bits.iter().enumerate() {
                    for b in crate::grid::BitIter(w) {
                        self.write_bits(tx * TILE + b as i64, ty * TILE + r as i64, 1, 1, Put::Or);
                    }
                }
            }
        }
        Ok(())
    }

    fn note(&self) -> Option<String> {
        self.dense.then(|| {
            format!(
                "{} gives birth on empty space (B0): the tile engine runs the whole torus densely",
                self.core.rule
            )
        })
    }
}

#[cfg(test)]
mod tests;
