//! The fast CPU engine: 64 cells per `u64`, neighbours counted bit-sliced with full adders on
//! whole words, the rule applied as word-wide boolean logic, rows spread over threads by rayon.
//!
//! Per output row the kernel works in passes over small per-thread arrays, each pass a simple
//! loop the compiler vectorises:
//! 1. *Extended rows.* The input rows are copied (or, for the Moore neighbourhood, summed
//!    vertically into two bit planes) into arrays with a ghost word on each side, and the torus
//!    wrap is injected: cell W-1 goes to bit 63 of the left ghost, cell 0 to the first padding
//!    bit (or bit 0 of the right ghost when W is a multiple of 64). Horizontal neighbours are
//!    then plain shifts with carries, whatever the width.
//! 2. *Counts.* Shifted words go through full and half adders into count planes.
//! 3. *Rule.* For each count value the rule can make alive, `equal(count) & mask(state)` is OR-ed
//!    into the result. Padding bits are cleared at the end.
//!
//! Moore counts use the column-sum trick: the 3-row vertical sums (2 bits) of columns x-1, x,
//! x+1 add up to the 9-cell total t = n + alive, and the rule is re-indexed by t.

use rayon::prelude::*;

use super::kernel::count_planes;
use crate::engine::dense;
use crate::engine::{
    Bounds, CellRect, Core, Engine, EngineKind, EngineResult, Put, Sampled, Universe,
};
use crate::grid::{Census, Grid, GridError};
use crate::hash;
use crate::rule::{Circuit, CountTable, ElementaryRule, LifeRule, Neighbourhood, Rule, RuleKind};
use crate::tiles::TileMap;

/// Below this many cells a generation runs on the calling thread: spawning costs more.
const PARALLEL_CELLS: u64 = 1 << 16;

/// Words per rayon task, at least: a task of 8 one-word rows (a 1-wide torus) cost more to
/// schedule than to compute.
const BAND_WORDS: usize = 4096;

pub struct FastEngine {
    core: Core,
    logic: Logic,
    seed: u64,
    grid: Grid,
    next: Grid,
    /// Per row of `grid`: whether it has a live cell. Rows whose neighbourhood is all dead are
    /// skipped when the rule keeps empty space empty, so a small pattern on a huge torus costs
    /// little more than the rows it touches.
    active: Vec<bool>,
    /// The same flags for `next` (the state before the current one): a quiet row that is
    /// already all dead there need not be cleared.
    next_active: Vec<bool>,
    /// The population and hash of `grid`, kept up to date row by row (the hash only while
    /// `track_hash` is set: it costs more than a generation of a dense soup).
    census: Census,
    track_hash: bool,
}

/// What one output row contributes to the census.
#[derive(Clone, Copy, Default)]
struct RowStats {
    population: u64,
    hash_a: u32,
    hash_b: u32,
}

impl RowStats {
    fn add(&mut self, o: RowStats) {
        self.population += o.population;
        self.hash_a = self.hash_a.wrapping_add(o.hash_a);
        self.hash_b = self.hash_b.wrapping_add(o.hash_b);
    }

    /// The census of rows or bands from their sums.
    fn total(parts: &[RowStats]) -> Census {
        let mut t = RowStats::default();
        parts.iter().for_each(|&p| t.add(p));
        Census {
            population: t.population,
            hash: t.hash_a as u64 | (t.hash_b as u64) << 32,
        }
    }

    /// The same per-word sums as `Grid::census`; the hash only when asked for.
    fn of(row: &[u64], y: u32, with_hash: bool) -> Self {
        let mut s = RowStats {
            population: row.iter().map(|w| w.count_ones() as u64).sum(),
            ..Default::default()
        };
        if !with_hash {
            return s;
        }
        let base = y as usize * row.len() * 2;
        for (k, &w) in row.iter().enumerate() {
            if w == 0 {
                continue;
            }
            for (half, part) in [(0, w as u32), (1, (w >> 32) as u32)] {
                if part != 0 {
                    let i = (base + 2 * k + half) as u32;
                    s.hash_a = s.hash_a.wrapping_add(hash::mix32(part ^ hash::mix32(i)));
                    s.hash_b = s
                        .hash_b
                        .wrapping_add(hash::mix32(part.wrapping_add(hash::mix32(i ^ 0x9e37_79b9))));
                }
            }
        }
        s
    }
}

