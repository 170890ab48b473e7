//! Start rows for elementary automata (SPEC 1.2): one live cell in the middle, one at the right
//! end, k random live cells, or a typed row such as `..#.##.`.

use crate::grid::Grid;
use crate::hash::SplitMix64;

/// A ring of `width` cells in the state `start` describes: `center`, `right`, `random:K` or a
/// row (`#`, `O`, `*`, `1` alive; `.`, `0`, `-`, `_` dead), centred on the ring.
pub fn start_row(width: u32, start: &str, seed: u64) -> Result<Grid, String> {
    let mut grid = Grid::try_new(width, 1).map_err(|e| e.to_string())?;
    match start {
        "center" | "centre" => grid.set(width / 2, 0, true),
        "right" => grid.set(width - 1, 0, true),
        s if s.starts_with("random:") => {
            let k: u32 = s["random:".len()..]
                .parse()
                .map_err(|_| "K in random:K must be a whole number".to_string())?;
            if k > width {
                return Err(format!("cannot choose {k} live cells on a ring of {width}"));
            }
            // Floyd's algorithm: k distinct cells, uniformly.
            let mut rng = SplitMix64(seed);
            for j in width - k..width {
                let t = rng.below(j as u64 + 1) as u32;
                if grid.get(t, 0) {
                    grid.set(j, 0, true);
                } else {
                    grid.set(t, 0, true);
                }
            }
        }
        row => {
            let len = row.chars().count() as u32;
            if len > width {
                return Err(format!(
                    "the row has {len} cells, more than the ring's {width}"
                ));
            }
            let offset = (width - len) / 2;
            for (i, c) in row.chars().enumerate() {
                match c {
                    '#' | 'O' | 'o' | '*' | '1' => grid.set(offset + i as u32, 0, true),
                    '.' | '0' | '-' | '_' => {}
                    other => {
                        return Err(format!(
                            "'{other}' at position {} is not a cell ('#' alive, '.' dead); \
                             or use center, right, random:K",
                            i + 1
                        ));
                    }
                }
            }
        }
    }
    Ok(grid)
}
