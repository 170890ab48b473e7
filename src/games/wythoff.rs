//! Wythoff's game (1907): two heaps; a move takes any number from one heap, or the same number
//! from both. The lost positions are (⌊nφ⌋, ⌊nφ²⌋) and their mirror images, computed here in
//! integers: ⌊nφ⌋ = ⌊(n + √(5n²)) / 2⌋ = (n + isqrt(5n²)) / 2, exact for every heap below 2^63
//! (floating point goes wrong past about 2^50).

use serde::Serialize;

/// The largest heap taken: ⌊nφ⌋ + n must fit in 64 bits, and the bisection of
/// `floor_root5_times` in 128.
pub const MAX_HEAP: u64 = (1 << 63) - 1;

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum WythoffError {
    #[error("a heap of {0}: Wythoff heaps go up to {MAX_HEAP} (2^63 - 1)")]
    TooLarge(u64),
}

fn check(x: u64) -> Result<(), WythoffError> {
    if x > MAX_HEAP {
        return Err(WythoffError::TooLarge(x));
    }
    Ok(())
}

/// ⌊n√5⌋, exactly: isqrt(5n²) while 5n² fits in 128 bits (n below about 8.25 * 10^18). Past
/// that it is 2n + t, with t the largest whole number such that (2n + t)² ≤ 5n², that is
/// t² + 4nt ≤ n², found by bisection below n/4 (√5 - 2 < 1/4); for n < 2^63 every term fits.
fn floor_root5_times(n: u64) -> u128 {
    let n = n as u128;
    if let Some(five) = (n * n).checked_mul(5) {
        return five.isqrt();
    }
    let (mut fits, mut too_big) = (0u128, n / 4 + 1);
    while too_big - fits > 1 {
        let t = (fits + too_big) / 2;
        if t * t + 4 * n * t <= n * n {
            fits = t;
        } else {
            too_big = t;
        }
    }
    2 * n + fits
}

/// ⌊nφ⌋, the smaller heap of the n-th lost position, for n up to [`MAX_HEAP`].
pub fn lower(n: u64) -> u64 {
    ((n as u128 + floor_root5_times(n)) / 2) as u64
}

/// The n-th lost position (⌊nφ⌋, ⌊nφ²⌋) = (a, a + n); the 0th is (0, 0).
pub fn p_position(n: u64) -> (u64, u64) {
    let a = lower(n);
    (a, a + n)
}

/// Whether the player to move from (x, y) loses: the smaller heap is ⌊dφ⌋ for the difference d.
pub fn is_p(x: u64, y: u64) -> Result<bool, WythoffError> {
    check(x)?;
    check(y)?;
    let (a, b) = (x.min(y), x.max(y));
    Ok(lower(b - a) == a)
}

/// The heap that makes a lost position with `v`: every number is in exactly one lost position
/// (the sequences ⌊nφ⌋ and ⌊nφ²⌋ split the positive integers, Beatty's theorem).
pub fn partner(v: u64) -> u64 {
    if v == 0 {
        return 0;
    }
    // n ≈ v/φ when v = ⌊nφ⌋, m ≈ v/φ² when v = ⌊mφ²⌋; the estimate is within one.
    let v128 = v as u128;
    let root5v = floor_root5_times(v);
    let around = |estimate: u128| (estimate.saturating_sub(2)..=estimate + 2).map(|n| n as u64);
    for n in around((root5v - v128) / 2) {
        if lower(n) == v {
            return v + n;
        }
    }
    for m in around((3 * v128 - root5v) / 2) {
        if m > 0 && lower(m) + m == v {
            return lower(m);
        }
    }
    unreachable!("{v} is in one of the two Beatty sequences")
}

/// A move: take `take[0]` from the first heap and `take[1]` from the second, leaving `leaves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WythoffMove {
    pub take: [u64; 2],
    pub leaves: [u64; 2],
}

impl WythoffMove {
    pub fn describe(&self) -> String {
        match self.take {
            [a, 0] => format!(
                "take {a} from heap 1, leaving ({}, {})",
                self.leaves[0], self.leaves[1]
            ),
            [0, b] => format!(
                "take {b} from heap 2, leaving ({}, {})",
                self.leaves[0], self.leaves[1]
            ),
            [a, _] => format!(
                "take {a} from both heaps, leaving ({}, {})",
                self.leaves[0], self.leaves[1]
            ),
        }
    }
}

fn to(x: u64, y: u64, nx: u64, ny: u64) -> WythoffMove {
    WythoffMove {
        take: [x - nx, y - ny],
        leaves: [nx, ny],
    }
}

/// Every move to a lost position: at most one lowering each heap and one along the diagonal.
/// Empty when (x, y) is lost.
pub fn winning_moves(x: u64, y: u64) -> Result<Vec<WythoffMove>, WythoffError> {
    if is_p(x, y)? {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    // Lower y to x's partner, or x to y's partner.
    let py = partner(x);
    if py < y {
        out.push(to(x, y, x, py));
    }
    let px = partner(y);
    if px < x {
        out.push(to(x, y, px, y));
    }
    // Along the diagonal the difference d stays: the lost position with difference d.
    let (a, b) = (x.min(y), x.max(y));
    let la = lower(b - a);
    if la < a {
        let k = a - la;
        out.push(to(x, y, x - k, y - k));
    }
    Ok(out)
}

/// Every move from (x, y) (for small positions: the tab's play and the sums).
pub fn all_moves(x: u64, y: u64) -> Vec<WythoffMove> {
    let mut out = Vec::new();
    for k in 1..=x {
        out.push(to(x, y, x - k, y));
    }
    for k in 1..=y {
        out.push(to(x, y, x, y - k));
    }
    for k in 1..=x.min(y) {
        out.push(to(x, y, x - k, y - k));
    }
    out
}

/// The largest side of a table of Grundy values.
pub const MAX_TABLE: u64 = 4096;

/// Grundy values g(x, y) for x < w, y < h (indexed `[y][x]`): the mex over the row to the
/// left, the column below and the diagonal, each kept as a bitset (values stay below x + y + 1).
pub fn grundy_table(w: u64, h: u64) -> Vec<Vec<u32>> {
    let (w, h) = (w as usize, h as usize);
    let words = (w + h).div_ceil(64) + 1;
    let mut rows = vec![0u64; h * words];
    let mut cols = vec![0u64; w * words];
    // Diagonal x - y + h - 1.
    let mut diags = vec![0u64; (w + h) * words];
    let mut table = vec![vec![0u32; w]; h];
    for (y, row_out) in table.iter_mut().enumerate() {
        for (x, cell) in row_out.iter_mut().enumerate() {
            let d = x + h - 1 - y;
            let (r, c, g) = (
                &rows[y * words..][..words],
                &cols[x * words..][..words],
                &diags[d * words..][..words],
            );
            let (i, free) = (0..words)
                .map(|i| (i, !(r[i] | c[i] | g[i])))
                .find(|&(_, f)| f != 0)
                .expect("a free value below the bound");
            let v = i * 64 + free.trailing_zeros() as usize;
            *cell = v as u32;
            for (set, at) in [(&mut rows, y), (&mut cols, x), (&mut diags, d)] {
                set[at * words + v / 64] |= 1 << (v % 64);
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_pair_up() {
        for n in 1..200 {
            let (a, b) = p_position(n);
            assert_eq!((partner(a), partner(b)), (b, a));
        }
    }
}
