//! The Larger than Life engine: a byte per cell on a board (the torus, Golly's bounded plane,
//! or a box round the cells on the unbounded plane, grown as they spread), and each cell's
//! count read from prefix sums of the live cells, so that its cost does not grow with the
//! range for every shape but the discs:
//! - squares, rows and columns from a summed-area table;
//! - checkerboards from a second table of one colour;
//! - diagonals from running sums along them;
//! - a diamond or a hexagon slides along the row: what enters and what leaves it are diagonal
//!   and column segments;
//! - a disc (`NC`, `N2`) is a sum of its 2r+1 rows.
//!
//! A generation reads the live cells of the output box grown by the range into one array,
//! builds the sums that the shape needs, then computes every row of the box on all cores.

use rayon::prelude::*;

use crate::engine::{
    Bounds, CellRect, Census, Core, Engine, EngineError, EngineKind, EngineResult, Put, Sampled,
    Universe, cells_by_state, census_of_tiles, check_states, put_by_cell, sample_states,
    states_by_cell,
};
use crate::grid::Grid;
use crate::rule::Rule;
use crate::rule::ltl::{LtlRule, Shape};
use crate::tiles::{TILE, TileMap};

/// Spare cells round the pattern when the plane's board grows, so it grows rarely.
const MARGIN: i64 = 64;
/// Bands of live columns at most this wide are computed across the live columns of each chunk
/// of rows, not row by row ([`MooreBand::chunk`]).
const NARROW: usize = 128;
/// Below this many cells a pass runs on the calling thread: waking the pool would cost more
/// than the pass (a small bug's 1000 generations: 0.06 s on the pool). A pass is some 20
/// microseconds for 2^15 cells; handing half of it to the pool and back took as long on a
/// virtual machine of two cores, and Golly's Majority (a 188x188 box) ran 75 ms on the pool
/// against 36 ms here (the twenty-third session). At 2^19, the largest passes of R500 ran a
/// little slower.
const PARALLEL_CELLS: usize = 1 << 17;

/// `f` on each row of `v` (`width` long) with its index, on every core or on this thread.
fn rows_mut<T: Send, R: Send>(
    v: &mut [T],
    width: usize,
    parallel: bool,
    f: impl Fn(usize, &mut [T]) -> R + Sync + Send,
) -> Vec<R> {
    if parallel {
        v.par_chunks_mut(width)
            .enumerate()
            .map(|(i, c)| f(i, c))
            .collect()
    } else {
        v.chunks_mut(width)
            .enumerate()
            .map(|(i, c)| f(i, c))
            .collect()
    }
}

pub struct LtlEngine {
    core: Core,
    rule: LtlRule,
    universe: Universe,
    /// The board's top-left cell and size (the whole universe on a torus or bounded plane).
    x0: i64,
    y0: i64,
    w: usize,
    h: usize,
    cells: Vec<u8>,
    /// Board boxes of the live (state 1) and of the non-dead cells; `None` inside: none.
    /// `None` outside: not known (after an edit).
    boxes: Option<(Option<Box2>, Option<Box2>)>,
    population: u64,
    /// The next state of a cell in state 0 or 1, at `count << 1 | state` (the count with the
    /// middle): a live cell that does not survive dies, or starts to decay with more than two
    /// states. Its length is a power of two, so that an index masked into it is never checked.
    next01: Vec<u8>,
    /// The last generation's live cells and sums, their buffers kept for the next.
    sums: Sums,
    /// On a torus, how many more generations whose box crosses an edge go by before the
    /// board is looked at again for a gap to put its seam in (none was wide enough).
    seam_wait: u64,
}

/// An inclusive box of board cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Box2 {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Box2 {
    fn union(self, o: Box2) -> Box2 {
        Box2 {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }

    fn grown(self, by: i64) -> Box2 {
        Box2 {
            x0: self.x0 - by,
            y0: self.y0 - by,
            x1: self.x1 + by,
            y1: self.y1 + by,
        }
    }

    fn width(self) -> usize {
        (self.x1 - self.x0 + 1) as usize
    }

    fn height(self) -> usize {
        (self.y1 - self.y0 + 1) as usize
    }
}

