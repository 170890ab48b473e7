//! The plane one soup runs on: a flat bit grid (64 cells to a word, least significant bit
//! west) that grows when the live cells near its edge, with no tiles to keep.
//!
//! Like the tile engine it computes only rows whose neighbourhood changed: each buffer keeps,
//! per row, whether the row differs from two generations before. A row whose three rows did
//! not change between t - 2 and t is at t + 1 what it was at t - 1, which is already in the
//! buffer being written, so still lifes and period-2 ash (blocks, blinkers: most of what a soup
//! leaves) cost nothing. A soup is small, so one grid without tiles, neighbour links or maps
//! is much cheaper per generation than the general engine.

use crate::cpu::kernel::{Kernel, Planes};
use crate::rule::Rule;

/// Rows computed in one call of the kernel (its planes hold 64).
const RUN: usize = 64;
/// Rows that need nothing a run goes through.
const GAP: usize = 3;

pub struct SoupPlane {
    kernel: Kernel,
    planes: Planes,
    /// Words per row and rows.
    words: usize,
    height: usize,
    /// The plane's coordinates of the grid's cell (0, 0); x is a multiple of 64.
    origin: (i64, i64),
    /// `bufs[parity]` holds the current generation, the other the one before.
    bufs: [Vec<u64>; 2],
    /// `delta[b][r]`: row r of buffer b differs from that row two generations before it (or
    /// may: an edit sets it).
    delta: [Vec<bool>; 2],
    /// Rows edited since the last step: their other buffer is no predecessor.
    fresh: Vec<usize>,
    parity: usize,
    /// Rows and words that may hold live cells in either buffer (inclusive; lo > hi: none).
    rows: (usize, usize),
    cols: (usize, usize),
    need: Vec<bool>,
    /// A run's input words of one column: each cell's west neighbour, the cell, its east one.
    w: [u64; RUN + 2],
    c: [u64; RUN + 2],
    e: [u64; RUN + 2],
    out: [u64; RUN],
}

impl SoupPlane {
    /// An empty plane for `rule` (two states, no birth from nothing), or None for a rule the
    /// kernel cannot run.
    pub fn new(rule: &Rule) -> Option<Self> {
        let kernel = Kernel::for_rule(rule)?;
        if kernel.is_stochastic() || kernel.births_from_nothing {
            return None;
        }
        let (words, height) = (4, 256);
        Some(SoupPlane {
            kernel,
            planes: Planes::default(),
            words,
            height,
            origin: (-128, -128),
            bufs: [vec![0; words * height], vec![0; words * height]],
            delta: [vec![false; height], vec![false; height]],
            fresh: Vec::new(),
            parity: 0,
            rows: (1, 0),
            cols: (1, 0),
            need: vec![false; height],
            w: [0; RUN + 2],
            c: [0; RUN + 2],
            e: [0; RUN + 2],
            out: [0; RUN],
        })
    }

    fn empty(&self) -> bool {
        self.rows.0 > self.rows.1
    }

    /// Makes room for the cell (x, y) of the plane and for a margin round it; its grid place.
    fn reach(&mut self, x: i64, y: i64) -> (usize, usize) {
        let (gx, gy) = (x - self.origin.0, y - self.origin.1);
        let word = gx.div_euclid(64);
        if gy < 2 || gy + 2 >= self.height as i64 || word < 1 || word + 1 >= self.words as i64 {
            self.regrid(Some((word, gy)));
        }
        let (gx, gy) = (x - self.origin.0, y - self.origin.1);
        (gx as usize, gy as usize)
    }

