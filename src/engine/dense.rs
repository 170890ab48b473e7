//! The seam's cell operations on a dense torus grid, shared by the engines that keep one (the
//! reference and fast engines, and the GPU engine's CPU copy).

use rayon::prelude::*;

use crate::engine::{Bounds, CellRect, Put, Sampled, Universe};
use crate::grid::{Grid, Rect};
use crate::tiles::{TILE, TileMap};

pub fn universe(grid: &Grid) -> Universe {
    Universe::torus(grid.width(), grid.height())
}

/// (x, y) wrapped onto the torus.
pub fn wrap(grid: &Grid, x: i64, y: i64) -> (u32, u32) {
    (
        x.rem_euclid(grid.width() as i64) as u32,
        y.rem_euclid(grid.height() as i64) as u32,
    )
}

pub fn put(grid: &mut Grid, cells: &Grid, at: (i64, i64), how: Put) {
    let (x, y) = wrap(grid, at.0, at.1);
    match how {
        Put::Replace => grid.paste(cells, x, y),
        Put::Or => grid.combine(cells, x, y, |o, n| o | n),
        Put::Erase => grid.combine(cells, x, y, |o, n| o & !n),
    }
}

pub fn cells_in(grid: &Grid, rect: CellRect) -> Grid {
    let (x, y) = wrap(grid, rect.x, rect.y);
    grid.crop(Rect {
        x,
        y,
        width: rect.width,
        height: rect.height,
    })
}

pub fn bounds(grid: &Grid) -> Option<Bounds> {
    grid.bounding_box().map(|r| Bounds {
        left: r.x as i64,
        top: r.y as i64,
        right: r.x as i64 + r.width as i64 - 1,
        bottom: r.y as i64 + r.height as i64 - 1,
    })
}

/// The grid as tiles: tile column k is word k of each row, so this is a copy of words.
pub fn export(grid: &Grid) -> TileMap {
    let mut map = TileMap::new();
    for y in 0..grid.height() {
        let (ty, r) = (
            (y as i64).div_euclid(TILE),
            (y as i64).rem_euclid(TILE) as usize,
        );
        for (k, &w) in grid.row(y).iter().enumerate() {
            if w != 0 {
                map.tile_mut(k as i64, ty)[r] = w;
            }
        }
    }
    map
}

/// Replaces the grid's cells with `tiles`'; cells outside the torus wrap onto it.
pub fn import(grid: &mut Grid, tiles: &TileMap) {
    grid.clear();
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let fits = |(tx, ty): (i64, i64)| tx >= 0 && ty >= 0 && tx * TILE < w && ty * TILE < h;
    for ((tx, ty), bits) in tiles.iter() {
        if fits((tx, ty)) && (tx as u64) < (w as u64).div_ceil(64) {
            for (r, &word) in bits.iter().enumerate() {
                let y = ty * TILE + r as i64;
                if word == 0 {
                    continue;
                }
                if y < h {
                    let row = grid.row_mut(y as u32);
                    row[tx as usize] |= word;
                } else {
                    wrap_word(grid, tx * TILE, y, word);
                }
            }
        } else {
            for (r, &word) in bits.iter().enumerate() {
                if word != 0 {
                    wrap_word(grid, tx * TILE, ty * TILE + r as i64, word);
                }
            }
        }
    }
    // Bits past the width wrap round to the left edge.
    let mask = grid.last_word_mask();
    if mask != u64::MAX {
        let last = grid.words_per_row() - 1;
        for y in 0..grid.height() {
            let spill = grid.row(y)[last] & !mask;
            if spill != 0 {
                grid.row_mut(y)[last] &= mask;
                wrap_word(grid, last as i64 * 64, y as i64, spill);
            }
        }
    }
}

fn wrap_word(grid: &mut Grid, x0: i64, y: i64, word: u64) {
    for b in crate::grid::BitIter(word) {
        let (x, y) = wrap(grid, x0 + b as i64, y);
        grid.set(x, y, true);
    }
}

/// The live fraction of each `block x block` square of `rect`, by counting bits; very large
/// blocks count a spread of rows, which is what a pixel can show anyway.
pub fn sample(grid: &Grid, rect: CellRect, block: u32) -> Sampled {
    let block = block.max(1);
    let columns = rect.width.div_ceil(block);
    let rows = rect.height.div_ceil(block);
    // At most 16 rows of each block are counted.
    let row_step = (block / 16).max(1);
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut values = vec![0u8; columns as usize * rows as usize];
    values
        .par_chunks_mut(columns.max(1) as usize)
        .enumerate()
        .for_each(|(r, out)| {
            let r = r as u32;
            let bh = block.min(rect.height - r * block);
            let mut counts = vec![0u32; columns as usize];
            let mut counted_rows = 0u32;
            let mut dy = 0;
            while dy < bh {
                let y = (rect.y + (r * block + dy) as i64).rem_euclid(h) as u32;
                counted_rows += 1;
                let row = grid.row(y);
                for (c, count) in counts.iter_mut().enumerate() {
                    let x0 = rect.x + c as i64 * block as i64;
                    let bw = block.min(rect.width - c as u32 * block) as i64;
                    *count += count_run(row, (x0.rem_euclid(w)) as u32, bw as u32, grid.width());
                }
                dy += row_step;
            }
            for (c, v) in out.iter_mut().enumerate() {
                let bw = block.min(rect.width - c as u32 * block) as u64;
                let total = bw * counted_rows as u64;
                *v = super::sample_value(counts[c] as u64, total);
            }
        });
    Sampled {
        columns,
        rows,
        block,
        values,
    }
}

/// Live cells among `n` cells of a row from column `x` on, wrapping.
fn count_run(row: &[u64], x: u32, n: u32, width: u32) -> u32 {
    let (mut x, mut left, mut count) = (x, n.min(width), 0);
    while left > 0 {
        let take = left.min(width - x);
        let (mut i, off) = ((x / 64) as usize, x % 64);
        let mut rem = take;
        let mut word = row[i] >> off;
        let mut avail = 64 - off;
        loop {
            let t = rem.min(avail);
            let mask = if t == 64 { u64::MAX } else { (1u64 << t) - 1 };
            count += (word & mask).count_ones();
            rem -= t;
            if rem == 0 {
                break;
            }
            i += 1;
            word = row[i];
            avail = 64;
        }
        left -= take;
        x = (x + take) % width;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_round_trip_through_a_torus_whose_width_is_not_a_multiple_of_64() {
        let mut g = Grid::new(100, 70);
        g.fill_random(0.4, 3);
        let tiles = export(&g);
        let mut back = Grid::new(100, 70);
        import(&mut back, &tiles);
        assert_eq!(back, g);
        // Cells outside wrap in.
        let mut t = TileMap::new();
        t.set(100, 70, true);
        t.set(-1, 3, true);
        import(&mut back, &t);
        assert!(back.get(0, 0) && back.get(99, 3));
        assert_eq!(back.population(), 2);
    }

    #[test]
    fn samples_count_the_live_fraction_of_each_block() {
        let mut g = Grid::new(8, 4);
        for x in 0..4 {
            g.set(x, 0, true);
        }
        let s = sample(&g, CellRect::new(0, 0, 8, 4), 4);
        assert_eq!((s.columns, s.rows), (2, 1));
        assert_eq!(s.values, vec![(255 / 4) as u8, 0]);
        // Wrapping: the block starting at column 6 holds columns 6, 7, 0, 1.
        let s = sample(&g, CellRect::new(6, 0, 4, 4), 4);
        assert_eq!(s.values, vec![(2 * 255 / 16) as u8]);
    }
}