fn union(a: Option<Box2>, b: Option<Box2>) -> Option<Box2> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.union(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

/// The live cells of a box (the output box grown by the range), and the prefix sums of them
/// that a shape needs. `E(i, j)` is 0 or 1.
#[derive(Default)]
struct Sums {
    ew: usize,
    live: Vec<u8>,
    /// `sat[(j) * (ew + 1) + i]`: live cells above row j and left of column i.
    sat: Vec<u32>,
    /// The same, of cells with i + j even.
    even: Vec<u32>,
    /// Running sums down-right: `diag[(j + 1) * (ew + 2) + i + 1] = E(i, j) + diag(i - 1, j - 1)`.
    diag: Vec<u32>,
    /// Running sums down-left: `anti(i, j) = E(i, j) + anti(i + 1, j - 1)`, stored likewise.
    anti: Vec<u32>,
}

impl Sums {
    #[inline]
    fn e(&self, i: i64, j: i64) -> u32 {
        self.live[j as usize * self.ew + i as usize] as u32
    }

    /// Live cells in columns i0..=i1 of rows j0..=j1.
    #[inline]
    fn rect(&self, i0: i64, j0: i64, i1: i64, j1: i64) -> u32 {
        rect_of(&self.sat, self.ew + 1, i0, j0, i1, j1)
    }

    /// Those of them with i + j even.
    #[inline]
    fn rect_even(&self, i0: i64, j0: i64, i1: i64, j1: i64) -> u32 {
        rect_of(&self.even, self.ew + 1, i0, j0, i1, j1)
    }

    #[inline]
    fn row(&self, j: i64, i0: i64, i1: i64) -> u32 {
        self.rect(i0, j, i1, j)
    }

    #[inline]
    fn col(&self, i: i64, j0: i64, j1: i64) -> u32 {
        if j1 < j0 {
            return 0;
        }
        self.rect(i, j0, i, j1)
    }

    #[inline]
    fn run(v: &[u32], stride: usize, i: i64, j: i64) -> u32 {
        v[(j + 1) as usize * stride + (i + 1) as usize]
    }

    /// `len` cells from (i, j) down-right.
    #[inline]
    fn diag(&self, i: i64, j: i64, len: i64) -> u32 {
        if len <= 0 {
            return 0;
        }
        let s = self.ew + 2;
        Self::run(&self.diag, s, i + len - 1, j + len - 1) - Self::run(&self.diag, s, i - 1, j - 1)
    }

    /// `len` cells from (i, j) down-left.
    #[inline]
    fn anti(&self, i: i64, j: i64, len: i64) -> u32 {
        if len <= 0 {
            return 0;
        }
        let s = self.ew + 2;
        Self::run(&self.anti, s, i - len + 1, j + len - 1) - Self::run(&self.anti, s, i + 1, j - 1)
    }
}

#[inline]
fn rect_of(sat: &[u32], stride: usize, i0: i64, j0: i64, i1: i64, j1: i64) -> u32 {
    let at = |i: i64, j: i64| sat[j as usize * stride + i as usize];
    (at(i1 + 1, j1 + 1) + at(i0, j0)) - (at(i0, j1 + 1) + at(i1 + 1, j0))
}

/// The sums a shape reads.
fn needs(shape: Shape) -> (bool, bool, bool) {
    // (even table, down-right runs, down-left runs)
    match shape {
        Shape::Checkerboard | Shape::AlignedCheckerboard => (true, false, false),
        Shape::Saltire | Shape::Star | Shape::VonNeumann => (false, true, true),
        Shape::Asterisk | Shape::Tripod | Shape::Hexagonal => (false, true, false),
        _ => (false, false, false),
    }
}

/// Builds the sums of `live` (`ew` by `eh`) that `shape` needs, in the buffers of `spare` (a
/// board's worth of them is not allocated and zeroed again every generation).
fn build_sums(spare: Sums, live: Vec<u8>, ew: usize, eh: usize, shape: Shape) -> Sums {
    let stride = ew + 1;
    let table = |mut sat: Vec<u32>, even_only: bool| {
        sat.resize(stride * (eh + 1), 0);
        sat[..stride].fill(0);
        // Rows' prefix sums on every core, then the rows added down.
        let parallel = ew * eh >= PARALLEL_CELLS;
        rows_mut(
            &mut sat[stride..stride * (eh + 1)],
            stride,
            parallel,
            |j, out| {
                let row = &live[j * ew..(j + 1) * ew];
                let mut acc = 0u32;
                out[0] = 0;
                for (i, &v) in row.iter().enumerate() {
                    if !even_only || (i + j) % 2 == 0 {
                        acc += v as u32;
                    }
                    out[i + 1] = acc;
                }
            },
        );
        for j in 1..eh {
            let (above, below) = sat.split_at_mut((j + 1) * stride);
            let prev = &above[j * stride..];
            for (b, &a) in below[..stride].iter_mut().zip(prev) {
                *b += a;
            }
        }
        sat
    };
    let (even, diag, anti) = needs(shape);
    let run = |mut v: Vec<u32>, step: i64| {
        let s = ew + 2;
        v.resize(s * (eh + 1), 0);
        v[..s].fill(0);
        for j in 0..eh {
            let (above, below) = v.split_at_mut((j + 1) * s);
            let prev = &above[j * s..];
            let row = &mut below[..s];
            row[0] = 0;
            row[s - 1] = 0;
            for i in 0..ew {
                // The cell before on the run is (i - step, j - 1), stored at i - step + 1.
                let from = (i as i64 - step + 1) as usize;
                row[i + 1] = live[j * ew + i] as u32 + prev[from];
            }
        }
        v
    };
    Sums {
        sat: table(spare.sat, false),
        even: if even {
            table(spare.even, true)
        } else {
            spare.even
        },
        diag: if diag { run(spare.diag, 1) } else { spare.diag },
        anti: if anti {
            run(spare.anti, -1)
        } else {
            spare.anti
        },
        live,
        ew,
    }
}

/// The counts of a row of cells centred at (ci, cj), ci = i0.., into `out`.
fn count_row(s: &Sums, shape: Shape, r: i64, i0: i64, cj: i64, out: &mut [u32]) {
    let n = out.len();
    match shape {
        Shape::Moore => {
            // Two rows of the table, read as slices (the compiler vectorises it).
            let stride = s.ew + 1;
            let top = &s.sat[(cj - r) as usize * stride..][..stride];
            let bottom = &s.sat[(cj + r + 1) as usize * stride..][..stride];
            let (a, b) = ((i0 - r) as usize, (i0 + r + 1) as usize);
            let (t0, t1) = (&top[a..a + n], &top[b..b + n]);
            let (b0, b1) = (&bottom[a..a + n], &bottom[b..b + n]);
            for k in 0..n {
                out[k] = (b1[k] + t0[k]) - (b0[k] + t1[k]);
            }
        }
        Shape::VonNeumann | Shape::Hexagonal => {
            // The first by rows, the rest sliding.
            let mut count = 0;
            for dy in -r..=r {
                let (a, b) = match shape {
                    Shape::VonNeumann => (-(r - dy.abs()), r - dy.abs()),
                    _ if dy < 0 => (-r, r + dy),
                    _ => (dy - r, r),
                };
                count += s.row(cj + dy, i0 + a, i0 + b);
            }
            out[0] = count;
            for (k, o) in out.iter_mut().enumerate().skip(1) {
                let ci = i0 + k as i64 - 1;
                let (added, removed) = if shape == Shape::VonNeumann {
                    (
                        s.diag(ci + 1, cj - r, r + 1) + s.anti(ci + r, cj + 1, r),
                        s.anti(ci, cj - r, r + 1) + s.diag(ci - r + 1, cj + 1, r),
                    )
                } else {
                    (
                        s.diag(ci + 1, cj - r, r) + s.col(ci + 1 + r, cj, cj + r),
                        s.col(ci - r, cj - r, cj - 1) + s.diag(ci - r, cj, r + 1),
                    )
                };
                count = count + added - removed;
                *o = count;
            }
        }
        _ => {
            for (k, o) in out.iter_mut().enumerate() {
                let ci = i0 + k as i64;
                *o = count_at(s, shape, r, ci, cj);
            }
        }
    }
}

#[inline]
fn count_at(s: &Sums, shape: Shape, r: i64, ci: i64, cj: i64) -> u32 {
    let c = s.e(ci, cj);
    match shape {
        Shape::Moore => s.rect(ci - r, cj - r, ci + r, cj + r),
        Shape::Checkerboard | Shape::AlignedCheckerboard => {
            let all = s.rect(ci - r, cj - r, ci + r, cj + r);
            let even = s.rect_even(ci - r, cj - r, ci + r, cj + r);
            let same = if (ci + cj) % 2 == 0 { even } else { all - even };
            if shape == Shape::AlignedCheckerboard {
                same
            } else {
                all - same + c
            }
        }
        Shape::Cross => s.row(cj, ci - r, ci + r) + s.col(ci, cj - r, cj + r) - c,
        Shape::Saltire => s.diag(ci - r, cj - r, 2 * r + 1) + s.anti(ci + r, cj - r, 2 * r + 1) - c,
        Shape::Star => {
            s.row(cj, ci - r, ci + r)
                + s.col(ci, cj - r, cj + r)
                + s.diag(ci - r, cj - r, 2 * r + 1)
                + s.anti(ci + r, cj - r, 2 * r + 1)
                - 3 * c
        }
        Shape::Hash => {
            let corners = s.e(ci - 1, cj - 1)
                + s.e(ci + 1, cj - 1)
                + s.e(ci - 1, cj + 1)
                + s.e(ci + 1, cj + 1);
            s.row(cj - 1, ci - r, ci + r)
                + s.row(cj + 1, ci - r, ci + r)
                + s.col(ci - 1, cj - r, cj + r)
                + s.col(ci + 1, cj - r, cj + r)
                + c
                - corners
        }
        Shape::Asterisk => {
            s.row(cj, ci - r, ci + r)
                + s.col(ci, cj - r, cj + r)
                + s.diag(ci - r, cj - r, 2 * r + 1)
                - 2 * c
        }
        Shape::Tripod => {
            s.col(ci, cj - r, cj - 1) + s.row(cj, ci - r, ci) + s.diag(ci + 1, cj + 1, r)
        }
        Shape::Circular | Shape::L2 => (-r..=r)
            .map(|dy| {
                let w = shape.disc_half_width(r, dy);
                s.row(cj + dy, ci - w, ci + w)
            })
            .sum(),
        Shape::VonNeumann | Shape::Hexagonal => unreachable!("counted by rows"),
    }
}

impl LtlEngine {
    pub fn new(rule: Rule, universe: Universe) -> EngineResult<Self> {
        let Some(l) = rule.ltl() else {
            return Err(EngineError::Unsupported(format!(
                "the Larger than Life engine runs Larger than Life rules; {rule} is not one"
            )));
        };
        universe.refuse_joined_edges("Larger than Life")?;
        universe.refuse_tube("Larger than Life")?;
        if universe.is_plane() && l.births_from_nothing() {
            return Err(EngineError::Unsupported(format!(
                "{rule} gives birth on empty space (B0), which fills the unbounded plane in one generation; run it on a torus or a bounded plane (as Golly does)"
            )));
        }
        let (w, h) = match universe.size() {
            Some((w, h)) => {
                let min = l.min_side();
                if w < min || h < min {
                    return Err(EngineError::Unsupported(format!(
                        "{rule} needs a grid of at least {min}x{min} (twice its range), not {w}x{h}"
                    )));
                }
                (w as usize, h as usize)
            }
            None => (0, 0),
        };
        crate::memory::check(
            || format!("rule {rule} on {}", universe.describe()),
            Self::bytes(universe, l.range),
        )?;
        Ok(Self {
            core: Core::new(EngineKind::LargerThanLife, "ltl", rule),
            rule: l,
            universe,
            x0: 0,
            y0: 0,
            w,
            h,
            cells: vec![0; w * h],
            boxes: Some((None, None)),
            population: 0,
            next01: next01(&l),
            sums: Sums::default(),
            seam_wait: 0,
        })
    }

    /// What a generation needs at the start: the board, the live cells grown by the range and
    /// its sums (a few words per cell).
    pub fn bytes(universe: Universe, range: u16) -> u64 {
        let r = range as u64;
        universe.size().map_or(1 << 20, |(w, h)| {
            let (ew, eh) = (w as u64 + 2 * r + 2, h as u64 + 2 * r + 2);
            2 * w as u64 * h as u64 + ew * eh * 9
        })
    }

    fn wraps(&self) -> bool {
        matches!(self.universe, Universe::Torus { .. })
    }

    /// The board index of cell (x, y): wrapped on a torus; `None` outside the board.
    #[inline]
    fn index(&self, x: i64, y: i64) -> Option<usize> {
        let (mut bx, mut by) = (x - self.x0, y - self.y0);
        if self.wraps() {
            bx = bx.rem_euclid(self.w as i64);
            by = by.rem_euclid(self.h as i64);
        }
        ((0..self.w as i64).contains(&bx) && (0..self.h as i64).contains(&by))
            .then(|| by as usize * self.w + bx as usize)
    }

    fn get(&self, x: i64, y: i64) -> u8 {
        self.index(x, y).map_or(0, |i| self.cells[i])
    }

    fn set(&mut self, x: i64, y: i64, state: u8) {
        if state != 0 && self.universe.is_plane() {
            self.cover(Box2 {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            });
        }
        if let Some(i) = self.index(x, y) {
            let old = self.cells[i];
            self.cells[i] = state;
            self.population = self.population + (state != 0) as u64 - (old != 0) as u64;
            if old != state {
                self.boxes = None;
            }
        }
        // Beyond a bounded plane's edge nothing lives: Golly refuses the cell too.
    }

    /// Refuses, before anything is allocated, a board that would hold `want` (global cells) and
    /// every cell there now, with the sums a generation builds over it, beyond the memory limit
    /// (two cells far apart on the plane, or a range that is too big for the pattern).
    fn room(&mut self, want: Box2) -> EngineResult<()> {
        let now = self.boxes_now().1.map(|b| self.global(b));
        self.room_for(union(Some(want), now).expect("want is a box"))
    }

    /// The same check for a board that holds `b` (global cells) alone.
    fn room_for(&self, b: Box2) -> EngineResult<()> {
        let r = self.rule.range as f64;
        let side = |a: i64, z: i64| (z as f64 - a as f64) + 1.0 + 2.0 * MARGIN as f64;
        let (w, h) = (side(b.x0, b.x1), side(b.y0, b.y1));
        // The board, the live cells grown by the range, and up to three tables of words.
        let bytes = w * h + (w + 2.0 * r) * (h + 2.0 * r) * 13.0;
        crate::memory::check(
            || {
                format!(
                    "rule {} over a box of {}x{} cells",
                    self.core.rule, w as u64, h as u64
                )
            },
            bytes.min(u64::MAX as f64) as u64,
        )?;
        Ok(())
    }

    /// Grows the plane's board to hold `want` (global cells), with a margin.
    fn cover(&mut self, want: Box2) {
        if self.holds(want) {
            return;
        }
        let keep = self.boxes_now().1.map(|b| self.global(b));
        let target = union(Some(want), keep).unwrap().grown(MARGIN);
        self.rebase(target);
    }

    /// Whether the plane's board holds `want` (global cells) already.
    fn holds(&self, want: Box2) -> bool {
        self.w > 0
            && want.x0 >= self.x0
            && want.y0 >= self.y0
            && want.x1 < self.x0 + self.w as i64
            && want.y1 < self.y0 + self.h as i64
    }

    /// Moves the plane's board to `target` (global cells), which holds every cell not dead.
    fn rebase(&mut self, target: Box2) {
        let (nw, nh) = (target.width(), target.height());
        let mut cells = vec![0u8; nw * nh];
        if let Some(nz) = self.boxes_now().1 {
            for by in nz.y0..=nz.y1 {
                let src = by as usize * self.w;
                let (gx, gy) = (self.x0 + nz.x0, self.y0 + by);
                let dst = (gy - target.y0) as usize * nw + (gx - target.x0) as usize;
                cells[dst..dst + nz.width()]
                    .copy_from_slice(&self.cells[src + nz.x0 as usize..src + nz.x1 as usize + 1]);
            }
        }
        self.cells = cells;
        self.x0 = target.x0;
        self.y0 = target.y0;
        self.w = nw;
        self.h = nh;
        self.boxes = None;
    }

    /// The board boxes of the live and of the non-dead cells, scanned if not known.
    fn boxes_now(&mut self) -> (Option<Box2>, Option<Box2>) {
        if let Some(b) = self.boxes {
            return b;
        }
        let (w, two) = (self.w.max(1), self.rule.states == 2);
        let scan = |(y, row): (usize, &[u8])| scan_row(row, y as i64, two);
        // A small board is scanned here: the first parallel pass starts rayon's pool, whose
        // threads then spin beside a run that never needed them.
        let rows: Vec<(Option<Box2>, Option<Box2>, u64)> = if self.cells.len() >= PARALLEL_CELLS {
            self.cells.par_chunks(w).enumerate().map(scan).collect()
        } else {
            self.cells.chunks(w).enumerate().map(scan).collect()
        };
        let (mut live, mut any, mut pop) = (None, None, 0);
        for (l, a, p) in rows {
            live = union(live, l);
            any = union(any, a);
            pop += p;
        }
        self.population = pop;
        self.boxes = Some((live, any));
        (live, any)
    }

    /// On a torus, turns the board round so that its edges lie in the middle of the widest
    /// band of dead columns, and of dead rows, when the cells that can change cross an edge:
    /// a pattern that lies across the seam (a ship that has gone round, a pattern drawn at an
    /// edge) would otherwise take the whole of that axis every generation. Only where it is not
    /// wide enough does the board stay, and is not looked at again for a while. Whether the
    /// board turned.
    fn move_seam(&mut self, cross_x: bool, cross_y: bool) -> bool {
        let r = self.rule.range as usize;
        let (w, h) = (self.w, self.h);
        // The non-dead columns and rows, in one pass.
        let mut cols = vec![0u8; w];
        let mut rows = vec![false; h];
        for (row, any) in self.cells.chunks_exact(w).zip(rows.iter_mut()) {
            let mut seen = 0u8;
            for (c, &v) in cols.iter_mut().zip(row) {
                *c |= v;
                seen |= v;
            }
            *any = seen != 0;
        }
        let (dx, dy) = (
            widest_gap(cols.iter().map(|&c| c != 0), w),
            widest_gap(rows.iter().copied(), h),
        );
        // A cell r from a live one can be born, and its count reaches r further: a gap is
        // worth the seam when both sides of it keep r dead cells.
        // Only an axis the box crosses is turned: an axis turned for nothing could be turned
        // back and forth between two gaps of one width.
        let turn = |gap: Option<(usize, usize)>, cross: bool| {
            gap.filter(|&(_, len)| cross && len >= 2 * r + 2)
        };
        let (tx, ty) = (turn(dx, cross_x), turn(dy, cross_y));
        // The gap from `start` of `len` cells: board column start + len/2 becomes column 0.
        let shift = |gap: Option<(usize, usize)>, side: usize| {
            gap.map_or(0, |(start, len)| (start + len / 2) % side)
        };
        let (sx, sy) = (shift(tx, w), shift(ty, h));
        if sx == 0 && sy == 0 {
            // Looked at again after a sixteenth of the shorter side: the cells spread at most
            // a range a generation, and mostly far less.
            self.seam_wait = (w.min(h) as u64 / 16).max(1);
            return false;
        }
        if sx != 0 {
            self.cells
                .chunks_exact_mut(w)
                .for_each(|row| row.rotate_left(sx));
        }
        self.cells.rotate_left(sy * w);
        self.x0 = (self.x0 + sx as i64).rem_euclid(w as i64);
        self.y0 = (self.y0 + sy as i64).rem_euclid(h as i64);
        self.boxes = None;
        true
    }

    fn step_once(&mut self) -> EngineResult<()> {
        let r = self.rule.range as i64;
        let (live, any) = self.boxes_now();
        let whole = Box2 {
            x0: 0,
            y0: 0,
            x1: self.w as i64 - 1,
            y1: self.h as i64 - 1,
        };
        // The cells that can change: near a live cell, or dying (B0: all of them).
        let out = if self.rule.births_from_nothing() {
            (self.w > 0).then_some(whole)
        } else {
            union(live.map(|l| l.grown(r)), any)
        };
        let Some(mut out) = out else {
            self.core.generation += 1;
            return Ok(());
        };
        if self.universe.is_plane() {
            let global = self.global(out);
            // A board that holds the box was found room for when it was made.
            if !self.holds(global) {
                self.room(global)?;
                self.cover(global);
            }
            out = Box2 {
                x0: global.x0 - self.x0,
                y0: global.y0 - self.y0,
                x1: global.x1 - self.x0,
                y1: global.y1 - self.y0,
            };
        } else if self.wraps() {
            let cross_x = out.x0 < 0 || out.x1 > whole.x1;
            let cross_y = out.y0 < 0 || out.y1 > whole.y1;
            if (cross_x || cross_y) && self.seam_wait > 0 {
                self.seam_wait -= 1;
            } else if (cross_x || cross_y) && self.move_seam(cross_x, cross_y) {
                // The same cells, the board turned round: the box found again, which crosses
                // no turned edge now (an axis with no gap still takes the whole axis below).
                let (live, any) = self.boxes_now();
                if let Some(again) = union(live.map(|l| l.grown(r)), any) {
                    out = again;
                }
            }
            // A box that crosses an edge of the torus takes the whole of that axis.
            if out.x0 < 0 || out.x1 > whole.x1 {
                (out.x0, out.x1) = (0, whole.x1);
            }
            if out.y0 < 0 || out.y1 > whole.y1 {
                (out.y0, out.y1) = (0, whole.y1);
            }
        } else {
            out = Box2 {
                x0: out.x0.max(0),
                y0: out.y0.max(0),
                x1: out.x1.min(whole.x1),
                y1: out.y1.min(whole.y1),
            };
        }
        // The live cells of the box grown by the range (wrapped, or dead beyond the board).
        let e = out.grown(r);
        let (ew, eh) = (e.width(), e.height());
        let spare = std::mem::take(&mut self.sums);
        let mut grid = spare.live;
        grid.clear();
        let (w, h, wraps) = (self.w as i64, self.h as i64, self.wraps());
        let cells = &self.cells;
        let two_states = self.rule.states == 2;
        let parallel = ew * eh >= PARALLEL_CELLS;
        // Each row's first and last live column comes with it, where the Moore pass uses
        // them: a narrow band in one chunk has the live columns of its whole box (`out` is the
        // live cells grown by the range), and computes every one.
        let need_extents = self.rule.shape == Shape::Moore && (ew > NARROW || parallel);
        let inside = e.x0 >= 0 && e.y0 >= 0 && e.x1 < w && e.y1 < h;
        let extents = if inside && two_states && !need_extents {
            // Rows of the board as they are, one copy each (a small bug, a pattern on the
            // plane's board, which has a margin round it).
            for y in e.y0..=e.y1 {
                let at = y as usize * w as usize + e.x0 as usize;
                grid.extend_from_slice(&cells[at..at + ew]);
            }
            Vec::new()
        } else {
            grid.resize(ew * eh, 0);
            rows_mut(&mut grid, ew, parallel, |j, row| {
                let mut by = e.y0 + j as i64;
                if wraps {
                    by = by.rem_euclid(h);
                } else if !(0..h).contains(&by) {
                    return None;
                }
                let src = &cells[by as usize * w as usize..(by as usize + 1) * w as usize];
                // Runs of the row that lie on the board, each copied whole.
                let mut i = 0i64;
                while i < ew as i64 {
                    let x = e.x0 + i;
                    let (bx, len) = if wraps {
                        let bx = x.rem_euclid(w);
                        (bx, (w - bx).min(ew as i64 - i))
                    } else if x < 0 {
                        i += -x;
                        continue;
                    } else if x >= w {
                        break;
                    } else {
                        (x, (w - x).min(ew as i64 - i))
                    };
                    let (to, from) = (
                        &mut row[i as usize..(i + len) as usize],
                        &src[bx as usize..(bx + len) as usize],
                    );
                    if two_states {
                        // The board's cells are the live ones already.
                        to.copy_from_slice(from);
                    } else {
                        for (v, &c) in to.iter_mut().zip(from) {
                            *v = (c == 1) as u8;
                        }
                    }
                    i += len;
                }
                if need_extents { live_extent(row) } else { None }
            })
        };
        let two = &self.next01[..];
        let mask = two.len() - 1;
        let states = self.rule.states;
        let next = |cell: u8, n: u32| -> u8 {
            if cell <= 1 {
                // SAFETY: as in the two-state closure below.
                unsafe { *two.get_unchecked(((n as usize) << 1 | cell as usize) & mask) }
            } else if (cell as u16) + 1 < states {
                cell + 1
            } else {
                0
            }
        };
        let shape = self.rule.shape;
        let (ox0, n) = (out.x0 as usize, out.width());
        // Outside the box every cell is dead, and stays so: only its rows are computed.
        let w = self.w;
        let band = &mut self.cells[out.y0 as usize * w..(out.y1 as usize + 1) * w];
        let rows: Vec<(Option<Box2>, Option<Box2>, u64)> = if shape == Shape::Moore {
            // One pass, as Golly makes it: column counts slid down the rows, and a window slid
            // along each row. A chunk of rows starts its column counts afresh.
            let chunk_rows = if parallel {
                out.height()
                    .div_ceil(4 * rayon::current_num_threads())
                    .max(2 * r as usize + 1)
            } else {
                out.height()
            };
            let moore = MooreBand {
                live: &grid,
                extents: need_extents.then_some(&extents[..]),
                runs: Runs::of(&self.rule),
                ew,
                r: r as usize,
                y0: out.y0,
                w,
                cols: (ox0, n),
                chunk_rows,
                parallel,
                two_states,
            };
            let parts = if states == 2 {
                // Without the branch on decaying states.
                moore.run(band, &|cell: u8, n: u32| {
                    debug_assert!((n as usize) << 1 < two.len(), "a count past the table");
                    // SAFETY: `two`'s length is a power of two (`next01`), so the index,
                    // masked by its length less one, lies within it.
                    unsafe { *two.get_unchecked(((n as usize) << 1 | cell as usize) & mask) }
                })
            } else {
                moore.run(band, &next)
            };
            self.sums = Sums {
                live: grid,
                ..spare
            };
            parts
        } else {
            let sums = build_sums(
                Sums {
                    live: Vec::new(),
                    ..spare
                },
                grid,
                ew,
                eh,
                shape,
            );
            let rows = rows_mut(band, w, parallel, |i, row| {
                let y = out.y0 + i as i64;
                let mut counts = vec![0u32; n];
                count_row(&sums, shape, r, r, y - e.y0, &mut counts);
                let span = &mut row[ox0..ox0 + n];
                for (cell, &c) in span.iter_mut().zip(&counts) {
                    *cell = next(*cell, c);
                }
                let (l, a, p) = scan_row(span, y, two_states);
                (shifted(l, ox0), shifted(a, ox0), p)
            });
            self.sums = sums;
            rows
        };
        let (mut live, mut any, mut pop) = (None, None, 0);
        for (l, a, p) in rows {
            live = union(live, l);
            any = union(any, a);
            pop += p;
        }
        self.population = pop;
        self.boxes = Some((live, any));
        self.core.generation += 1;
        // A board far bigger than its cells shrinks (gliders gone, a pattern that died down).
        if self.universe.is_plane() {
            match any {
                None => {
                    self.cells.clear();
                    self.w = 0;
                    self.h = 0;
                    self.boxes = Some((None, None));
                }
                Some(a)
                    if (a.width() + 2 * MARGIN as usize)
                        * (a.height() + 2 * MARGIN as usize)
                        * 4
                        < self.w * self.h =>
                {
                    let g = self.global(a);
                    self.rebase(g.grown(MARGIN));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A board box in global cells.
    fn global(&self, b: Box2) -> Box2 {
        Box2 {
            x0: b.x0 + self.x0,
            y0: b.y0 + self.y0,
            x1: b.x1 + self.x0,
            y1: b.y1 + self.y0,
        }
    }

    fn tiles_now(&mut self) -> TileMap {
        let mut map = TileMap::new();
        let Some(nz) = self.boxes_now().1 else {
            return map;
        };
        for by in nz.y0..=nz.y1 {
            for bx in nz.x0..=nz.x1 {
                let s = self.cells[by as usize * self.w + bx as usize];
                if s != 0 {
                    // A torus's board may be turned round (`move_seam`): its cells are given
                    // where the universe has them.
                    let (x, y) = self.universe.wrap(self.x0 + bx, self.y0 + by);
                    map.set_state(x, y, s);
                }
            }
        }
        map
    }
}

/// A board box shifted right by `dx`.
fn shifted(b: Option<Box2>, dx: usize) -> Option<Box2> {
    b.map(|b| Box2 {
        x0: b.x0 + dx as i64,
        x1: b.x1 + dx as i64,
        ..b
    })
}

std::thread_local! {
    /// [`MooreBand::chunk`]'s buffers, kept between generations.
    static SCRATCH: std::cell::Cell<(Vec<u32>, Vec<u32>)> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

/// The band's rows computed with Moore counts: the counts of each column over the 2r+1 rows
/// round a row, slid down a row at a time, summed by a window slid along the row. Band row i's
/// window starts at row i of `live` (`ew` wide), and output column k's at column k: the live
/// box is the band's grown by the range.
struct MooreBand<'a> {
    live: &'a [u8],
    /// The first and last live column of each row of `live`; `None`: not found, every column
    /// is computed.
    extents: Option<&'a [Option<(usize, usize)>]>,
    /// The rule as two runs of counts, where it is.
    runs: Option<Runs>,
    ew: usize,
    r: usize,
    /// The band's first board row.
    y0: i64,
    /// The board's width.
    w: usize,
    /// The first column computed and how many.
    cols: (usize, usize),
    /// Rows per chunk; each chunk starts its column counts afresh.
    chunk_rows: usize,
    parallel: bool,
    /// Every cell 0 or 1 (no decaying states).
    two_states: bool,
}

impl MooreBand<'_> {
    /// Each chunk's boxes and population.
    fn run<F: Fn(u8, u32) -> u8 + Sync>(
        &self,
        band: &mut [u8],
        next: &F,
    ) -> Vec<(Option<Box2>, Option<Box2>, u64)> {
        let size = self.chunk_rows * self.w;
        let chunk = |(k, rows): (usize, &mut [u8])| {
            let first = k * self.chunk_rows;
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just now.
                return unsafe { self.chunk_avx2(first, rows, next) };
            }
            self.chunk(first, rows, next)
        };
        if self.parallel {
            band.par_chunks_mut(size).enumerate().map(chunk).collect()
        } else {
            band.chunks_mut(size).enumerate().map(chunk).collect()
        }
    }

    /// [`MooreBand::chunk`] compiled for AVX2, picked at run time: the column counts' updates
    /// take eight columns an instruction, not four.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn chunk_avx2<F: Fn(u8, u32) -> u8>(
        &self,
        first: usize,
        rows: &mut [u8],
        next: &F,
    ) -> (Option<Box2>, Option<Box2>, u64) {
        self.chunk(first, rows, next)
    }

    /// Band rows from `first`, with their boxes and population.
    #[inline(always)]
    fn chunk<F: Fn(u8, u32) -> u8>(
        &self,
        first: usize,
        rows: &mut [u8],
        next: &F,
    ) -> (Option<Box2>, Option<Box2>, u64) {
        let &MooreBand { live, ew, r, w, .. } = self;
        let (ox0, n) = self.cols;
        let y = self.y0 + first as i64;
        let d = 2 * r + 1;
        let zero_born = next(0, 0) != 0;
        // The column counts and a row's prefix sums, in buffers each thread keeps: a small
        // bug's generation is short enough that two allocations were a twentieth of it.
        let (mut col, mut prefix) = SCRATCH.take();
        col.clear();
        col.resize(ew, 0);
        for j in first..first + d {
            for (c, &v) in col.iter_mut().zip(&live[j * ew..(j + 1) * ew]) {
                *c += v as u32;
            }
        }
        let count = rows.len() / w;
        // Each row's window of live columns (`reach`), or one for the whole chunk (`all`): a
        // narrow band computes each row across the live columns of the whole chunk, since the
        // windows' own extents (`window_unions`) cost a small bug more than the cells they
        // spare; without extents, across every column.
        let (reach, all) = match self.extents {
            None => (None, Some((0, ew - 1))),
            Some(x) if ew > NARROW => (Some(window_unions(&x[first..], count, d)), None),
            Some(x) => (
                None,
                x[first..first + count + d - 1].iter().flatten().fold(
                    None,
                    |u: Option<(usize, usize)>, &(lo, hi)| {
                        Some(u.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))))
                    },
                ),
            ),
        };
        let (mut lb, mut ab, mut pop) = (None, None, 0);
        for (t, row) in rows.chunks_mut(w).enumerate() {
            if t > 0 {
                let i = first + t;
                let add = &live[(i + 2 * r) * ew..][..ew];
                let sub = &live[(i - 1) * ew..][..ew];
                for ((c, &a), &s) in col.iter_mut().zip(add).zip(sub) {
                    *c = *c + a as u32 - s as u32;
                }
            }
            let span = &mut row[ox0..ox0 + n];
            // Output column k's window is col[k..k + d]: only the windows that reach a non-zero
            // column count have a count; elsewhere a cell sees 0 (most of a sparse board).
            let window = reach.as_ref().map_or(all, |r| r[t]);
            let (lo, hi) = match window {
                Some((lo, hi)) => (lo.saturating_sub(2 * r), hi.min(n - 1) + 1),
                None => (0, 0),
            };
            let idle = |cells: &mut [u8]| idle_cells(cells, zero_born, next);
            if lo < hi
                && let Some(runs) = self.runs
            {
                idle(&mut span[..lo]);
                runs.row(&col[lo..hi + d - 1], &mut span[lo..hi], &mut prefix);
                idle(&mut span[hi..]);
            } else if lo < hi {
                idle(&mut span[..lo]);
                let mut count: u32 = col[lo..lo + d].iter().sum();
                span[lo] = next(span[lo], count);
                // Slices of one length, so that the loop checks no index.
                let cells = &mut span[lo + 1..hi];
                let len = cells.len();
                let (adds, subs) = (&col[lo + d..lo + d + len], &col[lo..lo + len]);
                for k in 0..len {
                    // What enters less what leaves, off the chain of counts: one add a cell.
                    count = count.wrapping_add(adds[k].wrapping_sub(subs[k]));
                    cells[k] = next(cells[k], count);
                }
                idle(&mut span[hi..]);
            } else {
                idle(span);
            }
            let (l, a, p) = scan_row(span, y + t as i64, self.two_states);
            lb = union(lb, shifted(l, ox0));
            ab = union(ab, shifted(a, ox0));
            pop += p;
        }
        SCRATCH.set((col, prefix));
        (lb, ab, pop)
    }
}