    /// Lays the grid out again round what may be live (and `also`, a word and row of the
    /// current grid), with a wide margin on every side.
    fn regrid(&mut self, also: Option<(i64, i64)>) {
        let (mut r0, mut r1, mut c0, mut c1) = if self.empty() {
            (i64::MAX, i64::MIN, i64::MAX, i64::MIN)
        } else {
            (
                self.rows.0 as i64,
                self.rows.1 as i64,
                self.cols.0 as i64,
                self.cols.1 as i64,
            )
        };
        if let Some((word, row)) = also {
            r0 = r0.min(row);
            r1 = r1.max(row);
            c0 = c0.min(word);
            c1 = c1.max(word);
        }
        let margin_rows = ((r1 - r0 + 1) / 2).max(64);
        let margin_words = ((c1 - c0 + 1) / 2).max(2);
        let height = (r1 - r0 + 1 + 2 * margin_rows) as usize;
        let words = (c1 - c0 + 1 + 2 * margin_words) as usize;
        // Old grid row r goes to row r + dr, old word j to word j + dw.
        let (dr, dw) = (margin_rows - r0, margin_words - c0);
        let mut bufs = [vec![0u64; words * height], vec![0u64; words * height]];
        let mut delta = [vec![false; height], vec![false; height]];
        if !self.empty() {
            for (new, old) in bufs.iter_mut().zip(&self.bufs) {
                for r in self.rows.0..=self.rows.1 {
                    let nr = (r as i64 + dr) as usize;
                    for j in self.cols.0..=self.cols.1 {
                        new[nr * words + (j as i64 + dw) as usize] = old[r * self.words + j];
                    }
                }
            }
        }
        // Every row keeps its change flag; one that falls outside the new grid is far from
        // anything live, where no flag is read.
        for (new, old) in delta.iter_mut().zip(&self.delta) {
            for (r, &d) in old.iter().enumerate() {
                let nr = r as i64 + dr;
                if d && (0..height as i64).contains(&nr) {
                    new[nr as usize] = true;
                }
            }
        }
        // An edited row outside the new grid is far from anything live: nothing to recompute.
        self.fresh = self
            .fresh
            .iter()
            .map(|&r| r as i64 + dr)
            .filter(|r| (0..height as i64).contains(r))
            .map(|r| r as usize)
            .collect();
        if !self.empty() {
            self.rows = (
                (self.rows.0 as i64 + dr) as usize,
                (self.rows.1 as i64 + dr) as usize,
            );
            self.cols = (
                (self.cols.0 as i64 + dw) as usize,
                (self.cols.1 as i64 + dw) as usize,
            );
        }
        self.origin = (self.origin.0 - 64 * dw, self.origin.1 - dr);
        self.bufs = bufs;
        self.delta = delta;
        self.words = words;
        self.height = height;
        self.need = vec![false; height];
    }

    fn include(&mut self, row: usize, word: usize) {
        if self.empty() {
            self.rows = (row, row);
            self.cols = (word, word);
        } else {
            self.rows = (self.rows.0.min(row), self.rows.1.max(row));
            self.cols = (self.cols.0.min(word), self.cols.1.max(word));
        }
    }

    /// Sets or clears a cell of the current generation.
    pub fn set(&mut self, x: i64, y: i64, alive: bool) {
        let (gx, gy) = self.reach(x, y);
        let (word, bit) = (gx / 64, gx % 64);
        let at = gy * self.words + word;
        let p = self.parity;
        let old = self.bufs[p][at];
        let new = if alive {
            old | 1 << bit
        } else {
            old & !(1 << bit)
        };
        if new == old {
            return;
        }
        self.bufs[p][at] = new;
        self.include(gy, word);
        self.delta[p][gy] = true;
        self.fresh.push(gy);
    }

