//! The bit-sliced kernel on columns of words, shared by the tile engine and HashLife's leaves:
//! 64 cells of a row in one `u64`, a count per cell in four bit planes, the rule as word-wide
//! boolean logic (the fast engine's scheme, laid out along a column of rows instead of along a
//! row of words).
//!
//! Input rows come with their horizontal neighbours already shifted in: `w[i]` holds, at bit j,
//! the cell left of bit j of row i; `e[i]` the cell to its right; `c[i]` the row itself. Output
//! row k is the next state of input row k + 1.

use crate::hash;
use crate::rule::{CountTable, LifeRule, Neighbourhood, Outcome};

/// A Life-like rule compiled for the kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub neighbourhood: Neighbourhood,
    /// For each count value (t = n + alive for Moore, n otherwise): masks for a dead and a live
    /// cell, all ones where the cell is certainly alive next.
    certain: Vec<(usize, u64, u64)>,
    /// Count values with a chance outcome: (value, threshold if dead, threshold if alive).
    chance: Vec<(usize, u32, u32)>,
    /// Whether a dead cell with no live neighbour is born (B0).
    pub births_from_nothing: bool,
}

impl Kernel {
    pub fn new(rule: &LifeRule) -> Self {
        let table = CountTable::new(rule);
        let mask = |o: Outcome| if o == Outcome::Alive { u64::MAX } else { 0 };
        let threshold = |o: Outcome| match o {
            Outcome::Chance(t) => t,
            _ => 0,
        };
        let certain = (0..table.values)
            .map(|c| (c, mask(table.dead[c]), mask(table.alive[c])))
            .filter(|&(_, d, a)| d != 0 || a != 0)
            .collect();
        let chance: Vec<(usize, u32, u32)> = (0..table.values)
            .map(|c| (c, threshold(table.dead[c]), threshold(table.alive[c])))
            .filter(|&(_, d, a)| d != 0 || a != 0)
            .collect();
        let births_from_nothing = table.dead[0] != Outcome::Dead;
        Self {
            neighbourhood: rule.neighbourhood,
            certain,
            chance,
            births_from_nothing,
        }
    }

    pub fn is_stochastic(&self) -> bool {
        !self.chance.is_empty()
    }

    /// The count planes of output row k from input rows k, k+1, k+2.
    #[inline(always)]
    fn planes(&self, w: &[u64], c: &[u64], e: &[u64], k: usize) -> [u64; 4] {
        match self.neighbourhood {
            Neighbourhood::Moore => {
                // Column sums of three rows for the west, centre and east words, then their
                // sum: t = n + alive, 0..=9.
                let (a0, a1) = add3(w[k], w[k + 1], w[k + 2]);
                let (b0, b1) = add3(c[k], c[k + 1], c[k + 2]);
                let (d0, d1) = add3(e[k], e[k + 1], e[k + 2]);
                let (ones, carry) = add3(a0, b0, d0);
                // Twos: a1 + b1 + d1 + carry, four bits of weight 2.
                let (p, q) = add3(a1, b1, d1);
                let twos = p ^ carry;
                let k2 = p & carry;
                [ones, twos, q ^ k2, q & k2]
            }
            Neighbourhood::Hexagonal => {
                // (-1,-1), (0,-1), (-1,0), (1,0), (0,1), (1,1).
                let (s1, c1) = add3(w[k], c[k], w[k + 1]);
                let (s2, c2) = add3(e[k + 1], c[k + 2], e[k + 2]);
                let ones = s1 ^ s2;
                let c3 = s1 & s2;
                let z = c1 ^ c2;
                [ones, z ^ c3, (c1 & c2) | (z & c3), 0]
            }
            Neighbourhood::VonNeumann => {
                let (a, b, cc, d) = (c[k], w[k + 1], e[k + 1], c[k + 2]);
                let x = a ^ b;
                let y = cc ^ d;
                let (ca, cb) = (a & b, cc & d);
                let ones = x ^ y;
                let cx = x & y;
                let z = ca ^ cb;
                [ones, z ^ cx, (ca & cb) | (z & cx), 0]
            }
        }
    }