/// [`MooreBand::chunk`]'s cells that see no live cell: only the non-dead ones change (without
/// B0), and eight dead cells are one zero word. Inlined: it is called twice a row, mostly on
/// nothing (a small bug's box is its window).
#[inline(always)]
fn idle_cells<F: Fn(u8, u32) -> u8>(cells: &mut [u8], zero_born: bool, next: &F) {
    if cells.is_empty() {
        return;
    }
    let mut words = cells.chunks_exact_mut(8);
    for w8 in words.by_ref() {
        if zero_born || u64::from_le_bytes((&*w8).try_into().expect("8 bytes")) != 0 {
            w8.iter_mut().for_each(|c| *c = next(*c, 0));
        }
    }
    for c in words.into_remainder() {
        *c = next(*c, 0);
    }
}

/// A rule whose survival and birth are one run of counts each (every rule Golly 3.3 writes):
/// a cell's next state is two comparisons of its count, a loop the compiler vectorises on a
/// row long enough, where a table's lookup waited at the end of the row's chain of counts.
#[derive(Clone, Copy)]
struct Runs {
    /// Survival's and birth's first count and length less one: `n` is in a run when
    /// `n - first <= length` (wrapping: a count below the run is huge).
    survive: (u32, u32),
    born: (u32, u32),
    /// 1 under M0: a live middle cell is not its own neighbour for survival.
    m0: u32,
    states: u16,
}