/// The rule compiled to per-count word masks.
#[derive(Clone, Debug)]
enum Logic {
    Life {
        neighbourhood: Neighbourhood,
        /// For each count value c (t for Moore, n otherwise): (mask if dead, mask if alive),
        /// all ones where the cell is certainly alive next.
        certain: Vec<(usize, u64, u64)>,
        /// Count values with a stochastic outcome: (c, threshold if dead, threshold if alive);
        /// 0 means no chance.
        chance: Vec<(usize, u32, u32)>,
    },
    Elementary(ElementaryRule),
    /// A rule of the 3x3 block, and whether it gives birth on empty space.
    Map(Circuit, bool),
}

impl Logic {
    /// Whether a dead cell with no live neighbour stays dead, so all-dead rows stay dead.
    fn keeps_empty_space_empty(&self) -> bool {
        match self {
            Logic::Elementary(r) => r.0 & 1 == 0,
            Logic::Map(_, b0) => !b0,
            Logic::Life {
                certain, chance, ..
            } => {
                !certain.iter().any(|&(c, dead, _)| c == 0 && dead != 0)
                    && !chance.iter().any(|&(c, dead, _)| c == 0 && dead != 0)
            }
        }
    }

    fn new(rule: &Rule) -> Self {
        match rule.kind {
            RuleKind::Elementary(r) => Logic::Elementary(r),
            RuleKind::Life(r) => Self::life(&r),
            RuleKind::Map(r) => Logic::Map(Circuit::new(&r), r.births_from_nothing()),
            // The registry keeps Generations rules off this two-state engine.
            RuleKind::Generations(g) => {
                panic!("the dense engine has two states; {g} has {}", g.states)
            }
            // The registry keeps the other rule files off too.
            RuleKind::Loaded(_) => match rule.block_rule() {
                Some(r) => Logic::Map(Circuit::new(&r), r.births_from_nothing()),
                None => panic!(
                    "the dense engine runs two-state rules of the 3x3 block; {}",
                    rule.why_no_block_rule()
                ),
            },
            RuleKind::Ltl(l) => panic!(
                "the dense engine counts 8 neighbours; {l} has range {}",
                l.range
            ),
        }
    }

    fn life(rule: &LifeRule) -> Self {
        let table = CountTable::new(rule);
        let mask = |bits: u32, c: usize| if bits >> c & 1 == 1 { u64::MAX } else { 0 };
        let (dead_bits, alive_bits) = (table.certain_bits(false), table.certain_bits(true));
        let (dead_t, alive_t) = (table.thresholds(false), table.thresholds(true));
        Logic::Life {
            neighbourhood: rule.neighbourhood,
            certain: (0..table.values)
                .filter(|&c| (dead_bits | alive_bits) >> c & 1 == 1)
                .map(|c| (c, mask(dead_bits, c), mask(alive_bits, c)))
                .collect(),
            chance: (0..table.values)
                .filter(|&c| dead_t[c] != 0 || alive_t[c] != 0)
                .map(|c| (c, dead_t[c], alive_t[c]))
                .collect(),
        }
    }
}

impl FastEngine {
    /// An empty `width x height` torus.
    pub fn empty(rule: Rule, width: u32, height: u32, seed: u64) -> Result<Self, GridError> {
        let grid = Grid::try_new(width, height)?;
        Ok(Self::new(rule, &grid, seed))
    }

    pub fn new(rule: Rule, grid: &Grid, seed: u64) -> Self {
        let mut engine = Self {
            logic: Logic::new(&rule),
            core: Core::new(EngineKind::Dense, "cpu", rule),
            seed,
            next: Grid::new(grid.width(), grid.height()),
            grid: grid.clone(),
            active: Vec::new(),
            next_active: vec![true; grid.height() as usize],
            census: Census {
                population: 0,
                hash: 0,
            },
            track_hash: false,
        };
        engine.recount();
        engine
    }

    /// Keeps the state hash up to date every generation (for period detection).
    pub fn track_hash(&mut self, on: bool) {
        self.track_hash = on;
        self.recount();
    }

    /// Recomputes the row flags and the census from the grid.
    fn recount(&mut self) {
        let stats: Vec<RowStats> = (0..self.grid.height())
            .map(|y| RowStats::of(self.grid.row(y), y, self.track_hash))
            .collect();
        self.absorb(&stats);
        // What `next` holds is unknown here: clear every quiet row once.
        self.next_active = vec![true; self.grid.height() as usize];
    }

    fn absorb(&mut self, stats: &[RowStats]) {
        let active = stats.iter().map(|s| s.population > 0).collect();
        self.next_active = std::mem::replace(&mut self.active, active);
        self.census = RowStats::total(stats);
    }