    /// The next state of rows 1..=out.len() of the inputs (each input slice is out.len() + 2
    /// long). Deterministic rules only. The count planes go through `planes` first, in one
    /// pass, then each count value the rule cares about in another: both loops vectorise.
    #[inline]
    pub fn rows(&self, w: &[u64], c: &[u64], e: &[u64], out: &mut [u64], planes: &mut Planes) {
        let n = out.len();
        for k in 0..n {
            let p = self.planes(w, c, e, k);
            planes.0[k] = p[0];
            planes.1[k] = p[1];
            planes.2[k] = p[2];
            planes.3[k] = p[3];
        }
        out.fill(0);
        let (p0, p1, p2, p3) = (
            &planes.0[..n],
            &planes.1[..n],
            &planes.2[..n],
            &planes.3[..n],
        );
        let alive = &c[1..n + 1];
        for &(value, dead, live) in &self.certain {
            let inv = |bit: usize| if value >> bit & 1 == 1 { 0 } else { u64::MAX };
            let (i0, i1, i2, i3) = (inv(0), inv(1), inv(2), inv(3));
            let flip = dead ^ live;
            for k in 0..n {
                let eq = (p0[k] ^ i0) & (p1[k] ^ i1) & (p2[k] ^ i2) & (p3[k] ^ i3);
                out[k] |= eq & (dead ^ (alive[k] & flip));
            }
        }
    }

    /// [`Kernel::rows`] for stochastic rules: cells with a chance outcome draw their number
    /// from (key, x, y), where output row k is row `y0 + k` and bit j is column `x0 + j`
    /// (both wrapped by the caller's `wrap`).
    #[allow(clippy::too_many_arguments)]
    pub fn rows_stochastic(
        &self,
        w: &[u64],
        c: &[u64],
        e: &[u64],
        out: &mut [u64],
        planes: &mut Planes,
        key: u32,
        x0: i64,
        y0: i64,
        wrap: &dyn Fn(i64, i64) -> (u32, u32),
    ) {
        self.rows(w, c, e, out, planes);
        for (k, o) in out.iter_mut().enumerate() {
            let p = self.planes(w, c, e, k);
            let alive = c[k + 1];
            let mut candidates = 0;
            for &(value, dead_t, alive_t) in &self.chance {
                let state =
                    (if dead_t != 0 { !alive } else { 0 }) | (if alive_t != 0 { alive } else { 0 });
                candidates |= equal(&p, value) & state;
            }
            for bit in crate::grid::BitIter(candidates) {
                let value = (0..4).fold(0, |acc, q| acc | ((p[q] >> bit & 1) as usize) << q);
                let Some(&(_, dead_t, alive_t)) = self.chance.iter().find(|e| e.0 == value) else {
                    continue;
                };
                let threshold = if alive >> bit & 1 == 1 {
                    alive_t
                } else {
                    dead_t
                };
                let (x, y) = wrap(x0 + bit as i64, y0 + k as i64);
                if hash::cell_hash(key, x, y) < threshold {
                    *o |= 1 << bit;
                }
            }
        }
    }
}

/// Count planes for up to 64 rows, reused between calls.
pub struct Planes(pub [u64; 64], pub [u64; 64], pub [u64; 64], pub [u64; 64]);

impl Default for Planes {
    fn default() -> Self {
        Planes([0; 64], [0; 64], [0; 64], [0; 64])
    }
}

/// Full adder: (sum, carry).
#[inline(always)]
fn add3(a: u64, b: u64, c: u64) -> (u64, u64) {
    let x = a ^ b;
    (x ^ c, (a & b) | (x & c))
}

/// Word-wide `count == value` from the count planes.
#[inline(always)]
fn equal(p: &[u64; 4], value: usize) -> u64 {
    let bit = |q: usize| if value >> q & 1 == 1 { p[q] } else { !p[q] };
    bit(0) & bit(1) & bit(2) & bit(3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    #[test]
    fn a_blinker_turns_in_a_column_of_words() {
        let rule: Rule = "B3/S23".parse().unwrap();
        let k = Kernel::new(rule.life_rule().unwrap());
        // Rows 0..5 with a horizontal blinker in row 2, columns 1..4.
        let c = [0u64, 0, 0b1110, 0, 0];
        let w: Vec<u64> = c.iter().map(|r| r << 1).collect();
        let e: Vec<u64> = c.iter().map(|r| r >> 1).collect();
        let mut out = [0u64; 3];
        k.rows(&w, &c, &e, &mut out, &mut Planes::default());
        assert_eq!(out, [0b0100, 0b0100, 0b0100]);
    }
}