impl Runs {
    fn of(l: &LtlRule) -> Option<Runs> {
        let run = |c: &crate::rule::ltl::Counts| match c.spans() {
            // No count: a run that starts past every count.
            [] => Some((u32::MAX, 0)),
            &[(lo, hi)] => Some((lo, hi - lo)),
            _ => None,
        };
        Some(Runs {
            survive: run(&l.survival)?,
            born: run(&l.birth)?,
            m0: (!l.middle) as u32,
            states: l.states,
        })
    }

    /// The next states of `cells`, cell k's window `col[k..k + d]` (`d` = `col`'s length less
    /// `cells`' plus one): each count a difference of two prefix sums of `col`.
    #[inline(always)]
    fn row(self, col: &[u32], cells: &mut [u8], prefix: &mut Vec<u32>) {
        let m = cells.len();
        let d = col.len() + 1 - m;
        // Every sum past the first is written below: the buffer is only made long enough,
        // not cleared (a call of memset a row, a twentieth of a small bug's generation).
        if prefix.len() < col.len() + 1 {
            prefix.resize(col.len() + 1, 0);
        }
        prefix[0] = 0;
        let mut acc = 0u32;
        for (p, &c) in prefix[1..].iter_mut().zip(col) {
            acc = acc.wrapping_add(c);
            *p = acc;
        }
        let (top, bottom) = (&prefix[d..d + m], &prefix[..m]);
        let Runs {
            survive: (s0, sl),
            born: (b0, bl),
            m0,
            states,
        } = self;
        if states == 2 {
            for ((cell, &t), &b) in cells.iter_mut().zip(top).zip(bottom) {
                let (c, n) = (*cell as u32, t.wrapping_sub(b));
                let lives = n.wrapping_sub(c * m0).wrapping_sub(s0) <= sl;
                let born = n.wrapping_sub(b0) <= bl;
                *cell = if c != 0 { lives } else { born } as u8;
            }
        } else {
            let last = (states - 1) as u32;
            for ((cell, &t), &b) in cells.iter_mut().zip(top).zip(bottom) {
                let (c, n) = (*cell as u32, t.wrapping_sub(b));
                let live = (c == 1) as u32;
                let lives = n.wrapping_sub(live * m0).wrapping_sub(s0) <= sl;
                let born = n.wrapping_sub(b0) <= bl;
                // Dead: born or not; live: survives or starts to decay; decaying: one state
                // on, or dead after the last.
                let next = if c == 0 {
                    born as u32
                } else if c == 1 {
                    if lives { 1 } else { 2 }
                } else if c < last {
                    c + 1
                } else {
                    0
                };
                *cell = next as u8;
            }
        }
    }
}