    /// One generation.
    pub fn step_once(&mut self) {
        let src = &self.grid;
        let wpr = src.words_per_row();
        let h = src.height() as usize;
        let skip_quiet = self.logic.keeps_empty_space_empty();
        let with_hash = self.track_hash;
        let active = &self.active;
        // The rows around y on the torus, without a division per row (five of them cost more than
        // a one-word row's arithmetic).
        let around = |y: usize| {
            (
                if y == 0 { h - 1 } else { y - 1 },
                if y + 1 == h { 0 } else { y + 1 },
            )
        };
        let quiet = |y: usize| {
            let (above, below) = around(y);
            skip_quiet && !active[above] && !active[y] && !active[below]
        };
        let ctx = RowContext {
            src,
            logic: &self.logic,
            key: hash::stream_key(self.seed, self.core.generation),
        };
        // Each row's flag for the new state overwrites its flag for the state before, which
        // only that row reads; a band's census is one sum (a stats entry per row was 256 MB,
        // fresh each generation, on a 1 x 16,777,216 torus).
        let mut flags = std::mem::take(&mut self.next_active);
        if flags.len() != h {
            flags = vec![true; h];
        }
        let out = self.next.words_mut();
        let one_row = |y: usize, row: &mut [u64], flag: &mut bool, scratch: &mut Scratch| {
            if quiet(y) {
                if *flag {
                    row.fill(0);
                }
                *flag = false;
                RowStats::default()
            } else {
                ctx.row(y as u32, row, scratch);
                let stat = RowStats::of(row, y as u32, with_hash);
                *flag = stat.population > 0;
                stat
            }
        };
        let band_rows = if src.cells() < PARALLEL_CELLS {
            h
        } else {
            (BAND_WORDS / wpr).max(8)
        };
        let band = |scratch: &mut Scratch,
                    (band, (rows, flags)): (usize, (&mut [u64], &mut [bool]))| {
            let mut sum = RowStats::default();
            for (i, (row, flag)) in rows.chunks_exact_mut(wpr).zip(flags.iter_mut()).enumerate() {
                sum.add(one_row(band * band_rows + i, row, flag, scratch));
            }
            sum
        };
        let sums: Vec<RowStats> = if band_rows >= h {
            vec![band(&mut Scratch::new(wpr), (0, (out, &mut flags)))]
        } else {
            out.par_chunks_mut(wpr * band_rows)
                .zip(flags.par_chunks_mut(band_rows))
                .enumerate()
                .map_init(|| Scratch::new(wpr), band)
                .collect()
        };
        std::mem::swap(&mut self.grid, &mut self.next);
        self.next_active = std::mem::replace(&mut self.active, flags);
        self.census = RowStats::total(&sums);
        self.core.generation += 1;
    }

    /// The current cells, without copying.
    pub fn grid_ref(&self) -> &Grid {
        &self.grid
    }

    /// Sets one cell, keeping the row flags and the population right (the hash is recomputed
    /// on the next census if it is being tracked).
    pub fn set_cell(&mut self, x: u32, y: u32, alive: bool) {
        if self.grid.get(x, y) == alive {
            return;
        }
        self.grid.set(x, y, alive);
        self.active[y as usize] = self.grid.row(y).iter().any(|&w| w != 0);
        if alive {
            self.census.population += 1;
        } else {
            self.census.population -= 1;
        }
        if self.track_hash {
            self.recount();
        }
    }

    /// The live cells, row by row, visiting only rows that have any (cheap for a small
    /// pattern on a huge torus).
    pub fn live_cells(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for (y, _) in self.active.iter().enumerate().filter(|(_, a)| **a) {
            for (i, &w) in self.grid.row(y as u32).iter().enumerate() {
                out.extend(crate::grid::BitIter(w).map(|b| (i as u32 * 64 + b, y as u32)));
            }
        }
        out
    }
}

