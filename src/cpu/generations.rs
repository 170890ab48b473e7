//! The Generations engine: Golly's Generations rules (live, dying and dead cells) on a torus or
//! the unbounded plane. A cell's state is held in bit planes, 64 cells of a row to a word; a
//! generation runs the bit-sliced kernel on the live plane (state 1, the only cells that count
//! as neighbours), then a few word operations: births in dead cells only, live cells that do
//! not survive go to state 2, and dying cells count up to the last state and back to 0.
//!
//! On the plane the planes cover a box round the cells, grown when a live cell reaches its
//! edge (births happen next to live cells only; dying cells stay where they are). On a torus
//! they cover the torus, wrapping; on Golly's bounded plane they cover its rectangle, and
//! nothing is alive beyond it.

use rayon::prelude::*;

use super::kernel::{Kernel, Planes};
use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineError, EngineKind, EngineResult, Put, Sampled,
    Universe, cells_by_state, census_of_tiles, check_states, put_by_cell, sample_states,
    states_by_cell,
};
use crate::grid::Grid;
use crate::rule::{GenerationsRule, LifeRule, Rule, Transition};
use crate::tiles::TileMap;

/// Words of the box computed in parallel from this many on.
const PARALLEL_WORDS: usize = 1 << 16;

pub struct GenerationsEngine {
    core: Core,
    rule: GenerationsRule,
    kernel: Kernel,
    universe: Universe,
    /// The box's top-left cell (0, 0 on a torus).
    x0: i64,
    y0: i64,
    /// Words per row and rows of the box.
    words: usize,
    rows: usize,
    /// Valid bits of a row's last word (the torus width's remainder; 64 on the plane).
    last_bits: u32,
    /// Where every cell that is not dead lies (`None`: not known, after an edit); a
    /// generation computes only there and one more row and word on each side.
    span: Option<Span>,
    /// `planes[j][row * words + word]`: bit j of each cell's state.
    planes: Vec<Vec<u64>>,
    /// A generation's scratch, kept between generations (allocating and clearing it every
    /// generation was a tenth of a small pattern's time on a board of 500x500).
    scratch: Option<Scratch>,
}

/// The rows `lo..=hi` and the words of a row `lo..=hi` that hold every cell that is not dead.
#[derive(Clone, Copy)]
struct Span {
    rows: (usize, usize),
    words: (usize, usize),
}

impl Span {
    /// The span of a world where every cell is dead: empty ranges.
    const NOTHING: Span = Span {
        rows: (1, 0),
        words: (1, 0),
    };
}

/// The rows (or words of a row) a generation computes: those of the span and one more on each
/// side, or all of them when the span touches a torus's seam, or is not known.
fn with_margin(span: Option<(usize, usize)>, size: usize, torus: bool) -> (usize, usize) {
    match span {
        Some((lo, hi)) if !(torus && (lo == 0 || hi + 1 == size)) => {
            (lo.saturating_sub(1), (hi + 1).min(size - 1))
        }
        _ => (0, size - 1),
    }
}

/// The live cells (row-major), the two-state outcome (column-major), which stretches of 64
/// rows of a column are busy, and the kernel's input where the columns run one by one. Only
/// the rows a generation can change hold meaning, and the rows on either side of them, which
/// are kept clear.
#[derive(Default)]
struct Scratch {
    live: Vec<u64>,
    next: Vec<u64>,
    busy: Vec<bool>,
    column: Column,
}

/// The neighbour words of one column of rows, the kernel's input.
struct Column {
    w: Vec<u64>,
    c: Vec<u64>,
    e: Vec<u64>,
    out: Vec<u64>,
    planes: Planes,
}

impl Default for Column {
    fn default() -> Self {
        Self {
            w: vec![0; 66],
            c: vec![0; 66],
            e: vec![0; 66],
            out: vec![0; 64],
            planes: Planes::default(),
        }
    }
}