/// The union of the extents `extents[t..t + d]` for each `t < rows`, in time that does not
/// grow with `d` (van Herk and Gil-Werman): within blocks of `d`, the unions from each block's
/// start and to its end; a window is a suffix of one block and a prefix of the next.
fn window_unions(
    extents: &[Option<(usize, usize)>],
    rows: usize,
    d: usize,
) -> Vec<Option<(usize, usize)>> {
    const NONE: (usize, usize) = (usize::MAX, 0);
    let join = |a: (usize, usize), b: (usize, usize)| (a.0.min(b.0), a.1.max(b.1));
    let e: Vec<(usize, usize)> = extents[..rows + d - 1]
        .iter()
        .map(|x| x.unwrap_or(NONE))
        .collect();
    let mut to_end = e.clone();
    let mut from_start = e;
    for (f, t) in from_start.chunks_mut(d).zip(to_end.chunks_mut(d)) {
        for i in 1..f.len() {
            f[i] = join(f[i - 1], f[i]);
        }
        for i in (0..t.len() - 1).rev() {
            t[i] = join(t[i], t[i + 1]);
        }
    }
    to_end[..rows]
        .iter()
        .zip(&from_start[d - 1..])
        .map(|(&a, &b)| {
            let (lo, hi) = join(a, b);
            (lo <= hi).then_some((lo, hi))
        })
        .collect()
}