    /// The live cells of the current generation.
    pub fn cells(&self) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        if self.empty() {
            return out;
        }
        let buf = &self.bufs[self.parity];
        for r in self.rows.0..=self.rows.1 {
            for j in self.cols.0..=self.cols.1 {
                let mut v = buf[r * self.words + j];
                while v != 0 {
                    let x = (j * 64) as i64 + v.trailing_zeros() as i64;
                    out.push((x + self.origin.0, r as i64 + self.origin.1));
                    v &= v - 1;
                }
            }
        }
        out
    }

    pub fn population(&self) -> u64 {
        if self.empty() {
            return 0;
        }
        let buf = &self.bufs[self.parity];
        (self.rows.0..=self.rows.1)
            .map(|r| {
                buf[r * self.words + self.cols.0..=r * self.words + self.cols.1]
                    .iter()
                    .map(|w| w.count_ones() as u64)
                    .sum::<u64>()
            })
            .sum()
    }

    pub fn step(&mut self, generations: u64) {
        for _ in 0..generations {
            self.step_once();
        }
    }

    fn step_once(&mut self) {
        let (p, q) = (self.parity, 1 - self.parity);
        self.parity = q;
        if self.empty() {
            self.fresh.clear();
            return;
        }
        // Births reach a row and a word beyond what may be live; the kernel reads one more.
        if self.rows.0 < 2
            || self.rows.1 + 3 > self.height
            || self.cols.0 < 1
            || self.cols.1 + 2 > self.words
        {
            self.regrid(None);
        }
        let (lo, hi) = (self.rows.0 - 1, self.rows.1 + 1);
        for r in lo..=hi {
            self.need[r] = self.delta[p][r - 1] || self.delta[p][r] || self.delta[p][r + 1];
            self.delta[q][r] = false;
        }
        let (j0, j1) = (self.cols.0 - 1, self.cols.1 + 1);
        let words = self.words;
        let mut r = lo;
        while r <= hi {
            if !self.need[r] {
                r += 1;
                continue;
            }
            // A run of rows to compute, through gaps of a few rows that need nothing (computing
            // them rewrites what they hold): fewer, longer calls of the kernel.
            let (a, mut last) = (r, r);
            while r <= hi && r - a < RUN {
                if self.need[r] {
                    last = r;
                } else if r - last > GAP {
                    break;
                }
                r += 1;
            }
            r = last + 1;
            let n = r - a;
            for j in j0..=j1 {
                let src = &self.bufs[p];
                let mut any = 0;
                for k in 0..n + 2 {
                    let row = (a + k - 1) * words;
                    let c = src[row + j];
                    let west = if j > 0 { src[row + j - 1] } else { 0 };
                    let east = if j + 1 < words { src[row + j + 1] } else { 0 };
                    self.c[k] = c;
                    self.w[k] = c << 1 | west >> 63;
                    self.e[k] = c >> 1 | east << 63;
                    any |= self.w[k] | c | self.e[k];
                }
                if any == 0 {
                    // Nothing live in or beside this word: nothing is born (no B0 here).
                    self.out[..n].fill(0);
                } else {
                    self.kernel.rows_fast(
                        &self.w[..n + 2],
                        &self.c[..n + 2],
                        &self.e[..n + 2],
                        &mut self.out[..n],
                        &mut self.planes,
                    );
                }
                for k in 0..n {
                    let at = (a + k) * words + j;
                    let new = self.out[k];
                    if self.bufs[q][at] != new {
                        self.bufs[q][at] = new;
                        self.delta[q][a + k] = true;
                        if new != 0 {
                            self.include(a + k, j);
                        }
                    }
                }
            }
        }
        // An edited row's older buffer was not its predecessor: computed once more.
        for r in std::mem::take(&mut self.fresh) {
            self.delta[q][r] = true;
        }
    }

    /// Forgets rows and words that are empty in both buffers (after gliders are taken off), so
    /// that a generation no longer walks them.
    pub fn shrink(&mut self) {
        if self.empty() {
            return;
        }
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        for r in self.rows.0..=self.rows.1 {
            for j in self.cols.0..=self.cols.1 {
                let at = r * self.words + j;
                if self.bufs[0][at] | self.bufs[1][at] != 0 {
                    r0 = r0.min(r);
                    r1 = r1.max(r);
                    c0 = c0.min(j);
                    c1 = c1.max(j);
                }
            }
        }
        if r0 == usize::MAX {
            self.rows = (1, 0);
            self.cols = (1, 0);
        } else {
            self.rows = (r0, r1);
            self.cols = (c0, c1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::reference::ReferenceEngine;
    use crate::engine::Engine;

    /// Random soups, edited now and then, against the reference engine on a torus big enough
    /// to be the plane for these generations (the plane's cell (x, y) is the torus's
    /// (x + 490, y + 190)).
    #[test]
    fn the_soup_plane_matches_the_reference_engine() {
        use crate::grid::Grid;
        for (rule, seed) in [("B3/S23", 1u64), ("B36/S23", 2), ("B3/S2-i34q", 3)] {
            let rule = Rule::parse(rule).unwrap();
            let mut plane = SoupPlane::new(&rule).unwrap();
            let mut grid = Grid::new(400, 400);
            let mut s = seed;
            let mut next = || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s >> 33
            };
            for y in 0..20 {
                for x in 0..20 {
                    if next() % 2 == 0 {
                        plane.set(x - 300, y, true);
                        grid.set((x + 190) as u32, (y + 190) as u32, true);
                    }
                }
            }
            let mut reference = ReferenceEngine::new(rule, &grid, 0);
            for round in 0..40 {
                plane.step(10);
                reference.step(10).unwrap();
                if round % 7 == 3 {
                    // Take off a live cell, as glider removal does.
                    if let Some(&(x, y)) = plane.cells().first() {
                        plane.set(x, y, false);
                        reference.set_cell(x + 490, y + 190, false).unwrap();
                    }
                    plane.shrink();
                }
                let mut want: Vec<(i64, i64)> = reference
                    .export()
                    .unwrap()
                    .cells()
                    .map(|(x, y)| (x - 490, y - 190))
                    .collect();
                let mut got = plane.cells();
                want.sort_unstable();
                got.sort_unstable();
                assert_eq!(got, want, "{rule} after round {round}");
                assert_eq!(plane.population(), want.len() as u64);
            }
        }
    }
}