impl GenerationsEngine {
    pub fn new(rule: Rule, universe: Universe) -> EngineResult<Self> {
        let Some(g) = rule.generations() else {
            return Err(EngineError::Unsupported(format!(
                "the Generations engine runs Generations rules; {rule} has two states"
            )));
        };
        universe.refuse_joined_edges("Generations")?;
        universe.refuse_tube("Generations")?;
        if universe.is_plane() && g.table.births_from_nothing() {
            return Err(EngineError::Unsupported(format!(
                "{rule} gives birth on empty space (B0), which fills the unbounded plane in one generation; run it on a torus"
            )));
        }
        // A counted rule goes through the kernel's counts, a lettered one through its circuit.
        let kernel = match g.table.totalistic() {
            Some((birth, survival)) => Kernel::new(&LifeRule {
                neighbourhood: g.table.neighbourhood,
                birth: Transition::from_counts(&birth),
                survival: Transition::from_counts(&survival),
            }),
            None => Kernel::for_map(&g.table),
        };
        let (x0, y0, words, rows, last_bits) = match universe {
            Universe::Torus { width, height } | Universe::Bounded { width, height, .. } => {
                let words = width.div_ceil(64) as usize;
                (
                    0,
                    0,
                    words,
                    height as usize,
                    width - 64 * (words as u32 - 1),
                )
            }
            Universe::Plane | Universe::Tube(_) => (-64, -32, 2, 64, 64),
        };
        crate::memory::check(
            || format!("rule {rule} on {}", universe.describe()),
            (g.bits() as u64 + 2) * words as u64 * rows as u64 * 8,
        )?;
        Ok(Self {
            core: Core::new(EngineKind::Generations, "generations", rule),
            planes: vec![vec![0; words * rows]; g.bits() as usize],
            rule: g,
            kernel,
            universe,
            x0,
            y0,
            words,
            rows,
            last_bits,
            span: None,
            scratch: None,
        })
    }

    /// Bytes the engine takes for a torus (the plane's box grows as the pattern does).
    pub fn bytes(rule: &Rule, universe: Universe) -> u64 {
        let bits = rule.generations().map_or(1, |g| g.bits()) as u64;
        universe.size().map_or(0, |(w, h)| {
            (bits + 2) * w.div_ceil(64) as u64 * h as u64 * 8
        })
    }

    fn width(&self) -> i64 {
        (self.words as i64 - 1) * 64 + self.last_bits as i64
    }

    /// The live cells (state 1) of word `i`.
    #[inline]
    fn live_word(&self, i: usize) -> u64 {
        let others = self.planes[1..].iter().fold(0, |a, p| a | p[i]);
        self.planes[0][i] & !others
    }

    /// The cells that are not dead in word `i`.
    #[inline]
    fn occupied_word(&self, i: usize) -> u64 {
        self.planes.iter().fold(0, |a, p| a | p[i])
    }

    /// Where cell (x, y) is in the planes: (word index, bit), or `None` outside the box.
    fn locate(&self, x: i64, y: i64) -> Option<(usize, u32)> {
        let (x, y) = self.universe.wrap(x, y);
        let (cx, cy) = (x - self.x0, y - self.y0);
        if cx < 0 || cy < 0 || cx >= self.width() || cy >= self.rows as i64 {
            return None;
        }
        Some((
            cy as usize * self.words + cx as usize / 64,
            (cx % 64) as u32,
        ))
    }

    fn get_state(&self, x: i64, y: i64) -> u8 {
        self.locate(x, y).map_or(0, |(i, b)| {
            self.planes
                .iter()
                .enumerate()
                .fold(0u8, |s, (j, p)| s | ((p[i] >> b & 1) as u8) << j)
        })
    }

    fn put_state(&mut self, x: i64, y: i64, state: u8) {
        self.span = None;
        if state != 0 {
            self.make_room(x, x, y, y);
        }
        if let Some((i, b)) = self.locate(x, y) {
            for (j, p) in self.planes.iter_mut().enumerate() {
                p[i] = p[i] & !(1 << b) | ((state >> j & 1) as u64) << b;
            }
        }
    }

    /// On the plane, grows the box to hold cells `left..=right` x `top..=bottom` with a cell
    /// of margin (a torus holds everything already).
    fn make_room(&mut self, left: i64, right: i64, top: i64, bottom: i64) {
        if !self.universe.is_plane() {
            return;
        }
        let (x1, y1) = (self.x0 + self.width(), self.y0 + self.rows as i64);
        let grow = |need: i64, size: usize| {
            if need <= 0 {
                0
            } else {
                need.max(size as i64 / 4) as usize
            }
        };
        let add_left = grow(self.x0 - (left - 1), self.words * 64).div_ceil(64);
        let add_right = grow(right + 2 - x1, self.words * 64).div_ceil(64);
        let add_top = grow(self.y0 - (top - 1), self.rows);
        let add_bottom = grow(bottom + 2 - y1, self.rows);
        if add_left + add_right + add_top + add_bottom == 0 {
            return;
        }
        let (words, rows) = (
            self.words + add_left + add_right,
            self.rows + add_top + add_bottom,
        );
        for p in &mut self.planes {
            let mut grown = vec![0u64; words * rows];
            for r in 0..self.rows {
                let to = (r + add_top) * words + add_left;
                grown[to..to + self.words]
                    .copy_from_slice(&p[r * self.words..(r + 1) * self.words]);
            }
            *p = grown;
        }
        self.x0 -= add_left as i64 * 64;
        self.y0 -= add_top as i64;
        self.span = None;
        self.words = words;
        self.rows = rows;
    }