impl Engine for FastEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        dense::universe(&self.grid)
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for _ in 0..generations {
            self.step_once();
        }
        Ok(())
    }

    fn step_piece(&self) -> u64 {
        // About 2^24 cell updates between looks at the progress.
        ((1u64 << 24) / self.grid.cells().max(1)).max(1)
    }

    fn population(&mut self) -> EngineResult<u64> {
        Ok(self.census.population)
    }

    fn census(&mut self) -> EngineResult<Census> {
        if self.track_hash {
            Ok(self.census)
        } else {
            Ok(self.grid.census())
        }
    }

    fn track_hash(&mut self, on: bool) {
        if self.track_hash != on {
            FastEngine::track_hash(self, on);
        }
    }

    fn step_census(&mut self, gens: u64, out: &mut Vec<Census>) -> EngineResult<()> {
        if !self.track_hash {
            FastEngine::track_hash(self, true);
        }
        for _ in 0..gens {
            self.step_once();
            out.push(self.census);
        }
        Ok(())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        let (x, y) = dense::wrap(&self.grid, x, y);
        Ok(self.grid.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        let (x, y) = dense::wrap(&self.grid, x, y);
        FastEngine::set_cell(self, x, y, alive);
        Ok(())
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        dense::put(&mut self.grid, cells, at, how);
        self.recount();
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.grid.clear();
        self.recount();
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(dense::bounds(&self.grid))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        Ok(dense::cells_in(&self.grid, rect))
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        Ok(dense::sample(&self.grid, rect, block))
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(dense::export(&self.grid))
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        dense::import(&mut self.grid, tiles);
        self.recount();
        Ok(())
    }

    fn dense(&self) -> Option<&Grid> {
        Some(&self.grid)
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.grid.clone())
    }
}

/// Per-thread arrays, each `wpr + 2` words: a ghost word on either side of the row.
struct Scratch {
    a: Vec<u64>,
    b: Vec<u64>,
    c: Vec<u64>,
    /// Count planes, `wpr` words each.
    planes: [Vec<u64>; 4],
    acc: Vec<u64>,
    /// A circuit's values.
    values: Vec<u64>,
}

impl Scratch {
    fn new(wpr: usize) -> Self {
        Self {
            a: vec![0; wpr + 2],
            b: vec![0; wpr + 2],
            c: vec![0; wpr + 2],
            planes: std::array::from_fn(|_| vec![0; wpr]),
            acc: vec![0; wpr],
            values: Vec::new(),
        }
    }
}

struct RowContext<'a> {
    src: &'a Grid,
    logic: &'a Logic,
    key: u32,
}

/// Fills `ext[1..=wpr]` from `row` and sets up the wrap: cell W-1 at bit 63 of `ext[0]`, cell 0
/// at bit W of the row (the first padding bit) or at bit 0 of `ext[wpr + 1]`.
fn extend(ext: &mut [u64], width: u32) {
    let wpr = ext.len() - 2;
    let last = width - 1;
    let last_bit = ext[1 + (last / 64) as usize] >> (last % 64) & 1;
    let first_bit = ext[1] & 1;
    ext[0] = last_bit << 63;
    ext[wpr + 1] = first_bit;
    if !width.is_multiple_of(64) {
        ext[wpr] |= first_bit << (width % 64);
    }
}

#[inline(always)]
fn west(ext: &[u64], i: usize) -> u64 {
    ext[i] << 1 | ext[i - 1] >> 63
}

#[inline(always)]
fn east(ext: &[u64], i: usize) -> u64 {
    ext[i] >> 1 | ext[i + 1] << 63
}

