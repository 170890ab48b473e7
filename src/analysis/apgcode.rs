//! apgcodes, the canonical names Catagolue and LifeWiki give to still lifes (`xs4_33`, the
//! block), oscillators (`xp2_7`, the blinker) and spaceships (`xq4_153`, the glider).
//!
//! The suffix is the object in extended Wechsler format: the rows are cut into strips of five;
//! each column of a strip is one character `0`-`9`, `a`-`v` (the top cell is the lowest bit);
//! runs of blank columns are `0` (one), `w` (two), `x` (three) or `y` and a character for 4 to
//! 39 (longer runs: `yz` and the rest); trailing blanks of a strip are dropped, and strips are
//! joined by `z` (trailing `z`s dropped). Of every phase in every one of the eight orientations,
//! the canonical code is the shortest, and of those the first in ASCII order.

use super::kind::Kind;
use crate::grid::Grid;

const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// The apgcode of an object of `kind` and `period` whose phases (one period of them) are
/// `phases`; `None` for kinds that have none.
pub fn apgcode(kind: Kind, period: u64, phases: &[&Grid]) -> Option<String> {
    let prefix = match kind {
        Kind::Still => format!("xs{}", phases.first()?.population()),
        Kind::Oscillator => format!("xp{period}"),
        Kind::Spaceship => format!("xq{period}"),
        _ => return None,
    };
    let best = phases
        .iter()
        .flat_map(|p| trimmed(p).symmetries())
        .map(|g| wechsler(&g))
        .min_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)))?;
    Some(format!("{prefix}_{best}"))
}

fn trimmed(g: &Grid) -> Grid {
    match g.bounding_box() {
        Some(b) => g.crop(b),
        None => Grid::new(0, 0),
    }
}

/// The extended Wechsler form of a shape whose top row and left column hold live cells.
pub fn wechsler(g: &Grid) -> String {
    let mut strips: Vec<String> = Vec::new();
    for top in (0..g.height()).step_by(5) {
        let columns: Vec<u8> = (0..g.width())
            .map(|x| {
                (0..5)
                    .filter(|&dy| top + dy < g.height() && g.get(x, top + dy))
                    .fold(0u8, |acc, dy| acc | 1 << dy)
            })
            .collect();
        let end = columns.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
        let mut s = String::new();
        let mut zeros = 0usize;
        for &c in &columns[..end] {
            if c == 0 {
                zeros += 1;
                continue;
            }
            push_zeros(&mut s, zeros);
            zeros = 0;
            s.push(DIGITS[c as usize] as char);
        }
        strips.push(s);
    }
    while strips.last().is_some_and(String::is_empty) {
        strips.pop();
    }
    strips.join("z")
}

fn push_zeros(s: &mut String, mut n: usize) {
    while n >= 40 {
        s.push_str("yz");
        n -= 39;
    }
    match n {
        0 => {}
        1 => s.push('0'),
        2 => s.push('w'),
        3 => s.push('x'),
        n => {
            s.push('y');
            s.push(DIGITS[n - 4] as char);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_columns_and_runs_of_blanks() {
        // Two strips: the second starts at row 5.
        let g = Grid::from_text("O.....O\n\n\n\n\nO\n");
        assert_eq!(wechsler(&g), "1y11z1");
        let g = Grid::from_text("O..O\n");
        assert_eq!(wechsler(&g), "1w1");
    }
}
