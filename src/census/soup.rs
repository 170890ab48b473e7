//! Soups exactly as apgsearch makes them: the SHA-256 digest of the seed string (the root and
//! the soup's index) is 256 cells, a 16x16 square or a long strip, repeated by the symmetry.
//!
//! The digest's bytes `2j` and `2j + 1` are row `j` of the square: the cell in column `x` is
//! bit `x` of the 16-bit word `byte[2j] << 8 | byte[2j + 1]`. Cells are placed where lifelib's
//! `hashsoup` places them (y grows downwards), so the same seed gives the same cells.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

use crate::grid::Grid;
use crate::pattern::Pattern;
use crate::rule::Rule;

/// The symmetries Catagolue censuses (`G1` is `C1` with the same soups).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    C1,
    G1,
    C2_1,
    C2_2,
    C2_4,
    C4_1,
    C4_4,
    D2Plus1,
    D2Plus2,
    D2X,
    D4Plus1,
    D4Plus2,
    D4Plus4,
    D4X1,
    D4X4,
    D8_1,
    D8_4,
    /// A strip 256/`height` cells wide: `8x32`, `4x64`, `2x128`, `1x256`.
    Strip(u8),
}

pub const ALL: [Symmetry; 21] = [
    Symmetry::C1,
    Symmetry::G1,
    Symmetry::C2_1,
    Symmetry::C2_2,
    Symmetry::C2_4,
    Symmetry::C4_1,
    Symmetry::C4_4,
    Symmetry::D2Plus1,
    Symmetry::D2Plus2,
    Symmetry::D2X,
    Symmetry::D4Plus1,
    Symmetry::D4Plus2,
    Symmetry::D4Plus4,
    Symmetry::D4X1,
    Symmetry::D4X4,
    Symmetry::D8_1,
    Symmetry::D8_4,
    Symmetry::Strip(8),
    Symmetry::Strip(4),
    Symmetry::Strip(2),
    Symmetry::Strip(1),
];

impl Symmetry {
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::C1 => "C1",
            Symmetry::G1 => "G1",
            Symmetry::C2_1 => "C2_1",
            Symmetry::C2_2 => "C2_2",
            Symmetry::C2_4 => "C2_4",
            Symmetry::C4_1 => "C4_1",
            Symmetry::C4_4 => "C4_4",
            Symmetry::D2Plus1 => "D2_+1",
            Symmetry::D2Plus2 => "D2_+2",
            Symmetry::D2X => "D2_x",
            Symmetry::D4Plus1 => "D4_+1",
            Symmetry::D4Plus2 => "D4_+2",
            Symmetry::D4Plus4 => "D4_+4",
            Symmetry::D4X1 => "D4_x1",
            Symmetry::D4X4 => "D4_x4",
            Symmetry::D8_1 => "D8_1",
            Symmetry::D8_4 => "D8_4",
            Symmetry::Strip(8) => "8x32",
            Symmetry::Strip(4) => "4x64",
            Symmetry::Strip(2) => "2x128",
            Symmetry::Strip(_) => "1x256",
        }
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Symmetry {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        ALL.iter()
            .copied()
            .find(|sym| sym.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ALL.iter().map(|s| s.name()).collect();
                format!(
                    "unknown symmetry '{s}': the symmetries are {}",
                    names.join(", ")
                )
            })
    }
}

/// The 16 rows of a 16x16 square, from 32 digest bytes.
fn rows(d: &[u8; 32]) -> [u16; 16] {
    std::array::from_fn(|j| (d[2 * j] as u16) << 8 | d[2 * j + 1] as u16)
}

fn bytes(rows: &[u16; 16]) -> [u8; 32] {
    std::array::from_fn(|i| {
        let r = rows[i / 2];
        if i % 2 == 0 { (r >> 8) as u8 } else { r as u8 }
    })
}

/// The square reflected in its anti-diagonal, `(x, y) -> (15 - y, 15 - x)`: lifelib's byte
/// transpose seen in this layout.
fn transposed(d: &[u8; 32]) -> [u8; 32] {
    let r = rows(d);
    let mut t = [0u16; 16];
    for (y, row) in r.iter().enumerate() {
        for x in 0..16 {
            if row >> x & 1 == 1 {
                t[15 - x] |= 1 << (15 - y);
            }
        }
    }
    bytes(&t)
}

fn cells_of(d: &[u8; 32], map: impl Fn(i64, i64) -> (i64, i64), out: &mut Vec<(i64, i64)>) {
    for (y, row) in rows(d).iter().enumerate() {
        for x in 0..16 {
            if row >> x & 1 == 1 {
                out.push(map(x as i64, y as i64));
            }
        }
    }
}

