//! apgcodes, the canonical names Catagolue and LifeWiki give to still lifes (`xs4_33`, the
//! block), oscillators (`xp2_7`, the blinker) and spaceships (`xq4_153`, the glider).
//!
//! The suffix is the object in extended Wechsler format: the rows are cut into strips of five;
//! each column of a strip is one character `0`-`9`, `a`-`v` (the top cell is the lowest bit);
//! runs of blank columns are `0` (one), `w` (two), `x` (three) or `y` and a character for 4 to
//! 39 (longer runs: `yz` and the rest); trailing blanks of a strip are dropped, and strips are
//! joined by `z` (trailing `z`s dropped). Of every phase in every one of the eight orientations,
//! the canonical code is the shortest, and of those the first in ASCII order.

use crate::grid::Grid;

const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";

/// The canonical suffix of an object whose phases (one period of them) are `phases`: of every
/// phase in every orientation, the shortest extended Wechsler string, ties by ASCII order.
pub fn canonical(phases: &[&Grid]) -> Option<String> {
    phases
        .iter()
        .flat_map(|p| trimmed(p).symmetries())
        .map(|g| wechsler(&g))
        .min_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)))
}

/// The cells an extended Wechsler string names (`33` is the block), as (x, y) from its
/// top-left corner; `None` for a character the format does not have.
pub fn decode(body: &str) -> Option<Vec<(i64, i64)>> {
    let value = |c: char| DIGITS.iter().position(|&d| d as char == c);
    let mut cells = Vec::new();
    let (mut x, mut strip) = (0i64, 0i64);
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            'z' => (x, strip) = (0, strip + 1),
            'w' => x += 2,
            'x' => x += 3,
            // `y` takes the next character, `z` included: `yz` is 39 blank columns.
            'y' => x += 4 + value(chars.next()?)? as i64,
            c => {
                let v = value(c)?;
                if v >= 32 {
                    return None;
                }
                for bit in 0..5 {
                    if v >> bit & 1 == 1 {
                        cells.push((x, 5 * strip + bit as i64));
                    }
                }
                x += 1;
            }
        }
    }
    Some(cells)
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
    fn decoding_undoes_the_encoding() {
        // The pentadecathlon's phase 0 and a still life with a blank strip.
        for body in ["4r4z4r4", "0ggm952gz1221", "69b88cz6511"] {
            let cells = decode(body).unwrap();
            let w = cells.iter().map(|c| c.0).max().unwrap() as u32 + 1;
            let h = cells.iter().map(|c| c.1).max().unwrap() as u32 + 1;
            let mut g = Grid::new(w, h);
            for (x, y) in cells {
                g.set(x as u32, y as u32, true);
            }
            let trimmed = trimmed(&g);
            assert_eq!(wechsler(&trimmed), body);
        }
    }

    #[test]
    fn strips_columns_and_runs_of_blanks() {
        // Two strips: the second starts at row 5.
        let g = Grid::from_text("O.....O\n\n\n\n\nO\n");
        assert_eq!(wechsler(&g), "1y11z1");
        let g = Grid::from_text("O..O\n");
        assert_eq!(wechsler(&g), "1w1");
    }
}