impl RowContext<'_> {
    fn row(&self, y: u32, out: &mut [u64], s: &mut Scratch) {
        let h = self.src.height();
        let up = self.src.row(if y == 0 { h - 1 } else { y - 1 });
        let mid = self.src.row(y);
        let down = self.src.row(if y + 1 == h { 0 } else { y + 1 });
        let width = self.src.width();
        match self.logic {
            Logic::Elementary(rule) => {
                s.a[1..=out.len()].copy_from_slice(mid);
                extend(&mut s.a, width);
                elementary_row(*rule, &s.a, out);
            }
            Logic::Map(circuit, _) => {
                for (ext, row) in [(&mut s.a, up), (&mut s.b, mid), (&mut s.c, down)] {
                    ext[1..=row.len()].copy_from_slice(row);
                    extend(ext, width);
                }
                s.values.resize(circuit.scratch_len(), 0);
                for (i, o) in out.iter_mut().enumerate() {
                    let j = i + 1;
                    // Index bits: SE, S, SW, E, centre, W, NE, N, NW.
                    let block = [
                        east(&s.c, j),
                        s.c[j],
                        west(&s.c, j),
                        east(&s.b, j),
                        s.b[j],
                        west(&s.b, j),
                        east(&s.a, j),
                        s.a[j],
                        west(&s.a, j),
                    ];
                    *o = circuit.eval(&block, &mut s.values);
                }
            }
            Logic::Life {
                neighbourhood,
                certain,
                chance,
            } if out.len() == 1 && *neighbourhood == Neighbourhood::Moore && chance.is_empty() => {
                out[0] = narrow_moore(up[0], mid[0], down[0], width, certain);
            }
            Logic::Life {
                neighbourhood,
                certain,
                chance,
            } => {
                match neighbourhood {
                    Neighbourhood::Moore => moore_counts(up, mid, down, width, s),
                    Neighbourhood::Hexagonal | Neighbourhood::VonNeumann => {
                        for (ext, row) in [(&mut s.a, up), (&mut s.b, mid), (&mut s.c, down)] {
                            ext[1..=row.len()].copy_from_slice(row);
                            extend(ext, width);
                        }
                        if *neighbourhood == Neighbourhood::Hexagonal {
                            hex_counts(s);
                        } else {
                            von_neumann_counts(s);
                        }
                    }
                }
                apply_certain(certain, mid, &s.planes, &mut s.acc);
                out.copy_from_slice(&s.acc);
                if !chance.is_empty() {
                    self.apply_chance(chance, y, mid, &s.planes, out);
                }
            }
        }
        let last = out.len() - 1;
        out[last] &= self.src.last_word_mask();
    }

    /// Cells whose count has a stochastic outcome draw their hash, one by one.
    fn apply_chance(
        &self,
        chance: &[(usize, u32, u32)],
        y: u32,
        mid: &[u64],
        planes: &[Vec<u64>; 4],
        out: &mut [u64],
    ) {
        for i in 0..out.len() {
            let alive = mid[i];
            let mut candidates = 0;
            for &(c, dead_t, alive_t) in chance {
                let state =
                    (if dead_t != 0 { !alive } else { 0 }) | (if alive_t != 0 { alive } else { 0 });
                candidates |= equal(planes, i, c) & state;
            }
            for bit in crate::grid::BitIter(candidates) {
                let c = (0..4).fold(0, |acc, p| acc | ((planes[p][i] >> bit & 1) as usize) << p);
                let is_alive = alive >> bit & 1 == 1;
                let &(_, dead_t, alive_t) = chance.iter().find(|e| e.0 == c).unwrap();
                let threshold = if is_alive { alive_t } else { dead_t };
                let x = i as u32 * 64 + bit;
                if hash::cell_hash(self.key, x, y) < threshold {
                    out[i] |= 1 << bit;
                }
            }
        }
    }
}

/// Word-wide `count == c` from the count planes.
#[inline(always)]
fn equal(planes: &[Vec<u64>; 4], i: usize, c: usize) -> u64 {
    let bit = |p: usize| {
        if c >> p & 1 == 1 {
            planes[p][i]
        } else {
            !planes[p][i]
        }
    };
    bit(0) & bit(1) & bit(2) & bit(3)
}

fn apply_certain(
    certain: &[(usize, u64, u64)],
    mid: &[u64],
    planes: &[Vec<u64>; 4],
    acc: &mut [u64],
) {
    acc.fill(0);
    let n = acc.len();
    let (p0, p1, p2, p3) = (
        &planes[0][..n],
        &planes[1][..n],
        &planes[2][..n],
        &planes[3][..n],
    );
    let mid = &mid[..n];
    for &(c, dead, alive) in certain {
        // `p ^ inv == !(p ^ bit)` is all ones where plane p has bit p of c.
        let inv = |bit: usize| if c >> bit & 1 == 1 { 0 } else { u64::MAX };
        let (i0, i1, i2, i3) = (inv(0), inv(1), inv(2), inv(3));
        let flip = dead ^ alive;
        for i in 0..n {
            let eq = (p0[i] ^ i0) & (p1[i] ^ i1) & (p2[i] ^ i2) & (p3[i] ^ i3);
            acc[i] |= eq & (dead ^ (mid[i] & flip));
        }
    }
}