/// The soup of `seed` under `symmetry`, as live cells, sorted by row then column.
pub fn hashsoup(seed: &str, symmetry: Symmetry) -> Vec<(i64, i64)> {
    let mut digest: [u8; 32] = Sha256::digest(seed.as_bytes()).into();
    let mut tseg = transposed(&digest);
    // apgsearch before apgluxe read C2_2's square transposed; Catagolue keeps those soups.
    if symmetry == Symmetry::C2_2 && !seed.starts_with("l_") {
        std::mem::swap(&mut digest, &mut tseg);
    }
    use Symmetry::*;
    if matches!(symmetry, D2X | D8_4 | D8_1 | D4X4 | D4X1) {
        // A square symmetric in its diagonal: above it the digest, below it the transpose.
        let mut diag = [0u8; 32];
        for i in 0..8 {
            let low = ((1u16 << (8 - i)) - 1) as u8;
            diag[2 * i] = digest[2 * i] & low | tseg[2 * i] & !low;
            diag[2 * i + 17] = digest[2 * i + 17] & low | tseg[2 * i + 17] & !low;
            diag[2 * i + 1] = digest[2 * i + 1];
            diag[2 * i + 16] = tseg[2 * i + 16];
        }
        for i in 0..32 {
            tseg[i] ^= diag[i] ^ digest[i];
        }
        digest = diag;
    }
    let mut out = Vec::new();
    if let Strip(h) = symmetry {
        let h = h as usize;
        let eighths = 32 / h;
        for j in 0..h {
            for i in 0..eighths {
                let byte = digest[eighths * j + i];
                for bit in 0..8 {
                    if byte >> bit & 1 == 1 {
                        out.push((8 * (eighths - 1 - i) as i64 + bit, j as i64));
                    }
                }
            }
        }
        out.sort_unstable_by_key(|&(x, y)| (y, x));
        return out;
    }
    if matches!(symmetry, C1 | G1 | D2X) {
        cells_of(&digest, |x, y| (x + 8, y + 8), &mut out);
        out.sort_unstable_by_key(|&(x, y)| (y, x));
        return out;
    }
    cells_of(&digest, |x, y| (x, y), &mut out);
    // The quarter turns take the vertical and horizontal reflections of the transpose.
    let turned = if matches!(symmetry, C4_1 | C4_4 | D4X1 | D4X4) {
        tseg
    } else {
        digest
    };
    let vertical = |sy: i64, out: &mut Vec<_>| cells_of(&turned, |x, y| (x, 15 - y + sy), out);
    let horizontal = |sx: i64, out: &mut Vec<_>| cells_of(&turned, |x, y| (15 - x + sx, y), out);
    let half_turn = |sx: i64, sy: i64, out: &mut Vec<_>| {
        cells_of(&digest, |x, y| (15 - x + sx, 15 - y + sy), out)
    };
    match symmetry {
        D2Plus1 => vertical(-15, &mut out),
        D2Plus2 => vertical(-16, &mut out),
        C2_4 => half_turn(16, -16, &mut out),
        C2_2 => half_turn(16, -15, &mut out),
        C2_1 => half_turn(15, -15, &mut out),
        D8_4 | D4Plus4 | D4X4 | C4_4 => {
            vertical(-16, &mut out);
            horizontal(16, &mut out);
            half_turn(16, -16, &mut out);
        }
        D4Plus2 => {
            vertical(-15, &mut out);
            horizontal(16, &mut out);
            half_turn(16, -15, &mut out);
        }
        D8_1 | D4Plus1 | D4X1 | C4_1 => {
            vertical(-15, &mut out);
            horizontal(15, &mut out);
            half_turn(15, -15, &mut out);
        }
        _ => unreachable!("the square symmetries are all above"),
    }
    out.sort_unstable_by_key(|&(x, y)| (y, x));
    out.dedup();
    out
}

/// The cells in their bounding box, as a pattern of `rule` (what `census soup` prints as RLE).
pub fn soup_pattern(cells: &[(i64, i64)], rule: Rule, name: String) -> Pattern {
    let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let w = cells.iter().map(|c| c.0 - x0 + 1).max().unwrap_or(0);
    let h = cells.iter().map(|c| c.1 - y0 + 1).max().unwrap_or(0);
    let mut grid = Grid::new(w as u32, h as u32);
    for &(x, y) in cells {
        grid.set((x - x0) as u32, (y - y0) as u32, true);
    }
    let mut pattern = Pattern::new(grid);
    pattern.rule = Some(rule);
    pattern.name = Some(name);
    pattern
}
