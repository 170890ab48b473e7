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
    Universe, cells_by_state, census_of_tiles, check_states, put_by_cell, sample_tiles,
    states_by_cell,
};
use crate::grid::Grid;
use crate::rule::ltl::{LtlRule, Shape};
use crate::rule::Rule;
use crate::tiles::{TILE, TileMap};

/// Spare cells round the pattern when the plane's board grows, so it grows rarely.
const MARGIN: i64 = 64;

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

fn build_sums(live: Vec<u8>, ew: usize, eh: usize, shape: Shape) -> Sums {
    let stride = ew + 1;
    let table = |even_only: bool| {
        let mut sat = vec![0u32; stride * (eh + 1)];
        // Rows' prefix sums on every core, then the rows added down.
        sat[stride..]
            .par_chunks_mut(stride)
            .enumerate()
            .for_each(|(j, out)| {
                let row = &live[j * ew..(j + 1) * ew];
                let mut acc = 0u32;
                for (i, &v) in row.iter().enumerate() {
                    if !even_only || (i + j) % 2 == 0 {
                        acc += v as u32;
                    }
                    out[i + 1] = acc;
                }
            });
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
    let run = |step: i64| {
        let s = ew + 2;
        let mut v = vec![0u32; s * (eh + 1)];
        for j in 0..eh {
            let (above, below) = v.split_at_mut((j + 1) * s);
            let prev = &above[j * s..];
            let row = &mut below[..s];
            for i in 0..ew {
                // The cell before on the run is (i - step, j - 1), stored at i - step + 1.
                let from = (i as i64 - step + 1) as usize;
                row[i + 1] = live[j * ew + i] as u32 + prev[from];
            }
        }
        v
    };
    Sums {
        sat: table(false),
        even: if even { table(true) } else { Vec::new() },
        diag: if diag { run(1) } else { Vec::new() },
        anti: if anti { run(-1) } else { Vec::new() },
        live,
        ew,
    }
}

/// The counts of a row of cells centred at (ci, cj), ci = i0.., into `out`.
fn count_row(s: &Sums, shape: Shape, r: i64, i0: i64, cj: i64, out: &mut [u32]) {
    let n = out.len();
    match shape {
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
            for k in 1..n {
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
                out[k] = count;
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
            let corners = s.e(ci - 1, cj - 1) + s.e(ci + 1, cj - 1) + s.e(ci - 1, cj + 1) + s.e(ci + 1, cj + 1);
            s.row(cj - 1, ci - r, ci + r)
                + s.row(cj + 1, ci - r, ci + r)
                + s.col(ci - 1, cj - r, cj + r)
                + s.col(ci + 1, cj - r, cj + r)
                + c
                - corners
        }
        Shape::Asterisk => {
            s.row(cj, ci - r, ci + r) + s.col(ci, cj - r, cj + r) + s.diag(ci - r, cj - r, 2 * r + 1)
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
        } else if state != 0 {
            // Beyond a bounded plane's edge nothing lives (as Golly refuses the cell).
        }
    }

    /// Grows the plane's board to hold `want` (global cells), with a margin.
    fn cover(&mut self, want: Box2) {
        let have = Box2 {
            x0: self.x0,
            y0: self.y0,
            x1: self.x0 + self.w as i64 - 1,
            y1: self.y0 + self.h as i64 - 1,
        };
        if self.w > 0 && want.x0 >= have.x0 && want.y0 >= have.y0 && want.x1 <= have.x1 && want.y1 <= have.y1 {
            return;
        }
        let keep = self.boxes_now().1.map(|b| Box2 {
            x0: b.x0 + self.x0,
            y0: b.y0 + self.y0,
            x1: b.x1 + self.x0,
            y1: b.y1 + self.y0,
        });
        let target = union(Some(want), keep).unwrap().grown(MARGIN);
        self.rebase(target);
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
        let w = self.w;
        let rows: Vec<(Option<Box2>, Option<Box2>, u64)> = self
            .cells
            .par_chunks(w.max(1))
            .enumerate()
            .map(|(y, row)| scan_row(row, y as i64))
            .collect();
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

    fn step_once(&mut self) {
        let r = self.rule.range as i64;
        let (live, any) = self.boxes_now();
        let whole = Box2 {
            x0: 0,
            y0: 0,
            x1: self.w as i64 - 1,
            y1: self.h as i64 - 1,
        };
        let b0 = self.rule.births_from_nothing();
        // The cells that can change: near a live cell, or dying (B0: all of them).
        let out = if self.wraps() || b0 {
            if self.w == 0 {
                None
            } else {
                Some(whole)
            }
        } else {
            union(live.map(|l| l.grown(r)), any)
        };
        let Some(mut out) = out else {
            self.core.generation += 1;
            return;
        };
        if self.universe.is_plane() {
            let global = Box2 {
                x0: out.x0 + self.x0,
                y0: out.y0 + self.y0,
                x1: out.x1 + self.x0,
                y1: out.y1 + self.y0,
            };
            self.cover(global);
            out = Box2 {
                x0: global.x0 - self.x0,
                y0: global.y0 - self.y0,
                x1: global.x1 - self.x0,
                y1: global.y1 - self.y0,
            };
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
        let mut grid = vec![0u8; ew * eh];
        let (w, h, wraps) = (self.w as i64, self.h as i64, self.wraps());
        let cells = &self.cells;
        grid.par_chunks_mut(ew).enumerate().for_each(|(j, row)| {
            let mut by = e.y0 + j as i64;
            if wraps {
                by = by.rem_euclid(h);
            } else if !(0..h).contains(&by) {
                return;
            }
            let src = &cells[by as usize * w as usize..(by as usize + 1) * w as usize];
            for (i, v) in row.iter_mut().enumerate() {
                let mut bx = e.x0 + i as i64;
                if wraps {
                    bx = bx.rem_euclid(w);
                } else if !(0..w).contains(&bx) {
                    continue;
                }
                *v = (src[bx as usize] == 1) as u8;
            }
        });
        let sums = build_sums(grid, ew, eh, self.rule.shape);
        let rule = self.rule;
        let shape = rule.shape;
        let (ox0, ox1) = (out.x0 as usize, out.x1 as usize);
        let rows: Vec<(Option<Box2>, Option<Box2>, u64)> = self
            .cells
            .par_chunks_mut(self.w)
            .enumerate()
            .map(|(y, row)| {
                let y = y as i64;
                if y < out.y0 || y > out.y1 {
                    return scan_row(row, y);
                }
                let mut counts = vec![0u32; ox1 - ox0 + 1];
                count_row(&sums, shape, r, r, y - e.y0, &mut counts);
                for (cell, &n) in row[ox0..=ox1].iter_mut().zip(&counts) {
                    *cell = rule.next(*cell, n);
                }
                scan_row(row, y)
            })
            .collect();
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
                Some(a) if (a.width() + 2 * MARGIN as usize) * (a.height() + 2 * MARGIN as usize) * 4 < self.w * self.h => {
                    let g = Box2 {
                        x0: a.x0 + self.x0,
                        y0: a.y0 + self.y0,
                        x1: a.x1 + self.x0,
                        y1: a.y1 + self.y0,
                    };
                    self.rebase(g.grown(MARGIN));
                }
                _ => {}
            }
        }
    }

    fn to_tiles(&mut self) -> TileMap {
        let mut map = TileMap::new();
        let Some(nz) = self.boxes_now().1 else {
            return map;
        };
        for by in nz.y0..=nz.y1 {
            for bx in nz.x0..=nz.x1 {
                let s = self.cells[by as usize * self.w + bx as usize];
                if s != 0 {
                    map.set_state(self.x0 + bx, self.y0 + by, s);
                }
            }
        }
        map
    }
}

/// The live and non-dead boxes of one board row, and its population.
fn scan_row(row: &[u8], y: i64) -> (Option<Box2>, Option<Box2>, u64) {
    let mut live: Option<(usize, usize)> = None;
    let mut any: Option<(usize, usize)> = None;
    let mut pop = 0;
    for (x, &s) in row.iter().enumerate() {
        if s != 0 {
            pop += 1;
            any = Some(any.map_or((x, x), |(a, _)| (a, x)));
            if s == 1 {
                live = Some(live.map_or((x, x), |(a, _)| (a, x)));
            }
        }
    }
    let to = |v: Option<(usize, usize)>| {
        v.map(|(a, b)| Box2 {
            x0: a as i64,
            y0: y,
            x1: b as i64,
            y1: y,
        })
    };
    (to(live), to(any), pop)
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
            self.step_once();
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
        Ok(census_of_tiles(self.universe, &self.to_tiles()))
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        Ok(self.get(x, y) != 0)
    }

    fn state(&mut self, x: i64, y: i64) -> EngineResult<u8> {
        Ok(self.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        self.set(x, y, alive as u8);
        Ok(())
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        put_by_cell(cells, at, how, |x, y, s| self.set(x, y, s));
        Ok(())
    }

    fn clear(&mut self) -> EngineResult<()> {
        self.cells.iter_mut().for_each(|c| *c = 0);
        self.boxes = Some((None, None));
        self.population = 0;
        Ok(())
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
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

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        let tiles = self.to_tiles();
        match sample_tiles(tiles.iter(), self.universe, rect, block) {
            Some(s) => Ok(s),
            None => crate::engine::sample_by_bands(self, rect, block),
        }
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(self.to_tiles())
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        check_states(&self.core.rule, tiles)?;
        self.clear()?;
        if self.universe.is_plane() {
            if let Some(b) = tiles.bounds() {
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
        }
        for ((tx, ty), _) in tiles.iter() {
            let Some(states) = tiles.tile_states(tx, ty) else {
                continue;
            };
            for (i, &s) in states.iter().enumerate().filter(|(_, s)| **s != 0) {
                self.set(tx * TILE + (i % TILE as usize) as i64, ty * TILE + (i / TILE as usize) as i64, s);
            }
        }
        self.boxes = None;
        Ok(())
    }
}