    /// On the plane, makes room for the births next to live cells on the box's edge.
    fn make_room_for_births(&mut self) {
        if !self.universe.is_plane() {
            return;
        }
        let (words, rows) = (self.words, self.rows);
        let edge_rows = (0..words).chain((rows - 1) * words..rows * words);
        let top_or_bottom = edge_rows.into_iter().any(|i| self.live_word(i) != 0);
        let sides = (0..rows).any(|r| {
            self.live_word(r * words) & 1 != 0 || self.live_word(r * words + words - 1) >> 63 != 0
        });
        if top_or_bottom || sides {
            let Some(b) = self.occupied_bounds() else {
                return;
            };
            self.make_room(b.left, b.right, b.top, b.bottom);
        }
    }

    /// One generation.
    pub fn step_once(&mut self) {
        self.make_room_for_births();
        let (words, rows) = (self.words, self.rows);
        let torus = self.universe.torus_size().is_some();
        // The live cells, and which stretches of 64 rows of a column hold one in them or in
        // their margin rows: the others see no births (but under B0) and are not computed.
        let chunks = rows.div_ceil(64);
        // The rows and words that can change.
        let b0 = self.rule.table.births_from_nothing();
        let span = self.span.filter(|_| !b0);
        if span.is_some_and(|s| s.rows.0 > s.rows.1) {
            // Every cell is dead, and stays so.
            self.core.generation += 1;
            return;
        }
        let (r0, r1) = with_margin(span.map(|s| s.rows), rows, torus);
        let (k0, k1) = with_margin(span.map(|s| s.words), words, torus);
        let mut scratch = self.scratch.take().unwrap_or_default();
        if scratch.live.len() != words * rows {
            scratch.live = vec![0; words * rows];
            scratch.next = vec![0; words * rows];
        }
        scratch.busy.clear();
        scratch.busy.resize(words * chunks, false);
        let Scratch {
            live,
            next,
            busy,
            column: serial,
        } = &mut scratch;
        // The rows beside the computed ones are read as the margins of its first and last
        // (on a torus, the rows across the seam): nothing lives there. Their scratch is clear
        // already when every rule has a dying state (a row's cells were dying or dead a
        // generation before they left the span, and its last write found none alive); it is
        // cleared here so that nothing rests on that.
        for r in [(r0 + rows - 1) % rows, (r1 + 1) % rows] {
            if !(r0..=r1).contains(&r) {
                live[r * words..(r + 1) * words].fill(0);
            }
        }
        for r in r0..=r1 {
            for k in 0..words {
                let l = self.live_word(r * words + k);
                live[r * words + k] = l;
                if l == 0 {
                    continue;
                }
                let (c, at) = (r / 64, k * chunks);
                busy[at + c] = true;
                if r % 64 == 0 && c > 0 {
                    busy[at + c - 1] = true;
                } else if r == 0 && torus {
                    busy[at + chunks - 1] = true;
                }
                if r % 64 == 63 && c + 1 < chunks {
                    busy[at + c + 1] = true;
                } else if r == rows - 1 && torus {
                    busy[at] = true;
                }
            }
        }
        // The two-state rule's outcome for every cell of rows r0..=r1, column by column
        // (column-major).
        let this = &*self;
        let (live, busy) = (&*live, &*busy);
        let column = |k: usize, out: &mut [u64], s: &mut Column| {
            this.column(live, busy, (r0, r1), k, out, s)
        };
        let computed = k1 - k0 + 1;
        if words * rows >= PARALLEL_WORDS {
            next.par_chunks_mut(rows)
                .enumerate()
                .skip(k0)
                .take(computed)
                .for_each_init(Column::default, |s, (k, out)| column(k, out, s));
        } else {
            for (k, out) in next.chunks_mut(rows).enumerate().skip(k0).take(computed) {
                column(k, out, serial);
            }
        }
        let states = self.rule.states as u32;
        let full = states == 1 << self.planes.len();
        let mask_last = match self.last_bits {
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        };
        let mut span: Option<Span> = None;
        for r in r0..=r1 {
            // The first and last word of the row that is not dead.
            let mut any: Option<(usize, usize)> = None;
            for k in k0..=k1 {
                let i = r * words + k;
                let n = next[k * rows + r];
                let occupied = self.occupied_word(i);
                if n == 0 && occupied == 0 {
                    continue; // dead and staying so: most of a sparse box
                }
                let a = live[i];
                let dying = occupied & !a;
                let born_or_kept = n & (a | !occupied);
                let starts_dying = a & !n;
                // The dying cells count up: a ripple-carry increment on the bit planes.
                let mut carry = dying;
                let mut q = [0u64; 8];
                for (j, p) in self.planes.iter().enumerate() {
                    let v = p[i] & dying;
                    q[j] = v ^ carry;
                    carry &= v;
                }
                // After the last state comes 0: with 2^bits states the increment wraps there
                // by itself, otherwise the cells that reached `states` are cleared.
                let reset = if full {
                    0
                } else {
                    (0..self.planes.len()).fold(dying, |m, j| {
                        m & if states >> j & 1 == 1 { q[j] } else { !q[j] }
                    })
                };
                let mut keep = !reset;
                if k == words - 1 {
                    keep &= mask_last;
                }
                let mut occupied = 0;
                for (j, p) in self.planes.iter_mut().enumerate() {
                    let extra = match j {
                        0 => born_or_kept,
                        1 => starts_dying,
                        _ => 0,
                    };
                    p[i] = (q[j] & keep) | (extra & if k == words - 1 { mask_last } else { !0 });
                    occupied |= p[i];
                }
                if occupied != 0 {
                    any = Some(any.map_or((k, k), |(lo, _)| (lo, k)));
                }
            }
            if let Some((lo, hi)) = any {
                span = Some(match span {
                    None => Span {
                        rows: (r, r),
                        words: (lo, hi),
                    },
                    Some(s) => Span {
                        rows: (s.rows.0, r),
                        words: (s.words.0.min(lo), s.words.1.max(hi)),
                    },
                });
            }
        }
        self.span = Some(span.unwrap_or(Span::NOTHING));
        self.scratch = Some(scratch);
        self.core.generation += 1;
    }