/// [`LtlEngine::next01`]'s table.
fn next01(l: &LtlRule) -> Vec<u8> {
    let top = l.neighbours() as usize + 1;
    let mut t = vec![0u8; (2 * (top + 1)).next_power_of_two()];
    for n in 0..=top {
        t[n << 1] = l.next(0, n as u32);
        t[n << 1 | 1] = l.next(1, n as u32);
    }
    t
}

/// The widest run of `false` round a ring of `n` (it may run past the end into the start), as
/// (start, length); `None` where every place is `true` or none is.
fn widest_gap(occupied: impl Iterator<Item = bool>, n: usize) -> Option<(usize, usize)> {
    let marks: Vec<bool> = occupied.collect();
    let first = marks.iter().position(|&m| m)?;
    // Walked from the first occupied place once round: every gap then ends before an occupied one.
    let (mut best, mut run): (Option<(usize, usize)>, usize) = (None, 0);
    for k in 1..=n {
        let i = (first + k) % n;
        if marks[i] {
            if run > 0 && best.is_none_or(|(_, len)| run > len) {
                best = Some(((i + n - run) % n, run));
            }
            run = 0;
        } else {
            run += 1;
        }
    }
    best
}

/// The live and non-dead boxes of one board row, and its population.
fn scan_row(row: &[u8], y: i64, two_states: bool) -> (Option<Box2>, Option<Box2>, u64) {
    if two_states {
        return scan_two_state_row(row, y);
    }
    let e = extent(row);
    let span = |cols: Option<(usize, usize)>| {
        cols.map(|(x0, x1)| Box2 {
            x0: x0 as i64,
            y0: y,
            x1: x1 as i64,
            y1: y,
        })
    };
    (span(e.live), span(e.any), e.population)
}