/// A row of one word (a torus at most 64 wide) under a Moore rule, in registers: the wrap is
/// a rotation within the width. The passes over scratch arrays that wider rows need cost ten
/// times the arithmetic here (a 1 x 16,777,216 torus ran at 2e7 cell updates/s).
fn narrow_moore(up: u64, mid: u64, down: u64, width: u32, certain: &[(usize, u64, u64)]) -> u64 {
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    };
    // Cell x - 1 and cell x + 1 moved to x, wrapping around the width.
    let west = |v: u64| ((v << 1) | (v >> (width - 1))) & mask;
    let east = |v: u64| (v >> 1) | ((v & 1) << (width - 1));
    let x = up ^ mid;
    let (s0, s1) = (x ^ down, (up & mid) | (x & down));
    let [t0, t1, t2, t3] = column_totals([west(s0), s0, east(s0)], [west(s1), s1, east(s1)]);
    let mut acc = 0;
    for &(c, dead, alive) in certain {
        let bit = |t: u64, b: usize| if c >> b & 1 == 1 { t } else { !t };
        let eq = bit(t0, 0) & bit(t1, 1) & bit(t2, 2) & bit(t3, 3);
        acc |= eq & (dead ^ (mid & (dead ^ alive)));
    }
    acc
}

/// Vertical 3-row sums into two planes (in the extended arrays), then the 9-cell totals.
fn moore_counts(up: &[u64], mid: &[u64], down: &[u64], width: u32, s: &mut Scratch) {
    let n = mid.len();
    {
        let (s0, s1) = (&mut s.a[1..=n], &mut s.b[1..=n]);
        for i in 0..n {
            let (u, m, d) = (up[i], mid[i], down[i]);
            let x = u ^ m;
            s0[i] = x ^ d;
            s1[i] = (u & m) | (x & d);
        }
    }
    extend(&mut s.a, width);
    extend(&mut s.b, width);
    let (s0, s1) = (&s.a, &s.b);
    let [t0, t1, t2, t3] = &mut s.planes;
    for i in 1..=n {
        [t0[i - 1], t1[i - 1], t2[i - 1], t3[i - 1]] = column_totals(
            [west(s0, i), s0[i], east(s0, i)],
            [west(s1, i), s1[i], east(s1, i)],
        );
    }
}

/// The 9-cell totals (four bit planes) from the 3-row column sums of columns x-1, x and x+1,
/// given as their low bits `ones` and high bits `twos`.
#[inline(always)]
fn column_totals(ones: [u64; 3], twos: [u64; 3]) -> [u64; 4] {
    let ([w0, c0, e0], [w1, c1, e1]) = (ones, twos);
    // Ones: full adder of the three low bits.
    let x = w0 ^ c0;
    let b0 = x ^ e0;
    let k = (w0 & c0) | (x & e0);
    // Twos: the three high bits plus the carry k, four bits of weight 2.
    let y = w1 ^ c1;
    let p = y ^ e1;
    let q = (w1 & c1) | (y & e1);
    let b1 = p ^ k;
    let k2 = p & k;
    [b0, b1, q ^ k2, q & k2]
}

/// Six neighbours: (-1,-1), (0,-1), (-1,0), (1,0), (0,1), (1,1).
fn hex_counts(s: &mut Scratch) {
    let n = s.acc.len();
    let (u, m, d) = (&s.a, &s.b, &s.c);
    let [t0, t1, t2, t3] = &mut s.planes;
    for i in 1..=n {
        // The kernel reads only the six neighbours; the other two words are never looked at.
        let w = [west(u, i), west(m, i), 0];
        let e = [0, east(m, i), east(d, i)];
        let p = count_planes(Neighbourhood::Hexagonal, w, [u[i], m[i], d[i]], e);
        [t0[i - 1], t1[i - 1], t2[i - 1], t3[i - 1]] = p;
    }
}

/// Four neighbours: up, left, right, down.
fn von_neumann_counts(s: &mut Scratch) {
    let n = s.acc.len();
    let (u, m, d) = (&s.a, &s.b, &s.c);
    let [t0, t1, t2, t3] = &mut s.planes;
    for i in 1..=n {
        let w = [0, west(m, i), 0];
        let e = [0, east(m, i), 0];
        let p = count_planes(Neighbourhood::VonNeumann, w, [u[i], m[i], d[i]], e);
        [t0[i - 1], t1[i - 1], t2[i - 1], t3[i - 1]] = p;
    }
}

fn elementary_row(rule: ElementaryRule, ext: &[u64], out: &mut [u64]) {
    let table = rule.truth_table();
    for (i, o) in out.iter_mut().enumerate() {
        let (l, c, r) = (west(ext, i + 1), ext[i + 1], east(ext, i + 1));
        let mut v = 0;
        for (k, &on) in table.iter().enumerate() {
            if on {
                let pick = |bit: usize, w: u64| if k >> bit & 1 == 1 { w } else { !w };
                v |= pick(2, l) & pick(1, c) & pick(0, r);
            }
        }
        *o = v;
    }
}