    /// The two-state outcome of column `k`'s rows `r0..=r1` (`span`) into `out`, up to 64 rows
    /// per kernel call; its other rows are left as they are.
    fn column(
        &self,
        live: &[u64],
        busy: &[bool],
        span: (usize, usize),
        k: usize,
        out: &mut [u64],
        s: &mut Column,
    ) {
        let (words, rows) = (self.words, self.rows);
        let torus = self.universe.torus_size().is_some();
        let last = words - 1;
        // Rows -1 and `rows` are the margins: the other edge on a torus, nothing on a plane.
        let row_word = |r: i64, k: usize| -> u64 {
            let r = if r < 0 {
                if !torus {
                    return 0;
                }
                rows - 1
            } else if r as usize >= rows {
                if !torus {
                    return 0;
                }
                0
            } else {
                r as usize
            };
            live[r * words + k]
        };
        let vb = self.last_bits;
        // A stretch with no live cell in it or beside it stays without births (unless B0).
        let b0 = self.rule.table.births_from_nothing();
        let chunks = rows.div_ceil(64);
        let busy_at = |k: usize, c: usize| busy[k * chunks + c];
        let quiet = |start: usize| {
            let c = start / 64;
            !b0 && !busy_at(k, c)
                && (k == 0 && !torus || !busy_at(if k == 0 { last } else { k - 1 }, c))
                && (k == last && !torus || !busy_at(if k == last { 0 } else { k + 1 }, c))
        };
        // Stretches of 64 rows, cut to the span, so that a pattern a few dozen rows high that
        // crosses a multiple of 64 is not computed over two whole stretches.
        let (r0, r1) = span;
        let mut chunk = r0 / 64 * 64;
        while chunk <= r1 {
            let (start, end) = (chunk.max(r0), (chunk + 63).min(r1));
            let n = end - start + 1;
            if quiet(chunk) {
                out[start..start + n].fill(0);
                chunk += 64;
                continue;
            }
            for j in 0..n + 2 {
                let r = start as i64 + j as i64 - 1;
                let c = row_word(r, k);
                let west_bit = match (k, torus) {
                    (0, true) => row_word(r, last) >> (vb - 1) & 1,
                    (0, false) => 0,
                    _ => row_word(r, k - 1) >> 63,
                };
                let east = match (k == last, torus) {
                    (true, true) => (row_word(r, 0) & 1) << (vb - 1),
                    (true, false) => 0,
                    _ => (row_word(r, k + 1) & 1) << 63,
                };
                s.c[j] = c;
                s.w[j] = c << 1 | west_bit;
                s.e[j] = c >> 1 | east;
            }
            self.kernel.rows(
                &s.w[..n + 2],
                &s.c[..n + 2],
                &s.e[..n + 2],
                &mut s.out[..n],
                &mut s.planes,
            );
            out[start..start + n].copy_from_slice(&s.out[..n]);
            chunk += 64;
        }
    }