/// [`scan_row`] for a row of 0s and 1s, where the live cells are the non-dead ones: one pass
/// eight cells to a word, a word's bits its 1s. [`extent`] does more for each word, and was a
/// tenth of a small bug's generation.
fn scan_two_state_row(row: &[u8], y: i64) -> (Option<Box2>, Option<Box2>, u64) {
    let (words, tail) = row.as_chunks::<8>();
    let (mut first, mut last, mut population) = (usize::MAX, 0, 0u64);
    for (i, w) in words.iter().enumerate() {
        let v = u64::from_le_bytes(*w);
        if v != 0 {
            population += v.count_ones() as u64;
            first = first.min(8 * i + v.trailing_zeros() as usize / 8);
            last = 8 * i + 7 - v.leading_zeros() as usize / 8;
        }
    }
    if !tail.is_empty() {
        // The tail as one word: the row's last eight cells (or the whole row, zero-padded),
        // shifted so that the tail's first cell is its lowest byte.
        let at = 8 * words.len();
        let v = if row.len() >= 8 {
            let w = u64::from_le_bytes(row[row.len() - 8..].try_into().expect("8 bytes"));
            w >> (8 * (8 - tail.len()))
        } else {
            let mut b = [0u8; 8];
            b[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(b)
        };
        if v != 0 {
            population += v.count_ones() as u64;
            first = first.min(at + v.trailing_zeros() as usize / 8);
            last = at + 7 - v.leading_zeros() as usize / 8;
        }
    }
    if population == 0 {
        return (None, None, 0);
    }
    let b = Some(Box2 {
        x0: first as i64,
        y0: y,
        x1: last as i64,
        y1: y,
    });
    (b, b, population)
}

/// The first and last cell of a row of 0s and 1s that is 1, searched from each end a word at a
/// time: the middle of the row is never read.
fn live_extent(row: &[u8]) -> Option<(usize, usize)> {
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("8 bytes"));
    let (words, tail) = row.split_at(row.len() / 8 * 8);
    let first = match words.chunks_exact(8).position(|w| word(w) != 0) {
        Some(k) => k * 8 + word(&words[k * 8..k * 8 + 8]).trailing_zeros() as usize / 8,
        None => words.len() + tail.iter().position(|&c| c != 0)?,
    };
    let last = match tail.iter().rposition(|&c| c != 0) {
        Some(i) => words.len() + i,
        None => {
            let k = words.chunks_exact(8).rposition(|w| word(w) != 0)?;
            k * 8 + 7 - word(&words[k * 8..k * 8 + 8]).leading_zeros() as usize / 8
        }
    };
    Some((first, last))
}

/// Where a row's non-dead and live (state 1) cells lie, and how many are non-dead.
struct Extent {
    any: Option<(usize, usize)>,
    live: Option<(usize, usize)>,
    population: u64,
}

/// [`Extent`] eight cells at a time: a board row is mostly dead, and a byte-at-a-time search
/// for its first and last cells took as long as computing it.
fn extent(row: &[u8]) -> Extent {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    // The high bit of each byte that is not 0, exactly (no carry crosses a byte).
    let nonzero = |v: u64| (((v & LOW7) + LOW7) | v) & HIGH;
    let (mut any, mut live, mut population) = (None::<(usize, usize)>, None::<(usize, usize)>, 0);
    let note = |slot: &mut Option<(usize, usize)>, at: usize, mask: u64| {
        if mask != 0 {
            let first = at + mask.trailing_zeros() as usize / 8;
            let last = at + 7 - mask.leading_zeros() as usize / 8;
            *slot = Some(slot.map_or((first, last), |(f, _)| (f, last)));
        }
    };
    let mut word = |v: u64, at: usize| {
        if v != 0 {
            let any_mask = nonzero(v);
            population += any_mask.count_ones() as u64;
            note(&mut any, at, any_mask);
            note(&mut live, at, !nonzero(v ^ ONES) & HIGH);
        }
    };
    let mut words = row.chunks_exact(8);
    let mut at = 0;
    for w in words.by_ref() {
        word(u64::from_le_bytes(w.try_into().expect("8 bytes")), at);
        at += 8;
    }
    // The tail padded with dead cells, which are neither non-dead nor live.
    let mut b = [0u8; 8];
    b[..words.remainder().len()].copy_from_slice(words.remainder());
    word(u64::from_le_bytes(b), at);
    Extent {
        any,
        live,
        population,
    }
}