    /// The box round the cells that are not dead.
    fn occupied_bounds(&self) -> Option<Bounds> {
        let mut b: Option<Bounds> = None;
        for r in 0..self.rows {
            for k in 0..self.words {
                let w = self.occupied_word(r * self.words + k);
                if w == 0 {
                    continue;
                }
                let x = self.x0 + k as i64 * 64;
                let y = self.y0 + r as i64;
                let wb = Bounds {
                    left: x + w.trailing_zeros() as i64,
                    right: x + 63 - w.leading_zeros() as i64,
                    top: y,
                    bottom: y,
                };
                b = Some(b.map_or(wb, |b| b.union(wb)));
            }
        }
        b
    }

    fn to_tiles(&self) -> TileMap {
        let mut tiles = TileMap::new();
        for r in 0..self.rows {
            for k in 0..self.words {
                let i = r * self.words + k;
                let mut w = self.occupied_word(i);
                while w != 0 {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    let (x, y) = (self.x0 + k as i64 * 64 + b as i64, self.y0 + r as i64);
                    let state = self
                        .planes
                        .iter()
                        .enumerate()
                        .fold(0u8, |s, (j, p)| s | ((p[i] >> b & 1) as u8) << j);
                    tiles.set_state(x, y, state);
                }
            }
        }
        tiles
    }
}

impl Engine for GenerationsEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        self.universe
    }

    fn step(&mut self, generations: u64) -> EngineResult<()> {
        for _ in 0..generations {
            self.step_once();
        }
        Ok(())
    }

    fn step_piece(&self) -> u64 {
        // About a million words per piece.
        ((1 << 20) / (self.words * self.rows).max(1) as u64).clamp(1, 1024)
    }

    /// Cells that are not dead, as Golly counts them.
    fn population(&mut self) -> EngineResult<u64> {
        Ok((0..self.words * self.rows)
            .map(|i| self.occupied_word(i).count_ones() as u64)
            .sum())
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(census_of_tiles(self.universe, &self.to_tiles()))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.get_state(x, y) != 0)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.get_state(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.put_state(x, y, alive as u8);
        Ok(())
    }

    /// A live cell of the bitmap is state 1 (a paste, or the bitmap's rectangle with
    /// `Replace`); an erased one is 0.
    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        if cells.width() == 0 || cells.height() == 0 {
            return Ok(());
        }
        self.make_room(
            at.0,
            at.0 + cells.width() as i64 - 1,
            at.1,
            at.1 + cells.height() as i64 - 1,
        );
        put_by_cell(cells, at, how, |x, y, s| self.put_state(x, y, s));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        for p in &mut self.planes {
            p.fill(0);
        }
        self.span = None;
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(self.occupied_bounds())
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        cells_by_state(rect, |x, y| self.get_state(x, y))
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        states_by_cell(rect, |x, y| self.get_state(x, y))
    }

    fn view_costs_area(&self) -> bool {
        // Its view is read from its live cells (or nodes), whatever the rectangle.
        false
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        let tiles = self.to_tiles();
        sample_states(self, &tiles, rect, block)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(self.to_tiles())
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        check_states(&self.core.rule, tiles)?;
        self.clear()?;
        if let Some(b) = tiles.bounds() {
            self.make_room(b.left, b.right, b.top, b.bottom);
        }
        for (x, y) in tiles.cells() {
            self.put_state(x, y, tiles.state(x, y));
        }
        Ok(())
    }
}