impl Engine for LtlEngine {
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
            self.step_once()?;
        }
        Ok(())
    }

    fn step_piece(&self) -> u64 {
        // About four million cell updates per piece.
        let area = (self.w * self.h).max(1) as u64;
        ((1u64 << 22) / area).clamp(1, 1024)
    }

    /// Cells that are not state 0, as Golly counts them.
    fn population(&mut self) -> EngineResult<u64> {
        self.boxes_now();
        Ok(self.population)
    }

    fn census(&mut self) -> EngineResult<Census> {
        Ok(census_of_tiles(self.universe, &self.tiles_now()))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.get(x, y) != 0)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        if alive && self.universe.is_plane() {
            self.room(Box2 {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            })?;
        }
        self.set(x, y, alive as u8);
        Ok(())
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        if self.universe.is_plane() && cells.width() > 0 && cells.height() > 0 {
            self.room(Box2 {
                x0: at.0,
                y0: at.1,
                x1: at.0 + cells.width() as i64 - 1,
                y1: at.1 + cells.height() as i64 - 1,
            })?;
        }
        put_by_cell(cells, at, how, |x, y, s| self.set(x, y, s));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.cells.iter_mut().for_each(|c| *c = 0);
        self.boxes = Some((None, None));
        self.population = 0;
        self.seam_wait = 0;
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        if self.wraps() && (self.x0, self.y0) != (0, 0) {
            // A board turned round: the box in the universe's own cells.
            return Ok(self.tiles_now().bounds());
        }
        Ok(self.boxes_now().1.map(|b| Bounds {
            left: b.x0 + self.x0,
            right: b.x1 + self.x0,
            top: b.y0 + self.y0,
            bottom: b.y1 + self.y0,
        }))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        cells_by_state(rect, |x, y| self.get(x, y))
    }

    fn states_in(&mut self, rect: CellRect) -> EngineResult<Vec<u8>> {
        states_by_cell(rect, |x, y| self.get(x, y))
    }

    fn view_costs_area(&self) -> bool {
        // Its view is read from its live cells (or nodes), whatever the rectangle.
        false
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        let tiles = self.tiles_now();
        sample_states(self, &tiles, rect, block)
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(self.tiles_now())
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        check_states(&self.core.rule, tiles)?;
        // Checked before the cells go: a refused import keeps what the engine had.
        if self.universe.is_plane()
            && let Some(b) = tiles.bounds()
        {
            self.room_for(Box2 {
                x0: b.left,
                y0: b.top,
                x1: b.right,
                y1: b.bottom,
            })?;
        }
        self.clear()?;
        if self.universe.is_plane()
            && let Some(b) = tiles.bounds()
        {
            self.cells.clear();
            self.w = 0;
            self.h = 0;
            self.rebase(
                Box2 {
                    x0: b.left,
                    y0: b.top,
                    x1: b.right,
                    y1: b.bottom,
                }
                .grown(MARGIN),
            );
        }
        for ((tx, ty), _) in tiles.iter() {
            let Some(states) = tiles.tile_states(tx, ty) else {
                continue;
            };
            for (i, &s) in states.iter().enumerate().filter(|(_, s)| **s != 0) {
                self.set(
                    tx * TILE + (i % TILE as usize) as i64,
                    ty * TILE + (i / TILE as usize) as i64,
                    s,
                );
            }
        }
        self.boxes = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time scan against a cell-at-a-time one, on rows of every length up to 40
    /// and every placement of states 0 to 3.
    #[test]
    fn a_row_s_extent_is_found_eight_cells_at_a_time_exactly() {
        let mut rng = crate::hash::SplitMix64(5);
        for len in 0..=40 {
            for _ in 0..200 {
                let density = rng.next_u64() % 4;
                let row: Vec<u8> = (0..len)
                    .map(|_| {
                        let v = rng.next_u64();
                        if v % 4 < density {
                            (v >> 8) as u8 % 4
                        } else {
                            0
                        }
                    })
                    .collect();
                let span = |f: &dyn Fn(u8) -> bool| {
                    Some((
                        row.iter().position(|&c| f(c))?,
                        row.iter().rposition(|&c| f(c))?,
                    ))
                };
                let e = extent(&row);
                assert_eq!(e.any, span(&|c| c != 0), "{row:?}");
                assert_eq!(e.live, span(&|c| c == 1), "{row:?}");
                assert_eq!(e.population, row.iter().filter(|&&c| c != 0).count() as u64);
                // The input rows hold 0s and 1s, searched from both ends.
                let live: Vec<u8> = row.iter().map(|&c| (c == 1) as u8).collect();
                assert_eq!(live_extent(&live), span(&|c| c == 1), "{live:?}");
                // A two-state row: its live cells are its non-dead ones, boxed and counted.
                let (l, a, p) = scan_two_state_row(&live, 3);
                let ones = live.iter().filter(|&&c| c == 1).count() as u64;
                let boxed = span(&|c| c == 1).map(|(x0, x1)| Box2 {
                    x0: x0 as i64,
                    y0: 3,
                    x1: x1 as i64,
                    y1: 3,
                });
                assert_eq!((l, a, p), (boxed, boxed, ones), "{live:?}");
            }
        }
    }

    /// The widest gap round a ring against every run of empty places tried one by one, on
    /// rings of 1 to 12 places, every pattern of occupied ones: its length is the widest, it
    /// is empty, and the places on either side of it are occupied.
    #[test]
    fn the_widest_gap_round_a_ring_is_found_exactly() {
        for n in 1..=12usize {
            for bits in 0u32..1 << n {
                let marks: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
                let got = widest_gap(marks.iter().copied(), n);
                if bits == 0 || bits == (1 << n) - 1 {
                    assert_eq!(got, None, "{marks:?}");
                    continue;
                }
                // The longest run of empty places from each start, round the ring.
                let run = |start: usize| (0..n).take_while(|k| !marks[(start + k) % n]).count();
                let widest = (0..n).map(run).max().unwrap();
                let (start, len) = got.unwrap_or_else(|| panic!("{marks:?}: no gap"));
                assert_eq!(len, widest, "{marks:?}");
                assert_eq!(run(start), len, "{marks:?}: from {start}");
                assert!(
                    marks[(start + n - 1) % n],
                    "{marks:?}: {start} starts a gap"
                );
            }
        }
    }

    /// Each window's union against the union of its extents one by one, for windows of 1 to
    /// 9 rows over lists with rows of no live cell among them.
    #[test]
    fn window_unions_equal_the_union_of_each_window() {
        let mut rng = crate::hash::SplitMix64(9);
        for d in 1..=9 {
            for rows in 1..=30 {
                let extents: Vec<Option<(usize, usize)>> = (0..rows + d - 1)
                    .map(|_| {
                        let v = rng.next_u64();
                        let (a, b) = ((v >> 8) as usize % 100, (v >> 24) as usize % 100);
                        (!v.is_multiple_of(3)).then_some((a.min(b), a.max(b)))
                    })
                    .collect();
                let got = window_unions(&extents, rows, d);
                for (t, g) in got.iter().enumerate() {
                    let want = extents[t..t + d].iter().flatten().fold(
                        None,
                        |acc: Option<(usize, usize)>, &(a, b)| {
                            Some(acc.map_or((a, b), |(x, y)| (x.min(a), y.max(b))))
                        },
                    );
                    assert_eq!(*g, want, "rows {rows}, window {d}, row {t}");
                }
            }
        }
    }
}
